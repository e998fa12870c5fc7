import Foundation
import StackModel

/// Earlier versions kept every room in one JSON file at the `--state` path. Such a file is read
/// once, moved aside (`<path>.imported.json`), and its rooms go into the database made at the path.
enum StateFileImport {
    /// The rooms of a JSON state file at `path`, moved aside; `nil` when the path holds no such file
    /// (nothing there yet, or already a SQLite database). A JSON file that cannot be read is moved to
    /// `<path>.corrupt-<time>` for a person to look at, and the server starts clean. A path that is
    /// not a regular file is refused (`StateRefusal.head`), before anything reads it.
    static func takeJSONStateFile(
        at path: String, defaultStyle: StyleName, log: @Sendable (String) -> Void
    ) throws -> [String: SavedStack]? {
        guard let head = try StateRefusal.head(of: path) else { return nil }
        guard !head.elementsEqual("SQLite format 3\0".utf8), !head.isEmpty else { return nil }
        guard let data = FileManager.default.contents(atPath: path),
            let file = try? JSONDecoder().decode(StateFile.self, from: data)
        else {
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            try FileManager.default.moveItem(atPath: path, toPath: aside)
            log(
                "warning: \(path) is neither a StackWeb database nor a state file; moved it to \(aside) and started clean"
            )
            return nil
        }
        try FileManager.default.moveItem(atPath: path, toPath: path + ".imported.json")
        return file.savedStacks(defaultStyle: defaultStyle)
    }
}
