import Foundation
import Testing

@testable import StackWebServer

/// A thousand event streams opened and dropped in quick succession (a hall of pages reloading, a
/// flaky Wi-Fi): afterwards the server counts only the viewers still there, holds no descriptor
/// for the others, and serves a correct snapshot. On the real binary, so its descriptors can be
/// counted apart from the test runner's.
@Suite struct ReconnectStormTests {
    static let reconnects = 1000
    static let workers = 4

    /// One reconnect of kind `index % 5`; the socket is closed when this returns.
    static func reconnect(_ index: Int, port: UInt16, resumeFrom: Int) throws {
        let path = "/api/rooms/main/events"
        switch index % 5 {
        case 0:
            // Reads its snapshot, then goes.
            let viewer = try SSETestClient(port: port, path: path)
            guard try viewer.next().event == "snapshot" else { throw TestSocket.Failure.malformed }
        case 1:
            // Goes mid-snapshot: a tiny receive window, one piece read, the rest left unread.
            let socket = try TestSocket(port: port, receiveBuffer: 1024)
            try socket.write(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
            _ = try socket.read()
        case 2:
            // Resumes with a recent id and takes one replayed change.
            let viewer = try SSETestClient(port: port, path: path, headers: ["Last-Event-ID": String(resumeFrom)])
            guard try viewer.next().id == String(resumeFrom + 1) else { throw TestSocket.Failure.malformed }
        case 3:
            // Resumes with an id the server cannot use, and leaves with the head alone.
            _ = try SSETestClient(port: port, path: path, headers: ["Last-Event-ID": "x\(index)"])
        default:
            // Asks and hangs up before reading a byte.
            let socket = try TestSocket(port: port)
            try socket.write(Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
        }
    }

    @Test func aThousandReconnectsLeaveOnlyTheLiveViewersAndNoDescriptors() throws {
        let started = Date()
        let server = try ServerProcess.start()
        defer { server.stop() }
        let http = HTTPTestClient(port: server.port)
        let viewers = { try http.get("/api/rooms/main").json()["viewers"] as? Int }
        for _ in 0..<5 {
            try #require(try http.post("/api/rooms/main/commands", json: #"{"command":"highlight"}"#).status == 200)
        }
        let live = try (0..<3).map { _ in try SSETestClient(port: server.port, path: "/api/rooms/main/events") }
        let openings = try live.map { try $0.next() }
        for opening in openings { #expect(opening.event == "snapshot") }
        let latest = try #require(openings.first?.id.flatMap { Int($0) })
        #expect(try Poll.until(10) { try viewers() == live.count })
        let descriptorsBefore = try server.openDescriptorCount()

        let failures = Locked<[String]>([])
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: Self.workers) { worker in
            for index in stride(from: worker, to: Self.reconnects, by: Self.workers) {
                do {
                    try Self.reconnect(index, port: port, resumeFrom: HistoryNumbering.id(3, inNumberingOf: latest))
                } catch {
                    failures.withLock { $0.append("reconnect \(index): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try http.get("/healthz").status == 200)

        // A stream parked with nothing to send notices its closed peer at its next write (the 15 s
        // heartbeat on its own): make a change per round, as a heartbeat would, until the count is right.
        var lastSeq = latest
        let settled = try Poll.until(15) {
            lastSeq =
                try http.post("/api/rooms/main/commands", json: #"{"command":"highlight"}"#).json()["seq"]
                as? Int ?? -1
            return try viewers() == live.count
        }
        #expect(settled, "viewers: \(String(describing: try? viewers())), live: \(live.count)")
        #expect(try Poll.until(15) { try server.openDescriptorCount() <= descriptorsBefore })
        #expect(try server.openDescriptorCount() <= descriptorsBefore)

        // The live viewers heard every change, in order, with no gap.
        for viewer in live {
            var ids: [Int] = []
            while ids.last != lastSeq {
                let event = try viewer.next(timeout: 10)
                if event.event == "change", let id = event.id.flatMap(Int.init) { ids.append(id) }
            }
            #expect(ids == Array((latest + 1)...lastSeq))
        }
        // A fresh viewer gets the room as it is.
        let fresh = try SSETestClient(port: server.port, path: "/api/rooms/main/events")
        let first = try fresh.next()
        let snapshot = try first.json()
        let polled = try http.get("/api/rooms/main").json()
        #expect(first.event == "snapshot")
        #expect(first.id == String(lastSeq))
        #expect(snapshot["seq"] as? Int == lastSeq && polled["seq"] as? Int == lastSeq)
        #expect(snapshot["viewers"] as? Int == live.count + 1)
        for key in ["current", "count", "style"] {
            #expect(snapshot[key] as? AnyHashable == polled[key] as? AnyHashable, "\(key)")
        }
        let ids = { (json: [String: Any]) in (json["cards"] as? [[String: Any]])?.compactMap { $0["id"] as? String } }
        #expect(ids(snapshot) == ids(polled))
        #expect(ids(snapshot)?.isEmpty == false)
        let highlight = { (json: [String: Any]) in (json["cards"] as? [[String: Any]])?.first?["highlight"] as? Bool }
        #expect(highlight(snapshot) == ((lastSeq % 2) == 1))
        #expect(Date().timeIntervalSince(started) < 60)
    }
}
