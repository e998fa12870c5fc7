/// The layouts StackWeb reproduces from the seed articles.
public enum StyleName: String, Sendable, CaseIterable, Equatable {
    case pile, angles, grid, deck, swipe
}
