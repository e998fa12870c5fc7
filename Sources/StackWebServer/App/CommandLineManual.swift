import Foundation

/// The manual page, `stackweb(1)`, made from the table of options as `--help` and the README are:
/// the Debian package installs it, and a test holds the committed copy to the table.
enum CommandLineManual {
    /// The page in roff (man macros). No date: the same table gives the same bytes.
    static func roff(for options: [CommandLineOption], version: String) -> String {
        var lines = [
            #".\" Made from the options table (Configuration+Options.swift); do not edit by hand."#,
            ".TH STACKWEB 1 \"\" \"stackweb \(version)\" \"User Commands\"",
            ".SH NAME",
            #"stackweb \- a shared stack of photos in every browser"#,
            ".SH SYNOPSIS",
            ".B stackweb",
        ]
        lines += options.map { option in
            "[" + bold(option.name) + (option.placeholder.map { " \\fI\(escaped($0))\\fR" } ?? "") + "]"
                + (option.environmentSeparator == nil ? "" : "\\&...")
        }
        lines += [
            ".SH DESCRIPTION",
            """
            \\fBstackweb\\fR serves a Canvas page that shows a stack of photos and pushes every change to \
            every browser open on the same room over Server-Sent Events. It prints the addresses to open \
            when it starts and runs until SIGINT or SIGTERM. A configuration it cannot run with (an option, \
            a TLS certificate or key) is one line and exit status 78. A photo folder missing or unreadable \
            at start is not: the server serves, \\fB/healthz\\fR answers 503 naming the folder, and its \
            photos are shown when it appears, with no restart. While the folder is away every room \
            holds its place (a playing slideshow pauses), and its photos answer 503 with Retry-After. \
            libmicrohttpd's own messages are lines of the same log (event http.library), at most one a \
            second.
            """,
            ".SH COMMANDS",
            ".TP", #"\fBstackweb backup\fR \fIFILE\fR \fB\-\-state\fR \fIPATH\fR"#,
            "copies the state database to FILE while the server runs (SQLite's online backup), mode 0600",
            ".TP", #"\fBstackweb restore\fR \fIFILE\fR \fB\-\-state\fR \fIPATH\fR"#,
            "puts such a copy back while no server runs, once it is checked whole and StackWeb's. Both keep "
                + "the state's owner and mode when run as root, refuse as any other user than its owner, and "
                + "print their help with \\fB\\-\\-help\\fR",
            ".SH OPTIONS",
        ]
        for option in options {
            let names = ([option.name] + option.aliases).map(bold).joined(separator: ", ")
            lines.append(".TP")
            lines.append(names + (option.placeholder.map { " \\fI\(escaped($0))\\fR" } ?? ""))
            var text = option.help
            switch option.shownDefault {
            case .value(let value): text += " (default: `\(value)`)"
            case .description(let words): text += " (default: \(words))"
            case nil: break
            }
            if let details = option.details { text += ". " + details }
            lines.append(paragraph(text))
        }
        lines += [".SH ENVIRONMENT", paragraph(CommandLineHelp.environmentNote(for: options))]
        for option in options {
            guard let variable = option.environmentVariable else { continue }
            lines += [".TP", bold(variable), "as " + bold(option.name)]
        }
        lines += [
            ".SH FILES",
            ".TP", "\\fI/etc/default/stackweb\\fR",
            "the service's environment: \\fBSTACKWEB_TOKEN\\fR, read by systemd, never on a command line",
            ".TP", "\\fI/usr/share/stackweb\\fR",
            "the page (\\fIweb/\\fR) and the demo photos (\\fIdemo-photos/\\fR)",
            ".TP", "\\fI/var/lib/stackweb\\fR",
            "the service's room state, and \\fItoken\\fR when one was generated",
            ".TP", "\\fI/var/cache/stackweb\\fR",
            "the service's resized photos and photo index",
            ".SH SEE ALSO",
            ".BR systemctl (1),",
            ".BR journalctl (1)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Markdown code spans become bold; every line is safe from roff's requests.
    private static func paragraph(_ markdown: String) -> String {
        let pieces = markdown.split(separator: "`", omittingEmptySubsequences: false).map(String.init)
        let text = pieces.enumerated().map { $0.offset % 2 == 1 ? bold($0.element) : escaped($0.element) }.joined()
        return text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
    }

    private static func bold(_ text: String) -> String {
        "\\fB" + escaped(text) + "\\fR"
    }

    /// Backslashes, hyphens and characters past ASCII as roff wants them (`\[u2026]`: groff reads
    /// Latin-1 unless told otherwise), and no line starting with a request character.
    static func escaped(_ text: String) -> String {
        let plain = text.unicodeScalars.map { scalar in
            switch scalar {
            case "\\": "\\e"
            case "-": "\\-"
            case _ where scalar.isASCII: String(scalar)
            default: "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
            }
        }.joined()
        return plain.hasPrefix(".") || plain.hasPrefix("'") ? "\\&" + plain : plain
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
