import StackModel

/// A viewer of a room, as the room knows it: the executor maps ids to the streams themselves, so
/// the room's decisions stay plain data.
struct ViewerID: Hashable, Sendable {
    let number: Int
}

/// What happened to a room. Named after the happening, not after what the room should do about it;
/// `RoomState.handle(_:at:)` decides that.
enum RoomEvent: Sendable {
    /// The room was made (first use since the server started).
    case opened
    /// A viewer opened the event stream, resuming after `lastEventID` when it sent one, from a
    /// screen of `shape` (nil: it reported none, and is shown the room's own stage).
    case viewerJoined(ViewerID, lastEventID: Int?, shape: ShapeClass? = nil)
    /// A viewer opened the event stream at an instance of a group that does not run the room: it is
    /// counted here, and its opening and the changes come from the owner through the group, laid
    /// out for its `shape`.
    case viewerAttached(ViewerID, shape: ShapeClass? = nil)
    /// In a group: the room's viewers at the other instances were counted, and the shape classes
    /// they reported (the owner lays each change out for those too).
    case viewersElsewhereCounted(Int, shapes: Set<ShapeClass> = [])
    /// A viewer's stream ended (closed by the peer, or dropped as too slow).
    case viewerLeft(ViewerID)
    /// A page posted a batch of pointer samples, in the page's order, from the client at `address`,
    /// in the stage points of its `shape` (nil: the room's own stage).
    case pointerBatchReceived([APIRequest.PointerSample], from: String, shape: ShapeClass? = nil)
    /// Someone with control rights sent a command.
    case commandReceived(StackCommand)
    /// A guest's photo was kept for the room: its card joins at `position`, and shows who sent it
    /// (`sender`, already made showable by `GuestName`) until it has been the front card.
    case guestPhotoArrived(Photo, at: Int, sender: String?)
    /// ▶ or ⏸ was pressed.
    case playPressed
    case pausePressed
    /// A wake-up the room asked for (`RoomEffect.wake`) came due; more may be due by now.
    case timerFired
    /// The photo folder changed; `library` is the folder as it is now.
    case libraryChanged(LibraryChange, library: PhotoLibrary)
    /// The sleep schedule crossed a boundary.
    case sleepChanged(asleep: Bool)
    /// Time to show every viewer the connection is alive (and find the ones that are gone).
    case heartbeatDue
    /// In a group: this instance holds the room's lease from now on, taken with `epoch`; `stack` is the
    /// room as the group's Redis held it when the lease was taken (read in the same script).
    /// `paused`: the slideshow as kept with it. `keptThrough`: the last event of the room's history
    /// Redis holds. `numberedFrom`: where its numbering starts (`HistoryNumbering`, by Redis's clock
    /// and every id known of the room).
    case leaseGained(epoch: Int, stack: Stack, paused: Bool?, keptThrough: Int, numberedFrom: Int)
    /// In a group: the lease this instance held the room with is gone; another instance may run it.
    case leaseLost
    /// A lasting change could not be kept (the store or the group refused it, so it is not applied
    /// anywhere): the room goes back to `stack` and `paused`, its state as last kept, at `keptSeq`.
    case keepRefused(keptSeq: Int, stack: Stack, paused: Bool?)
    /// Some of what the room published did not reach the group (or may not have), while its lasting
    /// state is as last kept: the room's whole snapshot goes out again, so no viewer keeps a gap.
    case groupMissedChanges(keptThrough: Int)

    /// Whether the event is a person's input (only the room's owner applies it, in a group).
    var isInput: Bool {
        switch self {
        case .pointerBatchReceived, .commandReceived, .guestPhotoArrived, .playPressed, .pausePressed: true
        case .opened, .viewerJoined, .viewerAttached, .viewerLeft, .viewersElsewhereCounted, .timerFired,
            .libraryChanged, .sleepChanged, .heartbeatDue, .leaseGained, .leaseLost, .keepRefused, .groupMissedChanges:
            false
        }
    }

    /// Whether every instance with the room handles the event, owner or not: it is about this
    /// instance's own viewers.
    var concernsLocalViewers: Bool {
        switch self {
        case .viewerJoined, .viewerAttached, .viewerLeft, .viewersElsewhereCounted, .heartbeatDue: true
        default: false
        }
    }

    /// Whether handling the event needs the room's stack in memory whatever the room's state
    /// (`RoomState.needsStack(for:)` adds the cases that depend on it).
    var needsStack: Bool {
        switch self {
        case .viewerJoined, .pointerBatchReceived, .commandReceived, .guestPhotoArrived, .playPressed, .pausePressed:
            true
        case .opened, .viewerAttached, .viewerLeft, .viewersElsewhereCounted, .timerFired, .libraryChanged,
            .sleepChanged, .heartbeatDue, .leaseGained, .leaseLost, .keepRefused, .groupMissedChanges:
            false
        }
    }
}

/// What a room asks its executor to do: plain data, so tests see every consequence of an event.
enum RoomEffect: Equatable, Sendable {
    /// The same bytes to every viewer here (one encoding, however many viewers), not numbered: the
    /// presence count, a heartbeat.
    case broadcast([UInt8])
    /// A numbered event of the room's history: a change or a snapshot to every viewer here and, in a
    /// group, to the group (a base snapshot to the group only). `shaped`: the same event laid out
    /// for each shape class present here, for that class's viewers; the entry's bytes for the others.
    case publish(RoomRelay.Entry, shaped: [ShapeClass: [UInt8]] = [:])
    /// Bytes to one viewer only (its opening: a replay or a snapshot).
    case send([UInt8], to: ViewerID)
    /// Deliver `RoomEvent.timerFired` at this server time.
    case wake(at: Millis)
    /// The room's lasting state changed: keep it. `urgency` says whether someone waits for it.
    case save(SavedStack, SaveUrgency)
    /// The front card changed: these photos come next (worth having ready at the sizes pages show).
    case upcoming([String])
}

/// Why a room refused an event; nothing changed.
enum RoomRefusal: Error, Equatable {
    /// More pointer samples than `PointerRateLimiter` allows from one viewer.
    case rateLimited
    /// The model refused the command (unknown card, index out of range, nothing to undo…).
    case refusedByStack(StackError)
    /// An insert into a stack that holds `RoomSettings.maxCards` already.
    case stackFull(limit: Int)
    /// Another instance of the group runs the room (or none does yet): input is not applied here.
    case runElsewhere
    /// The request's `Idempotency-Key` was answered for another request (another body).
    case keyReused
}
