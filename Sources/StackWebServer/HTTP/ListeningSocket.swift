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

    /// Whether every address `host` stands for is this machine's loopback (127.0.0.0/8, ::1, or
    /// 127.0.0.0/8 mapped into IPv6), however it is written: `127.0.0.2`, `2130706434`,
    /// `0x7f.1`, `0:0::1` and `localhost` are; a name that merely starts with `127.` is not.
    /// Decided by value because it turns off the token and the per-address connection cap.
    static func isLoopback(host: String) -> Bool {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            entry = info.ai_next
            guard let address = info.ai_addr, isLoopback(address) else { return false }
        }
        return true
    }

    private static func isLoopback(_ address: UnsafePointer<sockaddr>) -> Bool {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
            }
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
            }
            let mapped = bytes[..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return bytes[..<15].allSatisfy { $0 == 0 } && bytes[15] == 1 || mapped && bytes[12] == 127
        default:
            return false
        }
    }

    /// An IPv4 or IPv6 address without port (`192.168.1.20`, `::1`); "" for another family.
    static func text(of address: UnsafePointer<sockaddr>) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var value = ipv4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &value, &text, socklen_t(text.count))
            }
        case AF_INET6:
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var value = ipv6.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &value, &text, socklen_t(text.count))
            }
        default:
            return ""
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The numeric address `descriptor` is bound to (`127.0.0.2`, `::1`), as a URL shows it.
    static func boundAddress(of descriptor: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length) == 0
                    && getnameinfo($0, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0
            }
        }
        guard found else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
