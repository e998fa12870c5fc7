import StackModel

// Provisional until the StackModel branch lands with its own evaluator.
extension CardAnimation {
    func value(at now: Millis) -> CardTransform {
        now >= end ? to : from
    }
}
