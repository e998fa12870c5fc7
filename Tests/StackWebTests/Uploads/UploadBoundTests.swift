import Dispatch
import Foundation
import Testing

@testable import StackWebServer

/// Uploads are bounded in time and space: a body past the size limit is answered at once however
/// it is framed, a trickle is cut and its slot freed, and uploads at once share the quota rather
/// than each comparing with what was stored when it started.
@Suite struct UploadBoundTests {
    /// A socket the test's writer thread sends on while the test reads the answer.
    final class Sender: @unchecked Sendable {
        let socket: TestSocket
        init(_ socket: TestSocket) { self.socket = socket }
    }

    @Test func aChunkedBodyPastTheLimitIsAnswered413AtOnceAndClosed() throws {
        let fixture = try UploadFixture { $0.uploads.maxBytes = 1_000_000 }
        let sender = Sender(try TestSocket(port: fixture.server.port, receiveTimeout: 5))
        let head =
            "POST /api/rooms/main/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n"
        try sender.socket.write(Array(head.utf8))
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0xAB, count: 0x10000) + Array("\r\n".utf8)
        let started = Date()
        // 60 MiB, sent until the server stops taking them.
        DispatchQueue.global().async {
            for _ in 0..<960 { guard (try? sender.socket.write(chunk)) != nil else { return } }
        }
        var raw: [UInt8] = []
        while let bytes = try sender.socket.read() {
            raw += bytes
            if raw.count > 12 { break }
        }
        let waited = Date().timeIntervalSince(started)
        #expect(String(decoding: raw.prefix(12), as: UTF8.self) == "HTTP/1.1 413", "\(raw.count) bytes")
        #expect(waited < 3, "answered after \(waited) s")
        #expect(Poll.until(5) { fixture.files().isEmpty }, "\(fixture.files())")
    }

    @Test func sixteenTricklingUploadsKeepASeventeenthGuestOutNoLongerThanTheDeadline() throws {
        let fixture = try UploadFixture()
        // The documented bound: a trickle is cut once its first seconds of grace are over.
        let grace = UploadPace().graceSeconds
        let head =
            "POST /api/rooms/main/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: 1000000\r\n\r\n"
        // Four addresses, four uploads each: every upload slot taken.
        let tricklers = try (0..<16).map { index in
            let socket = try TestSocket(port: fixture.server.port, source: "127.0.0.\(2 + index / 4)")
            try socket.write(Array(head.utf8) + [0xFF, 0xD8])
            return Sender(socket)
        }
        #expect(Poll.until(5) { fixture.files().filter { $0.hasPrefix(".upload-") }.count == 16 })
        let started = Date()
        let photo = try UploadFixture.jpeg(64, 47)
        #expect(Self.status(ofPosting: photo, port: fixture.server.port, from: "127.0.0.9") == 429)
        // One byte each every half second: far under any rate a phone sends at.
        let trickling = Locked(true)
        DispatchQueue.global().async {
            while trickling.withLock({ $0 }) {
                for trickler in tricklers { try? trickler.socket.write([0]) }
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        defer { trickling.withLock { $0 = false } }
        let admitted = Poll.until(grace + 5) {
            Self.status(ofPosting: photo, port: fixture.server.port, from: "127.0.0.9") == 201
        }
        let waited = Date().timeIntervalSince(started)
        #expect(admitted)
        #expect(waited <= grace + 2, "the guest waited \(waited) s")
        // Each trickle was told why.
        let answer = try #require(try tricklers[0].socket.read())
        #expect(String(decoding: answer.prefix(12), as: UTF8.self) == "HTTP/1.1 408")
    }

    /// `jpeg` with `count` APP1 segments of 60,000 bytes after its SOI (blob hosting, as a phone's
    /// EXIF is one segment of a few kB).
    static func padded(_ jpeg: [UInt8], segments count: Int) -> [UInt8] {
        let segment: [UInt8] =
            [0xFF, 0xE1, UInt8(60_002 >> 8), UInt8(60_002 & 0xFF)] + [UInt8](repeating: 7, count: 60_000)
        return Array(jpeg.prefix(2)) + Array([[UInt8]](repeating: segment, count: count).joined()) + jpeg.dropFirst(2)
    }

    @Test func aPhotoCarryingMoreThanAMebibyteBesidesItsPictureIs413AndNothingIsKept() throws {
        let fixture = try UploadFixture()
        // 32 × 32 pixels and 1.8 MB of APP1 segments.
        let blob = try fixture.post(Self.padded(try UploadFixture.jpeg(32, 32), segments: 30))
        #expect(blob.status == 413, "\(blob.text)")
        #expect(fixture.files().isEmpty, "\(fixture.files())")
        #expect(try fixture.server.snapshot()["count"] as? Int == 3)
        // A phone's few hundred kB of metadata are taken.
        #expect(try fixture.post(Self.padded(try UploadFixture.jpeg(32, 33), segments: 5)).status == 201)
    }

    /// The status of `photo` posted to `main` from `source` (another loopback address: another guest).
    static func status(ofPosting photo: [UInt8], port: UInt16, from source: String) -> Int? {
        let head =
            "POST /api/rooms/main/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
            + "Content-Length: \(photo.count)\r\nConnection: close\r\n\r\n"
        guard let socket = try? TestSocket(port: port, source: source),
            (try? socket.write(Array(head.utf8) + photo)) != nil
        else { return nil }
        var raw: [UInt8] = []
        while let bytes = try? socket.read() { raw += bytes }
        return try? HTTPTestClient.parse(raw, method: "POST").status
    }

    @Test func sixteenUploadsAtOnceNeverPassTheQuota() throws {
        let quota: Int64 = 1_000_000
        let fixture = try UploadFixture { $0.uploads.quota = quota }
        // Sixteen different photos of about 150 KB each: 2.4 MB in all, more than twice the quota.
        let photos = try (0..<16).map { index in
            let jpeg = try UploadFixture.jpeg(64, 30 + index)
            let comment = [UInt8](repeating: UInt8(index), count: 60_000)
            let segment: [UInt8] = [0xFF, 0xFE, UInt8(60_002 >> 8), UInt8(60_002 & 0xFF)] + comment
            return Array(jpeg.prefix(2)) + segment + segment + Array(jpeg.dropFirst(2))
        }
        let sockets = try photos.enumerated().map { index, photo in
            let socket = try TestSocket(port: fixture.server.port, source: "127.0.0.\(2 + index / 4)")
            let head =
                "POST /api/rooms/main/photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/jpeg\r\n"
                + "Content-Length: \(photo.count)\r\nConnection: close\r\n\r\n"
            try socket.write(Array(head.utf8) + photo.prefix(photo.count / 2))
            return socket
        }
        var statuses: [Int] = []
        for (socket, photo) in zip(sockets, photos) {
            try? socket.write(Array(photo.dropFirst(photo.count / 2)))
            var raw: [UInt8] = []
            while let bytes = try? socket.read() { raw += bytes }
            statuses.append((try? HTTPTestClient.parse(raw, method: "POST").status) ?? 0)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: fixture.uploads + "/main").filter {
            !$0.hasPrefix(".")
        }
        let bytes = try kept.reduce(Int64(0)) { sum, name in
            let size = try FileManager.default.attributesOfItem(atPath: fixture.uploads + "/main/" + name)[.size]
            return sum + Int64((size as? Int) ?? 0)
        }
        #expect(statuses.contains(201) && statuses.contains(507), "\(statuses)")
        #expect(bytes <= quota, "\(kept.count) photos of \(bytes) bytes kept under a quota of \(quota): \(statuses)")
    }
}
