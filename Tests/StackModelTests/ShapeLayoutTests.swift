import Testing

@testable import StackModel

/// One stack laid out for screens of every shape: the classes, what each screen's layout fills, the
/// frame's pairs, and a press on a screen of another shape landing on the card it showed.
@Suite struct ShapeLayoutTests {
    let now = Fixture.now

    /// A screen of `width` × `height` CSS pixels, its class's stage fitted into it (contain, centred).
    struct Screen {
        var width: Double
        var height: Double

        var shape: ShapeClass { ShapeClass(width: width, height: height)! }

        func scale(of stage: StageSize) -> Double { min(width / stage.width, height / stage.height) }

        /// The fraction of the screen a card covers.
        func coverage(of card: CardTransform, on stage: StageSize) -> Double {
            let scale = scale(of: stage)
            return (card.w * scale * card.h * scale) / (width * height)
        }

        /// The fraction of the screen's width a card covers.
        func widthCoverage(of card: CardTransform, on stage: StageSize) -> Double {
            card.w * scale(of: stage) / width
        }
    }

    static let tv = Screen(width: 1920, height: 1080)
    static let ultrawide = Screen(width: 2560, height: 1080)
    static let phone = Screen(width: 390, height: 844)
    static let portraitTablet = Screen(width: 1080, height: 1920)

    static func photo(_ id: String, _ width: Int, _ height: Int) -> Photo {
        Photo(id: id, width: width, height: height)
    }

    /// The front card of a `frame` stack of `photos` as `screen` is sent it.
    func frontCard(_ photos: [Photo], on screen: Screen) -> (card: CardTransform, stage: StageSize) {
        let stack = Stack(photos: photos, style: .frame, seed: 1)
        let front = stack.drawnCards(at: now, on: screen.shape)[0]
        return (front.transform, stack.stage(for: screen.shape))
    }

    @Test(arguments: [
        (1920.0, 1080.0, ShapeClass.widescreen), (2560, 1080, .ultrawide), (390, 844, .tallPhone),
        (1080, 1920, .portraitWidescreen), (1024, 768, .standard), (1280, 800, .wide), (844, 390, .landscape213),
        (800, 800, .square), (768, 1024, .portraitStandard),
    ])
    func aWindowFallsInTheNearestClass(width: Double, height: Double, shape: ShapeClass) {
        #expect(ShapeClass(width: width, height: height) == shape)
        #expect(ShapeClass(reported: "\(Int(width))x\(Int(height))") == shape)
        #expect(shape.aspectRange.contains(width / height))
    }

    @Test(arguments: ["", "1920", "1920x", "x1080", "0x1080", "1920x-1", "axb", "1e400x1", "1920x1080x3"])
    func aMalformedSizeIsNoShape(text: String) {
        #expect(ShapeClass(reported: text[...]) == nil)
    }

    @Test func theClassesTileEveryAspect() {
        let ranges = ShapeClass.allCases.map(\.aspectRange).sorted { $0.lowerBound < $1.lowerBound }
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == .infinity)
        for (lower, upper) in zip(ranges, ranges.dropFirst()) { #expect(lower.upperBound == upper.lowerBound) }
    }

    @Test func aShapedStageHoldsTheRoomStageAndHasTheClassAspect() {
        for shape in ShapeClass.allCases {
            let stage = StageSize.default.shaped(shape)
            #expect(stage.width >= 1024 && stage.height >= 768)
            #expect(abs(stage.width / stage.height - shape.aspect) < 1e-9)
            #expect(stage.width == 1024 || stage.height == 768)
        }
        #expect(StageSize.default.shaped(.standard) == .default)
    }

    @Test func aWidescreenPhotoFillsAWidescreenTV() {
        let (card, stage) = frontCard([Self.photo("p0", 1600, 900), Self.photo("p1", 1600, 900)], on: Self.tv)
        #expect(Self.tv.coverage(of: card, on: stage) >= 0.95)
        // On the room's 4:3 stage, fitted into the TV, it was 56 %.
        let roomStack = Stack(photos: [Self.photo("p0", 1600, 900)], style: .frame, seed: 1)
        #expect(Self.tv.coverage(of: roomStack.drawnCards(at: now)[0].transform, on: .default) < 0.57)
    }

    /// Every screen the page is tried on, and both orientations of the phone and the tablet.
    static let screens: [(Double, Double)] = [
        (390, 844), (844, 390), (820, 1180), (1180, 820), (1366, 768), (1920, 1080), (3840, 2160), (2560, 1080),
        (1080, 1920), (768, 1024), (1024, 768), (1280, 800), (360, 800), (412, 915),
    ]

