/// What viewers draw, and what changed for them.
extension Stack {
    /// `"c"` and the card's number, written digit by digit: an interpolated `"c\(card)"` cost more
    /// than the rest of drawing the card. Up to 14 digits it is a small string, never allocated.
    static func id(of card: Int) -> CardID {
        guard card >= 0 else { return "c\(card)" }
        var digits = 1
        var scale = 10
        // Int.max has 19 digits; stopping there keeps `scale` from overflowing.
        while digits < 19 && card >= scale {
            digits += 1
            scale &*= 10
        }
        return String(unsafeUninitializedCapacity: digits + 1) { buffer in
            buffer[0] = UInt8(ascii: "c")
            var rest = card
            for index in stride(from: digits, to: 0, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return digits + 1
        }
    }

    /// The card number of `id`, if it names a card this stack ever had.
    func number(of id: CardID) -> Int? {
        guard id.first == "c", let number = Int(id.dropFirst()), String(number) == id.dropFirst(),
            cards.indices.contains(number)
        else { return nil }
        return number
    }

    /// The top cards in position order, then travelling cards below them, then cards fading out of
    /// the stack.
    func drawnNumbers() -> [Int] {
        let limit = min(order.count, layout.drawnLimit)
        var numbers: [Int] = []
        numbers.reserveCapacity(limit + travelling.count + departing.count)
        numbers.append(contentsOf: order.prefix(limit))
        if !travelling.isEmpty {
            numbers += travelling.filter { position(of: $0) >= limit }.sorted { position(of: $0) < position(of: $1) }
        }
        for departure in departing { numbers.append(departure.card) }
        // `DrawnLookup` relies on it, and a card drawn twice would be one id sent twice.
        assert(Set(numbers).count == numbers.count, "a card is drawn twice: \(numbers)")
        return numbers
    }

    func drawn(at now: Millis) -> [(number: Int, card: DrawnCard)] {
        let numbers = drawnNumbers()
        var drawn: [(number: Int, card: DrawnCard)] = []
        drawn.reserveCapacity(numbers.count)
        for card in numbers { drawn.append((card, drawnCard(card, at: now))) }
        return drawn
    }

    /// A flying card is drawn above the whole pile (z above `count`) while it sits at the bottom.
    func drawnCard(_ card: Int, at now: Millis) -> DrawnCard {
        drawnCard(card, motion: motions[card], at: now)
    }

    /// `drawnCard(_:at:)` for a caller that has already looked up `motions[card]`.
    func drawnCard(_ card: Int, motion: CardMotion?, at now: Millis) -> DrawnCard {
        let id = Self.id(of: card)
        var position = self.position(of: card)
        // Reading the motion's fields one by one rather than through optional chains saves copying
        // it (some 280 bytes) several times per card.
        guard let motion else {
            return DrawnCard(
                id: id, photo: photos[card].id, position: position, z: count - position,
                transform: restTransform(of: card), highlight: cards[card].highlight)
        }
        var z = (motion.phase == .flyingOut ? 2 * count : count) - position
        if motion.phase == .departing, let departure = departing.first(where: { $0.card == card }) {
            (position, z) = (departure.position, departure.z)
        }
        let isRunning = motion.animation.map { now < $0.end } ?? false
        return DrawnCard(
            id: id, photo: photos[card].id, position: position, z: z, transform: motion.target,
            highlight: cards[card].highlight, animation: isRunning ? motion.animation : nil)
    }

    /// - Complexity: O(drawn cards before and after).
    static func change(
        from before: [(number: Int, card: DrawnCard)], to after: [(number: Int, card: DrawnCard)],
        summaryChanged: Bool
    ) -> StackChange {
        var previous = DrawnLookup(before.lazy.map(\.number))
        var redrawn: [DrawnCard] = []
        for (index, entry) in after.enumerated() {
            let place = previous.place(of: entry.number, expectedAt: index)
            if place.map({ before[$0].card != entry.card }) ?? true { redrawn.append(entry.card) }
        }
        var still = DrawnLookup(after.lazy.map(\.number))
        var gone: [CardID] = []
        for (index, entry) in before.enumerated() where still.place(of: entry.number, expectedAt: index) == nil {
            gone.append(entry.card.id)
        }
        return StackChange(cards: redrawn, removed: gone, summaryChanged: summaryChanged)
    }
}

/// Where a card is in a list of drawn cards, each drawn once. An event's lists before and after
/// mostly hold the same cards in the same places, so the place the caller expects is tried first,
/// and a dictionary is built only when that fails.
struct DrawnLookup {
    private let numbers: [Int]
    private var places: [Int: Int]?

    init(_ numbers: some Sequence<Int>) {
        self.numbers = Array(numbers)
    }

    /// - Complexity: O(1) where the card is at `expectedAt`; O(cards) once, then O(1), otherwise.
    mutating func place(of number: Int, expectedAt index: Int) -> Int? {
        if numbers.indices.contains(index) && numbers[index] == number { return index }
        if places == nil {
            places = Dictionary(numbers.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return places?[number]
    }
}
