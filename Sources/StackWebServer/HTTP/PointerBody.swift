/// A pointer POST's body: `{"viewer": "…", "scale": 0.38, "events": [{"type": "…", "pointer": 1,
/// "x": 1.5, "y": 2, "t": 1000, "seq": 7}, …]}` (docs/wire-protocol.md).
struct PointerBody: Decodable, Equatable {
    struct Sample: Decodable, Equatable {
        var type: String
        var pointer: Int
        var x: Double
        var y: Double
        var t: Double
        /// The page's per-pointer sample number (optional: other clients may leave it out).
        var seq: Int?
    }

    var viewer: String
    /// The page's CSS pixels per stage point (optional: other clients may leave it out).
    var scale: Double?
    var events: [Sample]

    /// Reads the body straight from its bytes when it has the common, plain shape; `nil` sends it
    /// to `JSONDecoder` instead.
    ///
    /// Pointer POSTs are the hot path of a drag (one per frame per dragging page), and
    /// `JSONDecoder` was most of their cost. The scanner accepts a strict subset of what
    /// `JSONShape` + `JSONDecoder` accept — printable-ASCII strings without escapes, each known key
    /// at most once (`seq` and `scale` may be left out, the others may not), no other keys, integers (pointer,
    /// seq) of at most 18 digits, finite numbers — so
    /// anything else gets the decoder's exact answer or error, and the two paths cannot disagree on
    /// what a body means (`PointerBodyTests` and the pointer fuzz target check that they don't).
    static func scan(_ bytes: [UInt8]) -> PointerBody? {
        var scanner = Scanner(bytes)
        guard let body = scanner.body() else { return nil }
        scanner.skipWhitespace()
        return scanner.isAtEnd ? body : nil
    }
}

/// A one-pass reader over a pointer body's bytes; every method returns `nil` (or `false`) at the
/// first thing outside the plain shape.
private struct Scanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func body() -> PointerBody? {
        var viewer: String?
        var scale: Double??
        var events: [PointerBody.Sample]?
        let complete = object { key, scanner in
            switch key {
            case "viewer" where viewer == nil:
                viewer = scanner.string()
                return viewer != nil
            case "scale": return Self.take(scanner.number().map(Optional.some), into: &scale)
            case "events" where events == nil:
                events = scanner.samples()
                return events != nil
            default: return false
            }
        }
        guard complete, let viewer, let events else { return nil }
        return PointerBody(viewer: viewer, scale: scale ?? nil, events: events)
    }

    private mutating func samples() -> [PointerBody.Sample]? {
        guard consume(UInt8(ascii: "[")) else { return nil }
        var samples: [PointerBody.Sample] = []
        if consume(UInt8(ascii: "]")) { return samples }
        repeat {
            guard let sample = sample() else { return nil }
            samples.append(sample)
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]")) ? samples : nil
    }

    private mutating func sample() -> PointerBody.Sample? {
        var type: String?
        var pointer: Int?
        var x: Double?
        var y: Double?
        var t: Double?
        var seq: Int??
        let complete = object { key, scanner in
            switch key {
            case "type": return Self.take(scanner.string(), into: &type)
            case "pointer": return Self.take(scanner.integer(), into: &pointer)
            case "x": return Self.take(scanner.number(), into: &x)
            case "y": return Self.take(scanner.number(), into: &y)
            case "t": return Self.take(scanner.number(), into: &t)
            case "seq": return Self.take(scanner.integer().map(Optional.some), into: &seq)
            default: return false
            }
        }
        guard complete, let type, let pointer, let x, let y, let t else { return nil }
        return PointerBody.Sample(type: type, pointer: pointer, x: x, y: y, t: t, seq: seq ?? nil)
    }

    /// Stores a scanned value in a field not yet set; `false` for a value that did not scan or a
    /// key given twice.
    private static func take<Value>(_ value: Value?, into field: inout Value?) -> Bool {
        guard field == nil, let value else { return false }
        field = value
        return true
    }

    /// Reads `{ "key": value, … }`, handing each key to `member`, which reads the value and says
    /// whether it was one it knows. `false` for an unknown key, a bad value or broken syntax.
    private mutating func object(_ member: (String, inout Scanner) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), consume(UInt8(ascii: ":")), member(key, &self) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    /// A string of printable ASCII without escapes (any other string takes the decoder's path).
    private mutating func string() -> String? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard (0x20...0x7E).contains(bytes[index]), bytes[index] != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// A JSON integer of at most 18 digits (no fraction or exponent), which always fits an `Int`.
    private mutating func integer() -> Int? {
        skipWhitespace()
        let start = index
        guard let end = numberEnd(), !bytes[start..<end].contains(where: { !isDigitOrMinus($0) }),
            end - start <= 18
        else { return nil }
        index = end
        return Int(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// A JSON number that is finite as a `Double`.
    private mutating func number() -> Double? {
        skipWhitespace()
        let start = index
        guard let end = numberEnd(), let value = Double(String(decoding: bytes[start..<end], as: UTF8.self)),
            value.isFinite
        else { return nil }
        index = end
        return value
    }

    /// Where the JSON number starting at `index` ends: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private func numberEnd() -> Int? {
        var end = index
        func digits() -> Int {
            let start = end
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            return end - start
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "-") { end += 1 }
        let leadingZero = end < bytes.count && bytes[end] == UInt8(ascii: "0")
        let integerDigits = digits()
        guard integerDigits > 0, !(leadingZero && integerDigits > 1) else { return nil }
        if end < bytes.count, bytes[end] == UInt8(ascii: ".") {
            end += 1
            guard digits() > 0 else { return nil }
        }
        if end < bytes.count, bytes[end] | 0x20 == UInt8(ascii: "e") {
            end += 1
            if end < bytes.count, bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-") { end += 1 }
            guard digits() > 0 else { return nil }
        }
        return end
    }

    private func isDigitOrMinus(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Skips whitespace, then takes `byte` if it is next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }
}
