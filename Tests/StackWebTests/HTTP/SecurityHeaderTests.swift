import Foundation
import Testing

@testable import StackWebServer

/// Every answer — the page, its files and their 304s, JSON, errors, photos, event streams — carries
/// the same security headers, and the policy lets only the page's own scripts run.
@Suite struct SecurityHeaderTests {
    static func expectSecured(_ reply: HTTPTestClient.Reply, framed: Bool = false, _ what: String) {
        let policy = reply.header("Content-Security-Policy") ?? ""
        #expect(policy.contains("script-src 'self'"), "\(what)")
        #expect(!policy.contains("unsafe"), "\(what)")
        #expect(policy.contains("frame-ancestors 'none'") == !framed, "\(what)")
        #expect(reply.header("X-Frame-Options") == (framed ? nil : "DENY"), "\(what)")
        #expect(reply.header("X-Content-Type-Options") == "nosniff", "\(what)")
        #expect(reply.header("Referrer-Policy") == "no-referrer", "\(what)")
    }

    @Test func everyKindOfAnswerCarriesThem() throws {
        let server = try TestServer()
        let page = try server.http.get("/")
        let photo = try #require((try server.snapshot()["cards"] as? [[String: Any]])?.first?["src"] as? String)
        let answers: [(String, HTTPTestClient.Reply)] = [
            ("page", page), ("304", try server.http.get("/", headers: ["If-None-Match": page.header("ETag") ?? ""])),
            ("script", try server.http.get("/main.js")), ("snapshot", try server.http.get("/api/rooms/main")),
            ("404", try server.http.get("/api/rooms/Nope")), ("health", try server.http.get("/healthz")),
            ("command", try server.command(#"{"command":"next"}"#)), ("photo", try server.http.get(photo)),
            ("variant", try server.http.get(photo + "&w=300")),
            ("403", try server.http.get("/", headers: ["Host": "x.example"])),
        ]
        for (what, reply) in answers { Self.expectSecured(reply, what) }
    }

    @Test func anEventStreamCarriesThem() throws {
        let server = try TestServer()
        let socket = try TestSocket(port: server.port, receiveTimeout: 2)
        try socket.write(Array("GET /api/rooms/main/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let head = String(decoding: try #require(try socket.read()), as: UTF8.self).lowercased()
        #expect(head.contains("content-security-policy: default-src 'none'"))
        #expect(head.contains("x-content-type-options: nosniff"))
        // A request sent behind a stream would never be answered: the stream says the connection ends with it.
        #expect(head.contains("connection: close"))
    }

    @Test func embeddingIsAllowedOnlyWhenAsked() throws {
        let server = try TestServer { $0.allowEmbedding = true }
        Self.expectSecured(try server.http.get("/"), framed: true, "page")
    }
}
