import Foundation
import Synchronization

/// The server's counters and histograms for `/metrics`, in Prometheus' text format 0.0.4.
///
/// One registry per process, as Prometheus' own client libraries keep (`standard`): a count is
/// one call where the thing happens, with nothing threaded through the layers between. Labels
/// come from small fixed sets only (a route, a status code, a result), never from a viewer or
/// a photo, so the number of series stays bounded. Plain counts and gauges are atomics (some are
/// counted for every event queued to every viewer); the labelled ones and the histograms take a
/// lock of their own, held for the update alone.
final class Metrics: Sendable {
    static let standard = Metrics()

    /// Seconds; from a fast pointer POST (under a millisecond) to a slow save or conversion.
    static let durationBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    let httpRequests = LabeledCounter(
        "stackweb_http_requests_total", "HTTP requests answered, by route and status code.", labels: ["route", "code"])
    let httpDuration = Histogram(
        "stackweb_http_request_duration_seconds",
        "Time from a pointer or command POST's body to its answer (an acknowledged change waits for its save).",
        labels: ["route"])
    let streamEvents = Counter("stackweb_sse_events_total", "Events queued to viewers' event streams.")
    let streamBytes = Counter("stackweb_sse_bytes_total", "Bytes queued to viewers' event streams.")
    let streamQueuedBytes = Gauge(
        "stackweb_sse_queued_bytes", "Bytes queued to viewers' event streams and not yet on their sockets.")
    let streamResumes = LabeledCounter(
        "stackweb_sse_resumes_total",
        "Streams reopened with a Last-Event-ID: `replay` sent what was missed, `snapshot` a fresh snapshot.",
        labels: ["kind"], initial: [["replay"], ["snapshot"]])
    let viewersDropped = Counter(
        "stackweb_sse_viewers_dropped_total", "Viewers disconnected because they fell behind (1 MiB queued).")
    let roomsLoaded = Counter("stackweb_rooms_loaded_total", "Rooms whose stack was made or restored in memory.")
    let roomsUnloaded = Counter("stackweb_rooms_unloaded_total", "Rooms unloaded after ten idle minutes.")
    let saves = Counter("stackweb_state_saves_total", "Commits of room state to the state database.")
    let saveFailures = Counter("stackweb_state_save_failures_total", "Commits of room state that failed.")
    let saveDuration = Histogram("stackweb_state_save_duration_seconds", "Time one commit of room state took.")
    let rollbacks = Counter(
        "stackweb_room_rollbacks_total",
        "Rooms that went back to their last kept state because a lasting change could not be kept.")
    let idempotentReplays = Counter(
        "stackweb_idempotent_replays_total", "POSTs answered again from an earlier one with the same Idempotency-Key.")
    let watchedRoomsOpened = Counter(
        "stackweb_watched_rooms_opened_total", "Views made of rooms nobody created (anonymous GETs); none is kept.")
    let conversions = LabeledCounter(
        "stackweb_photo_conversions_total",
        "Resized photo variants asked of libvips, by result: `ok`, `failed`, or `busy` (refused with 429, too many waiting).",
        labels: ["result"], initial: [["ok"], ["failed"], ["busy"]])
    let conversionDuration = Histogram(
        "stackweb_photo_conversion_duration_seconds", "Time libvips took to make one resized variant.")
    let variantHits = Counter("stackweb_variant_cache_hits_total", "Resized photos answered from the disk cache.")
    let variantMisses = Counter("stackweb_variant_cache_misses_total", "Resized photos that had to be made.")
    let variantEvictions = Counter(
        "stackweb_variant_cache_evictions_total", "Resized photos removed to keep the cache under its size.")
    let variantBytes = Gauge(
        "stackweb_variant_cache_bytes", "Bytes the cache of resized photos holds (counted, plus variants made since).")
    let rateLimited = Counter(
        "stackweb_rate_limited_total", "Pointer POSTs refused with 429 as too many from one viewer or address.")
    // With --redis only (they stay 0 otherwise).
    let redisTakeovers = Counter(
        "stackweb_redis_takeovers_total", "Rooms this instance took ownership of (a new epoch each).")
    let redisForwarded = Counter(
        "stackweb_redis_forwarded_inputs_total", "Pointer batches and commands forwarded to another instance's room.")
    let redisErrors = LabeledCounter(
        "stackweb_redis_command_errors_total",
        "Redis commands that failed: `unavailable` (no connection, a timeout) or `refused` (an error reply).",
        labels: ["kind"], initial: [["unavailable"], ["refused"]])
    let redisDuration = Histogram(
        "stackweb_redis_command_duration_seconds",
        "Round trip of one pipeline of Redis commands (blocking reads of streams left out).")

    private var families: [any MetricFamily] {
        [
            httpRequests, httpDuration, streamEvents, streamBytes, streamQueuedBytes, streamResumes, viewersDropped,
            roomsLoaded, roomsUnloaded, saves, saveFailures, saveDuration, rollbacks, idempotentReplays,
            watchedRoomsOpened, conversions, conversionDuration,
            variantHits, variantMisses, variantEvictions, variantBytes, rateLimited, redisTakeovers, redisForwarded,
            redisErrors, redisDuration,
        ]
    }

