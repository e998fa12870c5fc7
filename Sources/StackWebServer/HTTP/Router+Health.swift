import Foundation

/// `/healthz` and `/metrics`: what the server's parts say of themselves.
extension Router {
    /// The checks as they stand: the store's and the group's failures, then `status`'s own.
    func healthChecks() -> [ServerStatus.Check] {
        if let group = rooms.group {
            let failure = rooms.store.failure ?? group.failure
            return status.checks(saving: nil, redis: .some(failure?.description))
        }
        return status.checks(saving: rooms.store.failure?.description, redis: nil)
    }

    /// Liveness, the checks one by one, plus the versions a page compares with its own. 503
    /// "degraded", with the failing checks named in `reason`, while any check fails.
    func healthAnswer() -> Response {
        let checks = healthChecks()
        let failing = checks.filter { !$0.ok }
        var writer = JSONWriter()
        writer.object { json in
            json.field("status", failing.isEmpty ? "ok" : "degraded")
            if !failing.isEmpty {
                json.field("reason", failing.map { "\($0.name): \($0.detail)" }.joined(separator: "; "))
            }
            json.object("checks") { json in
                for check in checks {
                    json.object(check.name) { json in
                        json.field("ok", check.ok)
                        json.field("detail", check.detail)
                        if check.name == "indexing" { json.field("remaining", status.remaining.withLock { $0 }) }
                        // What the empty room's note names (a frame booted without its USB stick).
                        if check.name == "photoFolder" {
                            json.field("state", status.folderState)
                            json.field("folder", status.photoFolder)
                        }
                    }
                }
            }
            json.field("version", Configuration.version)
            json.field("commit", Configuration.commit ?? "unknown")
            json.field("pageVersion", staticFiles.version)
            // A page without the control token asks for nothing it would be refused (a wall's
            // `?style=` on a LAN server).
            json.field("controlNeedsToken", access.tokenDigest != nil)
        }
        return .json(writer.bytes, status: failing.isEmpty ? 200 : 503)
    }

    /// The gauges an alert rule needs besides the counters: the build, the cache's limit, the
    /// photo folder, the photos left to read, and with `--redis` whether Redis answers.
    func statusGauges() -> String {
        var text = PrometheusText.header("stackweb_build_info", "The running build (always 1).", type: "gauge")
        text +=
            "stackweb_build_info{version=\"\(Configuration.version)\",commit=\"\(Configuration.commit ?? "unknown")\"} 1\n"
        text += PrometheusText.header(
            "stackweb_cache_limit_bytes", "The most bytes the cache of resized photos may hold (--cache-size).",
            type: "gauge")
        text += "stackweb_cache_limit_bytes \(status.cacheLimit)\n"
        text += PrometheusText.header(
            "stackweb_photo_folder_present", "1 while the photo folder is there with its photos.", type: "gauge")
        text += "stackweb_photo_folder_present \(status.folderPresent.withLock { $0 } ? 1 : 0)\n"
        text += PrometheusText.header(
            "stackweb_photos_indexing_remaining", "Photos found and not read yet.", type: "gauge")
        text += "stackweb_photos_indexing_remaining \(status.remaining.withLock { $0 })\n"
        if let group = rooms.group {
            let up = (rooms.store.failure ?? group.failure) == nil
            text += PrometheusText.header("stackweb_redis_up", "1 while Redis answers (--redis).", type: "gauge")
            text += "stackweb_redis_up \(up ? 1 : 0)\n"
        }
        return text
    }
}
