import Foundation
import StackModel

/// A refusal of a request's content: status and a message for `{"error": …}`.
struct APIError: Error, Equatable {
    var status: Int
    var message: String

    static func badRequest(_ message: String) -> APIError { APIError(status: 400, message: message) }
}

/// Decodes and checks the JSON bodies the page posts (docs/wire-protocol.md).
enum APIRequest {
    /// Most samples one POST may carry: a frame's coalesced moves are a few dozen at most.
    static let maxEventsPerPost = 512
    /// Coordinates beyond this many stage points are refused as nonsense.
    static let maxCoordinate = 1_000_000.0

    private struct CommandBody: Decodable {
        var command: String
        var index: Int?
        var style: String?
        /// `style` only: the swipe's stacked mode on or off; absent keeps it as it is.
        var stacked: Bool?
        var id: String?
        var photo: String?
        var at: Int?
    }

    /// One decoded pointer sample and the page's number for it, if it sent one.
    struct PointerSample: Equatable {
        var input: PointerInput
        var seq: Int?
    }

    static func pointerSamples(from body: [UInt8]) throws(APIError) -> [PointerSample] {
        let decoded: PointerBody
        if let plain = PointerBody.scan(body) { decoded = plain } else { decoded = try decode(body) }
        guard (1...64).contains(decoded.viewer.utf8.count) else {
            throw .badRequest("viewer must be 1 to 64 bytes")
        }
        guard decoded.events.count <= maxEventsPerPost else {
            throw .badRequest("at most \(maxEventsPerPost) events per request")
        }
        if let scale = decoded.scale, !PointerInput.pixelsPerPointRange.contains(scale) {
            throw .badRequest(
                "scale must be \(PointerInput.pixelsPerPointRange.lowerBound) to \(PointerInput.pixelsPerPointRange.upperBound)"
            )
        }
        return try decoded.events.enumerated().map { (index, sample) throws(APIError) -> PointerSample in
            guard let phase = PointerInput.Phase(rawValue: sample.type) else {
                throw .badRequest("events[\(index)].type must be down, move, up or cancel")
            }
            guard sample.t.isFinite, abs(sample.x) <= maxCoordinate, abs(sample.y) <= maxCoordinate else {
                throw .badRequest("events[\(index)] has a coordinate or time out of range")
            }
            let input = PointerInput(
                viewer: decoded.viewer, phase: phase, pointer: sample.pointer, x: sample.x, y: sample.y, t: sample.t,
                pixelsPerPoint: decoded.scale ?? 1)
            return PointerSample(input: input, seq: sample.seq)
        }
    }

    /// A command for the room: one for its stack, or one for its slideshow.
    enum RoomCommand: Equatable {
        case stack(StackCommand)
        case play
        case pause
        /// The server picks the seed: a client cannot choose the order.
        case shuffle
        /// The photo is looked up in the library by the router.
        case insert(photoID: String, at: Int)
    }

    static func command(from body: [UInt8]) throws(APIError) -> RoomCommand {
        let decoded: CommandBody = try decode(body)
        switch decoded.command {
        case "next": return .stack(.next)
        case "previous": return .stack(.previous)
        case "flip": return .stack(.flip)
        case "highlight": return .stack(.highlight)
        case "fullscreen": return .stack(.fullscreen)
        case "undo": return .stack(.undo)
        case "play": return .play
        case "pause": return .pause
        case "shuffle": return .shuffle
        case "style":
            guard let name = decoded.style, let style = StyleName(rawValue: name) else {
                throw .badRequest(
                    "style needs \"style\": one of \(StyleName.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .stack(.style(style, stacked: decoded.stacked))
        case "remove":
            guard let id = decoded.id, !id.isEmpty, id.utf8.count <= 64 else {
                throw .badRequest("remove needs the card's \"id\"")
            }
            return .stack(.remove(cardID: id))
        case "insert":
            guard let photo = decoded.photo, !photo.isEmpty, photo.utf8.count <= 64 else {
                throw .badRequest("insert needs a \"photo\" id (and optionally \"at\", default 0)")
            }
            return .insert(photoID: photo, at: decoded.at ?? 0)
        case "goto":
            guard let index = decoded.index else { throw .badRequest("goto needs an integer index") }
            return .stack(.goto(index: index))
        default:
            throw .badRequest("unknown command '\(decoded.command.prefix(40))'")
        }
    }

    private static func decode<Body: Decodable>(_ body: [UInt8]) throws(APIError) -> Body {
        if let problem = JSONShape.problem(in: body) { throw .badRequest(problem.description) }
        do {
            return try JSONDecoder().decode(Body.self, from: Data(body))
        } catch let error as DecodingError {
            throw .badRequest(describe(error))
        } catch {
            throw .badRequest("malformed JSON")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field \(path(context)).\(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(path(context).isEmpty ? "top level" : path(context))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "malformed JSON" : "invalid value at \(path(context))"
        @unknown default: return "malformed JSON"
        }
    }
}
