import Testing

@testable import StackModel

/// Each original view's constants, as the layouts place cards on the default 1024 × 768 stage.
@Suite struct StyleLayoutTests {
    static let photo = Photo(id: "p", width: 400, height: 300)
    static let stage = StageSize.default

    private func expectClose(_ actual: CardTransform, _ expected: CardTransform, _ note: Comment? = nil) {
        let pairs = [
            (actual.x, expected.x), (actual.y, expected.y), (actual.w, expected.w), (actual.h, expected.h),
            (actual.rotation, expected.rotation), (actual.scaleX, expected.scaleX), (actual.scaleY, expected.scaleY),
            (actual.opacity, expected.opacity), (actual.flip, expected.flip),
        ]
        #expect(pairs.allSatisfy { abs($0.0 - $0.1) < 1e-9 }, "\(actual) ≠ \(expected) \(note?.description ?? "")")
    }

    @Test(arguments: [
        (0, 0.0), (1, 0.2), (2, -0.5), (3, -0.2), (4, 0.5), (5, 0), (6, 0.2), (9, 0.5), (12, -0.5), (1_000_003, -0.2),
    ])
    func anglesTurnsEachCardByTheOriginalAngleForItsPosition(position: Int, rotation: Double) {
        let layout = AnglesLayout(stage: Self.stage)
        #expect(
            layout.restTransform(of: Self.photo, tilt: 3, position: position)
                == CardTransform(x: 512, y: 384, w: 120, h: 120, rotation: rotation))
        #expect(layout.drawnLimit == 10 && layout.draggedLayers == 0)
    }

    @Test func gridFitsFourteenColumnsFlushAcrossAndTenRowsUnderTheInset() {
        let layout = GridLayout(stage: Self.stage)
        // floor((1024 + 10) / 70) = 14 columns; (1024 − 14·60) / 13 between them; rows at 74 + 70·r.
        #expect(layout.columns == 14 && layout.visibleRows == 10 && layout.drawnLimit == 140)
        #expect(abs(layout.gap - 184.0 / 13) < 1e-12)
    }

    @Test(arguments: [
        (0, 30.0, 104.0), (1, 30 + 60 + 184.0 / 13, 104), (13, 994, 104), (14, 30, 174), (139, 994, 734),
        (140, 30, 804),
    ])
    func gridPlacesPositionsInRowsFromTheTopLeft(position: Int, x: Double, y: Double) {
        let card = GridLayout(stage: Self.stage).restTransform(of: Self.photo, tilt: 2, position: position)
        expectClose(card, CardTransform(x: x, y: y, w: 60, h: 60))
    }

    @Test(arguments: [
        // (stage width, height, columns, visible rows, x of position 1)
        (375.0, 667.0, 5, 9, 30 + 60 + 18.75), (60, 768, 1, 10, 30), (50, 100, 1, 1, 25), (1024, 70, 14, 0, 0),
    ])
    func gridAdaptsToTheStage(width: Double, height: Double, columns: Int, rows: Int, x: Double) {
        let layout = GridLayout(stage: StageSize(width: width, height: height))
        #expect(layout.columns == columns && layout.visibleRows == rows)
        if rows > 0 {
            let second = layout.restTransform(of: Self.photo, tilt: 0, position: columns == 1 ? 0 : 1)
            #expect(abs(second.x - x) < 1e-9)
        }
    }

    /// The phone screen's scale on the default stage: 768 / 667.
    static let scale = 768.0 / 667

    @Test func thePhoneScreenFitsInTheStage() {
        let screen = PhoneScreen(stage: Self.stage)
        #expect(abs(screen.scale - Self.scale) < 1e-12)
        #expect(abs(screen.cardWidth - 335 * Self.scale) < 1e-9 && abs(screen.cardHeight - 467 * Self.scale) < 1e-9)
        #expect(abs(DeckLayout(stage: Self.stage).maxLength - 375 * Self.scale / 2) < 1e-9)
    }

    @Test(arguments: [
        // (position, y offset, scale x, opacity): −7 pt, −8 %, −20 % a layer; from 5 on, the invisible sixth place
        (0, 0.0, 1.0, 1.0), (1, -7, 0.92, 0.8), (2, -14, 0.84, 0.6), (3, -21, 0.76, 0.4), (4, -28, 0.68, 0.2),
        (5, -35, 0.6, 0), (40, -35, 0.6, 0),
    ])
    func deckLayersRiseNarrowAndFade(position: Int, rise: Double, scaleX: Double, opacity: Double) {
        let card = DeckLayout(stage: Self.stage).restTransform(of: Self.photo, tilt: 4, position: position)
        expectClose(
            card,
            CardTransform(
                x: 512, y: 384 + rise, w: 335 * Self.scale, h: 467 * Self.scale, scaleX: scaleX, opacity: opacity))
    }

    @Test(arguments: [
        // (position, stacked, left, top, width, opacity) in SMSwipeView's view of w × h
        (0, false, 0.0, 16.0, 0.0, 1.0), (1, false, 10, 8, 20, 1), (2, false, 20, 0, 40, 1), (3, false, 20, 0, 40, 0),
        (0, true, 0, 16, 0, 1), (1, true, 10, 8, 20, 0.5), (2, true, 20, 0, 40, 0.3), (7, true, 20, 0, 40, 0),
    ])
    func swipeFramesAreSMSwipeViewsThree(
        position: Int, stacked: Bool, left: Double, top: Double, narrowing: Double, opacity: Double
    ) {
        let w = 335 * Self.scale
        let h = 467 * Self.scale
        let view = (x: 512 - w / 2, y: 384 - h / 2)
        let card = SwipeLayout(stage: Self.stage, stacked: stacked).restTransform(
            of: Self.photo, tilt: 1, position: position)
        let width = w - narrowing
        expectClose(
            card,
            CardTransform(
                x: view.x + left + width / 2, y: view.y + top + (h - 16) / 2, w: width, h: h - 16, opacity: opacity))
    }

    @Test func turningAboutTheBottomRightCornerKeepsThatCorner() {
        let card = CardTransform(x: 100, y: 200, w: 80, h: 40, rotation: 0.3)
        func corner(_ t: CardTransform) -> Point {
            let c = Elementary.cos(t.rotation)
            let s = Elementary.sin(t.rotation)
            return Point(x: t.x + 40 * c - 20 * s, y: t.y + 40 * s + 20 * c)
        }
        let turned = card.turned(by: -0.7)
        #expect(abs(turned.rotation + 0.4) < 1e-12)
        #expect((corner(turned) - corner(card)).length < 1e-9)
        #expect(abs((Point(x: turned.x, y: turned.y) - corner(card)).length - Point(x: 40, y: 20).length) < 1e-9)
    }

    @Test func theDeckSpringIsDampingRatioPointFourSettlingNearHalfASecond() {
        let spring = Spring.deck
        let zeta = spring.damping / (2 * Elementary.squareRoot(spring.stiffness * spring.mass))
        #expect(abs(zeta - 0.4) < 1e-4)
        // The envelope exp(−ζω0t) is down to 0.001 at 0.5 s.
        let omega0 = Elementary.squareRoot(spring.stiffness / spring.mass)
        #expect(abs(Elementary.exp(-zeta * omega0 * 0.5) - 0.001) < 1e-5)
        let settle = Curve.springSettleDuration(stiffness: 1193, damping: 27.63, mass: 1, velocity: 0)
        #expect(settle > 500 && settle < 650)
    }
}
