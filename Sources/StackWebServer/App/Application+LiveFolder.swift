import Foundation
import StackModel

extension Application {
    /// Follows `folder`: the shared library is swapped after each scan that changed something and
    /// every room is told what changed. The swap comes first, so a photo a room is told about can
    /// already be fetched.
    static func watch(
        folder: String, mount: PhotoTree.Mount?, order: PhotoLibrary.Order, ids: PhotoIDs, rescan: Double?,
        library: Locked<PhotoLibrary>,
        scanner: PhotoScanner?, index: PhotoIndex?, reading: Locked<Bool>, status: ServerStatus, maxPixels: Int,
        rooms: RoomRegistry, log: OperatorLog, skipped: @escaping @Sendable (String) -> Void
    ) -> LiveFolder? {
        var timing = FolderWatcher.Timing()
        timing.rescan = rescan
        do {
            return try LiveFolder(
                folder: folder, mount: mount, order: order, ids: ids, library: library, scanner: scanner, index: index,
                reading: reading,
                status: status, timing: timing, maxPixels: maxPixels,
                log: log, skipped: skipped
            ) {
                change, new in
                rooms.libraryChanged(change, library: new)
            }
        } catch {
            log("\(error); photos added to \(folder) will show after a restart")
            // Nobody will go on reading what the start-up scan left: read it now.
            if var scanner, scanner.hasBacklog {
                scanner.inspectionBudget = nil
                defer {
                    reading.withLock { $0 = false }
                    status.remaining.withLock { $0 = 0 }
                }
                var change = scanner.scan(folders: []) ?? LibraryChange()
                change.complete = true
                library.withLock { $0 = scanner.library }
                rooms.libraryChanged(change, library: scanner.library)
            }
            return nil
        }
    }
}
