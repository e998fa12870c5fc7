import Foundation
import Testing

@testable import StackWebServer

/// The request head past the grammar: control bytes, a missing or dotted `Host`, requests sent
/// back to back on one connection, and the headers every answer carries.
@Suite struct RequestHeadTests {
    /// Every control byte but the tab is refused in a header value (RFC 9110 §5.5): one may end a
    /// line for some reader further on, or forge one in a log.
    @Test(arguments: [0x01, 0x07, 0x08, 0x0B, 0x0C, 0x0E, 0x1B, 0x1F, 0x7F])
    func aControlByteInAHeaderIs400(byte: UInt8) throws {
        let server = try TestServer()
        let line = Array("X-Control: a".utf8) + [byte] + Array("b\r\n".utf8)
        let reply = try TestSocket.getHealth(server.port, headerLines: line)
        #expect(reply.status == 400)
        #expect(try reply.json()["error"] is String)
    }

    @Test func http11WithoutHostIs400() throws {
        let server = try TestServer()
        let raw = "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n"
        let reply = try TestSocket.exchange(server.port, Array(raw.utf8))
        #expect(reply.status == 400)
        #expect(try reply.json()["error"] is String)
    }

    @Test func http10WithoutHostIsServed() throws {
        let server = try TestServer()
        let raw = "GET /healthz HTTP/1.0\r\n\r\n"
        #expect(try TestSocket.exchange(server.port, Array(raw.utf8)).status == 200)
    }

    /// A fully qualified name may end in a dot; it is the same name.
    @Test(arguments: ["localhost.", "LOCALHOST.", "localhost.:8080", "127.0.0.1"])
    func aNameWithItsRootDotIsServed(host: String) throws {
        let server = try TestServer()
        #expect(try server.http.get("/healthz", headers: ["Host": host]).status == 200)
    }

    @Test(arguments: ["localhost..", ".", "evil.example.", "localhost.evil."])
    func otherNamesAreStill403(host: String) throws {
        let server = try TestServer()
        #expect(try server.http.get("/healthz", headers: ["Host": host]).status == 403)
    }

    /// Two requests in one write: both answered, in order (or the first answered and the
    /// connection closed, which a client retries) — never the second dropped in silence.
    @Test(arguments: ["/healthz", "/api/rooms/main", "/index.html", "/nowhere"])
    func pipelinedRequestsAreAnsweredInOrder(first: String) throws {
        let server = try TestServer()
        let host = "Host: 127.0.0.1:\(server.port)\r\n"
        let raw = "GET \(first) HTTP/1.1\r\n\(host)\r\nGET /api/rooms HTTP/1.1\r\n\(host)Connection: close\r\n\r\n"
        let socket = try TestSocket(port: server.port, receiveTimeout: 3)
        try socket.write(Array(raw.utf8))
        var bytes: [UInt8] = []
        while let chunk = try socket.read() { bytes += chunk }
        let text = String(decoding: bytes, as: UTF8.self)
        let answers = text.components(separatedBy: "HTTP/1.1 ").dropFirst()
        #expect(answers.count == 2 || (answers.count == 1 && answers.first?.contains("Connection: close") == true))
        if answers.count == 2 { #expect(answers.last?.contains(#""limit""#) == true) }
    }
}
