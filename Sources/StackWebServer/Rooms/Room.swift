import Dispatch
import StackModel

/// Runs one room: applies its events one at a time under a lock (the room's serial executor), hands
/// them to the pure `RoomState`, and carries out the effects — the viewers' streams, wake-ups
/// through the scheduler, saves through the store, and in a group what the group must have.
///
/// What is kept and what is answered agree: a lasting change is acknowledged only once the store (or
/// the group) has it, and one the store refuses is undone — the room goes back to its state as last
/// kept (`RoomEvent.keepRefused`), so an answer that says "not applied" is true everywhere.
final class Room: Sendable {
    let name: String
    private let core: Locked<Core>
    private let scheduler: any RoomScheduler
    private let store: any RoomStore
    /// Makes the room's stack from its lasting state (`nil`: a room never saved).
    private let restore: @Sendable (SavedStack?) -> Stack
    /// Told, outside the room's lock, when a room only watched has lost its last viewer.
    private let unwatched: @Sendable (Room) -> Void
    private let log: OperatorLog
    /// Told the photos that come next when the front card changes; must return at once.
    private let upcoming: @Sendable ([String]) -> Void
    /// In a group, which instance runs the room; `nil` alone (this one runs it).
    private let group: (any RoomGroup)?
    /// Told the photos each save keeps out of the stack, for `GET /photos/{id}`.
    private let stacked: StackedPhotos?

    private struct Core {
        var state: RoomState
        var streams: [ViewerID: any EventSink] = [:]
        var nextViewer = 0
        /// Only watched so far (see `RoomRegistry`): nothing it does is kept.
        var onlyWatched: Bool
        /// Streams handed this room that have not subscribed yet: it is not abandoned meanwhile.
        var expectedViewers = 0
        /// A viewer left during the event being handled (only then can a room become abandoned).
        var viewerLeft = false
        /// In a group, while another instance runs the room: what its owner published.
        var relay = RoomRelay()
        /// The room's lasting state as last kept, and the id of the event that made it: what a change
        /// that cannot be kept goes back to.
        var kept = Kept(seq: 0, saved: nil)
        /// Acknowledgements waiting for the store or the group, oldest first.
        var waiting: [Waiting] = []
        /// Keys whose answers the group must forget (their changes were undone), until a rebase with
        /// them is taken (by `IdempotencyKey.scoped`).
        var forgotten: Set<String> = []
        /// A rebase the group did not take: one is published again once the group answers.
        var rebaseOwed = false
        /// The id of the latest rebase: a failure of anything published before it is already undone.
        var rebasedAt = 0
        /// The `Idempotency-Key` of the input being applied, if it carried one.
        var key: IdempotencyKey?
        /// When the poster of the input being applied stops waiting (forwarded input, Redis's time).
        var keepDeadline: Int64?

        var abandoned: Bool { onlyWatched && streams.isEmpty && expectedViewers == 0 }
    }

    struct Kept {
        var seq: Int
        var saved: SavedStack?
    }

    /// A lasting change someone waits to hear is kept; or a lasting command that changed nothing,
    /// whose answer waits until the state it found is kept (`unchanged`).
    struct Waiting {
        var seq: Int
        var key: IdempotencyKey?
        var durability: Durability
        var unchanged = false
    }

    /// What an accepted event did: the room's `seq` after it, and, when it changed lasting state,
    /// whether that is kept yet (an acknowledgement waits for it).
    struct Applied {
        var seq: Int
        var durability: Durability?
    }

    init(
        name: String, settings: RoomSettings, library: PhotoLibrary, asleep: Bool, scheduler: any RoomScheduler,
        store: any RoomStore, onlyWatched: Bool = false, group: (any RoomGroup)? = nil, numberedFrom: Int = 0,
        restore: @escaping @Sendable (SavedStack?) -> Stack, unwatched: @escaping @Sendable (Room) -> Void = { _ in },
        upcoming: @escaping @Sendable ([String]) -> Void = { _ in }, stacked: StackedPhotos? = nil,
        log: OperatorLog = .silent
    ) {
        self.log = log
        self.stacked = stacked
        self.name = name
        self.group = group
        self.scheduler = scheduler
        self.store = store
        self.restore = restore
        self.unwatched = unwatched
        self.upcoming = upcoming
        // A room only watched is a view of its own at each instance: nothing of it goes to the group.
        let state = RoomState(
            name: name, settings: settings, library: library, asleep: asleep, now: scheduler.now(),
            ownership: group == nil || onlyWatched ? .alone : .follower,
            numberedFrom: numberedFrom)
        core = Locked(Core(state: state, onlyWatched: onlyWatched))
        // A slideshow runs from the start, watched or not (a frame may connect later).
        _ = try? handle(.opened)
    }

