import Foundation

/// The `stackweb` binary built next to the test bundle, run on an ephemeral port.
final class ServerProcess {
    let process = Process()
    let port: UInt16
    /// The server's standard output after its first line.
    let output: FileHandle

    /// The server's standard error, when it was asked for (`start(captureErrors:)`); otherwise the
    /// server writes to the test runner's.
    let errors: FileHandle?

    /// `readPhotos`: returns once the server has read every photo it found (it answers before).
    /// `environment`: variables added to the test runner's for the server.
    /// `asNobody`: run as the user `nobody` (through `setpriv`), so that a root test run meets the
    /// permissions the packaged server does.
    static func start(
        arguments: [String] = [], readPhotos: Bool = true, captureErrors: Bool = false,
        environment: [String: String] = [:], asNobody: Bool = false
    ) throws -> ServerProcess {
        let server = try ServerProcess(
            arguments: arguments, captureErrors: captureErrors, environment: environment, asNobody: asNobody)
        if readPhotos { _ = server.hasReadItsPhotos(within: 30) }
        return server
    }

    /// A test that fails before it stops its server must not leave it running: it would hold the
    /// test runner's standard error open, and `swift test` would wait for it forever.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Polls `/metrics` until the server says it is no longer reading photos it found.
    func hasReadItsPhotos(within seconds: Double) -> Bool {
        let http = HTTPTestClient(port: port)
        return Poll.until(seconds) {
            (try? http.get("/metrics").text)?.contains("stackweb_photos_reading 0") == true
        }
    }

    private init(arguments: [String], captureErrors: Bool, environment: [String: String], asNobody: Bool) throws {
        let binary = try StackwebBinary.url()
        process.executableURL = asNobody ? URL(fileURLWithPath: "/usr/bin/setpriv") : binary
        process.arguments =
            (asNobody ? ["--reuid", "65534", "--regid", "65534", "--clear-groups", binary.path] : [])
            + StackwebBinary.serverArguments + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        let output = Pipe()
        process.standardOutput = output
        let errors = captureErrors ? Pipe() : nil
        if let errors { process.standardError = errors }
        self.errors = errors?.fileHandleForReading
        try process.run()
        // The first line names the URL with the port the kernel chose.
        var line = ""
        while !line.hasSuffix("\n") {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            line += String(decoding: byte, as: UTF8.self)
        }
        guard let range = line.range(of: #":(\d+)/"#, options: .regularExpression),
            let port = UInt16(line[range].dropFirst().dropLast())
        else {
            process.terminate()
            throw TestSocket.Failure.malformed
        }
        self.port = port
        self.output = output.fileHandleForReading
    }

    /// The next line the server printed (blocks until it comes), without its newline.
    func nextLine() -> String? {
        var line: [UInt8] = []
        while true {
            let byte = output.readData(ofLength: 1)
            guard let first = byte.first else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
    }

    /// User plus system CPU time of the server process so far.
    func cpuSeconds() throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces) start after the last ')'.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The process's peak resident memory so far (`VmHWM`), in KiB.
    func peakMemoryKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Closes the test's ends of the server's output and standard error (`captureErrors`): what
    /// the server writes from now on has no reader.
    func closeItsOutput() {
        try? output.close()
        try? errors?.close()
    }

    /// Sends SIGTERM and returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
