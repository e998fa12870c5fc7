// Item 5 of issue #7: nanoseconds per pointer move and per layout against the stack's size.
//
// Built by Benchmarks/model_bench.py: the StackModel sources as their own module (swiftc -O, whole
// module), then this file against it, as the server uses it. Public API only. Prints one JSON
// object per stack size.
import Glibc
import StackModel

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

func nanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Runs `body` `rounds` times in batches of `batch`; returns nanoseconds per call of each batch.
func timed(rounds: Int, batch: Int, _ body: (Int) -> Void) -> [Double] {
    var perCall: [Double] = []
    var done = 0
    while done < rounds {
        let count = min(batch, rounds - done)
        let start = nanoseconds()
        for index in done..<(done + count) { body(index) }
        perCall.append(Double(nanoseconds() - start) / Double(count))
        done += count
    }
    return perCall.sorted()
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count, max(1, rank)) - 1]
}

func json(_ fields: [(String, String)]) -> String {
    "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
}

func fmt(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return "\(rounded)"
}

@main
struct ModelBench {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let sizes = arguments.isEmpty ? [10, 100, 1000, 10_000, 100_000, 1_000_000] : arguments
        let stage = StageSize.default
        // MODEL_BENCH_ROUNDS lowers the number of timed calls (for a run under callgrind).
        let rounds = getenv("MODEL_BENCH_ROUNDS").flatMap { Int(String(cString: $0)) } ?? 200_000
        // MODEL_BENCH_ONLY_MOVES=1 times the moves only (a profile of one thing).
        let onlyMoves = getenv("MODEL_BENCH_ONLY_MOVES") != nil
        // MODEL_BENCH_STYLE=deck (etc.) drags in another style; pile by default.
        let style = getenv("MODEL_BENCH_STYLE").flatMap { StyleName(rawValue: String(cString: $0)) } ?? .pile
        for size in sizes {
            let photos = (0..<size).map { Photo(id: "p\($0)", width: 4000, height: 3000) }
            let buildStart = nanoseconds()
            var stack = Stack(photos: photos, stage: stage, style: style, seed: 42)
            let buildNs = Double(nanoseconds() - buildStart)

            // A drag of the top card: a down on it, then moves, each to a new place past the tap slop.
            let centre = (x: stage.width / 2, y: stage.height / 2)
            var now: Millis = 1_000_000
            var pageTime: Millis = 0
            _ = try stack.handle(
                .pointer(
                    PointerInput(viewer: "bench", phase: .down, pointer: 1, x: centre.x, y: centre.y, t: pageTime)),
                at: now)
            var changed = 0
            let moves = timed(rounds: rounds, batch: min(rounds, 2_000)) { index in
                now += 4
                pageTime += 4
                let x = centre.x + 20 + Double(index % 40)
                let change = try! stack.handle(
                    .pointer(PointerInput(viewer: "bench", phase: .move, pointer: 1, x: x, y: centre.y, t: pageTime)),
                    at: now)
                changed &+= change.cards.count
            }
            if onlyMoves {
                consume(changed)
                print(json([("size", "\(size)"), ("move_ns_p50", fmt(percentile(moves, 50)))]))
                continue
            }
            // A slow release: the card springs back; then the layout with nothing moving.
            now += 150
            pageTime += 150
            _ = try stack.handle(
                .pointer(
                    PointerInput(viewer: "bench", phase: .up, pointer: 1, x: centre.x + 20, y: centre.y, t: pageTime)),
                at: now)
            now += 5_000
            _ = try stack.handle(.tick, at: now)
            var drawn = 0
            let layouts = timed(rounds: rounds, batch: min(rounds, 2_000)) { index in
                drawn &+= stack.drawnCards(at: now + Double(index & 1)).count
            }
            // A flick: down, three fast moves, up; the top card flies out and joins the bottom.
            var flicked = 0
            let flicks = timed(rounds: max(1, rounds / 100), batch: min(100, max(1, rounds / 100))) { _ in
                now += 2_000
                pageTime += 2_000
                for (step, phase) in [PointerInput.Phase.down, .move, .move, .move, .up].enumerated() {
                    now += 8
                    pageTime += 8
                    let x = centre.x + Double(step) * 60
                    let change = try! stack.handle(
                        .pointer(
                            PointerInput(viewer: "bench", phase: phase, pointer: 1, x: x, y: centre.y, t: pageTime)),
                        at: now)
                    flicked &+= change.cards.count
                }
                now += 2_000
                _ = try! stack.handle(.tick, at: now)
            }
            consume((changed, drawn, flicked))
            print(
                json([
                    ("size", "\(size)"), ("style", "\"\(style.rawValue)\""), ("build_ms", fmt(buildNs / 1e6)),
                    ("move_ns_p50", fmt(percentile(moves, 50))), ("move_ns_p90", fmt(percentile(moves, 90))),
                    ("move_ns_p99", fmt(percentile(moves, 99))),
                    ("move_ns_min", fmt(moves.first ?? .nan)),
                    ("layout_ns_p50", fmt(percentile(layouts, 50))), ("layout_ns_p90", fmt(percentile(layouts, 90))),
                    ("layout_ns_p99", fmt(percentile(layouts, 99))),
                    ("layout_ns_min", fmt(layouts.first ?? .nan)),
                    ("flick_ns_p50", fmt(percentile(flicks, 50))), ("flick_ns_p99", fmt(percentile(flicks, 99))),
                    ("drawn", "\(stack.drawnCards(at: now).count)"), ("changed_cards", "\(changed)"),
                ]))
        }
    }
}