    /// Applies one event and carries out what it asks for. With `key` (a request's
    /// `Idempotency-Key`), input seen before under that key is answered as it was the first time and
    /// applied no more.
    /// `keepBy`: what the input changes is kept by then (Redis's time) or not at all.
    @discardableResult
    func handle(
        _ event: RoomEvent, key: IdempotencyKey? = nil, keepBy deadline: Int64? = nil
    ) throws(RoomRefusal) -> Applied {
        let (applied, abandoned) = try core.withLock { (core) throws(RoomRefusal) -> (Applied, Bool) in
            core.keepDeadline = deadline
            defer {
                core.viewerLeft = false
                core.keepDeadline = nil
            }
            let applied: Applied
            if let key {
                applied = try apply(event, key: key, in: &core)
            } else {
                applied = try apply(event, in: &core)
            }
            return (applied, core.viewerLeft && core.abandoned)
        }
        if abandoned { unwatched(self) }
        return applied
    }

    /// Whether the room has an answer for `key` in memory (else, in a group, the group may keep one).
    func knowsAnswer(for key: IdempotencyKey) -> Bool {
        core.withLock { $0.state.answered.answer(for: key, at: scheduler.now()) != nil }
    }

    /// The `seq` of the change applied under `key`, remembered across restarts with the room's
    /// state (`RoomStore.answers`); nil for a key not answered so, or forgotten.
    func appliedSeq(for key: IdempotencyKey) -> Int? {
        core.withLock { core in
            loadIfNeeded(&core)
            guard case .applied(let seq) = core.state.answered.answer(for: key, at: scheduler.now()) else { return nil }
            return seq
        }
    }

    /// A room only watched becomes kept (a POST with control rights used it): from now on what it does
    /// is kept, starting with its state now.
    func becomeKept() {
        core.withLock { core in
            guard core.onlyWatched else { return }
            core.onlyWatched = false
            log.record("room.created", "room \(name) created", ["room": .string(name)])
            if group != nil {
                // In a group the room is run by whoever takes its lease; its viewers here follow it.
                stopRunning(in: &core, told: StoreFailure(description: "the room is run by the group"))
            } else if let stack = core.state.stack {
                _ = keep(stack.saved(), urgency: .background, entries: [], in: &core)
            }
        }
    }

    /// This instance holds the room's lease from now on, taken with `epoch`; `saved` is the room's
    /// lasting state as the group's Redis held it then. Ignored while a newer lease is held.
    /// `keptThrough`: the last event of the room's history Redis holds (read in the same script).
    /// `numberedFrom`: where the room's numbering starts by Redis's clock and history; ids this
    /// instance followed of the room (a Redis that lost its history) raise it further.
    func leaseGained(epoch: Int, saved: SavedStack?, keptThrough: Int, numberedFrom: Int = 0) {
        core.withLock { core in
            if case .owner(let held) = core.state.ownership, held >= epoch { return }
            let followed = core.relay.latest
            core.relay = RoomRelay()
            core.kept = Kept(seq: core.state.seq, saved: saved)
            core.forgotten = []
            core.rebaseOwed = false
            let event = RoomEvent.leaseGained(
                epoch: epoch, stack: restore(saved), paused: saved?.paused, keptThrough: keptThrough,
                numberedFrom: max(numberedFrom, followed))
            guard let effects = try? core.state.handle(event, at: scheduler.now()) else { return }
            core.kept.seq = core.state.seq
            core.rebasedAt = core.state.seq
            _ = perform(effects, in: &core)
        }
    }

