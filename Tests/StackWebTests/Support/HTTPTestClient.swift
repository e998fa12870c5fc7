import Foundation
import Glibc

/// A plain HTTP/1.1 client over a real TCP socket, so the tests see exactly what a browser gets.
struct HTTPTestClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers[name.lowercased()] }
        func json() throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
        }
    }

    let port: UInt16

    func get(_ path: String, headers: [String: String] = [:]) throws -> Reply {
        try send(method: "GET", path: path, headers: headers)
    }

    func post(_ path: String, json: String, headers: [String: String] = [:]) throws -> Reply {
        try send(
            method: "POST", path: path, headers: ["Content-Type": "application/json"].merging(headers) { $1 },
            body: Array(json.utf8))
    }

    func send(method: String, path: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> Reply {
        let socket = try TestSocket(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\n"
        // A test that names its own Host sends that one only (two are refused, RFC 9112 §3.2).
        if !headers.keys.contains(where: { $0.lowercased() == "host" }) { head += "Host: 127.0.0.1:\(port)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        try socket.write(Array((head + "\r\n").utf8) + body)
        var raw: [UInt8] = []
        while let chunk = try socket.read() { raw += chunk }
        return try HTTPTestClient.parse(raw, method: method)
    }

    static func parse(_ raw: [UInt8], method: String) throws -> Reply {
        guard let split = raw.firstRange(of: Array("\r\n\r\n".utf8)) else { throw TestSocket.Failure.malformed }
        let lines = String(decoding: raw[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw TestSocket.Failure.malformed
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body = Array(raw[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" {
            var decoder = ChunkedDecoder()
            body = decoder.feed(body)
        }
        return Reply(status: status, headers: headers, body: method == "HEAD" ? [] : body)
    }
}

/// Decodes `Transfer-Encoding: chunked` incrementally (a stream arrives in arbitrary pieces).
struct ChunkedDecoder {
    private var pending: [UInt8] = []
    private var remainingInChunk = 0
    private var needsCRLF = false

    mutating func feed(_ bytes: [UInt8]) -> [UInt8] {
        pending += bytes
        var out: [UInt8] = []
        while true {
            if needsCRLF {
                guard pending.count >= 2 else { break }
                pending.removeFirst(2)
                needsCRLF = false
            }
            if remainingInChunk > 0 {
                let count = min(remainingInChunk, pending.count)
                guard count > 0 else { break }
                out += pending[..<count]
                pending.removeFirst(count)
                remainingInChunk -= count
                if remainingInChunk == 0 { needsCRLF = true }
                continue
            }
            guard let lineEnd = pending.firstRange(of: [13, 10]) else { break }
            let sizeText = String(decoding: pending[..<lineEnd.lowerBound], as: UTF8.self)
            pending.removeFirst(lineEnd.upperBound)
            remainingInChunk = Int(sizeText.split(separator: ";").first ?? "", radix: 16) ?? 0
            if remainingInChunk == 0 { break }
        }
        return out
    }
}
