import Foundation

extension Configuration {
    /// Reads the environment first, then the arguments (which win).
    public static func parse(arguments: [String], environment: [String: String]) throws(Failure) -> Outcome {
        var config = Configuration()
        for option in options {
            try config.read(option, from: environment)
        }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (spelling, inlineValue) = split(argument)
            let option = try option(spelled: spelling, in: argument)
            switch option.effect {
            case .finish(let outcome):
                try refuse(inlineValue, for: option)
                return outcome
            case .flag(let set):
                try refuse(inlineValue, for: option)
                set(&config)
            case .value(let placeholder, let set):
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw Failure(description: "\(option.name) needs a value: \(option.name) \(placeholder)")
                }
                try set(&config, value)
                if let warning = Self.secretWarning(option.name, value) { config.warnings.append(warning) }
            }
        }
        try config.readSecretFiles()
        if config.noToken && config.token != nil {
            throw Failure(description: "--token and --no-token contradict each other")
        }
        if config.redis != nil && config.state != nil {
            throw Failure(description: "--state and --redis contradict each other: a group keeps its rooms in Redis")
        }
        return .run(config)
    }

    /// The exit status of a configuration the server cannot run with (`EX_CONFIG`): a supervisor
    /// told `RestartPreventExitStatus=78` does not restart it in a loop.
    public static let configurationErrorStatus: Int32 = 78

    /// The `--log-format` asked for (`STACKWEB_LOG_FORMAT`, then the arguments), read on its own so
    /// that a configuration refused for another reason is still reported in it.
    public static func requestedLogFormat(arguments: [String], environment: [String: String]) -> OperatorLog.Format {
        var format = environment["STACKWEB_LOG_FORMAT"].flatMap(OperatorLog.Format.init(rawValue:)) ?? .text
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--log-format", let value = remaining.popFirst() {
                format = OperatorLog.Format(rawValue: value) ?? format
            } else if argument.hasPrefix("--log-format=") {
                format = OperatorLog.Format(rawValue: String(argument.dropFirst("--log-format=".count))) ?? format
            }
        }
        return format
    }

    /// A secret on the command line is in `ps` for every local user to read: said at start, with
    /// where to put it instead. (The environment and files are the owner's only.)
    private static func secretWarning(_ name: String, _ value: String) -> String? {
        switch name {
        case "--token":
            "--token on the command line shows in ps to every user of this machine; use --token-file or STACKWEB_TOKEN"
        case "--add-token":
            """
            --add-token on the command line shows in ps to every user of this machine; use --add-token-file or \
            STACKWEB_ADD_TOKEN
            """
        case "--redis" where (try? RedisURL(parsing: value))?.password != nil:
            """
            a password in --redis on the command line shows in ps to every user of this machine; use \
            --redis-password-file or STACKWEB_REDIS
            """
        default: nil
        }
    }

    /// `--token-file` and `--redis-password-file`, read once every argument is: each file's first line.
    private mutating func readSecretFiles() throws(Failure) {
        if let path = tokenFile {
            if token != nil { throw Failure(description: "--token and --token-file contradict each other") }
            try Self.setToken(&self, Self.secret(in: path, for: "--token-file"))
        }
        if let path = addTokenFile {
            if addToken != nil { throw Failure(description: "--add-token and --add-token-file contradict each other") }
            try Self.setAddToken(&self, Self.secret(in: path, for: "--add-token-file"))
        }
        if let path = redisPasswordFile {
            guard redis != nil else { throw Failure(description: "--redis-password-file needs --redis") }
            redis?.password = try Self.secret(in: path, for: "--redis-password-file")
        }
    }

    private static func secret(in path: String, for option: String) throws(Failure) -> String {
        guard let data = FileManager.default.contents(atPath: path),
            let line = String(data: data, encoding: .utf8)?.split(whereSeparator: \.isNewline).first,
            case let text = String(line).trimmingCharacters(in: .whitespaces), !text.isEmpty
        else { throw Failure(description: "\(option): cannot read \(path), or it is empty") }
        return text
    }

    /// `--name=value` into its name and value; anything else is all name.
    private static func split(_ argument: String) -> (spelling: Substring, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument[...], nil) }
        return (argument[..<equals], String(argument[argument.index(after: equals)...]))
    }

    private static func option(spelled spelling: Substring, in argument: String) throws(Failure) -> CommandLineOption {
        if let option = options.first(where: { $0.isNamed(spelling) }) { return option }
        guard spelling.hasPrefix("--") else { throw Failure(description: "unexpected argument '\(argument)'") }
        throw Failure(description: "unknown option \(spelling)")
    }

    private static func refuse(_ value: String?, for option: CommandLineOption) throws(Failure) {
        guard value != nil else { return }
        throw Failure(description: "\(option.name) takes no value (give \(option.name) alone)")
    }

    /// Applies the option's environment variable, if it is set.
    private mutating func read(_ option: CommandLineOption, from environment: [String: String]) throws(Failure) {
        guard let variable = option.environmentVariable, let value = environment[variable] else { return }
        switch option.effect {
        case .finish: break
        case .flag(let set):
            if !["", "0", "false"].contains(value) { set(&self) }
        case .value(_, let set):
            let values = option.environmentSeparator.map { value.split(separator: $0).map(String.init) } ?? [value]
            for value in values { try set(&self, value) }
        }
    }
}
