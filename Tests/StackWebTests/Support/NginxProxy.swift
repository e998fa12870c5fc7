import Foundation

/// nginx in front of one server, with the configuration the repository documents
/// (docs/scale-out/nginx.conf) and this test's ports in place of its own.
final class NginxProxy {
    static let executable = "/usr/sbin/nginx"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let port: UInt16
    private let process = Process()

    init(upstream: UInt16) throws {
        let folder = try TemporaryFiles.folder()
        port = try Self.freePort()
        let documented = try String(
            contentsOf: TestServer.repositoryRoot.appending(path: "docs/scale-out/nginx.conf"), encoding: .utf8)
        var text = documented.replacingOccurrences(
            of: "listen 127.0.0.1:8080;", with: "listen 127.0.0.1:\(port);")
        let upstreams = (8081...8083).map { "        server 127.0.0.1:\($0);\n" }.joined()
        guard text.contains(upstreams) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "nginx.conf changed shape"])
        }
        text = text.replacingOccurrences(of: upstreams, with: "        server 127.0.0.1:\(upstream);\n")
        try text.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-p", folder, "-c", folder + "/nginx.conf", "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let http = HTTPTestClient(port: port)
        guard Poll.until(10, { (try? http.get("/healthz").status) == 200 }) else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "nginx did not answer"])
        }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// A port free a moment ago: nginx needs one written into its configuration.
    private static func freePort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return UInt16(bigEndian: address.sin_port)
    }
}
