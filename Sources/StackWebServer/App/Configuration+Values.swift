extension Configuration {
    /// `value` as a number within `range`, or the failure naming `option` and the range in `unit`.
    static func number<Number: LosslessStringConvertible & Comparable>(
        _ value: String, option: String, in range: ClosedRange<Number>, unit: String = ""
    ) throws(Failure) -> Number {
        guard let number = Number(value), range.contains(number) else {
            // Whole bounds as people write them: 1 to 86400, not 1.0 to 86400.0.
            let bound = { (number: Number) in
                let text = "\(number)"
                return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
            }
            let suffix = unit.isEmpty ? "" : " " + unit
            throw Failure(
                description: "\(option) must be \(bound(range.lowerBound)) to \(bound(range.upperBound))\(suffix)")
        }
        return number
    }

    /// A size with an optional `K`, `M`, `G` or `T` suffix, in powers of `base` (1000 for what a phone
    /// shows of a photo, 1024 for a disk cache), at least `least` bytes. `acceptsBytesSuffix` takes
    /// `500MB` and `500MiB` as `500M` too.
    static func size(
        _ value: String, option: String, least: Int64, base: Double = 1000, acceptsBytesSuffix: Bool = false,
        failure: String? = nil
    ) throws(Failure) -> Int64 {
        var text = value.uppercased()
        if acceptsBytesSuffix, text.hasSuffix("B") {
            text = String(text.dropLast(text.hasSuffix("IB") ? 2 : 1))
        }
        let units: [Character: Double] = [
            "K": base, "M": base * base, "G": base * base * base, "T": base * base * base * base,
        ]
        let unit = text.last.flatMap { units[$0] }
        guard let number = Double(unit == nil ? text : String(text.dropLast())), number >= 0,
            number * (unit ?? 1) >= Double(least), number * (unit ?? 1) < 1e15
        else { throw Failure(description: failure ?? "\(option) must be a size such as 50M or 2G") }
        return Int64(number * (unit ?? 1))
    }

    /// Whether `value` may be a token: 16 to 256 printable ASCII characters, no spaces.
    static func isTokenText(_ value: String) -> Bool {
        (16...256).contains(value.utf8.count) && value.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
