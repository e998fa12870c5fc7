extension TestSocket {
    /// Sends `raw` and reads the answer, failing rather than waiting past two seconds.
    static func exchange(_ port: UInt16, _ raw: [UInt8]) throws -> HTTPTestClient.Reply {
        let socket = try TestSocket(port: port, receiveTimeout: 2)
        try socket.write(raw)
        var bytes: [UInt8] = []
        while let chunk = try socket.read() { bytes += chunk }
        return try HTTPTestClient.parse(bytes, method: "GET")
    }

    static func getHealth(_ port: UInt16, headerLines: [UInt8]) throws -> HTTPTestClient.Reply {
        let head = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        return try exchange(port, Array(head.utf8) + headerLines + Array("\r\n".utf8))
    }
}
