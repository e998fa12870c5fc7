/// Bodies of `POST /api/rooms/NAME/commands` that many tests send.
enum CommandBody {
    static let next = #"{"command":"next"}"#
}
