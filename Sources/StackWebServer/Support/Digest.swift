import CGnuTLS

/// SHA-256 and HMAC-SHA-256 through GnuTLS, which the server links already for HTTPS: the one
/// place that calls its digests.
enum Digest {
    /// Bytes in a SHA-256 digest.
    static let size = 32

    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: size)
        let status = bytes.withUnsafeBytes { input in
            gnutls_hash_fast(GNUTLS_DIG_SHA256, input.baseAddress, input.count, &digest)
        }
        // Fails only for an algorithm GnuTLS lacks, and every GnuTLS has SHA-256.
        precondition(status == 0, "gnutls_hash_fast: \(status)")
        return digest
    }

    /// HMAC-SHA-256 of `message` keyed with `key`.
    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: size)
        let status = key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                gnutls_hmac_fast(
                    GNUTLS_MAC_SHA256, key.baseAddress, key.count, message.baseAddress, message.count, &digest)
            }
        }
        precondition(status == 0, "gnutls_hmac_fast: \(status)")
        return digest
    }

    /// `count` bytes from the system's cryptographic generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Lowercase hex digits of `bytes`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `hex` spells (two digits each, either case); nil when it is not hex.
    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for pair in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(of: digits[pair]), let low = value(of: digits[pair + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
