/// Reads the `Last-Event-ID` a reconnecting EventSource sends back.
enum LastEventID {
    /// The id as a sequence number, or `nil` (then the viewer gets a fresh snapshot) for anything
    /// that is not a plain non-negative decimal that fits: garbage, signs, spaces, huge values.
    static func parse(_ header: String?) -> Int? {
        guard let header, (1...19).contains(header.utf8.count),
            header.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(header)
    }
}
