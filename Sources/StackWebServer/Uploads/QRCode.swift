import CQREncode
import Foundation

/// A QR code's modules, drawn by libqrencode: the square a phone's camera reads to open a room's
/// add page.
struct QRCode: Equatable, Sendable {
    /// Modules per side, without the quiet zone.
    let size: Int
    /// Row by row, `size × size`; `true` is a dark module.
    let modules: [Bool]

    init(size: Int, modules: [Bool]) {
        self.size = size
        self.modules = modules
    }

    /// The code of `text` as bytes, at error correction level M (15 % of the code may be lost: a
    /// reflection on a TV's screen, a corner cut by the frame). `nil` when it does not fit in the
    /// largest code (about 2,300 bytes at M), or libqrencode fails.
    init?(encoding text: String) {
        let bytes = Array(text.utf8)
        guard let code = QRcode_encodeData(Int32(bytes.count), bytes, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what libqrencode put there.
        let data = UnsafeBufferPointer(start: code.pointee.data, count: size * size)
        self.size = size
        modules = data.map { $0 & 1 != 0 }
    }

    /// Whether the module at column `x`, row `y` (from the top left, without the quiet zone) is dark.
    func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// The modules around the code that must stay light for a reader to find it (ISO/IEC 18004).
    static let quietZone = 4

    /// The code as an SVG image: dark modules on a light square, the quiet zone included, one module
    /// one unit (the image scales to any size without blurring). Each run of dark modules in a row
    /// is one rectangle of the path, `M x y h n v1 h-n z`.
    func svg(title: String) -> String {
        let side = size + 2 * Self.quietZone
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                let start = x
                while x < size, isDark(x: x, y: y) { x += 1 }
                path += "M\(start + Self.quietZone) \(y + Self.quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <title>\(Self.escaped(title))</title>\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>

            """
    }

    /// `text` safe inside an XML element.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
