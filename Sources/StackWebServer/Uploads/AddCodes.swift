/// What the QR code on a room's wall names: its add page (`/add?room=NAME`) with the add token, at
/// the address the viewer reached the server by.
///
/// The code shows the add token to everyone in front of the wall: that is what it is for, and the
/// add token only adds photos to rooms that take them. It never carries the control token — with
/// no add token (a loopback server, `--no-token`) the URL has no token at all.
struct AddCodes: Sendable {
    /// The add token (`--add-token`, or generated); `nil`: the URL carries none.
    var addToken: String?
    /// `https` when the server speaks TLS.
    var scheme = "http"
    /// The LAN address start-up prints first (`192.168.1.20`), for a viewer that reached the
    /// server by a loopback name: a kiosk on the server's own screen shows a code phones can open.
    var lanHost: String?
    /// `--port`, for a request without `Host` (HTTP/1.0).
    var port: UInt16 = 8080
    /// `--public-url` without its slash (`https://frame.example`): when given, every code names it.
    var publicBase: String?

    /// What a wall says instead of a code that would name this machine only (`127.0.0.1` on a
    /// guest's phone is the phone).
    static let unreachable = """
        Guests' phones cannot reach this server: it listens on this machine only (127.0.0.1). \
        Start it with --host 0.0.0.0 to serve the LAN, or name the address phones reach it by \
        with --public-url URL (behind a proxy).
        """

    /// The add page's URL for `room` as reached through `hostHeader` (validated by `RequestFilter`
    /// already), or `nil` when the only address known names this machine itself. The token goes
    /// in the fragment: a browser never sends it in a request line, a log or a `Referer`.
    func url(room: String, hostHeader: String?) -> String? {
        guard let host = publicBase ?? reachableHost(hostHeader: hostHeader).map({ "\(scheme)://\($0)" }) else {
            return nil
        }
        let page = "\(host)/add?room=\(room)"
        return addToken.map { page + "#token=" + $0 } ?? page
    }

    /// The host and port a phone reaches: the `Host` the viewer used, unless it names this
    /// machine only; then the LAN address (a kiosk on the server's own screen), if there is one.
    private func reachableHost(hostHeader: String?) -> String? {
        switch (hostHeader, lanHost) {
        case (let header?, let lan?) where Self.isLoopback(hostHeader: header):
            lan + Self.portSuffix(hostHeader: header)
        case (let header?, _): Self.isLoopback(hostHeader: header) ? nil : header
        case (nil, let lan?): "\(lan):\(port)"
        case (nil, nil): nil
        }
    }

    /// Whether a `Host` names this machine only: `localhost`, `127.x.y.z` or `[::1]`, any port.
    static func isLoopback(hostHeader: String) -> Bool {
        guard let name = RequestFilter.hostName(hostHeader) else { return false }
        return name == "localhost" || name == "localhost." || name == "::1" || name.hasPrefix("127.")
    }

    /// `:8080` of `127.0.0.1:8080` or `[::1]:8080`; empty without a port.
    static func portSuffix(hostHeader: String) -> String {
        let afterName = hostHeader.hasPrefix("[") ? hostHeader.drop { $0 != "]" }.dropFirst() : hostHeader[...]
        return afterName.firstIndex(of: ":").map { String(afterName[$0...]) } ?? ""
    }

    /// `GET /api/rooms/ROOM/add-code.svg`: the code; 404 for a room that takes no photos (so a
    /// wall never shows a code that would only lead to a refusal); 409, saying how to fix it, when
    /// no address a phone could reach is known. `no-store`: it carries a token,
    /// and a generated one changes at each start.
    func answer(room: String, mode: UploadSettings.Mode, hostHeader: String?) -> Response {
        guard mode != .off else {
            let words =
                "This room takes no photos from guests (the server needs --uploads open, or --uploads \(room)=open)."
            return .error(404, words)
        }
        guard let address = url(room: room, hostHeader: hostHeader) else { return .error(409, Self.unreachable) }
        guard let code = QRCode(encoding: address) else {
            return .error(500, "the add page's address does not fit in a QR code")
        }
        let svg = code.svg(title: "Scan to add your photos to \(room)")
        return Response(
            status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store")],
            body: .bytes(Array(svg.utf8)))
    }
}
