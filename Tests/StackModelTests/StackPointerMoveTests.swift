import Testing

@testable import StackModel

/// The pointer move's short way (`Stack.pointerMoved`) against the full way (`Stack.handleInFull`):
/// over random gestures, commands and clock ticks in every style, `handle` returns the same change
/// and leaves the same state as the full way, event after event.
@Suite struct StackPointerMoveTests {
    static let styles: [(StyleName, Bool)] = [
        (.pile, false), (.angles, false), (.grid, false), (.deck, false), (.swipe, false), (.swipe, true),
        (.frame, false),
    ]

    @Test(arguments: styles, [1, 2, 3, 6, 12])
    func aMoveChangesWhatTheFullWayChanges(style: (name: StyleName, stacked: Bool), cards: Int) throws {
        var taken = 0
        var redrawn = 0
        for seed in UInt64(1)...6 {
            var script = Script(seed: seed &* 7919 &+ UInt64(cards), photos: cards)
            var quick = Fixture.stack(style.name, cards: cards, seed: seed, stacked: style.stacked)
            var full = quick
            for number in 0..<250 {
                let (event, now) = script.next(for: full)
                if case .pointer(let input) = event {
                    var probe = quick
                    if let change = probe.pointerMoved(input, at: now) {
                        taken += 1
                        redrawn += change.cards.count
                    }
                }
                guard step(event, at: now, quick: &quick, full: &full, "seed \(seed), event \(number)") else { return }
            }
        }
        // The short way must have been taken, and have moved cards where the style drags them.
        #expect(taken > 300)
        if Stack.layout(for: style.name, stage: Fixture.stage, swipeStacked: false).draggedLayers > 0 {
            #expect(redrawn > 50)
        }
    }

    /// Drags of the top card in 16 directions, each to 13 lengths from under the tap slop to past
    /// the deck's fly-out, while the cards of a `next` are still moving, then released and ticked out.
    @Test(arguments: styles)
    func aDragInEveryDirectionChangesWhatTheFullWayChanges(style: (name: StyleName, stacked: Bool)) throws {
        var quick = Fixture.stack(style.name, cards: 7, stacked: style.stacked)
        var full = quick
        var now = Fixture.now
        for direction in 0..<16 {
            let angle = Double(direction) * .pi / 8
            for length in stride(from: 5.0, through: 305, by: 25) {
                let events =
                    [(StackEvent.command(.next), now)] + drag(in: quick, angle: angle, length: length, from: now)
                for (event, time) in events {
                    guard step(event, at: time, quick: &quick, full: &full, "direction \(direction), \(length) pt")
                    else { return }
                }
                now = events.last!.1 + 40
                while let deadline = quick.nextDeadline, deadline <= now {
                    guard step(.tick, at: deadline, quick: &quick, full: &full, "tick") else { return }
                }
            }
        }
    }

    /// A press on the top card, 12 moves 8 ms apart along `angle` to `length`, and the release.
    private func drag(in stack: Stack, angle: Double, length: Double, from start: Millis) -> [(StackEvent, Millis)] {
        let top = stack.drawnCards(at: start).first?.transform ?? Fixture.rest()
        let t = start - Fixture.now
        var events = [(Fixture.pointer(.down, top.x, top.y, t: t), start + 4)]
        for index in 1...12 {
            let reach = length * Double(index) / 12
            let x = top.x + reach * Elementary.cos(angle)
            let y = top.y + reach * Elementary.sin(angle)
            let time = Millis(8 * index)
            events.append((Fixture.pointer(.move, x, y, t: t + time), start + 4 + time))
        }
        let end = events.last!.1
        if case .pointer(let last) = events.last!.0 {
            events.append((Fixture.pointer(.up, last.x, last.y, t: last.t + 8), end + 8))
        }
        return events
    }

    /// Applies `event` both ways and expects the same change, or the same error, and the same state.
    /// - Returns: whether the two stacks are still alike (nothing is learnt from comparing them later).
    private func step(
        _ event: StackEvent, at now: Millis, quick: inout Stack, full: inout Stack, _ context: String
    ) -> Bool {
        let quickChange = Result { () throws(StackError) in try quick.handle(event, at: now) }
        let fullChange = Result { () throws(StackError) in try full.handleInFull(event, at: now) }
        let context = "\(context): \(event) at \(now)"
        switch (quickChange, fullChange) {
        case (.success(let actual), .success(let expected)):
            #expect(actual == expected, "\(context)\n\(Fixture.differences(actual, expected))")
        case (.failure(let actual), .failure(let expected)):
            #expect(actual == expected, "\(context)")
        default:
            Issue.record("\(context): \(quickChange) ≠ \(fullChange)")
        }
        let differences = quick.stateDifferences(from: full)
        #expect(differences.isEmpty, "\(context): \(differences)")
        return differences.isEmpty
    }

    @Test(arguments: [StyleName.pile, .deck, .swipe, .frame])
    func aDragSendsOnlyTheCardsItMoves(style: StyleName) throws {
        var stack = Fixture.stack(style, cards: 8)
        let top = stack.drawnCards(at: Fixture.now)[0].transform
        try stack.apply([(Fixture.pointer(.down, top.x, top.y, t: 1000), Fixture.now)])
        let change = try stack.handle(Fixture.pointer(.move, top.x - 40, top.y + 5, t: 1016), at: Fixture.now + 16)
        let moved = change.cards.map(\.id)
        switch style {
        case .pile: #expect(moved == ["c0"])
        case .deck: #expect(moved == ["c0", "c1", "c2", "c3", "c4"])
        case .swipe, .frame: #expect(moved == ["c0", "c1"])
        case .angles, .grid: break
        }
        #expect(change.removed.isEmpty && !change.summaryChanged)
        // A swipe drag to the right at the first card only stretches the front card's rubber band:
        // the next card is back in its slot, and stays there.
        if style == .swipe {
            let right = try stack.handle(Fixture.pointer(.move, top.x + 40, top.y, t: 1032), at: Fixture.now + 32)
            #expect(right.cards.map(\.id) == ["c0", "c1"])
            let further = try stack.handle(Fixture.pointer(.move, top.x + 80, top.y, t: 1048), at: Fixture.now + 48)
            #expect(further.cards.map(\.id) == ["c0"])
        }
    }
}

