import StackModel

/// The group of instances sharing rooms through Redis (`--redis`), as rooms see it (`RoomGroup`):
/// the leases say which rooms this instance runs, the publisher sends what they do to the group,
/// the follower brings what the other owners publish to the viewers here. Each has its own
/// connection and thread or queue; none is ever called on libmicrohttpd's thread.
final class RedisGroup: RoomGroup {
    let leases: RoomLeases
    let publisher: RoomPublisher
    private let url: RedisURL
    private let follower = Locked<RoomFollower?>(nil)

    init(url: RedisURL, instanceID: String, defaultStyle: StyleName, log: @escaping @Sendable (String) -> Void) {
        self.url = url
        let leases = RoomLeases(
            instanceID: instanceID, connection: RedisConnection(url: url), defaultStyle: defaultStyle)
        self.leases = leases
        publisher = RoomPublisher(connection: RedisConnection(url: url), epoch: { leases.epoch(of: $0) }, log: log)
    }

    /// Starts taking rooms and following the others' for `rooms`; `store` learns each room's epoch.
    func start(rooms: RoomRegistry, store: RedisRoomStore?) {
        leases.start { [weak rooms] change in
            switch change {
            case .gained(let room, let epoch, let saved, let lastSeq):
                store?.owned(room, epoch: epoch, saved: saved)
                rooms?.existingRoom(named: room)?.takeOver(after: lastSeq)
            case .lost(let room):
                store?.disowned(room)
                rooms?.existingRoom(named: room)?.relinquish()
            }
        }
        let follower = RoomFollower(url: url, followed: { [leases] in leases.followed }) {
            [weak rooms] room, entries, catchingUp in
            rooms?.existingRoom(named: room)?.relay(entries, catchingUp: catchingUp)
        }
        self.follower.withLock { $0 = follower }
        follower.start()
    }

    /// Sends what is queued, stops following and gives the leases back.
    func stop() {
        publisher.flush()
        follower.withLock { $0 }?.stop()
        leases.stop()
    }

    func owns(_ room: String) -> Bool { leases.owns(room) }
    func want(_ room: String) { leases.want(room) }
    func unwant(_ room: String) { leases.unwant(room) }
    func isUndecided(_ room: String) -> Bool { leases.isUndecided(room) }
    func whenDecided(_ room: String, _ body: @escaping @Sendable () -> Void) { leases.whenDecided(room, body) }
    func publish(_ entry: RoomRelay.Entry, of room: String) { publisher.publish(entry, of: room) }
    var failure: StoreFailure? { leases.failure }
}
