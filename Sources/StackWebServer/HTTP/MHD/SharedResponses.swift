import CMicroHTTPD
import CMicroHTTPDSystem
import Foundation

/// One libmicrohttpd response per `SharedAnswer`, built on first use and kept until the daemon
/// stops (a handful: the page's files and their 304s). The answer is kept too, so its identity
/// cannot be reused by another object.
final class SharedResponses: Sendable {
    private struct Entry: @unchecked Sendable {
        let answer: SharedAnswer
        let response: OpaquePointer
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])
    /// Headers every answer carries, before the answer's own.
    private let answerHeaders: [(String, String)]

    init(answerHeaders: [(String, String)] = []) { self.answerHeaders = answerHeaders }

    func response(for answer: SharedAnswer) -> OpaquePointer? {
        entries.withLock { entries in
            if let entry = entries[ObjectIdentifier(answer)] { return entry.response }
            let made = answer.bytes.withUnsafeBytes {
                MHD_create_response_from_buffer(
                    $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
            }
            guard let made else { return nil }
            for (name, value) in answerHeaders + answer.headers { MHD_add_response_header(made, name, value) }
            entries[ObjectIdentifier(answer)] = Entry(answer: answer, response: made)
            return made
        }
    }

    func destroyAll() {
        let all = entries.withLock { entries in
            defer { entries.removeAll() }
            return Array(entries.values)
        }
        for entry in all { MHD_destroy_response(entry.response) }
    }
}
