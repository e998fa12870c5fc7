import Foundation
import Glibc

/// Where start-up says the control token (and the add token) is, without writing a token where logs
/// keep it.
///
/// Under systemd standard output goes to the journal, which every member of `adm` or
/// `systemd-journal` can read: a token printed there lets them drive every room. So the token is
/// printed only to a terminal. A generated token is also written to a file only this user can
/// read — `$STATE_DIRECTORY/token` (systemd's `StateDirectory=`), else `token` in the folder of
/// `--state` — and the printed control URL names that file instead.
enum ControlTokenNotice {
    /// Which token a notice is about: the control token drives every room, the add token only adds
    /// photos; both are kept and shown the same way.
    enum Role: Sendable {
        case control
        case add

        var fileName: String { self == .control ? "token" : "add-token" }
        var option: String { self == .control ? "--token" : "--add-token" }
        var variable: String { self == .control ? "STACKWEB_TOKEN" : "STACKWEB_ADD_TOKEN" }
    }

    /// Where a generated token is kept, or `nil` when there is no state folder to keep it in.
    static func file(environment: [String: String], state: String?, role: Role = .control) -> String? {
        if let folder = environment["STATE_DIRECTORY"]?.split(separator: ":").first, folder.hasPrefix("/") {
            return folder + "/" + role.fileName
        }
        guard let state else { return nil }
        return URL(fileURLWithPath: state).deletingLastPathComponent().appendingPathComponent(role.fileName).path
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

    /// The line start-up prints for `base`: the page without a query for `.control`, the add page
    /// for `.add` (its token goes in the fragment, as the QR code has it).
    static func lines(base: String, token: String?, source: Source, toTerminal: Bool, role: Role = .control)
        -> [String]
    {
        let shown =
            role == .control
            ? "  control: \(base)?token="
            : "  add:     \(base)#token="
        if toTerminal, let token { return [shown + token] }
        let where_: String
        switch source {
        case .given: where_ = "the token given with \(role.option) or \(role.variable)"
        case .generated(let file?): where_ = "the token is in \(file), readable by this user only"
        case .group:
            where_ = "the group's generated token, printed by the instance that drew it, the first to start"
        case .generated(nil):
            where_ =
                "the generated token is shown on a terminal only; set \(role.option) (or \(role.variable)), or --state to keep it in a file"
        }
        return [shown + "<token> (\(where_))"]
    }
}
