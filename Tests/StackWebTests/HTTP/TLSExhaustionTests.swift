import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// What a hostile guest can make HTTPS cost (issue #25, findings 1 and 2): only TLS 1.2+ with
/// forward-secret AEAD suites, a handshake that may not send more than 64 KiB, and handshakes
/// bounded per address so that one guest cannot take the polling thread from everyone.
@Suite struct TLSExhaustionTests {
    /// Whether openssl s_client completes a handshake with these arguments.
    static func negotiates(_ port: UInt16, _ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_client", "-connect", "127.0.0.1:\(port)", "-brief"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 && text.contains("Protocol version")
    }

    /// Whether the peer closed (end of stream or reset), rather than kept quiet until the timeout.
    static func isClosed(_ socket: TestSocket) -> Bool {
        do { return try socket.read() == nil } catch { return false }
    }

    @Test func onlyModernForwardSecretSuitesAreNegotiated() throws {
        let files = try TLSFixture.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try TLSFixture.server(files)
        #expect(try Self.negotiates(server.port, ["-tls1_3"]))
        #expect(try Self.negotiates(server.port, ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256"]))
        #expect(try Self.negotiates(server.port, ["-tls1_2", "-cipher", "ECDHE-RSA-CHACHA20-POLY1305"]))
        #expect(try !Self.negotiates(server.port, ["-tls1_1", "-cipher", "ALL:@SECLEVEL=0"]))
        #expect(try !Self.negotiates(server.port, ["-tls1", "-cipher", "ALL:@SECLEVEL=0"]))
        #expect(try !Self.negotiates(server.port, ["-tls1_2", "-cipher", "AES128-SHA:@SECLEVEL=0"]))
        #expect(try !Self.negotiates(server.port, ["-tls1_2", "-cipher", "ECDHE-RSA-AES128-SHA:@SECLEVEL=0"]))
    }

    /// A ClientHello declaring 16 MiB, sent in full-size records: the connection is closed once it
    /// has sent 64 KiB, instead of the server buffering it whole.
    @Test func anOversizedClientHelloIsCutOff() throws {
        let files = try TLSFixture.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try TLSFixture.server(files)
        let socket = try TestSocket(port: server.port, receiveTimeout: 3)
        let header: [UInt8] = [0x16, 0x03, 0x01, 0x40, 0x00]
        try socket.write(header + [0x01, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 0x4000 - 4))
        var sent = 0x4000
        var cut = false
        // 1 MiB at most: a server without the bound takes all of it and waits for more.
        while sent < 1 << 20 {
            do {
                try socket.write(header + [UInt8](repeating: 0, count: 0x4000))
            } catch {
                cut = true
                break
            }
            sent += 0x4000
        }
        if !cut { cut = Self.isClosed(socket) }
        #expect(cut, "the server still reads after \(sent) bytes")
    }

    /// One guest opening connections and never finishing a handshake gets 16 at once; past them
    /// it is closed at once, and another address is served meanwhile.
    @Test func handshakesAreBoundedPerAddress() throws {
        let files = try TLSFixture.makeCertificate()
        defer { try? FileManager.default.removeItem(at: files.folder) }
        let server = try TLSFixture.server(files)
        let guest = try (0..<40).map { _ in try TestSocket(port: server.port, source: "127.0.0.2", receiveTimeout: 0.2)
        }
        let closed = guest.filter(Self.isClosed).count
        #expect(closed >= 40 - 16)  // ServerLimits.pendingHandshakesPerAddress
        let health = try TLSFixture.run(
            "/usr/bin/curl", TLSFixture.curl(server.port, "/healthz", certificate: files.certificate))
        #expect(health.output.contains("\"ok\""))
        _ = guest
    }
}
