extension Configuration {
    /// The options of guests' uploads (`POST /api/rooms/ROOM/photos`), listed after the others.
    static let uploadOptions: [CommandLineOption] = [
        CommandLineOption(
            "--uploads", "MODE|ROOM=MODE",
            help: """
                whether rooms take photos from guests' phones: `off`, `open`, or `review` (shown once approved); \
                `ROOM=MODE` for one room \
                (repeatable), a bare `MODE` for every other room
                """,
            details: """
                A guest posts a photo with the add token (`--add-token`) or the control token; it is kept in \
                `--uploads-dir` and joins the room's stack.
                """,
            default: .value("off"), environment: .list(separator: ","), set: setUploads),
        CommandLineOption(
            "--add-token", "T",
            help: "the token that lets a guest add photos to rooms that take them, and nothing else",
            default: .description("generated when `--host` is not a loopback address and a room takes photos"),
            set: setAddToken),
        CommandLineOption(
            "--add-token-file", "FILE", help: "read the add token from `FILE` (its first line)",
            default: .description("none")
        ) { config, value throws(Failure) in config.addTokenFile = value },
        CommandLineOption(
            "--uploads-dir", "DIR",
            help:
                "where guests' photos are kept, one sub-folder per room; outside `--photos` it is shown as its "
                + "`Uploads/` sub-folder",
            default: .description(
                "`Uploads/` inside `--photos` when it is writable, else `Uploads/` beside the `--state` file")
        ) { config, value throws(Failure) in config.uploads.folder = value },
        CommandLineOption(
            "--uploads-at", "next|front|back",
            help: """
                where a guest's photo joins the room's stack: after the front card, in front, or at the back; \
                behind the guests' photos still waiting there, so that they show in the order they came
                """,
            default: .value(UploadSettings.Arrival.next.rawValue)
        ) { config, value throws(Failure) in
            guard let arrival = UploadSettings.Arrival(rawValue: value) else {
                throw Failure(description: "--uploads-at must be next, front or back")
            }
            config.uploads.arrival = arrival
        },
        CommandLineOption(
            "--max-upload-size", "SIZE",
            help: "the largest photo a guest may send (`K`, `M`, `G` suffixes); a larger one gets 413",
            default: .value("50M")
        ) { config, value throws(Failure) in
            config.uploads.maxBytes = try size(value, option: "--max-upload-size", least: 1024)
        },
        CommandLineOption(
            "--uploads-quota", "SIZE",
            help: "the most guests' photos may hold on disk together (`K`, `M`, `G` suffixes); past it, 507",
            default: .description("a tenth of the space free at start")
        ) { config, value throws(Failure) in
            config.uploads.quota = try size(value, option: "--uploads-quota", least: 0)
        },
    ]

    private static func setUploads(_ config: inout Configuration, _ value: String) throws(Failure) {
        let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
        guard let mode = parts.last.flatMap(UploadSettings.Mode.init(rawValue:)) else {
            throw Failure(description: "--uploads takes off, open or review, or ROOM=off|open|review")
        }
        guard parts.count == 2 else {
            config.uploads.mode = mode
            return
        }
        guard RoomRegistry.isValidName(parts[0]) else {
            throw Failure(description: "--uploads ROOM=MODE takes a room name of a-z, 0-9, _ and -")
        }
        config.uploads.rooms[parts[0]] = mode
    }

    static func setAddToken(_ config: inout Configuration, _ value: String) throws(Failure) {
        guard isTokenText(value) else {
            throw Failure(description: "--add-token must be 16 to 256 printable characters without spaces")
        }
        config.addToken = value
    }
}
