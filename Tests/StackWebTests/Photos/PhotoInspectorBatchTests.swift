import CVipsTestSupport
import Foundation
import Testing

@testable import StackWebServer

/// Files read side by side (`PhotoInspector.inspect(_:maxPixels:workers:)`) get the verdicts one
/// read after the other gives: the fast path checked against the plain one.
@Suite struct PhotoInspectorBatchTests {
    /// Whole photos of every format the server reads, and every kind of file it must refuse.
    static func mixedFolder() throws -> [String] {
        let folder = try TemporaryFiles.folder()
        var paths: [String] = []
        for index in 0..<24 {
            let path = folder + "/photo-\(index).\(["jpg", "png", "webp"][index % 3])"
            #expect(CVipsTest_writeImage(path, Int32(120 + index), 90) == 0)
            paths.append(path)
        }
        #expect(CVipsTest_writeJPEGTaken(folder + "/taken.jpg", 80, 60, "2021:05:01 12:00:00") == 0)
        #expect(CVipsTest_writeJPEG(folder + "/turned.jpg", 80, 60, 6) == 0)
        try Data(try TestPhotos.jpegBytes().prefix(9000)).write(to: URL(fileURLWithPath: folder + "/cut.jpg"))
        #expect(CVipsTest_writeImage(folder + "/cut.png", 400, 300) == 0)
        let png = try Data(contentsOf: URL(fileURLWithPath: folder + "/cut.png"))
        try png.prefix(png.count * 2 / 3).write(to: URL(fileURLWithPath: folder + "/cut.png"))
        try TestPhotos.writeTruncatedBomb(folder + "/bomb.jpg", width: 7000, height: 7000, bytes: .max)
        try Data("<html>not a photo</html>".utf8).write(to: URL(fileURLWithPath: folder + "/fake.jpg"))
        return paths
            + ["taken.jpg", "turned.jpg", "cut.jpg", "cut.png", "bomb.jpg", "fake.jpg"].map { folder + "/" + $0 }
    }

    /// A verdict without its wording: with files read side by side, libvips' one error buffer may
    /// hold another file's message, so only whether and why-not-at-all is compared.
    static func verdict(_ result: Result<PhotoInspector.Header, PhotoProblem>) -> PhotoInspector.Header? {
        if case .success(let header) = result { return header }
        return nil
    }

    @Test(arguments: [1, 2, 4])
    func sideBySideGivesTheVerdictsOfOneAfterTheOther(workers: Int) throws {
        let paths = try Self.mixedFolder()
        let plain = paths.map { Self.verdict(PhotoInspector.inspect($0)) }
        let batch = PhotoInspector.inspect(paths, workers: workers).map(Self.verdict)
        #expect(batch == plain)
        #expect(plain.compactMap { $0 }.count == paths.count - 4, "whole photos accepted, broken ones refused")
        #expect(plain.last(where: { $0 != nil })??.orientation == 6)
    }

    /// Many small files read on every worker, again and again: what a first start on a big folder
    /// does, and what crashed libvips when each file started a threadpool of its own.
    @Test func thousandsOfFilesSideBySideAllDecode() throws {
        let folder = try TemporaryFiles.folder()
        let paths = (0..<200).map { folder + "/p\($0).jpg" }
        for path in paths { #expect(CVipsTest_writeJPEG(path, 64, 48, 1) == 0) }
        for _ in 0..<10 {
            let results = PhotoInspector.inspect(paths, workers: 4)
            #expect(results.allSatisfy { Self.verdict($0) != nil })
        }
    }
}
