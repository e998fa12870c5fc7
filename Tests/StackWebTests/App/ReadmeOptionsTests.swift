import Foundation
import Testing

@testable import StackWebServer

/// The README's table of options is made from `Configuration.options`; this holds it to that.
@Suite struct ReadmeOptionsTests {
    static let readme = TestServer.repositoryRoot.appending(path: "README.md")
    static let begin = "<!-- options: begin -->"
    static let end = "<!-- options: end -->"
    static let regenerate = "STACKWEB_UPDATE_README=1 swift test --filter ReadmeOptionsTests"

    @Test func readmeTableMatchesTheOptions() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let begin = try #require(text.range(of: Self.begin + "\n"), "README.md lacks \(Self.begin)")
        let end = try #require(text.range(of: Self.end, range: begin.upperBound..<text.endIndex))
        let written = String(text[begin.upperBound..<end.lowerBound])
        let expected = CommandLineHelp.markdown(for: Configuration.options) + "\n"
        if written != expected, ProcessInfo.processInfo.environment["STACKWEB_UPDATE_README"] == "1" {
            try text.replacingCharacters(in: begin.upperBound..<end.lowerBound, with: expected)
                .write(to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        for difference in Self.rowDifferences(written: written, expected: expected) {
            Issue.record("\(difference); `\(Self.regenerate)` rewrites the README's table")
        }
        #expect(written == expected, "run `\(Self.regenerate)` to rewrite the README's table")
    }

    /// Which options' rows are missing, extra or different, to say more than that the texts differ.
    static func rowDifferences(written: String, expected: String) -> [String] {
        let (writtenRows, expectedRows) = (rows(written), rows(expected))
        var differences: [String] = []
        for (option, row) in expectedRows.sorted(by: { $0.key < $1.key }) {
            guard let writtenRow = writtenRows[option] else {
                differences.append("README lacks \(option)")
                continue
            }
            if writtenRow != row { differences.append("README's \(option) reads\n\(writtenRow)\nnot\n\(row)") }
        }
        for option in writtenRows.keys.sorted() where expectedRows[option] == nil {
            differences.append("README has \(option), which the code does not")
        }
        return differences
    }

    /// Table rows by option name, so that a changed placeholder reads as a changed row.
    static func rows(_ markdown: String) -> [String: String] {
        let lines = markdown.split(separator: "\n").filter { $0.hasPrefix("| `") }
        let keyed = lines.map { line in (String(line.dropFirst(3).prefix { $0 != " " && $0 != "`" }), String(line)) }
        return Dictionary(keyed, uniquingKeysWith: { first, _ in first })
    }
}
