import Foundation
import Testing

@testable import StackWebServer

/// Past the connection caps a new client is closed at once, not left waiting in the backlog.
@Suite struct ConnectionCapTests {
    /// Waits (at most `within` seconds) for the server to close `socket`; how long it took, or `nil`
    /// if it was still open then.
    static func closeDelay(of socket: TestSocket, within seconds: Double) -> Double? {
        let started = Date()
        socket.setReceiveTimeout(seconds)
        do {
            while try socket.read() != nil {}
            return Date().timeIntervalSince(started)
        } catch {
            return nil
        }
    }

    /// Opens `count` idle connections; the server accepts them in order, before any later one.
    static func hold(_ count: Int, port: UInt16) throws -> [TestSocket] {
        try (0..<count).map { _ in try TestSocket(port: port) }
    }

    @Test func theConnectionPastTheCapIsClosedAtOnce() throws {
        let server = try TestServer {
            var limits = ServerLimits()
            limits.connectionLimit = 8
            $0.limits = limits
        }
        var held = try Self.hold(8, port: server.port)
        let refused = try TestSocket(port: server.port)
        let delay = Self.closeDelay(of: refused, within: 3)
        #expect(delay != nil, "the 9th connection was left hanging")
        #expect((delay ?? 9) < 1)
        // One leaves (closing its socket): the next client is served again.
        held.removeLast()
        #expect(try Self.eventuallyServed(port: server.port))
        withExtendedLifetime(held) {}
    }

    @Test func theConnectionPastThePerAddressCapIsClosedAtOnce() throws {
        let server = try TestServer {
            var limits = ServerLimits()
            limits.perIPConnectionLimit = 4
            $0.limits = limits
        }
        let held = try Self.hold(4, port: server.port)
        let refused = try TestSocket(port: server.port)
        let delay = Self.closeDelay(of: refused, within: 3)
        #expect(delay != nil, "the 5th connection from one address was left hanging")
        #expect((delay ?? 9) < 1)
        withExtendedLifetime(held) {}
    }

    @Test func theCappedServerStillAnswersEveryoneBelowTheCap() throws {
        let server = try TestServer {
            var limits = ServerLimits()
            limits.connectionLimit = 8
            $0.limits = limits
        }
        let held = try Self.hold(7, port: server.port)
        #expect(try server.http.get("/healthz").status == 200)
        withExtendedLifetime(held) {}
    }

    /// A room can reach its viewer limit: it is below the connection cap, with room to spare for
    /// other rooms, pages and POSTs.
    @Test func theRoomViewerLimitIsBelowTheConnectionCap() {
        for loopbackOnly in [true, false] {
            let cap = Int(ServerLimits.standard(loopbackOnly: loopbackOnly).connectionLimit)
            #expect(RoomSettings.maxViewers < cap)
            #expect(cap - RoomSettings.maxViewers >= 1024)
        }
    }

    /// Whether a request is answered within two seconds (the server notices a closed connection
    /// on its next turn).
    static func eventuallyServed(port: UInt16) throws -> Bool {
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            if let reply = try? HTTPTestClient(port: port).get("/healthz"), reply.status == 200 { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }
}
