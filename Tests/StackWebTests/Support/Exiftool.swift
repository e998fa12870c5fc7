import Foundation

/// exiftool (Debian's libimage-exiftool-perl), to write and read the metadata a phone writes.
enum Exiftool {
    static let path = "/usr/bin/exiftool"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Words in the names of tags that say where a photo was taken or who took it.
    static let locationWords = [
        "gps", "city", "sublocation", "sub-location", "location", "country", "province", "creator", "artist", "byline",
        "by-line",
    ]

    static func isLocationTag(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return locationWords.contains { lowered.contains($0) }
    }

    /// Writes a GPS position, a city, a sub-location and a creator into `file`, in EXIF, XMP and
    /// (where the format has it) IPTC.
    static func tag(_ file: String) throws {
        _ = try run([
            "-q", "-q", "-m", "-overwrite_original", "-GPSLatitude=48.8867", "-GPSLatitudeRef=N",
            "-GPSLongitude=2.3431", "-GPSLongitudeRef=E", "-XMP:City=Paris", "-XMP-iptcCore:Location=Montmartre",
            "-XMP:Creator=Anna", "-EXIF:Artist=Anna", "-IPTC:City=Paris", "-IPTC:Sub-location=Montmartre",
            "-IPTC:By-line=Anna", file,
        ])
    }

    /// Every location or creator tag exiftool finds in `path` (a file, or every file of a folder),
    /// as "file: group:tag".
    static func locationTags(in path: String) throws -> [String] {
        // `-ext *`: a folder's files are read whatever their names (exiftool skips unknown endings).
        let output = try run(["-j", "-G", "-a", "-s", "-q", "-q", "-m", "-ext", "*", path])
        guard let files = try JSONSerialization.jsonObject(with: output) as? [[String: Any]] else { return [] }
        return files.flatMap { file in
            // A colour profile's creator is the software that made the profile, not a person.
            file.keys.filter { isLocationTag($0) && !$0.hasPrefix("ICC_Profile:") && $0 != "SourceFile" }
                .map { "\(file["SourceFile"] ?? ""): \($0)" }
        }
    }

    private static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
