import Dispatch
import Foundation
import Glibc
import StackWebServer

/// Entry point: parse the configuration, start, print where to look, run until SIGINT/SIGTERM.
private func run() -> Never {
    let outcome: Configuration.Outcome
    do {
        outcome = try Configuration.parse(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    } catch {
        FileHandle.standardError.write(Data("stackweb: \(error)\n\(Configuration.usage)\n".utf8))
        exit(2)
    }
    switch outcome {
    case .help:
        print(Configuration.usage)
        exit(0)
    case .version:
        print("stackweb \(Configuration.version)")
        exit(0)
    case .run(let configuration):
        // A viewer that vanishes mid-write must not kill the server.
        signal(SIGPIPE, SIG_IGN)
        raiseOpenFileLimit()
        // Listening before start-up, not after: libdispatch installs its handler asynchronously,
        // and a SIGTERM sent as soon as the URL is printed would otherwise find it ignored.
        let waitForTermination = listenForTermination()
        let app: Application
        do {
            app = try Application(configuration: configuration)
        } catch {
            FileHandle.standardError.write(Data("stackweb: \(error)\n".utf8))
            exit(1)
        }
        say("StackWeb \(Configuration.version) listening on \(app.url)")
        // The token only to a person at a terminal, never to a log (systemd's journal).
        for line in app.addressLines(toTerminal: isatty(STDOUT_FILENO) == 1) { say(line) }
        waitForTermination()
        app.stop()
        say("StackWeb stopped")
        exit(0)
    }
}

/// Every viewer holds a socket: lift the soft descriptor limit (often 1,024) to the hard one.
private func raiseOpenFileLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// Writes a line to standard output at once (print is block-buffered when stdout is a pipe).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Starts listening for SIGINT and SIGTERM; the function returned blocks until one arrives.
private func listenForTermination() -> () -> Void {
    let received = DispatchSemaphore(value: 0)
    var sources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM] {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { received.signal() }
        source.resume()
        sources.append(source)
    }
    return {
        received.wait()
        withExtendedLifetime(sources) {}
    }
}

CVipsSetup.start()
run()
