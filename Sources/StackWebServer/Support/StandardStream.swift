import Glibc

/// Standard output or standard error, written a line at a time with `write(2)`.
///
/// Foundation's `FileHandle.write(_:)` traps when the write fails, and a log's reader can go away
/// while the server runs (a pipe into a process that exited, a journal restarted): the server
/// ignores SIGPIPE, so each later line would fail with EPIPE and stop the server. Here a line that
/// cannot be written is dropped; serving matters more than the log.
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes all of `text` (a short write is continued, an interrupted one retried); gives up
    /// silently on any other failure.
    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(rawValue, buffer.baseAddress! + sent, buffer.count - sent)
            }
            if count > 0 {
                sent += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
