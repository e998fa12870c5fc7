import Foundation
import StackModel

extension SavedStack {
    /// The room's lasting state as Redis keeps it.
    private struct Record: Codable {
        var style: String
        var order: [String]
        var tilts: [Int]
        var removed: [String]
        var swipeStacked: Bool
        /// Where the first card is in `order` (what `current` counts from); absent in older states.
        var first: Int?
        /// The slideshow as a person left it; absent when nobody chose (or in older states).
        var paused: Bool?
    }

    /// The room's lasting state as JSON, one Redis value.
    var json: [UInt8] {
        let record = Record(
            style: style.rawValue, order: order, tilts: tilts, removed: removed, swipeStacked: swipeStacked,
            first: first, paused: paused)
        return Array((try? JSONEncoder().encode(record)) ?? Data())
    }

    /// Reads what `json` wrote; an unknown style falls back to `defaultStyle`.
    init?(json: [UInt8], defaultStyle: StyleName) {
        guard let record = try? JSONDecoder().decode(Record.self, from: Data(json)) else { return nil }
        self.init(
            style: StyleName(rawValue: record.style) ?? defaultStyle, order: record.order, tilts: record.tilts,
            removed: record.removed, swipeStacked: record.swipeStacked, first: record.first,
            paused: record.paused)
    }
}
