import Foundation

/// Fresh, unique places under the system's temporary folder, so tests never share a file.
enum TemporaryFiles {
    /// A state database's path in a folder not created yet: the server creates both.
    static func databasePath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-\(UUID().uuidString)/state.db").path
    }

    /// An empty folder, created.
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}
