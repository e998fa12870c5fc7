import Foundation
import Testing

@testable import StackWebServer

/// The README opens with what a newcomer needs: how to start, what to open on the TV, what on a
/// phone — held to what the server really takes and prints.
@Suite struct ReadmeStartTests {
    static func openingLines() throws -> [String] {
        let text = try String(contentsOf: ReadmeOptionsTests.readme, encoding: .utf8)
        return Array(text.split(separator: "\n").dropFirst().prefix(3).map(String.init))
    }

    @Test func theFirstLinesSayHowToStartWhatToOpenOnTheTVAndOnAPhone() throws {
        let lines = try Self.openingLines()
        try #require(lines.count == 3)
        #expect(lines[0].hasPrefix("1. **Start it:** `stackweb "))
        #expect(lines[1].hasPrefix("2. **On the TV:**") && lines[1].contains("`wall:`"))
        #expect(lines[1].contains("/?kiosk=1&qr=1"))
        #expect(lines[2].hasPrefix("3. **On a phone:**") && lines[2].contains("QR code"))
        #expect(lines[2].contains("`control:`"))
    }

    /// The command parses, and a server started with it prints the `wall:` and `control:` lines the
    /// README sends the reader to.
    @Test func theCommandRunsAndPrintsWhatTheLinesName() throws {
        let line = try #require(try Self.openingLines().first)
        let command = try #require(line.firstMatch(of: #/`stackweb ([^`]*)`/#)?.output.1)
        let arguments = command.split(separator: " ").map(String.init)
        guard case .run(let configuration) = try Configuration.parse(arguments: arguments, environment: [:]) else {
            Issue.record("`stackweb \(command)` does not parse to a run")
            return
        }
        #expect(configuration.host == "0.0.0.0" && configuration.uploads.mode == .open)
        let folder = try TemporaryFiles.folder()
        try UploadFixture.photoFolder(folder)
        let cache = try TemporaryFiles.folder()
        let printed = try TestServer { started in
            started.host = configuration.host
            started.uploads = configuration.uploads
            started.photos = folder
            started.cache = cache
        }.app.addressLines(toTerminal: true)
        #expect(printed.contains { $0.hasPrefix("  wall:    ") && $0.contains("/?kiosk=1&qr=1") }, "\(printed)")
        #expect(printed.contains { $0.hasPrefix("  control: ") }, "\(printed)")
    }
}
