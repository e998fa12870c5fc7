import Foundation
import StackModel

/// Maps requests to answers, without a socket: tests and fuzzers call it directly, and the daemon
/// calls the same function. It is where a request acts on the server, not a pure function: it finds
/// or makes rooms and hands them events, draws the seed of a shuffle (so the reducer stays
/// deterministic), counts requests in `Metrics`, and in a group carries input to a room's owner.
struct Router: RequestResponder {
    let staticFiles: StaticFiles
    let rooms: RoomRegistry
    /// Swapped by the folder watcher while requests are served.
    let photos: Locked<PhotoLibrary>
    let photoAnswers: PhotoAnswers
    let maxBodyBytes: Int
    let access: AccessPolicy
    let filter: RequestFilter
    /// Whether the folder watcher is still reading photos it found (`stackweb_photos_reading`).
    var photosReading = Locked(false)
    /// The state, cache and photo folder as `/healthz` and `/metrics` report them.
    var status = ServerStatus()
    /// Which photos some room's stack holds: the others are not served.
    var stackedPhotos = StackedPhotos()
    /// Guests' photos; `nil` when no room takes them.
    var uploads: PhotoUploads?
    /// `--keep-location`: a photo without a size is its original, for anyone.
    var keepsLocation = false
    /// What a room's QR code names (its add page, with the add token).
    var addCodes = AddCodes()
    /// The clips below the photo folder (`GET /clips/ID`); `nil` in tests that make a router alone.
    var clips: ClipAnswers?

    func refusal(forHead request: Request) -> Response? {
        guard let refusal = headRefusal(request) else { return nil }
        Metrics.standard.httpRequests.add(Route(path: request.path).metricLabel, String(refusal.status))
        return refusal
    }

    private func headRefusal(_ request: Request) -> Response? {
        if let refusal = filter.refusal(for: request) { return refusal }
        guard request.method == "POST" else { return access.refusal(for: request) }
        if let refusal = access.refusal(for: request) { return refusal }
        if let key = request.header(.idempotencyKey), !Self.isValidIdempotencyKey(key) {
            return .error(
                400, "Idempotency-Key must be 1 to \(IdempotencyLedger.maxKeyLength) visible ASCII characters")
        }
        if case .uploads(let room) = Route(path: request.path) { return uploadRefusal(request, room: room) }
        if let length = request.header(.contentLength).flatMap(Int.init), length > maxBodyBytes {
            return .error(413, "request body larger than \(maxBodyBytes) bytes")
        }
        guard Self.isJSON(mediaType: request.header(.contentType)) else {
            return .error(415, "Content-Type must be application/json")
        }
        return nil
    }

    /// A photo's upload is checked by `PhotoUploads` (its body is an image, up to `--max-upload-size`).
    private func uploadRefusal(_ request: Request, room: String) -> Response? {
        guard RoomRegistry.isValidName(room) else {
            return Self.invalidRoomName
        }
        guard let uploads else { return .error(403, "room \(room) does not take photos from guests") }
        return uploads.refusal(forHead: request, room: room)
    }

