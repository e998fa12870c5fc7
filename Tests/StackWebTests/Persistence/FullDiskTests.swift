import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// A full disk: lasting changes are refused (503) rather than acknowledged and lost, `/healthz` says
/// so, and everything comes back by itself when there is space again. On a real, tiny tmpfs.
@Suite(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
struct FullDiskTests {
    @Test func aFullDiskIsRefused503AndRecoversByItself() throws {
        try TinyDisk.mounted { folder in
            let path = folder + "/state.db"
            let server = try TestServer { $0.state = path }
            #expect(try server.command(#"{"command":"next"}"#).status == 200)
            #expect(try server.http.get("/healthz").status == 200)
            let filler = TinyDisk.fill(folder)
            // Enough changes to need new pages in the log: the disk cannot take them.
            var refused: HTTPTestClient.Reply?
            for index in 0..<40 where refused == nil {
                let reply = try server.command(#"{"command":"style","style":"\#(index % 2 == 0 ? "grid" : "deck")"}"#)
                if reply.status != 200 { refused = reply }
            }
            let refusal = try #require(refused, "every change was acknowledged on a full disk")
            #expect(refusal.status == 503)
            #expect(refusal.header("Retry-After") != nil)
            #expect((try refusal.json()["error"] as? String)?.contains("could not be kept") == true)
            #expect(try refusal.json()["outcome"] as? String == "not-applied")
            let health = try server.http.get("/healthz")
            #expect(health.status == 503)
            #expect(try health.json()["status"] as? String == "degraded")
            // Looks of the moment need no disk, and viewers keep being served.
            #expect(try server.command(#"{"command":"flip"}"#).status == 200)
            #expect(try server.http.get("/api/rooms/main").status == 200)
            try FileManager.default.removeItem(atPath: filler)
            #expect(Poll.until(10) { (try? server.http.get("/healthz").status) == 200 })
            #expect(try server.command(#"{"command":"goto","index":5}"#).status == 200)
            let front = (try server.snapshot()["cards"] as? [[String: Any]])?.first { $0["position"] as? Int == 0 }
            #expect(try StateDatabaseReader(path: path).frontPhoto(of: "main") == front?["photo"] as? String)
        }
    }

    /// A lasting change answered 503 on a full disk changed nothing — not in memory, not on disk after
    /// the disk has space again, not after a restart — and its retry with the same `Idempotency-Key`
    /// is applied once, however often it is sent.
    @Test func aChangeRefused503ChangedNothingAndItsRetryIsAppliedOnce() throws {
        try TinyDisk.mounted { folder in
            let path = folder + "/state.db"
            var server: TestServer? = try TestServer { $0.state = path }
            let http = server!.http
            let photo = try #require((try server!.snapshot()["cards"] as? [[String: Any]])?.first?["photo"] as? String)
            let start = try #require(try server!.snapshot()["count"] as? Int)
            let filler = TinyDisk.fill(folder)
            var acknowledged = 0
            var refused: (key: String, reply: HTTPTestClient.Reply)?
            for index in 0..<60 where refused == nil {
                let key = "insert-\(index)"
                let reply = try http.post(
                    "/api/rooms/main/commands", json: #"{"command":"insert","photo":"\#(photo)","at":0}"#,
                    headers: ["Idempotency-Key": key])
                if reply.status == 200 { acknowledged += 1 } else { refused = (key, reply) }
            }
            let (key, refusal) = try #require(refused, "every insert was acknowledged on a full disk")
            #expect(refusal.status == 503)
            #expect(try refusal.json()["outcome"] as? String == "not-applied")
            // Not applied: the room went back to what was kept (the answer comes after it has).
            #expect(
                Poll.until(5) { (try? server!.snapshot()["count"] as? Int) == start + acknowledged },
                "the refused insert is still in the room")
            try FileManager.default.removeItem(atPath: filler)
            #expect(Poll.until(10) { (try? http.get("/healthz").status) == 200 })
            // Nothing of it reached the disk once it had room again.
            server = nil
            server = try TestServer { $0.state = path }
            #expect(try server!.snapshot()["count"] as? Int == start + acknowledged)
            // The retry applies it, once, however often it comes.
            let body = #"{"command":"insert","photo":"\#(photo)","at":0}"#
            let first = try server!.http.post("/api/rooms/main/commands", json: body, headers: ["Idempotency-Key": key])
            let again = try server!.http.post("/api/rooms/main/commands", json: body, headers: ["Idempotency-Key": key])
            #expect(first.status == 200)
            #expect(again.status == 200)
            #expect(try again.json()["seq"] as? Int == first.json()["seq"] as? Int)
            #expect(try server!.snapshot()["count"] as? Int == start + acknowledged + 1)
        }
    }
}
