import Foundation

/// The PEM certificate chain and private key the server speaks HTTPS with (`--tls-cert`,
/// `--tls-key`), read once at start.
struct TLSCredentials: Sendable, Equatable {
    var certificatePEM: String
    var keyPEM: String

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
