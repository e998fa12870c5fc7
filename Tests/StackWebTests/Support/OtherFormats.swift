import CVipsTestSupport
import Foundation

@testable import StackWebServer

/// Files of the kinds a guest might send that the server does not show, each whole as its parser
/// would take it: TIFF and JPEG 2000 written by libvips' own savers, the rest written by hand (the
/// server's libvips blocks the untrusted savers with their loaders: ImageMagick's, libjxl's).
enum OtherFormats {
    static let kinds = ["bmp", "psd", "miff", "pdf", "svg", "tif", "jp2", "jxl"]

    /// The bytes of a small picture in the format `kind` names.
    static func bytes(_ kind: String) throws -> [UInt8] {
        switch kind {
        case "psd": return psd
        case "bmp": return bmp
        case "jxl": return jxl
        case "miff":
            let head = "id=ImageMagick  version=1.0\nclass=DirectClass  matte=False\ncolumns=2  rows=2  depth=8\n"
            return Array((head + "\u{0C}\n:\u{1A}").utf8) + [UInt8](repeating: 0x80, count: 12)
        case "pdf":
            let objects =
                "1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
                + "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 64 64]>>endobj\n"
            return Array(("%PDF-1.4\n" + objects + "trailer<</Root 1 0 R>>\n%%EOF\n").utf8)
        case "svg":
            let square = "<rect width='64' height='64'/>"
            return Array("<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64'>\(square)</svg>".utf8)
        default:
            CVipsSetup.start()
            let path = try TemporaryFiles.folder() + "/picture." + kind
            guard CVipsTest_writeImage(path, 64, 48) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
    }

    /// A 2 × 2 grey Photoshop file: its header, empty sections, and raw pixels.
    private static var psd: [UInt8] {
        var bytes = Array("8BPS".utf8) + [0, 1] + [UInt8](repeating: 0, count: 6)
        bytes += [0, 1] + [0, 0, 0, 2] + [0, 0, 0, 2] + [0, 8] + [0, 1]
        bytes += [UInt8](repeating: 0, count: 12) + [0, 0] + [0x80, 0x80, 0x80, 0x80]
        return bytes
    }

    /// A 2 × 2 24-bit Windows bitmap: file header, info header, two rows padded to four bytes.
    private static var bmp: [UInt8] {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        var bytes = Array("BM".utf8) + le32(70) + le32(0) + le32(54)
        bytes += le32(40) + le32(2) + le32(2) + [1, 0, 24, 0] + le32(0) + le32(16) + le32(2835) + le32(2835)
        bytes += le32(0) + le32(0)
        bytes += [0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0]
        return bytes
    }

    /// An 8 × 8 black JPEG XL codestream, as libjxl writes it.
    private static let jxl: [UInt8] = [
        0xff, 0x0a, 0x41, 0x40, 0x52, 0xdc, 0x08, 0x01, 0xa8, 0x00, 0x93, 0x61, 0x09, 0x00, 0x80, 0x0a, 0x95, 0x51,
        0xc6, 0x0d, 0x5e, 0xce, 0xf5, 0x7c, 0xf9, 0xa1, 0xc3, 0x62, 0xda, 0xc6, 0x75, 0x86, 0xb6, 0xda, 0xb6, 0xb0,
        0x84, 0xb1, 0xd9, 0x5e, 0x18, 0x24, 0x24, 0x94, 0x12, 0x6c, 0x83, 0x61, 0x6c, 0xa1, 0x92, 0x04,
    ]

    /// ImageMagick's temporary files left in `/tmp`.
    static func magickLeftovers() -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix("magick-") })
    }
}
