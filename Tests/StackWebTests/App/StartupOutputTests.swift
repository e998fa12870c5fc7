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

    /// Start-up says what to open on the TV and on a phone, at an address a LAN device reaches.
    @Test func theWallAndTheAddPageArePrintedAtTheLANAddress() throws {
        let server = try UploadFixture { configuration in
            configuration.host = "0.0.0.0"
            configuration.token = UploadFixture.controlToken
            configuration.addToken = UploadFixture.addToken
        }.server
        let lines = server.app.addressLines(toTerminal: true)
        let lan = try #require(NetworkAddresses.lanIPv4().first.map { "http://\($0):\(server.port)/" })
        let wall = "  wall:    \(lan)?kiosk=1&qr=1 (on a TV or frame: full screen, no controls)"
        #expect(lines.contains(wall), "\(lines)")
        #expect(lines.contains("  control: \(lan)?token=\(UploadFixture.controlToken)"), "\(lines)")
        #expect(lines.contains("  add:     \(lan)add?room=main#token=\(UploadFixture.addToken)"), "\(lines)")
        #expect(!lines.contains { $0.contains("127.0.0.1") })
    }

    @Test func aLoopbackServerSaysPhonesCannotReachItAndThePublicURLIsUsedWhenGiven() throws {
        let lines = try UploadFixture().server.app.addressLines(toTerminal: true)
        #expect(lines.contains("  note:    " + AddCodes.unreachable), "\(lines)")
        let publicURL = try PublicURL(parsing: "https://frame.example")
        let behind = try UploadFixture { $0.publicURL = publicURL }.server.app.addressLines(toTerminal: true)
        #expect(behind.first == "  view:    https://frame.example/")
        let add = "  add:     https://frame.example/add?room=main (guests' phones open it from the wall's QR code)"
        #expect(behind.contains(add))
        #expect(!behind.contains { $0.hasPrefix("  note:") })
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
