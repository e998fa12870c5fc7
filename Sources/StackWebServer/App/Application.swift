import Dispatch
import Foundation
import StackModel

/// The running program: photo library, rooms, router and HTTP server, wired from a configuration.
public final class Application {
    enum Failure: Error, CustomStringConvertible {
        case resourcesNotFound
        case unreadableFolder(String, reason: String)

        var description: String {
            switch self {
            case .resourcesNotFound: "cannot find the web resources (web/index.html); pass --resources DIR"
            case .unreadableFolder(let folder, let reason): "cannot read \(folder): \(reason)"
            }
        }
    }

    let configuration: Configuration
    /// The lines for the operator (`--log-format`), the control token kept out of them.
    public let log: OperatorLog
    /// The token every POST must carry, or `nil` when anyone may control — or when this instance
    /// knows only its digest (`groupToken`).
    let controlToken: String?
    /// In a `--redis` group without `--token`: the group's generated token, whose digest every
    /// instance checks POSTs against.
    let groupToken: GroupToken?
    /// The token that lets guests add photos, or `nil`.
    let addToken: String?
    /// The file a generated add token was written to, if any.
    let addTokenFile: String?
    /// The file a generated token was written to (`ControlTokenNotice`), if any.
    let tokenFile: String?
    let rooms: RoomRegistry
    let store: any RoomStore
    /// This instance's name in its `--redis` group; `nil` alone.
    public let instanceID: String?
    let server: HTTPServer
    private let heartbeat: any DispatchSourceTimer
    /// Follows the photo folder; `nil` when inotify is unavailable (the library then stays as started).
    private var watcher: LiveFolder?
    /// What is known of each photo file across restarts; nil when it cannot be kept.
    private let index: PhotoIndex?
    private let photosReading: Locked<Bool>
    private let sleep: SleepClock?
    /// In a group, the leases, publisher and follower of the rooms.
    private let group: RedisGroup?
    /// What each photo is named, keyed with the secret kept with the state.
    let photoIDs: PhotoIDs

    public convenience init(configuration: Configuration) throws {
        let log = OperatorLog.standardError(format: configuration.logFormat, redacting: configuration.token)
        try self.init(configuration: configuration, store: Application.openStore(configuration, log: log), log: log)
    }

    /// The exit status for a start that failed with `error`: 78 (`EX_CONFIG`) for a configuration
    /// only the operator can fix (a `--state` that is not ours, a TLS certificate or key that cannot
    /// be read or used), which a supervisor must not
    /// restart in a loop; 1 for what may pass by itself (Redis unreachable, a port in use).
    public static func exitStatus(for error: any Error) -> Int32 {
        if case HTTPServerError.tls = error { return 78 }
        return error is StateRefusal || error is Configuration.Failure ? 78 : 1
    }

    /// The SQLite database at `--state`, or memory only without it. A database that cannot be opened
    /// (damaged, not a database) is moved aside for a person to look at, and a new one is made: a
    /// photo frame must come back up by itself. One that another process holds past the wait (a
    /// second server on the same file) stops the start instead: it is sound, only busy. So does a
    /// path that is not ours (`StateRefusal`): not a regular file, another program's database.
    static func openStore(_ configuration: Configuration, log: OperatorLog) throws -> any RoomStore {
        if let redis = configuration.redis {
            return try RedisRoomStore(connection: RedisConnection(url: redis), defaultStyle: configuration.style)
        }
        guard let path = configuration.state else { return MemoryRoomStore() }
        // Said in words (`permission denied: PATH`), not as the Foundation error SQLiteStore meets.
        if let problem = ServerStatus.canWrite(beside: path, naming: true) {
            throw Configuration.Failure(description: "cannot keep the state at \(path): \(problem)")
        }
        do {
            return try SQLiteStore(path: path, defaultStyle: configuration.style, log: log)
        } catch let error as SQLiteError where !error.isBusy {
            let aside = path + ".unreadable-\(Int(Date().timeIntervalSince1970))"
            try FileManager.default.moveItem(atPath: path, toPath: aside)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            log.record(
                "state.replaced", "cannot open \(path) (\(error)); moved it to \(aside) and started a new database")
            return try SQLiteStore(path: path, defaultStyle: configuration.style, log: log)
        }
    }

