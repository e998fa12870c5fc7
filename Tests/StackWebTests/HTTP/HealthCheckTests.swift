import Foundation
import Testing

@testable import StackWebServer

/// `/healthz` says what is wrong, not only that the process answers: the state and cache folders
/// writable, the photo folder there, the indexing's progress; degraded is a 503 naming the failing
/// check. And what a client is told of a failure never names a path of the machine.
@Suite struct HealthCheckTests {
    static func health(_ server: TestServer) throws -> (status: Int, json: [String: Any]) {
        let reply = try server.http.get("/healthz")
        return (reply.status, try reply.json())
    }

    static func check(_ json: [String: Any], _ name: String) -> [String: Any]? {
        (json["checks"] as? [String: Any])?[name] as? [String: Any]
    }

    @Test func aHealthyServerListsEveryCheck() throws {
        let folder = try TemporaryFiles.folder()
        try TestPhotos.write(["a.jpg"], in: folder + "/photos")
        let server = try TestServer {
            $0.photos = folder + "/photos"
            $0.cache = folder + "/cache"
            $0.state = folder + "/state.db"
        }
        let (status, json) = try Self.health(server)
        #expect(status == 200)
        #expect(json["status"] as? String == "ok")
        #expect(json["version"] as? String == Configuration.version)
        #expect(json["pageVersion"] is String)
        #expect(json["controlNeedsToken"] as? Bool == false, "loopback: anyone here may control")
        for name in ["state", "cache", "photoFolder", "indexing"] {
            #expect(Self.check(json, name)?["ok"] as? Bool == true, "\(name): \(json)")
        }
        #expect(Self.check(json, "indexing")?["remaining"] as? Int == 0)
        #expect(Self.check(json, "redis") == nil, "no Redis check without --redis")
    }

    /// Run as `nobody` (a root test run writes through permissions): a state file made read-only,
    /// then a state folder without write permission (SQLite's WAL and the lock file are made
    /// beside the database), each make `/healthz` degraded, naming the state check.
    @Test(.enabled(if: geteuid() == 0, "running the server as another user needs root"))
    func aReadOnlyStateFileOrFolderIsDegraded() throws {
        let folder = try TemporaryFiles.folder()
        #expect(chown(folder, 65534, 65534) == 0)
        let state = folder + "/state.db"
        let server = try ServerProcess.start(
            arguments: ["--state", state, "--cache", folder + "/cache"], asNobody: true)
        defer { server.end() }
        let http = HTTPTestClient(port: server.port)
        #expect(try http.get("/healthz").status == 200)
        let failing = { () throws -> String in
            let reply = try http.get("/healthz")
            return reply.status == 503 ? (try reply.json()["reason"] as? String ?? "") : ""
        }
        #expect(chmod(state, 0o444) == 0)
        #expect(try failing().hasPrefix("state: "))
        #expect(chmod(state, 0o644) == 0)
        #expect(try http.get("/healthz").status == 200)
        #expect(chmod(folder, 0o555) == 0)
        defer { chmod(folder, 0o755) }
        #expect(try failing().hasPrefix("state: "))
    }

    /// A page without the control token learns that commands need it, and asks for none.
    @Test func aServerWithATokenSaysCommandsNeedIt() throws {
        let server = try TestServer { $0.token = "a-control-token-0123456789" }
        #expect(try Self.health(server).1["controlNeedsToken"] as? Bool == true)
    }

    @Test func aPhotoFolderGoneIsDegradedUntilItIsBack() throws {
        let base = try TemporaryFiles.folder()
        let folder = base + "/photos"
        try TestPhotos.write(["a.jpg"], in: folder)
        let server = try TestServer { $0.photos = folder }
        #expect(rename(folder, base + "/away") == 0)
        #expect(Poll.until(8) { (try? Self.health(server).status) == 503 })
        let (_, json) = try Self.health(server)
        #expect(json["status"] as? String == "degraded")
        #expect(Self.check(json, "photoFolder")?["ok"] as? Bool == false)
        #expect((json["reason"] as? String)?.contains("photoFolder") == true, "\(json)")
        #expect(rename(base + "/away", folder) == 0)
        #expect(Poll.until(8) { (try? Self.health(server).status) == 200 })
    }

    /// A cache folder that cannot be made (here: below a file, which no user can write either):
    /// resized photos are refused with a 503 and Retry-After that names no path (the server's state,
    /// not the photo's), each failure is counted, and health says so.
    @Test func anUnwritableCacheIsDegradedAndNamesNoPath() throws {
        let base = try TemporaryFiles.folder()
        try TestPhotos.write(["a.jpg"], in: base + "/photos")
        _ = FileManager.default.createFile(atPath: base + "/file", contents: Data())
        let server = try TestServer {
            $0.photos = base + "/photos"
            $0.cache = base + "/file/cache"
        }
        let failed = Metrics.standard.conversions.value("failed")
        let reply = try server.http.get("/photos/\(server.photoID("a.jpg"))?w=128")
        #expect(reply.status == 503)
        #expect(reply.header("Retry-After") == "1")
        let body = String(decoding: reply.body, as: UTF8.self)
        #expect(!body.contains(base), "the answer names a path: \(body)")
        #expect(!body.contains("/proc/self"), "the answer names a path: \(body)")
        #expect(Metrics.standard.conversions.value("failed") > failed)
        let (status, json) = try Self.health(server)
        #expect(status == 503)
        #expect(Self.check(json, "cache")?["ok"] as? Bool == false, "\(json)")
        // The system's words, and no path: `/healthz` is open to every client.
        #expect(Self.check(json, "cache")?["detail"] as? String == "not a directory", "\(json)")
    }

    /// `--state` where it cannot be written, said in words rather than as a Foundation error.
    @Test func anUnwritableStateLocationSaysPermissionDenied() throws {
        let base = try TemporaryFiles.folder()
        try FileManager.default.createDirectory(atPath: base + "/locked", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: base + "/locked")
        let path = base + "/locked/sub/state.db"
        let start = try RefusedStart(arguments: ["--state", path], within: 20, asNobody: geteuid() == 0)
        #expect(start.errors.contains("permission denied: "), "\(start.errors)")
        #expect(!start.errors.contains("NSCocoaErrorDomain"), "\(start.errors)")
    }

    /// With `--redis`: a `redis` check instead of `state`, failing (and `stackweb_redis_up 0`) once
    /// Redis is gone.
    @Test(.enabled(if: RedisServer.isInstalled, "needs redis-server"))
    func aGroupChecksRedis() throws {
        try RedisServer.withGroup { redis, owner, _ in
            let http = HTTPTestClient(port: owner.port)
            let healthy = try http.get("/healthz")
            #expect(healthy.status == 200)
            #expect(Self.check(try healthy.json(), "redis")?["ok"] as? Bool == true)
            #expect(Self.check(try healthy.json(), "state") == nil)
            #expect(MetricsPage.value("stackweb_redis_up", in: try MetricsPage.read(from: owner)) == 1)
            redis.stop()
            _ = try? http.post("/api/rooms/main/commands", json: #"{"command":"next"}"#)
            #expect(Poll.until(10) { (try? http.get("/healthz").status) == 503 })
            let json = try http.get("/healthz").json()
            #expect(Self.check(json, "redis")?["ok"] as? Bool == false, "\(json)")
            #expect(MetricsPage.value("stackweb_redis_up", in: try MetricsPage.read(from: owner)) == 0)
        }
    }
}
