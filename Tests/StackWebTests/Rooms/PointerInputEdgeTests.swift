import Foundation
import Testing

@testable import StackWebServer

/// Pointer samples no well-behaved page sends, through `POST /api/rooms/{room}/pointer`: each is
/// answered, and the room's state afterwards is exactly what the gestures that make sense say.
@Suite struct PointerInputEdgeTests {
    typealias Sample = PointerScript

    @Test func aMoveBeforeAnyDownMovesNothing() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let viewer = try server.events()
        let before = try viewer.next()
        let top = PointerScript.top(try before.json())
        let (x, y) = (try #require(top["x"] as? Double), try #require(top["y"] as? Double))
        let stray = [
            Sample.sample("move", x: x + 80, y: y, t: 1000, seq: 1),
            Sample.sample("move", x: x + 160, y: y + 40, t: 1016, seq: 2),
            Sample.sample("up", x: x + 160, y: y + 40, t: 1032, seq: 3),
        ]
        #expect(try pointer.postSeq(viewer: "v", stray).map(HistoryNumbering.counted) == 0)
        let after = try pointer.snapshot()
        #expect((after["seq"] as? Int).map(HistoryNumbering.counted) == 0)
        #expect(after["heldBy"] is NSNull)
        let topAfter = PointerScript.top(after)
        #expect(topAfter["id"] as? String == top["id"] as? String)
        #expect(topAfter["x"] as? Double == x && topAfter["y"] as? Double == y)
        #expect(topAfter["anim"] == nil)
        // Nothing was published: the next event a viewer hears is the next real change.
        let seq = try #require(try server.command(#"{"command":"highlight"}"#).json()["seq"] as? Int)
        #expect(HistoryNumbering.counted(seq) == 1)
        #expect(try viewer.next { $0.event != "presence" }.id == String(seq))
    }

