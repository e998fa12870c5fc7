import StackModel

/// One room's decisions, as a pure reducer: `handle(_:at:)` takes what happened and returns what
/// to do about it (`RoomEffect`s), with time passed in. No locks, timers, sockets or disks: the
/// executor (`Room`) owns those and runs the effects. Tests drive it in virtual time.
///
/// The room's stack (`StackModel.Stack`) makes the stack's decisions; the room adds what belongs to
/// a shared live view: viewers, numbering and encoding each change once, the replay ring, presence,
/// the slideshow and sleep, idle unloading, and which changes must be kept.
struct RoomState {
    /// Who runs the room: alone, this server; in a group, the holder of its lease.
    enum Ownership: Equatable {
        case alone
        /// This instance holds the room's lease, taken with this epoch.
        case owner(epoch: Int)
        /// Another instance runs the room (or none yet): viewers here follow what it publishes.
        case follower
    }

    let name: String
    let settings: RoomSettings
    /// `nil` while the room is unloaded (idle, no viewers): its lasting state is in the store.
    private(set) var stack: Stack?
    /// The photos as the folder holds them now: each card's URL and caption come from it.
    private(set) var library: PhotoLibrary
    /// The sleep schedule has the screens dark.
    private(set) var asleep: Bool
    /// The id of the last numbered event; ids only increase, across unloads, restarts and owners
    /// (`HistoryNumbering`).
    private(set) var seq: Int
    private(set) var ownership: Ownership
    /// Changes published since the last snapshot the group has (a viewer joining elsewhere starts
    /// from that snapshot and replays at most `RoomRelay.baseInterval` changes).
    private var changesSinceBase = 0
    /// Answers given to requests that carried an `Idempotency-Key`.
    private(set) var answered = IdempotencyLedger()
    private(set) var viewers: Set<ViewerID> = []
    /// The shape class of each viewer laid out apart from the room's stage.
    private(set) var shapes = ViewerShapes()
    /// The shape class each viewer here reported, whether this instance runs the room or not: what
    /// the group is told this instance's screens need, and what they are laid out for once it does.
    private(set) var reportedShapes = ViewerShapes()
    /// In a group: the room's viewers at the other instances, as last counted.
    private(set) var viewersElsewhere = 0
    /// In a group: the shape classes the viewers at the other instances reported, as last counted.
    /// The owner lays each change out for these too, and publishes every class's bytes.
    private(set) var shapesElsewhere: Set<ShapeClass> = []
    private(set) var slideshow: Slideshow
    private var replay = ReplayBuffer(capacity: RoomSettings.replayCapacity)
    /// Viewers that resumed with the events they missed rather than a snapshot, for `/metrics`.
    private(set) var replayedOpenings = 0
    /// Server time of the last thing that happened here, to tell when the room has been idle.
    private var lastActivity: Millis
    /// The wake-up already asked for, so each is asked for once.
    private var armedWake: Millis?
    /// When the viewer count is next due to be sent, if it changed since it was last sent.
    private var presenceDue: Millis?
    private var pointerLimiter = PointerRateLimiter()
    private var pointerRepeats = PointerRepeatFilter()
    private var presses = PressMapper()
    /// The front card's photo when a change was last published: a new one asks for the next ones.
    private var front: String?
    /// Who sent each guest's photo that has not yet been the front card and left it: its caption
    /// says so ("from Anna") meanwhile. At most `RoomSettings.maxSenders`.
    private(set) var senders: [String: String] = [:]
    /// What the event being handled asks for, handed back by `handle`.
    private var effects: [RoomEffect] = []

    init(
        name: String, settings: RoomSettings, library: PhotoLibrary, asleep: Bool, now: Millis,
        ownership: Ownership = .alone, numberedFrom firstSeq: Int = 0
    ) {
        self.name = name
        self.seq = firstSeq
        self.ownership = ownership
        self.settings = settings
        self.library = library
        self.asleep = asleep
        self.lastActivity = now
        self.slideshow = Slideshow(interval: settings.slideshowInterval, now: now)
    }

    var isLoaded: Bool { stack != nil }

    /// Puts the stack in memory: a new room's, or one restored from the store after an unload, with
    /// the slideshow as it was kept (`paused`: nil when nobody chose, or a new room).
    mutating func load(_ stack: Stack, paused: Bool?) {
        self.stack = stack
        slideshow.restore(paused: paused)
        front = stack.photoIDs(at: 0..<1).first
    }

