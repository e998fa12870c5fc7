import Foundation
import Testing

@testable import StackWebServer

/// `GET /clips/ID` over real HTTP: the file as it is when browsers play it, else its rendition once
/// made; `Range`, `If-Range`, `ETag` and 416; sent from the descriptor, never read into memory.
@Suite(.enabled(if: TestClips.isInstalled, "needs ffmpeg"))
struct ClipServingTests {
    let server: TestServer
    let folder: String

    init() throws {
        folder = try TemporaryFiles.folder()
        try FileManager.default.createDirectory(atPath: folder + "/trip", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestClips.path(.h264MP4), toPath: folder + "/trip/beach.mp4")
        try FileManager.default.copyItem(atPath: TestClips.path(.hevcMOV), toPath: folder + "/phone.MOV")
        try TestPhotos.write(["still.jpg"], in: folder)
        let cache = try TemporaryFiles.folder()
        server = try TestServer { [folder] in
            $0.photos = folder
            $0.cache = cache
        }
        // The clips are listed in the background at start.
        let id = server.photoID("trip/beach.mp4")
        let http = server.http
        let listed = Poll.until(10) { (try? http.get("/clips/\(id)").status) == 200 }
        #expect(listed)
    }

    private var beach: [UInt8] {
        get throws { Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/trip/beach.mp4"))) }
    }

    @Test func aPlayableClipIsServedAsItIs() throws {
        let reply = try server.http.get("/clips/\(server.photoID("trip/beach.mp4"))")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "video/mp4" && reply.header("Accept-Ranges") == "bytes")
        #expect(reply.header("ETag")?.hasPrefix("\"") == true)
        #expect(try reply.body == beach)
    }

    @Test func aRangeGetsItsBytesAnd206() throws {
        let whole = try beach
        let reply = try server.http.get(
            "/clips/\(server.photoID("trip/beach.mp4"))", headers: ["Range": "bytes=100-1099"])
        #expect(reply.status == 206)
        #expect(reply.header("Content-Range") == "bytes 100-1099/\(whole.count)")
        #expect(reply.header("Content-Length") == "1000")
        #expect(reply.body == Array(whole[100..<1100]))
        let tail = try server.http.get("/clips/\(server.photoID("trip/beach.mp4"))", headers: ["Range": "bytes=-10"])
        #expect(tail.status == 206 && tail.body == Array(whole.suffix(10)))
    }

    @Test func aRangePastTheEndIs416() throws {
        let size = try beach.count
        let reply = try server.http.get(
            "/clips/\(server.photoID("trip/beach.mp4"))", headers: ["Range": "bytes=\(size)-"])
        #expect(reply.status == 416)
        #expect(reply.header("Content-Range") == "bytes */\(size)")
        #expect(try reply.json()["error"] as? String != nil)
    }

    @Test func ifRangeWithAnotherTagGetsTheWholeClip() throws {
        let path = "/clips/\(server.photoID("trip/beach.mp4"))"
        let etag = try #require(try server.http.get(path).header("ETag"))
        let same = try server.http.get(path, headers: ["Range": "bytes=0-9", "If-Range": etag])
        #expect(same.status == 206 && same.body.count == 10)
        let other = try server.http.get(path, headers: ["Range": "bytes=0-9", "If-Range": "\"older\""])
        #expect(other.status == 200)
        #expect(try other.body == beach)
        let cached = try server.http.get(path, headers: ["If-None-Match": etag])
        #expect(cached.status == 304)
    }

    @Test func anHEVCClipIsServedAsItsRenditionOnceMade() throws {
        let path = "/clips/\(server.photoID("phone.MOV"))"
        let first = try server.http.get(path)
        #expect(first.status == 503 && first.header("Retry-After") == String(ClipAnswers.retryAfter))
        let http = server.http
        let made = Poll.until(60) { (try? http.get(path).status) == 200 }
        #expect(made)
        let reply = try server.http.get(path, headers: ["Range": "bytes=0-"])
        #expect(reply.status == 206 && reply.header("Content-Type") == "video/mp4")
        let copy = try TemporaryFiles.folder() + "/rendition.mp4"
        try Data(reply.body).write(to: URL(fileURLWithPath: copy))
        let probe = try ClipProbe.read(path: copy).get()
        #expect(probe.videoCodec == "h264" && probe.playsAsIs)
    }

