import CBuildInfo
import Foundation
import StackModel

/// Everything the command line and `STACKWEB_*` environment variables can set (see `options`), and a
/// few limits they leave alone.
public struct Configuration: Equatable, Sendable {
    public static let version = "0.1.0"
    /// The git commit the binary was built from, when the build said (`make`); nil otherwise.
    public static let commit: String? = {
        let commit = String(cString: CBuildInfo_commit)
        return commit.isEmpty ? nil : commit
    }()
    /// `0.1.0 (commit 1a2b3c4d5e6f)`, or the version alone: what `--version` prints.
    public static var versionWithCommit: String { version + (commit.map { " (commit \($0))" } ?? "") }

    var host = "127.0.0.1"
    var port: UInt16 = 8080
    /// Folder of photos; `nil` shows the bundled demo photos.
    var photos: String?
    var style: StyleName = .pile
    var stage = StageSize.default
    /// Folder holding `web/` and `demo-photos/`; `nil` finds it next to the executable.
    var resources: String?
    /// The control token; `nil` generates one when bound beyond loopback.
    var token: String?
    /// `--token-file`: where the token is read from, once the arguments are all read.
    var tokenFile: String?
    /// The add token (`--add-token`); `nil` generates one when bound beyond loopback and a room
    /// takes photos.
    var addToken: String?
    /// `--add-token-file`: read once the arguments are all read.
    var addTokenFile: String?
    /// Guests' photos: which rooms take them, where they go, their bounds.
    var uploads = UploadSettings()
    /// `--redis-password-file`: where the group's Redis password is read from.
    var redisPasswordFile: String?
    /// What the start-up logs as warnings: a secret given where other users see it (`ps`).
    var warnings: [String] = []
    /// `--no-token`: anyone who can reach the server may control it, even on a LAN.
    var noToken = false
    /// Extra names the server answers to (the `Host` header), besides IP literals, `localhost` and
    /// this machine's name.
    var allowedHosts: [String] = []
    /// `--public-url`: the address other devices reach the server by, when not the one it listens on.
    var publicURL: PublicURL?
    /// `--allow-embedding`: other sites may frame the page.
    var allowEmbedding = false
    /// `--caption-folders`: captions show the photo's folders, not only its file name.
    var captionFolders = false
    /// Seconds between automatic advances; `nil` means no slideshow.
    var interval: Double?
    /// How the `frame` style changes photos.
    var transition = FrameTransition.fade
    /// The order of a new room's stack.
    var order: PhotoLibrary.Order = .name
    /// `--shuffle`: a new room's stack starts in a random order (a saved order still wins).
    var shuffle = false
    /// When the screens go dark each day; `nil`: never.
    var sleep: SleepSchedule?
    /// Folder for resized photos; `nil` uses `defaultCacheFolder()`.
    var cache: String?
    /// The most bytes the folder of resized photos may hold; the least recently used go first.
    var cacheSize: Int64 = 1 << 30
    /// Seconds between stat-only rescans of the photo folder (changes on a NAS share made elsewhere
    /// send no inotify event); `nil`: never.
    var rescan: Double? = 300
    /// File the rooms' lasting state is saved to; `nil` keeps it in memory only.
    var state: String?
    /// `--state`, for `stackweb backup` and `restore`.
    public var statePath: String? { state }
    var heartbeatSeconds = 15.0
    /// A room nobody has watched or touched for this long is unloaded (its state stays saved).
    var idleUnloadSeconds = 600.0
    var maxRooms = 64
    /// Photos with more pixels than this are skipped (`--max-pixels`).
    var maxPixels = PhotoInspector.defaultMaxPixels
    /// `--keep-location`: originals are served to anyone, with where they were taken.
    var keepLocation = false
    /// Seconds of a clip its rendition keeps (`--max-clip-seconds`).
    var maxClipSeconds = ClipRenditions.defaultMaxSeconds
    /// The most cards one room's stack holds.
    var maxCards = RoomSettings().maxCards
    /// `--rooms`: the only rooms there are; `nil` lets control make any room.
    var rooms: [String]?
    /// `--album ROOM=SUBDIR`: rooms that show only a sub-folder of `--photos`.
    var albums: [String: String] = [:]
    /// PEM files for HTTPS (`--tls-cert`, `--tls-key`); both or neither.
    var tlsCertificate: String?
    var tlsKey: String?
    /// How the lines for the operator are written (`--log-format`).
    public internal(set) var logFormat: OperatorLog.Format = .text
    /// `--redis`: the Redis of the group this instance belongs to; `nil`: one process alone.
    var redis: RedisURL?
    /// This instance's name in its group; `nil` draws one at start.
    var instanceID: String?
    /// Connection limits; `nil` uses `ServerLimits.standard` for the host bound.
    var limits: ServerLimits?

    /// `$XDG_CACHE_HOME/stackweb`, else `~/.cache/stackweb`, else a folder under /tmp.
    static func defaultCacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/stackweb" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/stackweb" }
        return "/tmp/stackweb-cache"
    }

    /// Whether `host` only accepts connections from this machine: decided by the addresses it
    /// stands for, not by how it is spelt (`ListeningSocket.isLoopback`).
    var isLoopback: Bool { ListeningSocket.isLoopback(host: host) }

    /// The token POSTs must carry: the one given, one generated when reachable from a LAN, or none.
    func controlToken(generate: () -> String) -> String? {
        if noToken { return nil }
        return token ?? (isLoopback ? nil : generate())
    }

    /// The token that lets guests add photos: the one given, one generated when a room takes photos
    /// and the server is reachable from a LAN, or none (then only the control token adds, or anyone
    /// where anyone controls).
    func addTokenInUse(generate: () -> String) -> String? {
        guard uploads.anyOpen else { return nil }
        return addToken ?? (isLoopback || noToken ? nil : generate())
    }

    /// The HTTPS certificate and key, read from their files; `nil` for plain HTTP. Checked here, not
    /// while parsing, because each option may come from the command line or the environment.
    func tlsCredentials() throws -> TLSCredentials? {
        switch (tlsCertificate, tlsKey) {
        case (nil, nil): return nil
        case (let certificate?, let key?): return try TLSCredentials.load(certificate: certificate, key: key)
        default: throw Failure(description: "--tls-cert and --tls-key go together: give both or neither")
        }
    }

    /// Styles this build's model implements.
    static let supportedStyles: [StyleName] = StyleName.allCases

    public enum Outcome: Equatable, Sendable {
        case run(Configuration)
        case help
        case version
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// What `--help` prints.
    public static let usage = CommandLineHelp.text(for: options)
}
