/// The shape of a screen, as a room lays its stack out for it: a window's aspect ratio quantised to
/// one of these classes, so that the cost of laying out and encoding a change grows with the classes
/// present, never with the viewers (docs/architecture.md, "Screens of every shape").
///
/// The common shapes have classes of their own (a 16:9 TV, a 21:9 screen, a 19.5:9 phone, 4:3 and
/// 3:4 tablets); between them, classes at most 5.3 % apart in aspect, so that any screen from
/// 9:19.5 to 21:9 is within 2.6 % of a class: a photo of the screen's own shape, fitted to the
/// stage of its class, then covers at least 95 % of the screen (the stage's share of the window,
/// times the photo's share of the stage). The names say the aspect: `16x9`, `1.46x1`, `1x1.47`.
public enum ShapeClass: String, Sendable, CaseIterable, Hashable {
    case ultrawide = "21x9"
    case landscape223 = "2.23x1"
    case landscape213 = "2.13x1"
    case landscape204 = "2.04x1"
    case landscape195 = "1.95x1"
    case landscape186 = "1.86x1"
    case widescreen = "16x9"
    case landscape172 = "1.72x1"
    case landscape166 = "1.66x1"
    case wide = "16x10"
    case landscape153 = "1.53x1"
    case landscape146 = "1.46x1"
    case landscape140 = "1.4x1"
    case standard = "4x3"
    case landscape127 = "1.27x1"
    case landscape121 = "1.21x1"
    case landscape115 = "1.15x1"
    case landscape110 = "1.1x1"
    case landscape105 = "1.05x1"
    case square = "1x1"
    case portrait105 = "1x1.05"
    case portrait110 = "1x1.1"
    case portrait115 = "1x1.15"
    case portrait121 = "1x1.21"
    case portrait127 = "1x1.27"
    case portraitStandard = "3x4"
    case portrait140 = "1x1.4"
    case portrait147 = "1x1.47"
    case portrait154 = "1x1.54"
    case portrait162 = "1x1.62"
    case portrait169 = "1x1.69"
    case portraitWidescreen = "9x16"
    case portrait185 = "1x1.85"
    case portrait192 = "1x1.92"
    case portrait200 = "1x2"
    case portrait208 = "1x2.08"
    case tallPhone = "9x19.5"

    /// Width over height, as the name says it.
    public var aspect: Double { Self.aspects[self]! }

    /// Every class's aspect, read once from its name.
    private static let aspects: [ShapeClass: Double] = Dictionary(
        uniqueKeysWithValues: allCases.map { shape in
            let sides = shape.rawValue.split(separator: "x").map { Double($0)! }
            return (shape, sides[0] / sides[1])
        })

    /// The aspects in increasing order, for the ranges between neighbours.
    private static let sortedAspects = allCases.map(\.aspect).sorted()

    /// The class whose aspect is nearest to `width` × `height`'s, nearest as a ratio (1.8 is as far
    /// from 1.6 as 2.025 is from 1.8), so portrait and landscape classes are treated alike.
    /// - Complexity: O(classes): a few dozen.
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
        let sorted = Self.sortedAspects
        let index = sorted.firstIndex(of: aspect)!
        let lower = index == 0 ? 0 : Elementary.squareRoot(sorted[index - 1] * aspect)
        let upper = index == sorted.count - 1 ? .infinity : Elementary.squareRoot(sorted[index + 1] * aspect)
        return lower...upper
    }
}