    /// Whether the stack must be in memory before `event` is handled: for what a person does, and
    /// for the clock while a slideshow plays (it advances the stack, watched or not).
    func needsStack(for event: RoomEvent) -> Bool {
        switch event {
        case .opened, .timerFired: slideshow.playing
        // A class new to the group is sent a snapshot of its own, made from the stack.
        case .viewersElsewhereCounted(_, let shapes): ownership != .follower && !shapes.isSubset(of: shapesElsewhere)
        default: event.needsStack
        }
    }

    /// Applies one event. A refused event changes nothing and asks for nothing.
    /// - Precondition: the stack is loaded when `needsStack(for: event)`.
    mutating func handle(_ event: RoomEvent, at now: Millis) throws(RoomRefusal) -> [RoomEffect] {
        precondition(isLoaded || !needsStack(for: event), "load the stack before \(event)")
        effects = []
        let seqBefore = seq
        switch event {
        case .opened: break
        case .viewerJoined(let viewer, let lastEventID, let shape):
            viewerJoined(viewer, lastEventID: lastEventID, shape: shape, at: now)
        case .viewerAttached(let viewer, let shape): viewerAttached(viewer, shape: shape, at: now)
        case .viewerLeft(let viewer): viewerLeft(viewer, at: now)
        case .viewersElsewhereCounted(let count, let shapes):
            viewersElsewhereCounted(count, shapes: shapes, at: now)
        case .pointerBatchReceived(let samples, let address, let shape):
            try pointerBatchReceived(samples, from: address, on: shape, at: now)
        case .commandReceived(let command): try commandReceived(command, at: now)
        case .guestPhotoArrived(let photo, let position, let sender):
            try guestPhotoArrived(photo, at: position, sender: sender, now: now)
        case .playPressed: playingChanged(to: true, at: now)
        case .pausePressed: playingChanged(to: false, at: now)
        case .timerFired: timerFired(at: now)
        case .libraryChanged(let change, let library): libraryChanged(change, library: library, at: now)
        case .sleepChanged(let asleep): sleepChanged(asleep: asleep, at: now)
        case .heartbeatDue: effects.append(.broadcast(Array(": heartbeat\n\n".utf8)))
        case .leaseGained(let epoch, let stack, let paused, let keptThrough, let numberedFrom):
            leaseGained(
                epoch: epoch, stack: stack, paused: paused, keptThrough: keptThrough, numberedFrom: numberedFrom,
                at: now)
        case .leaseLost: leaseLost()
        case .keepRefused(let keptSeq, let stack, let paused):
            keepRefused(keptSeq: keptSeq, stack: stack, paused: paused, at: now)
        case .groupMissedChanges(let keptThrough):
            guard isLoaded else { break }
            // What was answered after the kept state was not kept either: a retry applies it anew.
            answered.forget(after: keptThrough)
            rebase(at: now, keptThrough: keptThrough)
            save(.restored)
        }
        armWake(at: now)
        if seq != seqBefore { noteFront() }
        return effects
    }

    // MARK: - Viewers

    /// A new viewer gets `retry:` and either the events it missed since `lastEventID` or a
    /// snapshot, then every change as it happens, all laid out for its `shape`.
    private mutating func viewerJoined(_ viewer: ViewerID, lastEventID: Int?, shape: ShapeClass?, at now: Millis) {
        viewers.insert(viewer)
        reportedShapes.joined(viewer, shape: shape)
        // A screen of the room's own shape shares the room's bytes.
        let laidOut = stack!.showsRoomStage(shape) ? nil : shape
        shapes.joined(viewer, shape: laidOut)
        lastActivity = now
        var opening = Array("retry: 1000\n\n".utf8)
        if let lastEventID, let missed = replay.events(after: lastEventID, latest: seq, shape: laidOut),
            missed.reduce(0, { $0 + $1.count }) <= RoomSettings.maxReplayBytes
        {
            for event in missed { opening += event }
            replayedOpenings += 1
        } else {
            opening += snapshotEvent(at: now, shape: shape)
        }
        effects.append(.send(opening, to: viewer))
        viewerCountChanged(at: now)
    }

    private mutating func viewerAttached(_ viewer: ViewerID, shape: ShapeClass?, at now: Millis) {
        viewers.insert(viewer)
        reportedShapes.joined(viewer, shape: shape)
        lastActivity = now
        viewerCountChanged(at: now)
    }

    private mutating func viewerLeft(_ viewer: ViewerID, at now: Millis) {
        guard viewers.remove(viewer) != nil else { return }
        shapes.left(viewer)
        reportedShapes.left(viewer)
        lastActivity = now
        viewerCountChanged(at: now)
    }

