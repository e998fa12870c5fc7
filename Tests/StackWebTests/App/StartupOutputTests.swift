import Foundation
import Testing

@testable import StackWebServer

/// What start-up prints goes to logs (systemd's journal) when not at a terminal: never the token.
@Suite struct StartupOutputTests {
    /// The lines after the first, up to the note that ends the control URL.
    static func addressLines(of server: ServerProcess) -> [String] {
        var lines: [String] = []
        while let line = server.nextLine() {
            lines.append(line)
            if line.hasPrefix("  (the control URL") { break }
        }
        return lines
    }

    @Test func aGeneratedTokenIsNotPrintedButKeptInAPrivateFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-token-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Bound to every address so a token is generated; every request below goes to 127.0.0.1.
        let server = try ServerProcess.start(arguments: [
            "--host", "0.0.0.0", "--state", folder.appendingPathComponent("state.db").path,
        ])
        defer { server.stop() }
        let lines = Self.addressLines(of: server)
        let file = folder.appendingPathComponent("token").path
        let token = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 32)
        #expect(!lines.isEmpty)
        #expect(!lines.contains { $0.contains(token) })
        #expect(lines.contains { $0.contains("control:") && $0.contains(file) })
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let reply = try HTTPTestClient(port: server.port).post(
            "/api/rooms/main/commands", json: #"{"command":"next"}"#, headers: ["Authorization": "Bearer \(token)"])
        #expect(reply.status == 200)
    }

    @Test func aGivenTokenIsNotPrinted() throws {
        let token = "given-token-0123456789"
        let server = try ServerProcess.start(arguments: ["--host", "0.0.0.0", "--token", token])
        defer { server.stop() }
        let lines = Self.addressLines(of: server)
        #expect(!lines.contains { $0.contains(token) })
        #expect(lines.contains { $0.contains("control:") && $0.contains("--token") })
    }
}
