import Glibc
import StackModel
import Testing

@testable import StackWebServer

/// What a room with an album is given of the library and of its changes.
@Suite struct RoomAlbumsTests {
    static let albums = RoomAlbums(albums: ["kitchen": "kitchen"], uploads: "Uploads")

    static func entry(_ relative: String) -> PhotoLibrary.Entry {
        PhotoLibrary.Entry(
            photo: Photo(id: "p-" + relative, width: 4, height: 3), path: "/photos/" + relative, relative: relative,
            size: 1, modified: timespec(), taken: nil)
    }

    static let library = PhotoLibrary(
        entries: ["a.jpg", "kitchen/b.jpg", "kitchenette/c.jpg", "Uploads/kitchen/d.jpg", "Uploads/living/e.jpg"]
            .map(entry))

    @Test func aRoomWithAnAlbumSeesItsFolderAndItsGuestsPhotos() {
        #expect(
            Self.albums.library(Self.library, for: "kitchen").entries.map(\.relative) == [
                "kitchen/b.jpg", "Uploads/kitchen/d.jpg",
            ])
        #expect(Self.albums.library(Self.library, for: "main").entries == Self.library.entries)
    }

    @Test func aChangeIsCutToTheAlbum() {
        var change = LibraryChange(
            added: [Self.entry("a.jpg").photo, Self.entry("kitchen/b.jpg").photo],
            removed: ["p-gone"], replaced: ["p-kitchenette/c.jpg", "p-Uploads/kitchen/d.jpg"])
        change.order = .name
        let cut = Self.albums.change(change, library: Self.library, for: "kitchen")
        #expect(cut.added.map(\.id) == ["p-kitchen/b.jpg"])
        #expect(cut.replaced == ["p-Uploads/kitchen/d.jpg"])
        #expect(cut.removed == ["p-gone"])
        #expect(cut.order == .name)
        #expect(Self.albums.change(change, library: Self.library, for: "living") == change)
    }

    @Test(arguments: [
        ("kitchen", true), ("a/b", true), ("./a", true), ("..", false), ("a/../..", false), ("/tmp", false),
        ("", false), (".", false),
    ])
    func onlyAFolderBelowThePhotosIsAnAlbum(folder: String, contained: Bool) {
        #expect(RoomAlbums.isContained(folder) == contained)
    }
}
