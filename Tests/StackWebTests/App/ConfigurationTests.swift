import Foundation
import StackModel
import Testing

@testable import StackWebServer

@Suite struct ConfigurationTests {
    @Test func defaults() throws {
        #expect(try Configuration.parse(arguments: [], environment: [:]) == .run(Configuration()))
    }

    @Test func argumentsWinOverEnvironment() throws {
        let outcome = try Configuration.parse(
            arguments: ["--port", "9000", "--stage=800x600"],
            environment: ["STACKWEB_PORT": "7000", "STACKWEB_HOST": "0.0.0.0", "STACKWEB_PHOTOS": "/p"])
        var expected = Configuration()
        expected.port = 9000
        expected.host = "0.0.0.0"
        expected.photos = "/p"
        expected.stage = StageSize(width: 800, height: 600)
        #expect(outcome == .run(expected))
    }

    @Test(arguments: [
        ["--port", "70000"], ["--stage", "10x10"], ["--style", "cube"], ["--bogus", "1"], ["--port"], ["x"],
    ])
    func badArgumentsAreRefused(arguments: [String]) {
        #expect(throws: Configuration.Failure.self) { try Configuration.parse(arguments: arguments, environment: [:]) }
    }

    @Test func helpAndVersion() throws {
        #expect(try Configuration.parse(arguments: ["--help"], environment: [:]) == .help)
        #expect(try Configuration.parse(arguments: ["--version"], environment: [:]) == .version)
    }
}
