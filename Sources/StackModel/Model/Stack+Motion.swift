/// Where cards are and where they are going: resting places, animations, the clock.
extension Stack {
    func restTransform(of card: Int) -> CardTransform {
        layout.restTransform(of: photos[card], tilt: cards[card].tilt, position: position(of: card))
    }

    /// Where viewers see the card at `now`.
    func displayed(_ card: Int, at now: Millis) -> CardTransform {
        guard let motion = motions[card] else { return restTransform(of: card) }
        return motion.animation?.value(at: now) ?? motion.target
    }

    mutating func animate(
        _ card: Int, from: CardTransform, to target: CardTransform, _ transition: Transition, velocity: Double = 0,
        now: Millis
    ) {
        let animation = transition.animation(from: from, to: target, start: now, velocity: velocity)
        motions[card] = CardMotion(phase: .settling, target: target, animation: animation)
    }

    /// Applies what is due at `now`: a silent gesture's timeout, flights that ended (the card slides
    /// back under the pile) and slides that ended below the drawn cards (the card stops being drawn).
    mutating func clockTicked(at now: Millis) {
        gestureRecognized(recognizer.expire(at: now), at: now)
        let arrived = travelling.filter { (motions[$0]?.animation?.end ?? now) <= now }
        travelling.removeAll { arrived.contains($0) }
        for card in arrived where motions[card]?.phase == .flyingOut {
            slideUnderPile(card, at: now)
        }
    }

    /// From off the stage, where its flight ended, to its resting place at the bottom of the pile.
    private mutating func slideUnderPile(_ card: Int, at now: Millis) {
        guard let flight = motions[card] else { return }
        let rest = restTransform(of: card)
        var from = flight.target
        // Off the stage nobody sees the new tilt appear.
        from.rotation = rest.rotation
        animate(card, from: from, to: rest, .spring(.settle), now: now)
        if position(of: card) >= layout.drawnLimit, motions[card]?.animation != nil {
            travelling.append(card)
        }
    }

    /// Animates every drawn card whose resting place moved under it (a new top straightens, an old top
    /// tilts back), from where viewers see it now. Held and flying cards go their own way.
    mutating func settleMovedCards(before: [(number: Int, card: DrawnCard)], at now: Millis) {
        let transition = reflow ?? layout.reflow
        for card in drawnNumbers() {
            let rest = restTransform(of: card)
            if let motion = motions[card] {
                guard motion.phase == .settling, motion.target != rest else { continue }
                animate(card, from: displayed(card, at: now), to: rest, transition, now: now)
            } else if let previous = before.first(where: { $0.number == card })?.card.transform, previous != rest {
                animate(card, from: previous, to: rest, transition, now: now)
            }
        }
    }

    /// Drops motions that no longer show: of cards not drawn, and finished settles, which look like rest.
    mutating func forgetFinishedMotions(drawn: [(number: Int, card: DrawnCard)], at now: Millis) {
        for (card, motion) in motions {
            let isDrawn = drawn.contains { $0.number == card }
            let isOver =
                motion.phase == .settling && !travelling.contains(card)
                && (motion.animation.map { $0.end <= now } ?? true)
            if !isDrawn || isOver { motions[card] = nil }
        }
    }
}
