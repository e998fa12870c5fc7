import Foundation
import Testing

@testable import StackWebServer

/// A request head and body must arrive within their deadlines, however slowly they trickle
/// (slowloris); the idle timeout alone never fires for a client that sends a byte now and then.
@Suite struct RequestDeadlineTests {
    static func server(headSeconds: Double = 10, bodySeconds: Double = 30) throws -> TestServer {
        try TestServer {
            var limits = ServerLimits()
            limits.headerDeadlineSeconds = headSeconds
            limits.bodyDeadlineSeconds = bodySeconds
            $0.limits = limits
        }
    }

    /// A connection that opens while a sweep is under way reads the clock after the sweep did: it is
    /// new, not billions of seconds old. (Read before the sweep's lock, the clock made the unsigned
    /// age wrap, and a fresh request was cut at once: seen as a GET answered with nothing.)
    @Test func aConnectionNewerThanTheSweepsClockIsNotOverdue() {
        let limits = ServerLimits()
        let now: UInt64 = 5_000_000_000
        for phase in [ConnectionGuard.Phase.head, .body, .upload] {
            #expect(!ConnectionGuard.isOverdue(phase, since: now + 1, now: now, limits: limits))
            #expect(!ConnectionGuard.isOverdue(phase, since: now - 1_000_000_000, now: now, limits: limits))
            #expect(ConnectionGuard.isOverdue(phase, since: 0, now: now + 60_000_000_000, limits: limits))
        }
        #expect(!ConnectionGuard.isOverdue(.answering, since: 0, now: .max, limits: limits))
    }

    /// Sends `opening`, then one byte of `trickle` every half second until the server closes the
    /// connection (or `giveUp` seconds pass); the seconds until it closed, or `nil`. Halfway, a
    /// normal client must be served.
    static func trickle(
        port: UInt16, opening: String, trickle byte: UInt8, giveUp: Double, meanwhile: () throws -> Void
    ) throws -> Double? {
        let socket = try TestSocket(port: port)
        let started = Date()
        try socket.write(Array(opening.utf8))
        var checked = false
        while Date().timeIntervalSince(started) < giveUp {
            if (try? socket.write([byte])) == nil { return Date().timeIntervalSince(started) }
            socket.setReceiveTimeout(0.5)
            do {
                if try socket.read() == nil { return Date().timeIntervalSince(started) }
            } catch TestSocket.Failure.timedOut {
                if !checked, Date().timeIntervalSince(started) > 1 {
                    try meanwhile()
                    checked = true
                }
            }
        }
        return nil
    }

    @Test func aHeadTricklingPastTheDeadlineIsClosed() throws {
        let server = try Self.server(headSeconds: 2)
        let opening = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Slow: "
        let closedAfter = try Self.trickle(port: server.port, opening: opening, trickle: UInt8(ascii: "a"), giveUp: 8) {
            let status = try server.http.get("/healthz").status
            #expect(status == 200)
        }
        let seconds = try #require(closedAfter, "a trickling head held its connection past the deadline")
        #expect(seconds > 1.5)
        #expect(seconds < 2 + 1.5)
    }

    @Test func aBodyTricklingPastTheDeadlineIsCutOff() throws {
        let server = try Self.server(bodySeconds: 2)
        let opening =
            "POST /api/rooms/main/commands HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"command\":\"next\""
        let closedAfter = try Self.trickle(port: server.port, opening: opening, trickle: UInt8(ascii: " "), giveUp: 8) {
            let status = try server.http.get("/healthz").status
            #expect(status == 200)
        }
        let seconds = try #require(closedAfter, "a trickling body held its connection past the deadline")
        #expect(seconds < 2 + 1.5)
        #expect(try server.numberedSoFar() == 0)
    }

    /// The deadlines are for requests arriving: an open event stream, however long, is exempt.
    @Test func anEventStreamOutlivesTheDeadlines() throws {
        let server = try Self.server(headSeconds: 1, bodySeconds: 1)
        let viewer = try server.events()
        #expect(try viewer.next().event == "snapshot")
        Thread.sleep(forTimeInterval: 2)  // past both deadlines, on purpose
        #expect(try server.command(#"{"command":"next"}"#).status == 200)
        #expect(try viewer.next().event != "snapshot")
    }

    /// A kept-alive connection may ask again, quickly, after its first answer.
    @Test func aKeptAliveConnectionIsServedAgain() throws {
        let server = try Self.server(headSeconds: 2)
        let socket = try TestSocket(port: server.port)
        let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        for _ in 0..<2 {
            try socket.write(Array(request.utf8))
            var raw: [UInt8] = []
            while String(decoding: raw, as: UTF8.self).range(of: "\"status\"") == nil {
                guard let chunk = try socket.read() else { break }
                raw += chunk
            }
            #expect(String(decoding: raw, as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        }
    }
}
