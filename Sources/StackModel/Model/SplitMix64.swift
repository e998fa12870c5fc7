/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded generator, so everything random in a
/// stack follows from its seed and the events it saw.
struct SplitMix64: Sendable, Equatable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A whole number in `range`. Written out rather than `Int.random(in:using:)`, whose algorithm the
    /// standard library does not promise to keep, so a seed gives the same stack on every toolchain.
    /// The modulo bias is below 1e-17 for the small ranges used here.
    mutating func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % span)
    }
}
