/// Points double as 2-D vectors (displacements, velocities) inside the model.
extension Point {
    static let zero = Point(x: 0, y: 0)

    static func + (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }
    static func - (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }
    static func * (lhs: Point, factor: Double) -> Point { Point(x: lhs.x * factor, y: lhs.y * factor) }

    func dot(_ other: Point) -> Double { x * other.x + y * other.y }
    var length: Double { Elementary.squareRoot(dot(self)) }
}
