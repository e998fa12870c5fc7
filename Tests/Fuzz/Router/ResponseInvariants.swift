import Dispatch
import Foundation
import Glibc

@testable import StackWebServer

/// What every answer of the router must satisfy, whatever was asked.
enum ResponseInvariants {
    /// How long a deferred answer (an image conversion) may take before it counts as lost.
    static let deferredTimeout = DispatchTimeInterval.seconds(60)

    /// Checks `response` and returns the viewer it opened, if it is an event stream.
    static func check(_ response: Response) -> RecordingSink? {
        precondition((100..<600).contains(response.status), "status \(response.status) out of range")
        switch response.body {
        case .bytes(let bytes):
            if response.status >= 400 {
                let error = (json(bytes) as? [String: Any])?["error"] as? String
                precondition(error?.isEmpty == false, "status \(response.status) without a JSON error")
            } else if contentType(of: response)?.hasPrefix("application/json") == true {
                precondition(json(bytes) != nil, "a JSON answer that does not parse")
            }
            return nil
        case .shared(let answer):
            // A page file or its 304: the same answer object every time, status and headers its own.
            precondition(
                answer.status == response.status && [200, 304].contains(answer.status), "shared \(answer.status)")
            precondition(answer.status == 304 || !answer.bytes.isEmpty, "an empty page file")
            return nil
        case .file(let file):
            // Opened already, below the photo folder, a regular file: its descriptor is still ours.
            let descriptor = file.take()
            precondition(response.status == 200 && descriptor != nil, "a file answer without its descriptor")
            if let descriptor { close(descriptor) }
            return nil
        case .filePart(let file, let offset, let length):
            // A Range's span: within the file, and answered 206.
            let descriptor = file.take()
            precondition(response.status == 206 && descriptor != nil, "a file part without its descriptor")
            precondition(offset >= 0 && length > 0 && offset + length <= file.size, "a span outside the file")
            if let descriptor { close(descriptor) }
            return nil
        case .deferred(let work):
            return check(waitFor(work))
        case .eventStream(let attach):
            precondition(response.status == 200, "an event stream with status \(response.status)")
            let viewer = RecordingSink()
            attach(viewer)
            let opening = viewer.takeReceived()
            precondition(opening.starts(with: "retry: 1000\n\n".utf8), "an event stream that does not open with retry:")
            checkEvents(opening)
            return viewer
        }
    }

    /// Every line of the events a viewer received: known fields only, numeric ids and retry times,
    /// data that is a JSON object. Lines are found with memchr: a byte loop here would be
    /// instrumented for coverage, slow the target down and feed the fuzzer the harness's branches.
    static func checkEvents(_ received: [UInt8]) {
        received.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) -> Void in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                var end = buffer.count
                if let newline = memchr(base + start, 0x0A, buffer.count - start) {
                    end = UnsafePointer<UInt8>(newline.assumingMemoryBound(to: UInt8.self)) - base
                }
                checkEventLine(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                start = end + 1
            }
        }
    }

    private static func checkEventLine(_ line: UnsafeBufferPointer<UInt8>) {
        if line.isEmpty || line[0] == UInt8(ascii: ":") { return }
        let text = String(decoding: line.prefix(8), as: UTF8.self)
        if text.hasPrefix("data: ") {
            precondition(json(Array(line.dropFirst(6))) is [String: Any], "event data is not a JSON object")
        } else if text.hasPrefix("id: ") || text.hasPrefix("retry: ") {
            let value = String(decoding: line, as: UTF8.self).split(separator: " ", maxSplits: 1).last
            precondition(
                value.flatMap { Int($0) } != nil, "malformed event line \(String(decoding: line, as: UTF8.self))")
        } else {
            precondition(
                text.hasPrefix("event: "), "unknown event line \(String(decoding: line.prefix(80), as: UTF8.self))")
        }
    }

    /// A room's snapshot, as `GET /api/rooms/{room}` gives it, parses and names its room.
    static func checkSnapshot(_ response: Response, room: String) {
        precondition(response.status == 200, "snapshot of \(room): status \(response.status)")
        guard case .bytes(let bytes) = response.body, let snapshot = json(bytes) as? [String: Any] else {
            preconditionFailure("snapshot of \(room) does not parse")
        }
        precondition(snapshot["room"] as? String == room && snapshot["cards"] is [Any], "snapshot of \(room) malformed")
    }

    private static func waitFor(_ work: (@escaping @Sendable (Response) -> Void) -> Void) -> Response {
        let answer = Locked<Response?>(nil)
        let done = DispatchSemaphore(value: 0)
        work { response in
            answer.withLock { $0 = response }
            done.signal()
        }
        precondition(done.wait(timeout: .now() + deferredTimeout) == .success, "a deferred answer never came")
        guard let response = answer.withLock({ $0 }) else { preconditionFailure("a deferred answer was empty") }
        if case .deferred = response.body { preconditionFailure("a deferred answer deferred again") }
        return response
    }

    private static func contentType(of response: Response) -> String? {
        response.headers.first { $0.0.lowercased() == "content-type" }?.1
    }

    private static func json(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes))
    }
}