    /// Every family, then the standard `process_*` ones.
    func render() -> String {
        families.map { $0.render() }.joined() + ProcessMetrics.render()
    }
}

/// One metric family: its `# HELP`, `# TYPE` and samples.
protocol MetricFamily: Sendable {
    func render() -> String
}

extension Metrics {
    /// What an unlabelled value is to Prometheus: `counter` (it only grows) or `gauge`.
    protocol SingleKind: Sendable {
        static var type: String { get }
    }

    enum CounterKind: SingleKind { static let type = "counter" }

    enum GaugeKind: SingleKind { static let type = "gauge" }

    /// A count that only grows.
    typealias Counter = Single<CounterKind>

    /// A value that goes up and down.
    typealias Gauge = Single<GaugeKind>

    /// One unlabelled value. An atomic rather than a lock: some counters are counted for every
    /// event queued to every viewer.
    final class Single<Kind: SingleKind>: MetricFamily {
        let name: String
        let help: String
        private let current = Atomic<Int>(0)

        init(_ name: String, _ help: String) { (self.name, self.help) = (name, help) }

        func add(_ amount: Int = 1) { current.add(amount, ordering: .relaxed) }

        var value: Int { current.load(ordering: .relaxed) }

        func render() -> String {
            PrometheusText.header(name, help, type: Kind.type) + "\(name) \(value)\n"
        }
    }

    /// A count per set of label values, each from a small fixed set.
    final class LabeledCounter: MetricFamily {
        let name: String
        let help: String
        let labels: [String]
        private let counts: Locked<[[String]: Int]>

        /// `initial`: the label values shown at 0 from the start, so that an alert's `rate()` has a
        /// series to work on before the first event (a fixed set; others appear when counted).
        init(_ name: String, _ help: String, labels: [String], initial: [[String]] = []) {
            (self.name, self.help, self.labels) = (name, help, labels)
            counts = Locked(Dictionary(initial.map { ($0, 0) }, uniquingKeysWith: { a, _ in a }))
        }

        func add(_ labelValues: String...) {
            counts.withLock { $0[labelValues, default: 0] += 1 }
        }

        func value(_ labelValues: String...) -> Int {
            counts.withLock { $0[labelValues] ?? 0 }
        }

        func render() -> String {
            var text = PrometheusText.header(name, help, type: "counter")
            let samples = counts.withLock { $0 }
            for (labelValues, value) in samples.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                text += name + PrometheusText.labelSet(labels, labelValues) + " \(value)\n"
            }
            return text
        }
    }

    /// Observations counted into the fixed `durationBuckets`, one series per set of label values.
    final class Histogram: MetricFamily {
        let name: String
        let help: String
        let labels: [String]
        private struct Series {
            var buckets = [Int](repeating: 0, count: Metrics.durationBuckets.count)
            var count = 0
            var sum = 0.0
        }
        private let series = Locked<[[String]: Series]>([:])

        init(_ name: String, _ help: String, labels: [String] = []) {
            (self.name, self.help, self.labels) = (name, help, labels)
        }

        func observe(_ seconds: Double, _ labelValues: String...) {
            series.withLock { all in
                var one = all[labelValues] ?? Series()
                if let index = Metrics.durationBuckets.firstIndex(where: { seconds <= $0 }) { one.buckets[index] += 1 }
                one.count += 1
                one.sum += seconds
                all[labelValues] = one
            }
        }

        func count(_ labelValues: String...) -> Int {
            series.withLock { $0[labelValues]?.count ?? 0 }
        }

        func render() -> String {
            var text = PrometheusText.header(name, help, type: "histogram")
            var all = series.withLock { $0 }
            if labels.isEmpty, all.isEmpty { all[[]] = Series() }
            for (labelValues, one) in all.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                var cumulative = 0
                for (bound, inBucket) in zip(Metrics.durationBuckets, one.buckets) {
                    cumulative += inBucket
                    let le = PrometheusText.labelSet(labels + ["le"], labelValues + [PrometheusText.number(bound)])
                    text += "\(name)_bucket\(le) \(cumulative)\n"
                }
                text +=
                    "\(name)_bucket\(PrometheusText.labelSet(labels + ["le"], labelValues + ["+Inf"])) \(one.count)\n"
                text += "\(name)_sum\(PrometheusText.labelSet(labels, labelValues)) \(PrometheusText.number(one.sum))\n"
                text += "\(name)_count\(PrometheusText.labelSet(labels, labelValues)) \(one.count)\n"
            }
            return text
        }
    }
}

/// Prometheus' text format 0.0.4, written out.
enum PrometheusText {
    static func header(_ name: String, _ help: String, type: String) -> String {
        let escaped = help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        return "# HELP \(name) \(escaped)\n# TYPE \(name) \(type)\n"
    }

    /// `{route="pointer",code="200"}`, or nothing without labels.
    static func labelSet(_ names: [String], _ values: [String]) -> String {
        guard !names.isEmpty else { return "" }
        let pairs = zip(names, values).map { name, value in
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\""
            )
            .replacingOccurrences(of: "\n", with: "\\n")
            return "\(name)=\"\(escaped)\""
        }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    /// Whole numbers without a fraction, as Prometheus writes them.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension Metrics.Single where Kind == Metrics.GaugeKind {
    func set(_ value: Int) { current.store(value, ordering: .relaxed) }
}
