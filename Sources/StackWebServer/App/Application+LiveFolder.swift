import Foundation
import StackModel

extension Application {
    /// Follows `folder`: the shared library is swapped after each scan that changed something and
    /// every room is told what changed. The swap comes first, so a photo a room is told about can
    /// already be fetched.
    static func watch(
        folder: String, order: PhotoLibrary.Order, rescan: Double?, library: Locked<PhotoLibrary>, rooms: RoomRegistry
    ) -> LiveFolder? {
        var timing = FolderWatcher.Timing()
        timing.rescan = rescan
        do {
            return try LiveFolder(folder: folder, order: order, library: library, timing: timing, log: warn) {
                change, new in
                for room in rooms.all { _ = try? room.handle(.libraryChanged(change, library: new)) }
            }
        } catch {
            warn("\(error); photos added to \(folder) will show after a restart")
            return nil
        }
    }
}
