import Foundation
import Testing

/// Prometheus's own checker of a metrics page, when Debian's `prometheus` package is installed.
enum Promtool {
    static let path = ["/usr/bin/promtool", "/usr/local/bin/promtool"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// What `promtool check metrics` says of `page` (nothing when it is clean), failing on its exit status.
    static func check(_ page: String, with promtool: String) throws -> String {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: promtool)
        check.arguments = ["check", "metrics"]
        let input = Pipe()
        let output = Pipe()
        check.standardInput = input
        check.standardOutput = output
        check.standardError = output
        try check.run()
        input.fileHandleForWriting.write(Data(page.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(check.terminationStatus == 0, "promtool check metrics: \(said)")
        return said
    }
}
