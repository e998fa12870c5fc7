import Glibc

/// Opens the listening socket ourselves so the server binds exactly the host asked for
/// (libmicrohttpd's own bind takes only a port, or a sockaddr through its variadic options).
enum ListeningSocket {
    /// Returns a bound, listening descriptor for `host:port` (IPv4 or IPv6 literal or name).
    static func open(host: String, port: UInt16) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw HTTPServerError.cannotStart(host: host, port: port, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            entry = info.ai_next
            let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
            guard fd >= 0 else { continue }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            // A large backlog: a storm of reconnecting viewers must not be refused by the kernel.
            if bind(fd, info.ai_addr, info.ai_addrlen) == 0, listen(fd, 4096) == 0 {
                return fd
            }
            lastError = String(cString: strerror(errno))
            Glibc.close(fd)
        }
        throw HTTPServerError.cannotStart(host: host, port: port, reason: lastError)
    }
}
