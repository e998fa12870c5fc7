/// A room's stack of cards: the state machine every viewer's picture is computed from.
///
/// Pure: time and the random seed are inputs, so the same events give the same result.
/// API is the contract with StackWeb; the implementation is provisional until the pile style lands.
public struct Stack: Sendable {
    public let stage: StageSize
    public private(set) var style: StyleName
    private var photos: [Photo]
    /// Photo-list indices in stack order, position 0 first.
    private var order: [Int]

    public init(photos: [Photo], stage: StageSize = .default, style: StyleName = .pile, seed: UInt64) {
        self.photos = photos
        self.stage = stage
        self.style = style
        self.order = Array(photos.indices)
    }

    /// Number of cards in the stack.
    public var count: Int { order.count }

    /// Photo-list index of the front card (0 when empty).
    public var current: Int { order.first ?? 0 }

    /// The next server time at which the room must send `.tick`, or `nil` when nothing is pending.
    public var nextDeadline: Millis? { nil }

    /// The cards viewers draw at `now`, ordered by position.
    public func drawnCards(at now: Millis) -> [DrawnCard] {
        order.prefix(8).enumerated().map { position, index in
            DrawnCard(
                id: "c\(index)", photo: photos[index].id, position: position, z: count - position,
                transform: CardTransform(x: stage.width / 2, y: stage.height / 2, w: 320, h: 240)
            )
        }
    }

    /// Applies one event at server time `now` and returns what the viewers must redraw.
    public mutating func handle(_ event: StackEvent, at now: Millis) throws(StackError) -> StackChange {
        guard case .command(let command) = event else { return StackChange() }
        guard !order.isEmpty else { throw .emptyStack }
        switch command {
        case .next: order.append(order.removeFirst())
        case .previous: order.insert(order.removeLast(), at: 0)
        case .goto(let index):
            guard let at = order.firstIndex(of: index) else { throw .indexOutOfRange(index: index, count: count) }
            order = Array(order[at...] + order[..<at])
        }
        return StackChange(cards: drawnCards(at: now), summaryChanged: true)
    }
}
