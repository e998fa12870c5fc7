import CMicroHTTPD
import CMicroHTTPDSystem
import Foundation
import Glibc

/// Errors starting the server.
enum HTTPServerError: Error, CustomStringConvertible {
    case cannotStart(host: String, port: UInt16, reason: String)
    case tls(String)

    var description: String {
        switch self {
        case .cannotStart(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .tls(let reason): reason
        }
    }
}

/// The answers the server needs from the application, called on libmicrohttpd's thread.
protocol RequestResponder: Sendable {
    /// Decides from the request line and headers alone whether to refuse before any body arrives.
    func refusal(forHead request: Request) -> Response?
    func respond(to request: Request) -> Response
    /// For a route whose body is streamed rather than gathered (an upload): where it goes, or the
    /// refusal. `nil`: gathered in memory, up to `ServerLimits.maxBodyBytes`.
    func bodySink(forHead request: Request) -> BodyIntake?
}

extension RequestResponder {
    func bodySink(forHead request: Request) -> BodyIntake? { nil }
}

/// Owns the one libmicrohttpd daemon: starts it, turns its callbacks into `Request`s and sends the
/// `Response`s back.
///
/// The rule of this folder (`HTTP/MHD/`): it is the only place that touches a libmicrohttpd type, a
/// connection pointer or an `Unmanaged` callback context. Everything outside it — the router, the
/// handlers, the rooms — sees `Request`, `Response` and `EventSink` only, so it can be tested and
/// fuzzed without a socket.
final class HTTPServer: Sendable {
    /// The daemon handle; MHD itself serialises access to it.
    nonisolated(unsafe) private let daemon: OpaquePointer
    private let context: Unmanaged<ServerContext>
    /// The port actually bound (differs from the one asked for when that was 0).
    let port: UInt16
    /// The numeric address the listening socket is bound to (`127.0.0.2`, `::`), whatever the
    /// spelling of the host asked for.
    let boundAddress: String
    /// Whether it speaks HTTPS.
    let usesTLS: Bool
    /// The PEM texts libmicrohttpd reads from for the daemon's lifetime; freed in `stop()`.
    nonisolated(unsafe) private let tlsStrings: [UnsafeMutablePointer<CChar>]
    /// Where libmicrohttpd's messages go (`LibraryMessages`); freed in `stop()`, after the daemon.
    nonisolated(unsafe) private let messageTarget: UnsafeMutablePointer<CMicroHTTPD_MessageTarget>

    init(
        host: String, port: UInt16, limits: ServerLimits, tls: TLSCredentials? = nil,
        security: SecurityHeaders = SecurityHeaders(), log: OperatorLog = .silent, responder: any RequestResponder
    ) throws {
        if tls != nil, MHD_is_feature_supported(.FEATURE_TLS) != .YES {
            throw HTTPServerError.tls("this libmicrohttpd was built without TLS; HTTPS is not available")
        }
        let socket = try ListeningSocket.open(host: host, port: port)
        boundAddress = ListeningSocket.boundAddress(of: socket) ?? host
        let context = ServerContext(
            responder: responder, limits: limits, allowsDirectWrites: tls == nil, answerHeaders: security.fields,
            libraryMessages: LibraryMessages(log: log))
        // Retained for the daemon's lifetime; released in `stop()` after the daemon is gone.
        self.context = Unmanaged.passRetained(context)
        tlsStrings =
            tls.map { [strdup($0.certificatePEM)!, strdup($0.keyPEM)!, strdup(TLSCredentials.priorities)!] } ?? []
        usesTLS = tls != nil
        let options = CMicroHTTPD_Options(
            connectionLimit: context.connections.daemonConnectionLimit,
            perIPConnectionLimit: limits.perIPConnectionLimit,
            connectionTimeoutSeconds: limits.connectionTimeoutSeconds,
            connectionMemoryLimit: limits.connectionMemoryLimit,
            listenSocket: socket,
            tlsCertificate: tls == nil ? nil : UnsafePointer(tlsStrings[0]),
            tlsKey: tls == nil ? nil : UnsafePointer(tlsStrings[1]),
            tlsPriorities: tls == nil ? nil : UnsafePointer(tlsStrings[2])
        )
        messageTarget = .allocate(capacity: 1)
        messageTarget.initialize(
            to: CMicroHTTPD_MessageTarget(logger: libraryMessageLogger, context: self.context.toOpaque()))
        let callbacks = CMicroHTTPD_Callbacks(
            handler: accessHandler, completed: requestCompleted, uriLogger: uriLogger, acceptPolicy: acceptPolicy,
            notifyConnection: connectionNotice, context: self.context.toOpaque(), messages: messageTarget)
        guard let daemon = CMicroHTTPD_start(options, callbacks) else {
            close(socket)
            self.context.release()
            messageTarget.deallocate()
            for string in tlsStrings { free(string) }
            let reason =
                tls == nil
                ? "libmicrohttpd refused to start" : "libmicrohttpd refused the certificate, key or priorities"
            throw HTTPServerError.cannotStart(host: host, port: port, reason: reason)
        }
        self.daemon = daemon
        self.port = CMicroHTTPD_boundPort(daemon)
        context.connections.start()
    }

