import StackModel

/// The limits and intervals of every room of a server; explicit, and the same for every room.
struct RoomSettings: Sendable, Equatable {
    /// Viewers one room serves at most; past that a new stream gets 429. Below the server's
    /// connection cap (`ServerLimits.connectionLimit`, 16,384), so it can be reached, and one room
    /// cannot take every connection: the rest stay for other rooms, pages and POSTs.
    static let maxViewers = 12_000
    /// How many recent change events are kept for `Last-Event-ID` resumption.
    static let replayCapacity = 512
    /// A replay larger than this is sent as a fresh snapshot instead. A viewer's stream queues at
    /// most 1 MiB (`StreamConnection.maxQueuedBytes`): an opening past that would close the stream
    /// before it starts, and the page, resuming from the same id, would be refused again forever.
    static let maxReplayBytes = 256 * 1024
    /// The slideshow interval when ▶ is pressed on a server started without `--interval`.
    static let defaultSlideshowInterval: Millis = 10_000
    /// How many photos behind the front one are made ready (resized) whenever the front changes: a
    /// slideshow step, or a few quick → presses, then finds its photo made.
    static let upcomingPhotos = 3
    /// Guests' photos whose sender a room remembers until each has been shown: past this, a
    /// photo joins without "from …" (a burst of uploads must not grow the room without bound).
    static let maxSenders = 256

    /// Viewer counts are sent at most this often: a hall of screens joining at once must not cost
    /// one broadcast per join (that would be quadratic).
    var presenceInterval: Millis = 500
    /// A room nobody has watched or touched for this long, with nothing in motion, is unloaded
    /// (its lasting state stays in the store; it comes back on next use).
    var idleUnload: Millis = 600_000
    /// `--interval`: every room advances by itself this often; `nil` until ▶ is pressed.
    var slideshowInterval: Millis?
    /// `--max-cards`: the most cards one stack holds; an `insert` past it is refused (409) and a
    /// folder with more photos shows the first ones. Bounds a room's memory and its saves.
    var maxCards = 100_000
    /// `--caption-folders`: captions name a photo by its path below the folder; without it, by its
    /// file name alone (folder names may say more than the owner means every viewer to read).
    var captionFolders = false
}
