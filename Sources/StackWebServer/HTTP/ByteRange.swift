/// What a `Range` request header asks of a file of a known size (RFC 9110 §14): one span of bytes,
/// the whole file, or nothing it holds.
///
/// One range only: a request for several (`bytes=0-1,5-9`) is answered whole, as the RFC allows,
/// rather than as a multipart body no media player asks for. A header that does not parse is
/// ignored the same way (RFC 9110 §14.2: a server may ignore Range).
enum ByteRange: Equatable, Sendable {
    /// 200 with every byte.
    case whole
    /// 206 with `length` bytes from `offset`.
    case partial(offset: Int64, length: Int64)
    /// 416: the range starts at or past the end (or asks for a suffix of nothing).
    case unsatisfiable

    /// The longest header read: a browser sends `bytes=N-` or `bytes=N-M`.
    static let maxHeaderLength = 100

    /// What `header` asks of a file of `size` bytes.
    init(header: String?, size: Int64) {
        guard let header, header.utf8.count <= Self.maxHeaderLength else {
            self = .whole
            return
        }
        let parts = header.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].trimmed.lowercased() == "bytes" else {
            self = .whole
            return
        }
        let spec = parts[1].trimmed
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            // A suffix: the last N bytes.
            guard let suffix = Self.number(last) else {
                self = .whole
                return
            }
            guard suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            let length = min(suffix, size)
            self = .partial(offset: size - length, length: length)
            return
        }
        guard let start = Self.number(first) else {
            self = .whole
            return
        }
        let end: Int64?
        if last.isEmpty {
            end = nil
        } else {
            guard let value = Self.number(last), value >= start else {
                self = .whole
                return
            }
            end = value
        }
        guard start < size else {
            self = .unsatisfiable
            return
        }
        let stop = min(end ?? size - 1, size - 1)
        self = .partial(offset: start, length: stop - start + 1)
    }

    /// Digits only (no sign, no space inside), at most 18 of them: no overflow.
    private static func number(_ text: Substring) -> Int64? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int64(text)
    }

    /// Whether a request's `If-Range` lets its `Range` apply to the file whose entity tag is `etag`:
    /// only the same strong tag does (RFC 9110 §13.1.5); a date or a weak tag means "send it whole".
    static func applies(ifRange: String?, etag: String) -> Bool {
        guard let ifRange else { return true }
        return !ifRange.hasPrefix("W/") && ifRange.trimmed == etag
    }
}

extension StringProtocol {
    /// Without the spaces and tabs around it (a header's optional whitespace).
    fileprivate var trimmed: Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last].description[...]
    }
}