    /// An upload's body goes to a file as it arrives, never whole into memory.
    func bodySink(forHead request: Request) -> BodyIntake? {
        guard request.method == "POST", case .uploads(let room) = Route(path: request.path), let uploads else {
            return nil
        }
        return uploads.intake(forHead: request, room: room, now: Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
    }

    /// The one answer to a room name outside the grammar, wherever a path names a room.
    static var invalidRoomName: Response {
        .error(400, "room names are 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit")
    }

    /// Whether an `Idempotency-Key` is one the server keeps: opaque, short, printable.
    static func isValidIdempotencyKey(_ key: String) -> Bool {
        let bytes = key.utf8
        return (1...IdempotencyLedger.maxKeyLength).contains(bytes.count)
            && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Whether a Content-Type names `application/json` (any case, parameters and spaces around
    /// it allowed). Over bytes: this runs for every POST.
    static func isJSON(mediaType header: String?) -> Bool {
        guard let header else { return false }
        let type = header.utf8.prefix { $0 != UInt8(ascii: ";") }
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = type.firstIndex(where: { !isSpace($0) }), let last = type.lastIndex(where: { !isSpace($0) })
        else { return false }
        return type[first...last].map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }.elementsEqual(
            "application/json".utf8)
    }

    func respond(to request: Request) -> Response {
        let route = Route(path: request.path)
        return Metrics.standard.counting(dispatch(request, route: route), route: route, started: .now())
    }

    private func dispatch(_ request: Request, route: Route) -> Response {
        if route == .file { return staticFile(request) }
        guard route.methods.contains(request.method) else { return methodNotAllowed(request, allowed: route.methods) }
        switch route {
        case .health: return health()
        case .metrics: return metrics()
        case .rooms: return roomList()
        case .snapshot(let name):
            return askingTheGroup(about: name) { withRoom(name, use: .look) { snapshot(of: $0, request: request) } }
        case .events(let name):
            return askingTheGroup(about: name) { withRoom(name, use: .watch) { events(of: $0, request: request) } }
        case .pointer(let name): return withRoom(name, use: .control) { pointer($0, RoomInput(request)) }
        case .commands(let name): return withRoom(name, use: .control) { command($0, RoomInput(request)) }
        case .photo(let id): return photo(id: id, request: request)
        case .clip(let id): return clips?.answer(id: id, request: request) ?? .error(404, "no clip \(id.prefix(40))")
        case .clipPoster(let id):
            return clips?.poster(id: id, request: request) ?? .error(404, "no clip \(id.prefix(40))")
        case .uploads: return .error(400, "a photo must be sent as the body of its own request, with its Content-Type")
        case .uploadQueue(let name):
            guard RoomRegistry.isValidName(name) else { return .error(404, "no room \(name.prefix(64))") }
            return uploads?.waiting(room: name) ?? PhotoUploads.noQueue
        case .uploadDecision(let name, let id, let approve):
            guard let uploads else { return .error(404, "room \(name) takes no photos") }
            return uploads.decide(id: id, room: name, approve: approve, key: request.header(.idempotencyKey))
        case .addCode(let name):
            guard RoomRegistry.isValidName(name) else { return Self.invalidRoomName }
            return addCodes.answer(
                room: name, mode: uploads?.settings.mode(of: name) ?? .off, hostHeader: request.header(.host))
        case .uploadPreview(let name, let id):
            // The room names a folder: only a valid name (no `..`) is looked up.
            guard RoomRegistry.isValidName(name), let uploads else {
                return .error(404, "room \(name) takes no photos")
            }
            return uploads.preview(id: id, room: name)
        case .file: return staticFile(request)
        }
    }

    private func methodNotAllowed(_ request: Request, allowed: [String]) -> Response {
        var response = Response.error(405, "method \(request.method.prefix(16)) not allowed here")
        response.headers.append(("Allow", allowed.joined(separator: ", ")))
        return response
    }

    /// What a request does with a room.
    private enum RoomUse { case look, watch, control }

    /// Runs `body` on the room: one kept (made so if new) to `control` it (the request passed
    /// the token check already), else the room if it exists or one only watched.
    private func withRoom(_ name: String, use: RoomUse, _ body: (Room) -> Response) -> Response {
        do {
            let room =
                use == .control
                ? try rooms.controlledRoom(named: name) : try rooms.watchedRoom(named: name, stream: use == .watch)
            return body(room)
        } catch {
            switch error {
            case .invalidName:
                return Self.invalidRoomName
            case .tooManyRooms(let limit):
                return .error(429, "this server holds at most \(limit) rooms")
            case .notListed:
                return .error(404, "no room \(name) on this server")
            }
        }
    }

    /// In a group, a room this instance does not keep may be the group's, made at another instance
    /// since this one last counted: the group is asked first, and a room it has is kept here (its
    /// viewers follow the owner), so a read never answers a private stack of a room that exists.
    private func askingTheGroup(about name: String, _ answer: @escaping @Sendable () -> Response) -> Response {
        guard let group = rooms.group, RoomRegistry.isValidName(name),
            rooms.existingRoom(named: name).map(\.isOnlyWatched) ?? true,
            group.listing?[name] == nil
        else { return answer() }
        return Response(
            status: 200,
            body: .deferred { [rooms] complete in
                group.hasRoom(name) { has in
                    switch has {
                    case .success(let has):
                        if has { _ = try? rooms.controlledRoom(named: name) }
                        Self.settle(answer(), complete)
                    case .failure(let failure):
                        complete(
                            RoomOutcome.unavailable("the group cannot be asked about room \(name): \(failure)").response
                        )
                    }
                }
            })
    }

    /// Liveness, each check and the versions a page compares with its own (`healthAnswer`). 503
    /// "degraded" while a check fails (a full disk, the photo folder gone): a monitor or a load
    /// balancer sees it, and it clears by itself.
    private func health() -> Response { healthAnswer() }

    private func events(of room: Room, request: Request) -> Response {
        guard room.viewerCount < RoomSettings.maxViewers else {
            room.viewerNotComing()
            return .error(429, "this room has its maximum of \(RoomSettings.maxViewers) viewers")
        }
        // A page from an older deployment (it says which with ?page=) reloads instead of subscribing.
        if let page = request.query["page"], page != staticFiles.version {
            var writer = JSONWriter()
            writer.object { $0.field("pageVersion", staticFiles.version) }
            let reload = Array("retry: 1000\n\n".utf8) + ServerSentEvent.encode(event: "reload", data: writer.bytes)
            return Response(
                status: 200, headers: [("Connection", "close")],
                body: .eventStream { [rooms] sink in
                    room.viewerNotComing()
                    rooms.release(ifUnwatched: room)
                    sink.send(reload)
                    sink.close()
                })
        }
        // An id that is not a plain non-negative number is treated as absent: a fresh snapshot.
        let lastEventID = LastEventID.parse(request.header(.lastEventID))
        let shape = Self.reportedShape(request)
        return Response(
            status: 200, body: .eventStream { sink in room.subscribe(sink, lastEventID: lastEventID, shape: shape) })
    }

    private func pointer(_ room: Room, _ request: RoomInput) -> Response {
        let samples: [APIRequest.PointerSample]
        do {
            samples = try APIRequest.pointerSamples(from: request.body)
        } catch {
            return .error(error.status, error.message)
        }
        return apply(
            .pointerBatchReceived(samples, from: request.client, shape: request.shape), to: room, request: request,
            kind: .pointer)
    }

    private func command(_ room: Room, _ request: RoomInput) -> Response {
        let command: APIRequest.RoomCommand
        do {
            command = try APIRequest.command(from: request.body)
        } catch {
            return .error(error.status, error.message)
        }
        switch command {
        case .play: return apply(.playPressed, to: room, request: request, lasting: true)
        case .pause: return apply(.pausePressed, to: room, request: request, lasting: true)
        case .stack(let command):
            return apply(.commandReceived(command), to: room, request: request, lasting: command.changesLastingState)
        case .shuffle:
            return apply(
                .commandReceived(.shuffle(seed: UInt64.random(in: 0...UInt64.max))), to: room, request: request,
                lasting: true)
        case .insert(let photoID, let position):
            // A room with an album (`--album`) takes only a photo of its album.
            guard let entry = photos.withLock({ $0.entry(id: photoID) }),
                rooms.albums.shows(entry.relative, in: room.name)
            else {
                return .error(404, "no photo \(photoID.prefix(40)) in room \(room.name)")
            }
            return apply(
                .commandReceived(.insert(photo: entry.photo, at: position)), to: room, request: request, lasting: true)
        }
    }

    /// Hands the event to the room and answers with its `RoomOutcome` — once what it changed is
    /// kept, when it changed lasting state: an acknowledged change survives even `kill -9`. The wait
    /// happens off this thread (the connection is parked); drags change nothing lasting and are
    /// answered at once.
    private func apply(
        _ event: RoomEvent, to room: Room, request: RoomInput, kind: IdempotencyKey.Kind = .command,
        lasting: Bool = false
    ) -> Response {
        let key = request.key.map { IdempotencyKey(kind: kind, value: $0, body: request.body) }
        // In a group, a key this instance has no answer for may have one kept by an earlier owner.
        if let key, lasting, let group = rooms.group, room.isRunHere, !room.knowsAnswer(for: key) {
            return Response(
                status: 200,
                body: .deferred { [self] complete in
                    group.keptAnswer(for: key.scoped, of: room.name) { kept in
                        switch kept {
                        case .success(.some(let value)):
                            guard let body = key.answer(fromKept: value) else {
                                return complete(RoomOutcome.refused(.keyReused).response)
                            }
                            Metrics.standard.idempotentReplays.add()
                            complete(.json(body))
                        case .success(.none):
                            Self.settle(
                                applyHere(event, to: room, key: key, request: request, lasting: lasting), complete)
                        case .failure(let failure):
                            // The key may have been applied by an earlier attempt: only the group knows.
                            complete(
                                RoomOutcome.unknown("the group cannot be asked about this key: \(failure)").response)
                        }
                    }
                })
        }
        return applyHere(event, to: room, key: key, request: request, lasting: lasting)
    }

    private func applyHere(
        _ event: RoomEvent, to room: Room, key: IdempotencyKey?, request: RoomInput, lasting: Bool
    ) -> Response {
        let applied: Room.Applied
        do {
            applied = try room.handle(event, key: key, keepBy: request.keepBy)
        } catch .runElsewhere where rooms.group?.isUndecided(room.name) == true {
            // The first use of a room in a group: answered once this instance has tried to take it.
            return Response(
                status: 200,
                body: .deferred { [self] complete in
                    rooms.group?.whenDecided(room.name) {
                        Self.settle(applyHere(event, to: room, key: key, request: request, lasting: lasting), complete)
                    }
                })
        } catch .runElsewhere where !request.forwarded && rooms.group != nil {
            // Another instance runs the room: it applies the input and its answer is this one.
            let input = ForwardedInput(
                path: request.path, body: request.body, client: request.client,
                key: key?.value ?? "forwarded-" + AccessPolicy.generateToken(), lasting: lasting,
                shape: request.shape, keyedByClient: key != nil)
            return Response(
                status: 200,
                body: .deferred { [rooms] complete in
                    rooms.group?.forward(input, of: room.name) { complete(Self.response(forwarded: $0)) }
                })
        } catch .runElsewhere where key != nil && request.keyedByClient {
            // Input carried here by an instance that took this one for the owner, which it no
            // longer is: a client's key may have been applied by an earlier attempt, and this
            // instance has not looked it up.
            return RoomOutcome.unknown("the instance that ran this room no longer does").response
        } catch {
            return RoomOutcome.refused(error).response
        }
        let answer = RoomOutcome.applied(seq: applied.seq)
        guard let durability = applied.durability else { return answer.response }
        if let outcome = durability.outcome { return Self.acknowledgement(answer, outcome) }
        return Response(
            status: 200,
            body: .deferred { complete in durability.whenKnown { complete(Self.acknowledgement(answer, $0)) } })
    }

    /// Hands `response` to `complete` once it is known: at once, or when a deferred one completes.
    static func settle(_ response: Response, _ complete: @escaping @Sendable (Response) -> Void) {
        if case .deferred(let later) = response.body { later(complete) } else { complete(response) }
    }

    /// Applies input another instance carried here, as if it had been posted here — decoded by the
    /// same functions, handed to the room as the same event — and hands the answer to `reply` once
    /// it is known (a lasting change: once kept).
    func applyForwarded(
        _ carried: ForwardedInput, keepBy deadline: Int64?, then reply: @escaping @Sendable (ForwardedAnswer) -> Void
    ) {
        let input = RoomInput(
            path: carried.path, body: carried.body, client: carried.client, key: carried.key, forwarded: true,
            keepBy: deadline, shape: carried.shape, keyedByClient: carried.keyedByClient)
        let response: Response
        switch Route(path: carried.path) {
        case .pointer(let name): response = withRoom(name, use: .control) { pointer($0, input) }
        case .commands(let name): response = withRoom(name, use: .control) { command($0, input) }
        // A read of the room laid out for a shape, from an instance that does not run it.
        case .snapshot(let name): response = withRoom(name, use: .look) { ownSnapshot(of: $0, shape: carried.shape) }
        // A guest's photo another instance kept: its card is placed here.
        case .uploads(let name):
            if let uploads {
                response = Response(
                    status: 201,
                    body: .deferred { complete in
                        uploads.arrived(elsewhere: carried.body, room: name, key: carried.key, complete: complete)
                    })
            } else {
                response = .error(404, "room \(name) takes no photos at the instance that runs it")
            }
        default: response = .error(404, "no room input at \(carried.path.prefix(64))")
        }
        Self.settle(response) { response in
            let body: [UInt8]
            if case .bytes(let bytes) = response.body { body = bytes } else { body = [] }
            let retryAfter = response.headers.first { $0.0 == "Retry-After" }?.1
            reply(ForwardedAnswer(status: response.status, retryAfter: retryAfter, body: body))
        }
    }

    /// The owner's answer to forwarded input, as this instance gives it.
    static func response(forwarded answer: ForwardedAnswer) -> Response {
        var response = Response.json(answer.body, status: answer.status)
        if let retryAfter = answer.retryAfter { response.headers.append(("Retry-After", retryAfter)) }
        return response
    }

    private static func acknowledgement(_ answer: RoomOutcome, _ outcome: Durability.Outcome) -> Response {
        switch outcome {
        case .success: return answer.response
        case .failure(let failure): return RoomOutcome(failure).response
        }
    }

    /// The shape class a request's `?shape=WxH` names (the reporting page's window), if it names one.
    static func reportedShape(_ request: Request) -> ShapeClass? {
        request.query["shape"].flatMap { ShapeClass(reported: $0[...]) }
    }

    /// With `?w=`/`?h=`, an upright variant fitted inside that box, its long side snapped up to the
    /// ladder (never enlarged); without, the whole photo as a variant (no original says where it was
    /// taken to anyone but the control token's holder, unless `--keep-location`). Only the request
    /// is read here; the files are opened off this thread.
    private func photo(id: String, request: Request) -> Response {
        // Removed from every room: answered as an id that names nothing, so ids cannot be probed.
        guard let entry = photos.withLock({ $0.entry(id: id) }), stackedPhotos.holds(id) else {
            return .error(404, "no photo \(id.prefix(40))")
        }
        // WebP for browsers that say they take it (every current one): about a third smaller.
        let webP = request.header(.accept)?.contains("image/webp") == true
        var ask = PhotoAnswers.Ask(entry: entry, box: nil, acceptsWebP: webP, ifNoneMatch: request.header(.ifNoneMatch))
        switch AskedBox(request) {
        case .original:
            // A variant is made without the original's EXIF, XMP and IPTC: no GPS position, place or creator.
            if !keepsLocation && !access.carriesControlToken(request) { ask.box = (Int.max, Int.max) }
            return photoAnswers.answer(ask)
        case .invalid: return AskedBox.invalidAnswer
        case .box(let width, let height):
            ask.box = (width, height)
            return photoAnswers.answer(ask)
        }
    }

    private func staticFile(_ request: Request) -> Response {
        guard let found = staticFiles.response(path: request.path, ifNoneMatch: request.header(.ifNoneMatch)) else {
            return .error(404, "not found")
        }
        guard request.method == "GET" || request.method == "HEAD" else {
            return methodNotAllowed(request, allowed: ["GET", "HEAD"])
        }
        return found
    }

    /// Every loaded room with its viewers, ordered by name; in a group, every room of the group with
    /// its viewers at every instance, as last counted.
    private func roomList() -> Response {
        let listings =
            rooms.group?.listing
            ?? Dictionary(
                uniqueKeysWithValues: rooms.kept.map { room in
                    let listing = room.listing()
                    return (room.name, RoomListing(viewers: listing.viewers, count: listing.count, seq: listing.seq))
                })
        var writer = JSONWriter()
        writer.object { json in
            json.array("rooms") { list in
                for (name, listing) in listings.sorted(by: { $0.key < $1.key }) {
                    list.object { entry in
                        entry.field("room", name)
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
        text += "# HELP stackweb_photos Photos in the library.\n# TYPE stackweb_photos gauge\n"
        text += "stackweb_photos \(photos.withLock { $0.entries.count })\n"
        text += "# HELP stackweb_photos_reading 1 while photos found are still being read (a first start).\n"
        text +=
            "# TYPE stackweb_photos_reading gauge\nstackweb_photos_reading \(photosReading.withLock { $0 } ? 1 : 0)\n"
        text += "# HELP stackweb_viewers Connected event-stream viewers.\n# TYPE stackweb_viewers gauge\n"
        for room in all.sorted(by: { $0.name < $1.name }) {
            text += "stackweb_viewers{room=\"\(room.name)\"} \(room.viewerCount)\n"
        }
        text += statusGauges()
        text += Metrics.standard.render()
        return Response(
            status: 200, headers: [("Content-Type", "text/plain; version=0.0.4")], body: .bytes(Array(text.utf8)))
    }
}
