import Foundation
import Testing

@testable import StackModel

@Suite struct ElementaryTests {
    static let arguments: [Double] = [
        0, 1e-9, -1e-9, 0.1, -0.3, 0.5, 0.7853981633974483, 1, -1, 1.5707963267948966, 2, 3, -3,
        3.141592653589793, 4.71238898038469, 6.283185307179586, 10, -10, 37.5, 100, -250.25, 1000, 12345.678,
    ]

    @Test(arguments: arguments)
    func sineAndCosineMatchTheCLibrary(x: Double) {
        #expect(abs(Elementary.sin(x) - Foundation.sin(x)) <= 4e-16 * max(1, abs(x) / 1000))
        #expect(abs(Elementary.cos(x) - Foundation.cos(x)) <= 4e-16 * max(1, abs(x) / 1000))
    }

    @Test(arguments: [0, 1e-12, -1e-12, 0.3, -0.3, 1, -1, 2.5, -7.25, -20, -100, 50, 300, -700, 709])
    func exponentialMatchesTheCLibraryToAFewUlps(x: Double) {
        let expected = Foundation.exp(x)
        #expect(abs(Elementary.exp(x) - expected) <= 4e-16 * expected)
    }

    @Test func exponentialLimits() {
        #expect(Elementary.exp(800) == .infinity)
        #expect(Elementary.exp(-800) == 0)
        #expect(Elementary.exp(.nan).isNaN)
        #expect(Elementary.exp(0) == 1)
    }

    @Test func denseSweepStaysWithinAFewUlps() {
        var worst = 0.0
        for step in -20_000...20_000 {
            let x = Double(step) / 1000
            worst = max(worst, abs(Elementary.sin(x) - Foundation.sin(x)), abs(Elementary.cos(x) - Foundation.cos(x)))
            worst = max(worst, abs(Elementary.exp(-abs(x)) - Foundation.exp(-abs(x))))
        }
        #expect(worst < 5e-16)
    }

    @Test(arguments: [1e-300, 2e-10, 0.25, 0.5, 2, 3, 170, 225, 476.16 * 476.16, 1e10, 1.7e308])
    func squareRootIsWithinAnUlp(x: Double) {
        let expected = Foundation.sqrt(x)
        #expect(abs(Elementary.squareRoot(x) - expected) <= expected.ulp)
    }

    @Test func squareRootEdges() {
        #expect(Elementary.squareRoot(0) == 0)
        #expect(Elementary.squareRoot(.infinity) == .infinity)
        #expect(Elementary.squareRoot(-1).isNaN)
        #expect(Elementary.squareRoot(4) == 2)
    }

    @Test(arguments: [
        (-2.5, -3.0, -2.0, -2.0), (-2.0, -2, -2, -2), (-0.4, -1, 0, 0), (0.5, 0, 1, 1), (2.49, 2, 3, 2),
        (1e17, 1e17, 1e17, 1e17),
    ])
    func rounding(x: Double, floor: Double, ceiling: Double, nearest: Double) {
        #expect(Elementary.floor(x) == floor)
        #expect(Elementary.ceiling(x) == ceiling)
        #expect(Elementary.nearest(x) == nearest)
    }
}
