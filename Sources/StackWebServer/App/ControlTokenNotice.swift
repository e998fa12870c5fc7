import Foundation
import Glibc

/// Where start-up says the control token is, without writing the token where logs keep it.
///
/// Under systemd standard output goes to the journal, which every member of `adm` or
/// `systemd-journal` can read: a token printed there lets them drive every room. So the token is
/// printed only to a terminal. A generated token is also written to a file only this user can
/// read — `$STATE_DIRECTORY/token` (systemd's `StateDirectory=`), else `token` in the folder of
/// `--state` — and the printed control URL names that file instead.
enum ControlTokenNotice {
    /// Where a generated token is kept, or `nil` when there is no state folder to keep it in.
    static func file(environment: [String: String], state: String?) -> String? {
        if let folder = environment["STATE_DIRECTORY"]?.split(separator: ":").first, folder.hasPrefix("/") {
            return folder + "/token"
        }
        guard let state else { return nil }
        return URL(fileURLWithPath: state).deletingLastPathComponent().appendingPathComponent("token").path
    }

    /// Writes `token` to `path` with mode 0600 (made so before a byte is written; a symbolic link
    /// in its place is not followed).
    static func save(_ token: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        guard fchmod(fd, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bytes = Array((token + "\n").utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// Where the token came from, for the line that says where to find it.
    enum Source: Equatable {
        case given
        case generated(file: String?)
        /// A `--redis` group's token that another instance drew: this one knows only its digest.
        case group
    }

    /// The control line(s) start-up prints for `base` (the URL without a query).
    static func lines(base: String, token: String?, source: Source, toTerminal: Bool) -> [String] {
        if toTerminal, let token { return ["  control: \(base)?token=\(token)"] }
        let where_: String
        switch source {
        case .given: where_ = "the token given with --token or STACKWEB_TOKEN"
        case .generated(let file?): where_ = "the token is in \(file), readable by this user only"
        case .group:
            where_ = "the group's generated token, printed by the instance that drew it, the first to start"
        case .generated(nil):
            where_ =
                "the generated token is shown on a terminal only; set --token (or STACKWEB_TOKEN), or --state to keep it in a file"
        }
        return ["  control: \(base)?token=<token> (\(where_))"]
    }
}
