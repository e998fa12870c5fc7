/// Places on the stage that every style shares: off the stage, and the whole stage.
extension StageSize {
    /// How far past the stage edge a card leaves, so its 5-pt border and soft shadow leave too. The
    /// fullscreen card keeps the same margin inside the stage, so its border and shadow stay on it.
    static let offStageMargin = 24.0

    /// `transform` moved along the unit vector `direction` just far enough that the card, border and
    /// shadow included, is entirely off the stage.
    func offStage(_ transform: CardTransform, direction: Point) -> CardTransform {
        let cosine = abs(Elementary.cos(transform.rotation))
        let sine = abs(Elementary.sin(transform.rotation))
        let cardWidth = transform.w * transform.scaleX
        let cardHeight = transform.h * transform.scaleY
        let halfWidth = (cardWidth * cosine + cardHeight * sine) / 2 + Self.offStageMargin
        let halfHeight = (cardWidth * sine + cardHeight * cosine) / 2 + Self.offStageMargin
        // Leaving across either axis is enough; take whichever edge the direction reaches first.
        func travel(from centre: Double, along component: Double, half: Double, stageLength: Double) -> Double {
            if component > 0 { return (stageLength + half - centre) / component }
            if component < 0 { return (centre + half) / -component }
            return .infinity
        }
        let distance = max(
            0,
            min(
                travel(from: transform.x, along: direction.x, half: halfWidth, stageLength: width),
                travel(from: transform.y, along: direction.y, half: halfHeight, stageLength: height)))
        guard distance.isFinite else { return transform }
        var moved = transform
        moved.x += direction.x * distance
        moved.y += direction.y * distance
        return moved
    }

    /// The photo's aspect fitted inside the stage less the 24-pt margin on every side, centred and
    /// straight: the front card in fullscreen (pile's double tap, the `fullscreen` command).
    func fullscreen(_ photo: Photo) -> CardTransform {
        let size = photo.fitted(width: width - 2 * Self.offStageMargin, height: height - 2 * Self.offStageMargin)
        return CardTransform(x: width / 2, y: height / 2, w: size.width, h: size.height)
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
}
