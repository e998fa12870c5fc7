import Foundation

/// A Server-Sent Events reader over a real socket: sends the GET, checks the head, then yields
/// events one by one as a browser's EventSource would parse them.
final class SSETestClient {
    struct Event: Equatable {
        var id: String?
        var event: String
        var data: String

        func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] ?? [:]
        }
    }

    let status: Int
    let headers: [String: String]
    private(set) var retry: Int?
    private(set) var comments = 0
    /// Every byte of the stream's body so far (chunked framing removed), to check the framing itself.
    private(set) var received: [UInt8] = []
    private let socket: TestSocket
    private var decoder = ChunkedDecoder()
    private var text = ""
    private var queued: [Event] = []

    /// `rawHeaderLines` are sent as they are (each ending in CRLF): bytes a `String` cannot hold.
    init(
        port: UInt16, path: String, headers: [String: String] = [:], receiveBuffer: Int32? = nil,
        rawHeaderLines: [UInt8] = []
    ) throws {
        socket = try TestSocket(port: port, receiveBuffer: receiveBuffer)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try socket.write(Array(head.utf8) + rawHeaderLines + Array("\r\n".utf8))
        var raw: [UInt8] = []
        while raw.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            guard let chunk = try socket.read() else { throw TestSocket.Failure.malformed }
            raw += chunk
        }
        let split = raw.firstRange(of: Array("\r\n\r\n".utf8))!
        let reply = try HTTPTestClient.parse(Array(raw[..<split.upperBound]), method: "GET")
        status = reply.status
        self.headers = reply.headers
        let rest = Array(raw[split.upperBound...])
        let body = reply.header("transfer-encoding") == "chunked" ? decoder.feed(rest) : rest
        received += body
        text += String(decoding: body, as: UTF8.self)
        isChunked = reply.header("transfer-encoding") == "chunked"
    }

    private let isChunked: Bool

    /// The next event, waiting at most `timeout` seconds in all (heartbeats do not extend it);
    /// throws `TestSocket.Failure.timedOut`.
    func next(timeout: Double = 5) throws -> Event {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            parseBufferedEvents()
            if !queued.isEmpty { return queued.removeFirst() }
            try readMore(before: deadline)
        }
    }

    /// Reads until at least `count` comment lines (heartbeats) have arrived in all.
    func waitForComments(_ count: Int, timeout: Double = 5) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            parseBufferedEvents()
            if comments >= count { return }
            try readMore(before: deadline)
        }
    }

    /// Reads until the server ends the stream; `true` when it did within `timeout`.
    func readToEnd(timeout: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            socket.setReceiveTimeout(max(deadline.timeIntervalSinceNow, 0.001))
            guard try socket.read() != nil else { return true }
        }
        return false
    }

    private func readMore(before deadline: Date) throws {
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { throw TestSocket.Failure.timedOut }
        socket.setReceiveTimeout(max(remaining, 0.001))
        guard let bytes = try socket.read() else { throw TestSocket.Failure.malformed }
        let body = isChunked ? decoder.feed(bytes) : bytes
        received += body
        text += String(decoding: body, as: UTF8.self)
    }

    /// Reads events until one satisfies `match` within `timeout` seconds in all.
    func next(timeout: Double = 5, where match: (Event) -> Bool) throws -> Event {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let event = try next(timeout: deadline.timeIntervalSinceNow)
            if match(event) { return event }
        }
    }

    private func parseBufferedEvents() {
        while let end = text.range(of: "\n\n") {
            let block = text[..<end.lowerBound]
            text.removeSubrange(..<end.upperBound)
            var event = Event(id: nil, event: "message", data: "")
            var hasData = false
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") { comments += 1; continue }
                let field = line.split(separator: ":", maxSplits: 1).map(String.init)
                let value = field.count > 1 ? String(field[1].drop(while: { $0 == " " })) : ""
                switch field.first {
                case "id": event.id = value
                case "event": event.event = value
                case "data": event.data += (hasData ? "\n" : "") + value; hasData = true
                case "retry": retry = Int(value)
                default: break
                }
            }
            if hasData { queued.append(event) }
        }
    }
}
