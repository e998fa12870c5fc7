import Foundation
import Testing

@testable import StackWebServer

/// A token holder's commands are rate-limited per address: a flood of `next` is refused with 429
/// (nothing of it applied) instead of fanning out to every viewer.
@Suite struct CommandRateTests {
    final class FakeTime: Sendable {
        let seconds = Locked(0.0)
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
    }

    @Test func aBurstThenARate() {
        let time = FakeTime()
        let limiter = CommandRateLimiter(burst: 30, perSecond: 10) { time.seconds.withLock { $0 } }
        #expect((0..<30).allSatisfy { _ in limiter.take(from: "a") == nil })
        #expect(limiter.take(from: "a") != nil)
        #expect(limiter.take(from: "b") == nil)
        time.advance(0.1)
        #expect(limiter.take(from: "a") == nil)
        #expect(limiter.take(from: "a") != nil)
        time.advance(10)
        #expect((0..<30).allSatisfy { _ in limiter.take(from: "a") == nil })
    }

    @Test func aFloodOfCommandsIsRefusedWith429() throws {
        let token = "abcdefghijklmnop1234"
        let server = try TestServer {
            $0.token = token
            $0.limits = .standard(loopbackOnly: false)
        }
        let started = Date()
        var statuses: [Int] = []
        for _ in 0..<80 {
            let reply = try server.http.post(
                "/api/rooms/main/commands", json: #"{"command":"next"}"#, headers: ["Authorization": "Bearer \(token)"])
            statuses.append(reply.status)
            if reply.status == 429 { #expect(reply.header("Retry-After") == "1") }
        }
        let elapsed = Date().timeIntervalSince(started)
        let applied = statuses.filter { $0 == 200 }.count
        #expect(statuses.contains(429))
        #expect(applied >= 30 && Double(applied) <= 31 + elapsed * 10, "\(applied) in \(elapsed) s")
        #expect(try server.numberedSoFar() == applied)
    }

    /// On loopback (no token, every client this machine) there is no limit, as for connections.
    @Test func loopbackHasNoLimit() throws {
        let server = try TestServer()
        for _ in 0..<60 { #expect(try server.command(#"{"command":"next"}"#).status == 200) }
    }
}
