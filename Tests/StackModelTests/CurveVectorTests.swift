import Foundation
import StackModel
import Testing

/// Test vectors for the page's curve evaluator, `Tests/web/curve-vectors.json`.
///
/// `STACKWEB_WRITE_VECTORS=1 swift test --filter CurveVectorTests` rewrites the file; otherwise the test
/// checks that the committed file still holds what Swift computes, so the page and the server cannot
/// drift apart unseen. The format is docs/wire-protocol.md's.
@Suite struct CurveVectorTests {
    static let file = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "web/curve-vectors.json")

    /// Under-, critically and over-damped springs with and without initial velocity (the model's own
    /// settle and flight springs among them), and every eased curve.
    static let curves: [Curve] = [
        .spring(stiffness: 170, damping: 12, mass: 1, velocity: 0),
        .spring(stiffness: 170, damping: 12, mass: 1, velocity: 5),
        .spring(stiffness: 300, damping: 10, mass: 2, velocity: -2),
        .spring(stiffness: 170, damping: 26, mass: 1, velocity: 0),
        .spring(stiffness: 170, damping: 26, mass: 1, velocity: -3),
        .spring(stiffness: 100, damping: 20, mass: 1, velocity: 0),
        .spring(stiffness: 225, damping: 30, mass: 1, velocity: 0),
        .spring(stiffness: 225, damping: 30, mass: 1, velocity: 2),
        .spring(stiffness: 225, damping: 30, mass: 1, velocity: 40),
        .spring(stiffness: 100, damping: 40, mass: 1, velocity: 0),
        .spring(stiffness: 100, damping: 40, mass: 1, velocity: 4),
        .linear, .easeOut, .easeInOut,
    ]

    struct Vector: Codable, Equatable {
        var curve: CurveDescription
        var duration: Millis
        var samples: [[Double]]
    }

    struct CurveDescription: Codable, Equatable {
        var type: String
        var stiffness: Double?
        var damping: Double?
        var mass: Double?
        var velocity: Double?

        init(_ curve: Curve) {
            switch curve {
            case .spring(let stiffness, let damping, let mass, let velocity):
                self.init(type: "spring", stiffness: stiffness, damping: damping, mass: mass, velocity: velocity)
            case .easeOut: self.init(type: "easeOut")
            case .easeInOut: self.init(type: "easeInOut")
            case .linear: self.init(type: "linear")
            }
        }

        init(
            type: String, stiffness: Double? = nil, damping: Double? = nil, mass: Double? = nil, velocity: Double? = nil
        ) {
            self.type = type
            self.stiffness = stiffness
            self.damping = damping
            self.mass = mass
            self.velocity = velocity
        }
    }

    static func duration(of curve: Curve) -> Millis {
        guard case .spring(let stiffness, let damping, let mass, let velocity) = curve else { return 400 }
        return Curve.springSettleDuration(stiffness: stiffness, damping: damping, mass: mass, velocity: velocity)
    }

    /// Before the start, at it, a fractional millisecond, tenths of the way, just before, at and after the end.
    static func vectors() -> [Vector] {
        curves.map { curve in
            let duration = duration(of: curve)
            let times =
                [-50, 0, 12.5] + (1...9).map { duration * Double($0) / 10 } + [duration - 1, duration, duration + 100]
            let samples = times.map { [$0, curve.progress(elapsed: $0, duration: duration)] }
            return Vector(curve: CurveDescription(curve), duration: duration, samples: samples)
        }
    }

    /// One vector per line group, numbers in Swift's shortest round-trip form (valid JSON).
    static func json(_ vectors: [Vector]) -> String {
        func curve(_ description: CurveDescription) -> String {
            var fields = ["\"type\": \"\(description.type)\""]
            for (key, value) in [
                ("stiffness", description.stiffness), ("damping", description.damping),
                ("mass", description.mass), ("velocity", description.velocity),
            ] {
                if let value { fields.append("\"\(key)\": \(value)") }
            }
            return "{\(fields.joined(separator: ", "))}"
        }
        let entries = vectors.map { vector in
            let samples = vector.samples.map { "[\($0[0]), \($0[1])]" }.joined(separator: ",\n    ")
            return
                "  {\"curve\": \(curve(vector.curve)), \"duration\": \(vector.duration),\n   \"samples\": [\n    \(samples)]}"
        }
        return "[\n\(entries.joined(separator: ",\n"))\n]\n"
    }

    @Test func theCommittedVectorsMatchWhatSwiftComputes() throws {
        let fresh = Self.vectors()
        if ProcessInfo.processInfo.environment["STACKWEB_WRITE_VECTORS"] == "1" {
            try Self.json(fresh).write(to: Self.file, atomically: true, encoding: .utf8)
        }
        let stored = try JSONDecoder().decode([Vector].self, from: Data(contentsOf: Self.file))
        #expect(stored.count == fresh.count)
        for (old, new) in zip(stored, fresh) {
            #expect(old.curve == new.curve && old.duration == new.duration)
            #expect(old.samples.map { $0[0] } == new.samples.map { $0[0] })
            for (before, now) in zip(old.samples, new.samples) {
                #expect(abs(before[1] - now[1]) <= 1e-12, "\(old.curve.type) at \(before[0]) ms")
            }
        }
    }

    @Test func theVectorsCoverEveryKindOfCurve() {
        var kinds: Set<String> = []
        for curve in Self.curves {
            switch curve {
            case .spring(let stiffness, let damping, let mass, let velocity):
                let zeta = damping / (2 * (stiffness * mass).squareRoot())
                let regime = abs(zeta - 1) < 1e-6 ? "critical" : zeta < 1 ? "under" : "over"
                kinds.insert("\(regime) \(velocity == 0 ? "at rest" : "moving")")
            default:
                kinds.insert("\(curve)")
            }
        }
        #expect(
            kinds == [
                "under at rest", "under moving", "critical at rest", "critical moving", "over at rest", "over moving",
                "linear", "easeOut", "easeInOut",
            ])
    }
}
