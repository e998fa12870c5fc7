import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// Small real JPEGs written where a test's photo folder needs them.
enum TestPhotos {
    /// Writes a 64×48 JPEG at each of `names` (paths relative to `folder`, sub-folders created).
    static func write(_ names: [String], in folder: String) throws {
        CVipsSetup.start()
        for name in names {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(CVipsTest_writeJPEG(path, 64, 48, 1) == 0)
        }
    }

    /// A new folder of two albums, `kitchen` (`k0.jpg`, `k1.jpg`) and `living` (`l0.jpg`), and
    /// `top.jpg` outside both.
    static func albumFolder() throws -> String {
        CVipsSetup.start()
        let folder = try TemporaryFiles.folder()
        for album in ["kitchen", "living"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + album, withIntermediateDirectories: true)
        }
        for path in ["kitchen/k0.jpg", "kitchen/k1.jpg", "living/l0.jpg", "top.jpg"] {
            #expect(CVipsTest_writeJPEG(folder + "/" + path, 120, 90, 1) == 0)
        }
        return folder
    }

    /// The bytes of a `width` × `height` JPEG.
    static func jpegBytes(width: Int32 = 640, height: Int32 = 480) throws -> Data {
        CVipsSetup.start()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("whole-\(UUID().uuidString).jpg")
        #expect(CVipsTest_writeJPEG(scratch.path, width, height, 1) == 0)
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try Data(contentsOf: scratch)
    }

    /// A JPEG whose header says `width` × `height`, cut to `bytes`: what a guest drops in the folder.
    static func writeTruncatedBomb(_ path: String, width: Int, height: Int, bytes: Int) throws {
        #expect(CVipsTest_writeJPEG(path, 64, 48, 1) == 0)
        var data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The baseline frame header: FF C0, length, precision, then height and width.
        let frame = try #require((0..<data.count - 9).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        data[frame + 5] = UInt8(height >> 8)
        data[frame + 6] = UInt8(height & 0xFF)
        data[frame + 7] = UInt8(width >> 8)
        data[frame + 8] = UInt8(width & 0xFF)
        try Data(data.prefix(bytes)).write(to: URL(fileURLWithPath: path))
    }

    /// The upright size of an image held in memory.
    static func uprightSize(of bytes: [UInt8]) throws -> (Int, Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("img-\(UUID().uuidString).jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var width: Int32 = 0
        var height: Int32 = 0
        #expect(CVipsTest_uprightSize(path, &width, &height) == 0)
        return (Int(width), Int(height))
    }
}
