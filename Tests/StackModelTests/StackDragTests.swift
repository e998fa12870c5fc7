import Testing

@testable import StackModel

@Suite struct StackDragTests {
    let now = Fixture.now
    let rest = Fixture.rest()

    @Test func grabbingAtRestChangesNothingThenTheCardFollowsThePointer() throws {
        var stack = Fixture.stack()
        #expect(try stack.handle(Fixture.pointer(.down, 512, 384, t: 1000), at: now) == StackChange())
        let change = try stack.handle(Fixture.pointer(.move, 612, 334, t: 1016), at: now + 16)
        #expect(change == StackChange(cards: [Fixture.drawn(0, position: 0, z: 5, Fixture.moved(rest, 100, -50))]))
        #expect(stack.nextDeadline == now + 16 + 3000)
    }

    @Test func theGrabOffsetIsKept() throws {
        var stack = Fixture.stack()
        try stack.apply([(Fixture.pointer(.down, 700, 500, t: 1000), now)])
        let change = try stack.handle(Fixture.pointer(.move, 710, 520, t: 1016), at: now + 16)
        #expect(change.cards == [Fixture.drawn(0, position: 0, z: 5, Fixture.moved(rest, 10, 20))])
    }

    @Test func aDownOffTheTopCardIsIgnored() throws {
        var stack = Fixture.stack()
        #expect(try stack.handle(Fixture.pointer(.down, 10, 10, t: 1000), at: now) == StackChange())
        #expect(try stack.handle(Fixture.pointer(.move, 300, 300, t: 1016), at: now + 16) == StackChange())
        #expect(stack.nextDeadline == nil)
    }

    @Test func anotherPointerOrViewerCannotHijackTheDrag() throws {
        var stack = Fixture.stack()
        try stack.apply([(Fixture.pointer(.down, 512, 384, t: 1000), now)])
        let intruders: [StackEvent] = [
            Fixture.pointer(.down, 512, 384, t: 1005, pointer: 2),
            Fixture.pointer(.move, 600, 384, t: 1010, pointer: 2),
            Fixture.pointer(.up, 600, 384, t: 1015, pointer: 2), Fixture.pointer(.down, 512, 384, t: 50, viewer: "v2"),
            Fixture.pointer(.move, 700, 384, t: 60, viewer: "v2"),
            Fixture.pointer(.cancel, 700, 384, t: 70, viewer: "v2"),
        ]
        for (index, event) in intruders.enumerated() {
            #expect(try stack.handle(event, at: now + Millis(index + 1)) == StackChange())
        }
        let change = try stack.handle(Fixture.pointer(.move, 542, 384, t: 1030), at: now + 30)
        #expect(change.cards == [Fixture.drawn(0, position: 0, z: 5, Fixture.moved(rest, 30))])
    }

    @Test func cancelSpringsTheCardBack() throws {
        var stack = Fixture.stack()
        try stack.apply([
            (Fixture.pointer(.down, 512, 384, t: 1000), now), (Fixture.pointer(.move, 562, 384, t: 1016), now + 16),
        ])
        let change = try stack.handle(Fixture.pointer(.cancel, 562, 384, t: 1020), at: now + 32)
        let back = Fixture.settle(from: Fixture.moved(rest, 50), to: rest, start: now + 32)
        #expect(change == StackChange(cards: [Fixture.drawn(0, position: 0, z: 5, rest, animation: back)]))
        #expect(stack.nextDeadline == nil)
        #expect(try stack.handle(Fixture.pointer(.move, 600, 384, t: 1030), at: now + 40) == StackChange())
    }

    @Test func aGestureSilentForThreeSecondsOfServerTimeEndsAtTheTick() throws {
        var stack = Fixture.stack()
        try stack.apply([
            (Fixture.pointer(.down, 512, 384, t: 1000), now), (Fixture.pointer(.move, 562, 384, t: 1016), now + 16),
        ])
        #expect(stack.nextDeadline == now + 3016)
        #expect(try stack.handle(.tick, at: now + 3015) == StackChange())
        let change = try stack.handle(.tick, at: now + 3016)
        let back = Fixture.settle(from: Fixture.moved(rest, 50), to: rest, start: now + 3016)
        #expect(change == StackChange(cards: [Fixture.drawn(0, position: 0, z: 5, rest, animation: back)]))
        #expect(stack.nextDeadline == nil)
    }

    @Test func aMoveOlderThanTheNewestIsNotApplied() throws {
        var stack = Fixture.stack()
        try stack.apply([
            (Fixture.pointer(.down, 512, 384, t: 1000), now), (Fixture.pointer(.move, 532, 384, t: 1020), now + 20),
        ])
        #expect(try stack.handle(Fixture.pointer(.move, 522, 384, t: 1010), at: now + 21) == StackChange())
        #expect(stack.drawnCards(at: now + 21)[0].transform == Fixture.moved(rest, 20))
    }

    @Test(arguments: [(799.0, false), (801, true)])
    func aShortThrowFliesFromEightHundredPointsPerSecond(speed: Double, flies: Bool) throws {
        var stack = Fixture.stack()
        // 100 ms at this speed covers about 80 pt, short of the 119.04-pt flick distance.
        let change = try stack.apply(Fixture.drag(speed: speed, duration: 100))
        #expect(stack.current == (flies ? 1 : 0))
        #expect(change.summaryChanged == flies)
        if !flies {
            let card = try #require(change.cards.first)
            let animation = try #require(card.animation)
            #expect(change.cards.count == 1 && card.id == "c0" && card.transform == rest)
            #expect(animation.from == Fixture.moved(rest, speed / 10))
            // Still moving right at release: the spring starts away from home at speed / distance.
            guard case .spring(_, _, _, let velocity) = animation.curve else { throw Unexpected.curve }
            #expect(abs(velocity + 10) < 1e-9)
        }
    }

