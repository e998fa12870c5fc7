import CVips
import Dispatch
import Foundation
import Glibc
import StackModel

/// Guests' photos: who may send one where (from the head), where its bytes go while they arrive
/// (`UploadReceiver`), and how a photo that arrived whole becomes a card — checked by libvips,
/// made durable, added to the library and to the room's stack as a lasting change — before the
/// guest is told `201`.
///
/// A `kill -9` at any moment leaves the whole photo or none: the bytes are in a hidden temporary
/// file until they are checked and fsynced, then renamed into place and the folder fsynced.
final class PhotoUploads: Sendable {
    let settings: UploadSettings
    /// The photo folder's real path, the uploads' folder (inside it, or mounted into it), and that
    /// folder's path below the photo folder (what the library calls its photos by).
    let root: String
    let folder: String
    let album: String
    /// Where a path below the photo folder is.
    let tree: PhotoTree
    let quota: Int64
    let library: Locked<PhotoLibrary>
    /// Names photos as the library does (keyed with the state's secret).
    let ids: PhotoIDs
    let rooms: RoomRegistry
    /// Where libvips checks each photo: uploads share the conversions' lanes, so a large one
    /// takes the large lane and never holds up others.
    var lane: PixelBudget { variants.budget }
    /// Makes the previews of photos waiting for review, as it makes the library's variants.
    let variants: PhotoVariants
    let maxPixels: Int
    private let order: PhotoLibrary.Order
    private let log: OperatorLog
    private let limiter: Locked<UploadLimiter>
    private let pace: UploadPace
    let stored: Locked<StoredUploads>
    private let answers = Locked(UploadAnswers())
    /// The folder's watcher, once it follows the folder: a guest's photo joins the library through
    /// it, so that its scans know the photo (none swaps in a library without it).
    let liveFolder = Locked<LiveFolder?>(nil)
    /// Where photos waiting for review are kept: hidden, so the folder's scan never shows them.
    var reviewFolder: String { folder + "/.review" }

    init(
        settings: UploadSettings, photoFolder: String, uploads: UploadsFolder, library: Locked<PhotoLibrary>,
        ids: PhotoIDs,
        rooms: RoomRegistry, variants: PhotoVariants, maxPixels: Int, order: PhotoLibrary.Order, limits: ServerLimits,
        log: OperatorLog
    ) throws {
        root = PhotoScanner.realPath(photoFolder)
        tree = PhotoTree(root: root, mount: uploads.mount)
        _ = mkdir(uploads.path, 0o755)
        folder = PhotoScanner.realPath(uploads.path)
        album = uploads.relative
        guard UploadsFolder.isWritable(folder) else {
            throw Configuration.Failure(
                description: "cannot keep guests' photos in \(folder): \(String(cString: strerror(errno))); "
                    + "pass --uploads-dir DIR (a writable folder)")
        }
        self.settings = settings
        self.library = library
        self.ids = ids
        self.rooms = rooms
        self.variants = variants
        self.maxPixels = maxPixels
        self.order = order
        self.log = log
        self.stored = Locked(StoredUploads(folder: self.folder))
        quota = settings.quota ?? StoredUploads.freeBytes(at: self.folder) / 10
        pace = limits.uploadPace
        limiter = Locked(
            UploadLimiter(
                perAddress: limits.uploadsPerAddress, total: limits.uploadLimit, perMinute: limits.uploadsPerMinute))
    }

    /// Refuses from the head alone, before any byte is stored: a room that takes no photos (403),
    /// anything but an image type (415), a declared size past the limit (413) or the quota (507).
    func refusal(forHead request: Request, room: String) -> Response? {
        guard settings.mode(of: room) != .off else {
            return .error(403, "room \(room) does not take photos from guests")
        }
        guard exists(room) else { return .error(404, "there is no room \(room) to add photos to") }
        guard let type = request.header(.contentType)?.lowercased(), type.hasPrefix("image/") else {
            return .error(415, "send the photo itself as the body, with its Content-Type (image/jpeg, image/heic, …)")
        }
        if let length = request.header(.contentLength).flatMap(Int64.init) {
            if length > settings.maxBytes { return UploadFailure.tooLarge(settings.maxBytes).response }
            if stored.withLock({ $0.bytes + $0.held }) + length > quota { return UploadFailure.quotaReached.response }
        }
        return nil
    }

