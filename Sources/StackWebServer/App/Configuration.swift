import Foundation
import StackModel

/// Everything the command line and `STACKWEB_*` environment variables can set.
public struct Configuration: Equatable, Sendable {
    public static let version = "0.1.0"

    var host = "127.0.0.1"
    var port: UInt16 = 8080
    /// Folder of photos; `nil` shows the bundled demo photos.
    var photos: String?
    var style: StyleName = .pile
    var stage = StageSize.default
    /// Folder holding `web/` and `demo-photos/`; `nil` finds it next to the executable.
    var resources: String?
    /// The control token; `nil` generates one when bound beyond loopback.
    var token: String?
    /// `--no-token`: anyone who can reach the server may control it, even on a LAN.
    var noToken = false
    /// Extra names the server answers to (the `Host` header), besides IP literals, `localhost` and
    /// this machine's name.
    var allowedHosts: [String] = []
    /// Seconds between automatic advances; `nil` means no slideshow.
    var interval: Double?
    /// The order of a new room's stack.
    var order: PhotoLibrary.Order = .name
    /// `--shuffle`: a new room's stack starts in a random order (a saved order still wins).
    var shuffle = false
    /// When the screens go dark each day; `nil`: never.
    var sleep: SleepSchedule?
    /// Folder for resized photos; `nil` uses `defaultCacheFolder()`.
    var cache: String?
    /// The most bytes the folder of resized photos may hold; the least recently used go first.
    var cacheSize: Int64 = 1 << 30
    /// Seconds between stat-only rescans of the photo folder (changes on a NAS share made elsewhere
    /// send no inotify event); `nil`: never.
    var rescan: Double? = 300
    /// File the rooms' lasting state is saved to; `nil` keeps it in memory only.
    var state: String?
    var heartbeatSeconds = 15.0
    /// A room nobody has watched or touched for this long is unloaded (its state stays saved).
    var idleUnloadSeconds = 600.0
    var maxRooms = 64
    /// Connection limits; `nil` uses `ServerLimits.standard` for the host bound.
    var limits: ServerLimits?

    /// `$XDG_CACHE_HOME/stackweb`, else `~/.cache/stackweb`, else a folder under /tmp.
    static func defaultCacheFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") { return base + "/stackweb" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/stackweb" }
        return "/tmp/stackweb-cache"
    }

    /// Whether `host` only accepts connections from this machine.
    var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The token POSTs must carry: the one given, one generated when reachable from a LAN, or none.
    func controlToken(generate: () -> String) -> String? {
        if noToken { return nil }
        return token ?? (isLoopback ? nil : generate())
    }

    /// Styles this build's model implements.
    static let supportedStyles: [StyleName] = StyleName.allCases

    public enum Outcome: Equatable {
        case run(Configuration)
        case help
        case version
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static let usage = """
        Usage: stackweb [options]

          --host ADDRESS        address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN)
          --port N              TCP port (default 8080; 0 picks a free one)
          --photos DIR          show the photos in DIR (default: the bundled demo photos)
          --style NAME          initial style of new rooms: \(supportedStyles.map(\.rawValue).joined(separator: ", "))
          --stage WxH           stage size in points (default 1024x768)
          --resources DIR       folder with web/ and demo-photos/ (default: found next to the binary)
          --interval SECONDS    advance every room to the next photo this often (a person's gesture holds
                                it off for one interval; the play and pause commands switch it)
          --order name|date     order of a new room's photos: by path (default) or by date taken (EXIF,
                                else the file's modification time)
          --shuffle             start each new room in a random order (a saved order still wins)
          --sleep HH:MM-HH:MM   screens go dark in this daily window, local time (may wrap midnight,
                                e.g. 23:00-07:00); pages draw black and fetch nothing meanwhile
          --rescan SECONDS      look through the photo folder this often for changes inotify cannot see,
                                e.g. made on another machine of a NAS share (default 300; 0: never)
          --cache DIR           keep resized photos in DIR (default $XDG_CACHE_HOME/stackweb or ~/.cache/stackweb)
          --cache-size SIZE     keep at most SIZE bytes of resized photos (K, M, G suffixes; default 1G);
                                the least recently used are removed first
          --state FILE          save every room's order, tilts and style to FILE and restore them at start
          --token T             control token required on every POST (default: generated when --host
                                is not a loopback address, none on loopback)
          --no-token            let anyone who can reach the server control it
          --allowed-host NAME   also answer to NAME in the Host header (repeatable; IP addresses,
                                localhost and this machine's name always work)
          --help, --version

        Every option can also be given as an environment variable: --photos DIR is STACKWEB_PHOTOS=DIR.
        """

    /// Reads the environment first, then the arguments (which win).
    public static func parse(arguments: [String], environment: [String: String]) throws(Failure) -> Outcome {
        var config = Configuration()
        let names = [
            "host", "port", "photos", "style", "stage", "resources", "token", "state", "allowed-host", "cache",
            "interval", "order", "sleep", "rescan", "cache-size",
        ]
        for name in names {
            let variable = "STACKWEB_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
            guard let value = environment[variable] else { continue }
            // A list in one variable: STACKWEB_ALLOWED_HOST=frame.lan,photos.home
            for part in name == "allowed-host" ? value.split(separator: ",").map(String.init) : [value] {
                try config.set(name, part)
            }
        }
        if let value = environment["STACKWEB_NO_TOKEN"] { config.noToken = !["", "0", "false"].contains(value) }
        if let value = environment["STACKWEB_SHUFFLE"] { config.shuffle = !["", "0", "false"].contains(value) }
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--no-token": config.noToken = true
            case "--shuffle": config.shuffle = true
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
        if config.noToken && config.token != nil {
            throw Failure(description: "--token and --no-token contradict each other")
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
        case "state": state = value
        case "cache": cache = value
        case "order":
            guard let order = PhotoLibrary.Order(rawValue: value) else {
                throw Failure(description: "--order must be name or date")
            }
            self.order = order
        case "sleep":
            do {
                sleep = try SleepSchedule(parsing: value)
            } catch {
                throw Failure(description: error.description)
            }
        case "interval":
            guard let seconds = Double(value), (1...86_400).contains(seconds) else {
                throw Failure(description: "--interval must be 1 to 86400 seconds")
            }
            interval = seconds
        case "cache-size":
            let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
            var text = value.uppercased()
            if text.hasSuffix("IB") || text.hasSuffix("B") {
                text = String(text.dropLast(text.hasSuffix("IB") ? 2 : 1))
            }
            let unit = text.last.flatMap { units[$0] }
            guard let number = Double(unit == nil ? text : String(text.dropLast())), number >= 0,
                number * Double(unit ?? 1) >= Double(1 << 20), number * Double(unit ?? 1) < 1e15
            else {
                throw Failure(description: "--cache-size must be a size of 1M or more, such as 500M or 2G")
            }
            cacheSize = Int64(number * Double(unit ?? 1))
        case "rescan":
            guard let seconds = Double(value), seconds == 0 || (0.1...86_400).contains(seconds) else {
                throw Failure(description: "--rescan must be 0 (never) or 0.1 to 86400 seconds")
            }
            rescan = seconds == 0 ? nil : seconds
        case "allowed-host":
            guard !value.isEmpty, value.utf8.count <= 253, !value.contains(":") else {
                throw Failure(description: "--allowed-host takes a host name without port")
            }
            allowedHosts.append(value)
        case "token":
            guard (16...256).contains(value.utf8.count), value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw Failure(description: "--token must be 16 to 256 printable characters without spaces")
            }
            token = value
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
