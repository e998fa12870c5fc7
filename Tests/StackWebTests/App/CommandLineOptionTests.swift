import Foundation
import Testing

@testable import StackWebServer

@Suite struct CommandLineOptionTests {
    /// A valid value that is not the default, for each option that takes one: a new option needs one
    /// here before `everyOptionParsesFromArgumentAndEnvironment` passes.
    static let samples = [
        "--host": "0.0.0.0", "--port": "9000", "--photos": "/p", "--style": "grid", "--stage": "800x600",
        "--resources": "/r", "--interval": "20", "--transition": "kenburns", "--order": "date",
        "--sleep": "23:00-07:00", "--cache": "/c",
        "--token": "abcdefghijklmnop", "--state": "/s.json", "--allowed-host": "frame.lan", "--rooms": "hall",
        "--public-url": "https://frame.example",
        "--max-cards": "500", "--max-pixels": "8M", "--max-clip-seconds": "20", "--album": "kitchen=Kitchen",
        "--tls-cert": "/cert.pem", "--tls-key": "/key.pem",
        "--cache-size": "500M", "--rescan": "60", "--log-format": "json", "--redis": "redis://:secret@10.0.0.5:6380/2",
        "--instance-id": "web-1", "--token-file": secretFile, "--redis-password-file": secretFile,
        "--uploads": "party=open", "--add-token": "abcdefghijklmnop-add", "--add-token-file": secretFile,
        "--uploads-dir": "/p/guests", "--uploads-at": "back", "--max-upload-size": "20M", "--uploads-quota": "2G",
    ]

