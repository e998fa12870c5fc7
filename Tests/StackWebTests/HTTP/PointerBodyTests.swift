import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// The pointer body's fast scanner against `JSONDecoder`: wherever the scanner answers, the
/// decoder (after `JSONShape`) must give the same body; and the page's own bodies must take the
/// fast path.
@Suite struct PointerBodyTests {
    /// A seeded generator (xorshift64*), so a failure names a reproducible case.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
    }

    static func decoded(_ bytes: [UInt8]) -> PointerBody? {
        guard JSONShape.problem(in: bytes) == nil else { return nil }
        return try? JSONDecoder().decode(PointerBody.self, from: Data(bytes))
    }

    static func number(_ random: inout Generator) -> String {
        random.pick([
            "0", "-0", "12", "-7", "3.25", "1e3", "1E-2", "-2.5e+2", "1000000", "123.456789012345678",
            "0.1", "99999999999999999999", "1e400", "-1e400", "01", "1.", ".5", "+1", "1e", "NaN",
        ])
    }

    static func body(_ random: inout Generator) -> String {
        let space = { (random: inout Generator) in random.pick(["", "", " ", "\n", "\t ", "\r\n"]) }
        var samples: [String] = []
        for _ in 0..<random.below(4) {
            var fields = [
                #""type":\#(space(&random))"\#(random.pick(["down", "move", "up", "cancel", "hover", "mo\\u0076e"]))""#,
                #""pointer":\#(space(&random))\#(random.pick(["1", "-1", "0", "2.0", "1e2", "123456789012345678", "\"1\""]))"#,
                #""x":\#(space(&random))\#(number(&random))"#, #""y": \#(number(&random))"#,
                #""t":\#(number(&random))\#(space(&random))"#,
            ]
            if random.below(2) == 0 {
                fields.append(#""seq":\#(random.pick(["1", "42", "0", "-3", "1.5", "null", "\"2\""]))"#)
            }
            if random.below(8) == 0 { fields.remove(at: random.below(fields.count)) }
            if random.below(8) == 0 {
                fields.append(random.pick([#""x":1"#, #""extra":true"#, #""t":null"#, #""seq":7"#]))
            }
            fields.shuffle(using: &random)
            samples.append("{" + space(&random) + fields.joined(separator: "," + space(&random)) + "}")
        }
        let viewer = random.pick(["v-1", "page-abc", "", "ünïcode", "tab\\there", String(repeating: "v", count: 70)])
        var members = [
            #""viewer":"\#(viewer)""#, #""events":\#(space(&random))[\#(samples.joined(separator: ","))]"#,
        ]
        if random.below(2) == 0 {
            members.append(
                #""scale":\#(space(&random))\#(random.pick(["0.381", "1", "2.5e0", "null", "\"1\"", "-0"]))"#)
        }
        members.shuffle(using: &random)
        return space(&random) + "{" + members.joined(separator: ",") + "}" + space(&random)
    }

    @Test func theScannerAgreesWithTheDecoderWheneverItAnswers() {
        var random = Generator(state: 0x5DEE_CE66_D1CE_4E5B)
        var fast = 0
        for _ in 0..<20_000 {
            var bytes = Array(Self.body(&random).utf8)
            // Some bodies damaged: a byte changed, dropped or doubled.
            if random.below(4) == 0, !bytes.isEmpty {
                let at = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[at] = random.pick(Array(#"{}[],:"\ 0-.e9x"#.utf8))
                case 1: bytes.remove(at: at)
                default: bytes.insert(bytes[at], at: at)
                }
            }
            guard let scanned = PointerBody.scan(bytes) else { continue }
            fast += 1
            #expect(Self.decoded(bytes) == scanned, "\(String(decoding: bytes, as: UTF8.self))")
        }
        // The generator is biased to plain bodies: most of them must have taken the fast path.
        #expect(fast > 1_000)
    }

    /// The page's pixels per stage point rides along; out of range it is refused, with its range.
    @Test func theScaleIsReadAndBounded() throws {
        let body = #"{"viewer":"v","scale":0.381,"events":[{"type":"down","pointer":1,"x":1,"y":2,"t":3}]}"#
        let scanned = try #require(PointerBody.scan(Array(body.utf8)))
        #expect(scanned.scale == 0.381)
        let samples = try APIRequest.pointerSamples(from: Array(body.utf8))
        #expect(samples.map(\.input.pixelsPerPoint) == [0.381])
        let without = try APIRequest.pointerSamples(
            from: Array(#"{"viewer":"v","events":[{"type":"up","pointer":1,"x":1,"y":2,"t":3}]}"#.utf8))
        #expect(without.map(\.input.pixelsPerPoint) == [1])
        for wrong in ["0", "-1", "1000"] {
            let refused = #"{"viewer":"v","scale":\#(wrong),"events":[]}"#
            #expect(throws: APIError.badRequest("scale must be 0.01 to 100.0")) {
                try APIRequest.pointerSamples(from: Array(refused.utf8))
            }
        }
    }

    @Test func thePagesOwnBodiesTakeTheFastPath() throws {
        // As input.js and batcher.js write them: JSON.stringify, coordinates rounded to 0.01.
        let body =
            #"{"viewer":"v-k2j4h5","events":[{"type":"down","pointer":1,"x":412.5,"y":300.25,"t":10234.56,"seq":1},"#
            + #"{"type":"move","pointer":1,"x":-3,"y":1024,"t":10251.2,"seq":2}]}"#
        let scanned = try #require(PointerBody.scan(Array(body.utf8)))
        #expect(scanned.viewer == "v-k2j4h5")
        #expect(
            scanned.events == [
                .init(type: "down", pointer: 1, x: 412.5, y: 300.25, t: 10234.56, seq: 1),
                .init(type: "move", pointer: 1, x: -3, y: 1024, t: 10251.2, seq: 2),
            ])
    }

    @Test(arguments: [
        #"{"viewer":"v","events":[],"viewer":"w"}"#,
        #"{"viewer":"v","events":[{"type":"up","pointer":1,"x":1,"y":1,"t":1e400}]}"#,
        #"{"viewer":"v\u0041","events":[]}"#,
        #"{"viewer":"v","events":[{"type":"up","pointer":1,"x":1,"y":1,"t":1,"seq":null}]}"#,
        #"{"viewer":"v","events":[]} x"#, #"{"viewer":"v","events":[],"more":1}"#,
    ])
    func unusualBodiesAreLeftToTheDecoder(body: String) {
        #expect(PointerBody.scan(Array(body.utf8)) == nil)
    }
}

extension PointerBodyTests.Generator: RandomNumberGenerator {}

/// Repeats told from new samples by the page's per-pointer numbers.
@Suite struct PointerRepeatFilterTests {
    /// What the filter answers for each (viewer, pointer, page time, seq, server time) in turn.
    static func answers(_ samples: [(viewer: String, pointer: Int, t: Double, seq: Int?, at: Double)]) -> [Bool] {
        var filter = PointerRepeatFilter()
        return samples.map { sample in
            let input = PointerInput(
                viewer: sample.viewer, phase: .move, pointer: sample.pointer, x: 0, y: 0, t: sample.t)
            return filter.admit(input, seq: sample.seq, at: sample.at)
        }
    }

    @Test func aSampleNumberedAtOrBelowTheLastIsARepeat() {
        let answers = Self.answers([
            ("v", 1, 10, 1, 0), ("v", 1, 20, 2, 0), ("v", 1, 20, 2, 0), ("v", 1, 10, 1, 0),
            ("v", 1, 50, 5, 0),  // a gap is a lost batch, not a repeat
        ])
        #expect(answers == [true, true, false, false, true])
    }

    @Test func pointersAndViewersCountApart() {
        #expect(Self.answers([("v", 1, 10, 3, 0), ("v", 2, 10, 3, 0), ("w", 1, 10, 3, 0)]) == [true, true, true])
    }

    @Test func aPageThatForgotAPointerStartsAgainAtOneLater() {
        // An old first sample replayed is a repeat; a first sample later in page time is a restart.
        let answers = Self.answers([("v", 1, 100, 40, 0), ("v", 1, 90, 1, 0), ("v", 1, 200, 1, 0), ("v", 1, 210, 2, 0)])
        #expect(answers == [true, false, true, true])
    }

    @Test func samplesWithoutNumbersAlwaysPass() {
        #expect(Self.answers([("v", 1, 10, nil, 0), ("v", 1, 10, nil, 0)]) == [true, true])
    }

    @Test func memoryIsBoundedByForgettingTheLeastRecent() {
        let limit = PointerRepeatFilter.maxPointersPerViewer
        var samples = (0...limit).map { ("v", $0, 1.0, Optional(5), Double($0)) }
        // Pointer 0 was the least recently used: forgotten, so its repeat is let through; the
        // most recent one's is not.
        samples += [("v", 0, 1, 5, 100), ("v", limit, 1, 5, 100)]
        #expect(Self.answers(samples) == Array(repeating: true, count: limit + 2) + [false])
    }
}
