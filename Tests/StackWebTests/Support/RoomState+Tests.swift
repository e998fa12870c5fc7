import StackModel

@testable import StackWebServer

extension RoomState {
    /// A room named `name` over an empty library, awake, at `now`: the reducer as tests start it.
    static func forTests(
        name: String = "r", settings: RoomSettings = RoomSettings(), now: Millis, ownership: Ownership = .alone
    ) -> RoomState {
        RoomState(
            name: name, settings: settings, library: PhotoLibrary(entries: []), asleep: false, now: now,
            ownership: ownership)
    }
}
