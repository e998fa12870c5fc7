import StackModel

/// Runs one room: applies its events one at a time under a lock (the room's serial executor), hands
/// them to the pure `RoomState`, and carries out the effects — the viewers' streams, wake-ups
/// through the scheduler, saves through the store.
final class Room: Sendable {
    let name: String
    private let core: Locked<Core>
    private let scheduler: any RoomScheduler
    private let store: any RoomStore
    /// Makes the room's stack when it is first used and after each unload.
    private let restore: @Sendable () -> Stack
    /// Told, outside the room's lock, when a transient room's last viewer has left.
    private let unwatched: @Sendable (Room) -> Void
    private let log: OperatorLog
    /// Told the photos that come next when the front card changes; must return at once.
    private let upcoming: @Sendable ([String]) -> Void
    /// In a group, which instance runs the room; `nil` alone (this one runs it).
    private let group: (any RoomGroup)?

    private struct Core {
        var state: RoomState
        var streams: [ViewerID: any EventSink] = [:]
        var nextViewer = 0
        /// Only watched so far (see `RoomRegistry`): nothing it does is kept.
        var transient: Bool
        /// Streams handed this room that have not subscribed yet: it is not abandoned meanwhile.
        var expectedViewers = 0
        /// A viewer left during the event being handled (only then can a room become abandoned).
        var viewerLeft = false
        /// In a group, while another instance runs the room: what its owner published.
        var relay = RoomRelay()
        /// While this instance runs the room in a group: changes published since the last snapshot.
        var changesSinceBase = 0

        var abandoned: Bool { transient && streams.isEmpty && expectedViewers == 0 }
    }

    /// What an accepted event did: the room's `seq` after it, and, when it changed lasting state,
    /// whether that is kept yet (an acknowledgement waits for it).
    struct Applied {
        var seq: Int
        var durability: Durability?
    }

    init(
        name: String, settings: RoomSettings, library: PhotoLibrary, asleep: Bool, scheduler: any RoomScheduler,
        store: any RoomStore, transient: Bool = false, group: (any RoomGroup)? = nil,
        restore: @escaping @Sendable () -> Stack, unwatched: @escaping @Sendable (Room) -> Void = { _ in },
        upcoming: @escaping @Sendable ([String]) -> Void = { _ in }, log: OperatorLog = .silent
    ) {
        self.log = log
        self.name = name
        self.group = group
        self.scheduler = scheduler
        self.store = store
        self.restore = restore
        self.unwatched = unwatched
        self.upcoming = upcoming
        let state = RoomState(name: name, settings: settings, library: library, asleep: asleep, now: scheduler.now())
        core = Locked(Core(state: state, transient: transient))
        // A slideshow runs from the start, watched or not (a frame may connect later).
        _ = try? handle(.opened)
    }

    /// Applies one event and carries out what it asks for.
    @discardableResult
    func handle(_ event: RoomEvent) throws(RoomRefusal) -> Applied {
        let (applied, abandoned) = try core.withLock { (core) throws(RoomRefusal) -> (Applied, Bool) in
            let applied = try apply(event, in: &core)
            defer { core.viewerLeft = false }
            return (applied, core.viewerLeft && core.abandoned)
        }
        if abandoned { unwatched(self) }
        return applied
    }

    /// A transient room becomes real (a POST with control rights used it): from now on what it does
    /// is kept, starting with its state now.
    func becomeLasting() {
        core.withLock { core in
            guard core.transient else { return }
            core.transient = false
            log.record("room.created", "room \(name) created", ["room": .string(name)])
            if let stack = core.state.stack {
                store.save(stack.saved(), room: name, urgency: .background, whenDurable: nil)
            }
        }
    }

    /// This instance runs the room from now on (its lease was taken): the stack comes from the store
    /// as the last owner left it, numbered on from `lastSeq`; every viewer in the group gets it as a
    /// snapshot.
    func takeOver(after lastSeq: Int) {
        core.withLock { core in
            let effects = core.state.takeOver(restore(), after: lastSeq, at: scheduler.now())
            core.relay = RoomRelay()
            _ = perform(effects, in: &core)
            publishSnapshot(in: &core, as: RoomRelay.Entry.takeover)
        }
    }

