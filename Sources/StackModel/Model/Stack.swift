/// A room's stack of cards: the state machine every viewer's picture is computed from.
///
/// Pure: time and the random seed are inputs, so the same events give the same result. Lays cards out
/// in its style's `StyleLayout`. Handling a pointer sample and listing the drawn cards cost
/// O(drawn cards), whatever the stack's size.
public struct Stack: Sendable {
    public let stage: StageSize
    public private(set) var style: StyleName
    var layout: any StyleLayout
    /// The photo list; card number `n` shows `photos[n]`.
    var photos: [Photo]
    /// Every card, indexed by card number.
    var cards: [Card]
    /// Card numbers in stack order, position 0 first.
    var order: Ring<Int>
    /// The slot of position 0: positions are slots relative to it, so moving the top card to the
    /// bottom renumbers one card, not all of them.
    var headSlot = 0
    /// Cards in motion or held, by card number.
    var motions: [Int: CardMotion] = [:]
    /// Cards whose animation's end changes the stack: flying out, or sliding back under the pile
    /// below the drawn cards. They are drawn until then, whatever their position.
    var travelling: [Int] = []
    var recognizer = GestureRecognizer()
    /// The card a pointer holds and where it holds it.
    var grab: Grab?
    var random: SplitMix64
    /// How the cards whose resting place the current event moved get there; nil: the layout's
    /// `reflow`. Set by the event's handler (a swipe's cards shift after its flight), cleared per event.
    var reflow: Transition?

    struct Grab: Sendable, Equatable {
        var card: Int
        /// Card centre minus pointer, kept while dragging so the card does not jump under the finger.
        var offset: Point
    }

    /// One card per photo, in photo-list order, each with a random tilt drawn from `seed`.
    /// - Complexity: O(photos.count).
    public init(photos: [Photo], stage: StageSize = .default, style: StyleName = .pile, seed: UInt64) {
        self.photos = photos
        self.stage = stage
        self.style = style
        layout = Self.layout(for: style, stage: stage)
        var random = SplitMix64(seed: seed)
        cards = []
        cards.reserveCapacity(photos.count)
        for number in photos.indices {
            cards.append(Card(slot: number, tilt: Self.randomTilt(using: &random), highlight: false))
        }
        self.random = random
        order = Ring(photos.indices)
    }

    /// Number of cards in the stack.
    public var count: Int { order.count }

    /// Photo-list index of the front card (0 when empty).
    public var current: Int { order.first ?? 0 }

    /// The next server time at which the room must send `.tick`, or `nil` when nothing is pending.
    public var nextDeadline: Millis? {
        let arrivals = travelling.compactMap { motions[$0]?.animation?.end }
        return (arrivals + [recognizer.deadline].compactMap { $0 }).min()
    }

    /// The cards viewers draw at `now`, ordered by position; motions already over by `now` are left out.
    /// - Complexity: O(drawn cards).
    public func drawnCards(at now: Millis) -> [DrawnCard] {
        drawn(at: now).map(\.card)
    }

    /// The one layout of `style` on `stage`.
    static func layout(for style: StyleName, stage: StageSize) -> any StyleLayout {
        PileLayout(stage: stage)
    }

    /// Applies one event at server time `now` and returns what the viewers must redraw.
    ///
    /// A refused command throws before changing anything.
    public mutating func handle(_ event: StackEvent, at now: Millis) throws(StackError) -> StackChange {
        let before = drawn(at: now)
        let summary = (count, current)
        reflow = nil
        switch event {
        case .pointer(let input):
            pointerReceived(input, at: now)
        case .command(let command):
            try perform(command, at: now)
        case .tick:
            clockTicked(at: now)
        }
        settleMovedCards(before: before, at: now)
        let after = drawn(at: now)
        forgetFinishedMotions(drawn: after, at: now)
        return Self.change(from: before, to: after, summaryChanged: summary != (count, current))
    }

    func position(of card: Int) -> Int { cards[card].slot - headSlot }

    mutating func randomTilt() -> Int8 { Self.randomTilt(using: &random) }

    private static func randomTilt(using random: inout SplitMix64) -> Int8 {
        Int8(random.next(in: -PileLayout.rotationOffset...PileLayout.rotationOffset))
    }
}
