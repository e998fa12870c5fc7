import Foundation
import Testing

@testable import StackWebServer

/// HTTPS through libmicrohttpd's own TLS, with a self-signed certificate made for the test, checked
/// with curl as a real TLS client.
@Suite struct TLSTests {
    @Test func thePageAndAControlPostWorkOverTLS() throws {
        let files = try TLSFixture.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try TLSFixture.server(files)
        #expect(server.app.url.hasPrefix("https://"))
        let page = try TLSFixture.run(
            "/usr/bin/curl", TLSFixture.curl(server.port, "/", certificate: files.certificate))
        #expect(page.status == 0)
        #expect(page.output.contains("<canvas"))
        let post = try TLSFixture.run(
            "/usr/bin/curl",
            TLSFixture.curl(
                server.port, "/api/rooms/main/commands", certificate: files.certificate,
                [
                    "-H", "Content-Type: application/json", "-H", "Authorization: Bearer \(TLSFixture.token)",
                    "-H", "Origin: https://127.0.0.1:\(server.port)", "--data", #"{"command":"next"}"#,
                ]))
        #expect(post.output.contains("\"seq\""))
        #expect(try JSONSerialization.jsonObject(with: Data(post.output.utf8)) as? [String: Any] != nil)
        let snapshot = try TLSFixture.run(
            "/usr/bin/curl", TLSFixture.curl(server.port, "/api/rooms/main", certificate: files.certificate))
        #expect(snapshot.output.contains("\"current\":1"))
    }

    @Test func anEventStreamCarriesEventsOverTLS() throws {
        let files = try TLSFixture.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try TLSFixture.server(files)
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        stream.arguments =
            ["-N"] + TLSFixture.curl(server.port, "/api/rooms/main/events", certificate: files.certificate)
        let output = Pipe()
        stream.standardOutput = output
        stream.standardError = FileHandle.nullDevice
        try stream.run()
        defer { stream.terminate() }
        let received = Locked("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            received.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        defer { output.fileHandleForReading.readabilityHandler = nil }
        #expect(Self.wait { received.withLock { $0.contains("event: snapshot") } })
        for _ in 0..<2 {
            // Each one reaches the stream: a parked stream over TLS is resumed, never written around TLS.
            let status = try TLSFixture.run(
                "/usr/bin/curl",
                TLSFixture.curl(
                    server.port, "/api/rooms/main/commands", certificate: files.certificate,
                    [
                        "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json", "-H",
                        "Authorization: Bearer \(TLSFixture.token)", "--data", #"{"command":"next"}"#,
                    ])
            ).output
            #expect(status == "200")
        }
        #expect(Self.wait { received.withLock { $0.components(separatedBy: "\nid: ").count >= 3 } })
        #expect(server.app.server.streamCounters.directWrites == 0)
    }

    @Test func plainHTTPToTheTLSPortGetsNoAnswer() throws {
        let files = try TLSFixture.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try TLSFixture.server(files)
        let socket = try TestSocket(port: server.port, receiveTimeout: 3)
        try socket.write(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n".utf8))
        var raw: [UInt8] = []
        while let chunk = try? socket.read() { raw += chunk }
        #expect(!String(decoding: raw, as: UTF8.self).contains("HTTP/1.1"))
    }

    @Test func aMissingKeyOrCertificateStopsTheStart() throws {
        var configuration = Configuration()
        configuration.tlsCertificate = "/nonexistent/cert.pem"
        #expect(throws: Configuration.Failure.self) { try configuration.tlsCredentials() }
        configuration.tlsKey = "/nonexistent/key.pem"
        #expect(throws: HTTPServerError.self) { try configuration.tlsCredentials() }
    }

    /// A certificate is configuration: 78, which the unit does not restart in a loop.
    @Test func aMissingCertificateExits78() throws {
        let start = try RefusedStart(
            arguments: ["--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"], within: 20)
        #expect(start.status == 78, "\(start.errors)")
        #expect(start.errors.contains("/nonexistent/cert.pem"), "\(start.errors)")
    }

    /// Polls `condition` for up to five seconds.
    static func wait(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }
}
