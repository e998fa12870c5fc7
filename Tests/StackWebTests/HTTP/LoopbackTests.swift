import Foundation
import Testing

@testable import StackWebServer

/// Loopback is the bound address's value, not its spelling: it decides whether a token is needed
/// and whether one address may open any number of connections, and the printed URLs show it.
@Suite struct LoopbackTests {
    @Test(arguments: [
        ("127.0.0.1", true), ("127.0.0.2", true), ("127.255.255.254", true), ("2130706434", true),
        ("0x7f000001", true), ("127.1", true), ("::1", true), ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true),
        ("localhost", true), ("0.0.0.0", false), ("::", false), ("192.168.1.20", false), ("128.0.0.1", false),
        ("::2", false), ("::ffff:10.0.0.1", false), ("127.0.0.1.example.invalid", false), ("127.", false),
    ])
    func decidedByValue(host: String, loopback: Bool) {
        var configuration = Configuration()
        configuration.host = host
        #expect(configuration.isLoopback == loopback)
    }

    /// `2130706434` is 127.0.0.2: a loopback server, with no token and no per-address cap, whose
    /// URL says where it listens.
    @Test func aNumericSpellingOfLoopbackIsLoopback() throws {
        let server = try TestServer { $0.host = "2130706434" }
        #expect(server.app.url == "http://127.0.0.2:\(server.port)/")
        #expect(server.app.controlToken == nil)
        let socket = try TestSocket(port: server.port, host: "127.0.0.2")
        try socket.write(Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.2\r\nConnection: close\r\n\r\n".utf8))
        #expect(try socket.read().map { String(decoding: $0, as: UTF8.self).hasPrefix("HTTP/1.1 200") } == true)
    }

    /// The control URL of a server bound to 127.0.0.2 names 127.0.0.2, where it can be reached.
    @Test func theControlURLIsTheBoundAddress() throws {
        let token = "abcdefghijklmnop1234"
        let server = try TestServer {
            $0.host = "127.0.0.2"
            $0.token = token
        }
        let lines = server.app.addressLines(toTerminal: true)
        #expect(lines.contains { $0.contains("http://127.0.0.2:\(server.port)/?token=\(token)") }, "\(lines)")
        #expect(!lines.joined().contains("127.0.0.1"))
    }
}
