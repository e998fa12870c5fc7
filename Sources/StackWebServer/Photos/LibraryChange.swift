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
    /// The order the folder is shown in (`--order`), which says where added photos join a stack:
    /// at their `placements` in it; nil (a change that names no order) at the back.
    var order: PhotoLibrary.Order?
    /// The folder has been read whole since the start (or since it came back): a photo not in the
    /// library by now is not in the folder, so saved places still waiting for one are given up.
    var complete = false
    /// Whether the photo folder is away (gone, or back empty): true while it is, false once it is
    /// back; nil for a change that says nothing of it. While it is away every room holds its place.
    var folderAway: Bool?

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
        let removed = Set(old.entries.map(\.photo.id)).subtracting(new.entries.map(\.photo.id))
        self.init(from: old, changed: new.entries, removed: removed, order: nil)
    }

    /// The change from `old` when a scan knows which entries it touched: `changed` (new or replaced;
    /// sorted in `order`, or already in the library's order when nil) and `removed` ids. An
    /// unchanged entry among `changed` is left out.
    /// - Complexity: O(changed log changed), plus O(old) when something was removed.
    init(from old: PhotoLibrary, changed: [PhotoLibrary.Entry], removed: Set<String>, order: PhotoLibrary.Order?) {
        var added: [PhotoLibrary.Entry] = []
        for entry in changed {
            guard let before = old.entry(id: entry.photo.id), !removed.contains(entry.photo.id) else {
                added.append(entry)
                continue
            }
            guard before != entry else { continue }
            if before.photo == entry.photo {
                replaced.append(entry.photo.id)
            } else {
                reshaped.append(entry.photo)
            }
        }
        self.added = (order.map { added.sorted(by: $0.precedes) } ?? added).map(\.photo)
        self.order = order
        self.removed = removed.isEmpty ? [] : old.entries.map(\.photo.id).filter { removed.contains($0) }
    }
}
