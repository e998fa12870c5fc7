import Testing

@testable import StackModel

@Suite struct StackSwipeTests {
    let now = Fixture.now
    static let layout = SwipeLayout(stage: .default, stacked: false)
    /// SMSwipeView's view width: 335 phone points on the fitted screen.
    static let w = 335 * (768.0 / 667)
    /// The front card's centre, where the drags below start.
    static let centre = Point(x: 512, y: 392)
    /// A quarter of the front card's short side (its width): the flick distance.
    static let flickDistance = w / 4

    static func slot(_ position: Int) -> CardTransform {
        layout.restTransform(of: Photo(id: "p", width: 4, height: 3), tilt: 0, position: position)
    }

    /// A horizontal drag from the front card's centre at `speed` (points per second, negative: left)
    /// for `duration` ms, then still for `hold` ms; page time from 1000, server time from `start`.
    static func swipe(speed: Double, duration: Millis, hold: Millis = 0, start: Millis = Fixture.now)
        -> [(event: StackEvent, at: Millis)]
    {
        Fixture.drag(speed: speed, duration: duration, hold: hold).map { step in
            guard case .pointer(var input) = step.event else { return step }
            input.y = centre.y
            input.x += centre.x - Fixture.centre.x
            return (.pointer(input), step.at - Fixture.now + start)
        }
    }

    @Test func threeCardsAreDrawnInSMSwipeViewsFrames() {
        let stack = Fixture.stack(.swipe, cards: 5)
        #expect(stack.drawnCards(at: now) == (0..<3).map { Fixture.drawn($0, position: $0, z: 5 - $0, Self.slot($0)) })
    }

    @Test func stackedModeFadesTheCardsBehind() {
        let stack = Fixture.stack(.swipe, cards: 5, stacked: true)
        #expect(stack.drawnCards(at: now).map(\.transform.opacity) == [1, 0.5, 0.3])
    }

    /// The front card dragged by `dx` from the centre: moved with the pointer and turned about it by
    /// 15°·dx/w; the next card eased toward the front slot by |dx|/w, straight.
    static func front(dragged dx: Double) -> CardTransform {
        Fixture.moved(slot(0), dx).turned(
            by: SwipeLayout.maxTilt * (dx / w), about: Point(x: centre.x + dx, y: centre.y))
    }

    static func next(dragged dx: Double) -> CardTransform {
        CardTransform.interpolate(slot(1), slot(0), progress: -dx / w)
    }

