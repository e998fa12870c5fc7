import Foundation
import Glibc

/// Where guests' photos are kept, decided once at start: `--uploads-dir`, else `Uploads/` inside
/// the photo folder, else — the photo folder read-only (a NAS mounted so, a folder of another
/// user's) — `Uploads/` beside the `--state` file. A folder outside the photo folder is mounted
/// into it (`PhotoTree`) as its sub-folder `Uploads`, so its photos are ordinary library photos.
///
/// Once kept beside the state, they stay there (the photo folder writable again changes nothing),
/// so a restart never loses them; a hidden marker file tells that folder from one of the operator's
/// that happens to have its name. A photo folder with an `Uploads/` folder of its own while guests'
/// photos are kept elsewhere is refused at start: one would hide the other.
struct UploadsFolder: Equatable {
    /// Its real path (made if it was not there and photos are taken).
    var path: String
    /// Its path below the photo folder: what the library calls its photos by.
    var relative: String
    /// Set when it is kept outside the photo folder.
    var mount: PhotoTree.Mount?

    /// Where guests' photos are for the photo folder `root` (a real path). `taking`: whether rooms
    /// take photos — then a folder is made, and with none possible the start is refused; without,
    /// a folder already used is still shown.
    static func locate(
        folder given: String?, photos root: String, state: String?, taking: Bool
    ) throws(Configuration.Failure) -> UploadsFolder {
        let name = UploadSettings.defaultFolderName
        let inside = root + "/" + name
        if let given {
            if taking { _ = mkdir(given, 0o755) }
            let path = PhotoScanner.realPath(given)
            if path.hasPrefix(root + "/") {
                return UploadsFolder(path: path, relative: String(path.dropFirst(root.count + 1)))
            }
            return try mounted(path, photos: root, option: "--uploads-dir \(given)")
        }
        // Beside the state — unless the state is in the photo folder, whose `Uploads/` that is.
        let beside = state.map {
            PhotoScanner.realPath(URL(fileURLWithPath: $0).deletingLastPathComponent().path) + "/" + name
        }.flatMap { $0 == inside ? nil : $0 }
        let option = "--state \(state ?? "")"
        // Kept there before: stays there (refused if the photo folder has an `Uploads/` since).
        if let beside, access(beside + "/" + marker, F_OK) == 0 {
            return try mounted(beside, photos: root, option: option)
        }
        if PhotoTree.isFolder(inside) {
            guard !taking || isWritable(inside) else {
                throw Configuration.Failure(
                    description: "guests' photos cannot be kept in \(inside): it is read-only, and a folder "
                        + "elsewhere would hide it; rename it or make it writable, or pass --uploads-dir DIR inside "
                        + "--photos")
            }
            return UploadsFolder(path: inside, relative: name)
        }
        // Not taking photos, nothing is made: no probe in the operator's folder.
        if !taking || isWritable(root) { return UploadsFolder(path: inside, relative: name) }
        guard let beside else {
            throw Configuration.Failure(
                description: "the photo folder \(root) is read-only and there is no --state to keep guests' photos "
                    + "beside: pass --uploads-dir DIR (a writable folder)")
        }
        let made = try mounted(beside, photos: root, option: option)
        _ = mkdir(beside, 0o755)
        let descriptor = open(beside + "/" + marker, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor >= 0 { close(descriptor) }
        return made
    }

    /// The hidden file that says a folder `Uploads` beside the state holds guests' photos: one the
    /// operator keeps there for something else (a home folder's) is never shown.
    static let marker = ".stackweb-uploads"

    /// `path`, outside the photo folder, shown as its sub-folder `Uploads`.
    private static func mounted(
        _ path: String, photos root: String, option: String
    ) throws(Configuration.Failure) -> UploadsFolder {
        let name = UploadSettings.defaultFolderName
        guard path != root, !root.hasPrefix(path + "/") else {
            throw Configuration.Failure(
                description: "guests' photos cannot be kept in \(path) (\(option)): it holds --photos")
        }
        guard !PhotoTree.isFolder(root + "/" + name) else {
            throw Configuration.Failure(
                description: "guests' photos are kept in \(path) (\(option)) and shown as \(name)/ of --photos "
                    + "\(root), which has a folder \(name) of its own: rename that folder, or pass an --uploads-dir "
                    + "inside --photos")
        }
        return UploadsFolder(path: path, relative: name, mount: PhotoTree.Mount(name: name, folder: path))
    }

    /// Whether a file can be made in `folder`: tried with a hidden file made and removed, since
    /// `access` says yes to root where a network share squashes root or a FUSE mount says no.
    static func isWritable(_ folder: String) -> Bool {
        let probe = folder + "/.stackweb-write-probe-\(getpid())"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        unlink(probe)
        return true
    }
}
