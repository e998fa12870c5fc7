/// How a card gets from one transform to another: along a spring, or along an eased curve over a
/// fixed time (the iOS originals' `UIView.animateWithDuration`), possibly after a delay.
enum Transition: Sendable, Equatable {
    case spring(Spring)
    /// `curve` over `duration` milliseconds, starting `delay` milliseconds after the event.
    case tween(Curve, duration: Millis, delay: Millis = 0)

    /// A motion from `from` to `to` for an event at `start`; nil when there is nowhere to go.
    /// `velocity` (progress units per second) only carries into springs: a tween starts from rest.
    func animation(from: CardTransform, to: CardTransform, start: Millis, velocity: Double = 0) -> CardAnimation? {
        switch self {
        case .spring(let spring):
            return spring.animation(from: from, to: to, start: start, velocity: velocity)
        case .tween(let curve, let duration, let delay):
            guard from != to else { return nil }
            return CardAnimation(start: start + delay, duration: duration, curve: curve, from: from, to: to)
        }
    }

    /// `UIView.animateWithDuration`'s default curve is ease-in-out; the iOS originals rely on it.
    static func uiViewTween(_ duration: Millis, delay: Millis = 0) -> Transition {
        .tween(.easeInOut, duration: duration, delay: delay)
    }
}
