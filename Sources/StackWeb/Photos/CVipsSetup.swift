import CVips

/// libvips must be started once per process before any image call.
enum CVipsSetup {
    static func start() {
        if CVips_init("stackweb") != 0 {
            fatalError("libvips failed to start")
        }
    }
}
