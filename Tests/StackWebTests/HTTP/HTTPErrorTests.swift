import Foundation
import Testing

@testable import StackWebServer

/// Every refusal is JSON `{"error": …}` with the contract's status.
@Suite struct HTTPErrorTests {
    struct Case: CustomStringConvertible, Sendable {
        var method: String
        var path: String
        var contentType: String? = "application/json"
        var body = ""
        var status: Int
        var description: String { "\(method) \(path) \(body.prefix(30)) → \(status)" }
    }

    static let cases: [Case] = [
        Case(method: "GET", path: "/nothing-here", status: 404),
        Case(method: "GET", path: "/api/rooms/main/pointer", status: 405),
        Case(method: "POST", path: "/api/rooms/main", body: "{}", status: 405),
        Case(method: "DELETE", path: "/index.html", status: 405),
        Case(method: "GET", path: "/api/rooms/Bad%21Room", status: 400),
        Case(method: "GET", path: "/api/rooms/-starts-with-dash", status: 400),
        Case(method: "POST", path: "/api/rooms/main/commands", body: "{\"command\":", status: 400),
        Case(method: "POST", path: "/api/rooms/main/commands", body: "[1,2]", status: 400),
        Case(method: "POST", path: "/api/rooms/main/commands", body: "{\"command\":\"explode\"}", status: 400),
        Case(method: "POST", path: "/api/rooms/main/commands", body: "{\"command\":\"goto\"}", status: 400),
        Case(
            method: "POST", path: "/api/rooms/main/commands", body: "{\"command\":\"goto\",\"index\":99}", status: 400),
        Case(
            method: "POST", path: "/api/rooms/main/commands", body: "{\"command\":\"goto\",\"index\":-1}", status: 400),
        Case(method: "POST", path: "/api/rooms/main/commands", body: "{\"command\":7}", status: 400),
        Case(
            method: "POST", path: "/api/rooms/main/commands", contentType: nil, body: "{\"command\":\"next\"}",
            status: 415),
        Case(
            method: "POST", path: "/api/rooms/main/commands", contentType: "text/plain", body: "{\"command\":\"next\"}",
            status: 415),
        Case(
            method: "POST", path: "/api/rooms/main/pointer",
            body: "{\"viewer\":\"v\",\"events\":[{\"type\":\"hover\",\"pointer\":1,\"x\":1,\"y\":1,\"t\":1}]}",
            status: 400),
        Case(
            method: "POST", path: "/api/rooms/main/pointer",
            body: "{\"viewer\":\"v\",\"events\":[{\"type\":\"down\",\"pointer\":1,\"x\":1e9,\"y\":1,\"t\":1}]}",
            status: 400),
        Case(method: "POST", path: "/api/rooms/main/pointer", body: "{\"viewer\":\"\",\"events\":[]}", status: 400),
        Case(method: "POST", path: "/api/rooms/main/pointer", body: "{\"events\":[]}", status: 400),
    ]

    @Test(arguments: cases)
    func refusalsAreJSONWithTheRightStatus(_ test: Case) throws {
        let server = try TestServer()
        var headers: [String: String] = [:]
        if let type = test.contentType { headers["Content-Type"] = type }
        let reply = try server.http.send(
            method: test.method, path: test.path, headers: headers, body: Array(test.body.utf8))
        #expect(reply.status == test.status)
        #expect(reply.header("Content-Type") == "application/json")
        let message = try reply.json()["error"] as? String
        #expect(message?.isEmpty == false)
        if test.status == 405 { #expect(reply.header("Allow") != nil) }
    }

    @Test func bodiesOverTheLimitAreRefusedWith413() throws {
        let server = try TestServer()
        let big = "{\"command\":\"next\",\"pad\":\"" + String(repeating: "x", count: 70 * 1024) + "\"}"
        let reply = try server.http.post("/api/rooms/main/commands", json: big)
        #expect(reply.status == 413)
        #expect(try server.numberedSoFar() == 0)
    }

    @Test func aRefusedRequestLeavesTheRoomAsItWas() throws {
        let server = try TestServer()
        let before = try server.snapshot()
        _ = try server.command("{\"command\":\"goto\",\"index\":1000}")
        let after = try server.snapshot()
        #expect(after["seq"] as? Int == before["seq"] as? Int)
        #expect(after["current"] as? Int == before["current"] as? Int)
    }
}
