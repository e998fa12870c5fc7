import Dispatch
import Foundation
import StackModel

/// One live stack and everyone watching it.
///
/// The lock is the room's serial executor: events, timer ticks and subscriptions are applied one
/// at a time, in order. Each change is encoded once and the same bytes go to every viewer.
final class Room: Sendable {
    /// Viewers one room serves at most; past that a new stream gets 429.
    static let maxViewers = 20_000
    /// How many recent change events are kept for `Last-Event-ID` resumption.
    static let replayCapacity = 512
    /// A replay larger than this is sent as a fresh snapshot instead. A viewer's stream queues at
    /// most 1 MiB (`StreamConnection.maxQueuedBytes`): an opening past that would close the stream
    /// before it starts, and the page, resuming from the same id, would be refused again forever.
    static let maxReplayBytes = 256 * 1024
    /// Viewer counts are sent at most this often: a hall of screens joining at once must not cost
    /// one broadcast per join (that would be quadratic).
    static let presenceInterval: DispatchTimeInterval = .milliseconds(500)

    let name: String
    private let clock: @Sendable () -> Millis
    /// The photos as the folder holds them now: each card's URL and caption come from it.
    private let library: Locked<PhotoLibrary>
    /// Whether the server's sleep schedule has the screens dark now.
    private let asleep: @Sendable () -> Bool
    private let state: Locked<State>
    private let timerQueue: DispatchQueue

    private struct State {
        /// `nil` while the room is unloaded (idle, no viewers): its lasting state is in the store.
        var loaded: Stack?
        let restore: @Sendable () -> Stack
        /// Server time of the last event applied, to tell when the room has been idle long enough.
        var lastActivity: Millis
        var seq = 0
        var viewers: [ObjectIdentifier: any EventSink] = [:]
        var replay = ReplayBuffer(capacity: Room.replayCapacity)
        var scheduledTick: Millis?
        var presencePending = false
        var pointerLimiter = PointerRateLimiter()
        var pointerRepeats = PointerRepeatFilter()
        var slideshow: Slideshow

        /// Runs `body` on the stack, restoring it first when the room was unloaded. In place: a
        /// million-card stack is never copied.
        mutating func stack<Result, Failure: Error>(_ body: (inout Stack) throws(Failure) -> Result) throws(Failure)
            -> Result
        {
            if loaded == nil { loaded = restore() }
            return try body(&loaded!)
        }
    }

    /// Called after each change: the room's lasting state is worth saving again.
    private let changed: @Sendable (String) -> Void

    /// `restore` makes the room's stack when it is first used and after each unload.
    init(
        name: String, clock: @escaping @Sendable () -> Millis, restore: @escaping @Sendable () -> Stack,
        slideshowInterval: Millis? = nil, library: Locked<PhotoLibrary> = Locked(PhotoLibrary(entries: [])),
        asleep: @escaping @Sendable () -> Bool = { false }, changed: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.name = name
        self.clock = clock
        self.library = library
        self.asleep = asleep
        self.changed = changed
        let now = clock()
        self.state = Locked(
            State(restore: restore, lastActivity: now, slideshow: Slideshow(interval: slideshowInterval, now: now)))
        self.timerQueue = DispatchQueue(label: "stackweb.room.\(name).timer")
        // A slideshow runs from the start, watched or not (a frame may connect later).
        state.withLock { scheduleTick(in: &$0) }
    }

    var viewerCount: Int { state.withLock { $0.viewers.count } }

    /// What `GET /api/rooms` lists about this room.
    func listing() -> (viewers: Int, count: Int, seq: Int) {
        state.withLock { state in (state.viewers.count, state.stack { $0.count }, state.seq) }
    }

    /// The room's current snapshot as JSON.
    func snapshotJSON() -> [UInt8] {
        state.withLock { snapshot(of: &$0) }
    }

    /// The lasting state to save, or `nil` while unloaded (the store already has it).
    func saved() -> SavedStack? {
        state.withLock { $0.loaded?.saved() }
    }

    /// Unloads the stack when nobody watches and nothing has happened for `idle` ms and nothing is
    /// in motion; returns its lasting state for the store. The room object stays, with its `seq`,
    /// so ids keep increasing; viewers that come back get a snapshot.
    func unloadIfIdle(for idle: Millis) -> SavedStack? {
        state.withLock { state in
            guard let stack = state.loaded, state.viewers.isEmpty, stack.nextDeadline == nil,
                clock() - state.lastActivity >= idle
            else { return nil }
            state.loaded = nil
            state.replay = ReplayBuffer(capacity: Room.replayCapacity)
            return stack.saved()
        }
    }

