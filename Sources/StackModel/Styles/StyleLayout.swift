/// One style's geometry and motion: where each card rests, how many are drawn, and which curves move
/// cards between places.
///
/// Every style has exactly one layout, and the stack asks only it where a card belongs: the place a
/// card flies from, lands on or switches style to is computed by the same code as the place it is
/// drawn at rest.
protocol StyleLayout: Sendable {
    var stage: StageSize { get }
    /// Cards at positions below this are drawn at rest; the others lie hidden under them or off the
    /// stage. Bounded, so a pointer move costs the same in a stack of any size.
    var drawnLimit: Int { get }
    /// Where the card at `position` rests, face up (the stack adds the flip).
    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform
    /// Where a card that a reorder brings into the drawn cards at `position` starts; nil: it appears
    /// at rest (it is hidden under the drawn cards anyway).
    func entrance(of photo: Photo, tilt: Int8, position: Int) -> CardTransform?
    /// Whether a card pushed past the drawn cards glides to its new place before it stops being drawn,
    /// rather than vanishing where everyone sees it.
    var showsLeavingCards: Bool { get }
    /// Where a card whose resting place moved starts on its way there, seen at `seen` now.
    func settleStart(from seen: CardTransform, of photo: Photo, tilt: Int8, position: Int) -> CardTransform
    /// Cards whose resting place moved under them.
    var reflow: Transition { get }
    /// The others, after the top card left for the back.
    var reflowAfterSendingBack: Transition { get }
    /// The others, after the bottom card came to the top.
    var reflowAfterBringingUp: Transition { get }
    /// A released card going back to its place.
    var springBack: Transition { get }
    /// Whether a released card keeps the pointer's speed on its way back.
    var springBackKeepsVelocity: Bool { get }
    /// Where the top card flies to when it leaves for the back along the unit vector `direction`.
    func flightTarget(from: CardTransform, direction: Point) -> CardTransform
    /// The top card's flight off the stage.
    var flight: Transition { get }
    /// What the flown card does once off the stage.
    var landing: Landing { get }
    /// The bottom card coming to the top from off the stage's left edge.
    var arrival: Transition { get }
    /// Where a card coming to the top starts, given where it will rest.
    func arrivalStart(_ rest: CardTransform) -> CardTransform
    /// How many cards, front first, a press on the top card takes; 0: a press anywhere only taps.
    var draggedLayers: Int { get }
    /// Whether a press anywhere on the stage takes the cards (not only one on the top card).
    var grabsAnywhere: Bool { get }
    /// Where taken card `layer` (0: the one pressed) of `layers` is drawn during `drag`, taken at `base`.
    func dragged(_ base: CardTransform, layer: Int, of layers: Int, by drag: Drag) -> CardTransform
    /// A sideways drag longer than this sends the top card away at once (the deck's maxLength);
    /// nil: only a release can.
    var flyOutDistance: Double? { get }
    /// Whether a throw counts only sideways (deck, swipe) rather than any way (pile).
    var throwsSideways: Bool { get }
}

/// What a card that flew off the stage does when its flight ends.
enum Landing: Sendable, Equatable {
    /// Slides under the other cards to its place at the back, drawn until it gets there.
    case slideUnder
    /// Slides to its place at the back if that place is drawn; otherwise stops being drawn.
    case slideIfDrawn
    /// Appears at its place at the back at once (the iOS originals re-add the view there), if drawn.
    case appear
}

extension StyleLayout {
    func entrance(of photo: Photo, tilt: Int8, position: Int) -> CardTransform? { nil }
    var showsLeavingCards: Bool { false }
    func settleStart(from seen: CardTransform, of photo: Photo, tilt: Int8, position: Int) -> CardTransform { seen }
    var reflow: Transition { .spring(.settle) }
    var reflowAfterSendingBack: Transition { reflow }
    var reflowAfterBringingUp: Transition { reflow }
    var springBack: Transition { .spring(.settle) }
    var springBackKeepsVelocity: Bool { false }
    func flightTarget(from: CardTransform, direction: Point) -> CardTransform {
        stage.offStage(from, direction: direction)
    }
    var flight: Transition { .spring(.flight) }
    var landing: Landing { .slideUnder }
    var arrival: Transition { .spring(.settle) }
    func arrivalStart(_ rest: CardTransform) -> CardTransform { offStage(rest, direction: Point(x: -1, y: 0)) }
    var draggedLayers: Int { 1 }
    var grabsAnywhere: Bool { false }
    func dragged(_ base: CardTransform, layer: Int, of layers: Int, by drag: Drag) -> CardTransform {
        var moved = base
        moved.x += drag.translation.x
        moved.y += drag.translation.y
        return moved
    }
    var flyOutDistance: Double? { nil }
    var throwsSideways: Bool { false }

    /// `transform` moved along the unit vector `direction` until no window shows it (docs/styles.md).
    func offStage(_ transform: CardTransform, direction: Point) -> CardTransform {
        stage.offStage(transform, direction: direction)
    }
}

/// A drag in progress, as a layout sees it.
struct Drag: Sendable, Equatable {
    /// Where the pointer took the cards.
    var start: Point
    /// The pointer's way since.
    var translation: Point
    /// Whether the front card is the first card, with nothing before it to swipe back to.
    var atFirstCard: Bool

    /// Where the pointer is now.
    var point: Point { start + translation }
}