    /// How event bytes have reached viewers so far (what the tests and the bench read).
    var streamCounters: StreamCounters.Snapshot { context.takeUnretainedValue().streamCounters.snapshot }

    /// Ends every open event stream, then stops the daemon and frees what it held.
    func stop() {
        context.takeUnretainedValue().connections.stop()
        context.takeUnretainedValue().closeAllStreams()
        // A deferred answer resumes its connection when done: it must not outlive the daemon.
        _ = context.takeUnretainedValue().deferredWork.wait(timeout: .now() + 30)
        MHD_stop_daemon(daemon)
        context.takeUnretainedValue().sharedResponses.destroyAll()
        context.release()
        messageTarget.deallocate()
        for string in tlsStrings { free(string) }
    }
}

/// What the C callbacks recover from their context pointer.
final class ServerContext: Sendable {
    let responder: any RequestResponder
    let limits: ServerLimits
    /// Whether a parked event stream may be written straight to its socket: not over TLS, where
    /// the bytes must go through the TLS session libmicrohttpd holds.
    let allowsDirectWrites: Bool
    /// Added to every answer (`SecurityHeaders`).
    let answerHeaders: [(String, String)]
    let connections: ConnectionGuard
    /// Deferred answers still being worked on.
    let deferredWork = DispatchGroup()
    let streamCounters = StreamCounters()
    let sharedResponses: SharedResponses
    let libraryMessages: LibraryMessages
    private let streams = Locked<[ObjectIdentifier: StreamConnection]>([:])

    init(
        responder: any RequestResponder, limits: ServerLimits, allowsDirectWrites: Bool,
        answerHeaders: [(String, String)] = [], libraryMessages: LibraryMessages = LibraryMessages(log: .silent)
    ) {
        self.libraryMessages = libraryMessages
        self.responder = responder
        self.limits = limits
        self.allowsDirectWrites = allowsDirectWrites
        self.answerHeaders = answerHeaders
        sharedResponses = SharedResponses(answerHeaders: answerHeaders)
        connections = ConnectionGuard(limits: limits)
    }

    func register(_ stream: StreamConnection) {
        streams.withLock { $0[ObjectIdentifier(stream)] = stream }
    }

    func unregister(_ stream: StreamConnection) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    func closeAllStreams() {
        let open = streams.withLock { Array($0.values) }
        for stream in open { stream.close() }
    }
}

/// One request in flight: the raw target, then its head, the body gathered so far, and an early
/// refusal if any.
///
/// Touched only on libmicrohttpd's thread, except `deferred`, which a worker fills (under its lock)
/// before it resumes the connection.
private final class RequestState: @unchecked Sendable {
    let rawTarget: String
    var request: Request?
    var refusal: Response?
    /// Set while the connection is parked waiting for a deferred answer.
    var waiting = false
    /// Where the body goes when it is streamed (`RequestResponder.bodySink(forHead:)`); `finished`
    /// once it was asked for its answer, so that the end of the request does not abandon it.
    var sink: (any BodySink)?
    var sinkFinished = false
    /// Whether the refusal of a streamed body was written on the socket while the body arrived.
    var answeredEarly = false
    let deferred = Locked<Response?>(nil)

