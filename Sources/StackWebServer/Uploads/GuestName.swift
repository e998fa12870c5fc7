import Foundation

/// The name a guest gives with a photo (`X-Photo-Sender`), as the room shows it ("from Anna"):
/// percent-decoded, without control or format characters (no line breaks, no bidirectional
/// overrides that would turn the rest of a caption around), spaces collapsed, at most
/// `maxLength` characters. Only ever written into JSON (escaped) and never into the log.
enum GuestName {
    static let maxLength = 40

    /// The name to show, or nil when nothing showable is left.
    static func display(_ header: String?) -> String? {
        guard let header else { return nil }
        let decoded = header.removingPercentEncoding ?? header
        var out = ""
        var count = 0
        var pendingSpace = false
        for character in decoded {
            let scalars = character.unicodeScalars
            if scalars.contains(where: {
                [
                    .control, .format, .lineSeparator, .paragraphSeparator, .surrogate,
                    .privateUse, .unassigned,
                ].contains($0.properties.generalCategory)
            }) {
                continue
            }
            if character.isWhitespace {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                guard count + 1 < maxLength else { break }
                out.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < maxLength else { break }
            out.append(character)
            count += 1
        }
        return out.isEmpty ? nil : out
    }
}
