import Foundation
import Testing

@testable import StackWebServer

@Suite struct SlideshowTests {
    @Test func itAdvancesOnlyAfterAWholeIntervalOfQuiet() {
        var show = Slideshow(interval: 1000, now: 0)
        #expect(show.nextAdvance == 1000)
        let early = show.advanceIfDue(at: 999)
        show.personActed(at: 500)
        let afterGesture = show.advanceIfDue(at: 1000)
        let due = show.advanceIfDue(at: 1500)
        #expect([early, afterGesture, due] == [false, false, true])
        #expect(show.nextAdvance == 2500)
        show.playing = false
        #expect(show.nextAdvance == nil)
        #expect(Slideshow(interval: nil, now: 0).nextAdvance == nil)
    }

    /// Server time of the next change that moved the front card.
    static func nextAdvance(_ viewer: SSETestClient, from current: Int, timeout: Double = 5) throws -> (Int, Double) {
        let event = try viewer.next(timeout: timeout) { event in
            guard event.event == "change", let data = try? event.json() else { return false }
            return data["current"] as? Int != current
        }
        let data = try event.json()
        return (data["current"] as? Int ?? -1, data["serverTime"] as? Double ?? 0)
    }

    @Test func roomsAdvanceByThemselvesAndPauseStopsThem() throws {
        let server = try TestServer { $0.interval = 0.3 }
        let viewer = try server.events()
        let snapshot = try viewer.next().json()
        #expect(snapshot["playing"] as? Bool == true)
        let (current, _) = try Self.nextAdvance(viewer, from: 0)
        #expect(current == 1)
        #expect(try server.command(#"{"command":"pause"}"#).status == 200)
        let paused = try viewer.next { ($0.event == "change") && (try? $0.json())?["playing"] as? Bool == false }
        #expect(paused.event == "change")
        // Three intervals with no advance.
        #expect(throws: TestSocket.Failure.self) { _ = try Self.nextAdvance(viewer, from: 1, timeout: 1) }
        #expect(try server.command(#"{"command":"play"}"#).status == 200)
        #expect(try Self.nextAdvance(viewer, from: 1).0 == 2)
    }

    @Test func aPersonsCommandHoldsTheNextAdvanceOffForAnInterval() throws {
        let server = try TestServer { $0.interval = 0.5 }
        let viewer = try server.events()
        _ = try viewer.next()
        _ = try server.command(#"{"command":"goto","index":5}"#)
        let commanded = try viewer.next { $0.event == "change" }
        let commandTime = try #require(try commanded.json()["serverTime"] as? Double)
        let (current, advanceTime) = try Self.nextAdvance(viewer, from: 5)
        #expect(current == 6)
        #expect(advanceTime - commandTime >= 500)
    }

    @Test func withoutAnIntervalPlayChangesNothing() throws {
        let server = try TestServer()
        #expect(try server.snapshot()["playing"] as? Bool == false)
        #expect(try server.command(#"{"command":"play"}"#).status == 200)
        #expect(try server.snapshot()["playing"] as? Bool == false)
    }
}
