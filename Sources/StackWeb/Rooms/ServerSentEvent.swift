/// Frames one Server-Sent Event. `data` must hold no line break (our JSON never does).
enum ServerSentEvent {
    static func encode(id: Int, event: String, data: [UInt8]) -> [UInt8] {
        var bytes = Array("id: \(id)\nevent: \(event)\ndata: ".utf8)
        bytes.reserveCapacity(bytes.count + data.count + 2)
        bytes += data
        bytes += [0x0A, 0x0A]
        return bytes
    }
}
