import Foundation
import Testing

@testable import StackWebServer

/// What an alert rule needs of `/metrics`: every labelled counter with all its label values from
/// the start (a rate over a series that does not exist yet alerts on nothing), the cache's bytes as
/// they are now and its limit, the build, and gauges for the photo folder and the indexing.
@Suite struct MetricsFromStartTests {
    static func page(_ server: TestServer) throws -> String {
        String(decoding: try server.http.get("/metrics").body, as: UTF8.self)
    }

    /// The sample's value, or nil when the series is missing.
    static func value(_ series: String, in page: String) -> Double? {
        page.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap {
            Double($0.dropFirst(series.count + 1))
        }
    }

    @Test func everySeriesIsThereFromTheStart() throws {
        let cache = try TemporaryFiles.folder()
        let server = try TestServer {
            $0.cache = cache
            $0.cacheSize = 5_000_000
        }
        let page = try Self.page(server)
        for series in [
            #"stackweb_photo_conversions_total{result="ok"}"#, #"stackweb_photo_conversions_total{result="failed"}"#,
            #"stackweb_photo_conversions_total{result="busy"}"#,
            #"stackweb_redis_command_errors_total{kind="unavailable"}"#,
            #"stackweb_redis_command_errors_total{kind="refused"}"#,
            #"stackweb_sse_resumes_total{kind="replay"}"#, #"stackweb_sse_resumes_total{kind="snapshot"}"#,
            "stackweb_photo_folder_present", "stackweb_photos_indexing_remaining",
        ] {
            #expect(Self.value(series, in: page) != nil, "no \(series) in /metrics")
        }
        #expect(Self.value("stackweb_cache_limit_bytes", in: page) == 5_000_000)
        let commit = Configuration.commit ?? "unknown"
        #expect(
            Self.value(#"stackweb_build_info{version="\#(Configuration.version)",commit="\#(commit)"}"#, in: page) == 1)
        #expect(Self.value("stackweb_photo_folder_present", in: page) == 1)
    }

    /// Every family `/metrics` has is in the README's table of metrics, by its name or as `…_suffix`
    /// after a family of the same stem on its row.
    @Test func everyFamilyIsDocumented() throws {
        let server = try TestServer()
        let families = try Self.page(server).split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }
            .map { String($0.split(separator: " ")[2]) }
        let readme = try String(
            contentsOf: TestServer.repositoryRoot.appending(path: "README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `stackweb_") || $0.hasPrefix("| `process_") }
        #expect(families.count > 30)
        for family in families {
            let documented = rows.contains { row in
                row.contains("`\(family)`") || row.contains("`\(family){")
                    || row.contains("`…_\(family.split(separator: "_").suffix(2).joined(separator: "_"))`")
            }
            #expect(documented, "\(family) is not in the README's table of metrics")
        }
    }

    /// docs/alerts.yml sends its reader to a section (`see FILE, "SECTION"`) that exists.
    @Test func theAlertRulesPointToASectionThatExists() throws {
        let root = TestServer.repositoryRoot
        let rules = try String(contentsOf: root.appending(path: "docs/alerts.yml"), encoding: .utf8)
        let pointer = try #require(rules.firstMatch(of: /see ([\w\/.-]+\.md), "([^"]+)"/), "no `see FILE, \"SECTION\"`")
        let target = try String(contentsOf: root.appending(path: String(pointer.1)), encoding: .utf8)
        #expect(target.split(separator: "\n").contains { $0.hasPrefix("#") && $0.hasSuffix(" " + pointer.2) })
    }

    /// `--version` names the commit the Makefile wrote, when it did (`make build`, `make deb`).
    @Test func theVersionNamesTheCommit() throws {
        let header = TestServer.repositoryRoot.appending(path: "Sources/CBuildInfo/commit.h")
        let written = (try? String(contentsOf: header, encoding: .utf8))?
            .split(separator: "\"").dropFirst().first.map(String.init)
        #expect(Configuration.commit == written.flatMap { $0.isEmpty ? nil : $0 })
        #expect(Configuration.versionWithCommit.hasPrefix(Configuration.version))
        if let commit = Configuration.commit {
            #expect(Configuration.versionWithCommit == "\(Configuration.version) (commit \(commit))")
        }
    }

    @Test func theCacheBytesAreCurrentAfterAConversion() throws {
        let cache = try TemporaryFiles.folder()
        let server = try TestServer { $0.cache = cache }
        #expect(try server.http.get("/photos/\(server.firstPhotoID())?w=200").status == 200)
        // Counted as the pruner counts, in blocks: more than nothing is what the old count said.
        #expect((Self.value("stackweb_variant_cache_bytes", in: try Self.page(server)) ?? 0) > 0)
    }

    /// The example alert rules are valid, and their unit tests (`docs/alerts.test.yml`) pass.
    @Test(.enabled(if: Promtool.path != nil, "promtool (Debian's prometheus) is not installed"))
    func theExampleAlertRulesPassTheirTests() throws {
        let docs = TestServer.repositoryRoot.appendingPathComponent("docs").path
        for arguments in [["check", "rules", "alerts.yml"], ["test", "rules", "alerts.test.yml"]] {
            let run = Process()
            run.executableURL = URL(fileURLWithPath: try #require(Promtool.path))
            run.arguments = arguments
            run.currentDirectoryURL = URL(fileURLWithPath: docs)
            let output = Pipe()
            run.standardOutput = output
            run.standardError = output
            try run.run()
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            run.waitUntilExit()
            #expect(run.terminationStatus == 0, "promtool \(arguments.joined(separator: " ")): \(said)")
        }
    }
}
