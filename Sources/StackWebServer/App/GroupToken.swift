/// A `--redis` group's generated control token (no `--token` given), which Redis keeps as its
/// SHA-256 only: whoever reads Redis (a backup, `MONITOR`, another program on it) cannot drive the
/// rooms with what they find. The instance that draws it first prints it; every instance checks
/// bearer tokens against the digest.
struct GroupToken: Equatable {
    /// The token, when this instance knows it: it drew it, found it in its token file (the same
    /// instance restarted), or carried over the clear token an earlier version kept.
    var token: String?
    /// Its SHA-256, what every bearer token is checked against.
    var digest: [UInt8]

    /// The group's token: `drawn`, if no instance drew one before. `remembered`: the token this
    /// instance's token file holds, if any. At start only.
    static func resolve(drawn: String, remembered: String?, at url: RedisURL) throws(RedisError) -> GroupToken {
        let connection = RedisConnection(url: url)
        var candidates = [drawn] + (remembered.map { [$0] } ?? [])
        // Kept in clear by an earlier version: its digest takes its place, and the clear one goes.
        if let clear = try connection.command([Array("GET".utf8), RedisKeys.clearToken]).text {
            _ = try RedisKeys.setOnce(RedisKeys.tokenDigest, to: Array(hexDigest(clear).utf8), at: connection)
            _ = try connection.command([Array("DEL".utf8), RedisKeys.clearToken])
            candidates.insert(clear, at: 0)
        }
        let kept = try RedisKeys.setOnce(RedisKeys.tokenDigest, to: Array(hexDigest(drawn).utf8), at: connection)
        guard let digest = Digest.bytes(hex: kept), digest.count == Digest.size else {
            throw .unexpected("\(String(decoding: RedisKeys.tokenDigest, as: UTF8.self)) is not a SHA-256")
        }
        return GroupToken(token: candidates.first { hexDigest($0) == kept }, digest: digest)
    }

    static func hexDigest(_ token: String) -> String { Digest.hex(Digest.sha256(Array(token.utf8))) }
}
