/// `--public-url`: the address other devices reach this server by when it is not the one it
/// listens on — behind a proxy (`https://frame.example`), or a name the LAN resolves. The QR code
/// and the printed lines use it, and its host is a name the server answers to.
struct PublicURL: Equatable, Sendable {
    /// `http` or `https`.
    let scheme: String
    /// The host and port as a `Host` header names them: `frame.example`, `192.168.1.20:8080`.
    let authority: String

    /// The URL without a trailing slash: `https://frame.example`.
    var base: String { "\(scheme)://\(authority)" }

    /// The host name without its port, for the `Host` allow-list (`nil` for an IP literal, which
    /// is always allowed).
    var hostName: String? { RequestFilter.hostName(authority) }

    /// Parses `http[s]://HOST[:PORT][/]`; a path would be ignored by the page's absolute URLs, so it
    /// is refused rather than silently dropped.
    init(parsing text: String) throws(Configuration.Failure) {
        let failure = Configuration.Failure(
            description: "--public-url must be http://HOST[:PORT] or https://HOST[:PORT], such as https://frame.example"
        )
        let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "http" || parts[0] == "https" else { throw failure }
        var authority = String(parts[1])
        if authority.hasSuffix("/") { authority.removeLast() }
        guard !authority.isEmpty, authority.utf8.count <= 260,
            !authority.contains(where: { "/?#@ ".contains($0) }),
            RequestFilter.hostName(authority) != nil
        else { throw failure }
        scheme = String(parts[0])
        self.authority = authority
    }
}
