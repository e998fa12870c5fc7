import CVips
import Dispatch
import Foundation
import Glibc

/// `--uploads review`: photos kept out of sight (in the hidden `.review/ROOM/` folder, which the
/// folder's scan skips) until the control token's holder approves one — it then moves into the
/// room's album and joins the stack as any guest's photo — or rejects it (deleted).
extension PhotoUploads {
    /// `202`: kept, waiting for review. `id` is the photo's id once approved.
    func waitingAnswer(name: String, room: String) -> Response {
        var writer = JSONWriter()
        writer.object { json in
            json.field("id", reviewID(name: name, room: room))
            json.field("waiting", true)
        }
        return .json(writer.bytes, status: 202)
    }

    /// The id a waiting photo will have in the library, once in the room's album.
    func reviewID(name: String, room: String) -> String {
        ids.id(of: album + "/" + room + "/" + name)
    }

    func reviewFolder(of room: String) -> String { reviewFolder + "/" + room }

    /// The queue of a server where no room takes photos: empty, `off` — an answer, not an error,
    /// so that the control page asks once and stops without a failed request in its console.
    static let noQueue: Response = {
        var writer = JSONWriter()
        writer.object { json in
            json.field("mode", UploadSettings.Mode.off.rawValue)
            json.array("uploads") { _ in }
        }
        return .json(writer.bytes)
    }()

    /// `{"mode","uploads":[{"id","name","bytes","from"?}…]}`, oldest first (the names sort by arrival):
    /// `mode` tells the control page whether to keep asking (`review`). Read off libmicrohttpd's
    /// thread.
    func waiting(room: String) -> Response {
        Response(
            status: 200,
            body: .deferred { [self] complete in
                DispatchQueue.global().async { [self] in
                    var writer = JSONWriter()
                    writer.object { json in
                        json.field("mode", settings.mode(of: room).rawValue)
                        json.array("uploads") { list in
                            for (name, bytes) in waitingFiles(room: room) {
                                list.object { entry in
                                    entry.field("id", reviewID(name: name, room: room))
                                    entry.field("name", name)
                                    entry.field("bytes", Int(bytes))
                                    let sender = waitingSender(of: reviewFolder(of: room) + "/" + name)
                                    if let from = GuestName.display(sender) { entry.field("from", from) }
                                }
                            }
                        }
                    }
                    complete(.json(writer.bytes))
                }
            })
    }

    /// Approves (into the room's album and its stack: 201 as an upload) or rejects (deleted: 200)
    /// the waiting photo `id`.
    func decide(id: String, room name: String, approve: Bool, key: String?) -> Response {
        let room: Room
        do {
            room = try rooms.controlledRoom(named: name)
        } catch {
            return .error(404, "no room \(name.prefix(64))")
        }
        return Response(
            status: 200,
            body: .deferred { [self] complete in
                DispatchQueue.global().async { [self] in
                    guard let (file, bytes) = waitingFile(id: id, room: name) else {
                        return complete(.error(404, "no photo \(id.prefix(40)) waits for review in room \(name)"))
                    }
                    let path = reviewFolder(of: name) + "/" + file
                    guard approve else { return complete(reject(path, bytes: bytes, id: id)) }
                    keep(approved: path, file: file, room: room, key: key, complete)
                }
            })
    }

    private func reject(_ path: String, bytes: Int64, id: String) -> Response {
        // Its sender's file first: once the photo is gone from the queue nothing of it is left.
        // Its preview goes with it (the cache's count of bytes is corrected at its next prune).
        forgetSender(of: path)
        if let preview = previewVariant(of: path) { unlink(preview.path) }
        unlink(path)
        _ = Durable.flush(Self.parent(path))
        stored.withLock { $0.remove(path: path, bytes: bytes) }
        var writer = JSONWriter()
        writer.object { json in
            json.field("id", id)
            json.field("rejected", true)
        }
        return .json(writer.bytes)
    }

    /// Moves an approved photo into the room's album, durably, and shows it.
    private func keep(
        approved path: String, file: String, room: Room, key: String?,
        _ complete: @escaping @Sendable (Response) -> Void
    ) {
        var header = CVipsHeader()
        guard CVips_readHeader(path, &header) == 0 else { return complete(answer(.storage("\(path) is unreadable"))) }
        let destination = folder + "/" + room.name + "/" + file
        _ = mkdir(Self.parent(destination), 0o755)
        if let problem = Durable.move(path, to: destination) { return complete(answer(.storage(problem))) }
        _ = Durable.flush(Self.parent(path))
        stored.withLock { stored in
            let bytes = Int64(FileIdentity.of(destination)?.size ?? 0)
            stored.remove(path: path, bytes: bytes)
            stored.add(path: destination, hash: UploadNaming.hash(inName: file), bytes: bytes)
        }
        let taken = withUnsafeBytes(of: header.taken) { Array($0.prefix { $0 != 0 }) }
        let checked = PhotoInspector.Header(
            width: Int(header.width), height: Int(header.height),
            taken: PhotoLibrary.takenDate(taken.map { CChar(bitPattern: $0) }), orientation: Int(header.orientation))
        let sender = waitingSender(of: path)
        forgetSender(of: path)
        show(path: destination, header: checked, Arrival(room: room, key: key, sender: sender), complete)
    }

    /// The file waiting in `room`'s review queue that will be the photo `id`, with its size.
    func waitingFile(id: String, room: String) -> (String, Int64)? {
        waitingFiles(room: room).first { reviewID(name: $0.0, room: room) == id }
    }

    /// The files waiting in `room`'s review queue with their sizes, oldest first.
    private func waitingFiles(room: String) -> [(String, Int64)] {
        let folder = reviewFolder(of: room)
        var files: [(String, Int64)] = []
        for name in FolderListing.names(in: folder) {
            var info = Glibc.stat()
            guard !name.hasPrefix("."), lstat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG
            else { continue }
            files.append((name, Int64(info.st_size)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The hidden file beside a waiting photo that names who sent it, so that it joins with its
    /// sender's name once approved, after a restart too. The queue and the folder's scan skip it.
    static func senderFile(of path: String) -> String {
        parent(path) + "/." + path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...] + ".sender"
    }

    /// Keeps `sender` (its `X-Photo-Sender` as sent, at most `maxSenderBytes`) beside the photo that
    /// will be at `path`, flushed to disk; returns why not, or nil.
    func keepSender(_ sender: String, of path: String) -> String? {
        let temporary = Self.parent(path) + "/.upload-sender-" + AccessPolicy.generateToken()
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return "cannot write \(temporary): \(String(cString: strerror(errno)))" }
        let bytes = Array(sender.utf8.prefix(Self.maxSenderBytes))
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count, Durable.move(temporary, to: Self.senderFile(of: path)) == nil else {
            unlink(temporary)
            return "cannot keep the sender of \(path)"
        }
        return nil
    }

    /// Who sent the waiting photo at `path`, as sent; nil when nobody said.
    func waitingSender(of path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: Self.senderFile(of: path)) else { return nil }
        return String(decoding: data.prefix(Self.maxSenderBytes), as: UTF8.self)
    }

    func forgetSender(of path: String) { unlink(Self.senderFile(of: path)) }

    /// The most of a sender's header kept: `GuestName` shows far fewer characters of it.
    static let maxSenderBytes = 512
}
