import Foundation
import Testing

@testable import StackWebServer

/// Bodies no page would send: each is refused with 400 (or 429) and changes nothing.
@Suite struct BadInputTests {
    static let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)

    @Test(arguments: [
        #"{"command":"next","command":"previous"}"#,
        #"{"command":"goto","index":1,"index":2}"#,
        #"{"command":"next","x":"# + deep + "}",
        #"{"command":NaN}"#, #"{"command":"goto","index":1e400}"#, #"{"command":"goto","index":1.5}"#,
        #"{"command":"goto","index":"1"}"#, #"{"command":null}"#, #"{"command":"next"} trailing"#, "", "null",
        #"{"viewer":"v","events":[{"type":"down","pointer":1,"x":Infinity,"y":1,"t":1}]}"#,
    ])
    func malformedCommandsAre400(body: String) throws {
        let server = try TestServer()
        let reply = try server.http.post("/api/rooms/main/commands", json: body)
        #expect(reply.status == 400)
        #expect(try reply.json()["error"] is String)
        #expect(try server.numberedSoFar() == 0)
    }

    @Test func invalidUTF8Is400() throws {
        let server = try TestServer()
        let body: [UInt8] = Array(#"{"command":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let reply = try server.http.send(
            method: "POST", path: "/api/rooms/main/commands", headers: ["Content-Type": "application/json"], body: body)
        #expect(reply.status == 400)
        #expect(try reply.json()["error"] as? String == "the body is not valid UTF-8")
    }

    @Test(arguments: [
        ("{}", nil), (#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#, nil),
        (#"{"a":1,"a":2}"#, JSONShape.Problem.duplicateKey("a")),
        (#"{"a\"b":1,"a\"b":2}"#, .duplicateKey(#"a\"b"#)), (#"["a","a"]"#, nil),
        (String(repeating: "[", count: 17) + String(repeating: "]", count: 17), .tooDeep),
        (String(repeating: "[", count: 16) + String(repeating: "]", count: 16), nil),
        (#"{"s":"{[{[{[{[{[{[{[{[{[{[{[{[{[{[{[{["}"#, nil),
    ])
    func shapeChecks(json: String, problem: JSONShape.Problem?) {
        #expect(JSONShape.problem(in: Array(json.utf8)) == problem)
    }

    @Test func aPointerFloodGets429AndOthersAreUnaffected() throws {
        let server = try TestServer()
        let move = #"{"type":"move","pointer":1,"x":10,"y":10,"t":1}"#
        let batch = #"{"viewer":"flood","events":[\#(Array(repeating: move, count: 500).joined(separator: ","))]}"#
        #expect(try server.http.post("/api/rooms/main/pointer", json: batch).status == 200)
        // 300 samples a second refill the bucket: a flood outruns that at once, however slow this
        // machine (or a sanitizer) makes each request.
        var refused: HTTPTestClient.Reply?
        for _ in 0..<20 where refused == nil {
            let reply = try server.http.post("/api/rooms/main/pointer", json: batch)
            if reply.status != 200 { refused = reply }
        }
        #expect(refused?.status == 429)
        #expect(refused?.header("Retry-After") == "1")
        let other = #"{"viewer":"calm","events":[\#(move)]}"#
        #expect(try server.http.post("/api/rooms/main/pointer", json: other).status == 200)
    }

    @Test func rotatingTheViewerFieldDoesNotMultiplyTheRate() throws {
        let server = try TestServer()
        let move = #"{"type":"move","pointer":1,"x":10,"y":10,"t":1}"#
        let events = Array(repeating: move, count: 500).joined(separator: ",")
        let started = Date()
        var (accepted, refusals) = (0, 0)
        for batch in 0..<40 {
            let reply = try server.http.post(
                "/api/rooms/main/pointer", json: #"{"viewer":"v\#(batch)","events":[\#(events)]}"#)
            if reply.status == 200 { accepted += 500 } else if reply.status == 429 { refusals += 1 }
        }
        let elapsed = Date().timeIntervalSince(started)
        // Before, every new viewer id had a fresh bucket: all 20,000 samples were taken.
        #expect(refusals > 0)
        #expect(
            Double(accepted) <= PointerRateLimiter.addressBurst + PointerRateLimiter.addressPerSecond * elapsed + 500,
            "\(accepted) samples accepted in \(elapsed) s")
    }

    @Test func theRateLimiterRefillsOverTime() {
        var limiter = PointerRateLimiter()
        let outcomes = [
            limiter.allow(600, from: "v", at: "a", now: 0), limiter.allow(1, from: "v", at: "a", now: 0),
            limiter.allow(300, from: "v", at: "a", now: 1000), limiter.allow(2, from: "v", at: "a", now: 1000),
            limiter.allow(600, from: "w", at: "a", now: 1000),
        ]
        #expect(outcomes == [true, false, true, false, true])
        // Rotating the viewer id: each new id has a full bucket, the address does not.
        var rotating = PointerRateLimiter()
        let accepted = (0..<100).filter { rotating.allow(600, from: "v\($0)", at: "b", now: 2000) }.count * 600
        #expect(Double(accepted) == PointerRateLimiter.addressBurst)
    }
}
