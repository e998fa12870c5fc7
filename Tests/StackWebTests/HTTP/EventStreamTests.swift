import Foundation
import Testing

@testable import StackWebServer

/// Server-Sent Events over real sockets: snapshot first, ids, fan-out, resume, heartbeats.
@Suite struct EventStreamTests {
    @Test func streamOpensWithRetryAndASnapshotWhoseIdIsItsSeq() throws {
        let server = try TestServer()
        let viewer = try server.events()
        #expect(viewer.status == 200)
        #expect(viewer.headers["content-type"] == "text/event-stream")
        let first = try viewer.next()
        #expect(viewer.retry == 1000)
        #expect(first.event == "snapshot")
        let snapshot = try first.json()
        #expect(first.id == String(snapshot["seq"] as? Int ?? -1))
        #expect(snapshot["room"] as? String == "main")
        #expect(snapshot["viewers"] as? Int == 1)
    }

    @Test func aCommandReachesEveryViewerWithTheSameId() throws {
        let server = try TestServer()
        let viewers = try (0..<3).map { _ in try server.events() }
        for viewer in viewers { _ = try viewer.next() }
        let reply = try server.command(#"{"command":"next"}"#)
        #expect(reply.status == 200)
        let seq = try #require(try reply.json()["seq"] as? Int)
        for viewer in viewers {
            let change = try viewer.next()
            #expect(change.event == "change")
            #expect(change.id == String(seq))
            let data = try change.json()
            #expect(data["seq"] as? Int == seq)
            #expect(data["current"] as? Int == 1)
            #expect((data["cards"] as? [Any])?.isEmpty == false)
        }
    }

    @Test func theStreamIsCloseDelimitedNotChunked() throws {
        let server = try TestServer()
        let viewer = try server.events()
        // No chunk framing, so a partial direct write can never split a frame (StreamConnection).
        #expect(viewer.headers["transfer-encoding"] == nil)
        #expect(viewer.headers["connection"]?.lowercased() == "close")
        #expect(try viewer.next().event == "snapshot")
    }

    @Test func eventsToAReadingViewerGoStraightToItsSocket() throws {
        let server = try TestServer()
        let viewer = try server.events()
        _ = try viewer.next()
        // The stream parks once the snapshot is out; a later event finds it parked or not yet.
        let before = server.app.server.streamCounters
        var lastSeq = 0
        for _ in 0..<20 {
            lastSeq = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
            _ = try viewer.next { $0.id == String(lastSeq) }
        }
        let after = server.app.server.streamCounters
        #expect(after.directWrites - before.directWrites >= 19, "\(before) → \(after)")
        #expect(after.resumes - before.resumes <= 1, "\(before) → \(after)")
    }

    @Test func aViewerThatFallsBehindGetsEveryEventInOrder() throws {
        let server = try TestServer()
        // A viewer that does not read fills its socket; later events wait in the stream's queue
        // (the stream resumes) and libmicrohttpd sends them once the viewer reads again.
        let viewer = try SSETestClient(port: server.port, path: "/api/rooms/main/events", receiveBuffer: 4096)
        let first = try #require(Int(try viewer.next().id ?? ""))
        var lastSeq = first
        var extra = 10
        for _ in 0..<2000 where extra > 0 {
            lastSeq = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
            if server.app.server.streamCounters.resumes > 0 { extra -= 1 }
        }
        #expect(server.app.server.streamCounters.resumes > 0, "the socket never filled")
        var expected = first + 1
        while expected <= lastSeq {
            let event = try viewer.next(timeout: 10)
            guard event.event != "presence" else { continue }
            #expect(event.id == String(expected))
            expected = (Int(event.id ?? "") ?? expected) + 1
        }
    }

    @Test func aPostedFlickReachesASecondViewer() throws {
        let server = try TestServer()
        let watcher = try server.events()
        let snapshot = try watcher.next().json()
        let top = try #require((snapshot["cards"] as? [[String: Any]])?.first)
        let topID = try #require(top["id"] as? String)
        let x = try #require(top["x"] as? Double)
        let y = try #require(top["y"] as? Double)
        // A quick drag to the left: 60 pt every 16 ms is 3,750 pt/s, far past any flick threshold.
        var events = [#"{"type":"down","pointer":1,"x":\#(x),"y":\#(y),"t":1000}"#]
        for step in 1...5 {
            events.append(
                #"{"type":"move","pointer":1,"x":\#(x - Double(step) * 60),"y":\#(y),"t":\#(1000 + step * 16)}"#)
        }
        events.append(#"{"type":"up","pointer":1,"x":\#(x - 300),"y":\#(y),"t":1082}"#)
        let reply = try server.http.post(
            "/api/rooms/main/pointer", json: #"{"viewer":"v-test","events":[\#(events.joined(separator: ","))]}"#)
        #expect(reply.status == 200)
        let change = try watcher.next { $0.event == "change" }
        let data = try change.json()
        #expect(data["current"] as? Int == 1)
        let moved = (data["cards"] as? [[String: Any]])?.first { $0["id"] as? String == topID }
        #expect(moved?["anim"] != nil)
        // The flicked card ends up at the back once its animation is over, on the server's clock.
        _ = try watcher.next(timeout: 5) { event in
            guard let cards = (try? event.json())?["cards"] as? [[String: Any]] else { return false }
            return cards.contains { $0["id"] as? String == topID && ($0["position"] as? Int ?? 0) > 0 }
        }
        let after = try server.snapshot()
        #expect(after["current"] as? Int == 1)
        #expect((after["cards"] as? [[String: Any]])?.first?["id"] as? String != topID)
    }

    @Test func lastEventIDReplaysExactlyTheMissedEvents() throws {
        let server = try TestServer()
        var seqs: [Int] = []
        for _ in 0..<3 {
            seqs.append(try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int))
        }
        let resumed = try server.events(headers: ["Last-Event-ID": String(seqs[0])])
        let replayed = try [resumed.next(), resumed.next()]
        #expect(replayed.map(\.event) == ["change", "change"])
        #expect(replayed.map(\.id) == [String(seqs[1]), String(seqs[2])])
        // Nothing else is pending: the next event is the next live change.
        let live = try #require(try server.command(#"{"command":"previous"}"#).json()["seq"] as? Int)
        #expect(try resumed.next().id == String(live))
    }

    @Test(arguments: ["999999", "banana", "-3", ""])
    func anUnknownLastEventIDGetsAFreshSnapshot(id: String) throws {
        let server = try TestServer()
        _ = try server.command(#"{"command":"next"}"#)
        let viewer = try server.events(headers: ["Last-Event-ID": id])
        let first = try viewer.next()
        #expect(first.event == "snapshot")
        #expect(first.number == 1)
    }

    @Test func anUpToDateLastEventIDGetsNothingUntilTheNextChange() throws {
        let server = try TestServer()
        let seq = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
        let viewer = try server.events(headers: ["Last-Event-ID": String(seq)])
        let next = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
        let first = try viewer.next()
        #expect(first.event == "change")
        #expect(first.id == String(next))
    }

    @Test func idleStreamsGetHeartbeats() throws {
        let server = try TestServer { $0.heartbeatSeconds = 0.1 }
        let viewer = try server.events()
        _ = try viewer.next()
        // Heartbeats are comments, not events: read until two have been counted.
        try viewer.waitForComments(2)
        #expect(viewer.comments >= 2)
    }

    @Test func roomsAreIndependent() throws {
        let server = try TestServer()
        let other = try server.events(room: "hall-2")
        _ = try other.next()
        _ = try server.command(#"{"command":"next"}"#, room: "main")
        #expect(try server.snapshot(room: "hall-2")["current"] as? Int == 0)
        #expect(try server.snapshot(room: "main")["current"] as? Int == 1)
        #expect(throws: TestSocket.Failure.self) { try other.next(timeout: 0.3) }
    }

    @Test func aViewerThatLeavesIsForgotten() throws {
        let server = try TestServer()
        do {
            let viewer = try server.events()
            _ = try viewer.next()
            #expect(try server.snapshot()["viewers"] as? Int == 1)
        }
        // The closed peer is noticed at the next write: send changes until the count drops.
        let deadline = Date().addingTimeInterval(5)
        var viewers = 1
        while viewers > 0 && Date() < deadline {
            _ = try server.command(#"{"command":"next"}"#)
            viewers = try server.snapshot()["viewers"] as? Int ?? -1
        }
        #expect(viewers == 0)
    }
}

/// A page from an older deployment is told to reload.
@Suite struct PageVersionTests {
    @Test func healthzNamesThePageVersion() throws {
        let server = try TestServer()
        let health = try server.http.get("/healthz").json()
        #expect(health["status"] as? String == "ok")
        #expect((health["pageVersion"] as? String)?.count == 12)
    }

    @Test func anOutdatedPageGetsAReloadEventAndTheCurrentOneASnapshot() throws {
        let server = try TestServer()
        let version = try #require(try server.http.get("/healthz").json()["pageVersion"] as? String)
        let outdated = try SSETestClient(port: server.port, path: "/api/rooms/main/events?page=000000000000")
        let reload = try outdated.next()
        #expect(reload.event == "reload")
        #expect(reload.id == nil)
        #expect(try reload.json()["pageVersion"] as? String == version)
        #expect(try outdated.readToEnd(timeout: 5))
        let current = try SSETestClient(port: server.port, path: "/api/rooms/main/events?page=\(version)")
        #expect(try current.next().event == "snapshot")
    }
}
