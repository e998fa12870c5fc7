import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// `--order name|date` and `--shuffle`: the order of a new room's stack.
@Suite struct PhotoOrderTests {
    /// Four photos whose names, EXIF dates and modification times disagree on the order:
    /// by date it is c (taken 2019), a (2021), d (no EXIF, written 2022), b (taken 2023).
    static func folder() throws -> String {
        CVipsSetup.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(CVipsTest_writeJPEGTaken(folder + "/a.jpg", 80, 60, "2021:05:01 12:00:00") == 0)
        #expect(CVipsTest_writeJPEGTaken(folder + "/b.jpg", 80, 60, "2023:01:01 08:30:00") == 0)
        #expect(CVipsTest_writeJPEGTaken(folder + "/c.jpg", 80, 60, "2019:12:24 18:00:00") == 0)
        #expect(CVipsTest_writeJPEG(folder + "/d.jpg", 80, 60, 1) == 0)
        let written = DateComponents(calendar: .current, year: 2022, month: 3, day: 1, hour: 9).date!
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: folder + "/d.jpg")
        // The EXIF date wins over the file's own time.
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: folder + "/b.jpg")
        return folder
    }

    /// Caption names in stack order.
    static func names(_ server: TestServer) throws -> [String] {
        let cards = try server.snapshot()["cards"] as? [[String: Any]] ?? []
        return cards.sorted { ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0) }
            .compactMap { ($0["caption"] as? [String: Any])?["name"] as? String }
    }

    static func server(_ configure: @escaping (inout Configuration) -> Void) throws -> TestServer {
        let folder = try folder()
        return try TestServer {
            $0.photos = folder
            configure(&$0)
        }
    }

    @Test func byNameIsTheDefault() throws {
        #expect(try Self.names(Self.server { _ in }) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
    }

    @Test func byDateUsesEXIFThenTheModificationTime() throws {
        #expect(try Self.names(Self.server { $0.order = .date }) == ["c.jpg", "a.jpg", "d.jpg", "b.jpg"])
    }

    @Test func captionsCarryTheDateTakenWhenKnown() throws {
        let cards = try Self.server { _ in }.snapshot()["cards"] as? [[String: Any]] ?? []
        let captions = cards.compactMap { $0["caption"] as? [String: String] }
        #expect(captions.first { $0["name"] == "a.jpg" } == ["date": "2021-05-01", "name": "a.jpg"])
        #expect(captions.first { $0["name"] == "d.jpg" } == ["name": "d.jpg"])
    }

    @Test func shuffleIsAPermutationPerRoomAndASavedOrderWins() throws {
        let state = PersistenceTests.temporaryPath()
        let photos = try Self.folder()
        let shuffled: [String]
        do {
            let server = try TestServer {
                $0.photos = photos
                $0.shuffle = true
                $0.state = state
            }
            shuffled = try Self.names(server)
            #expect(shuffled.sorted() == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
            _ = try server.command(#"{"command":"next"}"#)
            #expect(try PersistenceTests.eventually { FileManager.default.fileExists(atPath: state) })
        }
        let restarted = try TestServer {
            $0.photos = photos
            $0.shuffle = true
            $0.state = state
        }
        // The saved order, front card sent to the back, not a new shuffle.
        #expect(try Self.names(restarted) == Array(shuffled.dropFirst()) + [shuffled[0]])
    }

    @Test func aShuffledDemoIsNotInNameOrder() throws {
        // Twelve photos, ten drawn: the odds that a shuffle leaves those in name order are 1 in 3.6 million.
        let server = try TestServer { $0.shuffle = true }
        let names = try Self.names(server)
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
