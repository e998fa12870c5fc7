/// Guests' photos in the order they were sent: each goes where `--uploads-at` says, behind the
/// guests' photos that arrived before it and wait there, not yet shown.
extension Stack {
    /// How many arrivals are remembered: more than a batch a phone sends, few enough to search.
    static let arrivalLimit = 64

    /// `position`, moved past the cards found there one after another that are recent arrivals.
    /// A card shown since is at the front or has gone behind others, so it no longer counts.
    /// - Complexity: O(arrivals + the arrivals skipped).
    func positionBehindArrivals(from position: Int) -> Int {
        let waiting = Set(arrivals)
        var place = position
        while place < count, waiting.contains(order[place]) { place += 1 }
        return place
    }

    /// Remembers `card` as the latest arrival.
    mutating func arrived(_ card: Int) {
        arrivals.append(card)
        if arrivals.count > Self.arrivalLimit { arrivals.removeFirst(arrivals.count - Self.arrivalLimit) }
    }
}
