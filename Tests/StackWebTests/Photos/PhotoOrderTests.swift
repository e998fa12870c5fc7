import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// `--order name|date` and `--shuffle`: the order of a new room's stack.
@Suite struct PhotoOrderTests {
    @Test func byNameIsTheDefault() throws {
        #expect(try PhotoOrderFixture.server { _ in }.captionNames() == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
    }

    @Test func byDateUsesEXIFThenTheModificationTime() throws {
        #expect(
            try PhotoOrderFixture.server { $0.order = .date }.captionNames() == ["c.jpg", "a.jpg", "d.jpg", "b.jpg"])
    }

    @Test func captionsCarryTheDateTakenWhenKnown() throws {
        let cards = try PhotoOrderFixture.server { _ in }.snapshot()["cards"] as? [[String: Any]] ?? []
        let captions = cards.compactMap { $0["caption"] as? [String: String] }
        #expect(captions.first { $0["name"] == "a.jpg" } == ["date": "2021-05-01", "name": "a.jpg"])
        #expect(captions.first { $0["name"] == "d.jpg" } == ["name": "d.jpg"])
    }

    @Test func shuffleIsAPermutationPerRoomAndASavedOrderWins() throws {
        let state = TemporaryFiles.databasePath()
        let photos = try PhotoOrderFixture.folder()
        let shuffled: [String]
        do {
            let server = try TestServer {
                $0.photos = photos
                $0.shuffle = true
                $0.state = state
            }
            shuffled = try server.captionNames()
            #expect(shuffled.sorted() == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
            _ = try server.command(#"{"command":"next"}"#)
            #expect(try Poll.until { FileManager.default.fileExists(atPath: state) })
        }
        let restarted = try TestServer {
            $0.photos = photos
            $0.shuffle = true
            $0.state = state
        }
        // The saved order, front card sent to the back, not a new shuffle.
        #expect(try restarted.captionNames() == Array(shuffled.dropFirst()) + [shuffled[0]])
    }

    @Test func aShuffledDemoIsNotInNameOrder() throws {
        // Twelve photos, ten drawn: the odds that a shuffle leaves those in name order are 1 in 3.6 million.
        let server = try TestServer { $0.shuffle = true }
        let names = try server.captionNames()
        #expect(names.count == 10)
        #expect(names != names.sorted())
    }

    @Test func shuffleOrderIntervalAndSleepParseFromArgumentsAndEnvironment() throws {
        let fromArguments = try Configuration.parse(
            arguments: ["--order=date", "--shuffle", "--interval", "20", "--sleep", "23:00-07:00"], environment: [:])
        var expected = Configuration()
        expected.order = .date
        expected.shuffle = true
        expected.interval = 20
        expected.sleep = SleepSchedule(start: 23 * 60, end: 7 * 60)
        #expect(fromArguments == .run(expected))
        let fromEnvironment = try Configuration.parse(
            arguments: [],
            environment: [
                "STACKWEB_ORDER": "date", "STACKWEB_SHUFFLE": "1", "STACKWEB_INTERVAL": "20",
                "STACKWEB_SLEEP": "23:00-07:00",
            ])
        #expect(fromEnvironment == .run(expected))
    }

    @Test(arguments: [
        ["--order", "size"], ["--sleep", "25:00-7"], ["--sleep", "23:00"], ["--sleep", "7:00-7:00"],
        ["--sleep", "23:60-07:00"], ["--sleep", "23:00-07:00-08:00"], ["--sleep", "ab:cd-07:00"],
    ])
    func badValuesAreRefusedClearly(arguments: [String]) {
        #expect(throws: Configuration.Failure.self) { try Configuration.parse(arguments: arguments, environment: [:]) }
    }

    @Test func aBadSleepSaysWhatIsExpected() {
        #expect {
            try Configuration.parse(arguments: ["--sleep", "25:00-7"], environment: [:])
        } throws: { error in
            "\(error)".contains("HH:MM-HH:MM") && "\(error)".contains("25:00-7")
        }
    }
}
