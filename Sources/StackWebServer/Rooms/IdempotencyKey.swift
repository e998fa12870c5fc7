/// A request's `Idempotency-Key` as a room keeps it: scoped by what the request does (a command,
/// pointer input, a guest's photo), and with a fingerprint of its body, so that the same key sent
/// with another request is refused (422, as the IETF Idempotency-Key draft says) rather than
/// answered with that request's result, and a photo's key never answers a command.
struct IdempotencyKey: Hashable, Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case command, pointer, photo
    }

    let kind: Kind
    /// The key as the client sent it.
    let value: String
    /// FNV-1a of the request's body: a client that reuses its own key hurts only itself, so a
    /// fast hash that tells two bodies apart is enough. `nil` for an answer kept by a version that
    /// kept none (it matches any body).
    let fingerprint: UInt64?

    init(kind: Kind, value: String, body: [UInt8]) {
        self.kind = kind
        self.value = value
        fingerprint = FNV1a.hash(body)
    }

    private init(kind: Kind, value: String, fingerprint: UInt64?) {
        self.kind = kind
        self.value = value
        self.fingerprint = fingerprint
    }

    /// The name the ledger and the group keep its answer under: the same key of another kind is
    /// another name.
    var scoped: String { kind.rawValue + " " + value }

    /// Whether an answer kept for `other` (same scoped name) answers this request.
    func matches(_ other: IdempotencyKey) -> Bool {
        guard let mine = fingerprint, let theirs = other.fingerprint else { return true }
        return mine == theirs
    }

    /// How a store keeps it, in one text: `kind fingerprint key` (a key has no spaces).
    var stored: String {
        kind.rawValue + " " + (fingerprint.map { String($0, radix: 16) } ?? "-") + " " + value
    }

    /// What the group keeps as a key's answer: the fingerprint, a space, then the answer's body.
    func keptValue(body: [UInt8]) -> [UInt8] {
        Array(((fingerprint.map { String($0, radix: 16) } ?? "-") + " ").utf8) + body
    }

    /// An answer the group kept for this key's scoped name: the body when it answers this request,
    /// `nil` when it was given to another (another body). A value kept bare (by a version that kept
    /// no fingerprint) answers any.
    func answer(fromKept value: [UInt8]) -> [UInt8]? {
        guard let space = value.firstIndex(of: UInt8(ascii: " ")), value.first != UInt8(ascii: "{") else {
            return value
        }
        let kept = IdempotencyKey(
            kind: kind, value: self.value,
            fingerprint: UInt64(String(decoding: value[..<space], as: UTF8.self), radix: 16))
        return matches(kept) ? Array(value[(space + 1)...]) : nil
    }

    /// A key as `stored` wrote it; a bare key (kept before keys were scoped) is a command's, with no
    /// fingerprint.
    init(stored: String) {
        let parts = stored.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count == 3, let kind = Kind(rawValue: parts[0]) else {
            self.init(kind: .command, value: stored, fingerprint: nil)
            return
        }
        self.init(kind: kind, value: parts[2], fingerprint: UInt64(parts[1], radix: 16))
    }
}
