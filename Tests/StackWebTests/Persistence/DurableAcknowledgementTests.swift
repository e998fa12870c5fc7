import Dispatch
import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// A lasting change is answered once the store says it is kept, and the wait happens off
/// libmicrohttpd's thread: a slow disk holds up the one answer that waits for it, nothing else.
@Suite struct DurableAcknowledgementTests {
    /// A store on a slow disk: each save is kept in memory at once and "on disk" `delay` later.
    final class SlowStore: RoomStore {
        let delay: Double
        let outcome: Durability.Outcome
        private let inner = RecordingStore()
        private let queue = DispatchQueue(label: "slow-store")
        private let finished = Locked(0)

        init(delay: Double, outcome: Durability.Outcome = .success(())) {
            self.delay = delay
            self.outcome = outcome
        }

        /// Saves whose write has ended.
        var writesFinished: Int { finished.withLock { $0 } }

        func load(room: String) -> SavedStack? { inner.load(room: room) }

        func save(
            _ saved: SavedStack, room: String, urgency: SaveUrgency,
            whenDurable: (@Sendable (Durability.Outcome) -> Void)?
        ) {
            inner.save(saved, room: room, urgency: urgency, whenDurable: nil)
            queue.asyncAfter(deadline: .now() + delay) { [self] in
                finished.withLock { $0 += 1 }
                whenDurable?(outcome)
            }
        }

        func flush() {}

        var failure: StoreFailure? { nil }
    }

    /// Sends `json` to the room's commands on another thread; the reply and when it came.
    static func commandInBackground(_ server: TestServer, _ json: String) -> Locked<
        (HTTPTestClient.Reply, writes: Int)?
    > {
        let result = Locked<(HTTPTestClient.Reply, writes: Int)?>(nil)
        let http = server.http
        let store = server.app.store as? SlowStore
        Thread.detachNewThread {
            let reply = try? http.post("/api/rooms/main/commands", json: json)
            let writes = store?.writesFinished ?? -1
            result.withLock { $0 = reply.map { ($0, writes) } }
        }
        return result
    }

    @Test func aLastingCommandIsAnsweredOnlyOnceItsWriteHasEnded() throws {
        let store = SlowStore(delay: 0.5)
        let server = try TestServer(store: store)
        let started = Date()
        let reply = try server.command(#"{"command":"next"}"#)
        #expect(reply.status == 200)
        #expect((try reply.json()["seq"] as? Int).map(HistoryNumbering.counted) == 1)
        #expect(store.writesFinished == 1, "answered before the store said the change was kept")
        #expect(Date().timeIntervalSince(started) >= 0.45)
    }

    @Test func theServerKeepsAnsweringWhileASlowDiskWrites() throws {
        let store = SlowStore(delay: 0.5)
        let server = try TestServer(store: store)
        _ = try server.snapshot()
        let pending = Self.commandInBackground(server, #"{"command":"next"}"#)
        // Wait until the command has reached the room (its save has started), then ask for health.
        #expect(Poll.until { store.load(room: "main") != nil })
        var answered = 0
        var slowest = 0.0
        while pending.withLock({ $0 == nil }) && store.writesFinished == 0 {
            let started = Date()
            #expect(try server.http.get("/healthz").status == 200)
            slowest = max(slowest, Date().timeIntervalSince(started))
            answered += 1
        }
        #expect(answered >= 3, "/healthz was answered \(answered) times during a 500 ms write")
        #expect(slowest < 0.25)
        #expect(Poll.until { pending.withLock { $0 != nil } })
        #expect(pending.withLock { $0?.0.status } == 200)
        #expect(pending.withLock { $0?.writes } == 1)
    }

    @Test func aDragIsAnsweredWithoutWaitingForTheDisk() throws {
        let store = SlowStore(delay: 5)
        let server = try TestServer(store: store) { $0.style = .deck }
        let pointer = PointerScript(server: server)
        let (_, x, y) = try pointer.settledTop()
        let started = Date()
        #expect(
            try pointer.post(viewer: "v", [PointerScript.sample("down", x: x, y: y, t: 1000, seq: 1)]).status == 200)
        #expect(
            try pointer.post(viewer: "v", [PointerScript.sample("move", x: x + 20, y: y, t: 1016, seq: 2)]).status
                == 200)
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(store.writesFinished == 0)
    }

    @Test func aChangeThatCannotBeKeptIsAnswered503() throws {
        let store = SlowStore(delay: 0, outcome: .failure(StoreFailure(description: "No space left on device")))
        let server = try TestServer(store: store)
        let reply = try server.command(#"{"command":"style","style":"grid"}"#)
        #expect(reply.status == 503)
        #expect(reply.header("Retry-After") == "5")
        #expect((try reply.json()["error"] as? String)?.contains("No space left on device") == true)
        // Looks of the moment are not kept, so they need no disk.
        #expect(try server.command(#"{"command":"flip"}"#).status == 200)
    }

    /// A command that changes nothing (the room shows grid already) is answered with the room's
    /// seq: that state must be kept before the answer says so, and undone with it.
    @Test func aCommandThatChangesNothingWaitsForTheStateItFound() throws {
        let store = SlowStore(delay: 0.5)
        let server = try TestServer(store: store)
        let writesBefore = store.writesFinished
        let first = Self.commandInBackground(server, #"{"command":"style","style":"grid"}"#)
        #expect(Poll.until { (try? server.snapshot()["style"] as? String) == "grid" })
        let again = try server.command(#"{"command":"style","style":"grid"}"#)
        #expect(again.status == 200)
        #expect(
            store.writesFinished > writesBefore, "the no-op was answered before the state it found was kept")
        #expect(Poll.until { first.withLock { $0 != nil } })
        #expect(try again.json()["seq"] as? Int == first.withLock { try? $0?.0.json()["seq"] as? Int })
    }

    @Test func aCommandThatChangesNothingOnAStateNotKeptIsNotApplied() throws {
        let store = SlowStore(delay: 0.5, outcome: .failure(StoreFailure(description: "No space left on device")))
        let server = try TestServer(store: store)
        let first = Self.commandInBackground(server, #"{"command":"style","style":"grid"}"#)
        #expect(Poll.until { (try? server.snapshot()["style"] as? String) == "grid" })
        let again = try server.command(#"{"command":"style","style":"grid"}"#)
        #expect(again.status == 503, "a no-op on a state that was then undone was answered \(again.status)")
        #expect((try again.json()["outcome"] as? String) == "not-applied")
        #expect(Poll.until { first.withLock { $0 != nil } })
        #expect(first.withLock { $0?.0.status } == 503)
        #expect(try server.snapshot()["style"] as? String != "grid")
    }
}