    init(rawTarget: String) { self.rawTarget = rawTarget }
}

/// The connection handle, carried to the worker that resumes it.
private struct ParkedConnection: @unchecked Sendable {
    let connection: OpaquePointer
}

// MARK: - libmicrohttpd callbacks (capture nothing; recover Swift owners with Unmanaged)

/// The first callback of every request, with the target as the client sent it (MHD decodes it
/// once before the access handler sees it, which would hide `%2F` and `%00` tricks).
private let uriLogger: CMicroHTTPD_URILogger = { _, uri, _ in
    let state = RequestState(rawTarget: uri.map { String(cString: $0) } ?? "")
    // Released in `requestCompleted`, which MHD calls for every request it started.
    return Unmanaged.passRetained(state).toOpaque()
}

private let accessHandler: MHD_AccessHandlerCallback = {
    contextPointer, connection, url, method, version, uploadData, uploadSize, requestPointer in
    guard let contextPointer, let connection, let url, let method, let uploadSize, let requestPointer,
        let statePointer = requestPointer.pointee
    else {
        return .NO
    }
    let context = Unmanaged<ServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
    guard state.request != nil else {
        // The head is in: from now on the body's deadline runs (an answer queued below ends it).
        context.connections.enter(.body, connection)
        if !CMicroHTTPD_headIsWellFormed(connection, method) {
            state.request = Request(method: "", path: "")
            return queue(
                .error(400, "malformed header line: folded onto the line before, or holding a control byte"),
                on: connection, context: context)
        }
        if CMicroHTTPD_hasRepeatedHeader(connection, singleHeaderNames) {
            state.request = Request(method: "", path: "")
            return queue(
                .error(400, "a request may carry each of \(singleHeaders.joined(separator: ", ")) once only"),
                on: connection, context: context)
        }
        var request = Request(
            method: String(cString: method), path: String(cString: url), rawTarget: state.rawTarget,
            query: lookUp(Request.knownQueryArguments, in: connection, kind: .GET_ARGUMENT_KIND),
            lowercasedHeaders: lookUp(HeaderName.names, in: connection, kind: .HEADER_KIND),
            client: peerAddress(of: connection))
        request.version = version.map { String(cString: $0) } ?? ""
        state.request = request
        // A refusal is sent at once: a client that announced a gigabyte, or never sends its body,
        // hears no sooner otherwise. libmicrohttpd closes the connection after it.
        if let refusal = context.responder.refusal(forHead: request) {
            return queue(refusal, on: connection, context: context)
        }
        switch context.responder.bodySink(forHead: request) {
        case .refused(let refusal)?: return queue(refusal, on: connection, context: context)
        case .sink(let sink)?:
            state.sink = sink
            // An upload is held to its progress, not to the whole body's deadline (a phone on slow Wi-Fi).
            context.connections.enter(.upload, connection)
        case nil: break
        }
        return .YES
    }
    if let sink = state.sink {
        return stream(into: sink, connection: connection, state: state, context: context, uploadData, uploadSize)
    }
    if uploadSize.pointee > 0 {
        if state.refusal == nil, let uploadData {
            if (state.request?.body.count ?? 0) + uploadSize.pointee > context.limits.maxBodyBytes {
                state.refusal = .error(413, "request body larger than \(context.limits.maxBodyBytes) bytes")
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                    state.request?.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if let resumed = resumedAnswer(state, connection: connection, context: context) { return resumed }
    guard let request = state.request else { return .NO }
    let response = state.refusal ?? context.responder.respond(to: request)
    if case .deferred(let work) = response.body {
        park(connection, state: state, context: context, work: work)
        return .YES
    }
    return queue(response, on: connection, context: context)
}

/// While a connection is parked for a deferred answer: queues the answer once it is ready (the call
/// that resumed the connection). `nil` when the connection is not parked.
private func resumedAnswer(_ state: RequestState, connection: OpaquePointer, context: ServerContext) -> MHD_Result? {
    guard state.waiting else { return nil }
    guard let ready = state.deferred.withLock({ $0 }) else { return .YES }
    state.waiting = false
    return queue(ready, on: connection, context: context)
}

/// One call of the access handler for a streamed body: a piece for the sink, or the end.
private func stream(
    into sink: any BodySink, connection: OpaquePointer, state: RequestState, context: ServerContext,
    _ uploadData: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>
) -> MHD_Result {
    if uploadSize.pointee > 0 {
        if state.refusal == nil, let uploadData {
            context.connections.uploadProgressed(connection, bytes: uploadSize.pointee)
            switch sink.take(UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)) {
            case .more: break
            case .full: pauseUntilDrained(sink, connection: connection, context: context)
            case .refused(let refusal):
                state.refusal = refusal
                sink.abandon()
                if context.allowsDirectWrites {
                    state.answeredEarly = EarlyAnswer.send(
                        refusal, headers: context.answerHeaders, on: CMicroHTTPD_connectionSocket(connection))
                    context.connections.enter(.draining, connection)
                }
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if let resumed = resumedAnswer(state, connection: connection, context: context) { return resumed }
    if let refusal = state.refusal {
        // Answered on the socket already: the connection only closes.
        return state.answeredEarly ? .NO : queue(refusal, on: connection, context: context)
    }
    state.sinkFinished = true
    let response = sink.finish()
    if case .deferred(let work) = response.body {
        park(connection, state: state, context: context, work: work)
        return .YES
    }
    return queue(response, on: connection, context: context)
}

/// Stops reading the connection until the sink has written what it holds: the bytes in memory stay
/// bounded however fast the client sends and however slow the disk is. Suspended first, so the
/// resume (which may come at once) always finds the connection suspended.
private func pauseUntilDrained(_ sink: any BodySink, connection: OpaquePointer, context: ServerContext) {
    context.connections.enter(.answering, connection)
    MHD_suspend_connection(connection)
    let parked = ParkedConnection(connection: connection)
    context.deferredWork.enter()
    sink.whenDrained {
        context.connections.enter(.upload, parked.connection)
        MHD_resume_connection(parked.connection)
        context.deferredWork.leave()
    }
}

/// Suspends the connection while `work` runs elsewhere; its answer resumes it.
private func park(
    _ connection: OpaquePointer, state: RequestState, context: ServerContext,
    work: @Sendable (@escaping @Sendable (Response) -> Void) -> Void
) {
    state.waiting = true
    context.connections.enter(.answering, connection)
    MHD_suspend_connection(connection)
    let parked = ParkedConnection(connection: connection)
    // Held until the answer is in: MHD does not complete a suspended request, but be sure.
    let retained = Unmanaged.passRetained(state)
    context.deferredWork.enter()
    work { response in
        state.deferred.withLock { $0 = response }
        MHD_resume_connection(parked.connection)
        retained.release()
        context.deferredWork.leave()
    }
}

private let requestCompleted: MHD_RequestCompletedCallback = { contextPointer, connection, requestPointer, _ in
    // A kept-alive connection waits for its next request head, against the clock again.
    if let contextPointer, let connection {
        Unmanaged<ServerContext>.fromOpaque(contextPointer).takeUnretainedValue().connections.enter(.head, connection)
    }
    guard let requestPointer, let statePointer = requestPointer.pointee else { return }
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
    // A body that never came whole (the client went, the deadline cut it): nothing of it stays.
    if let sink = state.sink, !state.sinkFinished { sink.abandon() }
    Unmanaged<RequestState>.fromOpaque(statePointer).release()
    requestPointer.pointee = nil
}

/// Refuses a connection past the caps; libmicrohttpd closes it at once.
private let acceptPolicy: MHD_AcceptPolicyCallback = { contextPointer, address, _ in
    guard let contextPointer else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(contextPointer).takeUnretainedValue()
    return context.connections.admitsAnother(from: address.map(ListeningSocket.text) ?? "") ? .YES : .NO
}

/// Every connection's opening and closing, for the count and the deadlines.
private let connectionNotice: MHD_NotifyConnectionCallback = { contextPointer, connection, _, code in
    guard let contextPointer, let connection else { return }
    let connections = Unmanaged<ServerContext>.fromOpaque(contextPointer).takeUnretainedValue().connections
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        // Before the handshake: a ClientHello declaring megabytes is refused, not buffered.
        // Released below, when libmicrohttpd announces the close.
        let budget = CMicroHTTPD_limitHandshake(connection, connections.limits.tlsHandshakeMaxBytes)
        connections.opened(connection, from: peerAddress(of: connection), budget: budget)
    case .CONNECTION_NOTIFY_CLOSED:
        CMicroHTTPD_releaseHandshakeBudget(connection, connections.closed(connection))
    default: break
    }
}

/// Headers a request may carry once only: two `Host`s must be refused (RFC 9112 §3.2), and two of
/// any of the others are how checks are dodged and bodies smuggled (which one would we believe?).
private let singleHeaders = ["host", "origin", "authorization", "content-type", "content-length", "transfer-encoding"]

/// `singleHeaders` as the NULL-terminated C array the shim reads; made once, never freed.
nonisolated(unsafe) private let singleHeaderNames: UnsafePointer<UnsafePointer<CChar>?> = {
    let names = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: singleHeaders.count + 1)
    for (index, name) in singleHeaders.enumerated() { names[index] = UnsafePointer(strdup(name)) }
    names[singleHeaders.count] = nil
    return UnsafePointer(names)
}()

/// The values of the named headers or query arguments the request has (libmicrohttpd matches
/// names without regard to case, and gives the first of repeated ones).
private func lookUp(_ names: [String], in connection: OpaquePointer, kind: MHD_ValueKind) -> [String: String] {
    var values: [String: String] = [:]
    for name in names {
        if let value = MHD_lookup_connection_value(connection, kind, name) { values[name] = String(cString: value) }
    }
    return values
}

/// The address of the connection's peer (IPv4 or IPv6, without port): what a rate limit may key
/// on, since a client cannot choose it the way it chooses a header or a body field.
private func peerAddress(of connection: OpaquePointer) -> String {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    return withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            getpeername(CMicroHTTPD_connectionSocket(connection), $0, &length) == 0 ? ListeningSocket.text(of: $0) : ""
        }
    }
}

/// Turns a `Response` into an MHD response and queues it.
private func queue(_ response: Response, on connection: OpaquePointer, context: ServerContext) -> MHD_Result {
    context.connections.enter(.answering, connection)
    let mhdResponse: OpaquePointer?
    var response = response
    switch response.body {
    case .bytes(let bytes):
        mhdResponse = bytes.withUnsafeBytes {
            MHD_create_response_from_buffer(
                $0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .file(let file):
        guard let descriptor = file.take() else {
            return queue(.error(500, "internal error"), on: connection, context: context)
        }
        // MHD owns the descriptor from here and closes it with the response.
        mhdResponse = MHD_create_response_from_fd64(UInt64(file.size), descriptor)
    case .filePart(let file, let offset, let length):
        guard let descriptor = file.take() else {
            return queue(.error(500, "internal error"), on: connection, context: context)
        }
        // As for a whole file: MHD reads the span with pread (or sendfile) and closes the descriptor.
        mhdResponse = MHD_create_response_from_fd_at_offset64(UInt64(length), descriptor, UInt64(offset))
    case .shared(let answer):
        // Queued as is, again and again: libmicrohttpd counts the response's uses.
        guard let shared = context.sharedResponses.response(for: answer) else { return .NO }
        return MHD_queue_response(connection, UInt32(answer.status), shared)
    case .deferred:
        // Parked by the access handler; a deferred answer never holds another deferral.
        return queue(.error(500, "internal error"), on: connection, context: context)
    case .eventStream(let attach):
        let stream = StreamConnection(connection: connection, context: context)
        mhdResponse = stream.makeResponse()
        response.headers += [
            ("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no"),
        ]
        // A stream does not end, so a request sent behind it on the connection is never answered:
        // say so, and the connection closes with the stream.
        if !response.headers.contains(where: { $0.0 == "Connection" }) {
            response.headers.append(("Connection", "close"))
        }
        attach(stream)
    }
    guard let mhdResponse else { return .NO }
    for (name, value) in context.answerHeaders + response.headers {
        MHD_add_response_header(mhdResponse, name, value)
    }
    let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    MHD_destroy_response(mhdResponse)
    return result
}