    /// Whether `room` is one a guest's photo may go to: uploads never make rooms (a guest with the
    /// add token could otherwise fill the room limit, the state and the folder with junk). It is
    /// `main`, one `--rooms` lists, one with its own `--uploads ROOM=MODE` or `--album`, or one that
    /// is kept already (here, in the group, or in the store).
    func exists(_ room: String) -> Bool {
        if room == RoomRegistry.mainRoom || settings.rooms[room] != nil || rooms.albums.names(room) { return true }
        if let listed = rooms.listedRooms { return listed.contains(room) }
        if rooms.kept.contains(where: { $0.name == room }) { return true }
        if let group = rooms.group { return group.listing?[room] != nil }
        return rooms.store.load(room: room) != nil
    }

    /// Where the body of an upload the head allowed goes: a retry of a keyed upload gets its first
    /// answer at once, its body unread (the connection closes after it: a retry never bypasses
    /// the size or the guests' limits); past the rate or the uploads at once, 429; else a receiver.
    func intake(forHead request: Request, room name: String, now: Double) -> BodyIntake {
        let key = request.header(.idempotencyKey)
        if let key, let answer = answers.withLock({ $0.answer(for: key, room: name, at: now) }) {
            return .refused(answer)
        }
        let room: Room
        do {
            room = try rooms.controlledRoom(named: name)
        } catch {
            return .refused(.error(error == .notListed ? 404 : 429, "no room \(name) takes photos here"))
        }
        if let refusal = limiter.withLock({ $0.admit(request.client, at: now) }) {
            return .refused(Self.response(refusal))
        }
        let client = request.client
        // The quota is held at admission, for the length the head declares.
        let hold = QuotaHold(stored: stored, quota: quota)
        let declared = request.header(.contentLength).flatMap(Int64.init) ?? 0
        guard hold.grow(to: declared) else {
            limiter.withLock { $0.release(client) }
            return .refused(UploadFailure.quotaReached.response)
        }
        let arrival = Arrival(
            room: room, key: key, sender: request.header(.photoSender), name: request.header(.photoName))
        let receiver = UploadReceiver(
            folder: folder + "/" + name, maxBytes: settings.maxBytes, hold: hold, holding: declared, pace: pace,
            whole: { [self] outcome, complete in
                switch outcome {
                case .failure(let failure): complete(answer(failure))
                case .success(let arrived): check(arrived, arrival) { complete(self.remember($0, arrival, now: now)) }
                }
            },
            ended: { [limiter] in
                hold.release()
                limiter.withLock { $0.release(client) }
            })
        return .sink(receiver)
    }

    /// What the upload is for, from its head.
    struct Arrival: Sendable {
        var room: Room
        var key: String?
        var sender: String?
        var name: String?

        /// The key as the room keeps its answer: a photo's, never a command's. Its bytes are
        /// compared by their hash where they are kept (the same bytes are one photo), so the key
        /// alone is.
        var photoKey: IdempotencyKey? { key.map { IdempotencyKey(kind: .photo, value: $0, body: []) } }
    }

    private static func response(_ refusal: UploadLimiter.Refusal) -> Response {
        var response: Response
        let retryAfter: Int
        switch refusal {
        case .tooManyAtOnce:
            response = .error(429, "too many photos at once from this device; wait for one to finish")
            retryAfter = 1
        case .serverBusy:
            response = .error(429, "too many guests are sending photos; try again shortly")
            retryAfter = 2
        case .tooFast(let seconds):
            response = .error(429, "too many photos from this device; try again in \(seconds) s")
            retryAfter = seconds
        }
        response.headers.append(("Retry-After", String(retryAfter)))
        return response
    }

    func answer(_ failure: UploadFailure) -> Response {
        if case .storage(let reason) = failure {
            log.record("upload.failed", "cannot store a guest's photo: \(reason)")
        }
        return failure.response
    }

    private func remember(_ response: Response, _ arrival: Arrival, now: Double) -> Response {
        if let key = arrival.key, response.status < 500 {
            answers.withLock { $0.record(response, for: key, room: arrival.room.name, at: now) }
        }
        return response
    }

