import Testing

@testable import StackModel

/// Gestures in screen units: a slow 50-px drag held still springs back on a phone as on a laptop
/// and a TV, and a long one flicks on all three (`FlickRule`: thresholds in pixels and points).
@Suite struct ScreenScaleFlickTests {
    /// CSS pixels per stage point: a 390×844 phone (its 9:19.5 stage is 1024 points wide), a
    /// 1280×800 laptop (16:10, 1228.8 × 768), a 1920×1080 TV (16:9, 1365.3 × 768).
    static let screens: [(name: String, pixelsPerPoint: Double)] = [
        ("phone 390×844", 390 / 1024), ("laptop 1280×800", 800 / 768), ("TV 1920×1080", 1080 / 768),
    ]

    /// A drag from the top card's centre by `pixels` CSS px to the right (left when negative) over 300 ms, held still
    /// for `hold`, then let go, as a screen of `pixelsPerPoint` posts it.
    static func drag(pixels: Double, pixelsPerPoint: Double, hold: Millis) -> [(event: StackEvent, at: Millis)] {
        Fixture.drag(speed: pixels / pixelsPerPoint / 0.3, duration: 300, hold: hold).map { event, time in
            guard case .pointer(var input) = event else { return (event, time) }
            input.pixelsPerPoint = pixelsPerPoint
            return (.pointer(input), time)
        }
    }

    @Test(arguments: screens)
    func aSlowFiftyPixelDragHeldStillSpringsBack(screen: (name: String, pixelsPerPoint: Double)) throws {
        for style in [StyleName.pile, .swipe] {
            var stack = Stack(photos: Fixture.photos(5), style: style, seed: 7)
            try stack.apply(Self.drag(pixels: 50, pixelsPerPoint: screen.pixelsPerPoint, hold: 600))
            #expect(stack.current == 0, "\(screen.name), \(style): the card came back")
        }
    }

    @Test(arguments: screens)
    func aLongDragStillFlicks(screen: (name: String, pixelsPerPoint: Double)) throws {
        for style in [StyleName.pile, .swipe] {
            var stack = Stack(photos: Fixture.photos(5), style: style, seed: 7)
            try stack.apply(Self.drag(pixels: -400, pixelsPerPoint: screen.pixelsPerPoint, hold: 600))
            #expect(stack.current != 0, "\(screen.name), \(style): the card went")
        }
    }

    /// The rule itself: a phone's thresholds are the laptop's in pixels; a TV's stay in points.
    @Test func theThresholdsHoldInPixelsOnASmallScreen() {
        let phone = FlickRule(cardWidth: 400, cardHeight: 300, pixelsPerPoint: 0.4)
        let tv = FlickRule(cardWidth: 400, cardHeight: 300, pixelsPerPoint: 1.4)
        // 75 points is a quarter of the short side: 30 px on the phone, not enough; 190 points is 76 px.
        #expect(phone.flightDirection(translation: Point(x: 80, y: 0), velocity: .zero) == nil)
        #expect(phone.flightDirection(translation: Point(x: 190, y: 0), velocity: .zero) == Point(x: 1, y: 0))
        #expect(tv.flightDirection(translation: Point(x: 76, y: 0), velocity: .zero) == Point(x: 1, y: 0))
        // 1000 pt/s on the phone is 400 px/s, a slow move there.
        #expect(phone.flightDirection(translation: Point(x: 20, y: 0), velocity: Point(x: 1000, y: 0)) == nil)
        #expect(tv.flightDirection(translation: Point(x: 20, y: 0), velocity: Point(x: 1000, y: 0)) != nil)
    }
}
