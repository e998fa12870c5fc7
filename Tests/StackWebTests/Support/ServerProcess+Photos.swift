import Foundation

extension ServerProcess {
    /// Polls the main room until it holds `count` photos: the server answers before it has read a
    /// new folder's photos, and adds them as it reads them.
    func shows(photos count: Int, within seconds: Double = 20) -> Bool {
        let http = HTTPTestClient(port: port)
        return Poll.until(seconds) {
            ((try? http.get("/api/rooms/main").json())?["count"] as? Int) == count
        }
    }
}
