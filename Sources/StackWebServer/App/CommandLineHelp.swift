import Foundation

/// The help made from the table of options: the text `--help` prints and the README's section.
enum CommandLineHelp {
    /// Terminals are often 100 columns or wider; the README's synopsis keeps to the same.
    static let lineWidth = 100

    static func text(for options: [CommandLineOption]) -> String {
        let column = (options.map { synopsis(of: $0).count }.max() ?? 0) + 2
        let rows = options.flatMap { option in
            let help = plain(option.help + (defaultText(of: option).map { " (default: \($0))" } ?? ""))
            let lines = wrap(help, width: lineWidth - 2 - column)
            let first = "  " + synopsis(of: option).padding(toLength: column, withPad: " ", startingAt: 0) + lines[0]
            return [first] + lines.dropFirst().map { String(repeating: " ", count: 2 + column) + $0 }
        }
        let note = wrap(environmentNote(for: options), width: lineWidth)
        let usage = [
            "Usage: stackweb [options]", "       stackweb backup FILE --state PATH",
            "       stackweb restore FILE --state PATH", "",
        ]
        return (usage + rows + [""] + note).joined(separator: "\n")
    }

    /// The README's section: a synopsis, then a table of every option.
    static func markdown(for options: [CommandLineOption]) -> String {
        let header = ["| option | environment variable | meaning |", "|---|---|---|"]
        return (["```", synopsis(of: options), "```", ""] + header + options.map(markdownRow)).joined(separator: "\n")
    }

    /// `--port N`, or `--help, -h`.
    static func synopsis(of option: CommandLineOption) -> String {
        ([option.nameAndPlaceholder] + option.aliases).joined(separator: ", ")
    }

    private static func synopsis(of options: [CommandLineOption]) -> String {
        let words = options.map { option in
            "[\(option.nameAndPlaceholder)]" + (option.environmentSeparator == nil ? "" : "…")
        }
        let indent = String(repeating: " ", count: "stackweb ".count)
        return wrap(words.joined(separator: " "), width: lineWidth - indent.count).enumerated()
            .map { $0.offset == 0 ? "stackweb " + $0.element : indent + $0.element }
            .joined(separator: "\n")
    }

    private static func markdownRow(_ option: CommandLineOption) -> String {
        let names = ([option.nameAndPlaceholder] + option.aliases).map { "`\($0)`" }.joined(separator: ", ")
        var variable = option.environmentVariable.map { "`\($0)`" } ?? ""
        if let separator = option.environmentSeparator { variable += " (a list: `a\(separator)b`)" }
        let defaultText = defaultText(of: option, markdown: true).map { " (default: \($0))" } ?? ""
        let meaning = option.help + defaultText + (option.details.map { ". " + $0 } ?? "")
        return "| " + [names, variable, meaning].map(escapingPipes).joined(separator: " | ") + " |"
    }

    private static func defaultText(of option: CommandLineOption, markdown: Bool = false) -> String? {
        switch option.shownDefault {
        case .value(let value): markdown ? "`\(value)`" : value
        case .description(let words): words
        case nil: nil
        }
    }

    /// What `--help` ends with and the manual page says of the environment.
    static func environmentNote(for options: [CommandLineOption]) -> String {
        let lists = options.compactMap { option in
            option.environmentSeparator.map { "\(option.environmentVariable ?? "") separates its values with '\($0)'" }
        }
        let unavailable = options.filter { $0.environmentVariable == nil }.map(\.name)
        return """
            Every option\(unavailable.isEmpty ? "" : " but " + unavailable.joined(separator: " and ")) can also be \
            set by an environment variable, and the arguments win over it: --photos DIR is STACKWEB_PHOTOS=DIR; \
            a flag such as --shuffle is on unless its variable is empty, 0 or false\
            \(lists.map { "; " + $0 }.joined()).
            """
    }

    /// Without Markdown's code spans, for a terminal.
    private static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "`", with: "")
    }

    private static func escapingPipes(_ cell: String) -> String {
        cell.replacingOccurrences(of: "|", with: "\\|")
    }

    /// Breaks `text` at spaces into lines of at most `width` characters (a longer word stands alone).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + [line]
    }
}
