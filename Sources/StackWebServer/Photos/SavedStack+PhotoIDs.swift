import StackModel

extension SavedStack {
    /// This stack with every photo id `renamed` has a new name for replaced by it: a stack saved
    /// with the ids of an earlier version (`PhotoIDs.legacyID`) restores the same order, front card
    /// and removed photos, and is saved with the new ids at its next save.
    /// - Complexity: O(order + removed).
    func renamingPhotos(_ renamed: [String: String]) -> SavedStack {
        guard !renamed.isEmpty,
            order.contains(where: { renamed[$0] != nil }) || removed.contains(where: { renamed[$0] != nil })
        else { return self }
        var copy = self
        copy.order = order.map { renamed[$0] ?? $0 }
        copy.removed = removed.map { renamed[$0] ?? $0 }
        return copy
    }
}
