/// Where a route's body goes when it must not be gathered in memory (a photo of 50 MB): the server
/// hands it each piece as it arrives, then asks it for the answer.
///
/// `take` runs on libmicrohttpd's thread and must return at once: a sink queues the bytes for a
/// thread of its own and says `.full` when too many wait, so the server stops reading the
/// connection until `whenDrained` calls back.
protocol BodySink: AnyObject, Sendable {
    /// Takes the next piece of the body.
    func take(_ bytes: UnsafeRawBufferPointer) -> BodySinkIntake
    /// Calls `resume` (on any thread) once the bytes queued so far are written; at once if they are.
    func whenDrained(_ resume: @escaping @Sendable () -> Void)
    /// The body is whole: the answer (usually deferred). Called at most once, and never after `abandon`.
    func finish() -> Response
    /// The request ended without its body (the connection closed, a refusal, the deadline): whatever
    /// was stored goes. Called at most once; a no-op after `finish`.
    func abandon()
}

/// What a sink says to a piece of the body.
enum BodySinkIntake: Sendable {
    /// Taken; send more.
    case more
    /// Taken, but the sink holds as much as it may: pause until it is drained.
    case full
    /// Refused (too large, no space): the rest of the body is discarded and this is the answer.
    case refused(Response)
}

/// Where the server puts a request's body, decided from its head.
enum BodyIntake: Sendable {
    /// Refused before any byte is stored.
    case refused(Response)
    /// Written into this sink as it arrives.
    case sink(any BodySink)
}