    /// The lease taken with `epoch` is gone: another instance may run the room now. This one stops
    /// applying input and running its clock, and shows its viewers what the owner publishes.
    func leaseLost(epoch: Int) {
        core.withLock { core in
            guard case .owner(let held) = core.state.ownership, held == epoch else { return }
            stopRunning(
                in: &core,
                told: StoreFailure(description: "this instance no longer runs the room", outcomeUnknown: true))
        }
    }

    /// The group answers again after a failure: a rebase it did not take is published again.
    func groupRecovered() {
        core.withLock { core in
            guard core.rebaseOwed, core.state.isLoaded, case .owner = core.state.ownership else { return }
            core.rebaseOwed = false
            rollBack(in: &core, told: nil)
        }
    }

    /// What the room's owner published, as read from the group (see `RoomRelay.receive`).
    func relay(_ entries: [RoomRelay.Published], catchingUp: Bool) {
        core.withLock { core in
            guard !runsHere(core) else { return }
            _ = perform(core.relay.receive(entries, catchingUp: catchingUp), in: &core)
        }
    }

    /// Whether the room is only watched so far (nothing it does is kept).
    var isOnlyWatched: Bool { core.withLock { $0.onlyWatched } }

    /// A room only watched with no viewer and none on its way: the registry may let it go.
    var isAbandoned: Bool { core.withLock { $0.abandoned } }

    /// Whether this instance runs the room now (alone: always).
    var isRunHere: Bool { core.withLock { runsHere($0) } }

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
    func subscribe(_ stream: any EventSink, lastEventID: Int?, shape: ShapeClass? = nil) {
        let viewer = core.withLock { core -> ViewerID in
            let viewer = ViewerID(number: core.nextViewer)
            core.nextViewer += 1
            core.streams[viewer] = stream
            core.expectedViewers = max(0, core.expectedViewers - 1)
            let replayed = core.state.replayedOpenings
            _ = try? apply(.viewerJoined(viewer, lastEventID: lastEventID, shape: shape), in: &core)
            if lastEventID != nil {
                Metrics.standard.streamResumes.add(core.state.replayedOpenings > replayed ? "replay" : "snapshot")
            }
            return viewer
        }
        // Outside the lock: a stream already gone calls back at once.
        stream.onClose { [weak self] in _ = try? self?.handle(.viewerLeft(viewer)) }
    }

    var viewerCount: Int { core.withLock { $0.state.viewerCount } }

    /// The shape classes this instance's viewers of the room reported, for the group's count.
    var viewerShapes: Set<ShapeClass> { core.withLock { Set($0.state.reportedShapes.present) } }

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

    /// The room's current snapshot as JSON, laid out for `shape` (nil: the room's stage), where it
    /// runs here; `nil` in a group at an instance that does not run it (the owner's published
    /// snapshot answers there).
    func snapshotJSON(shape: ShapeClass? = nil) -> [UInt8]? {
        core.withLock { core in
            guard runsHere(core) else { return nil }
            loadIfNeeded(&core)
            return core.state.snapshot(at: scheduler.now(), shape: shape)
        }
    }

    /// Ends every viewer's stream (server shutdown).
    func closeAll() {
        let streams = core.withLock { Array($0.streams.values) }
        for stream in streams { stream.close() }
    }

    // MARK: - Applying events (under the lock)

    /// Whether input is applied here now: the room says it runs here, and in a group the lease it was
    /// taken with is still held (a lease that lapsed unrenewed stops input before the leases tell).
    private func runsHere(_ core: Core) -> Bool {
        switch core.state.ownership {
        case .alone: true
        case .owner(let epoch): group?.holds(name, epoch: epoch) ?? false
        case .follower: false
        }
    }

    private func loadIfNeeded(_ core: inout Core) {
        guard !core.state.isLoaded, runsHere(core) else { return }
        // In a group the room's state as last kept is known here exactly (the group's store is Redis,
        // and what was kept of it passed through this instance).
        let saved = group == nil || core.state.ownership == .alone ? store.load(room: name) : core.kept.saved
        core.state.load(restore(saved), paused: saved?.paused)
        // Answers given before a restart still answer a retry (their changes are in `saved`).
        if group == nil {
            for answer in store.answers(room: name) {
                core.state.remember(.applied(seq: answer.seq), for: IdempotencyKey(stored: answer.key), at: answer.at)
            }
        }
        core.kept = Kept(seq: core.state.seq, saved: saved)
        Metrics.standard.roomsLoaded.add()
        if !core.onlyWatched {
            log.record(
                "room.loaded", "room \(name) loaded (\(core.state.stack?.count ?? 0) cards)", ["room": .string(name)])
        }
    }

