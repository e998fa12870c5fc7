import Foundation
import StackModel
import Testing

@testable import StackWebServer

@Suite struct RouteTests {
    @Test(arguments: [
        ("/healthz", Route.health), ("/metrics", .metrics), ("/photos/p1", .photo(id: "p1")),
        ("/api/rooms/main", .snapshot(room: "main")), ("/api/rooms/main/events", .events(room: "main")),
        ("/api/rooms/a/pointer", .pointer(room: "a")), ("/api/rooms/a/commands", .commands(room: "a")),
        ("/api/rooms/a/other", .file), ("/", .file), ("/api/rooms", .rooms), ("/photos/a/b", .file),
    ])
    func pathsMapToRoutes(path: String, route: Route) {
        #expect(Route(path: path) == route)
    }
}
