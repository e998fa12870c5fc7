/// `GET /api/rooms` as a test reads it: one room's entry, as listed by one instance.
enum RoomList {
    /// `room`'s viewers and card count (-1 for a field missing) as the instance on `port` lists them;
    /// nil when it does not list the room, or did not answer.
    static func entry(_ room: String, at port: UInt16) -> (viewers: Int, count: Int)? {
        let rooms = (try? HTTPTestClient(port: port).get("/api/rooms").json())?["rooms"] as? [[String: Any]]
        guard let entry = rooms?.first(where: { $0["room"] as? String == room }) else { return nil }
        return (entry["viewers"] as? Int ?? -1, entry["count"] as? Int ?? -1)
    }
}
