/// The stage a screen of another shape is laid out on.
extension StageSize {
    /// The room's stage widened (or heightened) to `shape`'s aspect: the smallest stage of that shape
    /// holding the room's, centred on it. A stage point keeps its size, so a drag moves a card as far
    /// on every screen and the layouts' constants (borders, margins, insets) mean the same.
    public func shaped(_ shape: ShapeClass) -> StageSize {
        let aspect = shape.aspect
        return StageSize(width: max(width, height * aspect), height: max(height, width / aspect))
    }

    var centre: Point { Point(x: width / 2, y: height / 2) }

    /// Landscape: the frame pairs portraits only on such a stage.
    var isLandscape: Bool { width > height }
}