    @Test func aPosterIsTheFirstFrameUprightAtTheSizeAsked() throws {
        let path = "/clips/\(server.photoID("phone.MOV"))/poster?w=256"
        let reply = try server.http.get(path, headers: ["Accept": "image/webp,*/*"])
        #expect(reply.status == 200 && reply.header("Content-Type") == "image/webp")
        let (width, height) = try TestPhotos.uprightSize(of: reply.body)
        // Upright (stored 320 × 240, held a quarter turn), and as a photo: fitted in the box, its long
        // side rounded up to the ladder (512), never enlarged.
        #expect(width == 240 && height == 320)
        let etag = try #require(reply.header("ETag"))
        #expect(try server.http.get(path, headers: ["Accept": "image/webp", "If-None-Match": etag]).status == 304)
        let jpeg = try server.http.get("/clips/\(server.photoID("trip/beach.mp4"))/poster?h=128")
        #expect(jpeg.status == 200 && jpeg.header("Content-Type") == "image/jpeg")
        // 128 high is 171 wide: the ladder's 256 holds it.
        #expect(try TestPhotos.uprightSize(of: jpeg.body) == (256, 192))
        #expect(try server.http.get("/clips/\(server.photoID("phone.MOV"))/poster?w=x").status == 400)
    }

    @Test func aClipThatCannotBeConvertedIsNotConvertedAgainAtEveryRequest() throws {
        try FileManager.default.copyItem(atPath: TestClips.path(.blankMOV), toPath: folder + "/blank.mov")
        let restarted = try TestServer { [folder] in $0.photos = folder }
        let path = "/clips/\(restarted.photoID("blank.mov"))"
        let http = restarted.http
        let listed = Poll.until(10) { (try? http.get(path).status) != 404 }
        #expect(listed)
        let failed = Poll.until(30) { (try? http.get(path).status) == 500 }
        #expect(failed)
        #expect(try http.get(path).json()["error"] as? String == "this clip cannot be converted for browsers")
    }

    @Test func anUnknownIDOrAPhotoIsNoClip() throws {
        #expect(try server.http.get("/clips/p0123456789abcdef01234567").status == 404)
        #expect(try server.http.get("/clips/\(server.photoID("still.jpg"))").status == 404)
        #expect(try server.http.get("/clips/\(server.photoID("still.jpg"))/poster").status == 404)
    }

    @Test func aLargeClipIsSentWithoutBeingReadIntoMemory() throws {
        // The playable clip with 300 MB of (sparse) zeros after it: still probed as it is.
        let big = folder + "/big.mp4"
        try FileManager.default.copyItem(atPath: folder + "/trip/beach.mp4", toPath: big)
        let size = 300 << 20
        #expect(truncate(big, size) == 0)
        let restarted = try TestServer { [folder] in $0.photos = folder }
        let url = "http://127.0.0.1:\(restarted.port)/clips/\(restarted.photoID("big.mp4"))"
        #expect(
            Poll.until(10) {
                (try? restarted.http.get("/clips/\(restarted.photoID("big.mp4"))", headers: ["Range": "bytes=0-0"])
                    .status) == 206
            })
        let before = Self.residentPeak()
        let (status, output) = try TLSFixture.run(
            "/usr/bin/curl",
            ["-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", "-H", "Range: bytes=1-", url])
        #expect(status == 0)
        #expect(output == "206 \(size - 1)")
        // Reading it into memory would raise the peak by 300 MB.
        #expect(
            Self.residentPeak() - before < 64 << 20,
            "peak resident memory grew by \(Self.residentPeak() - before) bytes")
    }

    @Test(.enabled(if: NginxProxy.isInstalled, "needs nginx"))
    func rangesWorkThroughNginx() throws {
        let proxy = try NginxProxy(upstream: server.port)
        let http = HTTPTestClient(port: proxy.port)
        let path = "/clips/\(server.photoID("trip/beach.mp4"))"
        let whole = try beach
        let etag = try #require(try http.get(path).header("ETag"))
        let part = try http.get(path, headers: ["Range": "bytes=10-19", "If-Range": etag])
        #expect(part.status == 206 && part.body == Array(whole[10..<20]))
        #expect(part.header("Content-Range") == "bytes 10-19/\(whole.count)")
        #expect(part.header("Accept-Ranges") == "bytes")
        let stale = try http.get(path, headers: ["Range": "bytes=10-19", "If-Range": "\"older\""])
        #expect(stale.status == 200 && stale.body == whole)
        let past = try http.get(path, headers: ["Range": "bytes=\(whole.count)-"])
        #expect(past.status == 416 && past.header("Content-Range") == "bytes */\(whole.count)")
    }

    /// The process's peak resident memory (VmHWM), in bytes.
    static func residentPeak() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
