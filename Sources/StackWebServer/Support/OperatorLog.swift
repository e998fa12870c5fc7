import Foundation
import Glibc

/// One line per notable event (start, a room made or unloaded, a viewer dropped, a failed or
/// recovered save, the photo folder gone or back, a skipped photo), for whoever runs the server:
/// `text` is a plain line a person reads (`stackweb: …`), `json` one object per line for a log collector.
///
/// The control token never reaches a line: every line is written with it replaced, whatever a
/// message or field happens to hold.
public struct OperatorLog: Sendable {
    /// How each line is written (`--log-format`).
    public enum Format: String, Sendable, CaseIterable {
        case text
        case json
    }

    /// A field's value in a `json` line.
    public enum Value: Sendable, Equatable {
        case string(String)
        case int(Int)
        case strings([String])
        /// Records of a few named strings each (the `start` event's addresses), keys in order.
        case objects([KeyValuePairs<String, String>])

        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)): a == b
            case (.int(let a), .int(let b)): a == b
            case (.strings(let a), .strings(let b)): a == b
            case (.objects(let a), .objects(let b)):
                a.map { $0.map { "\($0.key)=\($0.value)" } } == b.map { $0.map { "\($0.key)=\($0.value)" } }
            default: false
            }
        }
    }

    public let format: Format
    private let secret: String?
    private let write: @Sendable (String) -> Void

    /// Writes each line (with its line break) to `write`, with `secret` replaced wherever it shows.
    public init(format: Format, redacting secret: String? = nil, write: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.secret = secret.flatMap { $0.isEmpty ? nil : $0 }
        self.write = write
    }

    /// Writes nothing (tests, and rooms made without an application).
    static let silent = OperatorLog(format: .text) { _ in }

    /// To standard error, one `write(2)` per line so that lines from several threads never
    /// interleave; a line nobody can read any more is dropped (`StandardStream`).
    public static func standardError(format: Format, redacting secret: String? = nil) -> OperatorLog {
        OperatorLog(format: format, redacting: secret) { line in
            StandardStream.error.write(line)
        }
    }

    /// The same log with `secret` kept out of it too.
    func redacting(_ secret: String?) -> OperatorLog {
        OperatorLog(format: format, redacting: secret ?? self.secret, write: write)
    }

    /// Records `event` (a dotted name such as `room.unloaded`) with its human `message`; `fields`
    /// are for `json` only, the message says the same to a person.
    public func record(_ event: String, _ message: String, _ fields: KeyValuePairs<String, Value> = [:]) {
        switch format {
        case .text:
            // Redacted before it is escaped: a token holding a character that is escaped would
            // otherwise no longer be found in the line.
            write("stackweb: " + Self.escaped(redacted(message)) + "\n")
        case .json:
            var json = JSONWriter()
            json.object { json in
                json.field("time", Self.timestamp(Date()))
                json.field("level", Self.level(of: event))
                json.field("event", event)
                json.field("message", message)
                for (name, value) in fields {
                    switch value {
                    case .string(let text): json.field(name, text)
                    case .int(let number): json.field(name, number)
                    case .strings(let texts): json.array(name) { json in for text in texts { json.string(text) } }
                    case .objects(let records):
                        json.array(name) { json in
                            for record in records {
                                json.object { json in for (key, text) in record { json.field(key, text) } }
                            }
                        }
                    }
                }
            }
            write(redacted(String(decoding: json.bytes, as: UTF8.self)) + "\n")
        }
    }

    /// How grave `event` is, for a log collector's filters: `error` for what stops the server or
    /// loses work, `warning` for what an operator should look at, `info` for the rest.
    static func level(of event: String) -> String {
        if event == "config.invalid" || event == "start.failed"
            || event.hasSuffix(".failed") && !event.hasPrefix("photo.")
        {
            return "error"
        }
        let warnings: Set<String> = [
            "warning", "group.warning", "group.store", "photo.skipped", "folder.gone", "folder.empty", "state.replaced",
        ]
        if warnings.contains(event) || event.hasSuffix(".warning") || event.hasPrefix("photo.conversion") {
            return "warning"
        }
        return "info"
    }

    /// For code that reports plain messages: each becomes one `event`.
    func messages(as event: String) -> @Sendable (String) -> Void {
        { [self] message in record(event, message) }
    }

    /// As `messages(as:)`, but each distinct message is written once for the life of the closure:
    /// a broken photo is said once, not again at every scan that meets it (the folder coming back).
    /// - Complexity: keeps every distinct message said (one per broken file).
    func distinctMessages(as event: String) -> @Sendable (String) -> Void {
        let said = Locked<Set<String>>([])
        return { [self] message in
            if said.withLock({ $0.insert(message).inserted }) { record(event, message) }
        }
    }

    /// A `warning`, the event of messages nothing more specific names.
    func callAsFunction(_ message: String) {
        record("warning", message)
    }

    /// `text` as one line of a text log: control characters, the Unicode line and paragraph
    /// separators and the marks that reorder text on a terminal are written as escapes (`\n`,
    /// `\x1b`, `\u{2028}`), so a photo's name cannot end the line and forge the next one.
    /// A backslash is left as it is: names hold them rarely, and a forged `\n` stays on its line.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let escape =
                switch scalar {
                case "\n": "\\n"
                case "\r": "\\r"
                case "\t": "\\t"
                case _ where scalar.value < 0x80:
                    "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: "\\u{" + String(scalar.value, radix: 16) + "}"
                }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private func redacted(_ line: String) -> String {
        guard let secret, line.contains(secret) else { return line }
        return line.replacingOccurrences(of: secret, with: "<token>")
    }

    /// RFC 3339 in UTC with milliseconds: `2026-11-30T12:00:00.123Z`.
    static func timestamp(_ date: Date) -> String {
        let total = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(total / 1000)
        let millis = Int(total % 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}
