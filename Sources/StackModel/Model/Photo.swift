/// A photo the stack can show: a stable id and its upright pixel size (aspect drives card size).
public struct Photo: Sendable, Equatable, Hashable {
    public let id: String
    public let width: Int
    public let height: Int

    public init(id: String, width: Int, height: Int) {
        self.id = id
        self.width = width
        self.height = height
    }
}
