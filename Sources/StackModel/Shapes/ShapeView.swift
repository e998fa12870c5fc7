/// The room's stack as a screen of one shape class sees it: the same cards, order and motions, each
/// card placed by the style's layout on the class's stage (`StageSize.shaped`).
///
/// A card's transform on the room's stage is carried over relative to the card's resting place: at
/// rest it is exactly the class's resting place; moved, it is moved as far from it (a drag follows
/// the finger on every screen), at the class's size; a card out of every window's view on the room's
/// stage (a flight's end, an arrival's start) is out of view on the class's too.
struct ShapeView {
    let stage: StageSize
    let layout: any StyleLayout

    /// How one card's transforms carry over: from its resting place on the room's stage to its
    /// resting place on the class's.
    struct CardMapping {
        let roomRest: CardTransform
        let shapeRest: CardTransform
        let roomStage: StageSize
        let shapeStage: StageSize

        func map(_ transform: CardTransform) -> CardTransform {
            if transform == roomRest { return shapeRest }
            let widthRatio = roomRest.w > 0 ? shapeRest.w / roomRest.w : 1
            let heightRatio = roomRest.h > 0 ? shapeRest.h / roomRest.h : 1
            var mapped = transform
            mapped.x = shapeRest.x + (transform.x - roomRest.x)
            mapped.y = shapeRest.y + (transform.y - roomRest.y)
            mapped.w = transform.w * widthRatio
            mapped.h = transform.h * heightRatio
            // A place shown on the room's stage may be hidden on this screen (the second photo of a
            // pair, on a portrait screen): the card fades as it would have shown.
            if roomRest.opacity > 0 { mapped.opacity = transform.opacity * shapeRest.opacity / roomRest.opacity }
            guard transform.opacity > 0, roomStage.isOutOfView(transform) else { return mapped }
            // Larger here than on the room's stage, it could still show where the room's card did not.
            let away = Point(x: transform.x - roomRest.x, y: transform.y - roomRest.y)
            let length = away.length
            let direction = length > 0 ? away * (1 / length) : Point(x: 1, y: 0)
            return shapeStage.offStage(mapped, direction: direction)
        }

        /// The point on the room's card that lies where `point` lies on this screen's card (same
        /// place relative to the card's centre, turn and size).
        func roomPoint(_ point: Point, shown: CardTransform, roomShown: CardTransform) -> Point {
            let cosine = Elementary.cos(shown.rotation)
            let sine = Elementary.sin(shown.rotation)
            let dx = point.x - shown.x
            let dy = point.y - shown.y
            let along = (dx * cosine + dy * sine) / max(shown.w * shown.scaleX, 1)
            let across = (-dx * sine + dy * cosine) / max(shown.h * shown.scaleY, 1)
            let width = roomShown.w * roomShown.scaleX
            let height = roomShown.h * roomShown.scaleY
            let roomCosine = Elementary.cos(roomShown.rotation)
            let roomSine = Elementary.sin(roomShown.rotation)
            return Point(
                x: roomShown.x + along * width * roomCosine - across * height * roomSine,
                y: roomShown.y + along * width * roomSine + across * height * roomCosine)
        }
    }
}
