import Foundation
import StackModel

/// Maps requests to answers. Pure with respect to sockets: tests call it directly, and the
/// daemon calls the same function.
struct Router: RequestResponder {
    let staticFiles: StaticFiles
    let rooms: RoomRegistry
    let photos: PhotoLibrary
    let maxBodyBytes: Int
    let access: AccessPolicy

    func refusal(forHead request: Request) -> Response? {
        guard request.method == "POST" else { return nil }
        if let refusal = access.refusal(for: request) { return refusal }
        if let length = request.header("Content-Length").flatMap(Int.init), length > maxBodyBytes {
            return .error(413, "request body larger than \(maxBodyBytes) bytes")
        }
        let mediaType = request.header("Content-Type")?.split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/json" else {
            return .error(415, "Content-Type must be application/json")
        }
        return nil
    }

    func respond(to request: Request) -> Response {
        let route = Route(path: request.path)
        if route == .file { return staticFile(request) }
        guard route.methods.contains(request.method) else { return methodNotAllowed(request, allowed: route.methods) }
        switch route {
        case .health: return .json(Array(#"{"status":"ok"}"#.utf8))
        case .metrics: return metrics()
        case .rooms: return roomList()
        case .snapshot(let name): return withRoom(name) { .json($0.snapshotJSON()) }
        case .events(let name): return withRoom(name) { events(of: $0, request: request) }
        case .pointer(let name): return withRoom(name) { pointer($0, request) }
        case .commands(let name): return withRoom(name) { command($0, request) }
        case .photo(let id): return photo(id: id)
        case .file: return staticFile(request)
        }
    }

    private func methodNotAllowed(_ request: Request, allowed: [String]) -> Response {
        var response = Response.error(405, "method \(request.method.prefix(16)) not allowed here")
        response.headers.append(("Allow", allowed.joined(separator: ", ")))
        return response
    }

    private func withRoom(_ name: String, _ body: (Room) -> Response) -> Response {
        do {
            return body(try rooms.room(named: name))
        } catch {
            switch error {
            case .invalidName:
                return .error(400, "room names are 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit")
            case .tooManyRooms(let limit):
                return .error(429, "this server holds at most \(limit) rooms")
            }
        }
    }

    private func events(of room: Room, request: Request) -> Response {
        // An id that is not a plain non-negative number is treated as absent: a fresh snapshot.
        let lastEventID = request.header("Last-Event-ID").flatMap(Int.init).flatMap { $0 >= 0 ? $0 : nil }
        return Response(status: 200, body: .eventStream { sink in room.subscribe(sink, lastEventID: lastEventID) })
    }

    private func pointer(_ room: Room, _ request: Request) -> Response {
        do {
            let inputs = try APIRequest.pointerInputs(from: request.body)
            return sequenceAnswer(room.apply(pointer: inputs))
        } catch {
            return .error(error.status, error.message)
        }
    }

    private func command(_ room: Room, _ request: Request) -> Response {
        let command: StackCommand
        do {
            command = try APIRequest.command(from: request.body)
        } catch {
            return .error(error.status, error.message)
        }
        do {
            return sequenceAnswer(try room.apply(command))
        } catch {
            switch error {
            case .indexOutOfRange(let index, let count):
                return .error(400, "index \(index) is out of range: the stack has \(count) cards")
            case .emptyStack:
                return .error(400, "the stack is empty")
            case .unknownCard(let id):
                return .error(400, "no card \(id.prefix(40)) in the stack")
            case .nothingToUndo:
                return .error(400, "nothing to undo")
            }
        }
    }

    private func sequenceAnswer(_ seq: Int) -> Response {
        var writer = JSONWriter()
        writer.object { $0.field("seq", seq) }
        return .json(writer.bytes)
    }

    private func photo(id: String) -> Response {
        guard let entry = photos.entry(id: id) else { return .error(404, "no photo \(id.prefix(40))") }
        let ext = entry.path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let type = [
            "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp",
            "gif": "image/gif", "heic": "image/heic", "heif": "image/heif", "avif": "image/avif",
        ][ext]
        return Response(
            status: 200,
            headers: [("Content-Type", type ?? "application/octet-stream"), ("Cache-Control", "public, max-age=3600")],
            body: .file(path: entry.path))
    }

    private func staticFile(_ request: Request) -> Response {
        guard let found = staticFiles.response(path: request.path, ifNoneMatch: request.header("If-None-Match")) else {
            return .error(404, "not found")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return methodNotAllowed(request, allowed: ["GET", "HEAD"])
        }
        return found
    }

    /// Every loaded room with its viewers, ordered by name.
    private func roomList() -> Response {
        var writer = JSONWriter()
        writer.object { json in
            json.array("rooms") { list in
                for room in rooms.all.sorted(by: { $0.name < $1.name }) {
                    let listing = room.listing()
                    list.object { entry in
                        entry.field("room", room.name)
                        entry.field("viewers", listing.viewers)
                        entry.field("count", listing.count)
                        entry.field("seq", listing.seq)
                    }
                }
            }
            json.field("limit", rooms.maxRooms)
        }
        return .json(writer.bytes)
    }

    private func metrics() -> Response {
        let all = rooms.all
        var text = "# HELP stackweb_rooms Rooms loaded.\n# TYPE stackweb_rooms gauge\nstackweb_rooms \(all.count)\n"
        text += "# HELP stackweb_viewers Connected event-stream viewers.\n# TYPE stackweb_viewers gauge\n"
        for room in all.sorted(by: { $0.name < $1.name }) {
            text += "stackweb_viewers{room=\"\(room.name)\"} \(room.viewerCount)\n"
        }
        return Response(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")], body: .bytes(Array(text.utf8)))
    }
}
