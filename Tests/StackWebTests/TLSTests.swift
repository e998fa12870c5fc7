import Foundation
import Testing

@testable import StackWebServer

/// HTTPS through libmicrohttpd's own TLS, with a self-signed certificate made for the test, checked
/// with curl as a real TLS client.
@Suite struct TLSTests {
    /// A certificate for `localhost` and 127.0.0.1 and its key, in a fresh folder.
    static func makeCertificate() throws -> (folder: URL, certificate: String, key: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-tls-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        let status = try run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", certificate,
            ]
        ).status
        #expect(status == 0)
        return (folder, certificate, key)
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let token = "abcdefghijklmnop1234"

    static func server(_ files: (folder: URL, certificate: String, key: String)) throws -> TestServer {
        try TestServer {
            $0.tlsCertificate = files.certificate
            $0.tlsKey = files.key
            $0.token = token
        }
    }

    /// curl's arguments for `path` on the test server, trusting only the test's certificate.
    static func curl(_ port: UInt16, _ path: String, certificate: String, _ extra: [String] = []) -> [String] {
        ["-sS", "--max-time", "10", "--cacert", certificate, "https://127.0.0.1:\(port)\(path)"] + extra
    }

    @Test func thePageAndAControlPostWorkOverTLS() throws {
        let files = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try Self.server(files)
        #expect(server.app.url.hasPrefix("https://"))
        let page = try Self.run("/usr/bin/curl", Self.curl(server.port, "/", certificate: files.certificate))
        #expect(page.status == 0)
        #expect(page.output.contains("<canvas"))
        let post = try Self.run(
            "/usr/bin/curl",
            Self.curl(
                server.port, "/api/rooms/main/commands", certificate: files.certificate,
                [
                    "-H", "Content-Type: application/json", "-H", "Authorization: Bearer \(Self.token)",
                    "-H", "Origin: https://127.0.0.1:\(server.port)", "--data", #"{"command":"next"}"#,
                ]))
        #expect(post.output.contains("\"seq\""))
        #expect(try JSONSerialization.jsonObject(with: Data(post.output.utf8)) as? [String: Any] != nil)
        let snapshot = try Self.run(
            "/usr/bin/curl", Self.curl(server.port, "/api/rooms/main", certificate: files.certificate))
        #expect(snapshot.output.contains("\"current\":1"))
    }

    @Test func anEventStreamCarriesEventsOverTLS() throws {
        let files = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try Self.server(files)
        let stream = Process()
        stream.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        stream.arguments = ["-N"] + Self.curl(server.port, "/api/rooms/main/events", certificate: files.certificate)
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
            let status = try Self.run(
                "/usr/bin/curl",
                Self.curl(
                    server.port, "/api/rooms/main/commands", certificate: files.certificate,
                    [
                        "-o", "/dev/null", "-w", "%{http_code}", "-H", "Content-Type: application/json", "-H",
                        "Authorization: Bearer \(Self.token)", "--data", #"{"command":"next"}"#,
                    ])
            ).output
            #expect(status == "200")
        }
        #expect(Self.wait { received.withLock { $0.components(separatedBy: "\nid: ").count >= 3 } })
        #expect(server.app.server.streamCounters.directWrites == 0)
    }

    @Test func plainHTTPToTheTLSPortGetsNoAnswer() throws {
        let files = try Self.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try Self.server(files)
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
