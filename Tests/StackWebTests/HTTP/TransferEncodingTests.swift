import Foundation
import Testing

@testable import StackWebServer

/// `Transfer-Encoding` is read the way libmicrohttpd reads it: only a value that is exactly
/// `chunked` (any case, spaces before it) gets its body decoded, so only that one is let through.
/// Every other spelling — including ones RFC 9110 would call chunked, such as a trailing space —
/// is answered at once instead of leaving the client waiting for an answer that never comes.
@Suite struct TransferEncodingTests {
    static func post(_ port: UInt16, coding: String, body: String = "") throws -> (HTTPTestClient.Reply, TimeInterval) {
        let raw =
            "POST /api/rooms/main/commands HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            + "Content-Type: application/json\r\nTransfer-Encoding: \(coding)\r\nConnection: close\r\n\r\n" + body
        let started = Date()
        let reply = try TestSocket.exchange(port, Array(raw.utf8))
        return (reply, Date().timeIntervalSince(started))
    }

    /// Odd forms, each with the answer it gets: 501 for a coding we cannot undo or a `chunked`
    /// libmicrohttpd would not decode, 400 for what is malformed outright.
    @Test(arguments: [
        ("chunked ", 501), ("chunked\t", 501), ("chunked  \t ", 501), ("chunked,", 501), (", chunked", 501),
        ("chunked , ", 501), ("chunked;ext=1", 501), ("\"chunked\"", 501), ("x-chunked", 501), ("chunkedx", 501),
        ("chunked, chunked", 400), ("chunked,chunked", 400), ("", 400), (" ", 400), (",", 400),
        ("chunked\u{0B}", 400), ("chunked\u{0C}", 400),
    ])
    func anOddFormIsAnsweredAtOnce(coding: String, status: Int) throws {
        let server = try TestServer()
        let (reply, seconds) = try Self.post(server.port, coding: coding)
        #expect(reply.status == status, "\(coding.debugDescription)")
        #expect(try reply.json()["error"] is String)
        #expect(seconds < 1)
        #expect(try server.numberedSoFar() == 0)
    }

    /// The forms libmicrohttpd decodes are served, body and all.
    @Test(arguments: ["chunked", "Chunked", "CHUNKED", " chunked", "\tchunked"])
    func chunkedIsDecoded(coding: String) throws {
        let server = try TestServer()
        let json = #"{"command":"next"}"#
        let body = String(json.utf8.count, radix: 16) + "\r\n" + json + "\r\n0\r\n\r\n"
        let (reply, seconds) = try Self.post(server.port, coding: coding, body: body)
        #expect(reply.status == 200, "\(coding.debugDescription)")
        #expect(seconds < 1)
        #expect(try server.numberedSoFar() == 1)
    }

    @Test(arguments: [
        ("chunked", true), ("ChUnKeD", true), ("chunked ", false), ("chunked,", false), ("gzip, chunked", false),
    ])
    func theDecisionIsPure(coding: String, passes: Bool) {
        #expect((RequestFilter.transferCodingRefusal(coding) == nil) == passes)
    }
}
