import Dispatch
import Foundation
import Glibc
import StackWebServer

/// Entry point: parse the configuration, start, print where to look, run until SIGINT/SIGTERM.
private func run(waitForTermination: () -> Void) -> Never {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let verb = arguments.first, verb == "backup" || verb == "restore" {
        copyState(verb, Array(arguments.dropFirst()))
    }
    let outcome: Configuration.Outcome
    do {
        outcome = try Configuration.parse(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    } catch {
        // One line, in the log's format as far as it could be read; the usage only on request:
        // 60 lines in a journal bury the one that matters. 78 (EX_CONFIG): not restarted.
        let format = Configuration.requestedLogFormat(
            arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        OperatorLog.standardError(format: format).record(
            "config.invalid", "\(error) (stackweb --help lists the options)")
        exit(Configuration.configurationErrorStatus)
    }
    switch outcome {
    case .help:
        print(Configuration.usage)
        exit(0)
    case .version:
        print("stackweb \(Configuration.versionWithCommit)")
        exit(0)
    case .run(let configuration):
        // A viewer that vanishes mid-write must not kill the server.
        signal(SIGPIPE, SIG_IGN)
        raiseOpenFileLimit()
        let app: Application
        do {
            app = try Application(configuration: configuration)
        } catch {
            OperatorLog.standardError(format: configuration.logFormat).record("start.failed", "\(error)")
            exit(Application.exitStatus(for: error))
        }
        switch app.log.format {
        case .text:
            say("StackWeb \(Configuration.version) listening on \(app.url)")
            // The token only to a person at a terminal, never to a log (systemd's journal).
            for line in app.addressLines(toTerminal: isatty(STDOUT_FILENO) == 1) { say(line) }
        case .json:
            app.logStart()
        }
        waitForTermination()
        app.stop()
        switch app.log.format {
        case .text: say("StackWeb stopped")
        case .json: app.log.record("stop", "StackWeb stopped")
        }
        exit(0)
    }
}

/// `stackweb backup FILE` and `stackweb restore FILE`, on the state `--state` (or `STACKWEB_STATE`)
/// names: one line saying what was done, or why not (exit 1; 78 for a command line that is wrong);
/// `--help` prints the command's help (exit 0).
private func copyState(_ verb: String, _ arguments: [String]) -> Never {
    if arguments.contains("--help") || arguments.contains("-h") {
        print(StateCommandHelp.text(verb))
        exit(0)
    }
    let environment = ProcessInfo.processInfo.environment
    let log = OperatorLog.standardError(
        format: Configuration.requestedLogFormat(arguments: arguments, environment: environment))
    guard let file = arguments.first, !file.hasPrefix("-"),
        case .run(let configuration) = try? Configuration.parse(
            arguments: Array(arguments.dropFirst()), environment: environment),
        let state = configuration.statePath
    else {
        log.record("config.invalid", "usage: stackweb \(verb) FILE --state PATH (or STACKWEB_STATE)")
        exit(Configuration.configurationErrorStatus)
    }
    do {
        let done =
            verb == "backup"
            ? try StateBackup.backup(state: state, to: file) : try StateBackup.restore(state: state, from: file)
        log.record("state.\(verb)", done)
        exit(0)
    } catch {
        log.record("state.\(verb).failed", "\(error)")
        exit(1)
    }
}

/// Every viewer holds a socket: lift the soft descriptor limit (often 1,024) to the hard one.
private func raiseOpenFileLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// Writes a line to standard output at once (print is block-buffered when stdout is a pipe); a
/// line nobody reads any more is dropped rather than stopping the server (`StandardStream`).
private func say(_ line: String) {
    StandardStream.output.write(line + "\n")
}

/// Blocks SIGINT and SIGTERM in this thread before any other thread exists, so that every thread
/// (libvips workers, libmicrohttpd, the folder watcher, dispatch workers) inherits the mask and none
/// can take one of them: they stay pending for the process until `sigwait` collects them. (A
/// dispatch signal source on Linux reads a signalfd and installs a handler that re-routes a signal
/// an unmasked thread took, libvips' workers among them, to its manager thread: it works, but it
/// is one mechanism more than the server needs to stop.)
/// The function returned blocks until one arrives, or returns at once if one came meanwhile.
private func listenForTermination() -> () -> Void {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    return {
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
    }
}

// First, before CVipsSetup starts libvips's threads.
let waitForTermination = listenForTermination()
CVipsSetup.start()
run(waitForTermination: waitForTermination)
