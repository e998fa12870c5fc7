/// What a request path names, independent of the method.
enum Route: Equatable {
    case health
    case metrics
    case rooms
    case snapshot(room: String)
    case events(room: String)
    case pointer(room: String)
    case commands(room: String)
    /// `POST /api/rooms/ROOM/photos`: a guest's photo.
    case uploads(room: String)
    /// `GET /api/rooms/ROOM/uploads`: the guests' photos waiting for review (control only).
    case uploadQueue(room: String)
    /// `POST /api/rooms/ROOM/uploads/ID/approve` or `…/reject`.
    case uploadDecision(room: String, id: String, approve: Bool)
    /// `GET /api/rooms/ROOM/add-code.svg`: the QR code of the room's add page (`AddCodes`).
    case addCode(room: String)
    /// `GET /api/rooms/ROOM/uploads/ID/preview`: a small JPEG of a photo waiting for review
    /// (control only).
    case uploadPreview(room: String, id: String)
    case photo(id: String)
    /// `GET /clips/ID`: a clip's video, with `Range` (`ClipAnswers`).
    case clip(id: String)
    /// `GET /clips/ID/poster`: its first frame, `?w=`/`?h=` as a photo's.
    case clipPoster(id: String)
    /// Anything else: maybe one of the page's files.
    case file

    init(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch parts.count {
        case 1 where parts[0] == "healthz": self = .health
        case 1 where parts[0] == "metrics": self = .metrics
        case 2 where parts[0] == "photos": self = .photo(id: parts[1])
        case 2 where parts[0] == "clips": self = .clip(id: parts[1])
        case 2 where parts[0] == "api" && parts[1] == "rooms": self = .rooms
        case 3 where parts[0] == "api" && parts[1] == "rooms": self = .snapshot(room: parts[2])
        case 3 where parts[0] == "clips" && parts[2] == "poster": self = .clipPoster(id: parts[1])
        case 4 where parts[0] == "api" && parts[1] == "rooms":
            switch parts[3] {
            case "events": self = .events(room: parts[2])
            case "pointer": self = .pointer(room: parts[2])
            case "commands": self = .commands(room: parts[2])
            case "photos": self = .uploads(room: parts[2])
            case "uploads": self = .uploadQueue(room: parts[2])
            case "add-code.svg": self = .addCode(room: parts[2])
            default: self = .file
            }
        case 6
        where parts[0] == "api" && parts[1] == "rooms" && parts[3] == "uploads"
            && ["approve", "reject"].contains(parts[5]):
            self = .uploadDecision(room: parts[2], id: parts[4], approve: parts[5] == "approve")
        case 6 where parts[0] == "api" && parts[1] == "rooms" && parts[3] == "uploads" && parts[5] == "preview":
            self = .uploadPreview(room: parts[2], id: parts[4])
        default: self = .file
        }
    }

    /// Whether even reading it needs the control token: photos nobody has approved yet.
    var readsNeedControl: Bool {
        switch self {
        case .uploadQueue, .uploadPreview: true
        default: false
        }
    }

    /// The methods this route answers.
    var methods: [String] {
        switch self {
        case .health, .metrics, .rooms, .snapshot, .events, .photo, .clip, .clipPoster, .file, .uploadQueue,
            .uploadPreview,
            .addCode:
            ["GET", "HEAD"]
        case .pointer, .commands, .uploads, .uploadDecision: ["POST"]
        }
    }
}