    /// Some of what this instance published of the room did not reach the group (Redis was away for
    /// less than a lease): the room's snapshot goes to every viewer of the group, as after a takeover.
    func republish() {
        core.withLock { core in
            guard let group, group.owns(name) else { return }
            publishSnapshot(in: &core, as: RoomRelay.Entry.takeover)
        }
    }

    /// Another instance runs the room now: this one stops applying input and running its clock, and
    /// shows its viewers what the new owner publishes.
    func relinquish() {
        core.withLock { core in
            core.state.relinquish()
            // The relay, not a new one: the follower may have read the room's history into it
            // already, between the lease lapsing and this call.
            _ = perform(core.relay.watch(Set(core.streams.keys)), in: &core)
        }
    }

    /// What the room's owner published, as read from the group (see `RoomRelay.receive`).
    func relay(_ entries: [RoomRelay.Entry], catchingUp: Bool) {
        core.withLock { core in
            guard let group, !group.owns(name) else { return }
            _ = perform(core.relay.receive(entries, catchingUp: catchingUp), in: &core)
        }
    }

    /// Whether the room is only watched so far (nothing it does is kept).
    var isTransient: Bool { core.withLock { $0.transient } }

    /// A transient room with no viewer and none on its way: the registry may let it go.
    var isAbandoned: Bool { core.withLock { $0.abandoned } }

    /// A stream will subscribe soon (its answer is being queued): keep the room until it does.
    func expectViewer() {
        core.withLock { $0.expectedViewers += 1 }
    }

    /// A stream that was expected will not subscribe after all (refused, or told to reload).
    func viewerNotComing() {
        core.withLock { $0.expectedViewers = max(0, $0.expectedViewers - 1) }
    }

    /// Adds a viewer's stream: its opening (replay or snapshot) is the first thing it gets, then
    /// every change, in order.
    func subscribe(_ stream: any EventSink, lastEventID: Int?) {
        let viewer = core.withLock { core -> ViewerID in
            let viewer = ViewerID(number: core.nextViewer)
            core.nextViewer += 1
            core.streams[viewer] = stream
            core.expectedViewers = max(0, core.expectedViewers - 1)
            let replayed = core.state.replayedOpenings
            _ = try? apply(.viewerJoined(viewer, lastEventID: lastEventID), in: &core)
            if lastEventID != nil {
                Metrics.standard.streamResumes.add(core.state.replayedOpenings > replayed ? "replay" : "snapshot")
            }
            return viewer
        }
        // Outside the lock: a stream already gone calls back at once.
        stream.onClose { [weak self] in _ = try? self?.handle(.viewerLeft(viewer)) }
    }

    var viewerCount: Int { core.withLock { $0.state.viewerCount } }

    var isLoaded: Bool { core.withLock { $0.state.isLoaded } }

    /// No motion is running or waiting to end (an unloaded room is at rest).
    var isAtRest: Bool { core.withLock { $0.state.stack?.nextDeadline == nil } }

    /// What `GET /api/rooms` lists about this room.
    func listing() -> (viewers: Int, count: Int, seq: Int) {
        core.withLock { core in
            loadIfNeeded(&core)
            return (core.state.viewerCount, core.state.stack?.count ?? 0, core.state.seq)
        }
    }

    /// The room's current snapshot as JSON.
    func snapshotJSON() -> [UInt8] {
        core.withLock { core in
            loadIfNeeded(&core)
            return core.state.snapshot(at: scheduler.now())
        }
    }

    /// Ends every viewer's stream (server shutdown).
    func closeAll() {
        let streams = core.withLock { Array($0.streams.values) }
        for stream in streams { stream.close() }
    }

    // MARK: - Running effects (under the lock)

    private func loadIfNeeded(_ core: inout Core) {
        guard !core.state.isLoaded else { return }
        core.state.load(restore())
        Metrics.standard.roomsLoaded.add()
        log.record(
            "room.loaded", "room \(name) loaded (\(core.state.stack?.count ?? 0) cards)", ["room": .string(name)])
    }

