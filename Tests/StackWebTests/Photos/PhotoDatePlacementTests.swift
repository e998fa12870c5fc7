import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// `--order` on a real server: a photo added while it runs joins the stack at its date, or its name.
@Suite struct PhotoDatePlacementTests {
    /// Writes a JPEG taken at `taken` under a hidden name (skipped by the scan) and renames it into
    /// place, as a copy tool does: complete the moment it appears.
    static func add(_ name: String, taken: String, to folder: String) {
        let hidden = folder + "/.partial-" + name
        #expect(CVipsTest_writeJPEGTaken(hidden, 80, 60, taken) == 0)
        #expect(rename(hidden, folder + "/" + name) == 0)
    }

    @Test func aPhotoTakenBetweenTwoOthersJoinsBetweenThem() throws {
        let server = try PhotoOrderFixture.server { $0.order = .date }
        // c (2019), a (2021), d (written 2022), b (2023).
        #expect(try server.captionNames() == ["c.jpg", "a.jpg", "d.jpg", "b.jpg"])
        let folder = try #require(server.app.configuration.photos)
        Self.add("e.jpg", taken: "2021:09:01 10:00:00", to: folder)
        #expect(try Poll.until(5) { try server.captionNames().count == 5 })
        #expect(try server.captionNames() == ["c.jpg", "a.jpg", "e.jpg", "d.jpg", "b.jpg"])
    }

    /// By name as by date: a photo found later takes its place by name (as during a first start's
    /// reading), not the back.
    @Test func byNameANewPhotoJoinsAtItsName() throws {
        let server = try PhotoOrderFixture.server { _ in }
        let folder = try #require(server.app.configuration.photos)
        Self.add("aa.jpg", taken: "2021:09:01 10:00:00", to: folder)
        #expect(try Poll.until(5) { try server.captionNames().count == 5 })
        #expect(try server.captionNames() == ["a.jpg", "aa.jpg", "b.jpg", "c.jpg", "d.jpg"])
    }
}
