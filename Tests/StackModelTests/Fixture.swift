@testable import StackModel

/// Shared stacks and event builders. Photos are 4:3 like the default 1024×768 stage, so every card
/// fills 62 % of it: 634.88 × 476.16 points, short side 476.16, flick distance 119.04.
enum Fixture {
    static let stage = StageSize.default
    static let centre = Point(x: 512, y: 384)
    /// Server time of the first event in a test (ms since the epoch).
    static let now: Millis = 1_764_442_800_000

    static func photos(_ count: Int) -> [Photo] {
        (0..<count).map { Photo(id: "p\($0)", width: 400, height: 300) }
    }

    static func stack(cards count: Int = 5, seed: UInt64 = 7) -> Stack {
        Stack(photos: photos(count), seed: seed)
    }

    static func pointer(
        _ phase: PointerInput.Phase, _ x: Double, _ y: Double, t: Millis, viewer: String = "v1", pointer: Int = 1
    ) -> StackEvent {
        .pointer(PointerInput(viewer: viewer, phase: phase, pointer: pointer, x: x, y: y, t: t))
    }

    static func input(
        _ phase: PointerInput.Phase, _ x: Double, _ y: Double, t: Millis, viewer: String = "v1", pointer: Int = 1
    ) -> PointerInput {
        PointerInput(viewer: viewer, phase: phase, pointer: pointer, x: x, y: y, t: t)
    }

    /// A drag of the top card from the centre: down at page time 1000, then moves every 10 ms at
    /// `speed` points per second to the right until `duration`, then holds still until released at
    /// `duration + hold`. Returns the events; server time advances 10 ms per event from `now`.
    static func drag(speed: Double, duration: Millis, hold: Millis = 0) -> [(event: StackEvent, at: Millis)] {
        var events: [(StackEvent, Millis)] = [(pointer(.down, centre.x, centre.y, t: 1000), now)]
        var t: Millis = 10
        while t <= duration {
            events.append((pointer(.move, centre.x + speed * t / 1000, centre.y, t: 1000 + t), now + t))
            t += 10
        }
        let endX = centre.x + speed * duration / 1000
        var held: Millis = 10
        while held <= hold {
            events.append((pointer(.move, endX, centre.y, t: 1000 + duration + held), now + duration + held))
            held += 10
        }
        events.append((pointer(.up, endX, centre.y, t: 1000 + duration + hold), now + duration + hold))
        return events
    }
}

extension Stack {
    /// Applies events in order and returns the last change.
    @discardableResult
    mutating func apply(_ events: [(event: StackEvent, at: Millis)]) throws -> StackChange {
        var last = StackChange()
        for (event, time) in events { last = try handle(event, at: time) }
        return last
    }
}

extension Fixture {
    /// The card size of a 400×300 photo on the default stage, computed as the layout does.
    static let cardWidth = 400 * min(1024 * 0.62 / 400, 768 * 0.62 / 300)
    static let cardHeight = 300 * min(1024 * 0.62 / 400, 768 * 0.62 / 300)

    static func rest(degrees: Int8 = 0) -> CardTransform {
        CardTransform(x: 512, y: 384, w: cardWidth, h: cardHeight, rotation: Double(degrees) * .pi / 180)
    }

    /// Where card `number` rests at `position` in `stack`, with its stored tilt.
    static func rest(of number: Int, in stack: Stack, position: Int) -> CardTransform {
        rest(degrees: position == 0 ? 0 : stack.cards[number].tilt)
    }

    static func drawn(
        _ number: Int, position: Int, z: Int, _ transform: CardTransform, highlight: Bool = false,
        animation: CardAnimation? = nil
    ) -> DrawnCard {
        DrawnCard(
            id: "c\(number)", photo: "p\(number)", position: position, z: z, transform: transform,
            highlight: highlight, animation: animation)
    }

    /// The settle animation a card at rest gets when its resting place moves, or none if it did not.
    static func settled(from: CardTransform, to: CardTransform, start: Millis) -> CardAnimation? {
        from == to ? nil : settle(from: from, to: to, start: start)
    }

    /// The settle spring (react-spring's default) from `from` to `to`.
    static func settle(from: CardTransform, to: CardTransform, start: Millis, velocity: Double = 0) -> CardAnimation {
        CardAnimation(
            start: start,
            duration: Curve.springSettleDuration(stiffness: 170, damping: 26, mass: 1, velocity: velocity),
            curve: .spring(stiffness: 170, damping: 26, mass: 1, velocity: velocity), from: from, to: to)
    }

    /// The flight spring (critically damped, ω0 = 15) from `from` to `to`.
    static func flight(from: CardTransform, to: CardTransform, start: Millis, velocity: Double = 0) -> CardAnimation {
        CardAnimation(
            start: start,
            duration: Curve.springSettleDuration(stiffness: 225, damping: 30, mass: 1, velocity: velocity),
            curve: .spring(stiffness: 225, damping: 30, mass: 1, velocity: velocity), from: from, to: to)
    }

