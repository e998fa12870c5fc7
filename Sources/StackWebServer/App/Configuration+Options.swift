import StackModel

extension Configuration {
    /// Every command-line option, in the order `--help` and the README list them. A new option is one
    /// more entry in one of these lists; its environment variable, help line and README row follow from it.
    static let options = generalOptions + uploadOptions + finishingOptions

    /// The options of the server itself, of its photos, rooms and state.
    static let generalOptions: [CommandLineOption] = [
        CommandLineOption(
            "--host", "ADDRESS", help: "address to listen on: `127.0.0.1` is this machine only, `0.0.0.0` the LAN too",
            default: .value("127.0.0.1")
        ) { config, value throws(Failure) in config.host = value },
        CommandLineOption(
            "--port", "N", help: "TCP port; `0` picks a free one, which the printed URL shows", default: .value("8080")
        ) { config, value throws(Failure) in
            guard let port = UInt16(value) else { throw Failure(description: "--port must be 0 to 65535") }
            config.port = port
        },
        CommandLineOption(
            "--photos", "DIR",
            help: "show the photos below `DIR`: JPEG, PNG, WebP, GIF, and HEIC/AVIF where libvips reads them",
            details: """
                Symbolic links in it are not followed (one could lead a page to files elsewhere). The folder is \
                followed live (inotify): within about a second, new photos join the back of every room's stack, \
                removed ones fade out, and a file replaced in place is fetched again.
                """,
            default: .description("the bundled demo photos")
        ) { config, value throws(Failure) in config.photos = value },
        CommandLineOption(
            "--style", "NAME",
            help: "style of new rooms: " + supportedStyles.map { "`\($0.rawValue)`" }.joined(separator: ", "),
            default: .value(StyleName.pile.rawValue), set: setStyle),
        CommandLineOption(
            "--stage", "WxH",
            help: "the room's stage in points; each screen gets it widened to its own shape and fits that to its "
                + "window",
            default: .value("1024x768"), set: setStage),
        CommandLineOption(
            "--resources", "DIR", help: "the folder holding `web/` and `demo-photos/`",
            default: .description("found next to the binary")
        ) { config, value throws(Failure) in config.resources = value },
        CommandLineOption(
            "--interval", "SECONDS",
            help: """
                advance every room to the next photo this often, with the style's own motion; a person's gesture \
                holds it off for one interval; the `play` and `pause` commands (▶ on the page) switch it
                """,
            default: .description("paused; ▶ starts one every \(Int(RoomSettings.defaultSlideshowInterval / 1000)) s")
        ) { config, value throws(Failure) in
            config.interval = try number(value, option: "--interval", in: 1...86_400, unit: "seconds")
        },
        CommandLineOption(
            "--transition", "fade|kenburns",
            help: """
                how the `frame` style changes photos: `fade` cross-fades; `kenburns` fades the old photo out \
                over the new one, which then slowly zooms and pans (a cut for pages asking for reduced motion)
                """,
            default: .value(FrameTransition.fade.rawValue)
        ) { config, value throws(Failure) in
            guard let transition = FrameTransition(rawValue: value) else {
                throw Failure(description: "--transition must be fade or kenburns")
            }
            config.transition = transition
        },
        CommandLineOption(
            "--order", "name|date",
            help: """
                order of a new room's stack: `name` is by path below `DIR`, `date` by date taken, from EXIF \
                `DateTimeOriginal`, else the file's modification time
                """,
            default: .value(PhotoLibrary.Order.name.rawValue)
        ) { config, value throws(Failure) in
            guard let order = PhotoLibrary.Order(rawValue: value) else {
                throw Failure(description: "--order must be name or date")
            }
            config.order = order
        },
        .flag(
            "--shuffle",
            help: "start each new room in a random order, drawn at each start; a room's saved order (`--state`) wins",
            sets: \.shuffle),
        CommandLineOption(
            "--sleep", "HH:MM-HH:MM",
            help: """
                every day in this window (local time, may wrap midnight: `23:00-07:00`) the pages draw black and \
                fetch no photos, and the slideshow holds its place
                """, set: setSleep),
        CommandLineOption(
            "--cache", "DIR", help: "where resized photos are kept",
            details: """
                So is what was read of each photo (`photo-index.db`), so that a start reads only new or \
                changed files. It is a cache: deleting it costs only the time to make it again (the next start \
                reads every photo), never a room's order, which is kept with the state (`--state`).
                """,
            default: .description("`$XDG_CACHE_HOME/stackweb`, else `~/.cache/stackweb`")
        ) { config, value throws(Failure) in config.cache = value },
        CommandLineOption(
            "--cache-size", "SIZE",
            help:
                "the most the folder of resized photos may hold (`K`, `M`, `G` suffixes); the least recently used go first",
            default: .value("1G"), set: setCacheSize),
        CommandLineOption(
            "--rescan", "SECONDS",
            help: """
                look through the photo folder this often for changes inotify cannot see, such as those made on \
                another machine of a NAS share; `0`: never
                """,
            default: .value("300"), set: setRescan),
        CommandLineOption(
            "--token", "T", help: "the control token every POST must carry: 16 to 256 printable characters",
            default: .description("generated when `--host` is not a loopback address, none on loopback"),
            set: setToken),
        CommandLineOption(
            "--token-file", "FILE",
            help: "read the control token from `FILE` (its first line); unlike `--token`, `ps` does not show it",
            default: .description("none")
        ) { config, value throws(Failure) in config.tokenFile = value },
        .flag("--no-token", help: "let anyone who can reach the server control it, even on a LAN", sets: \.noToken),
        CommandLineOption(
            "--state", "FILE",
            help: "save every room's order, tilts and style to `FILE` and restore them at start",
            details: """
                It is a SQLite database: a change is in it before it is acknowledged, and it holds all a restart \
                needs: a room restored before its photos are read again (the cache deleted) keeps its saved \
                order, each photo taking its place as it is read. One that cannot be read is moved aside to \
                `FILE.unreadable-<time>` (a state file of an earlier version is imported, and kept as \
                `FILE.imported.json`) and the server starts clean; one that another process holds for over 5 s \
                stops the start. So does one that is not StackWeb's, left as it is: not a regular file (a \
                directory, a FIFO), another program's database, or one with a trigger or a view (exit status 78).
                """,
            default: .description("kept in memory only")
        ) { config, value throws(Failure) in config.state = value },
        CommandLineOption(
            "--allowed-host", "NAME",
            help: """
                also answer to `NAME` in the `Host` header (repeatable); IP addresses, `localhost` and this \
                machine's name (and `name.local`) always work
                """,
            details: "Any other name gets 403, which stops DNS-rebinding pages from reaching the server.",
            environment: .list(separator: ",")
        ) { config, value throws(Failure) in
            guard !value.isEmpty, value.utf8.count <= 253, !value.contains(":") else {
                throw Failure(description: "--allowed-host takes a host name without port")
            }
            config.allowedHosts.append(value)
        },
        CommandLineOption(
            "--public-url", "URL",
            help: """
                the address phones and other screens reach this server by, such as `https://frame.example` behind \
                a proxy: the QR code and the printed addresses use it, and its name is answered to
                """,
            default: .description("the LAN address when listening on `0.0.0.0`")
        ) { config, value throws(Failure) in config.publicURL = try PublicURL(parsing: value) },
        .flag(
            "--allow-embedding",
            help: """
                let other sites' pages show this one in a frame (every answer says `frame-ancestors 'none'` \
                otherwise)
                """, sets: \.allowEmbedding),
        .flag(
            "--caption-folders",
            help: """
                captions (`?caption=name`) name a photo by its path below `DIR`, folders and all; without it, \
                by its file name alone, so that folder names are not shown to every viewer
                """, sets: \.captionFolders),
        CommandLineOption(
            "--max-pixels", "N",
            help: """
                show only photos of at most `N` pixels (width × height; `M` suffix: millions); a larger one is \
                skipped when found, with one log line
                """,
            details: """
                A photo that declares more pixels than its file's bytes could hold (a truncated bomb) is skipped \
                too. The default is about what a 2-core machine resizes in a second when the whole photo must be \
                decoded (a 48 MP PNG).
                """,
            default: .value("50M")
        ) { config, value throws(Failure) in
            let millions = value.hasSuffix("M") || value.hasSuffix("m")
            guard let number = Int(millions ? String(value.dropLast()) : value), number > 0,
                number <= (millions ? 10_000 : 10_000_000_000)
            else { throw Failure(description: "--max-pixels must be a positive number of pixels, such as 50M") }
            config.maxPixels = millions ? number * 1_000_000 : number
        },
        .flag(
            "--keep-location",
            help: """
                serve photos without a size (`/photos/ID`) as their original files to anyone, with whatever they \
                say of where they were taken (GPS position, place names, creator)
                """,
            details: """
                Without it, a photo asked for without a size is served as a full-size variant (at most 4096 px) \
                without those fields, the original only to the control token.
                """,
            sets: \.keepLocation),
        CommandLineOption(
            "--max-clip-seconds", "N",
            help: """
                a clip converted for browsers (HEVC, a MOV without faststart) keeps its first `N` seconds
                """,
            details: """
                Each conversion runs at the lowest CPU priority, one at a time, at most 1080p; its copy is kept \
                in the cache folder beside the photo variants.
                """,
            default: .value(String(ClipRenditions.defaultMaxSeconds))
        ) { config, value throws(Failure) in
            config.maxClipSeconds = try number(value, option: "--max-clip-seconds", in: 1...3600)
        },
        CommandLineOption(
            "--max-cards", "N", help: "the most cards one room's stack holds; an `insert` past it gets 409",
            default: .value(String(RoomSettings().maxCards))
        ) { config, value throws(Failure) in
            config.maxCards = try number(value, option: "--max-cards", in: 1...10_000_000)
        },
        CommandLineOption(
            "--rooms", "NAME,…",
            help: """
                the only rooms this server has (comma-separated); any other room is 404. Without it, a room \
                is kept from the first POST with control rights, and watching a room nobody made shows it \
                only watched: a view that is never kept
                """,
            default: .description("any room"), environment: .list(separator: ",")
        ) { config, value throws(Failure) in
            let names = value.split(separator: ",").map(String.init)
            guard !names.isEmpty, names.allSatisfy(RoomRegistry.isValidName) else {
                throw Failure(description: "--rooms takes room names of a-z, 0-9, _ and - (at most 64 each)")
            }
            config.rooms = (config.rooms ?? []) + names
        },
        CommandLineOption(
            "--album", "ROOM=SUBDIR",
            help: """
                the room shows only the photos below `SUBDIR` of `--photos` (and its guests' photos); \
                repeatable, one room each. `SUBDIR` must exist and stay inside `--photos`
                """,
            default: .description("every room shows the whole folder"),
            environment: .namedList("STACKWEB_ALBUMS", separator: ",")
        ) { config, value throws(Failure) in
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, RoomRegistry.isValidName(parts[0]) else {
                throw Failure(description: "--album takes ROOM=SUBDIR, a room name of a-z, 0-9, _ and -")
            }
            guard RoomAlbums.isContained(parts[1]) else {
                throw Failure(description: "--album \(parts[0])=\(parts[1]): SUBDIR must be a folder inside --photos")
            }
            config.albums[parts[0]] = parts[1]
        },
        CommandLineOption(
            "--tls-cert", "FILE",
            help: "serve HTTPS with this PEM certificate (chain); needs `--tls-key` too",
            details: """
                TLS 1.3 and 1.2 only, with ephemeral ECDHE key exchange and AEAD ciphers (AES-GCM, \
                ChaCha20-Poly1305): TLS 1.0/1.1 and static-RSA or CBC suites are refused. See docs/photo-frame.md \
                for a self-signed certificate and how to trust it on a tablet.
                """,
            default: .description("plain HTTP")
        ) { config, value throws(Failure) in config.tlsCertificate = value },
        CommandLineOption(
            "--tls-key", "FILE", help: "the PEM private key of `--tls-cert`; keep it readable by this user only",
            default: .description("plain HTTP")
        ) { config, value throws(Failure) in config.tlsKey = value },
        CommandLineOption(
            "--log-format", "text|json",
            help: """
                how the lines for the operator are written (start-up with its URLs, rooms made and unloaded, \
                viewers dropped, failed and recovered saves, the photo folder gone and back): `text` for a \
                person, `json` one object per line for a log collector; never with the control token
                """,
            default: .value(OperatorLog.Format.text.rawValue)
        ) { config, value throws(Failure) in
            guard let format = OperatorLog.Format(rawValue: value) else {
                throw Failure(description: "--log-format must be text or json")
            }
            config.logFormat = format
        },
        CommandLineOption(
            "--redis", "URL",
            help: """
                share every room with the other instances of a group through this Redis, \
                `redis://[:password@]host[:port][/db]`; a room's state lives there instead of `--state`
                """,
            details: "docs/scale-out.md shows a group of three behind nginx.",
            default: .description("no group: this process alone")
        ) { config, value throws(Failure) in config.redis = try RedisURL(parsing: value) },
        CommandLineOption(
            "--redis-password-file", "FILE",
            help: "the `--redis` group's password, read from `FILE` (its first line) rather than written in the URL",
            default: .description("the URL's, if any")
        ) { config, value throws(Failure) in config.redisPasswordFile = value },
        CommandLineOption(
            "--instance-id", "ID",
            help: "this instance's name in its `--redis` group: 1 to 64 of a-z, A-Z, 0-9, `.`, `_`, `-`",
            default: .description("drawn at random, printed at start"), set: setInstanceID),
    ]

