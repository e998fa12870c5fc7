/// Reading `/metrics` as an operator's scraper does.
enum MetricsPage {
    /// The value of the series named exactly `series` (with its labels), or nil when absent.
    static func value(_ series: String, in page: String) -> Double? {
        page.split(separator: "\n").first { $0.hasPrefix(series + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// The page `server` answers now.
    static func read(from server: ServerProcess) throws -> String {
        try HTTPTestClient(port: server.port).get("/metrics").text
    }
}
