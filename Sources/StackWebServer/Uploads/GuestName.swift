import Foundation

/// The name a guest gives with a photo (`X-Photo-Sender`), as the room shows it ("from Anna"):
/// percent-decoded, without control or format characters (no line breaks, no bidirectional
/// overrides that would turn the rest of a caption around), spaces collapsed, at most
/// `maxLength` characters and `maxBytes` bytes, each character with at most
/// `maxMarksPerCharacter` combining marks. Only ever written into JSON (escaped) and never into
/// the log.
enum GuestName {
    static let maxLength = 40
    /// A character is one grapheme however many scalars it holds: "Z" and 7,000 combining marks
    /// is one, 14 KB in every snapshot and drawn on the wall as Zalgo text. So bytes are bounded
    /// too: room for 40 characters of any script.
    static let maxBytes = 4 * maxLength
    /// Enough for the marks a real script stacks on one letter (Vietnamese, Devanagari).
    static let maxMarksPerCharacter = 3

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
            let shown = withFewMarks(character)
            if pendingSpace {
                guard count + 1 < maxLength, out.utf8.count + 1 + shown.utf8.count <= maxBytes else { break }
                out.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < maxLength, out.utf8.count + shown.utf8.count <= maxBytes else { break }
            out.append(shown)
            count += 1
        }
        return out.isEmpty ? nil : out
    }

    /// `character` with its combining marks past `maxMarksPerCharacter` dropped.
    private static func withFewMarks(_ character: Character) -> String {
        var marks = 0
        var kept = String.UnicodeScalarView()
        for scalar in character.unicodeScalars {
            if [.nonspacingMark, .enclosingMark, .spacingMark].contains(scalar.properties.generalCategory) {
                marks += 1
                if marks > maxMarksPerCharacter { continue }
            }
            kept.append(scalar)
        }
        return String(kept)
    }
}
