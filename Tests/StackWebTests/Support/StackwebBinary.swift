import Foundation

/// The `stackweb` binary built next to the test bundle: where it is, the options a test server
/// starts with, and one run of it to its end.
enum StackwebBinary {
    /// The binary: `swift build` puts it in the folder of the test runner's own executable.
    static func url() throws -> URL {
        URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .deletingLastPathComponent()
            .appendingPathComponent("stackweb")
    }

    /// An ephemeral port and the repository's resources: what every server a test starts is given.
    static var serverArguments: [String] {
        ["--port", "0", "--resources", TestServer.repositoryRoot.appendingPathComponent("Resources").path]
    }

    /// The binary run with `arguments` to its end: its exit status and standard error.
    /// `asNobody`: run as the user `nobody` (through `setpriv`).
    static func run(_ arguments: [String], asNobody: Bool = false) throws -> (status: Int32, errors: String) {
        let process = Process()
        let binary = try url()
        process.executableURL = asNobody ? URL(fileURLWithPath: "/usr/bin/setpriv") : binary
        process.arguments =
            asNobody ? ["--reuid", "65534", "--regid", "65534", "--clear-groups", binary.path] + arguments : arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, said)
    }
}
