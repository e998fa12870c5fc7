/// The `deck` style (the iOS depth card deck with 3D flip): the original's card, each layer behind the front one
/// 7 pt higher, 8 % narrower and 20 % more transparent.
///
/// The perspective (m34 = −1/1000) only shows in the flip, which the page draws. A drag moves and
/// tilts every layer, less for each layer behind; past `maxLength` the top card flies out on the
/// drag's side and the others spring forward (damping ratio 0.4); a tap turns the top card over.
/// Constants and their origins: docs/styles.md.
struct DeckLayout: StyleLayout, Equatable {
    /// Layers drawn: the fifth behind the front one would have opacity 1 − 0.2·5 = 0.
    static let layers = 5
    static let layerRise = -7.0
    static let layerNarrowing = 0.08
    static let layerFading = 0.2
    /// The tilt of the front layer dragged by `maxLength`: 15°.
    static let maxTilt = 15 * Double.pi / 180

    var stage: StageSize

    var screen: PhoneScreen { PhoneScreen(stage: stage) }

    /// The original's fly-out distance (maxLength): half the phone screen's width (215.9 pt on the default stage), where
    /// the front layer is tilted the full 15° and a dragged card visibly commits, as in swipe-to-dismiss
    /// lists. Longer than the flick distance (a quarter of the card's short side), so a release there
    /// already throws, and only a long drag flies out on its own.
    var maxLength: Double { screen.width / 2 }

    var drawnLimit: Int { Self.layers }

    /// Cards from position 5 on wait, invisible, where a sixth layer would be.
    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        let layer = Double(min(position, Self.layers))
        return CardTransform(
            x: screen.centre.x, y: screen.centre.y + Self.layerRise * layer, w: screen.cardWidth, h: screen.cardHeight,
            scaleX: 1 - Self.layerNarrowing * layer, opacity: 1 - Self.layerFading * layer)
    }

    /// A card moving forward into the layers comes from the layer behind its new one, as in the original.
    func entrance(of photo: Photo, tilt: Int8, position: Int) -> CardTransform? {
        restTransform(of: photo, tilt: tilt, position: position + 1)
    }

    /// The back layer pushed behind fades into the invisible sixth place.
    var showsLeavingCards: Bool { true }
    var reflow: Transition { .spring(.deck) }
    var springBack: Transition { .spring(.deck) }
    var arrival: Transition { .spring(.deck) }
    /// The original's fly-out: `animateWithDuration(0.5)`.
    var flight: Transition { .uiViewTween(500) }
    /// The original re-adds the recycled card at the back without animation.
    var landing: Landing { .appear }

    var draggedLayers: Int { Self.layers }

    /// Layer `i` of `n` moves by (1 − i/n)·Δx and tilts by (1 − i/n)·(Δx / maxLength)·15°.
    func dragged(_ base: CardTransform, layer: Int, of layers: Int, by drag: Drag) -> CardTransform {
        let translation = drag.translation
        let share = 1 - Double(layer) / Double(layers)
        var moved = base
        moved.x += share * translation.x
        moved.rotation += share * (translation.x / maxLength) * Self.maxTilt
        return moved
    }

    var flyOutDistance: Double? { maxLength }
    var throwsSideways: Bool { true }
}
