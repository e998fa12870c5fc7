import CVips
import Foundation
import Glibc
import StackModel

/// Guests' photos in a group (`--redis`): the instances share the photo folder, so the one the guest
/// reached keeps the file as it would alone, and the room's card is placed by the instance that runs
/// the room — the photo's path carried to it with the guest's key, as a command would be. Its
/// answer (`201` once the card is kept, or the refusal) is the guest's.
extension PhotoUploads {
    /// What the instance that kept the file tells the room's owner.
    struct ArrivedElsewhere: Codable, Equatable {
        /// The photo's path below the photo folder: in the room's album of guests' photos.
        var path: String
        var sender: String?
        var name: String?
    }

    /// Carries the arrival to the room's owner; its answer completes the upload.
    func forwardArrival(
        of photo: Photo, _ arrival: Arrival, _ complete: @escaping @Sendable (Response) -> Void
    ) {
        guard let group = rooms.group, let entry = library.withLock({ $0.entry(id: photo.id) }),
            let body = try? JSONEncoder().encode(
                ArrivedElsewhere(path: entry.relative, sender: arrival.sender, name: arrival.name))
        else {
            return complete(RoomOutcome.unavailable("the photo is kept but the room could not take it now").response)
        }
        let input = ForwardedInput(
            path: "/api/rooms/\(arrival.room.name)/photos", body: Array(body), client: "",
            key: arrival.key ?? "forwarded-" + AccessPolicy.generateToken(), lasting: true,
            keyedByClient: arrival.key != nil)
        group.forward(input, of: arrival.room.name) { complete(Router.response(forwarded: $0)) }
    }

    /// At the room's owner: a photo another instance of the group kept for `room` joins its stack, as
    /// if it had arrived here. The path must name a file in that room's album of guests' photos (the
    /// only place an instance keeps them); the file is checked again before it is shown.
    func arrived(
        elsewhere carried: [UInt8], room name: String, key: String, complete: @escaping @Sendable (Response) -> Void
    ) {
        guard let arrived = try? JSONDecoder().decode(ArrivedElsewhere.self, from: Data(carried)),
            isGuestPhoto(arrived.path, of: name)
        else { return complete(.error(400, "not a guest's photo of room \(name)")) }
        let room: Room
        do {
            room = try rooms.controlledRoom(named: name)
        } catch {
            return complete(.error(error == .notListed ? 404 : 429, "no room \(name) takes photos here"))
        }
        let path = tree.path(of: arrived.path)
        let arrival = Arrival(room: room, key: key, sender: arrived.sender, name: arrived.name)
        // This instance's watcher may have found the file first: its card joined then, once.
        let id = ids.id(of: arrived.path)
        if library.withLock({ $0.entry(id: id) }) != nil {
            let seq = arrival.photoKey.flatMap(room.appliedSeq(for:)) ?? room.listing().seq
            return complete(Self.created(Self.body(id: id, seq: seq, existing: false), id: id))
        }
        let queued = lane.run(cost: 1) { [self] in
            switch PhotoInspector.inspect(path, maxPixels: maxPixels) {
            case .failure(let problem):
                complete(.error(422, "the guest's photo \(arrived.path) is not whole: \(problem.reason)"))
            case .success(let header): show(path: path, header: header, arrival, complete)
            }
        }
        if !queued { complete(UploadFailure.busy.response) }
    }

    /// Whether `relative` names a file directly in `room`'s album of guests' photos.
    private func isGuestPhoto(_ relative: String, of room: String) -> Bool {
        let album = album + "/" + room + "/"
        guard relative.hasPrefix(album) else { return false }
        let file = relative.dropFirst(album.count)
        return !file.isEmpty && !file.contains("/") && !file.hasPrefix(".")
    }
}
