/// The phone screen the deck and swipe views were written for (375 × 667 pt, an iPhone 6), scaled
/// to fit the stage and centred, and the deck's card inside it.
///
/// The original card deck sizes its card from the screen (`CGRectInset(view.frame, 20, 100)`:
/// 335 × 467 pt) and SMSwipeView fills its view. Insetting the landscape stage itself would give a
/// 984 × 568 card whose 7-pt layers barely show and that cannot tilt 15° without leaving the stage;
/// fitting the portrait phone screen keeps the originals' card proportions on any stage (385.7 ×
/// 537.7 on the default 1024 × 768). See docs/styles.md.
struct PhoneScreen: Sendable, Equatable {
    static let width = 375.0
    static let height = 667.0
    static let cardInsetX = 20.0
    static let cardInsetY = 100.0

    var stage: StageSize

    /// Stage points per phone point.
    var scale: Double { min(stage.width / Self.width, stage.height / Self.height) }
    var width: Double { Self.width * scale }
    var centre: Point { Point(x: stage.width / 2, y: stage.height / 2) }
    var cardWidth: Double { (Self.width - 2 * Self.cardInsetX) * scale }
    var cardHeight: Double { (Self.height - 2 * Self.cardInsetY) * scale }
}
