import Glibc

/// A blocking TCP connection to 127.0.0.1 (or another IPv4 address) with a receive timeout, so no test can hang forever.
final class TestSocket {
    enum Failure: Error {
        case connect(Int32)
        case write(Int32)
        case timedOut
        case malformed
    }

    private let fd: Int32

    /// `receiveBuffer` shrinks the kernel's receive buffer (before connecting, so the window is
    /// small from the start): a reader that never reads then stalls the sender quickly.
    /// `source` binds the local end to that address first (another loopback address: another client).
    init(
        port: UInt16, host: String = "127.0.0.1", source: String? = nil, receiveTimeout: Double = 10,
        receiveBuffer: Int32? = nil
    ) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            _ = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            throw Failure.connect(error)
        }
        setReceiveTimeout(receiveTimeout)
    }

    deinit { close(fd) }

    func setReceiveTimeout(_ seconds: Double) {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure.write(errno) }
            sent += count
        }
    }

    /// The next bytes, or `nil` at end of stream. Throws `timedOut` when nothing arrives in time.
    /// A signal to the test process (a child server exiting) interrupts a receive that has a
    /// timeout whatever the handler's flags: it is read again, not taken for the end of the stream.
    func read() throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(buffer[..<count]) }
            if count == 0 { return nil }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure.timedOut }
            return nil
        }
    }
}
