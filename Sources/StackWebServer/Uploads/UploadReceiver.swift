import Dispatch
import Foundation
import Glibc

/// One guest's photo arriving: its bytes written to a hidden temporary file beside where it will be
/// kept (so the rename into place stays on one file system), and hashed, on a queue of its own —
/// never on libmicrohttpd's thread, which only hands over pieces. Bounded: at most
/// `maxBufferedBytes` wait in memory (past it the server stops reading the connection), at most
/// `maxBytes` are taken, never past the uploads' quota (`QuotaHold`), and never slower than its
/// pace (`UploadPace`).
final class UploadReceiver: BodySink, @unchecked Sendable {
    /// What arrived, once whole.
    struct Arrived: Sendable {
        var temporaryPath: String
        var size: Int64
        /// The content's SHA-256 in hex; nil if GnuTLS could not hash.
        var hash: String?
    }

    /// Bytes gathered before they are handed to the writer: a few of libmicrohttpd's pieces.
    static let handOffBytes = 256 * 1024
    /// Bytes that may wait for the writer before the connection is paused.
    static let maxBufferedBytes = 1024 * 1024

    let temporaryPath: String
    private let maxBytes: Int64
    /// The quota this upload holds, grown as a body of unknown length arrives.
    private let hold: QuotaHold
    private let pace: UploadPace
    private let started = DispatchTime.now().uptimeNanoseconds
    private let queue = DispatchQueue(label: "stackweb.upload")
    private let whole: @Sendable (Result<Arrived, UploadFailure>, @escaping @Sendable (Response) -> Void) -> Void
    private let ended: @Sendable () -> Void

    /// Touched on libmicrohttpd's thread only.
    private var gathered: [UInt8] = []
    private var received: Int64 = 0
    /// What `hold` held when last grown: a piece within it needs no lock.
    private var holding: Int64
    /// Shared between libmicrohttpd's thread and the writer.
    private let flow = Locked(Flow())
    /// The writer's alone.
    private var descriptor: Int32 = -1
    private var writeFailure: Int32 = 0
    private let hash = SHA256()

    private struct Flow {
        var pending = 0
        var drained: [@Sendable () -> Void] = []
        var over = false
    }

    /// `whole` takes the arrived file and answers; `ended` is told once, whichever way it ends.
    init(
        folder: String, maxBytes: Int64, hold: QuotaHold, holding: Int64, pace: UploadPace,
        whole: @escaping @Sendable (Result<Arrived, UploadFailure>, @escaping @Sendable (Response) -> Void) -> Void,
        ended: @escaping @Sendable () -> Void
    ) {
        // A leading dot: the folder's scan and watcher skip it (`FolderJunk`), so a half-written
        // photo is never shown, and one left by a crash is never taken for a photo.
        temporaryPath = folder + "/.upload-" + AccessPolicy.generateToken() + ".part"
        self.maxBytes = maxBytes
        self.hold = hold
        self.holding = holding
        self.pace = pace
        self.whole = whole
        self.ended = ended
        queue.async { [self] in
            _ = mkdir(folder, 0o755)
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor < 0 { writeFailure = errno }
        }
    }

    func take(_ bytes: UnsafeRawBufferPointer) -> BodySinkIntake {
        received += Int64(bytes.count)
        if received > maxBytes { return .refused(UploadFailure.tooLarge(maxBytes).response) }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if pace.isBehind(received: received, elapsed: elapsed) { return .refused(pace.response) }
        if received > holding {
            let wanted = min(maxBytes, received + QuotaHold.step)
            guard hold.grow(to: wanted) else { return .refused(UploadFailure.quotaReached.response) }
            holding = wanted
        }
        gathered.append(contentsOf: bytes)
        guard gathered.count >= Self.handOffBytes else { return .more }
        return handOff() > Self.maxBufferedBytes ? .full : .more
    }

    /// Queues what is gathered for the writer; returns the bytes now waiting for it.
    private func handOff() -> Int {
        let piece = gathered
        gathered = []
        let waiting = flow.withLock { flow in
            flow.pending += piece.count
            return flow.pending
        }
        queue.async { [self] in
            write(piece)
            let drained = flow.withLock { flow -> [@Sendable () -> Void] in
                flow.pending -= piece.count
                guard flow.pending == 0 else { return [] }
                defer { flow.drained = [] }
                return flow.drained
            }
            for resume in drained { resume() }
        }
        return waiting
    }

    func whenDrained(_ resume: @escaping @Sendable () -> Void) {
        let now = flow.withLock { flow in
            if flow.pending == 0 { return true }
            flow.drained.append(resume)
            return false
        }
        if now { resume() }
    }

    func finish() -> Response {
        _ = handOff()
        let size = received
        return Response(
            status: 201,
            body: .deferred { [self] complete in
                queue.async { [self] in
                    guard markOver() else { return }
                    let outcome = closeFile().map {
                        Arrived(temporaryPath: temporaryPath, size: size, hash: hash.finish())
                    }
                    whole(outcome) { response in
                        self.ended()
                        complete(response)
                    }
                }
            })
    }

    func abandon() {
        guard markOver() else { return }
        queue.async { [self] in
            _ = closeFile()
            unlink(temporaryPath)
            ended()
        }
    }

    /// Whether this call is the one that ends the upload (finish and abandon race only on a close).
    private func markOver() -> Bool {
        flow.withLock { flow in
            defer { flow.over = true }
            return !flow.over
        }
    }

    private func write(_ piece: [UInt8]) {
        guard writeFailure == 0 else { return }
        piece.withUnsafeBytes { buffer in
            hash.update(buffer)
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    writeFailure = errno
                    return
                }
                offset += written
            }
        }
    }

    /// Closes the temporary file; a failed write or close is the upload's failure.
    private func closeFile() -> Result<Void, UploadFailure> {
        if descriptor >= 0, close(descriptor) != 0, writeFailure == 0 { writeFailure = errno }
        descriptor = -1
        guard writeFailure == 0 else {
            unlink(temporaryPath)
            return .failure(.storage(String(cString: strerror(writeFailure))))
        }
        return .success(())
    }
}