    /// A file holding a valid token (and password), for the options that read one.
    static let secretFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-secret-\(UUID())").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("abcdefghijklmnop-from-file\n".utf8))
        return path
    }()

    /// Arguments an option needs beside it.
    static let prerequisites = ["--redis-password-file": ["--redis", "redis://10.0.0.5"]]

    /// The outcome without its warnings: a secret on the command line is warned of, in the environment not.
    static func quiet(_ outcome: Configuration.Outcome) -> Configuration.Outcome {
        guard case .run(var configuration) = outcome else { return outcome }
        configuration.warnings = []
        return .run(configuration)
    }

    static func parse(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Configuration.Outcome {
        try Configuration.parse(arguments: arguments, environment: environment)
    }

    static func failure(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try Configuration.parse(arguments: arguments, environment: environment)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func namesAndVariablesAreUnique() {
        let spellings = Configuration.options.flatMap { [$0.name] + $0.aliases }
        #expect(Set(spellings).count == spellings.count)
        let variables = Configuration.options.compactMap(\.environmentVariable)
        #expect(Set(variables).count == variables.count)
        #expect(Configuration.options.allSatisfy { $0.name.hasPrefix("--") && !$0.name.contains("=") })
    }

    @Test func variablesAreDerivedFromTheName() {
        let variables = Dictionary(
            uniqueKeysWithValues: Configuration.options.map { ($0.name, $0.environmentVariable) })
        #expect(variables["--photos"] == "STACKWEB_PHOTOS")
        #expect(variables["--allowed-host"] == "STACKWEB_ALLOWED_HOST")
        #expect(variables["--no-token"] == "STACKWEB_NO_TOKEN")
        #expect(variables["--help"] == .some(nil))
    }

    @Test(arguments: Configuration.options.map(\.name))
    func everyOptionParsesFromArgumentAndEnvironment(name: String) throws {
        let option = try #require(Configuration.options.first { $0.name == name })
        switch option.effect {
        case .value:
            let sample = try #require(Self.samples[name], "no sample value for \(name) in CommandLineOptionTests")
            let variable = try #require(option.environmentVariable)
            let before = Self.prerequisites[name] ?? []
            let fromArgument = Self.quiet(try Self.parse(before + [name, sample]))
            #expect(fromArgument != .run(Configuration()))
            #expect(Self.quiet(try Self.parse(before + ["\(name)=\(sample)"])) == fromArgument)
            #expect(try Self.parse(before, [variable: sample]) == fromArgument)
        case .flag:
            let variable = try #require(option.environmentVariable)
            let fromArgument = try Self.parse([name])
            #expect(fromArgument != .run(Configuration()))
            #expect(try Self.parse([], [variable: "1"]) == fromArgument)
            for off in ["", "0", "false"] { #expect(try Self.parse([], [variable: off]) == .run(Configuration())) }
        case .finish(let outcome):
            for spelling in [name] + option.aliases { #expect(try Self.parse([spelling, "--bogus"]) == outcome) }
            #expect(option.environmentVariable == nil)
        }
    }

    @Test func shownDefaultsAreTheDefaults() throws {
        for option in Configuration.options {
            guard case .value(let value) = option.shownDefault else { continue }
            #expect(try Self.parse([option.name, value]) == .run(Configuration()), "\(option.name) \(value)")
        }
    }

    @Test func usageListsEveryOptionWithinTheWidth() {
        let lines = Configuration.usage.split(separator: "\n", omittingEmptySubsequences: false)
        for option in Configuration.options {
            let synopsis = CommandLineHelp.synopsis(of: option)
            #expect(lines.contains { $0.hasPrefix("  " + synopsis + " ") }, "usage lacks \(synopsis)")
        }
        #expect(lines.allSatisfy { $0.count <= CommandLineHelp.lineWidth })
        #expect(!Configuration.usage.contains("`"))
    }

    @Test func helpIsWrappedIntoItsColumn() {
        #expect(CommandLineHelp.wrap("aa bb cc dd", width: 5) == ["aa bb", "cc dd"])
        #expect(CommandLineHelp.wrap("a verylongword b", width: 4) == ["a", "verylongword", "b"])
        let interval = Configuration.usage.split(separator: "\n").drop { !$0.hasPrefix("  --interval ") }
        let column = interval.first!.firstIndex(of: "a")!.utf16Offset(in: interval.first!)
        #expect(interval.dropFirst().first!.prefix(column).allSatisfy { $0 == " " })
    }

    @Test func anUnknownOptionIsNamed() {
        #expect(Self.failure(["--bogus"]) == "unknown option --bogus")
        #expect(Self.failure(["--bogus=1"]) == "unknown option --bogus")
        #expect(Self.failure(["--bogus", "1"]) == "unknown option --bogus")
        #expect(Self.failure(["bogus"]) == "unexpected argument 'bogus'")
        #expect(Self.failure(["-x"]) == "unexpected argument '-x'")
    }

    @Test func aFlagRefusesAValueAndAValuedOptionNeedsOne() {
        #expect(Self.failure(["--shuffle=1"]) == "--shuffle takes no value (give --shuffle alone)")
        #expect(Self.failure(["--no-token=yes"]) == "--no-token takes no value (give --no-token alone)")
        #expect(Self.failure(["--help=me"]) == "--help takes no value (give --help alone)")
        #expect(Self.failure(["--port"]) == "--port needs a value: --port N")
        #expect(Self.failure(["--host", "::1", "--sleep"]) == "--sleep needs a value: --sleep HH:MM-HH:MM")
    }

    @Test func validationMessagesAreKept() {
        #expect(Self.failure(["--port", "70000"]) == "--port must be 0 to 65535")
        #expect(Self.failure([], ["STACKWEB_PORT": "x"]) == "--port must be 0 to 65535")
        #expect(Self.failure(["--interval=0.5"]) == "--interval must be 1 to 86400 seconds")
        #expect(Self.failure(["--order", "size"]) == "--order must be name or date")
        #expect(Self.failure(["--transition", "wipe"]) == "--transition must be fade or kenburns")
        #expect(Self.failure(["--style", "cube"]) == "--style must be one of: pile, angles, grid, deck, swipe, frame")
        #expect(Self.failure(["--stage", "10x10"]) == "--stage must be WxH, each 100 to 10000 points")
        #expect(Self.failure(["--allowed-host", "a:80"]) == "--allowed-host takes a host name without port")
        let publicURL = "--public-url must be http://HOST[:PORT] or https://HOST[:PORT], such as https://frame.example"
        for wrong in ["frame.example", "ftp://frame.example", "https://", "https://frame.example/wall", "http://a b"] {
            #expect(Self.failure(["--public-url", wrong]) == publicURL, "\(wrong)")
        }
        #expect(Self.failure(["--token", "short"]) == "--token must be 16 to 256 printable characters without spaces")
        #expect(Self.failure(["--sleep", "7:00-7:00"]) == "--sleep needs different start and end times")
        #expect(
            Self.failure(["--token", "abcdefghijklmnop"], ["STACKWEB_NO_TOKEN": "1"])
                == "--token and --no-token contradict each other")
    }

    @Test func allowedHostsAreAListInTheEnvironmentAndRepeatableInArguments() throws {
        let outcome = try Self.parse(["--allowed-host", "c.lan"], ["STACKWEB_ALLOWED_HOST": "a.lan,b.lan"])
        var expected = Configuration()
        expected.allowedHosts = ["a.lan", "b.lan", "c.lan"]
        #expect(outcome == .run(expected))
    }

    @Test func aValueMayStartWithADashOrContainAnEqualsSign() throws {
        var expected = Configuration()
        expected.photos = "--odd=name"
        #expect(try Self.parse(["--photos", "--odd=name"]) == .run(expected))
        #expect(try Self.parse(["--photos=--odd=name"]) == .run(expected))
    }
}
