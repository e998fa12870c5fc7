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
            }
        }
        if config.noToken && config.token != nil {
            throw Failure(description: "--token and --no-token contradict each other")
        }
        if config.redis != nil && config.state != nil {
            throw Failure(description: "--state and --redis contradict each other: a group keeps its rooms in Redis")
        }
        return .run(config)
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
