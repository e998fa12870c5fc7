import Dispatch
import StackModel

/// Counts every room's viewers across the group, about once a second, on a queue and a connection of
/// its own: each instance adds its own count of each room it has (kept `ttlMilliseconds`, so a dead
/// instance's viewers drop out by themselves) and reads back the group's total, which the room
/// shows (`viewers`), together with what `GET /api/rooms` lists of every room of the group. With
/// its count go the shape classes its viewers reported, lapsing alike: the room's owner lays each
/// change out for the classes the other instances read back.
final class GroupPresence: Sendable {
    static let interval = 1.0
    static let ttlMilliseconds = 3000

    /// Records this instance's count (ARGV 2) and its viewers' shape classes (ARGV 4, by comma) for
    /// the room and returns the group's fresh total, the room's lasting state, the id of its last
    /// event and the classes of the other instances' viewers (one text per instance). Times are
    /// Redis's own, so the instances' clocks do not matter.
    static let count = RedisScript(
        """
        local now = redis.call('TIME')
        local ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
        if tonumber(ARGV[2]) > 0 then
          redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ':' .. (ms + tonumber(ARGV[3])) .. ':' .. ARGV[4])
        else
          redis.call('HDEL', KEYS[1], ARGV[1])
        end
        local total = 0
        local shapes = {}
        local all = redis.call('HGETALL', KEYS[1])
        for i = 1, #all, 2 do
          local count, expires, classes = string.match(all[i + 1], '^(%d+):(%d+):?(.*)$')
          if tonumber(expires) >= ms then
            total = total + tonumber(count)
            if all[i] ~= ARGV[1] and classes ~= '' then shapes[#shapes + 1] = classes end
          else
            redis.call('HDEL', KEYS[1], all[i])
          end
        end
        local last = redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)
        return {total, redis.call('GET', KEYS[2]), last[1] and last[1][1] or '0-0', shapes}
        """)

    private let connection: RedisConnection
    private let instanceID: String
    private let defaultStyle: StyleName
    private let queue = DispatchQueue(label: "stackweb.redis.presence")
    /// Made once, scheduled once in `start`, cancelled once in `stop`: the timer's own calls are thread-safe.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer
    private let counted = Locked<[String: RoomListing]?>(nil)
    /// Told each room's lasting state as read: which photos it keeps out, whoever runs it.
    private let stateRead: @Sendable (String, SavedStack) -> Void
    /// The group's secrets as this instance took them at start, put back (`SET NX`) every round: a
    /// Redis that came back empty has them again before an instance started since can draw others.
    private let secrets: [[UInt8]]

    init(
        url: RedisURL, instanceID: String, defaultStyle: StyleName, secrets: [String: String] = [:],
        stateRead: @escaping @Sendable (String, SavedStack) -> Void = { _, _ in }
    ) {
        self.secrets = secrets.sorted { $0.key < $1.key }.flatMap { name, value in
            [RedisKeys.secret(name), Array(value.utf8)]
        }
        self.stateRead = stateRead
        connection = RedisConnection(url: url)
        self.instanceID = instanceID
        self.defaultStyle = defaultStyle
        timer = DispatchSource.makeTimerSource(queue: queue)
    }

    /// Every room of the group as last counted.
    var listing: [String: RoomListing]? { counted.withLock { $0 } }

    func start(rooms: RoomRegistry) {
        timer.schedule(deadline: .now(), repeating: Self.interval)
        timer.setEventHandler { [weak self, weak rooms] in
            if let rooms { self?.count(rooms) }
        }
        timer.resume()
    }

    func stop() {
        timer.cancel()
        queue.sync {}
    }

    /// One round: this instance's counts in, the group's totals out. Runs on `queue` only.
    private func count(_ rooms: RoomRegistry) {
        // Rooms only watched are views of this instance alone: nothing of them goes to Redis.
        let here = rooms.kept
        let kept = Set(here.map(\.name))
        let local = Dictionary(here.map { ($0.name, $0.viewerCount) }, uniquingKeysWith: { first, _ in first })
        let localShapes = Dictionary(
            here.map { ($0.name, $0.viewerShapes.map(\.rawValue).sorted().joined(separator: ",")) },
            uniquingKeysWith: { first, _ in first })
        guard let members = try? connection.command([Array("SMEMBERS".utf8), RedisKeys.rooms]).array else { return }
        let names = Array(Set(members.compactMap(\.text)).union(local.keys))
        var commands: [[[UInt8]]] = []
        for name in names {
            guard
                let command = try? Self.count.call(
                    keys: [RedisKeys.viewers(name), RedisKeys.state(name), RedisKeys.events(name)],
                    arguments: [
                        Array(instanceID.utf8), Array(String(local[name] ?? 0).utf8),
                        Array(String(Self.ttlMilliseconds).utf8), Array((localShapes[name] ?? "").utf8),
                    ], on: connection)
            else { return }
            commands.append(command)
        }
        let restore = stride(from: 0, to: secrets.count, by: 2).map {
            [Array("SET".utf8), secrets[$0], secrets[$0 + 1], Array("NX".utf8)]
        }
        guard let replies = try? connection.pipeline(commands + restore).dropLast(restore.count) else { return }
        if replies.contains(where: RedisScript.isUnknown) {
            _ = try? Self.count.load(on: connection)
            return
        }
        var listing: [String: RoomListing] = [:]
        for (name, reply) in zip(names, replies) {
            guard let fields = reply.array, let total = fields.first?.integer else { continue }
            let saved = fields.dropFirst().first?.bytes.flatMap { SavedStack(json: $0, defaultStyle: defaultStyle) }
            let seq = fields.dropFirst(2).first?.text.flatMap(RedisStreamID.init)?.seq ?? 0
            if let saved { stateRead(name, saved) }
            if let room = here.first(where: { $0.name == name }) {
                let shapes = Set(
                    (fields.dropFirst(3).first?.array ?? []).compactMap(\.text).flatMap { $0.split(separator: ",") }
                        .compactMap { ShapeClass(rawValue: String($0)) })
                _ = try? room.handle(.viewersElsewhereCounted(max(0, total - (local[name] ?? 0)), shapes: shapes))
            }
            // The group's rooms: those with lasting state, and the kept ones here.
            if saved != nil || kept.contains(name) {
                listing[name] = RoomListing(viewers: total, count: saved?.order.count ?? 0, seq: seq)
            }
        }
        counted.withLock { $0 = listing }
        // A room watched here as a view of its own that the group keeps is the group's.
        rooms.adopt(Set(listing.keys))
    }
}
