import Glibc

/// What the uploads' folder holds: the bytes (for the quota) and, by content hash, each photo's
/// path below the photo folder (the same bytes sent again are that photo). Read from the names
/// at start (`UploadNaming`), so it needs no database of its own.
struct StoredUploads: Sendable {
    private(set) var bytes: Int64 = 0
    /// Bytes held for uploads in flight (`QuotaHold`): counted against the quota with the stored
    /// ones, so uploads at once cannot each find room for themselves in the same space.
    private(set) var held: Int64 = 0
    private var byHash: [String: String] = [:]

    /// Lists `folder` (one sub-folder per room, and the same under `.review`); a temporary file a
    /// crash left is removed.
    init(folder: String) {
        scan(folder)
        scan(folder + "/.review")
    }

    private mutating func scan(_ folder: String) {
        for room in FolderListing.names(in: folder) where room != ".review" {
            let roomFolder = folder + "/" + room
            for name in FolderListing.names(in: roomFolder) {
                var info = Glibc.stat()
                guard lstat(roomFolder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                if name.hasPrefix(".upload-") {
                    unlink(roomFolder + "/" + name)
                    continue
                }
                // A waiting photo's sender (`PhotoUploads.senderFile`) is no photo.
                guard !name.hasPrefix(".") else { continue }
                bytes += Int64(info.st_size)
                if let hash = UploadNaming.hash(inName: name) { byHash[hash] = roomFolder + "/" + name }
            }
        }
    }

    /// The kept photo whose content has this SHA-256, if its file is still there: its path.
    func path(ofHash hash: String) -> String? {
        guard let path = byHash[String(hash.prefix(UploadNaming.hashLength))], access(path, F_OK) == 0 else {
            return nil
        }
        return path
    }

    /// As `path(ofHash:)`, and failing that, looks through the names in `folder` as the start does:
    /// in a group, another instance may have kept these bytes since (its file is then counted too).
    mutating func find(hash: String, in folder: String) -> String? {
        if let path = path(ofHash: hash) { return path }
        let wanted = String(hash.prefix(UploadNaming.hashLength))
        for albums in [folder, folder + "/.review"] {
            for room in FolderListing.names(in: albums) where room != ".review" {
                let roomFolder = albums + "/" + room
                for name in FolderListing.names(in: roomFolder) where UploadNaming.hash(inName: name) == wanted {
                    var info = Glibc.stat()
                    guard lstat(roomFolder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                        continue
                    }
                    add(path: roomFolder + "/" + name, hash: wanted, bytes: Int64(info.st_size))
                    return roomFolder + "/" + name
                }
            }
        }
        return nil
    }

    mutating func add(path: String, hash: String?, bytes: Int64) {
        self.bytes += bytes
        if let hash { byHash[String(hash.prefix(UploadNaming.hashLength))] = path }
    }

    mutating func remove(path: String, bytes: Int64) {
        self.bytes -= bytes
        byHash = byHash.filter { $0.value != path }
    }

    /// Holds `more` bytes for an upload in flight if the stored and held bytes leave room under
    /// `quota`; whether it did.
    mutating func hold(_ more: Int64, within quota: Int64) -> Bool {
        guard bytes + held + more <= quota else { return false }
        held += more
        return true
    }

    /// Gives back bytes `hold` took.
    mutating func release(held amount: Int64) { held -= amount }

    /// A tenth of this is the default quota.
    static func freeBytes(at folder: String) -> Int64 {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return 0 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
