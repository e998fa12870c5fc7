import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// A folder whose order by name, by EXIF date and by modification time all differ, and a server on it.
enum PhotoOrderFixture {
    /// Four photos whose names, EXIF dates and modification times disagree on the order:
    /// by date it is c (taken 2019), a (2021), d (no EXIF, written 2022), b (taken 2023).
    static func folder() throws -> String {
        CVipsSetup.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(CVipsTest_writeJPEGTaken(folder + "/a.jpg", 80, 60, "2021:05:01 12:00:00") == 0)
        #expect(CVipsTest_writeJPEGTaken(folder + "/b.jpg", 80, 60, "2023:01:01 08:30:00") == 0)
        #expect(CVipsTest_writeJPEGTaken(folder + "/c.jpg", 80, 60, "2019:12:24 18:00:00") == 0)
        #expect(CVipsTest_writeJPEG(folder + "/d.jpg", 80, 60, 1) == 0)
        let written = DateComponents(calendar: .current, year: 2022, month: 3, day: 1, hour: 9).date!
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: folder + "/d.jpg")
        // The EXIF date wins over the file's own time.
        try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: folder + "/b.jpg")
        return folder
    }

    static func server(_ configure: @escaping (inout Configuration) -> Void) throws -> TestServer {
        let folder = try folder()
        return try TestServer {
            $0.photos = folder
            configure(&$0)
        }
    }
}
