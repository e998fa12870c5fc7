import Foundation

/// One command-line option, declared once in `Configuration.options`: the parser, the environment
/// variables, `--help` and the README's table are all made from these, so they cannot drift apart.
struct CommandLineOption: Sendable {
    typealias Setter = @Sendable (inout Configuration, String) throws(Configuration.Failure) -> Void

    /// What giving the option does.
    enum Effect: Sendable {
        /// Takes a value, `--photos DIR` or `--photos=DIR`.
        case value(placeholder: String, set: Setter)
        /// Takes no value: given, it switches something on.
        case flag(set: @Sendable (inout Configuration) -> Void)
        /// Stops reading the arguments with this outcome.
        case finish(Configuration.Outcome)
    }

    /// Where the environment can set the option.
    enum EnvironmentSource: Sendable {
        /// `STACKWEB_` and the name in capitals: `--allowed-host` is `STACKWEB_ALLOWED_HOST`.
        case derived
        /// Derived, and one variable holds several values, as the option may be given several times.
        case list(separator: Character)
        /// A variable of another name.
        case named(String)
        /// A variable of another name holding several values (`STACKWEB_ALBUMS` for `--album`).
        case namedList(String, separator: Character)
        /// No variable (`--help`, `--version`).
        case none
    }

    /// The default as `--help` and the README show it.
    enum ShownDefault: Sendable {
        /// A value that, given to the option, changes nothing (a test holds it to that).
        case value(String)
        /// Words for a default that no value states.
        case description(String)
    }

    /// With its dashes: `--photos`.
    let name: String
    /// Other spellings, such as `-h`.
    let aliases: [String]
    let effect: Effect
    /// One line's worth for `--help`; Markdown code spans (backticks) are kept in the README only.
    let help: String
    /// More for the README, where there is room for it.
    let details: String?
    let shownDefault: ShownDefault?
    let environment: EnvironmentSource

    /// An option that takes a value.
    init(
        _ name: String, _ placeholder: String, help: String, details: String? = nil,
        default shownDefault: ShownDefault? = nil, environment: EnvironmentSource = .derived, set: @escaping Setter
    ) {
        self.init(
            name: name, aliases: [], effect: .value(placeholder: placeholder, set: set), help: help, details: details,
            shownDefault: shownDefault, environment: environment)
    }

    private init(
        name: String, aliases: [String], effect: Effect, help: String, details: String?, shownDefault: ShownDefault?,
        environment: EnvironmentSource
    ) {
        self.name = name
        self.aliases = aliases
        self.effect = effect
        self.help = help
        self.details = details
        self.shownDefault = shownDefault
        self.environment = environment
    }

    /// An option that takes no value and sets `flag`; its environment variable is on unless empty, `0` or `false`.
    static func flag(
        _ name: String, help: String, details: String? = nil,
        sets flag: any WritableKeyPath<Configuration, Bool> & Sendable
    ) -> CommandLineOption {
        CommandLineOption(
            name: name, aliases: [], effect: .flag { $0[keyPath: flag] = true }, help: help, details: details,
            shownDefault: nil, environment: .derived)
    }

    /// An option that ends the parsing with `outcome`, whatever follows it.
    static func finish(
        _ name: String, aliases: [String] = [], help: String, outcome: Configuration.Outcome
    ) -> CommandLineOption {
        CommandLineOption(
            name: name, aliases: aliases, effect: .finish(outcome), help: help, details: nil, shownDefault: nil,
            environment: .none)
    }

    var placeholder: String? {
        guard case .value(let placeholder, _) = effect else { return nil }
        return placeholder
    }

    /// `--port N`; a flag alone.
    var nameAndPlaceholder: String {
        name + (placeholder.map { " " + $0 } ?? "")
    }

    var environmentVariable: String? {
        switch environment {
        case .derived, .list:
            "STACKWEB_" + name.drop { $0 == "-" }.uppercased().replacingOccurrences(of: "-", with: "_")
        case .named(let variable), .namedList(let variable, _): variable
        case .none: nil
        }
    }

    var environmentSeparator: Character? {
        switch environment {
        case .list(let separator), .namedList(_, let separator): separator
        default: nil
        }
    }

    /// Whether `spelling` (without any `=value`) names this option.
    func isNamed(_ spelling: some StringProtocol) -> Bool {
        spelling == name || aliases.contains { spelling == $0 }
    }
}
