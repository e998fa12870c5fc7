import Foundation
import Testing

@testable import StackWebServer

/// A guest's photo joins the library the rooms are made from, and stays in it: the folder's watcher
/// finds the file a second later and must not swap in a library it computed without the photos
/// that arrived meanwhile.
@Suite struct UploadLibraryTests {
    @Test func aNewRoomShowsEveryPhotoAnsweredCreatedWhileTheWatcherCatchesUp() throws {
        let fixture = try UploadFixture()
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
        var answered = 0
        var shortest = Int.max
        var rooms = 0
        // Photos a few tenths of a second apart: each is found by the watcher's scan about a second
        // after it came, while the next ones are in the library already and not yet found.
        for (index, width) in [640, 650, 660, 670].enumerated() {
            #expect(try fixture.post(try UploadFixture.jpeg(width, 480)).status == 201)
            answered += 1
            let until = Date().addingTimeInterval(index == 3 ? 2.5 : 0.4)
            while Date() < until {
                rooms += 1
                let count = try fixture.server.snapshot(room: "fresh-\(rooms)")["count"] as? Int ?? 0
                shortest = min(shortest, count - 3 - answered)
            }
        }
        #expect(shortest == 0, "a new room lacked \(-shortest) photo(s) answered 201 (\(rooms) rooms looked at)")
        #expect(try fixture.server.snapshot()["count"] as? Int == 7)
    }
}
