import Glibc

/// The elementary functions the curves and layouts need, from the C maths library.
///
/// The standard library has none of these. StackModel imports the C library for its pure maths
/// functions only (no I/O, clock or randomness): the page evaluates the same curves with
/// `Math.exp`/`Math.sin`, and both agree to the last few bits (checked by the curve vectors).
enum Elementary {
    static func exp(_ x: Double) -> Double { Glibc.exp(x) }
    static func sin(_ x: Double) -> Double { Glibc.sin(x) }
    static func cos(_ x: Double) -> Double { Glibc.cos(x) }
    static func squareRoot(_ x: Double) -> Double { Glibc.sqrt(x) }
    static func floor(_ x: Double) -> Double { Glibc.floor(x) }
    static func ceiling(_ x: Double) -> Double { Glibc.ceil(x) }
}