    /// Adds a viewer: first `retry:` and either the events it missed since `lastEventID` or a
    /// snapshot, then every change as it happens.
    func subscribe(_ sink: any EventSink, lastEventID: Int?) {
        state.withLock { state in
            state.viewers[ObjectIdentifier(sink)] = sink
            var opening = Array("retry: 1000\n\n".utf8)
            if let lastEventID, let missed = state.replay.events(after: lastEventID, latest: state.seq),
                missed.reduce(0, { $0 + $1.count }) <= Self.maxReplayBytes
            {
                for event in missed { opening += event }
            } else {
                opening += ServerSentEvent.encode(id: state.seq, event: "snapshot", data: snapshot(of: &state))
            }
            sink.send(opening)
            schedulePresence(in: &state)
        }
        let id = ObjectIdentifier(sink)
        sink.onClose { [weak self] in
            self?.state.withLock { state in
                if state.viewers.removeValue(forKey: id) != nil { self?.schedulePresence(in: &state) }
            }
        }
    }

    /// A viewer sent more pointer samples than `PointerRateLimiter` allows.
    struct RateLimited: Error {}

    /// What applying a request did: the room's sequence number after it, and whether it changed
    /// what is saved (order, current card), so the answer must wait until that is on disk.
    struct Applied: Equatable {
        var seq: Int
        var changedLastingState: Bool
    }

    /// Applies a batch of pointer samples in order, skipping any the page has sent before.
    func apply(pointer samples: [APIRequest.PointerSample]) throws(RateLimited) -> Applied {
        try state.withLock { (state) throws(RateLimited) -> Applied in
            let now = clock()
            if let viewer = samples.first?.input.viewer,
                !state.pointerLimiter.allow(samples.count, from: viewer, at: now)
            {
                throw RateLimited()
            }
            state.slideshow.personActed(at: now)
            var change = StackChange()
            var onlyMoves = true
            for sample in samples where state.pointerRepeats.admit(sample.input, seq: sample.seq, at: now) {
                onlyMoves = onlyMoves && sample.input.phase == .move
                // Pointer samples never fail in the model; a refused one simply changes nothing.
                if let next = try? state.stack({ try $0.handle(.pointer(sample.input), at: now) }) {
                    change.merge(next)
                }
            }
            // Dragging changes nothing that is saved unless the drag reorders the stack (a deck
            // card flown out mid-drag changes `current`): no state write per frame of a drag.
            publish(change, at: now, in: &state, saving: !onlyMoves || change.summaryChanged)
            return Applied(seq: state.seq, changedLastingState: change.summaryChanged)
        }
    }

    /// Starts or stops the slideshow (a no-op on a server without `--interval`).
    func setPlaying(_ playing: Bool) -> Applied {
        state.withLock { state in
            let now = clock()
            let changed = state.slideshow.interval != nil && state.slideshow.playing != playing
            if changed {
                state.slideshow.playing = playing
                state.slideshow.personActed(at: now)
            }
            publish(StackChange(summaryChanged: changed), at: now, in: &state)
            return Applied(seq: state.seq, changedLastingState: false)
        }
    }

    /// Applies one command.
    func apply(_ command: StackCommand) throws(StackError) -> Applied {
        try state.withLock { (state) throws(StackError) -> Applied in
            let now = clock()
            state.slideshow.personActed(at: now)
            let change = try state.stack { (stack) throws(StackError) in try stack.handle(.command(command), at: now) }
            publish(change, at: now, in: &state)
            return Applied(seq: state.seq, changedLastingState: change.summaryChanged)
        }
    }

    /// Follows the photo folder: cards of removed photos leave (fading out, the next card coming to
    /// the front if it was there), new photos join the back of the stack (the slideshow reaches
    /// them in turn, and nobody's place is taken), and cards of replaced photos are sent again, with
    /// their new URL. Not a person's act: the slideshow's timing is kept.
    func photosChanged(_ libraryChange: LibraryChange) {
        state.withLock { state in
            // An unloaded room is restored from the library as it is by then.
            guard state.loaded != nil else { return }
            let now = clock()
            var change = StackChange()
            let apply = { (stack: inout Stack, command: StackCommand) in
                // Checked against the stack just before: these cannot be refused.
                if let next = try? stack.handle(.command(command), at: now) { change.merge(next) }
            }
            state.stack { stack in
                // A photo whose shape changed gets a new card of the right shape, in the same place.
                for photo in libraryChange.reshaped {
                    guard let card = stack.cardsByPhoto()[photo.id] else { continue }
                    apply(&stack, .remove(cardID: card.id))
                    apply(&stack, .insert(photo: photo, at: min(card.position, stack.count)))
                }
                var cards = stack.cardsByPhoto()
                for id in libraryChange.removed {
                    if let card = cards.removeValue(forKey: id) { apply(&stack, .remove(cardID: card.id)) }
                }
                // A room restored after the library was swapped already has them.
                for photo in libraryChange.added where cards[photo.id] == nil {
                    apply(&stack, .insert(photo: photo, at: stack.count))
                }
                let replaced = Set(libraryChange.replaced)
                change.merge(StackChange(cards: stack.drawnCards(at: now).filter { replaced.contains($0.photo) }))
            }
            publish(change, at: now, in: &state)
        }
    }