    /// A class new among the other instances' viewers gets a snapshot of its own at once (a base),
    /// so that their instance can open its viewers of that class without waiting for a takeover.
    private mutating func viewersElsewhereCounted(_ count: Int, shapes: Set<ShapeClass>, at now: Millis) {
        if count != viewersElsewhere {
            viewersElsewhere = count
            viewerCountChanged(at: now)
        }
        let added = !shapes.isSubset(of: shapesElsewhere)
        shapesElsewhere = shapes
        guard added, isLoaded, case .owner = ownership else { return }
        publishBase(at: now)
    }

    /// The count is sent once, a presence interval from now, however many come and go meanwhile.
    private mutating func viewerCountChanged(at now: Millis) {
        if presenceDue == nil { presenceDue = now + settings.presenceInterval }
    }

    // MARK: - Input

    /// `shape`: the sender's shape class; its samples are in that class's stage points.
    private mutating func pointerBatchReceived(
        _ samples: [APIRequest.PointerSample], from address: String, on shape: ShapeClass?, at now: Millis
    ) throws(RoomRefusal) {
        if let viewer = samples.first?.input.viewer,
            !pointerLimiter.allow(samples.count, from: viewer, at: address, now: now)
        {
            throw .rateLimited
        }
        slideshow.personActed(at: now)
        lastActivity = now
        var change = StackChange()
        for sample in samples where pointerRepeats.admit(sample.input, seq: sample.seq, at: now) {
            // Pointer samples never fail in the model; a refused one simply changes nothing.
            let input = presses.map(sample.input, on: shape, stack: stack!, at: now)
            if let next = try? stack!.handle(.pointer(input), at: now) { change.merge(next) }
        }
        publish(change, at: now)
        // Dragging changes nothing lasting unless the gesture reorders the stack (a flick, a deck
        // card flown out mid-drag): no write per frame of a drag, and the reorder is acknowledged
        // only once it is kept.
        if change.summaryChanged { save(.acknowledged) }
    }

    private mutating func commandReceived(_ command: StackCommand, at now: Millis) throws(RoomRefusal) {
        if case .insert = command, stack!.count >= settings.maxCards { throw .stackFull(limit: settings.maxCards) }
        let change: StackChange
        do {
            change = try stack!.handle(.command(command), at: now)
        } catch {
            throw .refusedByStack(error)
        }
        slideshow.personActed(at: now)
        lastActivity = now
        publish(change, at: now)
        if command.changesLastingState { save(.acknowledged) }
    }

    /// A guest's card joins as an `insert` would, its sender noted first so that the change that
    /// brings it says who sent it.
    private mutating func guestPhotoArrived(
        _ photo: Photo, at position: Int, sender: String?, now: Millis
    ) throws(RoomRefusal) {
        if let sender, senders.count < RoomSettings.maxSenders { senders[photo.id] = sender }
        do {
            try commandReceived(.insert(photo: photo, at: position, behindArrivals: true), at: now)
        } catch {
            senders[photo.id] = nil
            throw error
        }
    }

    /// ▶ or ❚❚: a lasting change like a reorder, so a frame left paused is still paused after a
    /// restart, an upgrade or a takeover, and the answer waits until that is kept.
    private mutating func playingChanged(to playing: Bool, at now: Millis) {
        lastActivity = now
        guard slideshow.choose(playing: playing, at: now) else { return }
        publish(StackChange(), roomSummaryChanged: true, at: now)
        save(.acknowledged)
    }

    private mutating func sleepChanged(asleep: Bool, at now: Millis) {
        guard self.asleep != asleep else { return }
        self.asleep = asleep
        if isLoaded { publish(StackChange(), roomSummaryChanged: true, at: now) }
    }

    /// Follows the photo folder: cards of removed photos leave (fading out, the next card coming to
    /// the front if it was there), new photos take their place in `--order` (never in front of the
    /// card showing: the slideshow reaches them in turn), and cards of replaced photos are sent
    /// again, with their new URL. Not a person's act: the slideshow's timing is kept.
    private mutating func libraryChanged(_ libraryChange: LibraryChange, library: PhotoLibrary, at now: Millis) {
        self.library = library
        if let away = libraryChange.folderAway { slideshow.photosAway = away }
        // An unloaded room is restored from the library as it is by then.
        guard var stack else { return }
        self.stack = nil  // Uniquely referenced while it changes: a large stack is not copied.
        let change = stack.follow(
            libraryChange, at: now, maxCards: settings.maxCards,
            libraryOrder: libraryChange.order == nil ? nil : library.entries.map(\.photo.id))
        self.stack = stack
        publish(change, at: now)
        if change.summaryChanged { save(.background) }
    }

