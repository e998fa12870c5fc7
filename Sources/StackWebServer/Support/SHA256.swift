import CGnuTLS

/// SHA-256 fed piece by piece, through GnuTLS (the library libmicrohttpd's TLS already brings):
/// what tells two uploads of the same bytes apart from two different photos.
///
/// Not thread-safe: one owner feeds it (an upload's writer queue).
final class SHA256: @unchecked Sendable {
    private var handle: gnutls_hash_hd_t?

    init() {
        // Fails only without memory or with SHA-256 disabled (FIPS builds keep it): then `hex` is nil.
        if gnutls_hash_init(&handle, GNUTLS_DIG_SHA256) != 0 { handle = nil }
    }

    deinit { if let handle { gnutls_hash_deinit(handle, nil) } }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let handle, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = gnutls_hash(handle, base, bytes.count)
    }

    /// The digest as 64 lower-case hex digits; the hash cannot be fed afterwards.
    func finish() -> String? {
        guard let handle else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        gnutls_hash_deinit(handle, &digest)
        self.handle = nil
        return digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }
}
