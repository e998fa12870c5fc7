/// Switching styles: every card drawn in either style moves from where it is to its new place.
extension Stack {
    /// The one layout of `style` on `stage`. `count` sizes the grid's tiles (nil: the smallest,
    /// as for a stack too large to fit); `pair`, the frame's front two photos when it shows them side
    /// by side; `frameTransition` how it changes photos.
    static func layout(
        for style: StyleName, stage: StageSize, swipeStacked: Bool, count: Int? = nil, pair: FrameLayout.Pair? = nil,
        frameTransition: FrameTransition = .fade
    ) -> any StyleLayout {
        switch style {
        case .pile: PileLayout(stage: stage)
        case .angles: AnglesLayout(stage: stage)
        case .grid: GridLayout(stage: stage, count: count)
        case .deck: DeckLayout(stage: stage)
        case .swipe: SwipeLayout(stage: stage, stacked: swipeStacked)
        case .frame: FrameLayout(stage: stage, pair: pair, transition: frameTransition)
        }
    }

    /// Whether the frame would show the front two photos side by side: on a landscape stage, when
    /// both are portrait.
    /// - Complexity: O(1).
    var frontPhotosPair: Bool {
        stage.width > stage.height && count >= 2 && photos[order[0]].isPortrait && photos[order[1]].isPortrait
    }

    /// The front two photos, when the frame shows them side by side on a stage of `stage`'s shape:
    /// only where the room's stage pairs them (so `next` goes by two on every screen) and `stage` is
    /// landscape (a portrait screen shows the first of the two alone, as large as it can).
    func framePair(on stage: StageSize) -> FrameLayout.Pair? {
        guard frontPhotosPair, stage.isLandscape else { return nil }
        return FrameLayout.Pair(first: photos[order[0]], second: photos[order[1]])
    }

    /// Rebuilds the layout from what it depends on besides the style: the card count (the grid's
    /// tiles) and the front photos (the frame's pair). Called once per event, before the moved cards
    /// settle, so a card whose place this moves goes there like any other.
    /// - Complexity: O(1), O(columns) for the grid.
    mutating func refreshLayout() {
        layout = Self.layout(
            for: style, stage: stage, swipeStacked: swipeStacked, count: count, pair: framePair(on: stage),
            frameTransition: frameTransition)
    }

    /// Lays the stack out in `name`'s layout. Each card drawn before or after the switch animates from
    /// where viewers see it (or, if it was not drawn, from its place in the old style) to its place in
    /// the new one; a flight in progress is cut short, the card going straight to its place at the
    /// back. Cards that end up outside the drawn places are drawn until they get there.
    /// - Complexity: O(drawn cards in either style).
    mutating func switchStyle(to name: StyleName, now: Millis) {
        let oldLayout = layout
        var moving: [(card: Int, from: CardTransform)] = drawnNumbers().compactMap { card in
            cards[card].isInStack ? (card, displayed(card, at: now)) : nil
        }
        let wereDrawn = Set(moving.map(\.card))
        style = name
        refreshLayout()
        travelling.removeAll()
        let limit = min(count, layout.drawnLimit)
        for card in order.prefix(limit) where !wereDrawn.contains(card) {
            moving.append((card, restTransform(of: card, in: oldLayout)))
        }
        for (card, from) in moving {
            animate(card, from: from, to: restTransform(of: card), .spring(.settle), now: now)
            if position(of: card) >= limit, motions[card]?.animation != nil { travelling.append(card) }
        }
    }
}
