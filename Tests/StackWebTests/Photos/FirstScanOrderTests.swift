import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// A first start on a folder nobody indexed: the server answers at once and reads the photos after,
/// and `--order name` holds all along, not only once the reading is done.
@Suite struct FirstScanOrderTests {
    /// `count` small JPEGs in folders whose listing order is not their name order ("a-trip" sorts
    /// before "a/", "b" holds names that sort between a's), shuffled names within each.
    static func folder(count: Int) throws -> (folder: String, relatives: [String]) {
        CVipsSetup.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("first-\(UUID().uuidString)").path
        let subfolders = ["a", "a-trip", "b", "b/deeper", ""]
        for sub in subfolders {
            try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        }
        var generator = SystemRandomNumberGenerator()
        var relatives: [String] = []
        for index in 0..<count {
            let sub = subfolders[index % subfolders.count]
            let name = "IMG_\(String(UInt32.random(in: 0...UInt32.max, using: &generator), radix: 16))_\(index).jpg"
            let relative = sub.isEmpty ? name : sub + "/" + name
            #expect(CVipsTest_writeJPEG(folder + "/" + relative, 64, 48, 1) == 0)
            relatives.append(relative)
        }
        return (folder, relatives.sorted())
    }

    /// Caption names of the main room's drawn cards, front first, and its card count.
    static func drawn(_ http: HTTPTestClient) throws -> (names: [String], count: Int) {
        let snapshot = try http.get("/api/rooms/main").json()
        let cards = (snapshot["cards"] as? [[String: Any]] ?? []).sorted {
            ($0["position"] as? Int ?? 0) < ($1["position"] as? Int ?? 0)
        }
        let names = cards.compactMap { ($0["caption"] as? [String: Any])?["name"] as? String }
        return (names, snapshot["count"] as? Int ?? -1)
    }

    @Test func byNameTheStackIsInNameOrderWhileTheFolderIsReadAndWhenSaved() throws {
        let (folder, relatives) = try Self.folder(count: 1500)
        let state = TemporaryFiles.databasePath()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
        let server = try ServerProcess.start(
            arguments: [
                "--photos", folder, "--order", "name", "--style", "grid", "--caption-folders", "--state", state,
                "--cache", cache,
            ],
            readPhotos: false)
        let http = HTTPTestClient(port: server.port)
        var readsDuringTheScan = 0
        var outOfOrder: [String] = []
        var count = 0
        let deadline = Date().addingTimeInterval(120)
        while count < relatives.count, Date() < deadline {
            let (names, now) = try Self.drawn(http)
            count = now
            if count > 0, count < relatives.count { readsDuringTheScan += 1 }
            // The cards shown are the first ones read, in name order: each read adds photos after
            // every photo read before it.
            if names != names.sorted() { outOfOrder.append("at \(count): \(names.prefix(8))") }
        }
        #expect(count == relatives.count)
        #expect(readsDuringTheScan >= 2, "the folder was read before the room could be looked at")
        #expect(outOfOrder.count == 0, "reads out of order, the first: \(outOfOrder.first ?? "")")
        #expect(try Self.drawn(http).names == Array(relatives.prefix(try Self.drawn(http).names.count)))
        // The saved order is the finished one: the stack from its front card, all photos by name.
        let photoIDs = try PhotoIDs.kept(in: state)
        let ids = relatives.map { photoIDs.id(of: $0) }
        #expect(try Poll.until(5) { try Self.savedOrder(state) == ids })
        server.kill9()
    }

    /// The reading of a new folder is said twice in the log: when it begins (the files to read) and
    /// when it ends (the photos, the files skipped, the time), and once only.
    @Test func theLogSaysWhenReadingBeginsAndEndsWithCountsAndTime() throws {
        let (folder, relatives) = try Self.folder(count: 60)
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: folder + "/junk.jpg"))
        let (log, lines) = OperatorLog.capturing(.json)
        var configuration = Configuration()
        configuration.port = 0
        configuration.resources = TestServer.repositoryRoot.appendingPathComponent("Resources").path
        configuration.photos = folder
        configuration.cache =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "cache-\(UUID().uuidString)"
            ).path
        let app = try Application(configuration: configuration, store: MemoryRoomStore(), log: log)
        defer { app.stop() }
        #expect(Poll.until(30) { !app.isReadingPhotos })
        let events = lines.withLock { $0 }.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        let begun = events.filter { $0["event"] as? String == "photos.indexing" }
        let ended = events.filter { $0["event"] as? String == "photos.indexed" }
        #expect(begun.count == 1 && ended.count == 1, "\(events.map { $0["event"] ?? "" })")
        #expect(begun.first?["files"] as? Int == relatives.count + 1)
        #expect(ended.first?["photos"] as? Int == relatives.count)
        #expect(ended.first?["skipped"] as? Int == 1)
        #expect((ended.first?["milliseconds"] as? Int ?? -1) >= 0)
    }

    /// The main room's saved cycle, read from its front card.
    static func savedOrder(_ path: String) throws -> [String] {
        let database = try SQLiteDatabase(path: path)
        let head = try database.prepare("SELECT head FROM rooms WHERE name = 'main'")
        guard try head.step() else { return [] }
        let front = head.int(0)
        let cards = try database.prepare("SELECT photo FROM room_cards WHERE room = 'main' ORDER BY slot")
        var cycle: [String] = []
        while try cards.step() { cycle.append(cards.text(0)) }
        guard front < cycle.count else { return cycle }
        return Array(cycle[front...] + cycle[..<front])
    }
}
