/// Stable identity of a card within a room's stack.
public typealias CardID = String

/// A card as the viewers draw it: its place in the stack, its resting transform and, while it moves,
/// the rest of its motion.
public struct DrawnCard: Sendable, Equatable {
    public var id: CardID
    /// The photo shown on the card's face.
    public var photo: String
    /// Place in the stack, 0 = front/top.
    public var position: Int
    /// Drawing order: larger is drawn on top.
    public var z: Int
    /// Where the card rests (the animation's `to` while it moves).
    public var transform: CardTransform
    public var highlight: Bool
    /// Present while the card moves; `nil` at rest or while a pointer drags it.
    public var animation: CardAnimation?

    public init(
        id: CardID, photo: String, position: Int, z: Int, transform: CardTransform,
        highlight: Bool = false, animation: CardAnimation? = nil
    ) {
        self.id = id
        self.photo = photo
        self.position = position
        self.z = z
        self.transform = transform
        self.highlight = highlight
        self.animation = animation
    }
}
