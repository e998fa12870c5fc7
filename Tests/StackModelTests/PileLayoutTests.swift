import Testing

@testable import StackModel

@Suite struct PileLayoutTests {
    static let layout = PileLayout(stage: .default)

    @Test(arguments: [
        // (photo width, height, card width, card height): fitted inside 634.88 × 476.16
        (400, 300, 634.88, 476.16), (3000, 4000, 357.12, 476.16), (1000, 100, 634.88, 63.488), (0, 0, 476.16, 476.16),
    ])
    func cardFitsThePhotoAspectInsideSixtyTwoPercentOfTheStage(
        width: Int, height: Int, cardWidth: Double, cardHeight: Double
    ) {
        let size = Self.layout.cardSize(of: Photo(id: "p", width: width, height: height))
        #expect(abs(size.width - cardWidth) < 1e-9 && abs(size.height - cardHeight) < 1e-9)
    }

    @Test func restIsCentredWithTheTopStraightAndTheOthersTilted() {
        let photo = Photo(id: "p", width: 400, height: 300)
        let size = Self.layout.cardSize(of: photo)
        #expect(
            Self.layout.restTransform(of: photo, tilt: -3, position: 0)
                == CardTransform(x: 512, y: 384, w: size.width, h: size.height, rotation: 0))
        #expect(
            Self.layout.restTransform(of: photo, tilt: -3, position: 4)
                == CardTransform(x: 512, y: 384, w: size.width, h: size.height, rotation: -3 * .pi / 180))
    }

    @Test(arguments: [
        Point(x: 1, y: 0), Point(x: -1, y: 0), Point(x: 0, y: 1), Point(x: 0, y: -1), Point(x: 0.6, y: 0.8),
        Point(x: -0.8, y: 0.6),
    ])
    func offStageLeavesTheStageEntirelyAndNoFurther(direction: Point) {
        let start = CardTransform(x: 600, y: 300, w: 300, h: 400, rotation: 0.07)
        let end = Self.layout.offStage(start, direction: direction)
        // Whatever its rotation on the way, the card reaches no further than half its diagonal, plus
        // the shadow margin; it must clear what any window from 9:21 to 21:9 shows around the stage.
        let reach = (end.w * end.w + end.h * end.h).squareRoot() / 2 + StageSize.offStageMargin
        let area = StageSize.default.farthestVisibleArea
        let gaps = [
            end.x - reach - area.maxX, area.minX - (end.x + reach), end.y - reach - area.maxY,
            area.minY - (end.y + reach),
        ]
        #expect(gaps.max()! > -1e-9, "out of every window")
        #expect(gaps.max()! < 1e-9, "and no further")
        #expect(StageSize.default.isOutOfView(end))
        // Straight along the direction, PhotoStackView's rightward bug (y = midY + width) included.
        #expect(abs((end.x - start.x) * direction.y - (end.y - start.y) * direction.x) < 1e-9)
        #expect((end.x - start.x) * direction.x + (end.y - start.y) * direction.y > 0)
    }

    @Test func rightwardFlightKeepsTheHeightAndClearsTheRightEdgeOfAWideWindow() {
        let start = CardTransform(x: 512, y: 384, w: 634.88, h: 476.16)
        // A 21:9 window shows 896 pt either side of the centre; the card's half-diagonal is 396.8.
        let end = Self.layout.offStage(start, direction: Point(x: 1, y: 0))
        #expect(abs(end.x - (512 + 896 + 396.8 + 24)) < 1e-9 && end.y == 384)
    }

    @Test(arguments: [
        // (point, rotation, on the card) for a 200 × 100 card centred at (500, 400)
        (Point(x: 599, y: 449), 0.0, true), (Point(x: 601, y: 400), 0, false), (Point(x: 500, y: 451), 0, false),
        (Point(x: 599, y: 449), Double.pi / 4, false), (Point(x: 500, y: 470), Double.pi / 4, true),
        (Point(x: 560, y: 460), Double.pi / 4, true), (Point(x: 440, y: 460), Double.pi / 4, false),
    ])
    func hitTestUsesTheRotatedRectangle(point: Point, rotation: Double, hits: Bool) {
        #expect(CardTransform(x: 500, y: 400, w: 200, h: 100, rotation: rotation).contains(point) == hits)
    }
}
