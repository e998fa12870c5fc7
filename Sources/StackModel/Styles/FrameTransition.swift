/// How the `frame` style changes from one photo to the next (`--transition`). See docs/styles.md.
public enum FrameTransition: String, Sendable, Equatable, CaseIterable {
    /// The outgoing photo fades out while the incoming one fades in.
    case fade
    /// The incoming photo lies whole under the outgoing one, which fades out over it, and slowly
    /// zooms and pans there (`KenBurns`).
    case kenBurns = "kenburns"
}
