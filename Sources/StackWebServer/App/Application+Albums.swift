import Glibc

extension Application {
    /// The rooms' albums (`--album`), each checked to be a folder inside the photo folder — not a
    /// link out of it, not missing: a frame that would show nothing is refused at start.
    static func albums(_ configuration: Configuration, folder: String) throws -> RoomAlbums {
        guard !configuration.albums.isEmpty else { return RoomAlbums() }
        guard configuration.photos != nil else {
            throw Configuration.Failure(description: "--album needs --photos: an album is a folder inside it")
        }
        let root = PhotoScanner.realPath(folder)
        for (room, album) in configuration.albums.sorted(by: { $0.key < $1.key }) {
            let path = root + "/" + album.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
            var info = stat()
            guard PhotoScanner.realPath(path) == path, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw Configuration.Failure(
                    description: "--album \(room)=\(album): \(path) is not a folder inside --photos \(root)")
            }
        }
        let uploads =
            configuration.uploads.folder.map(PhotoScanner.realPath) ?? root + "/" + UploadSettings.defaultFolderName
        return RoomAlbums(
            albums: configuration.albums,
            uploads: uploads.hasPrefix(root + "/") ? String(uploads.dropFirst(root.count + 1)) : nil)
    }
}
