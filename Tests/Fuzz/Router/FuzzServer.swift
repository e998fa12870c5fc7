import CVips
import Foundation
import Glibc
import StackModel

/// The server the `router` target talks to, wired as `Application` wires it but without a socket:
/// one room registry (in memory, no state file) and photo library shared by two routers, one as
/// bound to loopback and one as bound to the LAN with a control token. Made once per process, so
/// rooms keep their state from one input to the next.
final class FuzzServer: Sendable {
    static let shared = FuzzServer()
    static let controlToken = "fuzz-control-token-0123456789abcdef"
    /// Photos and variant cache of this process, removed at exit.
    static let folder = NSTemporaryDirectory() + "stackweb-fuzz-\(getpid())"

    let rooms: RoomRegistry
    let loopback: Router
    let lan: Router

    private init() {
        CVipsSetup.start()
        guard
            let resources = ResourceLocator.locate(explicit: ProcessInfo.processInfo.environment["STACKWEB_RESOURCES"])
        else { fatalError("fuzz-router: cannot find Resources/web; run from the repository or set STACKWEB_RESOURCES") }
        let photos = Self.makePhotos(demo: resources + "/demo-photos")
        atexit { try? FileManager.default.removeItem(atPath: FuzzServer.folder) }

        let configuration = Configuration()
        let library: Locked<PhotoLibrary>
        do {
            library = Locked(try PhotoLibrary.scan(folder: photos, order: configuration.order))
        } catch {
            fatalError("fuzz-router: cannot scan \(photos): \(error)")
        }
        precondition(library.withLock { $0.entries.count } == 5, "fuzz-router: the photo folder is incomplete")
        let (stage, style) = (configuration.stage, configuration.style)
        let store = StateStore(path: nil, defaultStyle: style, log: { _ in })
        rooms = RoomRegistry(
            maxRooms: configuration.maxRooms, store: store, slideshowInterval: 2_000, clock: Application.now,
            library: library
        ) { name, saved in
            let seed = FNV1a.hash(name.utf8)
            let photos = library.withLock { $0.photos }
            if let saved { return Stack(photos: photos, stage: stage, saved: saved, seed: seed) }
            return Stack(photos: photos, stage: stage, style: style, seed: seed)
        }
        let staticFiles: StaticFiles
        do {
            staticFiles = try StaticFiles.load(folder: resources + "/web")
        } catch {
            fatalError("fuzz-router: cannot load \(resources)/web: \(error)")
        }
        let variants = PhotoVariants(cacheFolder: Self.folder + "/cache")
        let filter = RequestFilter.standard(extraHosts: ["frame.lan"], hostname: "photobox")
        let maxBodyBytes = ServerLimits.standard(loopbackOnly: true).maxBodyBytes
        loopback = Router(
            staticFiles: staticFiles, rooms: rooms, photos: library, variants: variants, maxBodyBytes: maxBodyBytes,
            access: .open, filter: filter)
        lan = Router(
            staticFiles: staticFiles, rooms: rooms, photos: library, variants: variants, maxBodyBytes: maxBodyBytes,
            access: AccessPolicy(token: Self.controlToken), filter: filter)
    }

    func router(for server: FuzzRequest.Server) -> Router {
        server == .lan ? lan : loopback
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
            CVips_writeTestJPEG(photos + "/rotated.jpg", 96, 64, 6),
            CVips_writeTestImage(photos + "/card.png", 64, 48),
            CVips_writeTestImage(photos + "/sub/card.webp", 48, 64),
        ]
        precondition(made.allSatisfy { $0 == 0 }, "fuzz-router: libvips cannot write test photos")
        return photos
    }
}
