import Foundation

/// The variant sizes pages asked for lately: what the photos coming next in a room are made at
/// ahead of time, so a slideshow step never waits for a conversion. A handful is kept (one per
/// kind of screen watching), and a size nobody asked for in a while is forgotten.
final class AskedSizes: Sendable {
    /// A box as a request asked for it, snapped to the ladder (`Int.max`: unbounded), and whether
    /// the browser takes WebP.
    struct Size: Hashable, Sendable {
        var width: Int
        var height: Int
        var acceptsWebP: Bool
    }

    static let kept = 4
    static let forgetAfter: TimeInterval = 900

    private let lastAsked = Locked<[Size: TimeInterval]>([:])

    func note(_ size: Size, at now: TimeInterval = Date().timeIntervalSince1970) {
        lastAsked.withLock { sizes in
            sizes[size] = now
            guard sizes.count > Self.kept else { return }
            for (old, _) in sizes.sorted(by: { $0.value > $1.value }).dropFirst(Self.kept) { sizes[old] = nil }
        }
    }

    /// The sizes asked for within `forgetAfter`, the latest first.
    func recent(at now: TimeInterval = Date().timeIntervalSince1970) -> [Size] {
        lastAsked.withLock { sizes in
            sizes.filter { now - $0.value <= Self.forgetAfter }.sorted { $0.value > $1.value }.map(\.key)
        }
    }
}
