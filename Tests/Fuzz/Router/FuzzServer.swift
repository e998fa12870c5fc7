import CVipsTestSupport
import Foundation
import Glibc
import StackModel

@testable import StackWebServer

/// The server the `router` target talks to, wired as `Application` wires it but without a socket:
/// one room registry (in memory, no state file) shared by two routers, one as bound to loopback and
/// one as bound to the LAN with a control token. Rooms keep their state from one input to the next
/// for as long as the server is used; the photos and page files are made once per process.
final class FuzzServer: Sendable {
    static let controlToken = "fuzz-control-token-0123456789abcdef"
    /// Photos and variant cache of this process, removed at exit.
    static let folder = NSTemporaryDirectory() + "stackweb-fuzz-\(getpid())"
    /// What every server of this process shares: read or made once.
    private static let fixture = Fixture()

    let rooms: RoomRegistry
    let loopback: Router
    let lan: Router

    init() {
        let (library, configuration) = (Self.fixture.library, Configuration())
        let (stage, style) = (configuration.stage, configuration.style)
        let store = MemoryRoomStore()
        // A slideshow, as a photo frame runs, so timer ticks interleave with requests; slow enough
        // that 64 rooms advancing do not take the fuzzer's time.
        rooms = RoomRegistry(
            maxRooms: configuration.maxRooms, store: store, settings: RoomSettings(slideshowInterval: 10_000),
            scheduler: SystemRoomScheduler(), library: library
        ) { name, saved in
            let seed = FNV1a.hash(name.utf8)
            let photos = library.withLock { $0.photos }
            if let saved { return Stack(photos: photos, stage: stage, saved: saved, seed: seed) }
            return Stack(photos: photos, stage: stage, style: style, seed: seed)
        }
        let (staticFiles, answers) = (Self.fixture.staticFiles, Self.fixture.answers)
        let filter = RequestFilter.standard(extraHosts: ["frame.lan"], hostname: "photobox")
        let maxBodyBytes = ServerLimits.standard(loopbackOnly: true).maxBodyBytes
        loopback = Router(
            staticFiles: staticFiles, rooms: rooms, photos: library, photoAnswers: answers, maxBodyBytes: maxBodyBytes,
            access: .open, filter: filter)
        lan = Router(
            staticFiles: staticFiles, rooms: rooms, photos: library, photoAnswers: answers, maxBodyBytes: maxBodyBytes,
            access: AccessPolicy(token: Self.controlToken), filter: filter)
    }

    func router(for server: FuzzRequest.Server) -> Router {
        server == .lan ? lan : loopback
    }

    private struct Fixture: Sendable {
        let library: Locked<PhotoLibrary>
        let staticFiles: StaticFiles
        let answers: PhotoAnswers

        init() {
            CVipsSetup.start()
            let environment = ProcessInfo.processInfo.environment
            guard let resources = ResourceLocator.locate(explicit: environment["STACKWEB_RESOURCES"]) else {
                fatalError("fuzz-router: cannot find Resources/web; run from the repository or set STACKWEB_RESOURCES")
            }
            let photos = FuzzServer.makePhotos(demo: resources + "/demo-photos")
            atexit { try? FileManager.default.removeItem(atPath: FuzzServer.folder) }
            do {
                // A fixed secret: the same ids at every run, so that a crash replays.
                let ids = PhotoIDs(secret: Array("fuzz-router".utf8))
                library = Locked(try PhotoLibrary.scan(folder: photos, order: Configuration().order, ids: ids))
                staticFiles = try StaticFiles.load(folder: resources + "/web")
            } catch {
                fatalError("fuzz-router: cannot read \(photos) or \(resources)/web: \(error)")
            }
            precondition(library.withLock { $0.entries.count } == 5, "fuzz-router: the photo folder is incomplete")
            answers = PhotoAnswers(variants: PhotoVariants(cacheFolder: FuzzServer.folder + "/cache"))
        }
    }

    /// A small folder of photos: two of the demo photos, and test cards in the other formats and
    /// an EXIF rotation (made by libvips, as the server tests make theirs). Small, so that resized
    /// variants cost little.
    private static func makePhotos(demo: String) -> String {
        let photos = folder + "/photos"
        do {
            try FileManager.default.createDirectory(atPath: photos + "/sub", withIntermediateDirectories: true)
            for name in ["01-sunset.jpg", "07-lake.jpg"] {
                try FileManager.default.copyItem(atPath: demo + "/" + name, toPath: photos + "/" + name)
            }
        } catch {
            fatalError("fuzz-router: cannot make \(photos): \(error)")
        }
        let made = [
            CVipsTest_writeJPEG(photos + "/rotated.jpg", 96, 64, 6),
            CVipsTest_writeImage(photos + "/card.png", 64, 48),
            CVipsTest_writeImage(photos + "/sub/card.webp", 48, 64),
        ]
        precondition(made.allSatisfy { $0 == 0 }, "fuzz-router: libvips cannot write test photos")
        return photos
    }
}
