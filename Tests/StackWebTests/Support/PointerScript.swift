import Foundation

/// Pointer samples as a page posts them, and the room state the tests read back.
struct PointerScript {
    let server: TestServer
    var room = "main"

    /// One sample in the wire shape; `seq` is the page's per-pointer counter (the server may ignore it).
    static func sample(_ type: String, pointer: Int = 1, x: Double, y: Double, t: Double, seq: Int? = nil) -> String {
        let seqField = seq.map { #","seq":\#($0)"# } ?? ""
        return #"{"type":"\#(type)","pointer":\#(pointer),"x":\#(x),"y":\#(y),"t":\#(t)\#(seqField)}"#
    }

    static func body(viewer: String, _ samples: [String]) -> String {
        #"{"viewer":"\#(viewer)","events":[\#(samples.joined(separator: ","))]}"#
    }

    /// POSTs the samples; the reply as the server gave it.
    @discardableResult
    func post(viewer: String, _ samples: [String]) throws -> HTTPTestClient.Reply {
        try server.http.post("/api/rooms/\(room)/pointer", json: Self.body(viewer: viewer, samples))
    }

    /// POSTs the samples and returns the `seq` of the 200 answer (nil for any other answer).
    func postSeq(viewer: String, _ samples: [String]) throws -> Int? {
        let reply = try post(viewer: viewer, samples)
        return reply.status == 200 ? try reply.json()["seq"] as? Int : nil
    }

    func snapshot() throws -> [String: Any] { try server.snapshot(room: room) }

    /// The card drawn in front (position 0) in `snapshot`.
    static func top(_ snapshot: [String: Any]) -> [String: Any] {
        (snapshot["cards"] as? [[String: Any]])?.first { $0["position"] as? Int == 0 } ?? [:]
    }

    /// The front card's centre once nothing moves.
    func settledTop() throws -> (id: String, x: Double, y: Double) {
        let top = Self.top(try server.settledSnapshot(room: room))
        return (top["id"] as? String ?? "", top["x"] as? Double ?? .nan, top["y"] as? Double ?? .nan)
    }
}