    /// The options that print and stop, last in `--help`.
    static let finishingOptions: [CommandLineOption] = [
        .finish("--help", aliases: ["-h"], help: "print this help and exit", outcome: .help),
        .finish(
            "--version",
            help: "print the version and the git commit it was built from (when built with `make`), and exit",
            outcome: .version),
    ]

    private static func setStyle(_ config: inout Configuration, _ value: String) throws(Failure) {
        guard let style = StyleName(rawValue: value), supportedStyles.contains(style) else {
            let names = supportedStyles.map(\.rawValue).joined(separator: ", ")
            throw Failure(description: "--style must be one of: \(names)")
        }
        config.style = style
    }

    private static func setStage(_ config: inout Configuration, _ value: String) throws(Failure) {
        let parts = value.lowercased().split(separator: "x").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ (100...10_000).contains($0) }) else {
            throw Failure(description: "--stage must be WxH, each 100 to 10000 points")
        }
        config.stage = StageSize(width: parts[0], height: parts[1])
    }

    private static func setSleep(_ config: inout Configuration, _ value: String) throws(Failure) {
        do {
            config.sleep = try SleepSchedule(parsing: value)
        } catch {
            throw Failure(description: error.description)
        }
    }

    private static func setCacheSize(_ config: inout Configuration, _ value: String) throws(Failure) {
        config.cacheSize = try size(
            value, option: "--cache-size", least: 1 << 20, base: 1024, acceptsBytesSuffix: true,
            failure: "--cache-size must be a size of 1M or more, such as 500M or 2G")
    }

    private static func setRescan(_ config: inout Configuration, _ value: String) throws(Failure) {
        guard let seconds = Double(value), seconds == 0 || (0.1...86_400).contains(seconds) else {
            throw Failure(description: "--rescan must be 0 (never) or 0.1 to 86400 seconds")
        }
        config.rescan = seconds == 0 ? nil : seconds
    }

    private static func setInstanceID(_ config: inout Configuration, _ value: String) throws(Failure) {
        let allowed = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")].contains(byte)
        }
        guard (1...64).contains(value.utf8.count), value.utf8.allSatisfy(allowed) else {
            throw Failure(description: "--instance-id must be 1 to 64 of a-z, A-Z, 0-9, ., _ and -")
        }
        config.instanceID = value
    }

    static func setToken(_ config: inout Configuration, _ value: String) throws(Failure) {
        guard isTokenText(value) else {
            throw Failure(description: "--token must be 16 to 256 printable characters without spaces")
        }
        config.token = value
    }
}
