/// The layouts StackWeb draws: five reproduce iOS stack views, `frame` is a wall photo frame
/// (docs/styles.md).
public enum StyleName: String, Sendable, CaseIterable, Equatable {
    case pile, angles, grid, deck, swipe, frame
}
