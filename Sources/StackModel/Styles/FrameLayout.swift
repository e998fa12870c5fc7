/// The `frame` style, a wall photo frame: one photo at a time, fitted to the whole stage; on a
/// landscape stage two portrait photos in a row share it side by side, and go together.
///
/// Photos change by cross-fade: the outgoing one fades out where it is while the incoming one fades
/// in at its place; or, with `FrameTransition.kenBurns`, the incoming one lies whole under the
/// outgoing one as that fades, and slowly zooms and pans (`KenBurns`). Hidden cards wait,
/// transparent, where they will show. A flick or swipe anywhere
/// on the stage goes next or previous, as in `swipe`. See docs/styles.md.
struct FrameLayout: StyleLayout, Equatable {
    /// The space between the two photos of a pair.
    static let gap = 16.0
    /// The cross-fade's length: calm, for a frame on a wall.
    static let crossFade: Millis = 1000
    /// The shown pair and the pair after it, waiting transparent where they will show.
    static let drawnLimit = 4
    /// A photo this much wider than tall (or taller than wide) is a panorama…
    static let panoramaAspect = 2.5
    /// …and is panned, at the stage's full height (width), where fitted whole it would fill less
    /// than this share of the stage: a 4:1 photo on a phone, not on a TV.
    static let panoramaShare = 1.0 / 3
    /// The pan's pace: a stage's width (height) of travel in this long, and never quicker than
    /// `shortestPan`: slow, for a frame on a wall; a long panorama on a phone takes `longestPan`,
    /// so that its far end shows within a few slideshow steps.
    static let panPerStage: Millis = 15_000
    static let shortestPan: Millis = 10_000
    static let longestPan: Millis = 30_000

    /// Two portraits shown side by side, at one height: their tops and bottoms align.
    struct Pair: Equatable, Sendable {
        var first: Photo
        var second: Photo
    }

    var stage: StageSize
    /// The front two photos, portraits on a landscape stage: shown side by side.
    var pair: Pair?
    var paired: Bool { pair != nil }
    var transition: FrameTransition = .fade

    var drawnLimit: Int { Self.drawnLimit }

    /// Position 0 (and 1 when paired) shown, where its Ken Burns motion ends if it has one; the others
    /// transparent, fitted where a lone photo shows.
    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        if let pan = pan(of: photo, position: position) { return pan.to }
        let fitted = fittedTransform(of: photo, position: position)
        guard transition == .kenBurns && isShown(position) else { return fitted }
        return KenBurns(over: fitted, tilt: tilt).end
    }

    private func isShown(_ position: Int) -> Bool { position == 0 || (paired && position == 1) }

    private func fittedTransform(of photo: Photo, position: Int) -> CardTransform {
        if let pair, position < 2 { return pairTransform(pair, position: position) }
        let size = photo.fitted(width: stage.width, height: stage.height)
        return CardTransform(
            x: stage.width / 2, y: stage.height / 2, w: size.width, h: size.height, opacity: position == 0 ? 1 : 0)
    }

    /// The front photo's pan when it is a panorama that would fill under a third of this stage: from
    /// one end to the other at the stage's full height (or width), linear; nil otherwise.
    func pan(of photo: Photo, position: Int) -> CardAnimation? {
        guard position == 0, !paired, photo.width > 0, photo.height > 0 else { return nil }
        let aspect = Double(photo.width) / Double(photo.height)
        guard max(aspect, 1 / aspect) >= Self.panoramaAspect else { return nil }
        let fitted = photo.fitted(width: stage.width, height: stage.height)
        guard fitted.width * fitted.height < Self.panoramaShare * stage.width * stage.height else { return nil }
        let centre = (x: stage.width / 2, y: stage.height / 2)
        let from: CardTransform
        let to: CardTransform
        if aspect > stage.width / stage.height {
            let width = stage.height * aspect
            from = CardTransform(x: width / 2, y: centre.y, w: width, h: stage.height)
            to = CardTransform(x: stage.width - width / 2, y: centre.y, w: width, h: stage.height)
        } else {
            let height = stage.width / aspect
            from = CardTransform(x: centre.x, y: height / 2, w: stage.width, h: height)
            to = CardTransform(x: centre.x, y: stage.height - height / 2, w: stage.width, h: height)
        }
        let travel = abs(to.x - from.x) / stage.width + abs(to.y - from.y) / stage.height
        let duration = min(Self.longestPan, max(Self.shortestPan, travel * Self.panPerStage))
        return CardAnimation(start: 0, duration: duration, curve: .linear, from: from, to: to)
    }

    /// The pair as large as the stage allows at one height, the gap between them, centred.
    private func pairTransform(_ pair: Pair, position: Int) -> CardTransform {
        func aspect(_ photo: Photo) -> Double { Double(photo.width) / Double(max(photo.height, 1)) }
        let aspects = (aspect(pair.first), aspect(pair.second))
        let height = min(stage.height, (stage.width - Self.gap) / (aspects.0 + aspects.1))
        let widths = (aspects.0 * height, aspects.1 * height)
        let left = (stage.width - widths.0 - widths.1 - Self.gap) / 2
        let x = position == 0 ? left + widths.0 / 2 : left + widths.0 + Self.gap + widths.1 / 2
        return CardTransform(
            x: x, y: stage.height / 2, w: position == 0 ? widths.0 : widths.1, h: height)
    }

    /// With Ken Burns, a photo coming to show starts its motion whole, under the outgoing photo
    /// fading out over it (a flown card is drawn above the others).
    func settleStart(from seen: CardTransform, of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        guard transition == .kenBurns && isShown(position) && seen.opacity < 1 else { return seen }
        return KenBurns(over: fittedTransform(of: photo, position: position), tilt: tilt).start
    }

    /// A card coming among the drawn ones fades in at its place.
    func entrance(of photo: Photo, tilt: Int8, position: Int) -> CardTransform? {
        var start = restTransform(of: photo, tilt: tilt, position: position)
        start.opacity = 0
        return start
    }

    var reflow: Transition { .tween(.easeInOut, duration: Self.crossFade) }
    /// `next`: the photos coming to show move as `settleStart` says.
    var reflowAfterSendingBack: Transition { transition == .kenBurns ? KenBurns.transition : reflow }
    var springBack: Transition { .spring(.settle) }
    /// The outgoing photo fades out where it is (where a drag left it).
    func flightTarget(from: CardTransform, direction: Point) -> CardTransform {
        var faded = from
        faded.opacity = 0
        return faded
    }

    var flight: Transition { .tween(.easeInOut, duration: Self.crossFade) }
    var landing: Landing { .appear }
    var arrival: Transition { .tween(.easeInOut, duration: Self.crossFade) }
    /// A photo coming back fades in at its place (with Ken Burns, where its motion ends).
    func arrivalStart(_ rest: CardTransform) -> CardTransform {
        var transparent = rest
        transparent.opacity = 0
        return transparent
    }

    /// The shown photo and its pair (or the hidden next one) follow a drag sideways.
    var draggedLayers: Int { 2 }
    var grabsAnywhere: Bool { true }
    func dragged(_ base: CardTransform, layer: Int, of layers: Int, by drag: Drag) -> CardTransform {
        var moved = base
        moved.x += drag.translation.x
        return moved
    }

    var throwsSideways: Bool { true }
}
