import CVips

/// libvips must be started once per process before any image call.
public enum CVipsSetup {
    /// Swift runs a static initialiser exactly once, even when many threads ask at the same time.
    private static let started: Bool = CVips_init() == 0

    public static func start() {
        guard started else { fatalError("libvips failed to start") }
    }
}
