import StackModel

/// Everything the command line and `STACKWEB_*` environment variables can set.
struct Configuration: Equatable, Sendable {
    static let version = "0.1.0"

    var host = "127.0.0.1"
    var port: UInt16 = 8080
    /// Folder of photos; `nil` shows the bundled demo photos.
    var photos: String?
    var style: StyleName = .pile
    var stage = StageSize.default
    /// Folder holding `web/` and `demo-photos/`; `nil` finds it next to the executable.
    var resources: String?
    var heartbeatSeconds = 15.0
    var maxRooms = 64

    /// Styles this build's model implements.
    static let supportedStyles: [StyleName] = [.pile]

    enum Outcome: Equatable {
        case run(Configuration)
        case help
        case version
    }

    struct Failure: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    static let usage = """
        Usage: stackweb [options]

          --host ADDRESS        address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN)
          --port N              TCP port (default 8080; 0 picks a free one)
          --photos DIR          show the photos in DIR (default: the bundled demo photos)
          --style NAME          initial style of new rooms: \(supportedStyles.map(\.rawValue).joined(separator: ", "))
          --stage WxH           stage size in points (default 1024x768)
          --resources DIR       folder with web/ and demo-photos/ (default: found next to the binary)
          --help, --version

        Every option can also be given as an environment variable: --photos DIR is STACKWEB_PHOTOS=DIR.
        """

    /// Reads the environment first, then the arguments (which win).
    static func parse(arguments: [String], environment: [String: String]) throws(Failure) -> Outcome {
        var config = Configuration()
        let names = ["host", "port", "photos", "style", "stage", "resources"]
        for name in names {
            if let value = environment["STACKWEB_" + name.uppercased()] { try config.set(name, value) }
        }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": return .help
            case "--version": return .version
            default:
                guard argument.hasPrefix("--") else { throw Failure(description: "unexpected argument '\(argument)'") }
                var name = String(argument.dropFirst(2))
                var value: String
                if let equals = name.firstIndex(of: "=") {
                    value = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                } else {
                    guard let next = remaining.popFirst() else { throw Failure(description: "--\(name) needs a value") }
                    value = next
                }
                guard names.contains(name) else { throw Failure(description: "unknown option --\(name)") }
                try config.set(name, value)
            }
        }
        return .run(config)
    }

    private mutating func set(_ name: String, _ value: String) throws(Failure) {
        switch name {
        case "host": host = value
        case "port":
            guard let port = UInt16(value) else { throw Failure(description: "--port must be 0 to 65535") }
            self.port = port
        case "photos": photos = value
        case "resources": resources = value
        case "style":
            guard let style = StyleName(rawValue: value), Self.supportedStyles.contains(style) else {
                let names = Self.supportedStyles.map(\.rawValue).joined(separator: ", ")
                throw Failure(description: "--style must be one of: \(names)")
            }
            self.style = style
        case "stage":
            let parts = value.lowercased().split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ (100...10_000).contains($0) }) else {
                throw Failure(description: "--stage must be WxH, each 100 to 10000 points")
            }
            stage = StageSize(width: parts[0], height: parts[1])
        default: throw Failure(description: "unknown option --\(name)")
        }
    }
}