    /// Input that carries an `Idempotency-Key`: its first answer again if the key was seen, else
    /// applied and its answer remembered (a refusal that may pass on a retry is not).
    private func apply(_ event: RoomEvent, key: IdempotencyKey, in core: inout Core) throws(RoomRefusal) -> Applied {
        let now = scheduler.now()
        if runsHere(core), let answer = core.state.answered.answer(for: key, at: now) {
            switch answer {
            case .refused(let refusal): throw refusal
            case .applied(let seq):
                // Still on its way to the store: the retry waits for the same outcome.
                let waiting = core.waiting.first { $0.key == key }?.durability
                return Applied(seq: seq, durability: waiting)
            }
        }
        core.key = key
        defer { core.key = nil }
        do {
            let applied = try apply(event, in: &core)
            core.state.remember(.applied(seq: applied.seq), for: key, at: now)
            return applied
        } catch {
            if error.isFinal { core.state.remember(.refused(error), for: key, at: now) }
            throw error
        }
    }

    private func apply(_ event: RoomEvent, in core: inout Core) throws(RoomRefusal) -> Applied {
        if case .viewerLeft(let viewer) = event {
            core.streams[viewer] = nil
            core.viewerLeft = true
            core.relay.leave(viewer)
        }
        if group != nil, !runsHere(core) { return try applyRunElsewhere(event, in: &core) }
        if core.state.needsStack(for: event) { loadIfNeeded(&core) }
        let wasLoaded = core.state.isLoaded
        let effects = try core.state.handle(event, at: scheduler.now())
        if wasLoaded, !core.state.isLoaded {
            Metrics.standard.roomsUnloaded.add()
            log.record("room.unloaded", "room \(name) unloaded", ["room": .string(name)])
        }
        var durability = perform(effects, in: &core)
        if durability == nil, case .commandReceived(let command) = event, command.changesLastingState {
            durability = awaitKept(in: &core)
        }
        return Applied(seq: core.state.seq, durability: durability)
    }

    /// A lasting command that changed nothing (the room already showed what it asked for) is
    /// answered with the room's `seq`, whose state may not be kept yet: a change still waiting for
    /// the store, or shown here and not yet taken by the group. Its answer waits for that state to be
    /// kept (and says "not applied" if it is undone), as the change's own answer does; `nil` when it
    /// is kept already.
    private func awaitKept(in core: inout Core) -> Durability? {
        guard !core.onlyWatched else { return nil }
        // Alone, only lasting changes go to the store; in a group, every event is published in order
        // and the history holds the state once it holds its event.
        let seq = group == nil ? core.waiting.last?.seq : (core.kept.seq < core.state.seq ? core.state.seq : nil)
        guard let seq = seq ?? core.waiting.last?.seq else { return nil }
        let durability = Durability()
        core.waiting.append(Waiting(seq: seq, key: core.key, durability: durability, unchanged: true))
        return durability
    }

    /// An event at an instance of a group that does not run the room: its viewers here are served
    /// from what the owner publishes, a person's input is refused, the clock and the photo folder
    /// are the owner's business.
    private func applyRunElsewhere(_ event: RoomEvent, in core: inout Core) throws(RoomRefusal) -> Applied {
        if event.isInput { throw .runElsewhere }
        if case .owner(let epoch) = core.state.ownership {
            // The lease lapsed unrenewed (this instance was frozen, or Redis was away): it stops here.
            stopRunning(
                in: &core,
                told: StoreFailure(
                    description: "the lease of room \(name) (epoch \(epoch)) lapsed", outcomeUnknown: true))
        }
        var effects: [RoomEffect] = []
        switch event {
        case .viewerJoined(let viewer, let lastEventID, let shape):
            // The owner lays each change out for every class the group reported (docs/scale-out.md,
            // "Screens of every shape"): this viewer is sent its class's bytes.
            effects = try core.state.handle(.viewerAttached(viewer, shape: shape), at: scheduler.now())
            effects += core.relay.join(viewer, lastEventID: lastEventID, shape: shape)
        case .heartbeatDue:
            effects = try core.state.handle(event, at: scheduler.now()) + core.relay.heartbeat()
        case .viewerLeft, .viewersElsewhereCounted, .timerFired, .libraryChanged:
            // The library too: a follower has no stack to change, but the library it keeps is the
            // one it names photos from (captions, versions) once it takes the room over.
            effects = try core.state.handle(event, at: scheduler.now())
        default: break
        }
        _ = perform(effects, in: &core)
        return Applied(seq: core.state.seq, durability: nil)
    }

