/// The `angles` style (the UICollectionView StackCollectionViewLayout): every card square, centred
/// on the stage, turned by the original's five angles in turn, position 0 on top.
///
/// The original's cards are 120 pt on a 375-pt-wide phone screen (32 % of its short side); here
/// they are 36 % of the stage's short side (276.5 pt on the default stage), square as the
/// original's: the same on a phone, and over a third of a TV's height, seen from a sofa
/// (docs/styles.md).
///
/// Presses only tap: a tap on a card deletes it, a tap on empty stage inserts one in front.
struct AnglesLayout: StyleLayout, Equatable {
    /// Radians, clockwise, for positions 0, 1, 2, 3, 4, then again from 5.
    static let angles: [Double] = [0, 0.2, -0.5, -0.2, 0.5]
    /// A card's side over the stage's short side: the original's 120 pt over its phone's 375 pt is
    /// 0.32, which on a 1080p TV is 32 % of its height; 0.36 passes the 35 % a card seen across a
    /// room needs, and a card turned by 0.5 rad still takes under half the height.
    static let itemShare = 0.36
    /// Two turns of the five angles. A card from position 5 on lies exactly under the card five above
    /// it (same centre, size and angle), so only the first turn shows at rest; the second is there for
    /// the moment cards shift forward after a delete.
    static let drawnLimit = 10

    var stage: StageSize

    var drawnLimit: Int { Self.drawnLimit }

    var itemSize: Double { Self.itemShare * min(stage.width, stage.height) }

    func restTransform(of photo: Photo, tilt: Int8, position: Int) -> CardTransform {
        CardTransform(
            x: stage.width / 2, y: stage.height / 2, w: itemSize, h: itemSize,
            rotation: Self.angles[position % Self.angles.count])
    }

    var draggedLayers: Int { 0 }
}
