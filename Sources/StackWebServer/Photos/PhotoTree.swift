import Glibc

/// The photo folder as the library reads it: the folder itself, and at most one sub-folder kept
/// elsewhere — guests' photos when the photo folder is read-only (`UploadsFolder`). Every path
/// below the photo folder becomes a real path here, so the mounted folder's photos have paths
/// (`Uploads/ROOM/name.jpg`), ids, albums, captions and variants as if it were inside.
struct PhotoTree: Sendable, Equatable {
    /// A folder shown as the sub-folder `name` of the photo folder.
    struct Mount: Sendable, Equatable {
        var name: String
        /// Its real path.
        var folder: String
    }

    /// The photo folder's path.
    let root: String
    let mount: Mount?

    init(root: String, mount: Mount? = nil) {
        self.root = root
        self.mount = mount
    }

    /// Where the file or folder at `relative` (below the photo folder; "" is the folder) is.
    func path(of relative: String) -> String {
        guard !relative.isEmpty else { return root }
        if let mount {
            if relative == mount.name { return mount.folder }
            if relative.hasPrefix(mount.name + "/") { return mount.folder + relative.dropFirst(mount.name.count) }
        }
        return root + "/" + relative
    }

    /// The folder at `relative`, listed; at the root the mounted folder stands for a sub-folder of
    /// its name (while it is there), and a folder of that name in the photo folder is not read.
    /// Nil when it cannot be opened.
    func listing(of relative: String) -> FolderListing? {
        guard var listing = FolderListing(path: path(of: relative)) else { return nil }
        if relative.isEmpty, let mount {
            listing.subfolders.remove(mount.name)
            if Self.isFolder(mount.folder) { listing.subfolders.insert(mount.name) }
        }
        return listing
    }

    /// The names of the subfolders of the folder at `relative`, as `listing(of:)` gives them.
    func subfolders(of relative: String) -> [String] {
        var names = FolderListing.subfolders(of: path(of: relative))
        if relative.isEmpty, let mount {
            names.removeAll { $0 == mount.name }
            if Self.isFolder(mount.folder) { names.append(mount.name) }
        }
        return names
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
