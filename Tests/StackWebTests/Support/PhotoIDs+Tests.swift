@testable import StackWebServer

extension PhotoIDs {
    /// Ids for tests that make libraries without a server: any fixed secret does.
    static let test = PhotoIDs(secret: Array("a secret for tests only".utf8))

    /// The ids a server started with `--state state` gives its photos: keyed with the secret its
    /// database keeps.
    static func kept(in state: String) throws -> PhotoIDs {
        let database = try SQLiteDatabase(path: state)
        let query = try database.prepare("SELECT value FROM secrets WHERE name = ?1")
        try query.bind([.text(secretName)])
        guard try query.step() else { throw SQLiteError(code: 0, message: "no photo secret in \(state)") }
        return PhotoIDs(secret: Array(query.text(0).utf8))
    }
}

extension TestServer {
    /// The id this server gives the photo at `relative` below its folder.
    func photoID(_ relative: String) -> String { app.photoIDs.id(of: relative) }
}
