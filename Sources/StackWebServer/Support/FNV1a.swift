/// 64-bit FNV-1a: a small, stable, non-cryptographic hash for ids, ETags and seeds that must not
/// change between runs (Swift's `Hasher` is seeded per process).
enum FNV1a {
    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let value = String(hash(bytes), radix: 16)
        return String(repeating: "0", count: 16 - value.count) + value
    }
}
