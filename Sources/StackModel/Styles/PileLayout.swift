/// The `pile` style (PhotoStackView): every card centred on the stage, its photo's aspect fitted in
/// 62 % of the stage, tilted by its own whole-degree angle, except the top card, which lies straight.
struct PileLayout: Sendable, Equatable {
    /// Cards drawn: ten tilted cards already read as a pile, and the rest lie hidden under them.
    static let drawnLimit = 10
    /// Tilts are whole degrees in ±rotationOffset (the seed's default, 4).
    static let rotationOffset = 4
    static let cardFraction = 0.62
    /// How far past the stage edge a card leaves, so its 5-pt border and soft shadow leave too.
    static let offStageMargin = 24.0

    var stage: StageSize

    var centre: Point { Point(x: stage.width / 2, y: stage.height / 2) }

    /// The photo's aspect ratio fitted inside 62 % of the stage; a photo without a size is square.
    func cardSize(of photo: Photo) -> (width: Double, height: Double) {
        let width = photo.width > 0 && photo.height > 0 ? Double(photo.width) : 1
        let height = photo.width > 0 && photo.height > 0 ? Double(photo.height) : 1
        let scale = min(stage.width * Self.cardFraction / width, stage.height * Self.cardFraction / height)
        return (width * scale, height * scale)
    }

    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        let size = cardSize(of: photo)
        let rotation = position == 0 ? 0 : Double(tilt) * .pi / 180
        return CardTransform(x: centre.x, y: centre.y, w: size.width, h: size.height, rotation: rotation)
    }

    /// `transform` moved along the unit vector `direction` just far enough that the card, border and
    /// shadow included, is entirely off the stage.
    func offStage(_ transform: CardTransform, direction: Point) -> CardTransform {
        let cosine = abs(Elementary.cos(transform.rotation))
        let sine = abs(Elementary.sin(transform.rotation))
        let width = transform.w * transform.scaleX
        let height = transform.h * transform.scaleY
        let halfWidth = (width * cosine + height * sine) / 2 + Self.offStageMargin
        let halfHeight = (width * sine + height * cosine) / 2 + Self.offStageMargin
        // Leaving across either axis is enough; take whichever edge the direction reaches first.
        func travel(from centre: Double, along component: Double, half: Double, stageLength: Double) -> Double {
            if component > 0 { return (stageLength + half - centre) / component }
            if component < 0 { return (centre + half) / -component }
            return .infinity
        }
        let distance = max(
            0,
            min(
                travel(from: transform.x, along: direction.x, half: halfWidth, stageLength: stage.width),
                travel(from: transform.y, along: direction.y, half: halfHeight, stageLength: stage.height)))
        guard distance.isFinite else { return transform }
        var moved = transform
        moved.x += direction.x * distance
        moved.y += direction.y * distance
        return moved
    }

}