    @Test(arguments: [(594.7, false), (595.7, true)])
    func aSlowDragFliesFromAQuarterOfTheShortSide(speed: Double, flies: Bool) throws {
        var stack = Fixture.stack()
        // 200 ms covers 118.94 or 119.14 pt; then the finger rests 150 ms, so the velocity is zero.
        let change = try stack.apply(Fixture.drag(speed: speed, duration: 200, hold: 150))
        #expect(stack.current == (flies ? 1 : 0))
        let card = try #require(change.cards.last)
        #expect(card.id == "c0")
        if flies {
            #expect(card.transform.x > 1024 + Fixture.cardWidth / 2 && card.transform.y == 384)
        } else {
            #expect(card.animation == Fixture.settle(from: Fixture.moved(rest, speed / 5), to: rest, start: now + 350))
        }
    }

    @Test(arguments: [-300.0, -900])
    func aReleaseMovingBackTowardHomeSpringsBack(backSpeed: Double) throws {
        var stack = Fixture.stack()
        // 200 pt right at 1000 pt/s, then back for 100 ms at `backSpeed`: still far, or fast, but homeward.
        var events: [(event: StackEvent, at: Millis)] = [(Fixture.pointer(.down, 512, 384, t: 1000), now)]
        for step in 1...20 {
            events.append(
                (
                    Fixture.pointer(.move, 512 + Double(step) * 10, 384, t: 1000 + Millis(step) * 10),
                    now + Millis(step) * 10
                ))
        }
        for step in 1...10 {
            let x = 712 + backSpeed * Double(step) / 100
            events.append(
                (
                    Fixture.pointer(step == 10 ? .up : .move, x, 384, t: 1200 + Millis(step) * 10),
                    now + 200 + Millis(step) * 10
                ))
        }
        let change = try stack.apply(events)
        #expect(stack.current == 0 && !change.summaryChanged)
        #expect(change.cards.map(\.id) == ["c0"] && change.cards[0].transform == rest)
    }

    @Test func aGrabMidSpringStartsWhereTheCardIsNow() throws {
        var stack = Fixture.stack()
        // Released 100 pt out with no speed: springs back.
        try stack.apply([
            (Fixture.pointer(.down, 512, 384, t: 1000), now), (Fixture.pointer(.move, 612, 384, t: 1050), now + 50),
            (Fixture.pointer(.up, 612, 384, t: 1300), now + 300),
        ])
        let back = Fixture.settle(from: Fixture.moved(rest, 100), to: rest, start: now + 300)
        let midway = back.value(at: now + 350)
        #expect(midway.x > 512 && midway.x < 612)
        let grabbed = try stack.handle(Fixture.pointer(.down, 560, 384, t: 2000), at: now + 350)
        #expect(grabbed == StackChange(cards: [Fixture.drawn(0, position: 0, z: 5, midway)]))
        let dragged = try stack.handle(Fixture.pointer(.move, 570, 384, t: 2016), at: now + 366)
        #expect(dragged.cards == [Fixture.drawn(0, position: 0, z: 5, Fixture.moved(midway, 10))])
    }

    @Test(arguments: [(9.9, 100.0, true), (10.1, 100, false), (0, 299, true), (0, 301, false)])
    func aTapTogglesTheHighlightAndADragDoesNot(movement: Double, duration: Millis, isTap: Bool) throws {
        var stack = Fixture.stack()
        let change = try stack.apply([
            (Fixture.pointer(.down, 512, 384, t: 1000), now),
            (Fixture.pointer(.move, 512 + movement, 384, t: 1000 + duration / 2), now + 5),
            (Fixture.pointer(.up, 512 + movement, 384, t: 1000 + duration), now + 10),
        ])
        #expect(stack.drawnCards(at: now + 10)[0].highlight == isTap)
        if movement == 0 {
            let expected = isTap ? [Fixture.drawn(0, position: 0, z: 5, rest, highlight: true)] : []
            #expect(change == StackChange(cards: expected))
        }
    }

    @Test func aDoubleTapKeepsTheHighlightAndShowsTheTopCardFullStageAndBack() throws {
        var stack = Fixture.stack()
        let tap: (Millis) -> [(event: StackEvent, at: Millis)] = { t in
            [
                (Fixture.pointer(.down, 512, 384, t: t), now + t),
                (Fixture.pointer(.up, 512, 384, t: t + 60), now + t + 60),
            ]
        }
        try stack.apply(tap(1000))
        #expect(stack.drawnCards(at: now + 1060)[0].highlight)
        // 400 × 300 fitted above the control bar (976 × 672 from (24, 24)): 896 × 672.
        let fullStage = StageSize.default.fullscreen(Photo(id: "p", width: 400, height: 300))
        #expect(
            try stack.apply(tap(1200))
                == StackChange(cards: [
                    Fixture.drawn(
                        0, position: 0, z: 5, fullStage, highlight: true,
                        animation: Fixture.settle(from: rest, to: fullStage, start: now + 1260))
                ]))
        #expect(stack.isFullscreen)
        // Once the card has settled full-stage (750 ms), a tap toggles the highlight and a double tap returns.
        try stack.apply(tap(3000))
        #expect(!stack.drawnCards(at: now + 3060)[0].highlight && stack.isFullscreen)
        let back = try stack.apply(tap(3200))
        #expect(
            back.cards == [
                Fixture.drawn(
                    0, position: 0, z: 5, rest, animation: Fixture.settle(from: fullStage, to: rest, start: now + 3260))
            ])
        #expect(!stack.isFullscreen)
    }

    enum Unexpected: Error { case curve }
}
