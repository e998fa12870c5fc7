import CVipsTestSupport
import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// A name chosen by whoever fills the photo folder cannot forge an operator's line: the text format
/// writes one line per event whatever the fields hold, and a name that is not UTF-8 is logged
/// (once, escaped) rather than skipped without a word.
@Suite struct LogForgingTests {
    @Test(arguments: [
        ("a\nstackweb: save.recovered", #"a\nstackweb: save.recovered"#), ("a\rb", #"a\rb"#), ("a\tb", #"a\tb"#),
        ("a\u{1B}[31mb", #"a\x1b[31mb"#), ("a\u{7F}b", #"a\x7fb"#), ("a\u{85}b", #"a\u{85}b"#),
        ("a\u{2028}b\u{2029}", #"a\u{2028}b\u{2029}"#), ("a\\nb", #"a\nb"#), ("a\u{202E}gpj.exe", #"a\u{202e}gpj.exe"#),
        ("café ✓", "café ✓"),
    ])
    func aTextLineIsOneLineWhateverItHolds(message: String, written: String) {
        let (log, lines) = OperatorLog.capturing(.text)
        log.record("photo.skipped", message)
        #expect(lines.withLock { $0 } == ["stackweb: \(written)\n"])
    }

    @Test func aPhotoNameCannotForgeALine() throws {
        let folder = try TemporaryFiles.folder() + "/photos"
        try TestPhotos.write(["a.jpg"], in: folder)
        let name = "evil.jpg\nstackweb: save.recovered: the state is saved again.jpg"
        try Data("not a jpeg".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        let follower = try FolderFollower(folder: folder)
        #expect(Poll.until { follower.lines(containing: "evil.jpg") == 1 })
        let lines = follower.logged.withLock { $0 }
        #expect(lines.allSatisfy { $0.dropLast().allSatisfy { $0 != "\n" && $0 != "\r" } })
        #expect(lines.contains { $0.contains(#"evil.jpg\nstackweb: save.recovered"#) })
    }

    /// Bytes that are not UTF-8 in a name: the photo cannot be given a URL the page could ask for,
    /// so it is skipped, and said so once with the bytes escaped.
    @Test func aNameThatIsNotUTF8IsLoggedOnce() throws {
        let folder = try TemporaryFiles.folder() + "/photos"
        try TestPhotos.write(["a.jpg"], in: folder)
        let raw: [UInt8] = Array((folder + "/bad-").utf8) + [0xFF, 0x0A, 0xFE] + Array(".jpg".utf8) + [0]
        let descriptor = raw.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        let follower = try FolderFollower(folder: folder)
        #expect(Poll.until { follower.lines(containing: #"bad-\xff\n\xfe.jpg"#) == 1 })
        #expect(follower.names == ["a.jpg"])
        // A later look at the folder does not say it again.
        try TestPhotos.write(["b.jpg"], in: folder)
        #expect(follower.shows(["a.jpg", "b.jpg"]))
        #expect(follower.lines(containing: "bad-") == 1)
    }
}
