import StackModel

/// What changed between two scans of the photo folder, as the rooms must apply it.
///
/// A renamed file is a removal and an addition: its id comes from its path. A file replaced in place
/// (same path, new size or modification time) keeps its id; if its upright size changed too, its
/// card must be made again at the same place, since a card's shape follows its photo's.
struct LibraryChange: Equatable, Sendable {
    /// New photos, in the new library's order.
    var added: [Photo] = []
    /// Ids of photos no longer in the folder.
    var removed: [String] = []
    /// Photos replaced in place with the same upright size: their cards stay, their URL changes.
    var replaced: [String] = []
    /// Photos replaced in place with another upright size.
    var reshaped: [Photo] = []

    var isEmpty: Bool { added.isEmpty && removed.isEmpty && replaced.isEmpty && reshaped.isEmpty }

    init(added: [Photo] = [], removed: [String] = [], replaced: [String] = [], reshaped: [Photo] = []) {
        self.added = added
        self.removed = removed
        self.replaced = replaced
        self.reshaped = reshaped
    }

    /// The change from `old` to `new`.
    /// - Complexity: O(old + new).
    init(from old: PhotoLibrary, to new: PhotoLibrary) {
        for entry in new.entries {
            guard let before = old.entry(id: entry.photo.id) else {
                added.append(entry.photo)
                continue
            }
            guard before != entry else { continue }
            if before.photo == entry.photo {
                replaced.append(entry.photo.id)
            } else {
                reshaped.append(entry.photo)
            }
        }
        removed = old.entries.map(\.photo.id).filter { new.entry(id: $0) == nil }
    }
}
