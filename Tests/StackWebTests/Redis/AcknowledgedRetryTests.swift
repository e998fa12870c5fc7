import Foundation
import Testing

@testable import StackWebServer

/// A client whose acknowledged change's answer was lost retries it, with the same
/// `Idempotency-Key`, at another instance, under each fault: it is told the first answer, or that
/// the outcome is unknown (504) — never "503 not applied", which would lead it to send the change
/// again under a new key and apply it twice.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct AcknowledgedRetryTests {
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        /// Redis frozen (SIGSTOP) while the retry is on its way.
        case redisFrozen
        /// The owner killed outright: the retry waits for another instance to take the room.
        case ownerKilled
        var testDescription: String { rawValue }
    }

    @Test(arguments: Fault.allCases)
    func aRetryOfAnAcknowledgedKeyIsNeverAnsweredNotApplied(fault: Fault) throws {
        try RedisServer.withGroup { redis, owner, other in
            let key = "ack-\(UUID().uuidString)"
            let command = #"{"command":"style","style":"grid"}"#
            let first = try HTTPTestClient(port: owner.port).post(
                "/api/rooms/main/commands", json: command, headers: ["Idempotency-Key": key])
            try #require(first.status == 200, "\(first.text)")
            let seq = try #require(try first.json()["seq"] as? Int)

            switch fault {
            case .redisFrozen: redis.pause()
            case .ownerKilled: owner.kill9()
            }
            let retry = {
                try HTTPTestClient(port: other.port).post(
                    "/api/rooms/main/commands", json: command, headers: ["Idempotency-Key": key])
            }
            let during = try retry()
            try Self.expectHonest(during, seq: seq)
            if fault == .redisFrozen { redis.resume() }
            // Once the group is whole again (a lease may have lapsed meanwhile: a takeover), the retry
            // is told the first answer.
            var healed: HTTPTestClient.Reply?
            #expect(
                Poll.until(30) {
                    healed = try? retry()
                    return healed?.status == 200
                }, "last answer: \(healed.map { "\($0.status) \($0.text)" } ?? "none")")
            #expect(try healed?.json()["seq"] as? Int == seq)
        }
    }

    /// 200 with the first seq, or 504 `unknown`: the only honest answers to a retry of a key that
    /// was applied.
    static func expectHonest(_ reply: HTTPTestClient.Reply, seq: Int) throws {
        switch reply.status {
        case 200: #expect(try reply.json()["seq"] as? Int == seq)
        case 504: #expect(try reply.json()["outcome"] as? String == "unknown")
        default: Issue.record("a retry of an applied key answered \(reply.status): \(reply.text)")
        }
    }
}