    /// The same bytes kept already: that photo. Else libvips checks the file on a conversion lane.
    private func check(
        _ arrived: UploadReceiver.Arrived, _ arrival: Arrival, _ complete: @escaping @Sendable (Response) -> Void
    ) {
        if let hash = arrived.hash, let path = kept(hash: hash) {
            unlink(arrived.temporaryPath)
            guard !path.hasPrefix(reviewFolder + "/") else {
                return complete(
                    waitingAnswer(name: String(path.dropFirst(Self.parent(path).count + 1)), room: arrival.room.name))
            }
            complete(answer(existing: relative(of: path), arrival))
            return
        }
        // Only the first bytes are read here: a file of any kind we do not show goes no further.
        guard let format = CVips_formatOfFile(arrived.temporaryPath),
            let fileExtension = Self.extensions[String(cString: format)]
        else {
            unlink(arrived.temporaryPath)
            return complete(UploadFailure.notAPhoto.response)
        }
        let queued = lane.run(cost: Self.headerCost) { [self] in
            inspect(arrived, fileExtension: fileExtension, arrival, complete)
        }
        if !queued {
            unlink(arrived.temporaryPath)
            complete(UploadFailure.busy.response)
        }
    }

    /// What reading a header costs a lane, in its megapixels: little, but counted with the rest.
    static let headerCost = 1.0

