import Foundation

/// Finds the folder holding `web/` and `demo-photos/`, whether the binary runs from `swift run`,
/// from the build folder, or from an install prefix.
enum ResourceLocator {
    static func locate(explicit: String?, executable: String = runningExecutable()) -> String? {
        if let explicit { return isResourceFolder(explicit) ? explicit : nil }
        return candidates(executable: executable).first(where: isResourceFolder)
    }

    /// The running binary's real path (`argv[0]` may be relative or a symlink).
    static func runningExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func isResourceFolder(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/web/index.html")
    }

    /// `<prefix>/share/stackweb` for an installed binary, then `Resources/` in any folder above the
    /// executable (a build inside the source tree), then below the working directory.
    private static func candidates(executable: String) -> [String] {
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL
        var found = [folder.deletingLastPathComponent().appendingPathComponent("share/stackweb").path]
        while folder.path != "/" {
            found.append(folder.appendingPathComponent("Resources").path)
            folder.deleteLastPathComponent()
        }
        found.append(FileManager.default.currentDirectoryPath + "/Resources")
        return found
    }
}
