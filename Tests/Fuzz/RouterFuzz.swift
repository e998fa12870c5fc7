// libFuzzer target: the whole router, as the daemon drives it. Each input is one or more requests
// (see FuzzRequest) answered by `refusal(forHead:)`, then `respond(to:)` unless refused, against
// one server whose rooms live from input to input (a fresh one every 2,000 inputs), so that the
// fuzzer explores sequences of commands and gestures. Every answer has a valid status, every
// error is a JSON {"error": …}, event streams send well-formed events, and every room touched
// still has a snapshot that parses.

import Foundation

@testable import StackWebServer

/// Inputs one server answers before a fresh one replaces it: enough for rooms to live through many
/// sequences of commands, few enough that stacks grown by inserts and 64 rooms' full replay buffers
/// do not slow the target to a crawl and its memory to the limit (at 20,000, rooms replaying a
/// grown corpus reached 900 MB and 30 inputs a second).
private let inputsPerServer = 2_000
private let current = Locked<(server: FuzzServer, inputs: Int)>((FuzzServer(), 0))
/// Viewers kept subscribed across inputs, so that changes are broadcast to someone; the oldest
/// disconnects when a new one joins past this.
private let maxOpenViewers = 4
private let openViewers = Locked<[RecordingSink]>([])
/// `STACKWEB_FUZZ_TRACE=1` prints each request's status, to see what a seed or a crash input does.
private let tracing = ProcessInfo.processInfo.environment["STACKWEB_FUZZ_TRACE"] == "1"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let server = current.withLock { current in
        if current.inputs == inputsPerServer {
            let leaving = openViewers.withLock { viewers in
                defer { viewers = [] }
                return viewers
            }
            for viewer in leaving { viewer.disconnect() }
            current = (FuzzServer(), 0)
        }
        current.inputs += 1
        return current.server
    }
    var touchedRooms: Set<String> = []
    for fuzzRequest in FuzzRequest.decode(Array(UnsafeBufferPointer(start: data, count: size))) {
        let request = fuzzRequest.request
        let router = server.router(for: fuzzRequest.server)
        if let refusal = router.refusal(forHead: request) {
            trace(request, refusal, "refused")
            precondition(refusal.status >= 400, "a refusal with status \(refusal.status)")
            _ = ResponseInvariants.check(refusal)
            continue
        }
        // The server answers a body past the limit itself, before the router sees it.
        guard request.body.count <= router.maxBodyBytes else { continue }
        let response = router.respond(to: request)
        trace(request, response, "answered")
        if let viewer = ResponseInvariants.check(response) { keep(viewer) }
        switch Route(path: request.path) {
        case .snapshot(let room), .events(let room), .pointer(let room), .commands(let room): touchedRooms.insert(room)
        default: break
        }
    }
    let loaded = Set(server.rooms.all.map(\.name))
    for room in touchedRooms.intersection(loaded) {
        let snapshot = server.loopback.respond(to: Request(method: "GET", path: "/api/rooms/\(room)"))
        ResponseInvariants.checkSnapshot(snapshot, room: room)
    }
    for viewer in openViewers.withLock({ $0 }) { ResponseInvariants.checkEvents(viewer.takeReceived()) }
    return 0
}

private func trace(_ request: Request, _ response: Response, _ how: String) {
    guard tracing else { return }
    let body =
        if case .bytes(let bytes) = response.body { String(decoding: bytes.prefix(120), as: UTF8.self) } else { "" }
    print("\(request.method) \(request.rawTarget.prefix(80)): \(how) \(response.status) \(body)")
}

private func keep(_ viewer: RecordingSink) {
    let leaving = openViewers.withLock { viewers in
        viewers.removeAll { $0.isClosed }
        viewers.append(viewer)
        return viewers.count > maxOpenViewers ? viewers.removeFirst() : nil
    }
    leaving?.disconnect()
}
