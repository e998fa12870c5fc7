/// Places on the stage that every style shares: beyond every window's view, and the full stage.
extension StageSize {
    /// How far past the visible edge a card leaves, so its 5-pt border and soft shadow leave too. The
    /// full-stage card keeps the same margin inside the stage, so its border and shadow stay on it.
    static let offStageMargin = 24.0
    /// The widest and the tallest window aspect a page is expected in (21:9 and 9:21): see
    /// `farthestVisibleArea`.
    static let widestWindowAspect = 21.0 / 9
    /// Room left under the full-stage card (and the grid) for the page's control bar, about 56 px
    /// tall at the bottom of the window: see docs/styles.md.
    static let controlBarInset = 72.0

    /// The most of the stage's surroundings any window from 9:21 to 21:9 shows, in stage points.
    ///
    /// A page fits the stage into its window (contain, centred): a window wider than the stage shows
    /// stage points left and right of it, a taller one above and below. At 21:9 the visible width is
    /// h·21/9, at 9:21 the visible height w·21/9; the stage itself is always seen whole.
    var farthestVisibleArea: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let visibleWidth = max(width, height * Self.widestWindowAspect)
        let visibleHeight = max(height, width * Self.widestWindowAspect)
        let centre = Point(x: width / 2, y: height / 2)
        return (
            centre.x - visibleWidth / 2, centre.y - visibleHeight / 2, centre.x + visibleWidth / 2,
            centre.y + visibleHeight / 2
        )
    }

    /// `transform` moved along the unit vector `direction` until the card, border and shadow
    /// included, is outside `farthestVisibleArea`, whatever window shows the stage and whatever the
    /// card's rotation on the way (its half-diagonal stands for its extent in every direction).
    func offStage(_ transform: CardTransform, direction: Point) -> CardTransform {
        let cardWidth = transform.w * abs(transform.scaleX)
        let cardHeight = transform.h * abs(transform.scaleY)
        let reach = Elementary.squareRoot(cardWidth * cardWidth + cardHeight * cardHeight) / 2 + Self.offStageMargin
        let area = farthestVisibleArea
        // Leaving across either axis is enough; take whichever edge the direction reaches first.
        func travel(from centre: Double, along component: Double, low: Double, high: Double) -> Double {
            if component > 0 { return (high + reach - centre) / component }
            if component < 0 { return (centre - (low - reach)) / -component }
            return .infinity
        }
        let distance = max(
            0,
            min(
                travel(from: transform.x, along: direction.x, low: area.minX, high: area.maxX),
                travel(from: transform.y, along: direction.y, low: area.minY, high: area.maxY)))
        guard distance.isFinite else { return transform }
        var moved = transform
        moved.x += direction.x * distance
        moved.y += direction.y * distance
        return moved
    }

    /// Whether a card at `transform` is out of every window's view: entirely outside
    /// `farthestVisibleArea` (by its rotated bounding box) or fully transparent.
    func isOutOfView(_ transform: CardTransform) -> Bool {
        if transform.opacity <= 0 { return true }
        let cosine = abs(Elementary.cos(transform.rotation))
        let sine = abs(Elementary.sin(transform.rotation))
        let cardWidth = transform.w * abs(transform.scaleX)
        let cardHeight = transform.h * abs(transform.scaleY)
        let halfWidth = (cardWidth * cosine + cardHeight * sine) / 2
        let halfHeight = (cardWidth * sine + cardHeight * cosine) / 2
        let area = farthestVisibleArea
        return transform.x + halfWidth <= area.minX || transform.x - halfWidth >= area.maxX
            || transform.y + halfHeight <= area.minY || transform.y - halfHeight >= area.maxY
    }

    /// The area the full-stage card fits in: the stage less 24 pt left, right and top and the
    /// control bar's 72 pt at the bottom.
    var fullStageArea: (x: Double, y: Double, width: Double, height: Double) {
        (
            Self.offStageMargin, Self.offStageMargin, width - 2 * Self.offStageMargin,
            height - Self.offStageMargin - Self.controlBarInset
        )
    }

    /// The photo's aspect fitted inside `fullStageArea`, centred there and straight: the front card
    /// in fullscreen (pile's double tap, the `fullscreen` command), clear of the page's controls.
    func fullscreen(_ photo: Photo) -> CardTransform {
        let area = fullStageArea
        let size = photo.fitted(width: max(1, area.width), height: max(1, area.height))
        return CardTransform(
            x: area.x + area.width / 2, y: area.y + area.height / 2, w: size.width, h: size.height)
    }
}

extension Photo {
    /// The largest size of this photo's aspect inside `width` × `height`; a photo without a size is square.
    func fitted(width boxWidth: Double, height boxHeight: Double) -> (width: Double, height: Double) {
        let known = width > 0 && height > 0
        let photoWidth = known ? Double(width) : 1
        let photoHeight = known ? Double(height) : 1
        let scale = min(boxWidth / photoWidth, boxHeight / photoHeight)
        return (photoWidth * scale, photoHeight * scale)
    }

    /// Taller than wide (a photo without a size counts as square).
    var isPortrait: Bool { width > 0 && height > width }
}