    private func apply(_ event: RoomEvent, in core: inout Core) throws(RoomRefusal) -> Applied {
        if case .viewerLeft(let viewer) = event {
            core.streams[viewer] = nil
            core.viewerLeft = true
            core.relay.leave(viewer)
        }
        if let group, !group.owns(name) { return try applyRunElsewhere(event, in: &core) }
        if core.state.needsStack(for: event) { loadIfNeeded(&core) }
        let wasLoaded = core.state.isLoaded
        let effects = try core.state.handle(event, at: scheduler.now())
        if wasLoaded, !core.state.isLoaded {
            Metrics.standard.roomsUnloaded.add()
            log.record("room.unloaded", "room \(name) unloaded", ["room": .string(name)])
        }
        return Applied(seq: core.state.seq, durability: perform(effects, in: &core))
    }

    /// An event at an instance of a group that does not run the room: its viewers here are served
    /// from what the owner publishes, a person's input is refused, the clock and the photo folder
    /// are the owner's business.
    private func applyRunElsewhere(_ event: RoomEvent, in core: inout Core) throws(RoomRefusal) -> Applied {
        if event.isInput { throw .runElsewhere }
        var effects: [RoomEffect] = []
        switch event {
        case .viewerJoined(let viewer, let lastEventID):
            effects = try core.state.handle(.viewerAttached(viewer), at: scheduler.now())
            effects += core.relay.join(viewer, lastEventID: lastEventID)
        case .viewerLeft, .viewersElsewhereCounted, .heartbeatDue:
            effects = try core.state.handle(event, at: scheduler.now())
        case .timerFired:
            // Only the presence count is due here (the clock of the stack is the owner's): a stack
            // loaded for a snapshot is let go first, so that nothing else runs.
            core.state.relinquish()
            effects = try core.state.handle(event, at: scheduler.now())
        default: break
        }
        _ = perform(effects, in: &core)
        return Applied(seq: core.state.seq, durability: nil)
    }

    /// Publishes the room's snapshot to the group (after a takeover, and every so many changes, so
    /// that viewers joining elsewhere start from a recent one).
    private func publishSnapshot(in core: inout Core, as entry: (Int, [UInt8]) -> RoomRelay.Entry) {
        guard let group, core.state.isLoaded else { return }
        let seq = core.state.seq
        let snapshot = ServerSentEvent.encode(
            id: seq, event: "snapshot", data: core.state.snapshot(at: scheduler.now()))
        group.publish(entry(seq, snapshot), of: name)
        core.changesSinceBase = 0
    }

    /// Carries out what the room asked for; the durability of the lasting change among them, if any.
    private func perform(_ effects: [RoomEffect], in core: inout Core) -> Durability? {
        var durability: Durability?
        var refused: [ViewerID] = []
        for effect in effects {
            switch effect {
            case .broadcast(let bytes):
                // The group's copy goes first: its trip through Redis to the other instances' viewers
                // is the longer one, and it runs on the publisher's thread while this one walks the
                // local streams.
                if let group, let change = RoomRelay.change(broadcast: bytes) {
                    group.publish(change, of: name)
                    core.changesSinceBase += 1
                    if core.changesSinceBase >= RoomRelay.baseInterval {
                        publishSnapshot(in: &core, as: RoomRelay.Entry.base)
                    }
                }
                for (viewer, stream) in core.streams where !stream.send(bytes) { refused.append(viewer) }
            case .send(let bytes, let viewer):
                if let stream = core.streams[viewer], !stream.send(bytes) { refused.append(viewer) }
            case .wake(let deadline):
                scheduler.schedule(at: deadline) { [weak self] in _ = try? self?.handle(.timerFired) }
            case .save(let saved, let urgency):
                // A transient room keeps nothing; its acknowledgements need no disk.
                guard !core.transient else { continue }
                let waiting = urgency == .acknowledged ? Durability() : nil
                store.save(saved, room: name, urgency: urgency, whenDurable: waiting?.complete)
                durability = waiting ?? durability
            case .upcoming(let photos):
                upcoming(photos)
            }
        }
        // A stream that refuses bytes is gone or too slow: it is dropped at once and costs nothing more.
        for viewer in refused {
            log.record(
                "viewer.dropped", "a viewer of room \(name) fell behind and was disconnected", ["room": .string(name)])
            _ = try? apply(.viewerLeft(viewer), in: &core)
        }
        return durability
    }
}
