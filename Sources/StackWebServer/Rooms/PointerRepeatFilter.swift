import StackModel

/// Drops pointer samples a page has already sent (a batch posted twice, by a retry or a proxy),
/// using the `seq` the page numbers each pointer's samples with: 1, 2, 3, … across gestures
/// (docs/wire-protocol.md). Without it a replayed flick would fly a second card.
///
/// A sample whose `seq` is not above the last one seen for its viewer and pointer is a repeat,
/// except `seq` 1 at a later page time: the page forgets pointers it has not used for a while and
/// counts them from 1 again. Samples without `seq` (other clients; the field is optional) pass.
struct PointerRepeatFilter {
    /// Pointers remembered per viewer (the page remembers 64) and viewers per room; past either,
    /// the least recently used is forgotten, which can only let a very late repeat through.
    static let maxPointersPerViewer = 64
    static let maxViewers = 1024

    private struct Last {
        var seq: Int
        /// Page time of the sample, to tell a restart at 1 from a replay.
        var t: Millis
        /// Server time of the sample, to forget the least recently used.
        var at: Millis
    }

    private var viewers: [String: [Int: Last]] = [:]

    /// Whether `input` is new; records it if so.
    mutating func admit(_ input: PointerInput, seq: Int?, at now: Millis) -> Bool {
        guard let seq else { return true }
        var pointers = viewers[input.viewer] ?? [:]
        if let last = pointers[input.pointer], seq <= last.seq, !(seq == 1 && input.t > last.t) {
            return false
        }
        pointers[input.pointer] = Last(seq: seq, t: input.t, at: now)
        if pointers.count > Self.maxPointersPerViewer, let oldest = pointers.min(by: { $0.value.at < $1.value.at }) {
            pointers[oldest.key] = nil
        }
        viewers[input.viewer] = pointers
        if viewers.count > Self.maxViewers { forgetLeastRecentViewer() }
        return true
    }

    private mutating func forgetLeastRecentViewer() {
        let lastUse = { (pointers: [Int: Last]) in pointers.values.map(\.at).max() ?? 0 }
        if let oldest = viewers.min(by: { lastUse($0.value) < lastUse($1.value) }) { viewers[oldest.key] = nil }
    }
}
