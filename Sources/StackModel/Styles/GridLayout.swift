/// The `grid` style: the UICollectionViewFlowLayout the angled stack toggles to, 60 × 60 items in rows filling the stage's width under a
/// 74-pt top inset, position 0 at the top left.
///
/// As UICollectionViewFlowLayout with its default minimum spacings (10 pt between items and between
/// lines): as many columns as fit with 10 pt between them, the leftover width shared out so the rows
/// run flush from edge to edge. Every row, the last included, uses the same columns, so a card shifting
/// by one place moves along the grid. Presses only tap, as in `angles`.
struct GridLayout: StyleLayout, Equatable {
    static let itemSize = 60.0
    static let topInset = 74.0
    static let minimumSpacing = 10.0
    static let lineSpacing = 10.0

    var stage: StageSize
    let columns: Int
    /// The space between two columns.
    let gap: Double
    /// Rows whose top is on the stage; the grid does not scroll, so later rows are never seen.
    let visibleRows: Int

    init(stage: StageSize) {
        self.stage = stage
        let pitch = Self.itemSize + Self.minimumSpacing
        columns = max(1, Int(Elementary.floor((stage.width + Self.minimumSpacing) / pitch)))
        gap = columns > 1 ? (stage.width - Double(columns) * Self.itemSize) / Double(columns - 1) : 0
        let rowPitch = Self.itemSize + Self.lineSpacing
        visibleRows = max(0, Int(Elementary.ceiling((stage.height - Self.topInset) / rowPitch)))
    }

    /// Only the cards on the stage: `columns × visibleRows` (140 on the default 1024 × 768 stage).
    var drawnLimit: Int { columns * visibleRows }

    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        let row = position / columns
        let column = position % columns
        // A lone column is centred, as the flow layout centres a single item on its line.
        let x =
            columns == 1
            ? stage.width / 2 : Self.itemSize / 2 + Double(column) * (Self.itemSize + gap)
        let y = Self.topInset + Self.itemSize / 2 + Double(row) * (Self.itemSize + Self.lineSpacing)
        return CardTransform(x: x, y: y, w: Self.itemSize, h: Self.itemSize)
    }

    /// A card shifting onto the stage fades in at its place rather than popping up.
    func entrance(of photo: Photo, tilt: Int8, position: Int) -> CardTransform? {
        var start = restTransform(of: photo, tilt: tilt, position: position)
        start.opacity = 0
        return start
    }

    /// A card pushed off the last row slides to its place below the stage before it is dropped.
    var showsLeavingCards: Bool { true }
    /// A flown card slides into its place only if that place is on the stage.
    var landing: Landing { .slideIfDrawn }
    var draggedLayers: Int { 0 }
}
