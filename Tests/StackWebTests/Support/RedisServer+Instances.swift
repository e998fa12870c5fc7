import StackModel
import Testing

@testable import StackWebServer

extension RedisServer {
    /// The instance that holds `room`'s lease, if any.
    func lease(of room: String) -> String? {
        (try? connection().command([Array("GET".utf8), RedisKeys.lease(room)]))?.text
    }

    /// The epoch of `room`'s latest owner, if it ever had one.
    func epoch(of room: String) -> Int? {
        (try? connection().command([Array("GET".utf8), RedisKeys.epoch(room)]))?.text.flatMap { Int($0) }
    }

    /// The stack the group keeps for `room`, if any.
    func keptState(of room: String) throws -> SavedStack? {
        try connection().command([Array("GET".utf8), RedisKeys.state(room)]).bytes
            .flatMap { SavedStack(json: $0, defaultStyle: .pile) }
    }

    /// How many keys the server holds (`DBSIZE`); -1 when it cannot be asked.
    var keyCount: Int { (try? connection().command("DBSIZE"))?.integer ?? -1 }

    /// A server process in this group, named `id`.
    func startInstance(_ id: String) throws -> ServerProcess {
        try ServerProcess.start(arguments: ["--redis", urlText, "--instance-id", id])
    }

    /// A redis-server and a group of two instances, `a` running `main`, for the length of `body`.
    static func withGroup(
        _ body: (_ redis: RedisServer, _ owner: ServerProcess, _ other: ServerProcess) throws -> Void
    ) throws {
        let redis = try RedisServer()
        let (owner, other) = try redis.startGroup()
        defer {
            owner.end()
            other.end()
        }
        try body(redis, owner, other)
    }

    /// Instances `a` and `b` of this group, `a` running `main`.
    func startGroup() throws -> (owner: ServerProcess, other: ServerProcess) {
        let owner = try startInstance("a")
        #expect(Poll.until { lease(of: "main") == "a" })
        do {
            return (owner, try startInstance("b"))
        } catch {
            owner.end()
            throw error
        }
    }
}
