import StackModel

@testable import StackWebServer

/// The room reducer as its tests start it: a clock reading, twelve photos, and effects reduced to
/// their kinds, which most tests compare whole.
enum RoomReducerFixture {
    static let t0: Millis = 1_000_000
    static let photos = (0..<12).map { Photo(id: "p\($0)", width: 4, height: 3) }

    static func loadedState(settings: RoomSettings = RoomSettings(idleUnload: 60_000)) -> RoomState {
        var state = RoomState.forTests(settings: settings, now: t0)
        state.load(Stack(photos: photos, seed: 1), paused: nil)
        return state
    }

    /// The kinds of effects, without their bytes: what most tests compare whole.
    enum Kind: Equatable {
        case broadcast(event: String), send(to: Int), wake(at: Millis), save(SaveUrgency), upcoming([String])
    }

    static func kinds(_ effects: [RoomEffect]) -> [Kind] {
        effects.map { effect in
            switch effect {
            case .broadcast(let bytes):
                let text = String(decoding: bytes, as: UTF8.self)
                let name = text.split(separator: "\n").first { $0.hasPrefix("event: ") }?.dropFirst(7)
                return .broadcast(event: name.map(String.init) ?? "comment")
            case .publish(.change, _): return .broadcast(event: "change")
            case .publish(.takeover, _): return .broadcast(event: "snapshot")
            case .publish(.base, _): return .broadcast(event: "base")
            case .send(_, let viewer): return .send(to: viewer.number)
            case .wake(let deadline): return .wake(at: deadline)
            case .save(_, let urgency): return .save(urgency)
            case .upcoming(let photos): return .upcoming(photos)
            }
        }
    }
}
