import StackModel

/// `GET /api/rooms/{room}`: the room's snapshot, laid out for `?shape=` when asked, at any instance.
extension Router {
    /// Its own where the room runs here; at another instance of a group, the owner's: asked of the
    /// owner through the group for a shape (only the owner lays the room out), else the one the
    /// owner last published for reads (the room's own stage).
    func snapshot(of room: Room, request: Request) -> Response {
        let shape = Self.reportedShape(request)
        if let json = room.snapshotJSON(shape: shape) { return .json(json) }
        guard let group = rooms.group else { return .error(500, "the room has no snapshot") }
        guard let shape else { return Self.published(of: room, in: group) }
        let read = ForwardedInput(
            path: request.path, body: [], client: request.client, key: "read-" + AccessPolicy.generateToken(),
            lasting: false, shape: shape, keyedByClient: false)
        return Response(
            status: 200,
            body: .deferred { complete in
                group.forward(read, of: room.name) { answer in
                    // An owner that cannot answer in time: the room as last published is still an answer.
                    guard answer.status == 200 else {
                        return Self.settle(Self.published(of: room, in: group), complete)
                    }
                    complete(.json(answer.body))
                }
            })
    }

    /// The snapshot where the room runs here, for a read carried from another instance.
    func ownSnapshot(of room: Room, shape: ShapeClass?) -> Response {
        guard let json = room.snapshotJSON(shape: shape) else {
            return RoomOutcome.unavailable("this instance no longer runs the room").response
        }
        return .json(json)
    }

    /// The snapshot the room's owner last published for reads.
    private static func published(of room: Room, in group: any RoomGroup) -> Response {
        Response(
            status: 200,
            body: .deferred { complete in
                group.publishedSnapshot(of: room.name) { published in
                    switch published {
                    case .success(.some(let json)): complete(.json(json))
                    case .success(.none): complete(RoomOutcome.unavailable("the room has no owner yet").response)
                    case .failure(let failure):
                        complete(RoomOutcome.unavailable("the group cannot be asked (\(failure))").response)
                    }
                }
            })
    }
}
