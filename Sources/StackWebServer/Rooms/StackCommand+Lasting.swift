import StackModel

extension StackCommand {
    /// Whether the command changes what a restart restores (order, style, the cards in the stack),
    /// so its answer waits until that is kept. Flip, highlight and full-stage are looks of the
    /// moment and are not kept.
    var changesLastingState: Bool {
        switch self {
        case .next, .previous, .goto, .insert, .remove, .style, .shuffle, .undo: true
        case .highlight, .flip, .fullscreen: false
        }
    }
}
