import Foundation
import Testing

@testable import StackWebServer

/// With `--redis`, `/metrics` also tells an operator about the group: takeovers, forwarded input,
/// Redis errors and round trips — on real `stackweb` processes and a real `redis-server`.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisMetricsTests {
    @Test func takeoversForwardedInputRedisErrorsAndRoundTripsAreCounted() throws {
        try RedisServer.withGroup { redis, owner, other in
            let next = #"{"command":"next"}"#
            #expect(try HTTPTestClient(port: other.port).post("/api/rooms/main/commands", json: next).status == 200)

            let owners = try MetricsPage.read(from: owner)
            #expect(MetricsPage.value("stackweb_redis_takeovers_total", in: owners) ?? 0 >= 1)
            #expect(MetricsPage.value("stackweb_redis_command_duration_seconds_count", in: owners) ?? 0 > 0)
            let others = try MetricsPage.read(from: other)
            #expect(MetricsPage.value("stackweb_redis_forwarded_inputs_total", in: others) ?? 0 >= 1)
            #expect(MetricsPage.value("stackweb_redis_takeovers_total", in: others) == 0)
            if let promtool = Promtool.path {
                for page in [owners, others] {
                    let said = try Promtool.check(page, with: promtool)
                    #expect(said.isEmpty, "promtool check metrics: \(said)")
                }
            }

            // Redis goes away: the commands that fail are counted as such. The first may have been
            // sent on the connection Redis dropped (its outcome is unknown, 504); once the instance
            // finds it cannot connect, nothing is sent and the answer is "not applied" (503).
            redis.stop()
            let first = try HTTPTestClient(port: owner.port).post("/api/rooms/main/commands", json: next)
            #expect([503, 504].contains(first.status))
            let refused = try HTTPTestClient(port: owner.port).post("/api/rooms/main/commands", json: next)
            #expect(refused.status == 503)
            #expect(try refused.json()["outcome"] as? String == "not-applied")
            #expect(
                Poll.until(10) {
                    let page = (try? MetricsPage.read(from: owner)) ?? ""
                    return MetricsPage.value(#"stackweb_redis_command_errors_total{kind="unavailable"}"#, in: page) ?? 0
                        >= 1
                })
        }
    }
}
