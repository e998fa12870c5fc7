import Foundation
import Testing

@testable import StackWebServer

/// HTTPS for tests: a self-signed certificate made for the test, a server that uses it, and curl
/// (a real TLS client) trusting only that certificate.
enum TLSFixture {
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
}
