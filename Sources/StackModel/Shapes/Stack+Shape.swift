/// The stack laid out for screens of every shape: one model, one layout per shape class present.
extension Stack {
    /// The cards drawn at `now` as a screen of `shape` shows them; `nil`: the room's own stage.
    /// - Complexity: O(drawn cards).
    public func drawnCards(at now: Millis, on shape: ShapeClass?) -> [DrawnCard] {
        let drawn = drawnCards(at: now)
        guard let view = shapeView(shape) ?? roomView else { return drawn }
        return drawn.map { reshaped($0, on: view) }
    }

    /// `change` as a screen of `shape` must redraw it; `nil`: the room's own stage.
    /// - Complexity: O(cards in the change).
    public func reshaped(_ change: StackChange, on shape: ShapeClass?) -> StackChange {
        guard let view = shapeView(shape) ?? roomView else { return change }
        var reshaped = change
        reshaped.cards = change.cards.map { self.reshaped($0, on: view) }
        return reshaped
    }

    /// The stage a screen of `shape` is sent; `nil`: the room's own.
    public func stage(for shape: ShapeClass?) -> StageSize {
        shape.map { stage.shaped($0) } ?? stage
    }

    /// Whether a screen of `shape` sees exactly what the room's stage shows: it needs no layout of
    /// its own (a 4:3 screen of a 4:3 room).
    public func showsRoomStage(_ shape: ShapeClass?) -> Bool { stage(for: shape) == stage }

    /// Where on the room's stage a press at `point` on a screen of `shape` lands: on the same spot of
    /// the same card if it pressed one (the topmost it sees there), else as far from the stage's
    /// centre. Later samples of the press move by the pointer's own way from there, so a drag moves
    /// a card as far on every screen.
    /// - Complexity: O(drawn cards).
    public func roomPoint(pressedAt point: Point, on shape: ShapeClass?, at now: Millis) -> Point {
        guard let view = shapeView(shape) else { return point }
        let pressable = drawnCards(at: now)
            .filter { card in number(of: card.id).map { cards[$0].isInStack } ?? false }
            .sorted { $0.z > $1.z }
        for card in pressable {
            let roomShown = card.animation?.value(at: now) ?? card.transform
            guard roomShown.opacity > 0 else { continue }
            let mapping = cardMapping(card, on: view)
            let shown = mapping.map(roomShown)
            if shown.contains(point) { return mapping.roomPoint(point, shown: shown, roomShown: roomShown) }
        }
        return point - view.stage.centre + stage.centre
    }

    func shapeView(_ shape: ShapeClass?) -> ShapeView? {
        guard let shape, !showsRoomStage(shape) else { return nil }
        let shaped = stage.shaped(shape)
        let layout = Self.layout(
            for: style, stage: shaped, swipeStacked: swipeStacked, count: count,
            pair: framePair(on: shaped), frameTransition: frameTransition)
        return ShapeView(stage: shaped, layout: layout)
    }

    /// The room's own stage as a view, where what viewers are sent differs from the model's cards:
    /// the frame's panorama pans (`FrameLayout.pan`), a motion the model leaves to the screens.
    private var roomView: ShapeView? {
        style == .frame ? ShapeView(stage: stage, layout: layout) : nil
    }

    private func cardMapping(_ card: DrawnCard, on view: ShapeView) -> ShapeView.CardMapping {
        guard let number = number(of: card.id) else {
            return ShapeView.CardMapping(
                roomRest: card.transform, shapeRest: card.transform, roomStage: stage, shapeStage: view.stage)
        }
        return ShapeView.CardMapping(
            roomRest: restTransform(of: number, at: card.position, in: layout, on: stage),
            shapeRest: restTransform(of: number, at: card.position, in: view.layout, on: view.stage),
            roomStage: stage, shapeStage: view.stage)
    }

    private func reshaped(_ card: DrawnCard, on view: ShapeView) -> DrawnCard {
        let mapping = cardMapping(card, on: view)
        var reshaped = card
        reshaped.transform = mapping.map(card.transform)
        if var animation = card.animation {
            animation.from = mapping.map(animation.from)
            animation.to = mapping.map(animation.to)
            reshaped.animation = animation
        }
        if let pan = pan(of: card, resting: mapping.roomRest, on: view) {
            reshaped.transform = pan.to
            reshaped.animation = pan
        }
        return reshaped
    }

    /// The front panorama's pan on `view`'s stage, from when it came to the front, while the model
    /// has it resting or coming to rest there (not while it is held, flown or removed).
    private func pan(of card: DrawnCard, resting roomRest: CardTransform, on view: ShapeView) -> CardAnimation? {
        guard let frame = view.layout as? FrameLayout, let since = frontSince, card.position == 0,
            let number = number(of: card.id), cards[number].isInStack, order.first == number,
            (card.animation?.to ?? card.transform) == roomRest,
            var pan = frame.pan(of: photos[number], position: 0)
        else { return nil }
        pan.start = since
        return pan
    }
}
