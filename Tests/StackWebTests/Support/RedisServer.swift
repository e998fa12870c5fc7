import Foundation

@testable import StackWebServer

/// A real `redis-server` on a free port with its data in a temporary folder: memory only (no RDB,
/// no AOF), or `persistent` (an append-only file synced at each write, as a group that must survive
/// a restart of Redis runs it). Started ready to answer, killed and its folder removed when the test
/// lets it go.
final class RedisServer {
    /// Where Debian installs it; tests that need Redis are skipped without it.
    static let executable = "/usr/bin/redis-server"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: Int32
    let folder: URL
    let persistent: Bool
    private var process: Process?

    var url: RedisURL { RedisURL(host: "127.0.0.1", port: port) }
    var urlText: String { "redis://127.0.0.1:\(port)/0" }

    init(persistent: Bool = false) throws {
        self.persistent = persistent
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try Self.freePort()
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts the server (again, on the same port after `stop`) and waits until it answers PING.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = [
            "--port", String(port), "--bind", "127.0.0.1", "--save", "",
            "--appendonly", persistent ? "yes" : "no", "--appendfsync", "always", "--dir", folder.path, "--logfile",
            folder.appendingPathComponent("redis.log").path,
        ]
        try process.run()
        self.process = process
        let connection = RedisConnection(url: url, timeout: 0.5)
        let ready = Poll.until(10) { (try? connection.command("PING"))?.text == "PONG" }
        guard ready else {
            stop()
            throw RedisError.unavailable("redis-server did not answer on port \(port)")
        }
    }

    /// Kills the server (SIGKILL: what it held in memory is gone) and waits for it to exit.
    func stop() {
        guard let process else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Freezes the server (SIGSTOP): connections stay open, nothing is answered until `resume`.
    func pause() {
        if let process { kill(process.processIdentifier, SIGSTOP) }
    }

    func resume() {
        if let process { kill(process.processIdentifier, SIGCONT) }
    }

    /// A new connection to this server, for a test's own commands.
    func connection() -> RedisConnection { RedisConnection(url: url, timeout: 2) }

    /// A port the kernel had free a moment ago.
    private static func freePort() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw RedisError.unavailable("no free port") }
        return Int32(UInt16(bigEndian: address.sin_port))
    }
}
