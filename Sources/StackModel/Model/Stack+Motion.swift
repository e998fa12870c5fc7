/// Where cards are and where they are going: resting places, animations, the clock.
extension Stack {
    /// Where the card rests in `layout` (the stack's own by default), fullscreen and flip included.
    func restTransform(of card: Int, in layout: (any StyleLayout)? = nil) -> CardTransform {
        restTransform(of: card, at: position(of: card), in: layout ?? self.layout, on: stage)
    }

    /// Where the card would rest at `position` in `layout` on `stage` (a screen's shape has its own).
    func restTransform(of card: Int, at position: Int, in layout: any StyleLayout, on stage: StageSize)
        -> CardTransform
    {
        var rest =
            isFullscreen && position == 0
            ? stage.fullscreen(photos[card])
            : layout.restTransform(of: photos[card], tilt: cards[card].tilt, position: position)
        if cards[card].isFlipped { rest.flip = .pi }
        return rest
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

    /// Applies what is due at `now`: a silent gesture's timeout, flights that ended (the card lands at
    /// the back), glides that ended outside the drawn places and fades of removed cards (the card stops
    /// being drawn).
    mutating func clockTicked(at now: Millis) {
        gestureRecognized(recognizer.expire(at: now), at: now)
        let arrived = travelling.filter { (motions[$0]?.animation?.end ?? now) <= now }
        travelling.removeAll { arrived.contains($0) }
        for card in arrived {
            switch motions[card]?.phase {
            case .flyingOut: land(card, at: now)
            case .nudged:
                let target = motions[card]?.target ?? restTransform(of: card)
                animate(card, from: target, to: restTransform(of: card), SwipeLayout.nudgeBack, now: now)
            default: break
            }
        }
        departing.removeAll { (motions[$0.card]?.animation?.end ?? now) <= now }
    }

    /// A flown card, off the stage, goes to its resting place at the back as its style says.
    private mutating func land(_ card: Int, at now: Millis) {
        guard let flight = motions[card] else { return }
        let isDrawnAtRest = position(of: card) < layout.drawnLimit
        switch layout.landing {
        case .appear:
            // At rest at once: a motion with nowhere to go, so the move is not animated as a reflow.
            let rest = restTransform(of: card)
            motions[card] = CardMotion(phase: .settling, target: rest, animation: nil)
        case .slideIfDrawn where !isDrawnAtRest:
            motions[card] = nil
        case .slideUnder, .slideIfDrawn:
            let rest = restTransform(of: card)
            var from = flight.target
            // Off the stage nobody sees the new tilt appear.
            from.rotation = rest.rotation
            animate(card, from: from, to: rest, .spring(.settle), now: now)
            if !isDrawnAtRest, motions[card]?.animation != nil {
                travelling.append(card)
            }
        }
    }

    /// Animates every drawn card whose resting place moved under it (a new top straightens, an old top
    /// tilts back), from where viewers see it now; a card the reorder brings into the drawn places
    /// enters as the layout says, and one it pushes out glides away if the layout shows that. Held,
    /// flying and departing cards go their own way.
    mutating func settleMovedCards(before: [(number: Int, card: DrawnCard)], at now: Millis) {
        let transition = reflow ?? layout.reflow
        var seen = DrawnLookup(before.lazy.map(\.number))
        let drawnNow = drawnNumbers()
        for (index, card) in drawnNow.enumerated() where cards[card].isInStack {
            let rest = restTransform(of: card)
            if let motion = motions[card] {
                guard motion.phase == .settling, motion.target != rest else { continue }
                animate(card, from: settleStart(card, from: displayed(card, at: now)), to: rest, transition, now: now)
            } else if let place = seen.place(of: card, expectedAt: index) {
                let previous = before[place].card.transform
                if previous != rest {
                    animate(card, from: settleStart(card, from: previous), to: rest, transition, now: now)
                }
            } else if let start = entrance(of: card) {
                animate(card, from: start, to: rest, transition, now: now)
            }
        }
        guard layout.showsLeavingCards else { return }
        var stillDrawn = DrawnLookup(drawnNow)
        // Only cards that rested in a drawn place: a flown card dropped at its landing stays dropped.
        for (index, (card, drawn)) in before.enumerated()
        where stillDrawn.place(of: card, expectedAt: index) == nil && cards[card].isInStack
            && drawn.position < layout.drawnLimit
        {
            guard motions[card].map({ $0.phase == .settling }) ?? true else { continue }
            let from = motions[card] == nil ? drawn.transform : displayed(card, at: now)
            animate(card, from: from, to: restTransform(of: card), transition, now: now)
            if motions[card]?.animation != nil { travelling.append(card) }
        }
    }

    /// Where a card whose resting place moved starts from, seen at `seen`, as the layout says.
    private func settleStart(_ card: Int, from seen: CardTransform) -> CardTransform {
        layout.settleStart(from: seen, of: photos[card], tilt: cards[card].tilt, position: position(of: card))
    }

    /// Where a card newly among the drawn ones starts, as the layout says.
    private func entrance(of card: Int) -> CardTransform? {
        guard var start = layout.entrance(of: photos[card], tilt: cards[card].tilt, position: position(of: card))
        else { return nil }
        if cards[card].isFlipped { start.flip = .pi }
        return start
    }

    /// Drops motions that no longer show: of cards not drawn, and finished settles, which look like rest.
    mutating func forgetFinishedMotions(drawn: [(number: Int, card: DrawnCard)], at now: Millis) {
        let drawnNumbers = Set(drawn.map(\.number))
        for (card, motion) in motions
        where !drawnNumbers.contains(card) || Self.isFinishedSettle(card, motion, travelling: travelling, at: now) {
            motions[card] = nil
        }
    }

    /// `forgetFinishedMotions` for an event that changed no drawn card's place: every motion left is
    /// of a drawn card already.
    mutating func forgetFinishedSettles(at now: Millis) {
        // Most moves forget nothing: look, without copying the motions, before changing them.
        var finished: [Int] = []
        for (card, motion) in motions where Self.isFinishedSettle(card, motion, travelling: travelling, at: now) {
            finished.append(card)
        }
        for card in finished { motions[card] = nil }
    }

    /// A settle that is over, unless the card still has somewhere to arrive (`travelling`).
    private static func isFinishedSettle(
        _ card: Int, _ motion: CardMotion, travelling: [Int], at now: Millis
    ) -> Bool {
        motion.phase == .settling && !travelling.contains(card) && (motion.animation.map { $0.end <= now } ?? true)
    }
}
