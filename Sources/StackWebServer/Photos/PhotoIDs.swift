/// How photos are named in URLs and saved stacks: an HMAC of the photo's path below the folder,
/// keyed with a secret kept with the state, so that an id cannot be worked out from a file name
/// (a viewer who guesses `holiday/IMG_0001.jpg` still cannot ask for it).
///
/// The secret is drawn once and kept where the rooms' state is (`RoomStore.photoSecret`): the
/// same ids after a restart, and in a group the same ids at every instance.
struct PhotoIDs: Sendable {
    /// Hex digits of the HMAC an id keeps: 96 bits, beyond guessing at any request rate.
    static let digits = 24

    private let secret: [UInt8]

    init(secret: [UInt8]) {
        self.secret = secret
    }

    /// The name the secret is kept under (`RoomStore.secret`).
    static let secretName = "photo-ids"

    /// A new secret: 32 bytes from the system's cryptographic generator, as hex.
    static func drawSecret() -> String { Digest.hex(Digest.randomBytes(Digest.size)) }

    /// The id of the photo at `relative` (its path below the folder).
    func id(of relative: String) -> String {
        "p" + Digest.hex(Digest.hmacSHA256(key: secret, Array(relative.utf8)).prefix(Self.digits / 2))
    }

    /// The id earlier versions gave the photo at `relative` (FNV-1a of the path, 12 hex digits):
    /// what their saved stacks hold, read once and saved again with the new ids. Never served.
    static func legacyID(of relative: String) -> String { "p" + FNV1a.hex(relative.utf8).prefix(12) }
}
