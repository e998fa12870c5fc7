import Foundation
import Testing

@testable import StackWebServer

/// Secrets where other local users cannot read them (issue #25, finding 7): the control token and
/// the group's Redis password from a file or the environment; on the command line (`ps` shows it
/// to everyone) they still work, with a warning at start.
@Suite struct SecretOptionTests {
    static let token = "abcdefghijklmnop1234"

    static func parse(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Configuration {
        guard case .run(let configuration) = try Configuration.parse(arguments: arguments, environment: environment)
        else { throw Configuration.Failure(description: "not a run") }
        return configuration
    }

    static func file(_ text: String) throws -> String {
        let path = try TemporaryFiles.folder() + "/secret"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func theTokenComesFromAFile() throws {
        let configuration = try Self.parse(["--token-file", try Self.file(Self.token + "\n")])
        #expect(configuration.token == Self.token)
        #expect(configuration.warnings.isEmpty)
        let fromEnvironment = try Self.parse([], ["STACKWEB_TOKEN_FILE": try Self.file(Self.token)])
        #expect(fromEnvironment.token == Self.token)
    }

    @Test func aTokenOnTheCommandLineIsWarnedOf() throws {
        let configuration = try Self.parse(["--token", Self.token])
        #expect(configuration.warnings.count == 1)
        #expect(configuration.warnings.first?.contains("--token-file") == true)
        #expect(!configuration.warnings.joined().contains(Self.token))
        #expect(try Self.parse([], ["STACKWEB_TOKEN": Self.token]).warnings.isEmpty)
    }

    @Test func aRedisPasswordComesFromAFileAndIsWarnedOfOnTheCommandLine() throws {
        let fromFile = try Self.parse([
            "--redis", "redis://127.0.0.1:6379", "--redis-password-file", try Self.file("s3cret\n"),
        ])
        #expect(fromFile.redis?.password == "s3cret")
        #expect(fromFile.warnings.isEmpty)
        let inline = try Self.parse(["--redis", "redis://:s3cret@127.0.0.1:6379"])
        #expect(inline.warnings.count == 1)
        #expect(!inline.warnings.joined().contains("s3cret"))
        #expect(try Self.parse([], ["STACKWEB_REDIS": "redis://:s3cret@127.0.0.1:6379"]).warnings.isEmpty)
    }

    @Test(arguments: [
        ["--token", token, "--token-file", "/nonexistent"], ["--token-file", "/nonexistent"],
        ["--redis-password-file", "/etc/hostname"],
    ])
    func contradictionsAndMissingFilesStopTheStart(arguments: [String]) {
        #expect(throws: Configuration.Failure.self) { try Self.parse(arguments) }
    }

    /// The warning reaches the operator's log at start, without the token.
    @Test func theWarningIsLoggedAtStart() throws {
        let lines = Locked<[String]>([])
        var configuration = try Self.parse(["--token", Self.token])
        configuration.port = 0
        configuration.resources = TestServer.repositoryRoot.appendingPathComponent("Resources").path
        let app = try Application(
            configuration: configuration, store: MemoryRoomStore(),
            log: OperatorLog(format: .text) { line in lines.withLock { $0.append(line) } })
        defer { app.stop() }
        #expect(
            lines.withLock { $0 }.contains { $0.contains("--token on the command line") && !$0.contains(Self.token) })
    }
}
