import Foundation

/// The page's files, read once at start-up. Only these paths are served: the allow-list is
/// exactly what `Resources/web` held, so no request path ever reaches the file system.
struct StaticFiles: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
        var etag: String
    }

    /// A file's two answers, made once.
    private struct Answers: Sendable {
        var etag: String
        var ok: SharedAnswer
        var notModified: SharedAnswer

        init(_ file: File) {
            etag = file.etag
            // no-cache: the browser revalidates with the ETag, so a new version shows on reload.
            let headers = [("ETag", file.etag), ("Cache-Control", "no-cache")]
            ok = SharedAnswer(status: 200, headers: headers + [("Content-Type", file.contentType)], bytes: file.bytes)
            notModified = SharedAnswer(status: 304, headers: headers)
        }
    }

    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "json": "application/json",
        "webmanifest": "application/manifest+json", "txt": "text/plain; charset=utf-8",
    ]

    /// The pages served at a path of their own: the stack, and the page guests add photos from.
    static let pages = ["/": "/index.html", "/add": "/add.html"]

    private let answers: [String: Answers]
    /// Changes whenever any file of the page changes: a page that loaded an older version is told
    /// to reload (see `Router.events`).
    let version: String

    init(files: [String: File]) {
        self.answers = files.mapValues(Answers.init)
        self.version = String(FNV1a.hex(files.keys.sorted().flatMap { Array(($0 + files[$0]!.etag).utf8) }).prefix(12))
    }

    /// Reads every file of a known type directly in `folder` (not below it).
    static func load(folder: String) throws -> StaticFiles {
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            let ext = (name as NSString).pathExtension.lowercased()
            guard let type = contentTypes[ext], !name.hasPrefix(".") else { continue }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name)))
            files["/" + name] = File(bytes: bytes, contentType: type, etag: "\"\(FNV1a.hex(bytes))\"")
        }
        guard files["/index.html"] != nil else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder + "/index.html"])
        }
        return StaticFiles(files: files)
    }

    /// The answer for a GET of `path`, or `nil` when it is not one of ours.
    func response(path: String, ifNoneMatch: String?) -> Response? {
        guard let file = answers[Self.pages[path] ?? path] else { return nil }
        if let ifNoneMatch,
            ifNoneMatch.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag })
        {
            return Response(shared: file.notModified)
        }
        return Response(shared: file.ok)
    }
}
