import Testing

@testable import StackModel
@testable import StackWebServer

/// `StackedPhotos` counts removals as rooms save; each answer is checked against the plain one:
/// every room's removed photos, looked through whole.
@Suite struct StackedPhotosTests {
    /// Whether some room's stack holds `photo`, from every room's removals.
    static func reference(_ removed: [String: Set<String>], _ photo: String) -> Bool {
        removed.isEmpty || removed.values.contains { !$0.contains(photo) }
    }

    @Test(arguments: [1, 2, 3])
    func countsAgreeWithEveryRoomsRemovals(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let photos = (0..<12).map { "p\($0)" }
        let stacked = StackedPhotos()
        var removed: [String: Set<String>] = [:]
        for _ in 0..<500 {
            let room = "r\(random.next() % 4)"
            let now = Set(photos.filter { _ in random.next() % 3 == 0 })
            stacked.roomSaved(room, removed: Array(now))
            removed[room] = now
            for photo in photos { #expect(stacked.holds(photo) == Self.reference(removed, photo)) }
        }
    }

    @Test func aPhotoIsHeldUntilEveryRoomRemovedIt() {
        let stacked = StackedPhotos()
        #expect(stacked.holds("p1"))
        stacked.roomSaved("main", removed: ["p1"])
        #expect(!stacked.holds("p1"))
        stacked.roomSaved("hall", removed: [])
        #expect(stacked.holds("p1"))
        stacked.roomSaved("hall", removed: ["p1", "p1"])
        #expect(!stacked.holds("p1"))
        stacked.roomSaved("main", removed: [])
        #expect(stacked.holds("p1"))
    }
}