    /// Stops running the room here: what waits to be kept is told `failure`, the stack is let go and
    /// the viewers here follow the owner.
    private func stopRunning(in core: inout Core, told failure: StoreFailure) {
        failWaiting(in: &core, with: failure)
        _ = try? core.state.handle(.leaseLost, at: scheduler.now())
        // The relay, not a new one: the follower may have read the room's history into it already,
        // between the lease lapsing and this call.
        let viewers = Dictionary(
            uniqueKeysWithValues: core.streams.keys.map { ($0, core.state.reportedShapes[$0]) })
        _ = perform(core.relay.watch(viewers, lastEventID: core.state.seq), in: &core)
    }

    // MARK: - Keeping (under the lock)

    /// Carries out what the room asked for; the durability of the lasting change among them, if any.
    private func perform(_ effects: [RoomEffect], in core: inout Core) -> Durability? {
        var durability: Durability?
        var refused: [ViewerID] = []
        var entries: [RoomRelay.Published] = []
        var lasting: (SavedStack, SaveUrgency)?
        for effect in effects {
            switch effect {
            case .broadcast(let bytes):
                for (viewer, stream) in core.streams where !stream.send(bytes) { refused.append(viewer) }
            case .publish(let entry, let shaped):
                entries.append(RoomRelay.Published(entry: entry, shaped: shaped))
                if case .base = entry { continue }
                for (viewer, stream) in core.streams {
                    let bytes =
                        shaped.isEmpty ? entry.bytes : core.state.shapes[viewer].flatMap { shaped[$0] } ?? entry.bytes
                    if !stream.send(bytes) { refused.append(viewer) }
                }
            case .send(let bytes, let viewer):
                if let stream = core.streams[viewer], !stream.send(bytes) { refused.append(viewer) }
            case .wake(let deadline):
                scheduler.schedule(at: deadline) { [weak self] in _ = try? self?.handle(.timerFired) }
            case .save(let saved, let urgency):
                lasting = (saved, urgency)
            case .upcoming(let photos):
                upcoming(photos)
            }
        }
        if let (saved, urgency) = lasting, !core.onlyWatched {
            stacked?.roomSaved(name, removed: saved.removed)
            durability = keep(saved, urgency: urgency, entries: entries, in: &core)
        } else if group != nil, !core.onlyWatched {
            publish(entries, keep: nil, durability: nil, in: &core)
        }
        // A stream that refuses bytes is gone or too slow: it is dropped at once and costs nothing more.
        for viewer in refused {
            log.record(
                "viewer.dropped", "a viewer of room \(name) fell behind and was disconnected", ["room": .string(name)])
            _ = try? apply(.viewerLeft(viewer), in: &core)
        }
        return durability
    }