    @Test func aRepeatedMoveIsAppliedOnce() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let (_, x, y) = try pointer.settledTop()
        let down = Sample.sample("down", x: x, y: y, t: 1000, seq: 1)
        let move = Sample.sample("move", x: x + 40, y: y + 10, t: 1016, seq: 2)
        let seq = try #require(try pointer.postSeq(viewer: "v", [down, move]))
        // The same sample again, alone and twice in one batch (a retried POST, a doubled frame).
        #expect(try pointer.postSeq(viewer: "v", [move]) == seq)
        #expect(try pointer.postSeq(viewer: "v", [move, move]) == seq)
        let top = PointerScript.top(try pointer.snapshot())
        #expect(top["x"] as? Double == x + 40)
        #expect(top["y"] as? Double == y + 10)
        #expect(try pointer.snapshot()["heldBy"] as? String == "v")
    }

    @Test func aRepeatedDownMidDragDoesNotRestartTheDrag() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let (_, x, y) = try pointer.settledTop()
        let down = Sample.sample("down", x: x, y: y, t: 1000, seq: 1)
        let move = Sample.sample("move", x: x + 40, y: y, t: 1016, seq: 2)
        try pointer.post(viewer: "v", [down])
        try pointer.post(viewer: "v", [move])
        // A retried batch delivered late: the old press and its move again. The press is older than
        // what the drag has already followed, so it is not a new press: the card stays where it is.
        try pointer.post(viewer: "v", [down])
        try pointer.post(viewer: "v", [move])
        #expect(PointerScript.top(try pointer.snapshot())["x"] as? Double == x + 40)
        try pointer.post(viewer: "v", [Sample.sample("move", x: x + 60, y: y, t: 1032, seq: 3)])
        #expect(PointerScript.top(try pointer.snapshot())["x"] as? Double == x + 60)
    }

    @Test func aReplayedFlickIsNotAppliedTwice() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let (topID, x, y) = try pointer.settledTop()
        var flick = [Sample.sample("down", x: x, y: y, t: 1000, seq: 1)]
        for step in 1...4 {
            flick.append(
                Sample.sample("move", x: x - Double(step) * 60, y: y, t: 1000 + Double(step) * 16, seq: step + 1))
        }
        flick.append(Sample.sample("up", x: x - 300, y: y, t: 1080, seq: 6))
        let first = try #require(try pointer.postSeq(viewer: "v", flick))
        let second = try pointer.postSeq(viewer: "v", flick)
        let settled = try server.settledSnapshot()
        #expect(PointerScript.top(settled)["id"] as? String != topID)
        // The page numbers each pointer's samples: the second delivery is all repeats, so it
        // changes nothing (PointerRepeatFilter).
        #expect(second == first)
        #expect(settled["current"] as? Int == 1)
    }

    @Test func aRepeatedUpOrCancelAfterTheGestureChangesNothing() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let (topID, x, y) = try pointer.settledTop()
        let up = Sample.sample("up", x: x + 30, y: y, t: 1600, seq: 3)
        // Slow and short: the card springs back, it does not fly.
        try pointer.post(
            viewer: "v",
            [
                Sample.sample("down", x: x, y: y, t: 1000, seq: 1),
                Sample.sample("move", x: x + 30, y: y, t: 1500, seq: 2), up,
            ])
        let settled = try server.settledSnapshot()
        let seq = try #require(settled["seq"] as? Int)
        #expect(try pointer.postSeq(viewer: "v", [up]) == seq)
        #expect(try pointer.postSeq(viewer: "v", [Sample.sample("cancel", x: x, y: y, t: 1610, seq: 4)]) == seq)
        let after = try pointer.snapshot()
        #expect(after["seq"] as? Int == seq)
        #expect(after["current"] as? Int == 0)
        #expect(PointerScript.top(after)["id"] as? String == topID)
        #expect(PointerScript.top(after)["x"] as? Double == x)
    }

    @Test func aReusedPointerIDStartsAFreshGesture() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let (topID, x, y) = try pointer.settledTop()
        try pointer.post(
            viewer: "v",
            [
                Sample.sample("down", x: x, y: y, t: 1000, seq: 1),
                Sample.sample("move", x: x + 30, y: y + 30, t: 1500, seq: 2),
                Sample.sample("up", x: x + 30, y: y + 30, t: 1600, seq: 3),
            ])
        #expect(try pointer.settledTop() == (topID, x, y))
        // Pointer 1 again: the drag starts from where the card rests, not from the last gesture.
        try pointer.post(
            viewer: "v",
            [
                Sample.sample("down", x: x, y: y, t: 5000, seq: 4),
                Sample.sample("move", x: x + 25, y: y, t: 5016, seq: 5),
            ])
        let dragged = try pointer.snapshot()
        #expect(dragged["heldBy"] as? String == "v")
        #expect(PointerScript.top(dragged)["x"] as? Double == x + 25)
        #expect(PointerScript.top(dragged)["y"] as? Double == y)
        try pointer.post(viewer: "v", [Sample.sample("up", x: x, y: y, t: 5400, seq: 6)])
        // And once more as a tap, which in the pile highlights the top card.
        try pointer.post(
            viewer: "v",
            [
                Sample.sample("down", x: x, y: y, t: 9000, seq: 7),
                Sample.sample("up", x: x, y: y, t: 9050, seq: 8),
            ])
        let tapped = try server.settledSnapshot()
        #expect(PointerScript.top(tapped)["highlight"] as? Bool == true)
        #expect(tapped["current"] as? Int == 0)
    }

    @Test func aSecondPointerCannotTakeAHeldCard() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let (topID, x, y) = try pointer.settledTop()
        let held = try #require(
            try pointer.postSeq(
                viewer: "a",
                [
                    Sample.sample("down", x: x, y: y, t: 1000, seq: 1),
                    Sample.sample("move", x: x + 30, y: y, t: 1016, seq: 2),
                ]))
        let watcher = try server.events()
        #expect(try watcher.next().event == "snapshot")
        // Fast flicks from another viewer and from the holder's own second finger, both on the card.
        let hijacks = [("b", 1), ("a", 2)]
        for (viewer, id) in hijacks {
            var flick = [Sample.sample("down", pointer: id, x: x + 30, y: y, t: 1020, seq: 1)]
            for step in 1...4 {
                flick.append(
                    Sample.sample("move", pointer: id, x: x - Double(step) * 80, y: y, t: 1020 + Double(step) * 16))
            }
            flick.append(Sample.sample("up", pointer: id, x: x - 400, y: y, t: 1100))
            #expect(try pointer.postSeq(viewer: viewer, flick) == held)
        }
        let during = try pointer.snapshot()
        #expect(during["seq"] as? Int == held)
        #expect(during["heldBy"] as? String == "a")
        #expect(during["current"] as? Int == 0)
        #expect(PointerScript.top(during)["id"] as? String == topID)
        #expect(PointerScript.top(during)["x"] as? Double == x + 30)
        // The holder still drives; the watcher's next change is the holder's move.
        let moved = try #require(
            try pointer.postSeq(viewer: "a", [Sample.sample("move", x: x + 50, y: y, t: 1200, seq: 3)]))
        let change = try watcher.next { $0.event == "change" }
        #expect(change.id == String(moved))
        #expect(moved == held + 1)
        let cards = try #require(try change.json()["cards"] as? [[String: Any]])
        #expect(cards.first { $0["id"] as? String == topID }?["x"] as? Double == x + 50)
        try pointer.post(viewer: "a", [Sample.sample("up", x: x + 50, y: y, t: 1700, seq: 4)])
        #expect(try pointer.snapshot()["heldBy"] is NSNull)
    }

    @Test func samplesOutOfTimeOrderNeverMoveTheDragBack() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let (_, x, y) = try pointer.settledTop()
        let seq = try #require(
            try pointer.postSeq(
                viewer: "v",
                [
                    Sample.sample("down", x: x, y: y, t: 1000, seq: 1),
                    Sample.sample("move", x: x + 60, y: y, t: 1048, seq: 3),
                ]))
        // The sample taken between them arrives last: it joins the velocity fit, the card stays.
        #expect(try pointer.postSeq(viewer: "v", [Sample.sample("move", x: x + 30, y: y, t: 1032, seq: 2)]) == seq)
        #expect(PointerScript.top(try pointer.snapshot())["x"] as? Double == x + 60)
        // Within one batch too: the newest sample wins, wherever it sits.
        try pointer.post(
            viewer: "v",
            [
                Sample.sample("move", x: x + 90, y: y, t: 1080, seq: 5),
                Sample.sample("move", x: x + 75, y: y, t: 1064, seq: 4),
            ])
        #expect(PointerScript.top(try pointer.snapshot())["x"] as? Double == x + 90)
        try pointer.post(viewer: "v", [Sample.sample("cancel", x: x + 90, y: y, t: 1100, seq: 6)])
        #expect(try pointer.settledTop().x == x)
        // A flick whose samples come shuffled is still a flick.
        let moves = (1...4).map {
            Sample.sample("move", x: x - Double($0) * 60, y: y, t: 3000 + Double($0) * 16, seq: 7 + $0)
        }
        try pointer.post(
            viewer: "v",
            [Sample.sample("down", x: x, y: y, t: 3000, seq: 7), moves[2], moves[0], moves[3], moves[1]]
                + [Sample.sample("up", x: x - 300, y: y, t: 3080, seq: 12)])
        #expect(try server.settledSnapshot()["current"] as? Int == 1)
    }

    @Test func aPointerFloodIsRefusedWhole429AndTheRoomKeepsServing() throws {
        let server = try TestServer()
        let pointer = PointerScript(server: server)
        let (topID, x, y) = try pointer.settledTop()
        let watcher = try server.events()
        #expect(try watcher.next().event == "snapshot")
        let started = Date()
        try #require(
            try pointer.post(viewer: "flood", [Sample.sample("down", x: x, y: y, t: 1000, seq: 1)]).status == 200)
        var accepted = 1
        var lastAcceptedX = x
        var refused: HTTPTestClient.Reply?
        var clock = 1000.0
        // Each batch drags the card to its own spot, so a batch applied even in part would show.
        for batch in 1...40 where refused == nil {
            let target = x + Double(batch)
            let moves = (0..<APIRequest.maxEventsPerPost).map { index in
                clock += 1
                return Sample.sample("move", x: index == APIRequest.maxEventsPerPost - 1 ? target : x, y: y, t: clock)
            }
            let reply = try pointer.post(viewer: "flood", moves)
            if reply.status == 200 {
                accepted += moves.count
                lastAcceptedX = target
            } else {
                refused = reply
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        let refusal = try #require(refused)
        #expect(refusal.status == 429)
        #expect(refusal.header("Retry-After") == "1")
        #expect(try refusal.json()["error"] is String)
        #expect(
            Double(accepted) <= PointerRateLimiter.viewerBurst + PointerRateLimiter.viewerPerSecond * elapsed + 1,
            "\(accepted) samples accepted in \(elapsed) s")
        let after = try pointer.snapshot()
        #expect(after["heldBy"] as? String == "flood")
        #expect(PointerScript.top(after)["id"] as? String == topID)
        #expect(PointerScript.top(after)["x"] as? Double == lastAcceptedX)
        // The limit is per viewer, and the room still serves everyone else.
        #expect(try pointer.post(viewer: "calm", [Sample.sample("move", x: x, y: y, t: 1)]).status == 200)
        #expect(try server.http.get("/healthz").status == 200)
        // The refused batch took nothing from the bucket (and it refills): the flooder still holds
        // and drives the card.
        let drag = [Sample.sample("move", x: x + 200, y: y, t: clock + 500)]
        #expect(try Poll.until(10) { try pointer.post(viewer: "flood", drag).status == 200 })
        #expect(PointerScript.top(try pointer.snapshot())["x"] as? Double == x + 200)
        try pointer.post(viewer: "flood", [Sample.sample("cancel", x: x + 200, y: y, t: clock + 600)])
        #expect(try pointer.snapshot()["heldBy"] is NSNull)
        let seq = try #require(try server.command(#"{"command":"next"}"#).json()["seq"] as? Int)
        let change = try watcher.next(timeout: 10) { $0.id == String(seq) }
        #expect(try change.json()["current"] as? Int == 1)
    }
}
