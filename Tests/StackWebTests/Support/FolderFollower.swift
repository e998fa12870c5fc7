import Foundation

@testable import StackWebServer

/// A LiveFolder on a real folder with short timers, and what it logged and reported.
final class FolderFollower {
    let library: Locked<PhotoLibrary>
    let logged = Locked<[String]>([])
    let changes = Locked<[LibraryChange]>([])
    var live: LiveFolder!

    init(folder: String, timing: FolderWatcher.Timing = FolderFollower.quick) throws {
        CVipsSetup.start()
        library = Locked(try PhotoLibrary.scan(folder: folder, ids: .test))
        live = try LiveFolder(
            folder: folder, order: .name, ids: .test, library: library, timing: timing,
            log: OperatorLog(format: .text) { [logged] line in logged.withLock { $0.append(line) } },
            onChange: { [changes] change, _ in changes.withLock { $0.append(change) } })
    }

    deinit { live.stop() }

    /// The root checked every 0.2 s, no periodic rescan: a test sees a change within a second.
    static var quick: FolderWatcher.Timing {
        var timing = FolderWatcher.Timing()
        timing.rootCheck = 0.2
        timing.rescan = nil
        return timing
    }

    var names: [String] { library.withLock { $0.entries.map(\.relative) } }

    func lines(containing text: String) -> Int { logged.withLock { $0.filter { $0.contains(text) }.count } }

    /// Polls until `names` equals `expected` (sorted), within `seconds`.
    func shows(_ expected: [String], within seconds: Double = 8) -> Bool {
        Poll.until(seconds) { names.sorted() == expected.sorted() }
    }
}
