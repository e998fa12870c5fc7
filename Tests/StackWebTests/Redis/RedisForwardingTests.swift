import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Input reaches the owner: pointer batches and commands posted to another instance of the group are
/// carried through a real `redis-server` to the room's owner, applied there in arrival order, and
/// answered with the resulting `seq`.
@Suite(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
struct RedisForwardingTests {
    @Test func commandsAtAnotherInstanceAreAppliedByTheOwnerInOrder() throws {
        try RedisServer.withGroup { redis, owner, other in
            let viewer = try SSETestClient(port: owner.port, path: "/api/rooms/main/events")
            #expect(try viewer.next().event == "snapshot")
            let b = HTTPTestClient(port: other.port)
            var seqs: [Int] = []
            for command in [#"{"command":"next"}"#, #"{"command":"style","style":"deck"}"#, #"{"command":"next"}"#] {
                let reply = try b.post("/api/rooms/main/commands", json: command)
                #expect(reply.status == 200)
                seqs.append(try reply.json()["seq"] as? Int ?? -1)
            }
            #expect(seqs == seqs.sorted() && Set(seqs).count == 3)
            // Each answer's seq is the change the owner's viewers saw for it, in that order (the
            // room's own earlier changes, photos coming in, may come first).
            let changes = try seqs.map { seq in try viewer.next { $0.event == "change" && $0.id == String(seq) } }
            #expect(changes.map(\.id) == seqs.map { String($0) })
            #expect(try changes[1].json()["style"] as? String == "deck")
            #expect(try redis.keptState(of: "main")?.style == .deck)
            // The owner's refusals come back as they are.
            let refused = try b.post("/api/rooms/main/commands", json: #"{"command":"goto","index":9999}"#)
            #expect(refused.status == 400)
            #expect(try refused.json()["error"] as? String != nil)
        }
    }

    @Test func aDragAtAnotherInstanceMovesTheStackForEveryViewer() throws {
        try RedisServer.withGroup { _, owner, other in
            let here = try SSETestClient(port: owner.port, path: "/api/rooms/main/events")
            let there = try SSETestClient(port: other.port, path: "/api/rooms/main/events")
            #expect(try here.next().event == "snapshot")
            #expect(try there.next().event == "snapshot")
            let drag = #"""
                {"viewer":"v1","events":[{"type":"down","pointer":1,"x":512,"y":384,"t":1000.0},
                {"type":"move","pointer":1,"x":560,"y":390,"t":1016.0}]}
                """#
            let reply = try HTTPTestClient(port: other.port).post("/api/rooms/main/pointer", json: drag)
            #expect(reply.status == 200)
            let seq = try #require(try reply.json()["seq"] as? Int)
            // The drag's own change at both instances: either viewer may first get the changes
            // that brought the folder's photos into the room (on a loaded machine the room is
            // published before they are all in it).
            let seen = try here.next { $0.event == "change" && $0.id == String(seq) }
            #expect(try there.next { $0.event == "change" && $0.id == String(seq) } == seen)
        }
    }
}
