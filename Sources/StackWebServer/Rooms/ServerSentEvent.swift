/// Frames Server-Sent Events. `data` must hold no line break (our JSON never does).
enum ServerSentEvent {
    /// An event with an id: the browser remembers it and sends it back as `Last-Event-ID`.
    static func encode(id: Int, event: String, data: [UInt8]) -> [UInt8] {
        frame(head: "id: \(id)\nevent: \(event)\ndata: ", data: data)
    }

    /// An event without an id, for what is not worth replaying (presence): the browser's last
    /// event id stays that of the last change.
    static func encode(event: String, data: [UInt8]) -> [UInt8] {
        frame(head: "event: \(event)\ndata: ", data: data)
    }

    private static func frame(head: String, data: [UInt8]) -> [UInt8] {
        var bytes = Array(head.utf8)
        bytes.reserveCapacity(bytes.count + data.count + 2)
        bytes += data
        bytes += [0x0A, 0x0A]
        return bytes
    }
}
