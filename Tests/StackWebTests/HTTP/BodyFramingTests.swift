import Foundation
import Testing

@testable import StackWebServer

/// How a request body is framed, over raw sockets: lengths that lie, bodies that stall, chunks.
@Suite struct BodyFramingTests {
    /// Sends `raw` as is and reads the whole answer (the server closes after it).
    static func exchange(_ port: UInt16, _ raw: String) throws -> HTTPTestClient.Reply {
        let socket = try TestSocket(port: port)
        try socket.write(Array(raw.utf8))
        var bytes: [UInt8] = []
        while let chunk = try socket.read() { bytes += chunk }
        return try HTTPTestClient.parse(bytes, method: "POST")
    }

    static func head(_ port: UInt16, _ extra: String) -> String {
        "POST /api/rooms/main/commands HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Connection: close\r\n\(extra)\r\n"
    }

    @Test func anOverLongContentLengthIsRefusedFromTheHeaders() throws {
        let server = try TestServer()
        let reply = try Self.exchange(server.port, Self.head(server.port, "Content-Length: 1000000000\r\n"))
        #expect(reply.status == 413)
    }

    /// A malformed length is refused by libmicrohttpd 0.9.75 itself, before any callback of ours
    /// (docs/architecture.md, "The libmicrohttpd boundary"): 400, the connection closed, and the
    /// request behind it never run. What it sends is pinned here: its status line and headers twice,
    /// none of our headers. An upgrade that changes it fails this test, to be looked at again.
    @Test(arguments: ["abc", "5, 6", "-1"])
    func aMalformedContentLengthIsLibmicrohttpds400(length: String) throws {
        let server = try TestServer()
        let smuggled =
            "POST /api/rooms/main/commands HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "Content-Type: application/json\r\nContent-Length: 18\r\n\r\n{\"command\":\"next\"}"
        let socket = try TestSocket(port: server.port)
        try socket.write(Array((Self.head(server.port, "Content-Length: \(length)\r\n") + smuggled).utf8))
        var bytes: [UInt8] = []
        while let chunk = try socket.read() { bytes += chunk }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 "), "\(text)")
        #expect(text.components(separatedBy: "HTTP/1.1 400 ").count == 3, "\(text)")
        #expect(!text.contains("X-Content-Type-Options"), "\(text)")
        #expect(try server.snapshot()["current"] as? Int == 0)
    }

    @Test func aChunkedBodyIsAccepted() throws {
        let server = try TestServer()
        let body = #"{"command":"next"}"#
        let chunked =
            "6\r\n\(body.prefix(6))\r\n\(String(body.count - 6, radix: 16))\r\n\(body.dropFirst(6))\r\n0\r\n\r\n"
        let reply = try Self.exchange(server.port, Self.head(server.port, "Transfer-Encoding: chunked\r\n") + chunked)
        #expect(reply.status == 200)
        #expect(try server.snapshot()["current"] as? Int == 1)
    }

    @Test func aChunkedBodyOverTheLimitIs413() throws {
        let server = try TestServer()
        let chunk = String(repeating: " ", count: 16 * 1024)
        var raw = Self.head(server.port, "Transfer-Encoding: chunked\r\n")
        for _ in 0..<5 { raw += "4000\r\n\(chunk)\r\n" }
        raw += "0\r\n\r\n"
        #expect(try Self.exchange(server.port, raw).status == 413)
    }

    @Test func bothContentLengthAndTransferEncodingAreRefused() throws {
        let server = try TestServer()
        let raw =
            Self.head(server.port, "Content-Length: 18\r\nTransfer-Encoding: chunked\r\n")
            + "12\r\n{\"command\":\"next\"}\r\n0\r\n\r\n"
        #expect(try Self.exchange(server.port, raw).status == 400)
        #expect(try server.numberedSoFar() == 0)
    }

    @Test func aBodyThatStallsIsCutOffAndOthersAreServed() throws {
        let server = try TestServer {
            var limits = ServerLimits()
            limits.connectionTimeoutSeconds = 1
            $0.limits = limits
        }
        let stalled = try TestSocket(port: server.port, receiveTimeout: 10)
        try stalled.write(Array((Self.head(server.port, "Content-Length: 100\r\n") + "{\"comm").utf8))
        // Meanwhile everyone else is served.
        #expect(try server.http.get("/healthz").status == 200)
        let started = Date()
        var closed = false
        while !closed, Date().timeIntervalSince(started) < 8 {
            closed = (try? stalled.read()) == nil
        }
        #expect(closed)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(try server.numberedSoFar() == 0)
    }

    @Test func theLANStandardLimitsOneAddress() {
        #expect(ServerLimits.standard(loopbackOnly: false).perIPConnectionLimit == 256)
        #expect(ServerLimits.standard(loopbackOnly: true).perIPConnectionLimit == 0)
        #expect(ServerLimits.standard(loopbackOnly: true).connectionTimeoutSeconds == 60)
    }
}
