import Glibc

/// The machine's addresses other devices can reach it at, for the start-up message.
enum NetworkAddresses {
    /// Every IPv4 address of an interface that is up and not loopback, in interface order.
    static func lanIPv4() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var entry = list
        while let current = entry?.pointee {
            entry = current.ifa_next
            let flags = Int32(current.ifa_flags)
            guard let address = current.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var raw = ipv4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &raw, &text, socklen_t(INET_ADDRSTRLEN))
            }
            found.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return found
    }

    /// This machine's name, as `gethostname` reports it.
    static func hostname() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return nil }
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return host.isEmpty ? nil : host
    }

    /// `name.local`, the mDNS name most LANs resolve, when the host has a name.
    static func mdnsName() -> String? {
        guard let host = hostname(), host != "localhost" else { return nil }
        return host.hasSuffix(".local") ? host : host + ".local"
    }
}
