import StackModel
import Testing

@testable import StackWebServer

/// The one ledger a room keeps of the answers it gave to keyed requests: pure, on a virtual clock.
@Suite struct IdempotencyLedgerTests {
    static let t0: Millis = 1_000_000
    static let body = Array(#"{"command":"next"}"#.utf8)

    static func key(_ value: String, _ kind: IdempotencyKey.Kind = .command, body: [UInt8] = body) -> IdempotencyKey {
        IdempotencyKey(kind: kind, value: value, body: body)
    }

    @Test func aRetryWithTheSameBodyGetsTheFirstAnswer() {
        var ledger = IdempotencyLedger()
        ledger.record(.applied(seq: 7), for: Self.key("k"), at: Self.t0)
        #expect(ledger.answer(for: Self.key("k"), at: Self.t0 + 1) == .applied(seq: 7))
    }

    @Test func theSameKeyWithAnotherBodyIsRefusedNotAnsweredWithTheOthersResult() {
        var ledger = IdempotencyLedger()
        ledger.record(.applied(seq: 7), for: Self.key("k"), at: Self.t0)
        let other = Self.key("k", body: Array(#"{"command":"previous"}"#.utf8))
        #expect(ledger.answer(for: other, at: Self.t0 + 1) == .refused(.keyReused))
    }

    @Test(arguments: [IdempotencyKey.Kind.pointer, .photo])
    func aKeyOfAnotherKindIsAnotherKey(kind: IdempotencyKey.Kind) {
        var ledger = IdempotencyLedger()
        ledger.record(.applied(seq: 7), for: Self.key("k", kind), at: Self.t0)
        #expect(ledger.answer(for: Self.key("k"), at: Self.t0 + 1) == nil)
    }

    @Test func aKeyIsForgottenAfterItsLifetime() {
        var ledger = IdempotencyLedger()
        ledger.record(.applied(seq: 7), for: Self.key("k"), at: Self.t0)
        #expect(ledger.answer(for: Self.key("k"), at: Self.t0 + IdempotencyLedger.lifetime - 1) != nil)
        #expect(ledger.answer(for: Self.key("k"), at: Self.t0 + IdempotencyLedger.lifetime) == nil)
    }

    @Test func anUndoneChangesKeyIsForgottenAndAKeptOnesStays() {
        var ledger = IdempotencyLedger()
        ledger.record(.applied(seq: 7), for: Self.key("kept"), at: Self.t0)
        ledger.record(.applied(seq: 9), for: Self.key("undone"), at: Self.t0)
        ledger.forget(after: 7)
        #expect(ledger.answer(for: Self.key("kept"), at: Self.t0) == .applied(seq: 7))
        #expect(ledger.answer(for: Self.key("undone"), at: Self.t0) == nil)
    }

    @Test func aKeyKeepsItsFirstAnswer() {
        var ledger = IdempotencyLedger()
        ledger.record(.applied(seq: 7), for: Self.key("k"), at: Self.t0)
        ledger.record(.applied(seq: 8), for: Self.key("k"), at: Self.t0 + 1)
        #expect(ledger.answer(for: Self.key("k"), at: Self.t0 + 2) == .applied(seq: 7))
    }

    @Test func aStoredKeyComesBackWithItsKindAndFingerprint() {
        let key = Self.key("k-1", .pointer)
        let restored = IdempotencyKey(stored: key.stored)
        #expect(restored == key)
        // A bare key, kept before keys were scoped, is a command's and answers any body.
        let bare = IdempotencyKey(stored: "k-1")
        #expect(bare.kind == .command && bare.fingerprint == nil)
        #expect(Self.key("k-1").matches(bare))
    }

    @Test func aKeptAnswerNamesTheBodyItAnswers() {
        let key = Self.key("k")
        let kept = key.keptValue(body: Array(#"{"seq":7}"#.utf8))
        #expect(key.answer(fromKept: kept) == Array(#"{"seq":7}"#.utf8))
        #expect(Self.key("k", body: []).answer(fromKept: kept) == nil)
        // A bare JSON answer, kept before fingerprints were, answers any.
        #expect(key.answer(fromKept: Array(#"{"seq":7}"#.utf8)) == Array(#"{"seq":7}"#.utf8))
    }
}

/// Where numbering starts: the clock, or above the last id known.
@Suite struct HistoryNumberingTests {
    @Test func numberingStartsAtTheClockInThousandthsOfAMillisecondSince2026() {
        let now: Millis = Double(HistoryNumbering.clockOrigin) + 1_234
        #expect(HistoryNumbering.clockStart(at: now) == 1_234_000)
        #expect(HistoryNumbering.clockStart(at: 0) == 0)
    }

    @Test func aStartIsAboveTheLastIdKnownWhenTheClockIsBehindIt() {
        let now: Millis = Double(HistoryNumbering.clockOrigin) + 10
        #expect(HistoryNumbering.start(after: 99_999, at: now) == 99_999)
        #expect(HistoryNumbering.start(after: 5, at: now) == 10_000)
    }

    @Test func idsStayExactInAPageUntil2311() {
        let year2311: Millis = 10_761_000_000_000
        #expect(HistoryNumbering.clockStart(at: year2311) < 1 << 53)
    }
}
