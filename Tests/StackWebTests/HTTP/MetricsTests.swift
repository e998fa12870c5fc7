import Foundation
import Glibc
import Testing

@testable import StackWebServer

/// `/metrics`: the counters an operator alerts on move when their event happens, and the whole page
/// passes `promtool check metrics` after a workload that touches every family. The registry is the
/// process's, shared by the tests running at once, so each test looks at what it moved, not totals.
@Suite struct MetricsTests {
    static let metrics = Metrics.standard

    @Test func aConversionAndACacheHitMoveTheirCounters() throws {
        let cache = try TemporaryFiles.folder()
        let server = try TestServer { $0.cache = cache }
        let photo = try server.firstPhotoID()
        let (conversions, misses, hits) = (
            Self.metrics.conversions.value("ok"), Self.metrics.variantMisses.value, Self.metrics.variantHits.value
        )
        let timed = Self.metrics.conversionDuration.count()
        #expect(try server.http.get("/photos/\(photo)?w=128").status == 200)
        #expect(Self.metrics.conversions.value("ok") > conversions)
        #expect(Self.metrics.variantMisses.value > misses)
        #expect(Self.metrics.conversionDuration.count() > timed)
        #expect(try server.http.get("/photos/\(photo)?w=128").status == 200)
        #expect(Self.metrics.variantHits.value > hits)
    }

    @Test func aStalledViewerDroppedMovesTheDroppedCounter() throws {
        let server = try TestServer()
        let before = Self.metrics.viewersDropped.value
        // This viewer never reads: its kernel buffers fill, then its queue, then it is dropped.
        let stalled = try SSETestClient(port: server.port, path: "/api/rooms/main/events", receiveBuffer: 4096)
        for _ in 0..<3000 where Self.metrics.viewersDropped.value == before {
            _ = try server.command(#"{"command":"next"}"#)
        }
        #expect(Self.metrics.viewersDropped.value > before, "the stalled viewer was never counted as dropped")
        #expect(Self.metrics.streamBytes.value > 1 << 20)
        withExtendedLifetime(stalled) {}
    }

    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func aFailedSaveMovesTheFailureCounter() throws {
        try TinyDisk.mounted { folder in
            let server = try TestServer { $0.state = folder + "/state.db" }
            let (saves, failures) = (Self.metrics.saves.value, Self.metrics.saveFailures.value)
            #expect(try server.command(#"{"command":"next"}"#).status == 200)
            #expect(Self.metrics.saves.value > saves)
            let filler = TinyDisk.fill(folder)
            var refused = false
            for index in 0..<40 where !refused {
                let style = index % 2 == 0 ? "grid" : "deck"
                refused = try server.command(#"{"command":"style","style":"\#(style)"}"#).status == 503
            }
            #expect(refused)
            #expect(Self.metrics.saveFailures.value > failures)
            try FileManager.default.removeItem(atPath: filler)
        }
    }

    @Test func aPointerFloodMovesTheRateLimitCounter() throws {
        let server = try TestServer()
        let before = Self.metrics.rateLimited.value
        let samples = (0..<APIRequest.maxEventsPerPost).map { #"{"type":"move","pointer":1,"x":10,"y":10,"t":\#($0)}"# }
        let body = #"{"viewer":"flood","events":[\#(samples.joined(separator: ","))]}"#
        var statuses: [Int] = []
        for _ in 0..<8 { statuses.append(try server.http.post("/api/rooms/main/pointer", json: body).status) }
        #expect(statuses.contains(429), "\(statuses)")
        #expect(Self.metrics.rateLimited.value > before)
        #expect(Self.metrics.httpRequests.value("pointer", "429") > 0)
    }

    @Test func aResumeCountsAReplayOrASnapshot() throws {
        let server = try TestServer()
        let first = try server.events()
        let opening = try first.next()
        let seq = try #require(Int(opening.id ?? ""))
        _ = try server.command(#"{"command":"next"}"#)
        let (replays, snapshots) = (
            Self.metrics.streamResumes.value("replay"), Self.metrics.streamResumes.value("snapshot")
        )
        let resumed = try server.events(headers: ["Last-Event-ID": String(seq)])
        #expect(try resumed.next().event != "snapshot")
        #expect(Self.metrics.streamResumes.value("replay") > replays)
        let unknown = try server.events(headers: ["Last-Event-ID": "999999"])
        #expect(try unknown.next().event == "snapshot")
        #expect(Self.metrics.streamResumes.value("snapshot") > snapshots)
        withExtendedLifetime((first, resumed, unknown)) {}
    }

    @Test(.enabled(if: Promtool.path != nil, "promtool (Debian's prometheus) is not installed"))
    func promtoolAcceptsThePageAfterAWorkload() throws {
        let cache = try TemporaryFiles.folder()
        let server = try TestServer {
            $0.cache = cache
            $0.state = cache + "/state.db"
        }
        let viewer = try server.events()
        _ = try viewer.next()
        let resumed = try server.events(headers: ["Last-Event-ID": "1"])
        _ = try resumed.next()
        #expect(try server.http.get("/").status == 200)
        #expect(try server.command(#"{"command":"next"}"#).status == 200)
        let move = #"{"viewer":"v","events":[{"type":"down","pointer":1,"x":500,"y":380,"t":1}]}"#
        #expect(try server.http.post("/api/rooms/main/pointer", json: move).status == 200)
        #expect(try server.http.get("/photos/\(server.firstPhotoID())?w=256").status == 200)
        #expect(try server.http.get("/api/rooms/nope!").status == 400)
        let page = try server.http.get("/metrics")
        #expect(page.status == 200)
        let text = String(decoding: page.body, as: UTF8.self)
        for family in [
            "stackweb_http_requests_total", "stackweb_http_request_duration_seconds_bucket",
            "stackweb_sse_events_total",
            "stackweb_sse_bytes_total", "stackweb_sse_queued_bytes", "stackweb_sse_resumes_total",
            "stackweb_sse_viewers_dropped_total", "stackweb_rooms_loaded_total",
            "stackweb_rooms_unloaded_total", "stackweb_state_saves_total", "stackweb_state_save_failures_total",
            "stackweb_state_save_duration_seconds_count", "stackweb_photo_conversions_total",
            "stackweb_photo_conversion_duration_seconds_sum", "stackweb_variant_cache_hits_total",
            "stackweb_variant_cache_misses_total", "stackweb_variant_cache_evictions_total",
            "stackweb_variant_cache_bytes", "stackweb_rate_limited_total", "process_cpu_seconds_total",
            "process_resident_memory_bytes", "process_open_fds", "process_max_fds", "process_start_time_seconds",
            "stackweb_redis_takeovers_total", "stackweb_redis_forwarded_inputs_total",
            "stackweb_redis_command_duration_seconds_count",
        ] {
            #expect(text.contains("\n" + family), "no \(family) in /metrics")
        }
        #expect(text.contains(#"stackweb_http_requests_total{route="commands",code="200"}"#))
        #expect(text.contains(#"stackweb_http_requests_total{route="snapshot",code="400"}"#))

        let said = try Promtool.check(String(decoding: page.body, as: UTF8.self), with: #require(Promtool.path))
        #expect(said.isEmpty, "promtool check metrics: \(said)")
        withExtendedLifetime((viewer, resumed)) {}
    }
}