    @Test func draggingLeftTurnsTheFrontCardAboutThePointerAndEasesTheNextIn() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        try stack.apply([(Fixture.pointer(.down, 512, 392, t: 1000), now)])
        let change = try stack.handle(Fixture.pointer(.move, 412, 392, t: 1016), at: now + 16)
        #expect(
            change
                == StackChange(cards: [
                    Fixture.drawn(0, position: 0, z: 5, Self.front(dragged: -100)),
                    Fixture.drawn(1, position: 1, z: 4, Self.next(dragged: -100)),
                ]))
        // Dragging right at the first card resists: the front card moves a fraction, the next stays.
        let right = try stack.handle(Fixture.pointer(.move, 562, 392, t: 1032), at: now + 32)
        #expect(
            right
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 0, z: 5, Fixture.moved(Self.slot(0), SwipeLayout.rubberBanded(50, limit: Self.w))),
                    Fixture.drawn(1, position: 1, z: 4, Self.slot(1)),
                ]))
    }

    @Test func aSwipeLeftFliesTheFrontCardOutAndShiftsTheOthersAfterSMSwipeViewsTimings() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        let change = try stack.apply(Self.swipe(speed: -1500, duration: 60))
        let release = now + 60
        var straight = Self.front(dragged: -90)
        straight.rotation = 0
        let flightTarget = Fixture.offLeft(straight)
        let expected = StackChange(
            cards: [
                // The card the drag eased in goes on at once; the others wait for the flight.
                Fixture.drawn(
                    1, position: 0, z: 5, Self.slot(0),
                    animation: Fixture.tween(
                        from: Self.next(dragged: -90), to: Self.slot(0), start: release, duration: 200)),
                Fixture.drawn(
                    2, position: 1, z: 4, Self.slot(1),
                    animation: Fixture.tween(
                        from: Self.slot(2), to: Self.slot(1), start: release, duration: 200, delay: 300)),
                // Under the old third until it moves: SMSwipeView slides a new third in there.
                Fixture.drawn(3, position: 2, z: 3, Self.slot(2)),
                Fixture.drawn(
                    0, position: 4, z: 6, flightTarget,
                    animation: Fixture.tween(
                        from: Self.front(dragged: -90), to: flightTarget, start: release, duration: 300)),
            ], summaryChanged: true)
        #expect(change == expected, "\(Fixture.differences(change, expected))")
        #expect(stack.nextDeadline == release + 300)
        #expect(try stack.handle(.tick, at: release + 300) == StackChange(removed: ["c0"]))
    }

    @Test func aSwipeRightBringsThePreviousCardBackFromTheLeftInHalfASecond() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        _ = try stack.handle(.command(.next), at: now)
        try stack.settle()
        let start = now + 2000
        let change = try stack.apply(Self.swipe(speed: 1500, duration: 60, start: start))
        let release = start + 60
        #expect(
            change
                == StackChange(
                    cards: [
                        Fixture.drawn(
                            0, position: 0, z: 5, Self.slot(0),
                            animation: Fixture.tween(
                                from: Fixture.offLeft(Self.slot(0)), to: Self.slot(0), start: release, duration: 500)),
                        Fixture.drawn(
                            1, position: 1, z: 4, Self.slot(1),
                            animation: Fixture.tween(
                                from: Self.front(dragged: 90), to: Self.slot(1), start: release, duration: 500)),
                        Fixture.drawn(
                            2, position: 2, z: 3, Self.slot(2),
                            animation: Fixture.tween(
                                from: Self.slot(1), to: Self.slot(2), start: release, duration: 500)),
                    ], removed: ["c3"], summaryChanged: true))
    }

    @Test func swipingLeftWrapsAfterTheLastCardAndSwipingRightStopsAtTheFirst() throws {
        var stack = Fixture.stack(.swipe, cards: 3)
        var fronts: [Int] = []
        // The room ticks at every deadline: each flown card lands before the next swipe.
        for step in 0..<4 {
            try stack.apply(Self.swipe(speed: -1500, duration: 60, start: now + Millis(step) * 1000))
            try stack.settle()
            fronts.append(stack.current)
        }
        #expect(fronts == [1, 2, 0, 1])
        for step in 0..<3 {
            try stack.apply(Self.swipe(speed: 1500, duration: 60, start: now + 5000 + Millis(step) * 1000))
            fronts.append(stack.current)
        }
        #expect(fronts == [1, 2, 0, 1, 0, 0, 0])
        #expect(throws: Never.self) { try stack.handle(.command(.previous), at: now + 9000) }
        #expect(stack.current == 0)
    }

    @Test(arguments: [
        // (speed in points per second, negative: left; front card afterwards, from c1)
        (-799.0, 1), (-801, 2), (799, 1), (801, 0),
    ])
    func aThrowSwipesFromEightHundredPointsPerSecond(speed: Double, front: Int) throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        _ = try stack.handle(.command(.next), at: now)
        try stack.settle()
        // 60 ms at 800 pt/s is 48 pt, well short of the flick distance.
        try stack.apply(Self.swipe(speed: speed, duration: 60, start: now + 2000))
        #expect(stack.current == front)
    }

    @Test(arguments: [-1.0, 1])
    func aSlowDragSwipesFromAQuarterOfTheCardsWidth(side: Double) throws {
        for distance in [Self.flickDistance - 0.1, Self.flickDistance + 0.1] {
            var stack = Fixture.stack(.swipe, cards: 5)
            _ = try stack.handle(.command(.next), at: now)
            try stack.settle()
            // 200 ms to cover the distance, then the finger rests 150 ms: no speed at release.
            try stack.apply(Self.swipe(speed: side * distance * 5, duration: 200, hold: 150, start: now + 2000))
            let swiped = distance > Self.flickDistance
            #expect(stack.current == (swiped ? (side < 0 ? 2 : 0) : 1))
        }
    }

    @Test func aVerticalThrowIsNotASwipe() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        var events: [(event: StackEvent, at: Millis)] = [(Fixture.pointer(.down, 512, 392, t: 1000), now)]
        for step in 1...6 {
            events.append(
                (
                    Fixture.pointer(.move, 512, 392 + Double(step) * 30, t: 1000 + Millis(step) * 10),
                    now + Millis(step) * 10
                ))
        }
        events.append((Fixture.pointer(.up, 512, 572, t: 1060), now + 60))
        let change = try stack.apply(events)
        #expect(stack.current == 0 && !change.summaryChanged)
    }

    @Test(arguments: [PointerInput.Phase.cancel, .down])
    func aCancelOrALostUpReturnsTheTiltedCards(ending: PointerInput.Phase) throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        try stack.apply([
            (Fixture.pointer(.down, 512, 392, t: 1000), now), (Fixture.pointer(.move, 412, 392, t: 1016), now + 16),
        ])
        let change: StackChange
        if ending == .cancel {
            change = try stack.handle(Fixture.pointer(.cancel, 412, 392, t: 1020), at: now + 20)
        } else {
            // No up: the gesture times out 3 s after its last sample.
            change = try stack.handle(.tick, at: now + 3016)
        }
        let at = ending == .cancel ? now + 20 : now + 3016
        #expect(
            change
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 0, z: 5, Self.slot(0),
                        animation: Fixture.settle(from: Self.front(dragged: -100), to: Self.slot(0), start: at)),
                    Fixture.drawn(
                        1, position: 1, z: 4, Self.slot(1),
                        animation: Fixture.settle(from: Self.next(dragged: -100), to: Self.slot(1), start: at)),
                ]))
    }

    @Test func swipesAreUndone() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        try stack.apply(Self.swipe(speed: -1500, duration: 60))
        try stack.settle()
        try stack.apply(Self.swipe(speed: -1500, duration: 60, start: now + 1000))
        try stack.settle()
        try stack.apply(Self.swipe(speed: 1500, duration: 60, start: now + 2000))
        #expect(stack.current == 1)
        _ = try stack.handle(.command(.undo), at: now + 3000)
        #expect(stack.current == 2)
        _ = try stack.handle(.command(.undo), at: now + 3010)
        _ = try stack.handle(.command(.undo), at: now + 3020)
        #expect(stack.current == 0)
        try stack.settle()
        #expect(stack.resting == Fixture.stack(.swipe, cards: 5).drawnCards(at: now))
    }

    @Test func aDoubleTapShowsTheFrontCardFullStage() throws {
        var stack = Fixture.stack(.swipe, cards: 5)
        try stack.apply(Fixture.tap(512, 392, t: 1000) + Fixture.tap(512, 392, t: 1100))
        #expect(stack.isFullscreen)
        #expect(
            stack.drawnCards(at: now + 5000)[0].transform
                == StageSize.default.fullscreen(Photo(id: "p", width: 400, height: 300)))
    }
}