    /// Hands the room's lasting state to the store (alone) or to the group with the entries it goes
    /// with; the durability an acknowledgement waits for, when `urgency` says someone waits.
    private func keep(
        _ saved: SavedStack, urgency: SaveUrgency, entries: [RoomRelay.Published], in core: inout Core
    ) -> Durability? {
        let seq = core.state.seq
        let durability = urgency == .acknowledged ? Durability() : nil
        if let durability { core.waiting.append(Waiting(seq: seq, key: core.key, durability: durability)) }
        guard group != nil else {
            let answer =
                durability == nil ? nil : core.key.map { StoredAnswer(key: $0.stored, seq: seq, at: scheduler.now()) }
            store.save(saved, room: name, urgency: urgency, answer: answer) { [weak self] outcome in
                // The store may answer at once, on this thread, with the room's lock held: what the
                // room does about the answer waits for the lock on another thread. A store that
                // failed refuses the room's later saves until it has gone back, so nothing undone
                // is written meanwhile.
                if case .success = outcome { durability?.complete(outcome) }
                guard let self else { return }
                DispatchQueue.global().async { self.stored(saved, seq: seq, outcome: outcome) }
            }
            return durability
        }
        let keep = GroupPublication.Keep(saved: saved, deadline: core.keepDeadline)
        publish(entries, keep: keep, durability: durability, in: &core)
        return durability
    }

    /// Publishes the entries to the group in order, the last one with `keep`, under the room's epoch.
    private func publish(
        _ entries: [RoomRelay.Published], keep: GroupPublication.Keep?, durability: Durability?, in core: inout Core
    ) {
        guard let group, case .owner(let epoch) = core.state.ownership else { return }
        var keep = keep
        if keep != nil {
            keep?.answers = core.waiting.filter { $0.seq == core.state.seq }.compactMap { waiting in
                waiting.key.map { ($0.scoped, $0.keptValue(body: RoomOutcome.appliedBody(seq: waiting.seq))) }
            }
            if case .takeover = entries.last?.entry { keep?.forgotten = Array(core.forgotten) }
        }
        var publications = entries.map { GroupPublication(epoch: epoch, entry: $0.entry, shaped: $0.shaped) }
        // The lasting state rides with the change (or rebase) that made it, never with a base
        // snapshot, whose refusal the history shrugs off; so does the snapshot reads are answered
        // with elsewhere, also refreshed when the room comes to rest (a motion's end changes what a
        // read shows, not what is kept).
        let atRest = core.state.stack.map { $0.nextDeadline == nil } ?? false
        if keep != nil || (atRest && !publications.isEmpty) {
            let snapshot = core.state.isLoaded ? core.state.snapshot(at: scheduler.now()) : nil
            if let last = publications.lastIndex(where: { if case .base = $0.entry { false } else { true } }) {
                publications[last].keep = keep
                publications[last].snapshot = snapshot
            } else {
                publications.append(
                    GroupPublication(epoch: epoch, entry: nil, keep: keep, snapshot: snapshot, about: core.state.seq))
            }
        }
        for publication in publications {
            let report = PublicationReport(
                seq: publication.entry?.seq ?? core.state.seq, epoch: epoch, saved: publication.keep?.saved,
                kind: publication.entry.map(PublicationReport.Kind.init) ?? .keepOnly,
                forgotten: publication.keep?.forgotten ?? [])
            if report.kind == .rebase { core.rebasedAt = report.seq }
            group.publish(publication, of: name) { [weak self] outcome in self?.published(report, outcome: outcome) }
        }
    }

    /// The store's word on a save (alone).
    private func stored(_ saved: SavedStack, seq: Int, outcome: Durability.Outcome) {
        core.withLock { core in
            switch outcome {
            case .success:
                if seq >= core.kept.seq { core.kept = Kept(seq: seq, saved: saved) }
                completeWaiting(upTo: seq, in: &core)
            case .failure(let failure):
                // Only a change someone waits for is undone: the rest is written when the store can.
                guard core.waiting.contains(where: { $0.seq <= seq }) else { return }
                rollBack(in: &core, told: failure)
            }
        }
    }

    /// What a publication's report needs to know of it.
    private struct PublicationReport: Sendable {
        enum Kind: Equatable, Sendable {
            case change, rebase, base, keepOnly

            init(_ entry: RoomRelay.Entry) {
                switch entry {
                case .change: self = .change
                case .takeover: self = .rebase
                case .base: self = .base
                }
            }
        }

        var seq: Int
        var epoch: Int
        var saved: SavedStack?
        var kind: Kind
        var forgotten: [String]
    }

