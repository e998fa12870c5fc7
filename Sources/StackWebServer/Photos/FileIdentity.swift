import Glibc

/// A file as `stat` sees it: device, inode, size and modification time. Equal identities mean the
/// file is the one already read, so a rescan costs a `stat`, not a header read; a file copied in,
/// saved over or moved to another disk gets a new one.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    init(device: UInt64 = 0, inode: UInt64 = 0, size: Int64, modified: timespec) {
        self.device = device
        self.inode = inode
        self.size = size
        seconds = modified.tv_sec
        nanoseconds = modified.tv_nsec
    }

    init(_ info: stat) {
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modified: info.st_mtim)
    }

    /// `path`'s identity, following symbolic links; nil when it cannot be read.
    static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        return stat(path, &info) == 0 ? FileIdentity(info) : nil
    }

    var modified: timespec { timespec(tv_sec: seconds, tv_nsec: nanoseconds) }

    /// The modification time in seconds since the epoch, to compare with the wall clock.
    var modifiedSeconds: Double { Double(seconds) + Double(nanoseconds) / 1e9 }
}

/// What a photo folder holds that is not the owner's photos: hidden files and folders (editors'
/// temporary files, `.Trash-1000`, `.thumbnails`, macOS `._` files) and what NAS systems and
/// other operating systems put beside them. Skipped by the scan and by the watcher alike.
enum FolderJunk {
    static let names: Set<String> = [
        "@eaDir",  // Synology's thumbnails, one folder per photo: each would show as more photos
        "#recycle",  // Synology's recycle bin
        "#snapshot",  // Synology's snapshots: the same photos again
        "$RECYCLE.BIN",  // Windows' recycle bin on a USB stick or SMB share
        "System Volume Information",  // Windows
        "lost+found",  // ext4's root: fsck's fragments
    ]

    static func skips(_ name: String) -> Bool {
        name.hasPrefix(".") || names.contains(name)
    }
}