    /// On a conversion lane: the header read by the format's own loader, the bounds said from it
    /// (pixels, metadata), then the whole file decoded on the lane its size asks for.
    private func inspect(
        _ arrived: UploadReceiver.Arrived, fileExtension: String, _ arrival: Arrival,
        _ complete: @escaping @Sendable (Response) -> Void
    ) {
        var header = CVipsHeader()
        guard CVips_readHeader(arrived.temporaryPath, &header) == 0 else {
            unlink(arrived.temporaryPath)
            return complete(UploadFailure.damaged("its header cannot be read").response)
        }
        let loader = withUnsafeBytes(of: header.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let (width, height) = (Int(header.width), Int(header.height))
        // Over the pixel limit is said from the header alone, before anything decodes it.
        guard width * height <= maxPixels else {
            unlink(arrived.temporaryPath)
            return complete(UploadFailure.tooManyPixels(width: width, height: height, limit: maxPixels).response)
        }
        let metadata = PhotoMetadataSize.of(
            path: arrived.temporaryPath, loader: loader, size: arrived.size,
            pixels: width * height * max(1, Int(header.pages)))
        guard metadata <= PhotoMetadataSize.maxBytes else {
            unlink(arrived.temporaryPath)
            return complete(UploadFailure.tooMuchMetadata(metadata).response)
        }
        let cost = PixelBudget.decodedMegapixels(
            storedWidth: Int(header.storedWidth), storedHeight: Int(header.storedHeight),
            uprightWidth: width, uprightHeight: height, loader: loader,
            interlaced: header.interlaced != 0, width: 128, height: 128)
        let queued = lane.run(cost: cost) { [self] in
            switch PhotoInspector.inspect(arrived.temporaryPath, maxPixels: maxPixels) {
            case .failure(let problem):
                unlink(arrived.temporaryPath)
                complete(UploadFailure.damaged(problem.reason).response)
            case .success(let checked):
                keep(arrived, checked, fileExtension: fileExtension, arrival, complete)
            }
        }
        if !queued {
            unlink(arrived.temporaryPath)
            complete(UploadFailure.busy.response)
        }
    }

    /// The photo kept with these bytes, if any. Alone, this instance knows every one; in a group the
    /// others keep photos in the same folder, so a miss looks at the folder's names as well.
    private func kept(hash: String) -> String? {
        stored.withLock { stored in
            rooms.group == nil ? stored.path(ofHash: hash) : stored.find(hash: hash, in: folder)
        }
    }

    /// The file endings of the formats a guest may send, by libvips loader.
    static let extensions = [
        "jpegload": "jpg", "pngload": "png", "webpload": "webp", "gifload": "gif", "heifload": "heic",
    ]

    /// Makes the checked photo durable under its lasting name — in the room's album, or out of
    /// sight in its review queue (`--uploads review`) — then, shown at once, adds it to the library
    /// and inserts its card as a lasting change; answers once that is kept.
    private func keep(
        _ arrived: UploadReceiver.Arrived, _ header: PhotoInspector.Header, fileExtension: String,
        _ arrival: Arrival, _ complete: @escaping @Sendable (Response) -> Void
    ) {
        let name = UploadNaming.name(
            at: Date(), sender: arrival.sender, original: arrival.name,
            hash: arrived.hash ?? AccessPolicy.generateToken(), fileExtension: fileExtension)
        let held = settings.mode(of: arrival.room.name) == .review
        let path = (held ? reviewFolder(of: arrival.room.name) : folder + "/" + arrival.room.name) + "/" + name
        if held { _ = mkdir(reviewFolder, 0o755) }
        _ = mkdir(Self.parent(path), 0o755)
        // The sender's name first: a waiting photo is never listed without it.
        if held, let sender = arrival.sender, let problem = keepSender(sender, of: path) {
            unlink(arrived.temporaryPath)
            return complete(answer(.storage(problem)))
        }
        if let problem = Durable.move(arrived.temporaryPath, to: path) {
            unlink(arrived.temporaryPath)
            forgetSender(of: path)
            return complete(answer(.storage(problem)))
        }
        stored.withLock { $0.add(path: path, hash: arrived.hash, bytes: arrived.size) }
        guard !held else { return complete(waitingAnswer(name: name, room: arrival.room.name)) }
        show(path: path, header: header, arrival, complete)
    }

    /// Adds the photo at `path` (in the room's album) to the library and inserts its card.
    func show(
        path: String, header: PhotoInspector.Header, _ arrival: Arrival,
        _ complete: @escaping @Sendable (Response) -> Void
    ) {
        let relative = relative(of: path)
        guard let identity = FileIdentity.of(path) else { return complete(answer(.storage("\(path) is gone"))) }
        let photo = Photo(id: ids.id(of: relative), width: header.width, height: header.height)
        let entry = PhotoLibrary.Entry(
            photo: photo, path: path, relative: relative, identity: identity, taken: header.taken)
        // The room is loaded first: a room restored from a library that has the photo already would
        // hold it twice once its card is inserted.
        _ = arrival.room.listing()
        let updated =
            liveFolder.withLock { $0 }?.adopt(entry)
            ?? library.withLock { library in
                library = library.updating(changed: [entry], removed: [], order: order)
                return library
            }
        // Each room names its cards' photos (caption, version) from its own copy of the library,
        // which the folder's watcher will not update for a photo the library has already: the
        // copies take it now, before its card comes, with no change to any stack.
        rooms.libraryChanged(LibraryChange(), library: updated)
        log.record("upload.kept", "a guest's photo for room \(arrival.room.name): \(relative)")
        insert(photo, arrival, complete)
    }

    /// The path below the photo folder of `path`, a file in the uploads' folder.
    func relative(of path: String) -> String { album + path.dropFirst(folder.count) }

    static func parent(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }

    /// The card joins the room where `--uploads-at` says; `201` once the change is kept.
    private func insert(_ photo: Photo, _ arrival: Arrival, _ complete: @escaping @Sendable (Response) -> Void) {
        let room = arrival.room
        let position = settings.arrival.position(in: room.listing().count)
        let applied: Room.Applied
        do {
            applied = try room.handle(
                .guestPhotoArrived(photo, at: position, sender: GuestName.display(arrival.sender)),
                key: arrival.photoKey)
        } catch .runElsewhere where rooms.group?.isUndecided(room.name) == true {
            // The room's first use in a group: placed once this instance has tried to take it.
            rooms.group?.whenDecided(room.name) { [self] in insert(photo, arrival, complete) }
            return
        } catch .runElsewhere where rooms.group != nil {
            return forwardArrival(of: photo, arrival, complete)
        } catch {
            // The photo is kept and will join at the back as any photo found in the folder.
            return complete(RoomOutcome.unavailable("the photo is kept but the room could not take it now").response)
        }
        let body = Self.body(id: photo.id, seq: applied.seq, existing: false)
        guard let durability = applied.durability else { return complete(Self.created(body, id: photo.id)) }
        durability.whenKnown { outcome in
            switch outcome {
            case .success: complete(Self.created(body, id: photo.id))
            case .failure(let failure): complete(RoomOutcome(failure, keeping: "the photo's card").response)
            }
        }
    }

    /// The photo these bytes made before, as the room is now (answered 200, not 201) — unless this
    /// is a retry of the upload that made it, whose answer was lost: then the first answer again,
    /// `201` with the `seq` of its change. The room keeps that with its state, so it holds after a
    /// restart too, when the answers held in memory (`UploadAnswers`) are gone.
    private func answer(existing relative: String, _ arrival: Arrival) -> Response {
        let id = ids.id(of: relative)
        if let key = arrival.photoKey, let seq = arrival.room.appliedSeq(for: key) {
            return Self.created(Self.body(id: id, seq: seq, existing: false), id: id)
        }
        return .json(Self.body(id: id, seq: arrival.room.listing().seq, existing: true))
    }

    static func created(_ body: [UInt8], id: String) -> Response {
        var response = Response.json(body, status: 201)
        response.headers.append(("Location", "/photos/" + id))
        return response
    }

    static func body(id: String, seq: Int, existing: Bool) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { json in
            json.field("id", id)
            json.field("seq", seq)
            json.field("existing", existing)
        }
        return writer.bytes
    }
}
