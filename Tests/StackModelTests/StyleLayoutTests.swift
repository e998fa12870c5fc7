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
        // 36 % of the stage's short side (the original's 120 of 375 pt was 32 %): 276.48 pt.
        let side = 0.36 * 768
        #expect(
            layout.restTransform(of: Self.photo, tilt: 3, position: position)
                == CardTransform(x: 512, y: 384, w: side, h: side, rotation: rotation))
        #expect(layout.drawnLimit == 10 && layout.draggedLayers == 0)
    }

    @Test func gridOfAHugeStackFitsFourteenColumnsOfTheOriginalTilesCentred() {
        let layout = GridLayout(stage: Self.stage)
        // floor((1024 + 10) / 70) = 14 columns of 60 + 10 pt: a 970-pt block, 27 pt either side.
        #expect(layout.columns == 14 && layout.itemSize == 60 && abs(layout.left - 27) < 1e-12)
        // Under the phone's 74-pt inset scaled to the stage (85.2 pt): ceil(682.8 / 70) = 10 rows.
        #expect(abs(layout.topInset - 74 * Self.scale) < 1e-12)
        #expect(layout.visibleRows == 10 && layout.drawnLimit == 140)
    }

    @Test(arguments: [(0, 57.0, 0), (1, 127, 0), (13, 967, 0), (14, 57, 1), (139, 967, 9)])
    func gridPlacesPositionsInRowsFromTheTopLeft(position: Int, x: Double, row: Int) {
        let card = GridLayout(stage: Self.stage).restTransform(of: Self.photo, tilt: 2, position: position)
        expectClose(card, CardTransform(x: x, y: 74 * Self.scale + 30 + 70 * Double(row), w: 60, h: 60))
    }

    /// The height the grid's tiles share on the default stage: under the scaled 74-pt inset, above
    /// the control bar's 72 pt.
    static let gridHeight: Double = 768 - 74 * scale - 72
    /// (cards, columns, tile): the largest tile that fits every card above the control bar.
    static let gridFits: [(Int, Int, Double)] = [
        (1, 1, gridHeight), (12, 4, (gridHeight - 20) / 3), (140, 14, 60), (1000, 14, 60),
    ]

    @Test(arguments: gridFits)
    func gridTilesGrowUntilEveryCardFits(cards: Int, columns: Int, tile: Double) {
        let layout = GridLayout(stage: Self.stage, count: cards)
        #expect(layout.columns == columns)
        #expect(abs(layout.itemSize - tile) < 0.01, "\(layout.itemSize)")
        let last = layout.restTransform(of: Self.photo, tilt: 0, position: cards - 1)
        let first = layout.restTransform(of: Self.photo, tilt: 0, position: 0)
        // Centred across the stage; every card above the control bar while they fit.
        let right = layout.restTransform(of: Self.photo, tilt: 0, position: columns - 1)
        #expect(abs((first.x - first.w / 2) - (1024 - (right.x + right.w / 2))) < 1e-9)
        if tile > 60 { #expect(last.y + last.h / 2 <= 768 - 72 + 1e-9) }
    }

    @Test(arguments: [
        // (stage width, height, columns, visible rows): rows under the phone's 74-pt inset, scaled
        (375.0, 667.0, 5, 9), (60, 768, 1, 11), (50, 100, 1, 2), (1024, 70, 14, 1),
    ])
    func gridAdaptsToTheStage(width: Double, height: Double, columns: Int, rows: Int) {
        let layout = GridLayout(stage: StageSize(width: width, height: height))
        #expect(layout.columns == columns && layout.visibleRows == rows)
        if rows > 0 {
            let first = layout.restTransform(of: Self.photo, tilt: 0, position: 0)
            let last = layout.restTransform(of: Self.photo, tilt: 0, position: columns - 1)
            #expect(abs((first.x + last.x) / 2 - width / 2) < 1e-9, "centred")
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

    @Test func turningAboutAPointKeepsThePointOfTheCardThere() {
        let card = CardTransform(x: 100, y: 200, w: 80, h: 40, rotation: 0.3)
        // The card's own point at (30, −10) from its centre, in its turned frame.
        func point(_ t: CardTransform) -> Point {
            let c = Elementary.cos(t.rotation)
            let s = Elementary.sin(t.rotation)
            return Point(x: t.x + 30 * c + 10 * s, y: t.y + 30 * s - 10 * c)
        }
        let pivot = point(card)
        let turned = card.turned(by: -0.7, about: pivot)
        #expect(abs(turned.rotation + 0.4) < 1e-12)
        #expect((point(turned) - pivot).length < 1e-9)
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
