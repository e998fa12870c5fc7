import Glibc

extension Application {
    /// The rooms' albums (`--album`), each checked to be a folder inside the photo folder — not a
    /// link out of it, not missing: a frame that would show nothing is refused at start. `uploads`:
    /// where guests' photos are, whose `ROOM/` sub-folder each room with an album shows too.
    static func albums(_ configuration: Configuration, folder: String, uploads: UploadsFolder?) throws -> RoomAlbums {
        guard !configuration.albums.isEmpty else { return RoomAlbums() }
        guard configuration.photos != nil else {
            throw Configuration.Failure(description: "--album needs --photos: an album is a folder inside it")
        }
        let root = PhotoScanner.realPath(folder)
        let tree = PhotoTree(root: root, mount: uploads?.mount)
        for (room, album) in configuration.albums.sorted(by: { $0.key < $1.key }) {
            let path = tree.path(of: album.split(separator: "/").filter { $0 != "." }.joined(separator: "/"))
            var info = stat()
            guard PhotoScanner.realPath(path) == path, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw Configuration.Failure(
                    description: "--album \(room)=\(album): \(path) is not a folder inside --photos \(root)")
            }
        }
        return RoomAlbums(albums: configuration.albums, uploads: uploads?.relative)
    }
}
