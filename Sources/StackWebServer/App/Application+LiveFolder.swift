import Foundation
import StackModel

extension Application {
    /// Watches `folder`: after each burst of changes it is scanned again (unchanged files are not
    /// read again), the shared library is swapped and every room is told what changed. The swap
    /// comes first, so a photo a room is told about can already be fetched.
    static func watch(folder: String, order: PhotoLibrary.Order, library: Locked<PhotoLibrary>, rooms: RoomRegistry)
        -> FolderWatcher?
    {
        do {
            return try FolderWatcher(folder: folder) {
                let old = library.withLock { $0 }
                let new: PhotoLibrary
                do {
                    new = try PhotoLibrary.scan(folder: folder, order: order, reusing: old)
                } catch {
                    return warn("cannot rescan \(folder): \(error.localizedDescription)")
                }
                let change = LibraryChange(from: old, to: new)
                guard !change.isEmpty else { return }
                library.withLock { $0 = new }
                for room in rooms.all { _ = try? room.handle(.libraryChanged(change, library: new)) }
            }
        } catch {
            warn("\(error); photos added to \(folder) will show after a restart")
            return nil
        }
    }
}