    /// With the store rooms keep their lasting state in (tests inject a slow or failing one).
    init(
        configuration: Configuration, store: any RoomStore, scheduler: any RoomScheduler = SystemRoomScheduler(),
        log: OperatorLog? = nil
    ) throws {
        self.configuration = configuration
        let instanceID = configuration.redis.map { _ in configuration.instanceID ?? Application.randomInstanceID() }
        self.instanceID = instanceID
        let groupToken = Application.groupToken(configuration)
        self.groupToken = groupToken
        let token = groupToken.map(\.token) ?? configuration.controlToken { AccessPolicy.generateToken() }
        controlToken = token
        addToken = configuration.addTokenInUse(generate: AccessPolicy.generateToken)
        let log = (log ?? OperatorLog.standardError(format: configuration.logFormat)).redacting(token)
        self.log = log
        for warning in configuration.warnings { log(warning) }
        guard let resources = ResourceLocator.locate(explicit: configuration.resources) else {
            throw Failure.resourcesNotFound
        }
        let folder = configuration.photos ?? resources + "/demo-photos"
        let cacheFolder = configuration.cache ?? Configuration.defaultCacheFolder()
        // The photos as indexed at an earlier start, those whose files still stat the same: the
        // server listens with them at once; the watcher's thread reads the rest, which reach the
        // rooms as ordinary library changes. An empty folder starts empty (a frame waiting for photos).
        let index = PhotoIndex(path: cacheFolder + "/" + PhotoIndex.fileName, log: log.messages(as: "warning"))
        let photoIDs = PhotoIDs(
            secret: Array(try store.secret(named: PhotoIDs.secretName, drawn: PhotoIDs.drawSecret()).utf8))
        self.photoIDs = photoIDs
        // A photo folder missing or unreadable at start is a state, not a failure (a frame booted
        // without its USB stick): the server starts empty and the watcher picks the folder up when
        // it appears. Only the bundled demo photos missing is an installation that is broken.
        let folderProblem = ServerStatus.folderProblem(folder)
        if let folderProblem, configuration.photos == nil {
            throw Failure.unreadableFolder(folder, reason: folderProblem)
        }
        if configuration.uploads.anyOpen, configuration.photos == nil {
            throw Configuration.Failure(description: "--uploads needs --photos: guests' photos join its library")
        }
        let uploadsFolder = try configuration.photos.map { photos throws(Configuration.Failure) in
            try UploadsFolder.locate(
                folder: configuration.uploads.folder, photos: PhotoScanner.realPath(photos),
                state: configuration.state, taking: configuration.uploads.anyOpen)
        }
        let mount = uploadsFolder?.mount
        let albums =
            folderProblem == nil
            ? try Application.albums(configuration, folder: folder, uploads: uploadsFolder)
            : RoomAlbums(albums: configuration.albums, uploads: uploadsFolder?.relative)
        // A broken photo is said once, by this scan or by any scan after it.
        let skipped = log.distinctMessages(as: "photo.skipped")
        var scanner = PhotoScanner(
            folder: folder, mount: mount, order: configuration.order, ids: photoIDs, index: index,
            maxPixels: configuration.maxPixels, log: skipped)
        scanner?.inspectionBudget = 0
        _ = scanner?.scanAll(now: .infinity)
        self.index = index
        // Stacks saved by a version before keyed ids name photos by their old ids.
        let renamed = scanner?.legacyIDs() ?? [:]

        let library = Locked(scanner?.library ?? PhotoLibrary(entries: []))
        let reading = Locked(scanner?.hasBacklog ?? false)
        photosReading = reading
        let status = ServerStatus(
            statePath: configuration.redis == nil ? configuration.state : nil, cacheFolder: cacheFolder,
            cacheLimit: configuration.cacheSize, photoFolder: folder)
        status.remaining.withLock { $0 = scanner?.backlogCount ?? 0 }
        if let folderProblem {
            status.folderAway(folderProblem)
            log.record(
                "folder.gone", "photo folder \(folder) is \(folderProblem); serving, and waiting for it",
                ["folder": .string(folder)])
        }
        let stage = configuration.stage
        let style = configuration.style
        let transition = configuration.transition
        // --shuffle: one random order per start for rooms without a saved one; each room its own.
        let shuffleSeed = configuration.shuffle ? UInt64.random(in: 0...UInt64.max) : nil
        let sleep = configuration.sleep.map { SleepClock(schedule: $0) }
        self.sleep = sleep
        self.store = store
        let settings = RoomSettings(
            idleUnload: configuration.idleUnloadSeconds * 1000,
            slideshowInterval: configuration.interval.map { $0 * 1000 },
            maxCards: configuration.maxCards, captionFolders: configuration.captionFolders)
        let photoAnswers = PhotoAnswers(
            variants: PhotoVariants(cacheFolder: cacheFolder, cacheLimit: configuration.cacheSize),
            folderPresent: status.folderPresent, photoFolder: folder, log: log)
        let groupStore = store as? RedisRoomStore
        let stacked = StackedPhotos()
        // Each second in a group, for every room: only its removals are renamed, not its order.
        let keptOut = { @Sendable (room: String, saved: SavedStack) in
            stacked.roomSaved(room, removed: saved.removed.map { renamed[$0] ?? $0 })
        }
        for (room, saved) in store.savedRooms { keptOut(room, saved) }
        var group: RedisGroup?
        if let redis = configuration.redis, let instanceID {
            group = RedisGroup(
                url: redis, instanceID: instanceID, defaultStyle: style, log: log.messages(as: "group.warning"),
                events: log, stateRead: keptOut, secrets: groupStore?.secrets ?? [:])
        }
        self.group = group
        rooms = RoomRegistry(
            maxRooms: configuration.maxRooms, store: store, settings: settings, scheduler: scheduler, library: library,
            asleep: { sleep?.asleep ?? false }, listedRooms: configuration.rooms, log: log, group: group,
            upcoming: { photos in photoAnswers.prefetch(photos, library: library) }, stacked: stacked,
            albums: albums,
            numberedFrom: try store.historyStart(atLeast: HistoryNumbering.clockStart(at: Clock.now()))
        ) { name, saved in
            // New tilts come from the room's name, so a room without saved state looks the same each start.
            let seed = FNV1a.hash(name.utf8)
            // The folder as it is now: a room restored after an unload sees photos added meanwhile.
            let photos = albums.library(library.withLock { $0 }, for: name).photos
            if let saved {
                var stack = Stack(photos: photos, stage: stage, saved: saved.renamingPhotos(renamed), seed: seed)
                stack.frameTransition = transition
                // The folder read whole: a saved photo it lacks is gone. Until then (a cache folder
                // found empty), its place waits for it.
                if !reading.withLock({ $0 }) { stack.forgetUnseen() }
                return stack
            }
            var stack = Stack(photos: photos, stage: stage, style: style, seed: seed)
            stack.frameTransition = transition
            if let shuffleSeed {
                // At time 0 the shuffle's motions are long over: the room opens at rest.
                _ = try? stack.handle(.command(.shuffle(seed: shuffleSeed ^ seed)), at: 0)
            }
            return stack
        }
        // main always exists, and so does every room the operator listed.
        for name in [RoomRegistry.mainRoom] + (configuration.rooms ?? []) {
            _ = try? rooms.watchedRoom(named: name, stream: false)
        }
        var limits = configuration.limits ?? .standard(loopbackOnly: configuration.isLoopback)
        tokenFile = Application.keepGeneratedToken(
            controlToken, given: configuration.token, role: .control, configuration: configuration, log: log)
        addTokenFile = Application.keepGeneratedToken(
            addToken, given: configuration.addToken, role: .add, configuration: configuration, log: log)
        let tls = try configuration.tlsCredentials()
        if tls != nil, limits.handshakesPerSecondPerAddress == 0 { limits.handshakesPerSecondPerAddress = 20 }
        var router = Router(
            staticFiles: try StaticFiles.load(folder: resources + "/web"), rooms: rooms, photos: library,
            photoAnswers: photoAnswers,
            maxBodyBytes: limits.maxBodyBytes,
            access: AccessPolicy(
                tokenDigest: groupToken?.digest ?? controlToken.map { Digest.sha256(Array($0.utf8)) },
                addTokenDigest: addToken.map { Digest.sha256(Array($0.utf8)) }, commands: CommandRateLimiter(limits)),
            filter: .standard(
                extraHosts: configuration.allowedHosts + [configuration.publicURL?.hostName].compactMap { $0 },
                hostname: NetworkAddresses.hostname(),
                scheme: tls == nil ? "http" : "https"),
            photosReading: reading, status: status, stackedPhotos: stacked)
        router.keepsLocation = configuration.keepLocation
        router.clips = Application.clipAnswers(
            folder: folder, ids: photoIDs, variants: photoAnswers.variants,
            maxSeconds: configuration.maxClipSeconds, log: log)
        if configuration.uploads.anyOpen, let uploadsFolder {
            router.uploads = try PhotoUploads(
                settings: configuration.uploads, photoFolder: folder, uploads: uploadsFolder, library: library,
                ids: photoIDs, rooms: rooms,
                variants: photoAnswers.variants, maxPixels: configuration.maxPixels, order: configuration.order,
                limits: limits, log: log)
            router.addCodes = AddCodes(
                addToken: addToken, scheme: tls == nil ? "http" : "https", lanHost: Application.lanHost(configuration),
                port: configuration.port, publicBase: configuration.publicURL?.base)
        }
        server = try HTTPServer(
            host: configuration.host, port: configuration.port, limits: limits, tls: tls,
            security: SecurityHeaders(allowsEmbedding: configuration.allowEmbedding), log: log, responder: router)

        heartbeat = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "stackweb.heartbeat"))
        let interval = DispatchTimeInterval.milliseconds(Int(configuration.heartbeatSeconds * 1000))
        heartbeat.schedule(deadline: .now() + interval, repeating: interval)
        heartbeat.setEventHandler { [rooms] in
            for room in rooms.all { _ = try? room.handle(.heartbeatDue) }
        }
        heartbeat.resume()

        watcher = Application.watch(
            folder: folder, mount: mount, order: configuration.order, ids: photoIDs, rescan: configuration.rescan,
            library: library,
            scanner: scanner, index: index, reading: reading, status: status, maxPixels: configuration.maxPixels,
            rooms: rooms,
            log: log, skipped: skipped)
        router.uploads?.liveFolder.withLock { $0 = watcher }
        sleep?.start { [rooms] asleep in
            for room in rooms.all { _ = try? room.handle(.sleepChanged(asleep: asleep)) }
        }
        group?.start(rooms: rooms, store: groupStore) { [router] input, deadline, reply in
            router.applyForwarded(input, keepBy: deadline, then: reply)
        }
    }

    /// A group has one generated token: the first instance to start draws it, the others take its
    /// digest. `nil` alone, with a given token or none, or with Redis unreachable (then this
    /// instance draws a token of its own, as alone).
    private static func groupToken(_ configuration: Configuration) -> GroupToken? {
        guard let redis = configuration.redis, configuration.token == nil, !configuration.noToken,
            !configuration.isLoopback
        else { return nil }
        let file = ControlTokenNotice.file(environment: ProcessInfo.processInfo.environment, state: configuration.state)
        let remembered = file.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }?
            .split(separator: "\n").first.map(String.init)
        return try? GroupToken.resolve(drawn: AccessPolicy.generateToken(), remembered: remembered, at: redis)
    }

    /// The address phones on the LAN reach this server by, as start-up prints it first: `nil` on
    /// loopback.
    private static func lanHost(_ configuration: Configuration) -> String? {
        if configuration.isLoopback { return nil }
        let host = configuration.host
        if host == "0.0.0.0" || host == "::" { return NetworkAddresses.lanIPv4().first }
        return host.contains(":") ? "[\(host)]" : host
    }

    /// Eight random hex digits: enough to tell a group's instances apart in logs and in Redis.
    static func randomInstanceID() -> String {
        let hex = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// A generated token goes to its file (`ControlTokenNotice`), so an operator without a terminal
    /// can find it; a token the operator gave is theirs already.
    private static func keepGeneratedToken(
        _ token: String?, given: String?, role: ControlTokenNotice.Role, configuration: Configuration,
        log: OperatorLog
    ) -> String? {
        guard let token, given == nil,
            let file = ControlTokenNotice.file(
                environment: ProcessInfo.processInfo.environment, state: configuration.state, role: role)
        else { return nil }
        do {
            try ControlTokenNotice.save(token, to: file)
            return file
        } catch {
            log("cannot write the \(role == .control ? "control" : "add") token to \(file): \(error)")
            return nil
        }
    }

    /// `https` when serving TLS.
    private var scheme: String { server.usesTLS ? "https" : "http" }

    /// The address to open in a browser.
    public var url: String { "\(scheme)://\(shownHost):\(server.port)/" }

    /// The address the server is bound to, as a URL writes it: the wildcard shows as this machine.
    private var shownHost: String {
        let bound = server.boundAddress
        if bound == "0.0.0.0" || bound == "::" { return "127.0.0.1" }
        return bound.contains(":") ? "[\(bound)]" : bound
    }

    /// The hosts other devices reach this server by, best first: `--public-url`'s, then the LAN's
    /// (every address and `name.local` when bound to every interface); none on loopback.
    private func reachableBases() -> [String] {
        let wildcard = server.boundAddress == "0.0.0.0" || server.boundAddress == "::"
        var hosts = wildcard ? NetworkAddresses.lanIPv4() : []
        if wildcard, let name = NetworkAddresses.mdnsName() { hosts.append(name) }
        if !wildcard, !configuration.isLoopback { hosts.append(configuration.host) }
        let bases = hosts.map { "\(scheme)://\($0):\(server.port)/" }
        return (configuration.publicURL.map { [$0.base + "/"] } ?? []) + bases
    }

    /// What start-up prints after the first line: where other devices can view, what to open on a
    /// wall, the control URL — with its token only when printed to a terminal
    /// (`ControlTokenNotice` says why) — and the page guests add photos with.
    public func addressLines(toTerminal: Bool) -> [String] {
        let reachable = reachableBases()
        let base = reachable.first ?? url
        var lines = reachable.map { "  view:    \($0)" }
        let guests = configuration.uploads.anyOpen
        lines.append("  wall:    \(base)?kiosk=1\(guests ? "&qr=1" : "") (on a TV or frame: full screen, no controls)")
        if let redis = configuration.redis, let instanceID {
            lines.append("  group:   instance \(instanceID) of the group at \(redis)")
        }
        if controlToken != nil || groupToken != nil {
            let source: ControlTokenNotice.Source =
                configuration.token != nil ? .given : controlToken == nil ? .group : .generated(file: tokenFile)
            lines += ControlTokenNotice.lines(base: base, token: controlToken, source: source, toTerminal: toTerminal)
            lines.append("  (the control URL lets its holder drive every room; share the view URL with viewers)")
        }
        if guests {
            let room =
                configuration.uploads.mode != .off
                ? RoomRegistry.mainRoom
                : configuration.uploads.rooms.filter { $0.value != .off }.keys.sorted().first ?? RoomRegistry.mainRoom
            let page = "\(base)add?room=\(room)"
            if let addToken {
                let source: ControlTokenNotice.Source =
                    configuration.addToken != nil ? .given : .generated(file: addTokenFile)
                lines += ControlTokenNotice.lines(
                    base: page, token: addToken, source: source, toTerminal: toTerminal, role: .add)
            } else {
                lines.append("  add:     \(page) (guests' phones open it from the wall's QR code)")
            }
            if reachable.isEmpty { lines.append("  note:    " + AddCodes.unreachable) }
        }
        return lines
    }

    /// The start as one `start` event: where to look, as `addressLines` says it to a log (the control
    /// URL without its token).
    public func logStart() {
        log.record(
            "start", "StackWeb \(Configuration.version) listening on \(url)",
            ["version": .string(Configuration.version), "url": .string(url), "addresses": .objects(addresses())])
    }

    /// Where to look, as data: each address a viewer (`view`) or the operator (`control`, without
    /// its token) opens, and with `--redis` the group this instance belongs to.
    func addresses() -> [KeyValuePairs<String, String>] {
        let wildcard = server.boundAddress == "0.0.0.0" || server.boundAddress == "::"
        var hosts = wildcard ? NetworkAddresses.lanIPv4() : []
        if wildcard, let name = NetworkAddresses.mdnsName() { hosts.append(name) }
        if !wildcard, !configuration.isLoopback { hosts.append(configuration.host) }
        if hosts.isEmpty { hosts.append(shownHost) }
        var records: [KeyValuePairs<String, String>] = hosts.map {
            ["kind": "view", "url": "\(scheme)://\($0):\(server.port)/"]
        }
        if let redis = configuration.redis, let instanceID {
            records.append(["kind": "group", "instance": instanceID, "redis": redis.description])
        }
        if controlToken != nil || groupToken != nil {
            records.append(["kind": "control", "url": "\(scheme)://\(hosts[0]):\(server.port)/?token=<token>"])
        }
        return records
    }

    /// Closes every viewer's stream, then stops the server.
    /// Whether the watcher is still reading photos it found (at a first start: most of them).
    var isReadingPhotos: Bool { photosReading.withLock { $0 } }

    public func stop() {
        heartbeat.cancel()
        watcher?.stop()
        index?.flush()
        sleep?.stop()
        for room in rooms.all { room.closeAll() }
        server.stop()
        store.flush()
        // Given back only once written: another instance takes the rooms over at once, from there.
        group?.stop()
    }
}
