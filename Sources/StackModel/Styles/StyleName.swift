/// The layouts StackWeb reproduces from four iOS stack views (docs/styles.md).
public enum StyleName: String, Sendable, CaseIterable, Equatable {
    case pile, angles, grid, deck, swipe
}
