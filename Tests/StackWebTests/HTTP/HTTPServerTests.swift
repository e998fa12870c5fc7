import Foundation
import Testing

@testable import StackWebServer

/// The HTTP surface over real sockets: page, static files, errors.
@Suite struct HTTPServerTests {
    @Test func pageIsServedWithAnETagAndRevalidates() throws {
        let server = try TestServer()
        let page = try server.http.get("/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<canvas"))
        let etag = try #require(page.header("ETag"))
        let again = try server.http.get("/", headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
    }

    @Test func pageModulesHaveJavaScriptType() throws {
        let server = try TestServer()
        let module = try server.http.get("/main.js")
        #expect(module.status == 200)
        #expect(module.header("Content-Type") == "text/javascript; charset=utf-8")
    }

    @Test(arguments: [
        "/Package.swift", "/web/index.html", "/demo-photos/01-sunset.jpg", "/etc/passwd",
    ])
    func onlyAllowListedFilesAreServed(path: String) throws {
        let server = try TestServer()
        let reply = try server.http.get(path)
        #expect(reply.status == 404)
        #expect(try reply.json()["error"] as? String == "not found")
    }

    @Test func healthzAnswers() throws {
        let server = try TestServer()
        let reply = try server.http.get("/healthz")
        #expect(reply.status == 200)
        #expect(try reply.json()["status"] as? String == "ok")
    }

    @Test func photosAreServedAsImages() throws {
        let server = try TestServer()
        let cards = try #require(try server.snapshot()["cards"] as? [[String: Any]])
        let src = try #require(cards.first?["src"] as? String)
        let photo = try server.http.get(src)
        #expect(photo.status == 200)
        #expect(photo.header("Content-Type") == "image/jpeg")
        #expect(photo.body.prefix(2) == [0xFF, 0xD8])
        #expect(try server.http.get("/photos/pmissing").status == 404)
    }

    @Test func metricsCountViewers() throws {
        let server = try TestServer()
        let viewer = try server.events()
        _ = try viewer.next()
        let metrics = try server.http.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains("stackweb_viewers{room=\"main\"} 1"))
    }
}
