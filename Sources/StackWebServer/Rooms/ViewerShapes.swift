import StackModel

/// The shape class of each viewer that needs its own layout, and how many watch in each class: a
/// change is laid out and encoded once per class present, whatever the number of viewers in it.
struct ViewerShapes {
    private(set) var byViewer: [ViewerID: ShapeClass] = [:]
    private var counts: [ShapeClass: Int] = [:]

    /// The classes at least one viewer watches in.
    var present: Dictionary<ShapeClass, Int>.Keys { counts.keys }

    subscript(viewer: ViewerID) -> ShapeClass? { byViewer[viewer] }

    /// `shape`: nil for a viewer shown the room's own stage.
    mutating func joined(_ viewer: ViewerID, shape: ShapeClass?) {
        left(viewer)
        guard let shape else { return }
        byViewer[viewer] = shape
        counts[shape, default: 0] += 1
    }

    mutating func left(_ viewer: ViewerID) {
        guard let shape = byViewer.removeValue(forKey: viewer) else { return }
        let remaining = counts[shape, default: 1] - 1
        counts[shape] = remaining > 0 ? remaining : nil
    }
}
