/// Which photos some room's stack holds, for `GET /photos/{id}`: a photo removed from every room
/// is answered as an unknown id is (404), so that an id neither shows what was removed nor tells
/// whether it names a file.
///
/// Kept as each room's removed photos, as the room last saved them (usually few), and per photo
/// how many rooms removed it: a save changes only what its room's removals changed, and a request
/// looks up one dictionary under a lock. Rooms count once they have saved (or the store or the
/// group had them at start): a room only watched, never made, saves nothing and holds nothing here.
/// A room unloaded while idle keeps its place, as its stack is kept.
final class StackedPhotos: Sendable {
    private struct Counts {
        /// Each room's removed photos.
        var removedByRoom: [String: Set<String>] = [:]
        /// Per photo, how many rooms removed it (absent: none).
        var removals: [String: Int] = [:]
    }

    private let counts = Locked(Counts())

    /// `room` keeps `removed` out of its stack from now on (a save, or the group's state read).
    /// - Complexity: O(removed before + removed now).
    func roomSaved(_ room: String, removed: [String]) {
        let now = Set(removed)
        counts.withLock { counts in
            let before = counts.removedByRoom.updateValue(now, forKey: room) ?? []
            guard before != now else { return }
            for photo in before.subtracting(now) {
                let left = counts.removals[photo, default: 1] - 1
                counts.removals[photo] = left > 0 ? left : nil
            }
            for photo in now.subtracting(before) { counts.removals[photo, default: 0] += 1 }
        }
    }

    /// Whether some room's stack holds `photo`: true unless every room known removed it (and with
    /// no room known yet, as every new stack holds every photo).
    /// - Complexity: O(1).
    func holds(_ photo: String) -> Bool {
        counts.withLock { $0.removals[photo, default: 0] < max($0.removedByRoom.count, 1) }
    }
}
