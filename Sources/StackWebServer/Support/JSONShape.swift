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
                    let key = Array(bytes[(index + 1)..<max(index + 1, end - 1)])
                    if !levels[last].keys.insert(key).inserted {
                        return .duplicateKey(String(decoding: key, as: UTF8.self))
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
