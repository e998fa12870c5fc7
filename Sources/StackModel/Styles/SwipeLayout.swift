/// The `swipe` style (SMSwipeView): three cards in a view of the deck card's size, front at
/// (0, 16, w, h − 16), next at (10, 8, w − 20, h − 16), third at (20, 0, w − 40, h − 16).
///
/// A swipe left shows the next card, wrapping after the last; a swipe right brings the previous one
/// back, stopping at the first. A drag keeps the point grabbed under the pointer with a modest tilt,
/// while the next card eases toward the front slot (docs/styles.md: SMSwipeView's own turn about the
/// bottom-right corner dropped the card far from the finger on a big screen).
struct SwipeLayout: StyleLayout, Equatable {
    static let sideMargin = 10.0
    static let topMargin = 16.0
    /// SMSwipeView's `isStackCard` mode: front, next, third.
    static let stackedOpacities = [1.0, 0.5, 0.3]
    static let drawnLimit = 3
    /// The front card's tilt when dragged a whole card width: ours, modest (docs/styles.md).
    static let maxTilt = 15 * Double.pi / 180
    /// How much of a right drag at the first card moves the card at first (docs/styles.md).
    static let rubberBand = 0.3
    /// The "no further" nudge of `previous` at the first card: out 24 pt in 120 ms, back in 200 ms.
    static let nudgeDistance = 24.0
    static let nudgeOut = Transition.tween(.easeOut, duration: 120)
    static let nudgeBack = Transition.tween(.easeInOut, duration: 200)

    var stage: StageSize
    var stacked: Bool

    /// SMSwipeView's view: as large as the deck's card (see `PhoneScreen`), centred on the stage.
    var view: (x: Double, y: Double, w: Double, h: Double) {
        let screen = PhoneScreen(stage: stage)
        return (
            screen.centre.x - screen.cardWidth / 2, screen.centre.y - screen.cardHeight / 2, screen.cardWidth,
            screen.cardHeight
        )
    }

    var drawnLimit: Int { Self.drawnLimit }

    /// Cards from position 3 on wait, invisible, under the third.
    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        slot(position)
    }

    /// The place of `position`, whatever photo is there.
    func slot(_ position: Int) -> CardTransform {
        let slot = min(position, 2)
        let view = view
        let left = view.x + Self.sideMargin * Double(slot)
        let top = view.y + Self.topMargin - Self.topMargin / 2 * Double(slot)
        let width = view.w - 2 * Self.sideMargin * Double(slot)
        let height = view.h - Self.topMargin
        let opacity = position > 2 ? 0 : stacked ? Self.stackedOpacities[slot] : 1
        return CardTransform(x: left + width / 2, y: top + height / 2, w: width, h: height, opacity: opacity)
    }

    /// After a swipe left SMSwipeView shifts the cards forward in 0.2 s once the 0.3-s flight is over.
    var reflowAfterSendingBack: Transition { .uiViewTween(200, delay: 300) }
    /// A swipe right moves everything back in one 0.5-s animation.
    var reflowAfterBringingUp: Transition { .uiViewTween(500) }
    var reflow: Transition { .uiViewTween(200) }
    var arrival: Transition { .uiViewTween(500) }
    var flight: Transition { .uiViewTween(300) }
    var landing: Landing { .appear }

    /// The card straightens as it goes, as SMSwipeView's does.
    func flightTarget(from: CardTransform, direction: Point) -> CardTransform {
        var straight = from
        straight.rotation = 0
        return offStage(straight, direction: direction)
    }

    var draggedLayers: Int { 2 }
    /// A swipe starting anywhere on the stage drives the front card: on a phone the card is a third
    /// of the screen, and a thumb beside it must not swipe in vain.
    var grabsAnywhere: Bool { true }

    /// The front card: moved with the pointer and turned about the grabbed point by 15°·Δx/w (at
    /// most 15°), so that point stays under the pointer; at the first card a right drag resists
    /// instead. The next card: eased toward the front slot by |Δx|/w on a left drag, never turned.
    func dragged(_ base: CardTransform, layer: Int, of layers: Int, by drag: Drag) -> CardTransform {
        let dx = drag.translation.x
        let width = view.w
        guard layer == 0 else {
            guard dx < 0 else { return base }
            var eased = CardTransform.interpolate(base, slot(0), progress: min(1, -dx / width))
            eased.rotation = 0
            return eased
        }
        if dx > 0 && drag.atFirstCard {
            var resisting = base
            resisting.x += Self.rubberBanded(dx, limit: width)
            return resisting
        }
        var moved = base
        moved.x += dx
        moved.y += drag.translation.y
        // The point grabbed stays under the pointer; grabbed beside the card, the card turns about
        // its nearest edge instead, so that it does not swing about a point far from it.
        let grabbed = Point(
            x: min(max(drag.start.x, base.x - base.w / 2), base.x + base.w / 2),
            y: min(max(drag.start.y, base.y - base.h / 2), base.y + base.h / 2))
        return moved.turned(by: Self.maxTilt * max(-1, min(1, dx / width)), about: grabbed + drag.translation)
    }

    /// UIScrollView's rubber band with coefficient 0.3: `limit·(1 − 1/(1 + 0.3·d/limit))`, 0.3·d at
    /// first and never `limit`.
    static func rubberBanded(_ distance: Double, limit: Double) -> Double {
        limit * (1 - 1 / (1 + rubberBand * distance / limit))
    }

    var throwsSideways: Bool { true }
}

extension CardTransform {
    /// Turned by `angle` (clockwise) about `pivot`: the point of the card at `pivot` stays there.
    func turned(by angle: Double, about pivot: Point) -> CardTransform {
        let cosine = Elementary.cos(angle)
        let sine = Elementary.sin(angle)
        let offset = Point(x: x - pivot.x, y: y - pivot.y)
        var turned = self
        turned.x = pivot.x + offset.x * cosine - offset.y * sine
        turned.y = pivot.y + offset.x * sine + offset.y * cosine
        turned.rotation = rotation + angle
        return turned
    }
}
