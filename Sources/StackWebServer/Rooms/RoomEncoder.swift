import StackModel

/// Encodes what a room sends: snapshots, changes and cards, as in docs/wire-protocol.md.
enum RoomEncoder {
    struct Summary {
        var room: String
        var seq: Int
        var serverTime: Millis
        var style: StyleName
        var stage: StageSize
        var count: Int
        var current: Int
        var playing: Bool
        /// The sleep schedule has the screens dark: pages draw black and fetch no photos.
        var asleep: Bool
        var viewers: Int
        /// The viewer dragging a card now, if any.
        var heldBy: String?
        /// The swipe's stacked mode (`Stack.swipeStacked`), a user choice carried in every summary.
        var stacked = false
        /// On a snapshot that starts the room's history afresh (a takeover, a change undone): the
        /// room is as kept through this event; events numbered after it, before the snapshot, were
        /// not kept.
        var keptThrough: Int?
        /// Captions name the photo's folders too (`RoomSettings.captionFolders`); not sent itself.
        var captionFolders = false
        /// Who sent the guests' photos still to be shown as theirs (`RoomState.senders`): their
        /// captions carry `from`.
        var senders: [String: String] = [:]
        /// The shape class a snapshot is laid out for, when the viewer reported one: the page
        /// reconnects with its new size when a resize takes its window out of the class.
        var shape: ShapeClass?
    }

    /// `photos` gives each card's URL version and caption.
    static func snapshot(_ summary: Summary, cards: [DrawnCard], photos: PhotoLibrary) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + cards.count * 320)
        writer.object { json in
            json.field("room", summary.room)
            writeSummary(summary, into: &json)
            json.object("stage") { stage in
                stage.field("w", summary.stage.width)
                stage.field("h", summary.stage.height)
            }
            if let shape = summary.shape {
                json.object("shape") { object in
                    object.field("name", shape.rawValue)
                    object.field("minAspect", shape.aspectRange.lowerBound)
                    // The widest class takes every wider window: no upper bound.
                    if shape.aspectRange.upperBound.isFinite {
                        object.field("maxAspect", shape.aspectRange.upperBound)
                    }
                }
            }
            json.field("viewers", summary.viewers)
            json.array("cards") { list in
                for card in cards { write(card, summary: summary, photos: photos, into: &list) }
            }
        }
        return writer.bytes
    }

    static func change(_ summary: Summary, change: StackChange, photos: PhotoLibrary) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 + change.cards.count * 320)
        writer.object { json in
            writeSummary(summary, into: &json)
            json.array("cards") { list in
                for card in change.cards { write(card, summary: summary, photos: photos, into: &list) }
            }
            json.array("removed") { list in
                for id in change.removed { list.string(id) }
            }
            // Only the screens named offer "Photo removed · Undo".
            if !change.removedBy.isEmpty {
                json.array("removedBy") { list in
                    for viewer in change.removedBy { list.string(viewer) }
                }
            }
        }
        return writer.bytes
    }

    private static func writeSummary(_ summary: Summary, into json: inout JSONWriter) {
        json.field("seq", summary.seq)
        json.field("serverTime", summary.serverTime)
        json.field("style", summary.style.rawValue)
        json.field("count", summary.count)
        json.field("current", summary.current)
        json.field("playing", summary.playing)
        json.field("asleep", summary.asleep)
        json.field("heldBy", summary.heldBy)
        json.field("stacked", summary.stacked)
        if let keptThrough = summary.keptThrough { json.field("keptThrough", keptThrough) }
    }

    /// A card's transform at the summary's time, plus the rest of its motion while it moves.
    private static func write(
        _ card: DrawnCard, summary: Summary, photos: PhotoLibrary, into json: inout JSONWriter
    ) {
        let now = summary.serverTime
        let entry = photos.entry(id: card.photo)
        json.object { json in
            json.field("id", card.id)
            json.field("photo", card.photo)
            // The version changes when the file is replaced, so browsers fetch it again.
            json.field("src", "/photos/\(card.photo)" + (entry.map { "?v=\($0.version)" } ?? ""))
            let sender = summary.senders[card.photo]
            if entry != nil || sender != nil {
                json.object("caption") { caption in
                    if let taken = entry?.taken { caption.field("date", String(taken.prefix(10))) }
                    if let entry {
                        caption.field(
                            "name", summary.captionFolders ? entry.relative : PhotoScanner.name(entry.relative))
                    }
                    if let sender { caption.field("from", sender) }
                }
            }
            json.field("position", card.position)
            let current = card.animation.map { $0.value(at: now) } ?? card.transform
            writeTransform(current, into: &json)
            json.field("z", card.z)
            json.field("highlight", card.highlight)
            if let animation = card.animation, animation.end > now {
                json.object("anim") { anim in
                    anim.field("start", animation.start)
                    anim.field("duration", animation.duration)
                    anim.object("curve") { writeCurve(animation.curve, into: &$0) }
                    anim.object("from") { writeTransform(animation.from, into: &$0) }
                    anim.object("to") { writeTransform(animation.to, into: &$0) }
                }
            }
        }
    }

    private static func writeTransform(_ t: CardTransform, into json: inout JSONWriter) {
        json.field("x", t.x)
        json.field("y", t.y)
        json.field("w", t.w)
        json.field("h", t.h)
        json.field("rotation", t.rotation)
        json.field("scaleX", t.scaleX)
        json.field("scaleY", t.scaleY)
        json.field("opacity", t.opacity)
        json.field("flip", t.flip)
    }

    private static func writeCurve(_ curve: Curve, into json: inout JSONWriter) {
        switch curve {
        case .spring(let stiffness, let damping, let mass, let velocity):
            json.field("type", "spring")
            json.field("stiffness", stiffness)
            json.field("damping", damping)
            json.field("mass", mass)
            json.field("velocity", velocity)
        case .easeOut: json.field("type", "easeOut")
        case .easeInOut: json.field("type", "easeInOut")
        case .linear: json.field("type", "linear")
        }
    }
}