    // MARK: - Time

    private mutating func timerFired(at now: Millis) {
        armedWake = nil
        if isLoaded { advance(at: now) }
        if let due = presenceDue, now >= due {
            presenceDue = nil
            var writer = JSONWriter()
            writer.object { $0.field("viewers", viewers.count + viewersElsewhere) }
            effects.append(.broadcast(ServerSentEvent.encode(event: "presence", data: writer.bytes)))
        }
        if let due = unloadDue, now >= due { unload() }
    }

    /// Ends motions whose time has come and advances the slideshow when it is due.
    private mutating func advance(at now: Millis) {
        var change = (try? stack!.handle(.tick, at: now)) ?? StackChange()
        var lasting = change.summaryChanged
        if asleep {
            // Nobody is looking: the slideshow holds its place until the screens wake.
            slideshow.personActed(at: now)
        } else if slideshow.advanceIfDue(at: now), let advance = try? stack!.handle(.command(.next), at: now) {
            change.merge(advance)
            lasting = true
        }
        if !change.isEmpty { lastActivity = now }
        publish(change, at: now)
        if lasting { save(.background) }
    }

    /// When the room may be unloaded: nobody watches and nothing moves or is due.
    private var unloadDue: Millis? {
        guard let stack, viewers.isEmpty, stack.nextDeadline == nil, slideshow.nextAdvance == nil else { return nil }
        return lastActivity + settings.idleUnload
    }

    /// Frees the stack; the room keeps its name and `seq`, so ids keep increasing, and its lasting
    /// state goes to the store once more (it is already there; this makes the unload safe even so).
    private mutating func unload() {
        save(.background)
        stack = nil
        replay = ReplayBuffer(capacity: RoomSettings.replayCapacity)
    }

    /// Asks for the earliest wake-up the room needs, unless one at least as early is asked for.
    private mutating func armWake(at now: Millis) {
        let slideshowDue = isLoaded ? slideshow.nextAdvance : nil
        let deadlines = [stack?.nextDeadline, slideshowDue, presenceDue, unloadDue].compactMap { $0 }
        guard let deadline = deadlines.min() else { return }
        if let armed = armedWake, armed <= deadline { return }
        armedWake = deadline
        effects.append(.wake(at: deadline))
    }

    /// Remembers the answer given to input that carried `key`.
    mutating func remember(_ answer: IdempotencyLedger.Answer, for key: IdempotencyKey, at now: Millis) {
        answered.record(answer, for: key, at: now)
    }

    // MARK: - Ownership (a group of instances)

    /// Whether this instance applies input and runs the clock (alone, always; in a group, while it
    /// holds the lease — the executor also checks that the lease has not lapsed meanwhile).
    var runsHere: Bool { ownership != .follower }

    /// The epoch the room is run with: every entry published and every save names it.
    var epoch: Int? {
        switch ownership {
        case .alone: 0
        case .owner(let epoch): epoch
        case .follower: nil
        }
    }

    /// This instance runs the room from now on, from `stack` as the group's Redis holds it, numbering
    /// its events from its epoch's base. Every viewer, here and elsewhere, gets the room as a fresh
    /// snapshot: what they saw may be out of date, and nothing numbered before is replayed.
    private mutating func leaseGained(
        epoch: Int, stack: Stack, paused: Bool?, keptThrough: Int, numberedFrom: Int, at now: Millis
    ) {
        ownership = .owner(epoch: epoch)
        seq = max(seq, numberedFrom)
        self.stack = stack
        // The viewers here followed the last owner: from now on they are laid out here.
        shapes = ViewerShapes()
        for (viewer, shape) in reportedShapes.byViewer where !stack.showsRoomStage(shape) {
            shapes.joined(viewer, shape: shape)
        }
        slideshow.restore(paused: paused)
        armedWake = nil
        lastActivity = now
        rebase(at: now, keptThrough: keptThrough)
        // With the rebase, so that the group's snapshot for reads and its state agree with it.
        save(.background)
    }

    /// Another instance runs the room now (or may): this one forgets its stack and what it numbered.
    private mutating func leaseLost() {
        ownership = .follower
        stack = nil
        replay = ReplayBuffer(capacity: RoomSettings.replayCapacity)
        armedWake = nil
        answered = IdempotencyLedger()
    }

    /// A lasting change was refused by the store or the group: the room is what was last kept. Answers
    /// given for what is undone are forgotten (their requests are told it was not applied, so a retry
    /// applies them anew).
    private mutating func keepRefused(keptSeq: Int, stack: Stack, paused: Bool?, at now: Millis) {
        guard isLoaded else { return }
        self.stack = stack
        slideshow.restore(paused: paused)
        answered.forget(after: keptSeq)
        armedWake = nil
        rebase(at: now, keptThrough: keptSeq)
        save(.restored)
    }

