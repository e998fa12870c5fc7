import StackModel
import Testing

@testable import StackWebServer

/// A lasting command that changes nothing (the room shows what it asks for already) is answered
/// with the room's `seq`. In a group that state may not be kept yet — shown here, refused by the
/// group, and about to be taken back by a rebase — so the answer waits for it as a change's does,
/// and says "not applied" when it is taken back.
@Suite struct UnchangedAnswerTests {
    static let refused = GroupPublication.Outcome.refused("Redis unreachable")

    /// An owner of epoch 1 whose first rebase the group took.
    static func owner(_ group: ScriptedGroup) -> Room {
        let room = Room.forTests(group: group)
        room.leaseGained(epoch: 1, saved: nil, keptThrough: 0)
        group.answerAll(.accepted)
        return room
    }

    static func succeeded(_ applied: Room.Applied) -> Bool {
        if case .success? = applied.durability?.outcome { true } else { false }
    }

    @Test func anAnswerOnAStateTheGroupTookBackSaysNotApplied() throws {
        let group = ScriptedGroup()
        let room = Self.owner(group)
        // A look of the moment the group refuses, and the rebase that follows refused too (Redis
        // away): the room shows a state numbered after what the group keeps.
        try room.handle(.commandReceived(.flip))
        group.answerAll(Self.refused)
        let shown = try room.handle(.commandReceived(.style(.pile)), key: .command("k1"))
        // The group has not got the event the answer would name: it cannot be acknowledged yet.
        #expect(shown.durability?.outcome == nil, "answered at once, naming an event the group never took")
        group.answerAll(Self.refused)
        // Redis answers again: the room starts its history afresh from what is kept, taking the
        // event the answer named back.
        room.groupRecovered()
        group.answerAll(.accepted)
        guard case .failure(let failure)? = shown.durability?.outcome else {
            let outcome = String(describing: shown.durability?.outcome)
            Issue.record("an answer naming event \(shown.seq), taken back by a rebase, was \(outcome)")
            return
        }
        #expect(!failure.outcomeUnknown)
        // Its key is forgotten: a retry is answered anew, on the kept state.
        let retry = try room.handle(.commandReceived(.style(.pile)), key: .command("k1"))
        #expect(retry.seq > shown.seq)
    }

    @Test func anAnswerOnAStateTheGroupTakesIsGivenOnceTaken() throws {
        let group = ScriptedGroup()
        let room = Self.owner(group)
        try room.handle(.commandReceived(.flip))
        let shown = try room.handle(.commandReceived(.style(.pile)), key: .command("k1"))
        #expect(shown.durability?.outcome == nil)
        group.answerAll(.accepted)
        #expect(Self.succeeded(shown))
    }

    @Test func anAnswerOnAKeptStateIsGivenAtOnce() throws {
        let group = ScriptedGroup()
        let room = Self.owner(group)
        let shown = try room.handle(.commandReceived(.style(.pile)), key: .command("k1"))
        group.answerAll(.accepted)
        #expect(Self.succeeded(shown))
    }
}
