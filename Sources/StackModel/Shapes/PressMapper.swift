/// Maps pointer samples posted in a screen's own stage points (its shape class's stage) onto the
/// room's stage, where the one model runs.
///
/// A press lands on the same spot of the card the screen showed under it (`Stack.roomPoint`); the
/// rest of the press moves from there by the pointer's own way, so a drag, its speed and its length
/// are the same on every screen.
public struct PressMapper: Sendable {
    /// Presses remembered at once; past it all are forgotten (presses whose `up` never came pile up
    /// only from a misbehaving page), and a forgotten press maps as if it went down anew.
    static let limit = 1024

    private struct Press: Hashable {
        var viewer: String
        var pointer: Int
    }

    /// Per press still down: the room's point minus the screen's at its `down`.
    private var offsets: [Press: Point] = [:]

    public init() {}

    /// `input` as the room's stage has it; `shape`: the sender's class (nil: the room's stage).
    /// - Complexity: O(drawn cards) for a `down`, O(1) for the rest of a press.
    public mutating func map(_ input: PointerInput, on shape: ShapeClass?, stack: Stack, at now: Millis) -> PointerInput
    {
        guard let shape, !stack.showsRoomStage(shape) else { return input }
        let press = Press(viewer: input.viewer, pointer: input.pointer)
        let point = Point(x: input.x, y: input.y)
        var offset = offsets[press]
        if input.phase == .down || offset == nil {
            if offsets.count >= Self.limit { offsets.removeAll() }
            offset = stack.roomPoint(pressedAt: point, on: shape, at: now) - point
        }
        offsets[press] = input.phase == .up || input.phase == .cancel ? nil : offset
        var mapped = input
        mapped.x += offset?.x ?? 0
        mapped.y += offset?.y ?? 0
        return mapped
    }
}
