/// Where a group's Redis is: `redis://[[user]:password@]host[:port][/db]` (`--redis`).
struct RedisURL: Equatable, Sendable, CustomStringConvertible {
    static let defaultPort: Int32 = 6379

    var host: String
    var port: Int32 = RedisURL.defaultPort
    /// Redis 6 ACL user; `nil` authenticates as the default user.
    var user: String?
    var password: String?
    var database = 0

    init(host: String, port: Int32 = RedisURL.defaultPort, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.password = password
        self.database = database
    }

    init(parsing text: String) throws(Configuration.Failure) {
        let failure = Configuration.Failure(
            description: "--redis must be redis://[:password@]host[:port][/db], such as redis://127.0.0.1:6379/0")
        guard text.hasPrefix("redis://") else { throw failure }
        var rest = Substring(text.dropFirst("redis://".count))
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard let colon = credentials.firstIndex(of: ":") else { throw failure }
            let user = credentials[..<colon]
            if !user.isEmpty { self.user = String(user) }
            password = String(credentials[credentials.index(after: colon)...])
        }
        if let slash = rest.firstIndex(of: "/") {
            let database = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !database.isEmpty {
                guard let number = Int(database), (0...65_535).contains(number) else { throw failure }
                self.database = number
            }
        }
        // An IPv6 literal is bracketed, as in any URL: redis://[::1]:6379.
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw failure }
                rest = rest.dropFirst()
                guard let port = Int32(rest), (1...65_535).contains(port) else { throw failure }
                self.port = port
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            guard let port = Int32(rest[rest.index(after: colon)...]), (1...65_535).contains(port) else {
                throw failure
            }
            self.port = port
        } else {
            host = String(rest)
        }
        guard !host.isEmpty, host.utf8.count <= 253 else { throw failure }
    }

    /// The URL without its password, for start-up lines and logs.
    var description: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "redis://\(host):\(port)/\(database)"
    }
}
