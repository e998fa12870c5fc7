/// The `grid` style: the UICollectionViewFlowLayout the angled stack toggles to, square tiles in
/// rows under a top inset, position 0 at the top left, the block of columns centred on the stage.
///
/// The original's 60 × 60 items are the smallest tile: on a big stage with few photos the tiles grow
/// until every card fits on the stage (above the page's control bar), rather than leaving one row of
/// small tiles in a corner. Spacing stays the flow layout's default 10 pt between items and between
/// lines. Every row, the last included, uses the same columns, so a card shifting by one place moves
/// along the grid. Presses only tap, as in `angles`. See docs/styles.md.
struct GridLayout: StyleLayout, Equatable {
    /// The original's item size: tiles are never smaller.
    static let minimumItemSize = 60.0
    /// The original's top inset in phone points (a navigation bar and 10 pt), scaled as the phone
    /// screen is fitted into the stage.
    static let phoneTopInset = 74.0
    static let spacing = 10.0

    var stage: StageSize
    let itemSize: Double
    let columns: Int
    let topInset: Double
    /// The left edge of the first column: the block of columns is centred.
    let left: Double
    /// Rows whose top is on the stage; the grid does not scroll, so later rows are never seen.
    let visibleRows: Int

    /// `count` cards to fit, if known; nil lays out the smallest tiles, as for a huge stack.
    init(stage: StageSize, count: Int? = nil) {
        self.stage = stage
        topInset = Self.phoneTopInset * PhoneScreen(stage: stage).scale
        let width = stage.width
        let height = stage.height - topInset - StageSize.controlBarInset
        let widest = max(1, Int(Elementary.floor((width + Self.spacing) / (Self.minimumItemSize + Self.spacing))))
        var best = (size: Self.minimumItemSize, columns: widest)
        if let count, count > 0 {
            // Each column count gives the largest tile that fits both ways; keep the largest tile.
            for columns in 1...widest {
                let rows = (count + columns - 1) / columns
                let byWidth = (width - Double(columns - 1) * Self.spacing) / Double(columns)
                let byHeight = (height - Double(rows - 1) * Self.spacing) / Double(rows)
                let size = min(byWidth, byHeight)
                if size > best.size { best = (size, columns) }
            }
        }
        itemSize = best.size
        columns = best.columns
        let blockWidth = Double(columns) * itemSize + Double(columns - 1) * Self.spacing
        left = (width - blockWidth) / 2
        let rowPitch = itemSize + Self.spacing
        visibleRows = max(0, Int(Elementary.ceiling((stage.height - topInset) / rowPitch)))
    }

    /// Only the cards on the stage: `columns × visibleRows`.
    var drawnLimit: Int { columns * visibleRows }

    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        let row = position / columns
        let column = position % columns
        let pitch = itemSize + Self.spacing
        let x = left + itemSize / 2 + Double(column) * pitch
        let y = topInset + itemSize / 2 + Double(row) * pitch
        return CardTransform(x: x, y: y, w: itemSize, h: itemSize)
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
