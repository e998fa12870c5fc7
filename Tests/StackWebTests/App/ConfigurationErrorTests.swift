import Foundation
import Testing

@testable import StackWebServer

/// A configuration the server cannot run with is said in one line (one JSON object with
/// `--log-format json`), pointing to `--help` rather than printing it, and exits with 78
/// (`EX_CONFIG`), which the unit's `RestartPreventExitStatus=` does not restart.
@Suite struct ConfigurationErrorTests {
    static let cases: [[String]] = [["--bogus"], ["--port", "http"], ["--interval", "-3"], ["--style"]]

    @Test(arguments: cases)
    func aBadOptionIsOneLineAndExit78(arguments: [String]) throws {
        let start = try RefusedStart(arguments: arguments, within: 20)
        #expect(start.status == 78, "\(arguments): \(start.errors)")
        let lines = start.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): \(start.errors)")
        #expect(start.errors.contains("--help"), "\(start.errors)")
    }

    @Test func aBadOptionInJSONIsOneObjectWithItsLevel() throws {
        let start = try RefusedStart(arguments: ["--log-format", "json", "--bogus"], within: 20)
        #expect(start.status == 78)
        let lines = start.errors.split(separator: "\n")
        #expect(lines.count == 1, "\(start.errors)")
        let object = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
        #expect(object?["level"] as? String == "error", "\(start.errors)")
        #expect(object?["event"] as? String == "config.invalid", "\(start.errors)")
    }

    /// The `start` line: a level, and the addresses as data a collector can read.
    @Test func theStartEventCarriesItsLevelAndAddressesAsData() throws {
        CVipsSetup.start()
        var configuration = Configuration()
        configuration.port = 0
        configuration.host = "0.0.0.0"
        configuration.resources = TestServer.repositoryRoot.appendingPathComponent("Resources").path
        let lines = Locked<[String]>([])
        let app = try Application(
            configuration: configuration, store: MemoryRoomStore(),
            log: OperatorLog(format: .json) { line in lines.withLock { $0.append(line) } })
        defer { app.stop() }
        app.logStart()
        let line = try #require(lines.withLock { $0.last })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "start", "\(object)")
        #expect(object["level"] as? String == "info", "\(object)")
        let addresses = try #require(object["addresses"] as? [[String: Any]], "\(object)")
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { $0["kind"] is String }, "\(addresses)")
    }
}
