import Foundation

@testable import StackWebServer

/// One request of a `router` fuzz input, written in a small HTTP-like text form so that the seed
/// corpus reads like real traffic:
///
///     POST /api/rooms/main/commands [lan]
///     Host: 127.0.0.1:8080
///     Content-Type: application/json
///
///     {"command":"next"}
///
/// The first line is the method and the raw request-target; a third word `lan` sends the request
/// to the server bound beyond loopback (a control token required) instead of the loopback one.
/// Header lines follow up to an empty line; the rest is the body. An input may hold several
/// requests separated by a `%%` line, so that a sequence of commands is one reproducible input.
struct FuzzRequest {
    enum Server {
        /// Bound to 127.0.0.1: no token.
        case loopback
        /// Bound to 0.0.0.0: every POST needs `Authorization: Bearer <token>`.
        case lan
    }

    /// Requests read from one input at most: a single input must stay cheap to run.
    static let maxPerInput = 16

    var server: Server
    var request: Request

    /// Every request of `input`, in order; pieces without a request line are skipped.
    static func decode(_ input: [UInt8]) -> [FuzzRequest] {
        split(input[...], separator: Array("\n%%\n".utf8)).prefix(maxPerInput).compactMap(decodeOne)
    }

    private static func decodeOne(_ bytes: ArraySlice<UInt8>) -> FuzzRequest? {
        let parts = split(bytes, separator: [0x0A, 0x0A], limit: 2)
        var lines = split(parts[0], separator: [0x0A]).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 2).map(String.init)
        guard requestLine.count >= 2 else { return nil }
        let rawTarget = requestLine[1]
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        // Split at the byte, as libmicrohttpd does: "?" followed by a combining mark is one Character.
        let target = split(Array(rawTarget.utf8)[...], separator: [UInt8(ascii: "?")], limit: 2)
        let request = Request(
            method: requestLine[0], path: decodedOnce(target[0]), rawTarget: rawTarget,
            query: target.count > 1 ? query(target[1]) : [:], headers: headers,
            body: parts.count > 1 ? Array(parts[1]) : [])
        return FuzzRequest(
            server: requestLine.count > 2 && requestLine[2] == "lan" ? .lan : .loopback, request: request)
    }

    /// What libmicrohttpd hands the access handler as the path: `%XX` decoded once, cut at a NUL.
    static func decodedOnce(_ text: ArraySlice<UInt8>) -> String {
        let bytes = Array(text)
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Query arguments as libmicrohttpd collects them: `&`-separated, each side decoded, the last
    /// of a repeated name kept.
    private static func query(_ text: ArraySlice<UInt8>) -> [String: String] {
        var arguments: [String: String] = [:]
        for pair in split(text, separator: [UInt8(ascii: "&")]) where !pair.isEmpty {
            let sides = split(pair, separator: [UInt8(ascii: "=")], limit: 2)
            arguments[decodedOnce(sides[0])] = sides.count > 1 ? decodedOnce(sides[1]) : ""
        }
        return arguments
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `bytes` cut at each occurrence of `separator`, into at most `limit` pieces.
    private static func split(_ bytes: ArraySlice<UInt8>, separator: [UInt8], limit: Int = .max) -> [ArraySlice<UInt8>]
    {
        var pieces: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var index = start
        while index + separator.count <= bytes.endIndex, pieces.count + 1 < limit {
            if bytes[index..<index + separator.count].elementsEqual(separator) {
                pieces.append(bytes[start..<index])
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(bytes[start...])
        return pieces
    }
}