    /// The card moved by `dx, dy`.
    static func moved(_ transform: CardTransform, _ dx: Double, _ dy: Double = 0) -> CardTransform {
        var moved = transform
        moved.x += dx
        moved.y += dy
        return moved
    }

    /// Off the left edge, as `next` and `previous` use: centre at −(half width + 24-pt margin).
    static func offLeft(_ transform: CardTransform) -> CardTransform {
        stage.offStage(transform, direction: Point(x: -1, y: 0))
    }
}

extension Fixture {
    /// A `UIView.animateWithDuration`-style tween (ease-in-out) from `from` to `to`.
    static func tween(
        from: CardTransform, to: CardTransform, start: Millis, duration: Millis, delay: Millis = 0
    ) -> CardAnimation {
        CardAnimation(start: start + delay, duration: duration, curve: .easeInOut, from: from, to: to)
    }

    /// The deck's spring (damping ratio 0.4 over 0.5 s) from `from` to `to`.
    static func deckSpring(from: CardTransform, to: CardTransform, start: Millis) -> CardAnimation {
        CardAnimation(
            start: start, duration: Curve.springSettleDuration(stiffness: 1193, damping: 27.63, mass: 1, velocity: 0),
            curve: .spring(stiffness: 1193, damping: 27.63, mass: 1, velocity: 0), from: from, to: to)
    }

    static func faded(_ transform: CardTransform) -> CardTransform {
        var faded = transform
        faded.opacity = 0
        return faded
    }

    static func flipped(_ transform: CardTransform) -> CardTransform {
        var flipped = transform
        flipped.flip = .pi
        return flipped
    }

    /// A stack of `count` 400 × 300 photos in `style`.
    static func stack(_ style: StyleName, cards count: Int = 5, seed: UInt64 = 7, stacked: Bool = false) -> Stack {
        Stack(photos: photos(count), style: style, seed: seed, swipeStacked: stacked)
    }

    /// A tap (down, then up 60 ms later) at page time `t`, server time `now + t`.
    static func tap(_ x: Double, _ y: Double, t: Millis) -> [(event: StackEvent, at: Millis)] {
        [(pointer(.down, x, y, t: t), now + t), (pointer(.up, x, y, t: t + 60), now + t + 60)]
    }
}

extension Stack {
    /// Ticks at every deadline until nothing is pending; returns the time it came to rest.
    @discardableResult
    mutating func settle() throws -> Millis {
        var time = Fixture.now
        while let deadline = nextDeadline {
            time = deadline
            _ = try handle(.tick, at: deadline)
        }
        return time
    }

    /// The drawn cards once every motion is over, far in the future.
    var resting: [DrawnCard] { drawnCards(at: Fixture.now + 1_000_000) }

    /// Card ids in stack order, from the front; O(count), for small stacks.
    var orderIDs: [String] { order.map { "c\($0)" } }
}

extension Fixture {
    /// Where two changes differ, card by card and field by field: a readable note for a failed
    /// expectation on a whole change.
    static func differences(_ actual: StackChange, _ expected: StackChange) -> String {
        var notes: [String] = []
        if actual.cards.map(\.id) != expected.cards.map(\.id) {
            notes.append("ids \(actual.cards.map(\.id)) ≠ \(expected.cards.map(\.id))")
        }
        for (a, e) in zip(actual.cards, expected.cards) where a != e {
            let fields: [(String, String, String)] = [
                ("position", "\(a.position)", "\(e.position)"), ("z", "\(a.z)", "\(e.z)"),
                ("transform", "\(a.transform)", "\(e.transform)"), ("highlight", "\(a.highlight)", "\(e.highlight)"),
                ("animation", "\(a.animation as Any)", "\(e.animation as Any)"),
            ]
            for (name, left, right) in fields where left != right {
                notes.append("\(a.id).\(name): \(left) ≠ \(right)")
            }
        }
        if actual.removed != expected.removed { notes.append("removed \(actual.removed) ≠ \(expected.removed)") }
        if actual.summaryChanged != expected.summaryChanged { notes.append("summaryChanged differs") }
        return notes.joined(separator: "\n")
    }
}

extension Stack {
    /// Where the ring and the cards disagree: a card in the order not marked in the stack or whose
    /// slot does not give its position, or a card marked in the stack that is not in the order (its
    /// removal would take the card at a stale position, or past the ends). Empty when they agree.
    /// O(cards), for small stacks.
    var ringViolations: [String] {
        var notes: [String] = []
        for (position, card) in order.enumerated() {
            if !cards[card].isInStack { notes.append("c\(card) at \(position) is marked out of the stack") }
            if self.position(of: card) != position {
                notes.append("c\(card) at \(position) has position \(self.position(of: card))")
            }
        }
        let inOrder = Set(order)
        for card in cards.indices where cards[card].isInStack && !inOrder.contains(card) {
            notes.append("c\(card) is marked in the stack, at \(position(of: card)) of \(count), but not in it")
        }
        return notes
    }
}
