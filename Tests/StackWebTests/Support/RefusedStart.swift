import Foundation
import Glibc

/// The binary run until it exits by itself, or killed after a bound: a start that hangs fails the
/// test instead of the test run.
struct RefusedStart {
    /// The exit status; nil when it had not exited within the bound (it was killed).
    var status: Int32?
    var output: String
    var errors: String

    /// `asNobody`: run as the user `nobody` (through `setpriv`), so that a root test run meets
    /// the permissions an ordinary user does.
    init(arguments: [String], within seconds: Double, asNobody: Bool = false) throws {
        let process = Process()
        let binary = try StackwebBinary.url()
        let standard = StackwebBinary.serverArguments + arguments
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments =
                ["--reuid", "65534", "--regid", "65534", "--clear-groups", binary.path] + standard
        } else {
            process.executableURL = binary
            process.arguments = standard
        }
        let (output, errors) = (Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let exited = Poll.until(seconds) { !process.isRunning }
        if !exited { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        status = exited ? process.terminationStatus : nil
        // Read to the end only once it is gone: a killed server's pipes are closed.
        self.output = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        self.errors = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
}
