import Dispatch
import Foundation
import StackModel

/// The running program: photo library, rooms, router and HTTP server, wired from a configuration.
public final class Application {
    enum Failure: Error, CustomStringConvertible {
        case resourcesNotFound
        case noPhotos(folder: String)
        case unreadableFolder(String, reason: String)

        var description: String {
            switch self {
            case .resourcesNotFound: "cannot find the web resources (web/index.html); pass --resources DIR"
            case .noPhotos(let folder): "no readable photos in \(folder)"
            case .unreadableFolder(let folder, let reason): "cannot read \(folder): \(reason)"
            }
        }
    }

    let configuration: Configuration
    /// The token every POST must carry, or `nil` when anyone may control.
    let controlToken: String?
    let rooms: RoomRegistry
    let store: StateStore
    let server: HTTPServer
    private let heartbeat: any DispatchSourceTimer
    private let sweeper: any DispatchSourceTimer
    /// Follows the photo folder; `nil` when inotify is unavailable (the library then stays as started).
    private var watcher: LiveFolder?
    private let sleep: SleepClock?

    public init(configuration: Configuration) throws {
        self.configuration = configuration
        guard let resources = ResourceLocator.locate(explicit: configuration.resources) else {
            throw Failure.resourcesNotFound
        }
        let folder = configuration.photos ?? resources + "/demo-photos"
        let scanned: PhotoLibrary
        do {
            scanned = try PhotoLibrary.scan(folder: folder, order: configuration.order)
        } catch {
            throw Failure.unreadableFolder(folder, reason: "\(error.localizedDescription)")
        }
        guard !scanned.entries.isEmpty else { throw Failure.noPhotos(folder: folder) }

        let library = Locked(scanned)
        let stage = configuration.stage
        let style = configuration.style
        // --shuffle: one random order per start for rooms without a saved one; each room its own.
        let shuffleSeed = configuration.shuffle ? UInt64.random(in: 0...UInt64.max) : nil
        let sleep = configuration.sleep.map { SleepClock(schedule: $0) }
        self.sleep = sleep
        store = StateStore(path: configuration.state, defaultStyle: style, log: Application.warn)
        rooms = RoomRegistry(
            maxRooms: configuration.maxRooms, store: store, slideshowInterval: configuration.interval.map { $0 * 1000 },
            clock: Application.now, library: library, asleep: { sleep?.asleep ?? false }
        ) { name, saved in
            // New tilts come from the room's name, so a room without saved state looks the same each start.
            let seed = FNV1a.hash(name.utf8)
            // The folder as it is now: a room restored after an unload sees photos added meanwhile.
            let photos = library.withLock { $0.photos }
            if let saved { return Stack(photos: photos, stage: stage, saved: saved, seed: seed) }
            var stack = Stack(photos: photos, stage: stage, style: style, seed: seed)
            if let shuffleSeed {
                // At time 0 the shuffle's motions are long over: the room opens at rest.
                _ = try? stack.handle(.command(.shuffle(seed: shuffleSeed ^ seed)), at: 0)
            }
            return stack
        }
        let limits = configuration.limits ?? .standard(loopbackOnly: configuration.isLoopback)
        controlToken = configuration.controlToken(generate: AccessPolicy.generateToken)
        let router = Router(
            staticFiles: try StaticFiles.load(folder: resources + "/web"), rooms: rooms, photos: library,
            variants: PhotoVariants(
                cacheFolder: configuration.cache ?? Configuration.defaultCacheFolder(),
                cacheLimit: configuration.cacheSize),
            maxBodyBytes: limits.maxBodyBytes, access: AccessPolicy(token: controlToken),
            filter: .standard(extraHosts: configuration.allowedHosts, hostname: NetworkAddresses.hostname()))
        server = try HTTPServer(host: configuration.host, port: configuration.port, limits: limits, responder: router)

        heartbeat = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "stackweb.heartbeat"))
        let interval = DispatchTimeInterval.milliseconds(Int(configuration.heartbeatSeconds * 1000))
        heartbeat.schedule(deadline: .now() + interval, repeating: interval)
        heartbeat.setEventHandler { [rooms] in
            for room in rooms.all { room.heartbeat() }
        }
        heartbeat.resume()

        sweeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "stackweb.sweeper"))
        let idle = configuration.idleUnloadSeconds * 1000
        let sweepEvery = DispatchTimeInterval.milliseconds(Int(min(60, configuration.idleUnloadSeconds) * 1000))
        sweeper.schedule(deadline: .now() + sweepEvery, repeating: sweepEvery)
        sweeper.setEventHandler { [rooms] in rooms.unloadIdleRooms(idle: idle) }
        sweeper.resume()

        watcher = Application.watch(
            folder: folder, order: configuration.order, rescan: configuration.rescan, library: library, rooms: rooms)
        sleep?.start { [rooms] in
            for room in rooms.all { room.sleepChanged() }
        }
    }

    /// Start-up and runtime warnings go to standard error.
    @Sendable static func warn(_ message: String) {
        FileHandle.standardError.write(Data("stackweb: \(message)\n".utf8))
    }

    /// Server time: milliseconds since the Unix epoch.
    @Sendable static func now() -> Millis { Date().timeIntervalSince1970 * 1000 }

    /// The address to open in a browser.
    public var url: String {
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let shown = host == "0.0.0.0" || host == "[::]" ? "127.0.0.1" : host
        return "http://\(shown):\(server.port)/"
    }

    /// What start-up prints after the first line: where other devices can view, and the control URL.
    public var addressLines: [String] {
        let wildcard = configuration.host == "0.0.0.0" || configuration.host == "::"
        var hosts = wildcard ? NetworkAddresses.lanIPv4() : []
        if wildcard, let name = NetworkAddresses.mdnsName() { hosts.append(name) }
        if !wildcard, !configuration.isLoopback { hosts.append(configuration.host) }
        var lines = hosts.map { "  view:    http://\($0):\(server.port)/" }
        if let controlToken {
            let host = hosts.first ?? "127.0.0.1"
            lines.append("  control: http://\(host):\(server.port)/?token=\(controlToken)")
            lines.append("  (the control URL lets its holder drive every room; share the view URL with viewers)")
        }
        return lines
    }

    /// Closes every viewer's stream, then stops the server.
    public func stop() {
        heartbeat.cancel()
        sweeper.cancel()
        watcher?.stop()
        sleep?.stop()
        for room in rooms.all {
            room.closeAll()
            store.markDirty(room.name)
        }
        server.stop()
        store.flush()
    }
}