/// Random events for a stack: mostly drags of the top card (moves near the pointer, now and then far
/// enough for the deck's fly-out, from another pointer or viewer, or out of order), with taps, commands
/// and the clock's ticks between them.
private struct Script {
    var random: SplitMix64
    let photos: Int
    var now = Fixture.now
    var pageTime: Millis = 1000
    var pointer = Fixture.centre

    init(seed: UInt64, photos: Int) {
        random = SplitMix64(seed: seed)
        self.photos = photos
    }

    mutating func next(for stack: Stack) -> (StackEvent, Millis) {
        let roll = random.next(in: 0...99)
        now += roll < 5 ? Millis(random.next(in: 200...3500)) : Millis(random.next(in: 0...40))
        pageTime += Millis(random.next(in: 0...40))
        switch roll {
        case 0..<12:
            pointer = pressPoint(in: stack)
            return (pointerEvent(.down), now)
        case 12..<70:
            let far = random.next(in: 0...9) == 0
            let reach = far ? 320 : 60
            pointer.x += Double(random.next(in: -reach...reach))
            pointer.y += Double(random.next(in: -reach / 2...reach / 2))
            return (pointerEvent(.move), now)
        case 70..<80:
            return (pointerEvent(.up), now)
        case 80..<83:
            return (pointerEvent(.cancel), now)
        case 83..<92:
            if let deadline = stack.nextDeadline, deadline > now, random.next(in: 0...1) == 0 { now = deadline }
            return (.tick, now)
        default:
            return (.command(command(for: stack)), now)
        }
    }

    /// The top card's centre mostly, anywhere on the stage otherwise.
    private mutating func pressPoint(in stack: Stack) -> Point {
        if random.next(in: 0...3) > 0, let top = stack.drawnCards(at: now).first?.transform {
            return Point(x: top.x + Double(random.next(in: -20...20)), y: top.y + Double(random.next(in: -20...20)))
        }
        return Point(x: Double(random.next(in: 0...1024)), y: Double(random.next(in: 0...768)))
    }

    /// From the gesture's pointer mostly; sometimes from a second pointer or viewer, or late.
    private mutating func pointerEvent(_ phase: PointerInput.Phase) -> StackEvent {
        let who = random.next(in: 0...19)
        let late = random.next(in: 0...9) == 0 ? Millis(random.next(in: 1...60)) : 0
        return Fixture.pointer(
            phase, pointer.x, pointer.y, t: pageTime - late, viewer: who == 0 ? "v2" : "v1", pointer: who == 1 ? 2 : 1)
    }

    private mutating func command(for stack: Stack) -> StackCommand {
        switch random.next(in: 0...10) {
        case 0: return .next
        case 1: return .previous
        case 2: return .goto(index: random.next(in: 0...max(0, photos)))
        case 3: return .insert(photo: Photo(id: "p\(photos)", width: 300, height: 400), at: random.next(in: 0...1))
        case 4: return .remove(cardID: stack.drawnCards(at: now).last?.id ?? "c0")
        case 5: return .highlight
        case 6: return .flip
        case 7: return .fullscreen
        case 8: return .style(StyleName.allCases[random.next(in: 0...(StyleName.allCases.count - 1))])
        case 9: return .shuffle(seed: random.next())
        default: return .undo
        }
    }
}

extension Stack {
    /// The stored properties whose values differ from `other`'s, by name; every stored property is
    /// compared, and one this list does not know is reported, so a new one cannot go unchecked.
    func stateDifferences(from other: Stack) -> [String] {
        let compared: [String: Bool] = [
            "stage": stage == other.stage, "style": style == other.style,
            "swipeStacked": swipeStacked == other.swipeStacked, "isFullscreen": isFullscreen == other.isFullscreen,
            "frameTransition": frameTransition == other.frameTransition,
            // The layout follows from the style, stage and swipe mode.
            "layout": true,
            "photos": photos == other.photos, "cards": cards == other.cards,
            "order": Array(order) == Array(other.order), "headSlot": headSlot == other.headSlot,
            "motions": motions == other.motions, "travelling": travelling == other.travelling,
            "departing": departing == other.departing, "recognizer": recognizer == other.recognizer,
            "grab": grab == other.grab, "random": random == other.random, "history": history == other.history,
            "firstCard": firstCard == other.firstCard, "reflow": reflow == other.reflow,
            "unseen": unseen == other.unseen, "unseenFront": unseenFront == other.unseenFront,
            "leadingUnseen": leadingUnseen == other.leadingUnseen,
            "unseenRemoved": unseenRemoved == other.unseenRemoved,
            "removedByHand": removedByHand == other.removedByHand,
            "goneFromFolder": goneFromFolder == other.goneFromFolder, "removers": removers == other.removers,
            "frontSince": frontSince == other.frontSince, "arrivals": arrivals == other.arrivals,
        ]
        let stored = Mirror(reflecting: self).children.compactMap(\.label)
        return stored.filter { compared[$0] != true }
    }
}