    /// The sleep schedule crossed a boundary: every viewer hears whether to be dark.
    func sleepChanged() {
        state.withLock { state in publish(StackChange(summaryChanged: true), at: clock(), in: &state) }
    }

    /// Sends a comment line to every viewer: keeps proxies from closing idle streams and lets the
    /// server notice viewers that are gone (a write to a closed peer fails).
    func heartbeat() {
        let bytes = Array(": heartbeat\n\n".utf8)
        state.withLock { broadcast(bytes, in: &$0) }
    }

    /// Ends every viewer's stream (server shutdown).
    func closeAll() {
        state.withLock { state in
            for sink in state.viewers.values { sink.close() }
        }
    }

    private func snapshot(of state: inout State) -> [UInt8] {
        let now = clock()
        let summary = summary(of: &state, at: now)
        return RoomEncoder.snapshot(
            summary, cards: state.stack { $0.drawnCards(at: now) }, photos: library.withLock { $0 })
    }

    private func summary(of state: inout State, at now: Millis) -> RoomEncoder.Summary {
        let (viewers, seq, playing) = (state.viewers.count, state.seq, state.slideshow.playing)
        return state.stack { stack in
            RoomEncoder.Summary(
                room: name, seq: seq, serverTime: now, style: stack.style, stage: stack.stage,
                count: stack.count, current: stack.current, playing: playing, asleep: asleep(), viewers: viewers,
                heldBy: stack.holder)
        }
    }

    /// Numbers, encodes once, fans out and remembers a change; then re-arms the timer.
    private func publish(_ change: StackChange, at now: Millis, in state: inout State, saving: Bool = true) {
        state.lastActivity = now
        if !change.isEmpty {
            state.seq += 1
            if saving { changed(name) }
            let data = RoomEncoder.change(summary(of: &state, at: now), change: change, photos: library.withLock { $0 })
            let event = ServerSentEvent.encode(id: state.seq, event: "change", data: data)
            state.replay.append(seq: state.seq, bytes: event)
            broadcast(event, in: &state)
        }
        scheduleTick(in: &state)
    }

    /// Queues the same bytes to every viewer; a viewer whose stream refuses them (gone, or too slow)
    /// is dropped at once so it costs nothing more.
    private func broadcast(_ bytes: [UInt8], in state: inout State) {
        var refused: [ObjectIdentifier] = []
        for (id, sink) in state.viewers where !sink.send(bytes) { refused.append(id) }
        if !refused.isEmpty {
            for id in refused { state.viewers.removeValue(forKey: id) }
            schedulePresence(in: &state)
        }
    }

    /// Sends the viewer count shortly, once, however many viewers come and go meanwhile.
    private func schedulePresence(in state: inout State) {
        guard !state.presencePending else { return }
        state.presencePending = true
        timerQueue.asyncAfter(deadline: .now() + Self.presenceInterval) { [weak self] in
            self?.sendPresence()
        }
    }

    private func sendPresence() {
        state.withLock { state in
            state.presencePending = false
            var writer = JSONWriter()
            writer.object { $0.field("viewers", state.viewers.count) }
            broadcast(ServerSentEvent.encode(event: "presence", data: writer.bytes), in: &state)
        }
    }

    /// Arms a one-shot timer for the model's next deadline (animation end, gesture timeout).
    private func scheduleTick(in state: inout State) {
        let deadlines = [state.loaded?.nextDeadline, state.slideshow.nextAdvance].compactMap { $0 }
        guard let deadline = deadlines.min() else { return }
        if let scheduled = state.scheduledTick, scheduled <= deadline { return }
        state.scheduledTick = deadline
        let delay = max(0, deadline - clock()) + 1
        timerQueue.asyncAfter(deadline: .now() + .microseconds(Int(delay * 1000))) { [weak self] in
            self?.tick()
        }
    }

    private func tick() {
        state.withLock { state in
            state.scheduledTick = nil
            let now = clock()
            var change = (try? state.stack { try $0.handle(.tick, at: now) }) ?? StackChange()
            if asleep() {
                // Nobody is looking: the slideshow holds its place until the screens wake.
                state.slideshow.personActed(at: now)
            } else if state.slideshow.advanceIfDue(at: now),
                let advance = try? state.stack({ try $0.handle(.command(.next), at: now) })
            {
                change.merge(advance)
                changed(name)
            }
            publish(change, at: now, in: &state)
        }
    }
}
