import Dispatch
import Foundation
import StackModel

/// Reads what the owners of the rooms this instance follows (viewers here, owner elsewhere) publish,
/// and hands it to the rooms — and the owners' answers to the input this instance carried to them:
/// on a thread of its own, blocked in `XREAD BLOCK` on a connection of its own. A room newly
/// followed first gets the history its stream holds (its latest snapshot and the changes around
/// it), then every entry as it comes.
final class RoomFollower: Sendable {
    /// How long one `XREAD` waits: also how soon a room newly followed is read.
    static let blockMilliseconds = 200

    private let connection: RedisConnection
    private let followed: @Sendable () -> Set<String>
    private let deliver: @Sendable (_ room: String, _ entries: [RoomRelay.Published], _ catchingUp: Bool) -> Void
    /// The stream the owners answer this instance's forwarded input on, and who hears each answer.
    private let answers: [UInt8]
    private let answered: @Sendable ([String: [UInt8]]) -> Void
    private let thread = ReaderThread()

    init(
        url: RedisURL, answers: [UInt8], followed: @escaping @Sendable () -> Set<String>,
        answered: @escaping @Sendable ([String: [UInt8]]) -> Void,
        deliver: @escaping @Sendable (String, [RoomRelay.Published], Bool) -> Void
    ) {
        connection = RedisConnection(url: url, timeout: 2 + Double(Self.blockMilliseconds) / 1000)
        self.answers = answers
        self.followed = followed
        self.answered = answered
        self.deliver = deliver
    }

    func start() {
        thread.start { [self] in run() }
    }

    /// Stops the reader and waits for its thread to end (at most one `XREAD` wait).
    func stop() {
        thread.stop()
    }

    private func run() {
        var cursors: [String: String] = [:]
        // From the start of the stream: an answer may come before this thread's first read. Answers
        // to an earlier process of the same name are there too; their ids match nothing waiting.
        var answersCursor = "0-0"
        while thread.isRunning {
            var failed = false
            let rooms = followed()
            cursors = cursors.filter { rooms.contains($0.key) }
            for room in rooms where cursors[room] == nil {
                do {
                    let reply = try connection.command([
                        Array("XRANGE".utf8), RedisKeys.events(room), Array("-".utf8), Array("+".utf8),
                    ])
                    let (entries, last) = Self.entries(reply)
                    deliver(room, entries, true)
                    cursors[room] = last ?? "0-0"
                } catch {
                    failed = true
                }
            }
            if !failed {
                failed = !read(&cursors, answersCursor: &answersCursor)
            }
            // Redis unreachable: wait here rather than spin.
            if failed { thread.rest(milliseconds: Self.blockMilliseconds) }
        }
    }

    /// One `XREAD BLOCK` over every followed stream and this instance's answers; `false` when Redis
    /// could not be asked.
    private func read(_ cursors: inout [String: String], answersCursor: inout String) -> Bool {
        let rooms = Array(cursors.keys)
        let keys = rooms.map(RedisKeys.events)
        let byKey = Dictionary(uniqueKeysWithValues: zip(keys, rooms))
        let command =
            ["XREAD", "COUNT", String(RoomSettings.replayCapacity), "BLOCK", String(Self.blockMilliseconds), "STREAMS"]
            .map { Array($0.utf8) } + keys + [answers] + rooms.map { Array(cursors[$0]!.utf8) }
            + [Array(answersCursor.utf8)]
        guard let reply = try? connection.command(command) else { return false }
        for stream in reply.array ?? [] {
            guard let fields = stream.array, fields.count == 2, let key = fields[0].bytes else { continue }
            if key == answers {
                for entry in fields[1].array ?? [] {
                    guard let parts = entry.array, parts.count == 2 else { continue }
                    answersCursor = parts[0].text ?? answersCursor
                    answered(RoomInputReader.fields(parts[1].array ?? []))
                }
                continue
            }
            guard let room = byKey[key] else { continue }
            let (entries, last) = Self.entries(fields[1])
            if let last { cursors[room] = last }
            if !entries.isEmpty { deliver(room, entries, false) }
        }
        return true
    }

    /// A stream's entries (`XRANGE`'s or one stream of `XREAD`'s reply) and the id of the last.
    static func entries(_ reply: RedisReply) -> ([RoomRelay.Published], last: String?) {
        var entries: [RoomRelay.Published] = []
        var last: String?
        for item in reply.array ?? [] {
            guard let parts = item.array, parts.count == 2, let id = parts[0].text else { continue }
            last = id
            guard let seq = RedisStreamID(id)?.seq, let fields = parts[1].array else { continue }
            var kind: String?
            var bytes: [UInt8]?
            var shaped: [ShapeClass: [UInt8]] = [:]
            for pair in stride(from: 0, to: fields.count - 1, by: 2) {
                switch fields[pair].text {
                case "k": kind = fields[pair + 1].text
                case "d": bytes = fields[pair + 1].bytes
                case let name? where name.hasPrefix(RoomPublisher.shapedField):
                    guard let shape = ShapeClass(rawValue: String(name.dropFirst(RoomPublisher.shapedField.count)))
                    else { continue }
                    shaped[shape] = fields[pair + 1].bytes
                default: break
                }
            }
            guard let bytes else { continue }
            // An empty value: the class is shown the room's own stage (the same bytes, shared).
            for (shape, value) in shaped where value.isEmpty { shaped[shape] = bytes }
            let entry: RoomRelay.Entry
            switch kind {
            case "c": entry = .change(seq: seq, bytes: bytes)
            case "t": entry = .takeover(seq: seq, bytes: bytes)
            case "b": entry = .base(seq: seq, bytes: bytes)
            default: continue
            }
            entries.append(RoomRelay.Published(entry: entry, shaped: shaped))
        }
        return (entries, last)
    }
}
