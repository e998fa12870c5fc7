/// A JPEG given an EXIF block with a GPS position, as a phone writes one, and the check that a file
/// carries no GPS position. Made and read by hand (a TIFF header, IFD0 pointing at a GPS IFD), so
/// no tool is needed.
enum ExifGPS {
    /// The bytes that open an EXIF block.
    static let marker: [UInt8] = Array("Exif".utf8) + [0, 0]
    /// IFD0's tag that points at the GPS IFD.
    static let gpsTag = 0x8825

    /// `jpeg` with an APP1 EXIF segment after its SOI: GPSLatitudeRef N, GPSLatitude 48° 51′ 0″.
    static func tagged(_ jpeg: [UInt8]) -> [UInt8] {
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42] + be32(8)
        // IFD0: one entry, the GPS IFD's offset (26); no next IFD.
        tiff += be16(1) + be16(gpsTag) + be16(4) + be32(1) + be32(26) + be32(0)
        // GPS IFD: the latitude's reference and its three rationals (at 56); no next IFD.
        tiff += be16(2)
        tiff += be16(0x0001) + be16(2) + be32(2) + Array("N".utf8) + [0, 0, 0]
        tiff += be16(0x0002) + be16(5) + be32(3) + be32(56) + be32(0)
        tiff += be32(48) + be32(1) + be32(51) + be32(1) + be32(0) + be32(1)
        let segment = marker + tiff
        let app1: [UInt8] = [0xFF, 0xE1] + be16(segment.count + 2) + segment
        return Array(jpeg.prefix(2)) + app1 + jpeg.dropFirst(2)
    }

    /// Whether any EXIF block in `file` (JPEG's APP1 or WebP's EXIF chunk: both hold
    /// `Exif\0\0` and a TIFF header) has a GPS IFD in its IFD0.
    static func hasPosition(_ file: [UInt8]) -> Bool {
        var from = file.startIndex
        while let found = file[from...].firstRange(of: marker) {
            if tagsOfIFD0(Array(file[found.upperBound...])).contains(gpsTag) { return true }
            from = found.upperBound
        }
        return false
    }

    /// The tags of IFD0 of the TIFF structure at the start of `tiff`.
    private static func tagsOfIFD0(_ tiff: [UInt8]) -> [Int] {
        guard tiff.count >= 8 else { return [] }
        let bigEndian = tiff[0] == UInt8(ascii: "M")
        let read16 = { (at: Int) -> Int in
            guard at + 2 <= tiff.count else { return 0 }
            return bigEndian ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
        }
        let offset = bigEndian ? read16(4) << 16 | read16(6) : read16(6) << 16 | read16(4)
        return (0..<read16(offset)).map { read16(offset + 2 + $0 * 12) }
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    private static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }
}
