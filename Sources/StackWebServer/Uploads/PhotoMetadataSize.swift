import Glibc

/// How many of a guest's photo's bytes are not its picture: a photo is not a place to keep other
/// files (a 26 MB JPEG of 32×32 pixels is 400 EXIF segments of something else, served to anyone).
enum PhotoMetadataSize {
    /// The most a photo may carry besides its picture. A phone's EXIF, XMP, colour profile and
    /// embedded thumbnail come to well under 200 KiB.
    static let maxBytes: Int64 = 1024 * 1024
    /// The most bytes one pixel can take in any format shown: 16-bit RGBA, not compressed at all.
    static let mostBytesPerPixel: Int64 = 8

    /// The bytes of a file of `size` bytes holding `pixels` (every frame's) that are not its picture,
    /// as far as can be told cheaply: whatever no picture of that many pixels could need, and for a
    /// JPEG, its APPn and COM segments (read up to its first scan).
    static func of(path: String, loader: String, size: Int64, pixels: Int) -> Int64 {
        let beyondPixels = size - Int64(pixels) * mostBytesPerPixel
        let segments = loader == "jpegload" ? jpegSegmentBytes(path) : 0
        return max(0, beyondPixels, segments)
    }

    /// The bytes of the APPn and COM segments before a JPEG's first scan (its metadata), read by
    /// their markers alone: a few reads of four bytes, however large they are.
    static func jpegSegmentBytes(_ path: String) -> Int64 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var total: Int64 = 0
        var offset: off_t = 2
        var marker = [UInt8](repeating: 0, count: 4)
        while pread(descriptor, &marker, 4, offset) == 4, marker[0] == 0xFF {
            let kind = marker[1]
            // Start of scan, end of image: the metadata is all before.
            if kind == 0xDA || kind == 0xD9 { break }
            // A fill byte before the marker.
            if kind == 0xFF {
                offset += 1
                continue
            }
            let length = Int64(marker[2]) << 8 | Int64(marker[3])
            if (0xE0...0xEF).contains(kind) || kind == 0xFE { total += length }
            offset += 2 + off_t(length)
        }
        return total
    }
}
