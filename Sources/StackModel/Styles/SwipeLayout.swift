/// The `swipe` style (SMSwipeView): three cards in a view of the deck card's size, front
/// at (0, 16, w, h − 16), next at (10, 8, w − 20, h − 16), third at (20, 0, w − 40, h − 16).
///
/// A swipe left shows the next card, wrapping after the last; a swipe right brings the previous one
/// back, stopping at the first. Dragging left tilts the front card about its bottom-right corner by
/// 90°·Δx/w and the next by half that, as SMSwipeView's pan does.
struct SwipeLayout: StyleLayout, Equatable {
    static let sideMargin = 10.0
    static let topMargin = 16.0
    /// SMSwipeView's `isStackCard` mode: front, next, third.
    static let stackedOpacities = [1.0, 0.5, 0.3]
    static let drawnLimit = 3

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

    /// SMSwipeView straightens the card as it goes, about the same corner it tilted about.
    func flightTarget(from: CardTransform, direction: Point) -> CardTransform {
        offStage(from.turned(by: -from.rotation), direction: direction)
    }

    var draggedLayers: Int { 2 }

    func dragged(_ base: CardTransform, layer: Int, of layers: Int, by translation: Point) -> CardTransform {
        guard translation.x < 0 else { return base }
        let angle = Double.pi / 2 * translation.x / view.w
        return base.turned(by: layer == 0 ? angle : angle / 2)
    }

    var throwsSideways: Bool { true }
}

extension CardTransform {
    /// Turned by `angle` (clockwise) about its bottom-right corner, SMSwipeView's anchor point (1, 1).
    func turned(by angle: Double) -> CardTransform {
        let halfWidth = w * scaleX / 2
        let halfHeight = h * scaleY / 2
        func rotate(_ x: Double, _ y: Double, by angle: Double) -> Point {
            let cosine = Elementary.cos(angle)
            let sine = Elementary.sin(angle)
            return Point(x: x * cosine - y * sine, y: x * sine + y * cosine)
        }
        let corner = Point(x: x, y: y) + rotate(halfWidth, halfHeight, by: rotation)
        let centre = corner - rotate(halfWidth, halfHeight, by: rotation + angle)
        var turned = self
        turned.x = centre.x
        turned.y = centre.y
        turned.rotation = rotation + angle
        return turned
    }
}
