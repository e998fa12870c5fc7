import Foundation
import Testing

@testable import StackWebServer

/// Host allow-list (DNS rebinding), Origin on POST, and raw paths, over real sockets.
@Suite struct RequestFilterTests {
    @Test(arguments: [
        ("127.0.0.1:8080", true), ("127.0.0.1", true), ("[::1]:8080", true), ("192.168.1.20:8080", true),
        ("localhost:8080", true), ("LOCALHOST", true), ("frame.lan", true), ("frame.lan:80", true),
        ("evil.example:8080", false), ("attacker.com", false), ("", false), (":8080", false),
        ("127.0.0.1:80:80", false), ("[::1", false), ("127.0.0.1:abc", false),
    ])
    func hostHeaders(host: String, allowed: Bool) {
        let filter = RequestFilter.standard(extraHosts: ["frame.lan"], hostname: "photobox")
        #expect(filter.isAllowed(hostHeader: host) == allowed)
        #expect(filter.isAllowed(hostHeader: "photobox.local:8080"))
    }

    @Test(arguments: [
        ["Host": "127.0.0.1", "host": "evil.example"], ["Host": "evil.example", "HOST": "127.0.0.1"],
        ["Origin": "http://127.0.0.1", "origin": "http://evil.example"],
        ["Content-Type": "application/json", "content-type": "text/plain"],
        ["Authorization": "Bearer a", "authorization": "Bearer b"],
    ])
    func aRepeatedSingleHeaderIsRefusedWith400(headers: [String: String]) throws {
        let server = try TestServer()
        var headers = headers
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { headers["Host"] = "127.0.0.1:\(server.port)" }
        if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
            headers["Content-Type"] = "application/json"
        }
        let reply = try server.http.send(
            method: "POST", path: "/api/rooms/main/commands", headers: headers, body: Array(#"{"command":"next"}"#.utf8)
        )
        #expect(reply.status == 400)
        #expect(
            try reply.json()["error"] as? String
                == "a request may carry each of host, origin, authorization, content-type, content-length, transfer-encoding once only"
        )
        #expect(try server.numberedSoFar() == 0)
    }

    @Test(arguments: ["GET", "POST"])
    func anUnknownHostIsRefusedWith403(method: String) throws {
        let server = try TestServer()
        let reply = try server.http.send(
            method: method, path: method == "GET" ? "/" : "/api/rooms/main/commands",
            headers: ["Host": "rebound.attacker.example", "Content-Type": "application/json"],
            body: Array(#"{"command":"next"}"#.utf8))
        #expect(reply.status == 403)
        #expect(try reply.json()["error"] as? String != nil)
        #expect(try server.numberedSoFar() == 0)
    }

    @Test func anAllowedHostNameWorks() throws {
        let server = try TestServer { $0.allowedHosts = ["frame.lan"] }
        #expect(try server.http.get("/", headers: ["Host": "frame.lan:8080"]).status == 200)
    }

    @Test(arguments: [
        ("http://evil.example", 403), ("null", 403), ("https://127.0.0.1:PORT", 403), ("http://127.0.0.1:PORT", 200),
    ])
    func postsFromAnotherOriginAreRefused(origin: String, status: Int) throws {
        let server = try TestServer()
        let reply = try server.http.post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#,
            headers: ["Origin": origin.replacingOccurrences(of: "PORT", with: String(server.port))])
        #expect(reply.status == status)
    }

    /// Behind a proxy that terminates TLS (docs/scale-out/nginx-http2.conf) the page's Origin is
    /// `https://` while this server speaks plain HTTP: the proxy's `X-Forwarded-Proto` says so.
    @Test(arguments: [
        ("https://127.0.0.1:PORT", "https", 200), ("http://127.0.0.1:PORT", "https", 403),
        ("https://evil.example", "https", 403), ("http://127.0.0.1:PORT", "http", 200),
        ("https://127.0.0.1:PORT", "gopher", 403),
    ])
    func aProxysForwardedSchemeIsTheOriginsScheme(origin: String, forwarded: String, status: Int) throws {
        let server = try TestServer()
        let reply = try server.http.post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#,
            headers: [
                "Origin": origin.replacingOccurrences(of: "PORT", with: String(server.port)),
                "X-Forwarded-Proto": forwarded,
            ])
        #expect(reply.status == status)
    }

    @Test(arguments: [
        "/../Package.swift", "/%2e%2e/Package.swift", "/..%2fPackage.swift", "/photos/..%2f..%2fetc%2fpasswd",
        "/index.html%00.png",
        "/%252e%252e/x", "/a//b", "/api/rooms/main/../main", "/.\\index.html", "/photos/%5c..%5cx",
    ])
    func smuggledPathsAreRefused(target: String) throws {
        let server = try TestServer()
        let reply = try server.http.get(target)
        #expect(reply.status == 400)
        #expect((try reply.json()["error"] as? String)?.hasPrefix("malformed request path") == true)
    }

    @Test func aPlainQueryStringIsFine() throws {
        let server = try TestServer()
        #expect(try server.http.get("/?room=main&kiosk=1").status == 200)
    }
}
