import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// Every command a finger has, through the API, and its errors.
@Suite struct CommandTests {
    func settled(_ server: TestServer) throws -> [String: Any] {
        try server.settledSnapshot()
    }

    func top(_ snapshot: [String: Any]) -> [String: Any] {
        (snapshot["cards"] as? [[String: Any]])?.first ?? [:]
    }

    @Test(arguments: ["pile", "angles", "grid", "deck", "swipe"])
    func styleSwitchesTheRoom(style: String) throws {
        let server = try TestServer()
        #expect(try server.command(#"{"command":"style","style":"\#(style)"}"#).status == 200)
        #expect(try server.settledSnapshot()["style"] as? String == style)
    }

    @Test func flipTurnsTheTopCardOverAndBack() throws {
        let server = try TestServer { $0.style = .deck }
        #expect(try server.command(#"{"command":"flip"}"#).status == 200)
        let flipped = try #require(top(try server.settledSnapshot())["flip"] as? Double)
        #expect(abs(flipped - Double.pi) < 1e-9)
        #expect(try server.command(#"{"command":"flip"}"#).status == 200)
        #expect(top(try server.settledSnapshot())["flip"] as? Double == 0)
    }

    @Test func highlightTogglesTheTopCard() throws {
        let server = try TestServer()
        _ = try server.command(#"{"command":"highlight"}"#)
        #expect(top(try server.snapshot())["highlight"] as? Bool == true)
        _ = try server.command(#"{"command":"highlight"}"#)
        #expect(top(try server.snapshot())["highlight"] as? Bool == false)
    }

    @Test func fullscreenFillsTheStageAndReturns() throws {
        let server = try TestServer()
        let before = top(try server.settledSnapshot())
        _ = try server.command(#"{"command":"fullscreen"}"#)
        let full = top(try server.settledSnapshot())
        #expect((full["w"] as? Double ?? 0) > (before["w"] as? Double ?? 0))
        _ = try server.command(#"{"command":"fullscreen"}"#)
        #expect(top(try server.settledSnapshot())["w"] as? Double == before["w"] as? Double)
    }

    @Test func undoRevertsANext() throws {
        let server = try TestServer()
        _ = try server.command(#"{"command":"next"}"#)
        #expect(try server.snapshot()["current"] as? Int == 1)
        #expect(try server.command(#"{"command":"undo"}"#).status == 200)
        #expect(try server.settledSnapshot()["current"] as? Int == 0)
    }

    @Test func removeAndInsertChangeTheCount() throws {
        let server = try TestServer()
        let card = try #require(top(try server.snapshot()))
        let id = try #require(card["id"] as? String)
        let photo = try #require(card["photo"] as? String)
        #expect(try server.command(#"{"command":"remove","id":"\#(id)"}"#).status == 200)
        #expect(try server.settledSnapshot()["count"] as? Int == 11)
        #expect(try server.command(#"{"command":"insert","photo":"\#(photo)","at":0}"#).status == 200)
        let after = try server.settledSnapshot()
        #expect(after["count"] as? Int == 12)
        #expect(top(after)["photo"] as? String == photo)
    }

    @Test func shuffleReordersWithAServerChosenSeed() throws {
        let server = try TestServer()
        let ids = { (snapshot: [String: Any]) in (snapshot["cards"] as? [[String: Any]])?.map { $0["id"] as? String } }
        let before = ids(try server.snapshot())
        #expect(try server.command(#"{"command":"shuffle"}"#).status == 200)
        #expect(ids(try server.settledSnapshot()) != before)
    }

    @Test(arguments: [
        (#"{"command":"style","style":"cube"}"#, 400), (#"{"command":"style"}"#, 400),
        (#"{"command":"remove","id":"c999"}"#, 404), (#"{"command":"remove"}"#, 400),
        (#"{"command":"undo"}"#, 400), (#"{"command":"insert","photo":"pnope"}"#, 404),
        (#"{"command":"insert"}"#, 400),
    ])
    func refusedCommands(body: String, status: Int) throws {
        let server = try TestServer()
        let reply = try server.command(body)
        #expect(reply.status == status)
        #expect(try reply.json()["error"] is String)
    }
}