    /// Starts the room's history afresh from its snapshot, sent to every viewer (here, and in a group
    /// elsewhere): after a takeover, a rollback, or a gap in what the group got. What was numbered
    /// before is not replayed, so a viewer resuming from it gets this snapshot instead.
    /// `keptThrough`: the last event of the history kept (what came after it was undone).
    private mutating func rebase(at now: Millis, keptThrough: Int) {
        seq += 1
        replay = ReplayBuffer(capacity: RoomSettings.replayCapacity)
        changesSinceBase = 0
        let bytes = snapshotEvent(at: now, keptThrough: keptThrough)
        effects.append(
            .publish(
                .takeover(seq: seq, bytes: bytes),
                shaped: shapedEvents(roomStage: nil) { snapshotEvent(at: now, keptThrough: keptThrough, shape: $0) }))
    }

    /// The room's snapshot, for every class present, as the starting point of viewers joining at
    /// another instance.
    private mutating func publishBase(at now: Millis) {
        changesSinceBase = 0
        let bytes = snapshotEvent(at: now)
        effects.append(
            .publish(
                .base(seq: seq, bytes: bytes),
                shaped: shapedEvents(roomStage: nil) { snapshotEvent(at: now, shape: $0) }))
    }

    private func snapshotEvent(at now: Millis, keptThrough: Int? = nil, shape: ShapeClass? = nil) -> [UInt8] {
        ServerSentEvent.encode(
            id: seq, event: "snapshot", data: snapshot(at: now, keptThrough: keptThrough, shape: shape))
    }

    /// `encode` run once for each shape class present here or, for the owner of a room in a group,
    /// at another instance, that has a layout of its own. Every class present elsewhere is named: one
    /// shown the room's own stage gets `roomStage` (the same bytes, not a copy), or, without it (a
    /// snapshot, which names the class it is for), its own encoding.
    private func shapedEvents(roomStage: [UInt8]?, _ encode: (ShapeClass) -> [UInt8]) -> [ShapeClass: [UInt8]] {
        var shaped: [ShapeClass: [UInt8]] = [:]
        for shape in shapes.present { shaped[shape] = encode(shape) }
        guard case .owner = ownership else { return shaped }
        for shape in shapesElsewhere where shaped[shape] == nil {
            shaped[shape] = stack!.showsRoomStage(shape) ? roomStage ?? encode(shape) : encode(shape)
        }
        return shaped
    }

    // MARK: - Output

    /// Numbers the change, encodes it once for the room's stage and once for each other shape class
    /// present (the cost grows with the classes, not the viewers), and keeps it for replays.
    private mutating func publish(_ change: StackChange, roomSummaryChanged: Bool = false, at now: Millis) {
        guard !change.isEmpty || roomSummaryChanged else { return }
        seq += 1
        let summary = summary(at: now)
        let data = RoomEncoder.change(summary, change: stack!.reshaped(change, on: nil), photos: library)
        let event = ServerSentEvent.encode(id: seq, event: "change", data: data)
        let shaped = shapedEvents(roomStage: event) { [stack, library, seq] shape in
            let reshaped = stack!.reshaped(change, on: shape)
            return ServerSentEvent.encode(
                id: seq, event: "change", data: RoomEncoder.change(summary, change: reshaped, photos: library))
        }
        replay.append(seq: seq, bytes: event, shaped: shaped)
        effects.append(.publish(.change(seq: seq, bytes: event), shaped: shaped))
        // In a group, viewers joining at another instance start from the latest snapshot published.
        guard case .owner = ownership else { return }
        changesSinceBase += 1
        if changesSinceBase >= RoomRelay.baseInterval { publishBase(at: now) }
    }

    /// After a published change: asks for the photos after the front one if the front one changed.
    private mutating func noteFront() {
        guard let stack, let now = stack.photoIDs(at: 0..<1).first, now != front else { return }
        // A guest's photo that was the front card has been shown with its sender's name.
        if let front { senders[front] = nil }
        front = now
        effects.append(.upcoming(stack.photoIDs(at: 1..<1 + RoomSettings.upcomingPhotos)))
    }

    private mutating func save(_ urgency: SaveUrgency) {
        guard let stack else { return }
        var saved = stack.saved()
        saved.paused = slideshow.chosenPaused
        effects.append(.save(saved, urgency))
    }
}
