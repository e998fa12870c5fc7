/// The `pile` style (PhotoStackView): every card centred on the stage, its photo's aspect fitted in
/// 62 % of the stage (86 % of a portrait stage's width), tilted by its own whole-degree angle, except the top card, which lies straight.
/// Constants and their origins: docs/styles.md.
struct PileLayout: StyleLayout, Equatable {
    /// Cards drawn: ten tilted cards already read as a pile, and the rest lie hidden under them.
    static let drawnLimit = 10
    /// Tilts are whole degrees in ±rotationOffset (PhotoStackView's default, 4).
    static let rotationOffset = 4
    static let cardFraction = 0.62
    /// On a portrait stage the width bounds the card, and the tilted corners need less room across
    /// than the 38 % a landscape stage leaves: 86 % keeps a 4° corner of any photo on the stage.
    static let portraitWidthFraction = 0.86

    var stage: StageSize

    var drawnLimit: Int { Self.drawnLimit }

    var centre: Point { Point(x: stage.width / 2, y: stage.height / 2) }

    /// The photo's aspect ratio fitted inside 62 % of the stage (86 % of a portrait stage's width);
    /// a photo without a size is square.
    func cardSize(of photo: Photo) -> (width: Double, height: Double) {
        let widthFraction = stage.width < stage.height ? Self.portraitWidthFraction : Self.cardFraction
        return photo.fitted(width: stage.width * widthFraction, height: stage.height * Self.cardFraction)
    }

    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        let size = cardSize(of: photo)
        let rotation = position == 0 ? 0 : Double(tilt) * .pi / 180
        return CardTransform(x: centre.x, y: centre.y, w: size.width, h: size.height, rotation: rotation)
    }

    /// A thrown card comes home with the speed it was thrown back at, as PhotoStackView's pan does.
    var springBackKeepsVelocity: Bool { true }
}
