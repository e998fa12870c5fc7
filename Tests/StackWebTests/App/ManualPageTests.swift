import Foundation
import Testing

@testable import StackWebServer

/// The manual page the Debian package installs is made from `Configuration.options`; this holds the
/// committed copy to that.
@Suite struct ManualPageTests {
    static let page = TestServer.repositoryRoot.appending(path: "docs/stackweb.1")
    static let regenerate = "STACKWEB_UPDATE_MAN=1 swift test --filter ManualPageTests"

    @Test func committedPageMatchesTheOptions() throws {
        let expected = CommandLineManual.roff(for: Configuration.options, version: Configuration.version)
        let written = (try? String(contentsOf: Self.page, encoding: .utf8)) ?? ""
        if written != expected, ProcessInfo.processInfo.environment["STACKWEB_UPDATE_MAN"] == "1" {
            try expected.write(to: Self.page, atomically: true, encoding: .utf8)
            return
        }
        #expect(written == expected, "run `\(Self.regenerate)` to rewrite docs/stackweb.1")
    }

    @Test func everyOptionAndVariableIsOnThePage() {
        let page = CommandLineManual.roff(for: Configuration.options, version: Configuration.version)
        for option in Configuration.options {
            #expect(page.contains(".TP\n\\fB" + CommandLineManual.escaped(option.name) + "\\fR"), "\(option.name)")
            if let variable = option.environmentVariable {
                #expect(page.contains("\\fB" + CommandLineManual.escaped(variable) + "\\fR"), "\(variable)")
            }
        }
    }

    /// groff reads Latin-1 unless told otherwise: everything past ASCII is a named character.
    @Test func pageIsASCII() {
        let page = CommandLineManual.roff(for: Configuration.options, version: Configuration.version)
        #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(CommandLineManual.escaped("a…b") == "a\\[u2026]b")
    }

    /// No line of text may start with roff's request characters, or part of it would vanish.
    @Test func noTextLineIsReadAsARequest() {
        let page = CommandLineManual.roff(for: Configuration.options, version: Configuration.version)
        let requests = [".\\\"", ".TH", ".SH", ".TP", ".B", ".BR"]
        for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            #expect(requests.contains { line == $0 || line.hasPrefix($0 + " ") }, "\(line)")
        }
    }
}
