import Foundation

/// The names guests' photos are kept under: `20261201-224910-123-anna-beach-1a2b3c4d5e6f7a8b.jpg`
/// — they sort by arrival (UTC), say who sent them, and end with the first 16 hex digits of the
/// content's SHA-256, which is how the same bytes sent again are found after a restart.
enum UploadNaming {
    /// Hex digits of the hash a name carries.
    static let hashLength = 16

    /// The name for a photo that arrived at `date`, in the format libvips read (`jpg`, `png`, …).
    static func name(at date: Date, sender: String?, original: String?, hash: String, fileExtension: String)
        -> String
    {
        var parts = [timestamp(date)]
        if let sender = sender.flatMap(sanitised), !sender.isEmpty { parts.append(sender) }
        let stem = original.map { name in name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name }
        if let stem = stem.flatMap(sanitised), !stem.isEmpty { parts.append(stem) }
        parts.append(String(hash.prefix(hashLength)))
        return parts.joined(separator: "-") + "." + fileExtension
    }

    /// The hash a name of ours carries, if it is one.
    static func hash(inName name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), let dash = name[..<dot].lastIndex(of: "-") else { return nil }
        let hash = name[name.index(after: dash)..<dot]
        guard hash.utf8.count == hashLength, hash.utf8.allSatisfy(isHexDigit) else { return nil }
        return String(hash)
    }

    /// A header value (percent-encoded by a page, as headers are bytes) cut to lower-case ASCII
    /// letters, digits and single dashes, at most 32: safe in any file system and any shell.
    static func sanitised(_ value: String) -> String? {
        let decoded = value.removingPercentEncoding ?? value
        var out = ""
        for scalar in decoded.lowercased().unicodeScalars {
            let keep = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if keep {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, !out.hasSuffix("-") {
                out += "-"
            }
            if out.utf8.count >= 32 { break }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out
    }

    private static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int(date.timeIntervalSince1970 * 1000) % 1000
        return String(
            format: "%04d%02d%02d-%02d%02d%02d-%03d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, millis)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}
