extension CardTransform {
    /// Whether `point` lies on the card's rotated rectangle.
    func contains(_ point: Point) -> Bool {
        let dx = point.x - x
        let dy = point.y - y
        let cosine = Elementary.cos(rotation)
        let sine = Elementary.sin(rotation)
        // The offset in the card's own axes: rotated back by the card's clockwise rotation.
        let along = dx * cosine + dy * sine
        let across = -dx * sine + dy * cosine
        return abs(along) <= w * scaleX / 2 && abs(across) <= h * scaleY / 2
    }
}
