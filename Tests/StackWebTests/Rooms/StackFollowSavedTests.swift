import StackModel
import Testing

@testable import StackWebServer

/// A room restored before the folder was read again follows the folder's changes: the photos its
/// saved order waits for take their saved places, whatever `--order` says; new photos go where the
/// order puts them; the saved photos that never came leave once the folder has been read whole.
@Suite struct StackFollowSavedTests {
    static func photo(_ id: String) -> Photo { Photo(id: id, width: 400, height: 300) }

    static let saved = SavedStack(style: .pile, order: ["p3", "p1", "p0", "p2"], tilts: [1, 2, 3, 4], first: 0)

    @Test func byDateTheSavedOrderWinsAndANewPhotoTakesItsDate() {
        var stack = Stack(photos: [], saved: Self.saved, seed: 1)
        var change = LibraryChange(added: ["p0", "p1", "p9", "p2", "p3"].map(Self.photo))
        change.order = .date
        _ = stack.follow(change, at: 0, maxCards: 100, libraryOrder: ["p0", "p1", "p9", "p2", "p3"])
        // p9 was taken after p1: right after it.
        #expect(stack.photoIDs(at: 0..<5) == ["p3", "p1", "p9", "p0", "p2"])
        #expect(stack.current == 0)
    }

    @Test func savedPhotosThatNeverCameLeaveOnlyWhenTheFolderIsReadWhole() {
        var stack = Stack(photos: [], saved: Self.saved, seed: 1)
        _ = stack.follow(LibraryChange(added: [Self.photo("p0"), Self.photo("p3")]), at: 0, maxCards: 100)
        #expect(stack.photoIDs(at: 0..<2) == ["p3", "p0"])
        #expect(stack.saved().order == Self.saved.order)
        var complete = LibraryChange()
        complete.complete = true
        _ = stack.follow(complete, at: 1000, maxCards: 100)
        #expect(stack.saved().order == ["p3", "p0"])
        #expect(!stack.isAwaitingPhotos)
    }
}
