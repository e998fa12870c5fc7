import CMicroHTTPD
import CMicroHTTPDSystem
import Glibc

/// The answer to a streamed body refused while it still arrives (past the size limit, the quota,
/// its pace), put on the socket at once. libmicrohttpd 0.9.75 queues a response only before the
/// body or after all of it, and a chunked body past the limit may never end, a trickle takes for
/// ever: the guest would hear nothing. So the answer is written here, with `Connection: close`,
/// the sending half shut, and the connection lingers a moment (`ConnectionGuard.Phase.draining`)
/// so that the guest reads the answer before the close. Plain HTTP only: over TLS the bytes
/// must go through GnuTLS, and the answer comes when the body ends (or the connection is cut).
enum EarlyAnswer {
    /// `response` as HTTP/1.1 puts it on the wire, ending the connection.
    static func bytes(_ response: Response, headers: [(String, String)]) -> [UInt8] {
        guard case .bytes(let body) = response.body else { return [] }
        let reason = MHD_get_reason_phrase_for(UInt32(response.status)).map { String(cString: $0) } ?? ""
        var head = "HTTP/1.1 \(response.status) \(reason)\r\n"
        for (name, value) in headers + response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Writes `response` to `socket` without blocking (a short answer fits an empty socket buffer)
    /// and shuts the sending half; whether it was all written.
    static func send(_ response: Response, headers: [(String, String)], on socket: Int32) -> Bool {
        let bytes = bytes(response, headers: headers)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            sent += count
        }
        shutdown(socket, Int32(SHUT_WR))
        return sent == bytes.count && !bytes.isEmpty
    }
}
