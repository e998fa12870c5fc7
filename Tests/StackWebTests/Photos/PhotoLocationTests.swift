import CVipsTestSupport
import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Nothing served says where a photo was taken: every format, every size, the photo folder's and
/// guests' alike, read by exiftool. Only the control token's holder gets an original as it is
/// (or anyone, with `--keep-location`).
@Suite(.enabled(if: Exiftool.isInstalled, "needs exiftool (libimage-exiftool-perl)"))
struct PhotoLocationTests {
    static let controlToken = "control-token-0123456789"
    static let formats = ["jpg", "png", "webp", "heic"]

    /// A folder with a photo of each format, each tagged with a position, a city, a sub-location
    /// and a creator as a phone and a photo editor write them.
    static func taggedFolder() throws -> String {
        let folder = try TemporaryFiles.folder()
        for (index, format) in formats.enumerated() {
            let path = folder + "/photo-\(format).\(format)"
            CVipsSetup.start()
            _ = CVipsTest_writeImage(path, Int32(640 + index), 480)
            try Exiftool.tag(path)
        }
        return folder
    }

    @Test func noPhotoOfAnyFormatOrSizeSaysWhereItWasTakenWithoutTheControlToken() throws {
        let folder = try Self.taggedFolder()
        let server = try TestServer { configuration in
            configuration.photos = folder
            configuration.cache = try? TemporaryFiles.folder()
            configuration.token = Self.controlToken
            configuration.uploads.mode = .open
        }
        // Guests' photos of every format too.
        let bearer = ["Authorization": "Bearer \(Self.controlToken)"]
        for format in Self.formats {
            let path = try TemporaryFiles.folder() + "/guest.\(format)"
            _ = CVipsTest_writeImage(path, 320, 200)
            try Exiftool.tag(path)
            let reply = try server.http.send(
                method: "POST", path: "/api/rooms/main/photos",
                headers: bearer.merging(["Content-Type": "image/\(format)"]) { $1 },
                body: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            #expect(reply.status == 201, "\(format): \(reply.text)")
        }
        let ids = server.app.rooms.library.withLock { $0.entries.map(\.photo.id) }
        #expect(ids.count == 8)
        let served = try TemporaryFiles.folder()
        var count = 0
        for id in ids {
            for width in [nil] + PhotoVariants.ladder {
                for accept in ["image/webp,*/*", "*/*"] {
                    let query = width.map { "?w=\($0)" } ?? ""
                    let reply = try server.http.get("/photos/\(id)\(query)", headers: ["Accept": accept])
                    #expect(reply.status == 200, "\(id)\(query)")
                    try Data(reply.body).write(to: URL(fileURLWithPath: served + "/\(count)"))
                    count += 1
                }
            }
        }
        let found = try Exiftool.locationTags(in: served)
        #expect(found.isEmpty, "\(found.prefix(10))")
        // The control token's holder gets the originals as they are.
        let original = try server.http.get("/photos/\(ids[0])", headers: bearer)
        try Data(original.body).write(to: URL(fileURLWithPath: served + "-original"))
        #expect(!(try Exiftool.locationTags(in: served + "-original")).isEmpty)
    }

    @Test func keepLocationServesTheOriginalsToAnyone() throws {
        let folder = try Self.taggedFolder()
        let server = try TestServer { configuration in
            configuration.photos = folder
            configuration.cache = try? TemporaryFiles.folder()
            configuration.keepLocation = true
        }
        let id = try #require(server.app.rooms.library.withLock { $0.entries.first?.photo.id })
        let served = try TemporaryFiles.folder() + "/original"
        try Data(try server.http.get("/photos/\(id)").body).write(to: URL(fileURLWithPath: served))
        #expect(!(try Exiftool.locationTags(in: served)).isEmpty)
    }
}
