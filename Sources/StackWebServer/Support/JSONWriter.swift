/// Writes compact JSON straight into bytes.
///
/// Used for everything the server sends on the hot path (snapshots, changes): one pass, no
/// intermediate dictionaries, no line breaks (an SSE `data:` line must not contain one).
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        container(open: "{", close: "}", body)
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        container(open: "[", close: "]", body)
    }

    private mutating func container(open: Unicode.Scalar, close: Unicode.Scalar, _ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: open))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: close))
        needsComma = true
    }

    mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int) { key(name); number(value) }
    mutating func field(_ name: String, _ value: Double) { key(name); number(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    /// A string, or `null` when absent.
    mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }
    mutating func object(_ name: String, _ body: (inout JSONWriter) -> Void) { key(name); object(body) }
    mutating func array(_ name: String, _ body: (inout JSONWriter) -> Void) { key(name); array(body) }

    mutating func string(_ value: String) {
        separate()
        appendString(value)
        needsComma = true
    }

    mutating func number(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// Whole numbers are written without a fraction; non-finite values (which JSON cannot hold)
    /// are written as 0 — the model never produces them, this only keeps the output valid.
    mutating func number(_ value: Double) {
        separate()
        if !value.isFinite {
            bytes.append(UInt8(ascii: "0"))
        } else if value == value.rounded(), abs(value) < 1e15 {
            bytes.append(contentsOf: String(Int64(value)).utf8)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
        needsComma = true
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Keys, ids and paths need no escape: copied in one go rather than byte by byte.
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for unit in value.utf8 {
            switch unit {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 0x0A: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(unit >> 4)], hex[Int(unit & 15)]])
            default: bytes.append(unit)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