    /// No band to speak of on any shape: a photo of the screen's own shape covers at least 95 % of
    /// it (with the classes of old, 820×1180 had 82 %, 1180×820 69 %, 844×390 71 %).
    @Test(arguments: screens)
    func aPhotoOfTheScreensShapeCoversIt(width: Double, height: Double) {
        let screen = Screen(width: width, height: height)
        let photo = Self.photo("p0", Int(width), Int(height))
        let (card, stage) = frontCard([photo, photo], on: screen)
        #expect(screen.coverage(of: card, on: stage) >= 0.95, "\(Int(width))×\(Int(height)) on \(screen.shape)")
    }

    /// Between 9:19.5 and 21:9 no aspect is more than 2.6 % from a class: 95 % covered at worst.
    @Test func noAspectIsFarFromAClass() {
        let aspects = ShapeClass.allCases.map(\.aspect).sorted()
        for (lower, upper) in zip(aspects, aspects.dropFirst()) { #expect(upper / lower <= 1 / 0.95) }
        #expect(aspects.first == 9 / 19.5 && aspects.last == 21.0 / 9)
    }

    @Test func anUltrawidePhotoFillsAnUltrawideScreen() {
        let (card, stage) = frontCard([Self.photo("p0", 2100, 900)], on: Self.ultrawide)
        #expect(Self.ultrawide.coverage(of: card, on: stage) >= 0.90)
    }

    @Test(arguments: [(3, 4), (2, 3), (9, 16)])
    func aPortraitPhotoFillsAPortraitPhonesWidth(width: Int, height: Int) {
        let photos = [Self.photo("p0", width * 300, height * 300), Self.photo("p1", width * 300, height * 300)]
        let (card, stage) = frontCard(photos, on: Self.phone)
        #expect(Self.phone.widthCoverage(of: card, on: stage) >= 0.90)
        let (tabletCard, tabletStage) = frontCard(photos, on: Self.portraitTablet)
        #expect(Self.portraitTablet.widthCoverage(of: tabletCard, on: tabletStage) >= 0.90)
    }

    @Test func portraitsPairOnALandscapeScreenAtOneHeight() {
        let stack = Stack(
            photos: [Self.photo("p0", 900, 1200), Self.photo("p1", 800, 1200), Self.photo("p2", 1600, 900)],
            style: .frame, seed: 1)
        let stage = stack.stage(for: .widescreen)
        let drawn = stack.drawnCards(at: now, on: .widescreen).map(\.transform)
        #expect(drawn.prefix(2).map(\.opacity) == [1, 1])
        let (left, right) = (drawn[0], drawn[1])
        #expect(left.h == right.h)
        #expect(left.y == right.y)
        #expect(abs(left.w / left.h - 0.75) < 1e-9 && abs(right.w / right.h - 2.0 / 3) < 1e-9)
        let gap = (right.x - right.w / 2) - (left.x + left.w / 2)
        #expect(abs(gap - FrameLayout.gap) < 1e-9)
        #expect(left.x - left.w / 2 >= 0 && right.x + right.w / 2 <= stage.width)
        #expect(left.h == stage.height, "as tall as the screen: 3:4 + 2:3 are narrower than 16:9")
        let pairWidth = (left.w + right.w + FrameLayout.gap) * Self.tv.scale(of: stage)
        #expect(abs((left.x - left.w / 2) - (stage.width - (right.x + right.w / 2))) < 1e-9, "centred")
        #expect(pairWidth / Self.tv.width > 0.75)
    }

    @Test func aPortraitScreenShowsTheFirstPhotoOfAPairAlone() {
        let photos = [Self.photo("p0", 900, 1200), Self.photo("p1", 800, 1200), Self.photo("p2", 1600, 900)]
        let stack = Stack(photos: photos, style: .frame, seed: 1)
        let drawn = stack.drawnCards(at: now, on: .tallPhone).map(\.transform)
        #expect(drawn.prefix(2).map(\.opacity) == [1, 0])
        #expect(Self.phone.widthCoverage(of: drawn[0], on: stack.stage(for: .tallPhone)) >= 0.90)
    }

    @Test func aStepIsTheSameMotionOnEveryScreenEndingAtEachScreensPlace() throws {
        var stack = Stack(photos: [Self.photo("p0", 1600, 900), Self.photo("p1", 1600, 900)], style: .frame, seed: 1)
        let change = try stack.handle(.command(.next), at: now)
        let room = try #require(change.cards.first { $0.id == "c1" }?.animation)
        let tv = try #require(stack.reshaped(change, on: .widescreen).cards.first { $0.id == "c1" }?.animation)
        #expect(tv.start == room.start && tv.duration == room.duration && tv.curve == room.curve)
        #expect(tv.from.opacity == 0 && tv.to.opacity == 1)
        let rest = stack.drawnCards(at: now + 5000, on: .widescreen)[0].transform
        #expect(tv.to == rest)
        #expect(rest.w == stack.stage(for: .widescreen).width && rest.h == 768)
        #expect(change.removed == stack.reshaped(change, on: .widescreen).removed)
    }

    @Test func theRoomsOwnShapeIsSentTheRoomsLayout() throws {
        var stack = Fixture.stack()
        #expect(stack.showsRoomStage(.standard) && stack.showsRoomStage(nil))
        #expect(stack.drawnCards(at: now, on: .standard) == stack.drawnCards(at: now))
        let change = try stack.handle(.command(.next), at: now)
        #expect(stack.reshaped(change, on: .standard) == change)
    }

    @Test func aFlownCardLeavesEveryScreen() throws {
        var stack = Stack(photos: Fixture.photos(5), style: .pile, seed: 7)
        try stack.apply(Fixture.drag(speed: 2000, duration: 100))
        let flying = try #require(stack.drawnCards(at: now + 100, on: .tallPhone).first { $0.id == "c0" })
        let end = try #require(flying.animation?.to)
        #expect(stack.stage(for: .tallPhone).isOutOfView(end))
    }

    /// The pile's card on a phone is larger than on the room's stage: a press near its edge lies off
    /// the room's card, and must still take it, and the drag move it as far as the finger.
    @Test func aPressOnAPhonesCardTakesThatCardAndDragsItAsFar() throws {
        var stack = Stack(photos: Fixture.photos(5), style: .pile, seed: 7)
        let phoneCard = stack.drawnCards(at: now, on: .tallPhone)[0].transform
        let roomCard = stack.drawnCards(at: now)[0].transform
        #expect(phoneCard.w > roomCard.w)
        var presses = PressMapper()
        let edge = Point(x: phoneCard.x + phoneCard.w * 0.45, y: phoneCard.y)
        let down = presses.map(Fixture.input(.down, edge.x, edge.y, t: 1000), on: .tallPhone, stack: stack, at: now)
        #expect(roomCard.contains(Point(x: down.x, y: down.y)))
        _ = try stack.handle(.pointer(down), at: now)
        #expect(stack.holder == "v1")
        let move = presses.map(
            Fixture.input(.move, edge.x - 50, edge.y, t: 1100), on: .tallPhone, stack: stack, at: now + 100)
        #expect(move.x == down.x - 50 && move.y == down.y)
        _ = try stack.handle(.pointer(move), at: now + 100)
        let dragged = stack.drawnCards(at: now + 100, on: .tallPhone)[0].transform
        #expect(abs(dragged.x - (phoneCard.x - 50)) < 1e-9, "the phone's card follows the finger")
    }

    @Test func aPressOffEveryCardKeepsItsPlaceFromTheCentre() {
        let stack = Stack(photos: Fixture.photos(5), style: .angles, seed: 7)
        let stage = stack.stage(for: .tallPhone)
        let point = stack.roomPoint(pressedAt: Point(x: 20, y: 30), on: .tallPhone, at: now)
        #expect(point == Point(x: 20 - (stage.width - 1024) / 2, y: 30 - (stage.height - 768) / 2))
    }

    @Test(arguments: [StyleName.pile, .deck, .swipe, .grid, .angles])
    func everyStyleUsesMoreOfAPortraitPhone(style: StyleName) {
        let stack = Stack(photos: Fixture.photos(12), style: style, seed: 7)
        let phoneStage = stack.stage(for: .tallPhone)
        let phoneFront = stack.drawnCards(at: now, on: .tallPhone)[0].transform
        let roomFront = stack.drawnCards(at: now)[0].transform
        let onPhone = Self.phone.coverage(of: phoneFront, on: phoneStage)
        let onRoom = Self.phone.coverage(of: roomFront, on: .default)
        #expect(onPhone > onRoom * 1.5, "\(style): \(onPhone) against \(onRoom) of the phone")
    }

    @Test(arguments: [StyleName.pile, .deck, .swipe, .grid, .angles])
    func everyStyleKeepsItsCardsOnAWidescreenStage(style: StyleName) {
        let stack = Stack(photos: Fixture.photos(12), style: style, seed: 7)
        let stage = stack.stage(for: .widescreen)
        for card in stack.drawnCards(at: now, on: .widescreen) where card.transform.opacity > 0 {
            let t = card.transform
            #expect(t.x - t.w / 2 >= -1 && t.x + t.w / 2 <= stage.width + 1, "\(style) \(card.id) inside")
            #expect(t.y - t.h / 2 >= -40 && t.y + t.h / 2 <= stage.height + 1, "\(style) \(card.id) inside")
        }
    }

    /// A 4:1 panorama after a 4:3 photo, and another 4:3 photo.
    static let panoramaPhotos = [photo("p0", 1200, 900), photo("p1", 4000, 1000), photo("p2", 1200, 900)]

    @Test func aPanoramaPansSlowlyAtAPhonesFullHeightFromWhenItCameToTheFront() throws {
        var stack = Stack(photos: Self.panoramaPhotos, style: .frame, seed: 1)
        let change = try stack.handle(.command(.next), at: now)
        let phone = try #require(stack.reshaped(change, on: .tallPhone).cards.first { $0.id == "c1" })
        let pan = try #require(phone.animation)
        let stage = stack.stage(for: .tallPhone)
        #expect(pan.curve == .linear && pan.start == now && pan.duration >= FrameLayout.shortestPan)
        #expect(pan.from.h == stage.height && pan.to.h == stage.height && pan.from.w == 4 * stage.height)
        #expect(pan.from.x - pan.from.w / 2 == 0, "starts at its left end")
        #expect(abs((pan.to.x + pan.to.w / 2) - stage.width) < 1e-9, "ends at its right end")
        #expect(pan.from.opacity == 1, "whole under the outgoing photo, which fades out over it")
        // A viewer joining mid-pan continues it.
        let joined = try #require(stack.drawnCards(at: now + 3000, on: .tallPhone).first { $0.id == "c1" })
        #expect(joined.animation == pan)
        // Where it would fill a third or more (the room's 4:3 stage, a TV) it is fitted whole, still.
        let tv = try #require(stack.drawnCards(at: now + 3000, on: .widescreen).first { $0.id == "c1" })
        #expect(tv.animation == nil && tv.transform.w == stack.stage(for: .widescreen).width)
        #expect(try #require(stack.drawnCards(at: now + 3000).first { $0.id == "c1" }).animation == nil)
    }

    @Test func aPanoramaHeldByADragDoesNotPan() throws {
        var stack = Stack(photos: Self.panoramaPhotos, style: .frame, seed: 1)
        _ = try stack.handle(.command(.next), at: now)
        _ = try stack.handle(Fixture.pointer(.down, 500, 400, t: 1000), at: now + 5000)
        _ = try stack.handle(Fixture.pointer(.move, 450, 400, t: 1050), at: now + 5050)
        let held = try #require(stack.drawnCards(at: now + 5050, on: .tallPhone).first { $0.id == "c1" })
        #expect(held.animation == nil)
    }

    @Test func onlyAPanoramaPans() {
        let layout = FrameLayout(stage: StageSize.default.shaped(.tallPhone), pair: nil)
        #expect(layout.pan(of: Self.photo("p", 1600, 900), position: 0) == nil, "16:9 is no panorama")
        #expect(layout.pan(of: Self.photo("p", 2100, 900), position: 0) == nil, "nor 21:9")
        #expect(layout.pan(of: Self.photo("p", 4000, 1000), position: 1) == nil, "only the front one")
        #expect(layout.pan(of: Self.photo("p", 4000, 1000), position: 0) != nil)
        let wide = FrameLayout(stage: StageSize.default.shaped(.ultrawide), pair: nil)
        #expect(wide.pan(of: Self.photo("p", 4000, 1000), position: 0) == nil, "fills over a third of 21:9")
        // A tall panorama on a TV: across the full width, from its top end down.
        let tv = FrameLayout(stage: StageSize.default.shaped(.widescreen), pair: nil)
        let pan = tv.pan(of: Self.photo("p", 1000, 4000), position: 0)
        #expect(pan?.from.w == tv.stage.width && pan?.from.h == 4 * tv.stage.width)
        #expect(pan.map { $0.from.y - $0.from.h / 2 == 0 && abs($0.to.y + $0.to.h / 2 - 768) < 1e-9 } == true)
    }
}

/// Cards seen from a sofa: in angles, deck and swipe the front card is at least 35 % of a 1080p
/// TV's height, with the original's proportions (square; the deck card's 335 × 467).
@Suite struct TenFootCardTests {
    @Test(arguments: [StyleName.angles, .deck, .swipe])
    func theFrontCardIsOverAThirdOfATVsHeight(style: StyleName) throws {
        let tv = ShapeLayoutTests.Screen(width: 1920, height: 1080)
        let stack = Stack(photos: Fixture.photos(5), style: style, seed: 1)
        let front = try #require(stack.drawnCards(at: Fixture.now, on: tv.shape).first).transform
        let stage = stack.stage(for: tv.shape)
        let height = front.h * front.scaleY * tv.scale(of: stage)
        #expect(height / tv.height >= 0.35, "\(style): \(height) px of 1080")
        let aspect = front.w / front.h
        let original = style == .angles ? 1 : (375 - 40) / (667 - 200.0)
        #expect(abs(aspect - original) < 0.03, "\(style): \(aspect)")
    }
}
