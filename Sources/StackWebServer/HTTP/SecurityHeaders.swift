/// The headers every answer carries, whatever its route: a page that keeps the control token in
/// local storage must not run a script from anywhere else, be framed by another site, or have a
/// response sniffed into something it is not.
///
/// The policy allows what `Resources/web` uses and nothing more: its own module scripts and
/// style sheet, images from itself (`data:` only for the empty favicon), `fetch`/EventSource to
/// itself, and its own shared worker (the one event stream per room that a browser's tabs share).
/// It has no inline script or style, and decodes photos from fetched blobs without a `blob:` URL.
struct SecurityHeaders: Sendable, Equatable {
    /// `--allow-embedding`: another site's page may show this one in a frame.
    var allowsEmbedding = false

    var contentSecurityPolicy: String {
        var directives = [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
            "connect-src 'self'", "worker-src 'self'", "base-uri 'none'", "form-action 'none'",
        ]
        if !allowsEmbedding { directives.append("frame-ancestors 'none'") }
        return directives.joined(separator: "; ")
    }

    /// In the order they are sent. `X-Frame-Options` is for browsers older than `frame-ancestors`.
    var fields: [(String, String)] {
        var fields = [
            ("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
        ]
        if !allowsEmbedding { fields.append(("X-Frame-Options", "DENY")) }
        return fields
    }
}