    /// The group's word on a publication (in a group), in the order they were handed over.
    private func published(_ report: PublicationReport, outcome: GroupPublication.Outcome) {
        core.withLock { core in
            guard case .owner(report.epoch) = core.state.ownership else { return }
            switch outcome {
            case .accepted:
                // The history holds it; the lasting state is what the last publication carrying it had.
                if report.kind == .change || report.kind == .rebase, report.seq > core.kept.seq {
                    core.kept.seq = report.seq
                }
                guard let saved = report.saved else { return completeWaiting(upTo: nil, in: &core) }
                if report.seq >= core.kept.seq { core.kept = Kept(seq: report.seq, saved: saved) }
                if report.kind == .rebase { core.forgotten.subtract(report.forgotten) }
                completeWaiting(upTo: report.seq, in: &core)
            case .unknown:
                // Only what carries no entry can stay unknown (the publisher finds out about every
                // entry): nobody waits for it, and the next change tells whether the history holds.
                return
            case .refused(let reason):
                // A base snapshot, or a snapshot for reads alone, only helps viewers elsewhere: the
                // history goes on without it.
                guard report.kind != .base, report.kind != .keepOnly || report.saved != nil else { return }
                let failure = StoreFailure(description: reason)
                if report.kind == .rebase {
                    // Published again once the group answers (going back again now would go round).
                    failWaiting(in: &core, with: failure)
                    core.rebaseOwed = report.seq >= core.rebasedAt
                } else if report.seq > core.kept.seq, report.seq > core.rebasedAt {
                    rollBack(in: &core, told: failure)
                }
            }
        }
    }

    /// Completes, in order, the changes kept through `seq` (`nil`: no lasting state was just kept)
    /// and the unchanged answers whose state is kept now.
    private func completeWaiting(upTo seq: Int?, in core: inout Core) {
        while let first = core.waiting.first,
            first.unchanged ? first.seq <= core.kept.seq : seq.map { first.seq <= $0 } ?? false
        {
            core.waiting.removeFirst()
            first.durability.complete(.success(()))
        }
    }

    /// Tells the acknowledgements waiting (those of events after `seq`, when given) that `failure`
    /// befell them.
    private func failWaiting(in core: inout Core, with failure: StoreFailure, after seq: Int = .min) {
        let waiting = core.waiting.filter { $0.seq > seq }
        core.waiting.removeAll { $0.seq > seq }
        for entry in waiting {
            // A change whose outcome is unknown may be kept with its answer: that answer stays.
            if let key = entry.key, !failure.outcomeUnknown { core.forgotten.insert(key.scoped) }
            entry.durability.complete(.failure(failure))
        }
    }

    /// Undoes what was not kept: every acknowledgement waiting is told `failure` (when given), and the
    /// room goes back to its state as last kept, published as a rebase to every viewer.
    private func rollBack(in core: inout Core, told failure: StoreFailure?) {
        if let failure {
            failWaiting(in: &core, with: failure)
        } else {
            // What waits on events after the kept state (an answer to a command that changed nothing)
            // is taken back with them.
            failWaiting(
                in: &core, with: StoreFailure(description: "room \(name) went back to its last kept state"),
                after: core.kept.seq)
        }
        guard let stack = core.state.stack else { return }
        if stack.saved() == core.kept.saved {
            // Nothing lasting was lost (a drag, a flip): the room stays as it is and only its history
            // starts afresh.
            _ = try? apply(.groupMissedChanges(keptThrough: core.kept.seq), in: &core)
            return
        }
        Metrics.standard.rollbacks.add()
        log.record(
            "room.rolled-back", "room \(name) went back to its last kept state (\(failure?.description ?? "rebase"))",
            ["room": .string(name)])
        _ = try? apply(
            .keepRefused(keptSeq: core.kept.seq, stack: restore(core.kept.saved), paused: core.kept.saved?.paused),
            in: &core)
    }
}

extension RoomRefusal {
    /// Whether a retry would be refused the same (the answer to a key is then remembered).
    var isFinal: Bool {
        switch self {
        case .refusedByStack, .stackFull, .keyReused: true
        case .rateLimited, .runElsewhere: false
        }
    }
}

extension RoomRelay.Entry {
    /// The event's bytes as viewers get them.
    var bytes: [UInt8] {
        switch self {
        case .change(_, let bytes), .takeover(_, let bytes), .base(_, let bytes): bytes
        }
    }
}
