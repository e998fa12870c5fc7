/// The shape of a screen, as a room lays its stack out for it: a window's aspect ratio quantised to
/// one of a few classes, so that the cost of laying out and encoding a change grows with the classes
/// present, never with the viewers (docs/architecture.md, "Screens of every shape").
public enum ShapeClass: String, Sendable, CaseIterable, Hashable {
    case ultrawide = "21x9"
    case widescreen = "16x9"
    case wide = "16x10"
    case standard = "4x3"
    case square = "1x1"
    case portraitStandard = "3x4"
    case portraitWidescreen = "9x16"
    case tallPhone = "9x19.5"

    /// Width over height.
    public var aspect: Double {
        switch self {
        case .ultrawide: 21.0 / 9
        case .widescreen: 16.0 / 9
        case .wide: 16.0 / 10
        case .standard: 4.0 / 3
        case .square: 1
        case .portraitStandard: 3.0 / 4
        case .portraitWidescreen: 9.0 / 16
        case .tallPhone: 9.0 / 19.5
        }
    }

    /// The class whose aspect is nearest to `width` × `height`'s, nearest as a ratio (1.8 is as far
    /// from 1.6 as 2.025 is from 1.8), so portrait and landscape classes are treated alike.
    /// - Complexity: O(1): eight classes.
    public init?(width: Double, height: Double) {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return nil }
        let aspect = width / height
        func distance(_ shape: ShapeClass) -> Double {
            aspect > shape.aspect ? aspect / shape.aspect : shape.aspect / aspect
        }
        self = Self.allCases.min { distance($0) < distance($1) }!
    }

    /// Reads a window size as the page reports it, `1920x1080` (or a class's own name, `16x9`).
    public init?(reported text: Substring) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...12).contains($0.count) }),
            let width = Double(parts[0]), let height = Double(parts[1])
        else { return nil }
        self.init(width: width, height: height)
    }

    /// The range of window aspects that fall in this class: the page reconnects with its new size
    /// when a resize takes it out (the geometric midpoints to the neighbouring classes).
    public var aspectRange: ClosedRange<Double> {
        let sorted = Self.allCases.map(\.aspect).sorted()
        let index = sorted.firstIndex(of: aspect)!
        let lower = index == 0 ? 0 : Elementary.squareRoot(sorted[index - 1] * aspect)
        let upper = index == sorted.count - 1 ? .infinity : Elementary.squareRoot(sorted[index + 1] * aspect)
        return lower...upper
    }
}
