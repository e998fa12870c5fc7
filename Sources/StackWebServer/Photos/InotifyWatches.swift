import Glibc

/// One inotify instance watching a folder and every folder below it (junk and hidden ones skipped,
/// as the scan skips them), owned by the watcher's thread.
struct InotifyWatches {
    /// What a batch of events says.
    struct Seen {
        /// Folders (paths below the root) whose photos or subfolders changed.
        var folders: Set<String> = []
        /// Files closed after writing or renamed into place: complete.
        var closed: Set<String> = []
        /// The root itself was deleted, moved, unmounted or stopped being watched.
        var rootChanged = false
        /// The kernel's queue overflowed: events were lost, only a full rescan knows what changed.
        var overflowed = false
    }

    /// What tells one folder from another at the same path: device and inode, links followed.
    struct RootIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    static let folderMask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF
            | IN_MOVE_SELF | IN_ONLYDIR)

    let folder: String
    /// Where each watched folder is: `folder`, or the folder mounted into it.
    private let tree: PhotoTree
    let inotify: Int32
    let rootIdentity: RootIdentity
    /// Watched folders by watch descriptor, as paths below the root ("" is the root).
    private var folders: [Int32: String] = [:]
    private var rootWatch: Int32 = -1

    /// The folder's identity, or nil when it is not a folder that can be listed.
    static func rootIdentity(_ folder: String) -> RootIdentity? {
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, access(folder, R_OK | X_OK) == 0 else {
            return nil
        }
        return RootIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// Watches `folder` (following a symbolic link to it) and everything below, `mount` as one of
    /// its sub-folders; nil when it cannot be watched.
    /// Without `inotify` (or when even the root cannot be watched: no watches left) nothing is
    /// watched and only the rescans and root checks follow the folder.
    init?(folder: String, mount: PhotoTree.Mount? = nil, identity: RootIdentity, inotify use: Bool = true) {
        self.folder = folder
        tree = PhotoTree(root: folder, mount: mount)
        rootIdentity = identity
        inotify = use ? inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) : -1
        guard inotify >= 0 else { return }
        addTree("")
        rootWatch = folders.first { $0.value.isEmpty }?.key ?? -1
    }

    func close() {
        if inotify >= 0 { Glibc.close(inotify) }
    }

    /// Watches `relative` and every folder below it.
    @discardableResult
    private mutating func addTree(_ relative: String) -> Bool {
        let descriptor = inotify_add_watch(
            inotify, tree.path(of: relative), Self.folderMask | (relative.isEmpty ? 0 : UInt32(IN_DONT_FOLLOW)))
        guard descriptor >= 0 else { return false }
        folders[descriptor] = relative
        for name in tree.subfolders(of: relative) {
            addTree(relative.isEmpty ? name : relative + "/" + name)
        }
        return true
    }

    /// Reads a batch of `struct inotify_event`s (variable length: a 16-byte head, then `len` bytes of
    /// name), follows folders coming and going, and says what changed.
    mutating func apply(_ bytes: ArraySlice<UInt8>) -> Seen {
        var seen = Seen()
        var offset = bytes.startIndex
        while bytes.endIndex - offset >= 16 {
            let (descriptor, mask, length) = bytes.withUnsafeBytes { raw in
                let base = offset - bytes.startIndex
                return (
                    raw.loadUnaligned(fromByteOffset: base, as: Int32.self),
                    raw.loadUnaligned(fromByteOffset: base + 4, as: UInt32.self),
                    Int(raw.loadUnaligned(fromByteOffset: base + 12, as: UInt32.self))
                )
            }
            let nameBytes = bytes[(offset + 16)..<min(offset + 16 + length, bytes.endIndex)].prefix { $0 != 0 }
            offset += 16 + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { seen.overflowed = true }
            let selfGone = UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)
            if mask & selfGone != 0, descriptor == rootWatch { seen.rootChanged = true }
            if mask & UInt32(IN_IGNORED) != 0 { folders[descriptor] = nil }
            guard let parent = folders[descriptor] else { continue }
            guard let name = String(validating: nameBytes, as: UTF8.self) else {
                // Not UTF-8: the scan of its folder says so in the log, once.
                seen.folders.insert(parent)
                continue
            }
            guard !name.isEmpty, !FolderJunk.skips(name) else { continue }
            let relative = parent.isEmpty ? name : parent + "/" + name
            if mask & UInt32(IN_ISDIR) != 0 {
                if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { addTree(relative) }
                seen.folders.insert(parent)
            } else if PhotoLibrary.isImageName(name) {
                seen.folders.insert(parent)
                if mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0 { seen.closed.insert(relative) }
            }
        }
        return seen
    }
}
