/// Checks, in one pass, what `JSONDecoder` lets through or handles badly: nesting depth (a deep
/// body must not recurse the decoder off the stack), duplicate keys (which one wins is not for a
/// client to choose) and invalid UTF-8.
enum JSONShape {
    /// Our bodies nest three levels; anything far deeper is an attack or a bug.
    static let maxDepth = 16

    enum Problem: Error, Equatable, CustomStringConvertible {
        case invalidUTF8
        case tooDeep
        case duplicateKey(String)

        var description: String {
            switch self {
            case .invalidUTF8: "the body is not valid UTF-8"
            case .tooDeep: "JSON nested deeper than \(JSONShape.maxDepth) levels"
            case .duplicateKey(let key): "duplicate key \"\(key.prefix(40))\""
            }
        }
    }

    private struct Level {
        var isObject: Bool
        var keys: Set<[UInt8]> = []
        var expectsKey: Bool
    }

    /// The first problem found, or `nil`. Syntax errors are left to the decoder.
    /// - Complexity: O(bytes).
    static func problem(in bytes: [UInt8]) -> Problem? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return .invalidUTF8 }
        var levels: [Level] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[index] == UInt8(ascii: "{")
                levels.append(Level(isObject: isObject, expectsKey: isObject))
                if levels.count > maxDepth { return .tooDeep }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = levels.popLast()
            case UInt8(ascii: ","):
                if let last = levels.indices.last, levels[last].isObject { levels[last].expectsKey = true }
            case UInt8(ascii: "\""):
                let end = endOfString(bytes, from: index)
                if let last = levels.indices.last, levels[last].expectsKey {
                    levels[last].expectsKey = false
                    // Compared as decoded: `"\u0063ommand"` is `"command"` to the decoder.
                    let raw = bytes[(index + 1)..<max(index + 1, end - 1)]
                    if !levels[last].keys.insert(unescaped(raw)).inserted {
                        return .duplicateKey(String(decoding: raw, as: UTF8.self))
                    }
                }
                index = end
                continue
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A string's content with its escapes undone, as UTF-8 (a malformed escape is kept as it is:
    /// the decoder refuses the body anyway). The body is valid UTF-8 by now.
    static func unescaped(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        guard raw.contains(UInt8(ascii: "\\")) else { return Array(raw) }
        let units = Array(String(decoding: raw, as: UTF8.self).utf16)
        var decoded: [UInt16] = []
        var index = 0
        while index < units.count {
            guard units[index] == 0x5C, index + 1 < units.count else {
                decoded.append(units[index])
                index += 1
                continue
            }
            let escaped = units[index + 1]
            if escaped == 0x75, index + 6 <= units.count,
                let value = UInt16(String(decoding: units[(index + 2)..<(index + 6)], as: UTF16.self), radix: 16)
            {
                decoded.append(value)
                index += 6
                continue
            }
            let simple: [UInt16: UInt16] = [0x6E: 0x0A, 0x74: 0x09, 0x72: 0x0D, 0x62: 0x08, 0x66: 0x0C]
            decoded.append(simple[escaped] ?? escaped)
            index += 2
        }
        return Array(String(decoding: decoded, as: UTF16.self).utf8)
    }

    /// The index just past the closing quote of the string opening at `start` (or the end).
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }
}
