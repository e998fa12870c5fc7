import Foundation

/// The PEM certificate chain and private key the server speaks HTTPS with (`--tls-cert`,
/// `--tls-key`), read once at start.
struct TLSCredentials: Sendable, Equatable {
    var certificatePEM: String
    var keyPEM: String

    /// What HTTPS negotiates, as a GnuTLS priority string: TLS 1.3 and 1.2 only, key exchange by
    /// ephemeral elliptic-curve Diffie-Hellman only (forward secrecy: a stolen key does not open
    /// recorded sessions), AEAD ciphers only (AES-GCM, ChaCha20-Poly1305). Not `%SERVER_PRECEDENCE`:
    /// with it GnuTLS insists on its first curve, and a browser offering an X25519 key share is
    /// sent back for another one (a round trip more at every connection).
    /// Every browser of the last ten years speaks it; TLS 1.0/1.1, static RSA (`AES128-SHA`) and CBC
    /// suites are refused at the handshake.
    static let priorities =
        "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA"
        + ":-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:-MAC-ALL:+AEAD"

    /// Reads both files; a missing, unreadable or non-PEM file stops the start with its name.
    static func load(certificate: String, key: String) throws(HTTPServerError) -> TLSCredentials {
        TLSCredentials(certificatePEM: try read(certificate, what: "certificate"), keyPEM: try read(key, what: "key"))
    }

    private static func read(_ path: String, what: String) throws(HTTPServerError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .tls("cannot read the TLS \(what) \(path)")
        }
        guard let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN ") else {
            throw .tls("the TLS \(what) \(path) is not a PEM file")
        }
        return text
    }
}
