import Foundation
import Testing

@testable import StackWebServer

/// Request heads and bodies that bend the grammar get a clear, prompt refusal; ones that merely
/// differ in case or spacing where the RFCs allow it are accepted.
@Suite struct HeaderStrictnessTests {
    @Test(arguments: ["gzip", "gzip, chunked", "chunked, gzip", "identity", "compress"])
    func aTransferCodingOtherThanChunkedIs501AtOnce(coding: String) throws {
        let server = try TestServer()
        let raw =
            "POST /api/rooms/main/commands HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: \(coding)\r\nConnection: close\r\n\r\n"
        let started = Date()
        let reply = try TestSocket.exchange(server.port, Array(raw.utf8))
        #expect(reply.status == 501)
        #expect(try reply.json()["error"] is String)
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(try server.numberedSoFar() == 0)
    }

    @Test(arguments: [
        "X-Folded: a\r\n b\r\n", "X-Folded: a\r\n\tb\r\n", "X-Nul: a\u{0}b\r\n", "X-Nul-Last: ab\u{0}\u{0}\r\n",
        "X-Bare-CR: a\rb\r\n", "Bad Name: a\r\n",
    ])
    func aMalformedHeaderLineIs400(line: String) throws {
        let server = try TestServer()
        let reply = try TestSocket.getHealth(server.port, headerLines: Array(line.utf8))
        #expect(reply.status == 400)
        #expect(try reply.json()["error"] as? String != nil)
    }

    @Test func aNulHiddenInTheHostIs400() throws {
        let server = try TestServer()
        let raw =
            "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\u{0}.evil.example\r\nConnection: close\r\n\r\n"
        #expect(try TestSocket.exchange(server.port, Array(raw.utf8)).status == 400)
    }

    /// What browsers and tools send: tabs and no space after the colon, empty values, bare LF
    /// line ends, UTF-8 in a value.
    @Test(arguments: [
        "X-Tab:\tvalue\r\n", "X-Tight:value\r\n", "X-Empty:\r\n", "X-Empty-Spaced: \r\n",
        "X-UTF8: café\r\n",
        "Cookie: a=1; b=2\r\nX-After: 1\r\n",
    ])
    func wellFormedHeaderLinesAreServed(line: String) throws {
        let server = try TestServer()
        #expect(try TestSocket.getHealth(server.port, headerLines: Array(line.utf8)).status == 200)
    }

    @Test func bareLineFeedsAreServed() throws {
        let server = try TestServer()
        let raw = "GET /healthz HTTP/1.1\nHost: 127.0.0.1:\(server.port)\nConnection: close\n\n"
        #expect(try TestSocket.exchange(server.port, Array(raw.utf8)).status == 200)
    }

    static let token = "abcdefghijklmnop1234"

    @Test(arguments: [
        ("Bearer \(token)", 200), ("bearer \(token)", 200), ("BEARER \(token)", 200), ("Bearer  \(token)", 200),
        ("Bearer wrong-token-value", 403), ("Basic \(token)", 403), ("Bearer\(token)", 403), ("bearer", 403),
    ])
    func theAuthSchemeIsCaseInsensitive(authorization: String, status: Int) throws {
        let server = try TestServer { $0.token = Self.token }
        let reply = try server.http.post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#, headers: ["Authorization": authorization])
        #expect(reply.status == status)
    }

    @Test(arguments: [
        #"{"command":"next","\u0063ommand":"undo"}"#, #"{"\u0063ommand":"next","command":"undo"}"#,
        #"{"command":"goto","index":1,"in\u0064ex":2}"#, #"{"command":"next","comm\u0061nd":"next"}"#,
    ])
    func aDuplicateKeyHiddenByAnEscapeIs400(body: String) throws {
        let server = try TestServer()
        let reply = try server.http.post("/api/rooms/main/commands", json: body)
        #expect(reply.status == 400)
        #expect((try reply.json()["error"] as? String)?.hasPrefix("duplicate key") == true)
        #expect(try server.numberedSoFar() == 0)
    }

    @Test func aPointerBodyWithAnEscapedDuplicateIs400() throws {
        let server = try TestServer()
        let body = #"{"viewer":"v","\u0076iewer":"w","events":[]}"#
        let reply = try server.http.post("/api/rooms/main/pointer", json: body)
        #expect(reply.status == 400)
        #expect((try reply.json()["error"] as? String)?.hasPrefix("duplicate key") == true)
    }

    @Test(arguments: [
        (#"{"a":1,"\u0061":2}"#, true), (#"{"\n":1,"\u000a":2}"#, true), (#"{"\/":1,"/":2}"#, true),
        (#"{"é":1,"\u00e9":2}"#, true), (#"{"a":1,"\u0062":2}"#, false), (#"{"a\"":1,"a\\":2}"#, false),
    ])
    func escapedKeysAreComparedDecoded(json: String, duplicate: Bool) {
        let problem = JSONShape.problem(in: Array(json.utf8))
        if duplicate {
            if case .duplicateKey = problem {} else { Issue.record("\(json): \(String(describing: problem))") }
        } else {
            #expect(problem == nil)
        }
    }
}
