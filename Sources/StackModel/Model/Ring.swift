/// A double-ended queue in a ring buffer: O(1) amortised insertion and removal at both ends and
/// O(1) access by position, so a card moves between the top and the bottom of a million-card stack
/// without shifting the others.
///
/// Removed elements stay in storage until overwritten; it is meant for plain values such as card numbers.
struct Ring<Element> {
    private var storage: ContiguousArray<Element>
    /// Storage index of position 0.
    private var head = 0
    private(set) var count: Int

    init() {
        storage = []
        count = 0
    }

    init(_ elements: some Sequence<Element>) {
        storage = ContiguousArray(elements)
        count = storage.count
    }

    var first: Element? { isEmpty ? nil : self[0] }
    var last: Element? { isEmpty ? nil : self[count - 1] }

    mutating func append(_ element: Element) {
        growIfFull(padding: element)
        count += 1
        self[count - 1] = element
    }

    mutating func prepend(_ element: Element) {
        growIfFull(padding: element)
        head = head == 0 ? storage.count - 1 : head - 1
        count += 1
        self[0] = element
    }

    mutating func removeFirst() -> Element {
        precondition(count > 0, "removeFirst from an empty ring")
        let element = self[0]
        head = storageIndex(1)
        count -= 1
        return element
    }

    mutating func removeLast() -> Element {
        precondition(count > 0, "removeLast from an empty ring")
        let element = self[count - 1]
        count -= 1
        return element
    }

    /// - Complexity: O(min(position, count − position)): shifts the shorter side.
    mutating func insert(_ element: Element, at position: Int) {
        precondition(position >= 0 && position <= count, "insert position out of range")
        if position < count - position {
            prepend(element)
            for index in 0..<position { self[index] = self[index + 1] }
        } else {
            append(element)
            for index in stride(from: count - 1, to: position, by: -1) { self[index] = self[index - 1] }
        }
        self[position] = element
    }

    /// - Complexity: O(min(position, count − position)): shifts the shorter side.
    @discardableResult
    mutating func remove(at position: Int) -> Element {
        precondition(position >= 0 && position < count, "remove position out of range")
        let element = self[position]
        if position < count - 1 - position {
            for index in stride(from: position, to: 0, by: -1) { self[index] = self[index - 1] }
            _ = removeFirst()
        } else {
            for index in position..<(count - 1) { self[index] = self[index + 1] }
            _ = removeLast()
        }
        return element
    }

    private func storageIndex(_ position: Int) -> Int {
        let index = head + position
        return index >= storage.count ? index - storage.count : index
    }

    /// Doubles the storage, unwrapped, when full; `padding` fills the new room so no optional is needed.
    private mutating func growIfFull(padding: Element) {
        guard count == storage.count else { return }
        let capacity = Swift.max(8, storage.count * 2)
        var grown = ContiguousArray<Element>()
        grown.reserveCapacity(capacity)
        grown.append(contentsOf: self)
        grown.append(contentsOf: repeatElement(padding, count: capacity - count))
        storage = grown
        head = 0
    }
}

extension Ring: RandomAccessCollection, MutableCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "position out of range")
            return storage[storageIndex(position)]
        }
        set {
            precondition(position >= 0 && position < count, "position out of range")
            storage[storageIndex(position)] = newValue
        }
    }
}

extension Ring: Sendable where Element: Sendable {}
