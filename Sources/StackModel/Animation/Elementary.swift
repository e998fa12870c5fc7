/// `exp`, `sin`, `cos`, square root and rounding in plain Swift, without the C math library.
///
/// The standard library has no elementary functions, and its `squareRoot()` and `rounded()` call
/// libm's `sqrt`, `round`, `floor`…, which nothing links for a target that imports only the standard
/// library (the `stackweb` link fails). These use fdlibm's argument reductions and Horner-form Taylor
/// series, and agree with the C library to a few ulps for the arguments springs use (|x| up to about
/// 1e6), which the tests check.
enum Elementary {
    /// ln 2 split so that `k·ln2Hi` is exact for the exponents a Double can take.
    private static let ln2Hi = 6.93147180369123816490e-01
    private static let ln2Lo = 1.90821492927058770002e-10
    /// π/2 in three parts, each exact when multiplied by a quadrant count below 2^20.
    private static let halfPi1 = 1.57079632673412561417e+00
    private static let halfPi2 = 6.07710050630396597660e-11
    private static let halfPi3 = 2.02226624871116645580e-21

    static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        let k = nearest(x * 1.4426950408889634)
        let r = (x - k * ln2Hi) - k * ln2Lo
        // |r| ≤ ln 2 / 2, so the terms past r¹³/13! are below 1e-17 relative.
        var series = 1.0
        for n in stride(from: 13, through: 1, by: -1) {
            series = 1 + r / Double(n) * series
        }
        return Double(sign: .plus, exponent: Int(k), significand: series)
    }

    static func sin(_ x: Double) -> Double {
        let (r, quadrant) = reduced(x)
        switch quadrant {
        case 0: return sinKernel(r)
        case 1: return cosKernel(r)
        case 2: return -sinKernel(r)
        default: return -cosKernel(r)
        }
    }

    static func cos(_ x: Double) -> Double {
        let (r, quadrant) = reduced(x)
        switch quadrant {
        case 0: return cosKernel(r)
        case 1: return -sinKernel(r)
        case 2: return -cosKernel(r)
        default: return sinKernel(r)
        }
    }

    /// `x = k·π/2 + r` with |r| ≤ π/4; the quadrant is `k mod 4` in 0...3.
    private static func reduced(_ x: Double) -> (r: Double, quadrant: Int) {
        guard x.isFinite else { return (.nan, 0) }
        guard abs(x) < 0x1p52 else { return (.nan, 0) }
        let k = nearest(x * 0.63661977236758134308)
        let r = ((x - k * halfPi1) - k * halfPi2) - k * halfPi3
        // Two's complement: the low two bits are `k mod 4` for negative `k` too.
        return (r, Int(k) & 3)
    }

    /// sin r for |r| ≤ π/4; the first omitted term, r²¹/21!, is below 1e-21.
    private static func sinKernel(_ r: Double) -> Double {
        let r2 = r * r
        var series = 1.0
        for n in stride(from: 9, through: 1, by: -1) {
            series = 1 - r2 / Double(2 * n * (2 * n + 1)) * series
        }
        return r * series
    }

    /// cos r for |r| ≤ π/4; the first omitted term, r²²/22!, is below 1e-22.
    private static func cosKernel(_ r: Double) -> Double {
        let r2 = r * r
        var series = 1.0
        for n in stride(from: 10, through: 1, by: -1) {
            series = 1 - r2 / Double((2 * n - 1) * (2 * n)) * series
        }
        return series
    }

    /// The square root to within an ulp: Newton's method from a guess with half the exponent.
    static func squareRoot(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 || x == .infinity ? x : .nan }
        var root = Double(sign: .plus, exponent: x.exponent / 2, significand: 1)
        // The guess is within a factor of 2 of the root; each step squares the relative error.
        for _ in 0..<7 { root = (root + x / root) / 2 }
        return root
    }

    /// The whole number nearest to `x`, halves rounded up.
    static func nearest(_ x: Double) -> Double { floor(x + 0.5) }

    static func floor(_ x: Double) -> Double {
        let whole = truncated(x)
        return whole > x ? whole - 1 : whole
    }

    static func ceiling(_ x: Double) -> Double {
        let whole = truncated(x)
        return whole < x ? whole + 1 : whole
    }

    /// Toward zero through an integer conversion, a single instruction; from 2^52 on every Double is whole.
    private static func truncated(_ x: Double) -> Double {
        abs(x) < 0x1p52 ? Double(Int(x)) : x
    }
}
