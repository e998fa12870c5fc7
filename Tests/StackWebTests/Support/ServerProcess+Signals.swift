import Foundation

extension ServerProcess {
    /// SIGKILL, as a crash or the OOM killer would: nothing is flushed. Waits for the exit.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGSTOP: the process stays, frozen, every thread and timer with it.
    func pause() { kill(process.processIdentifier, SIGSTOP) }

    /// SIGCONT after `pause`.
    func resume() { kill(process.processIdentifier, SIGCONT) }

    /// Ends the process whatever its state (stopped, running or gone), for a test's `defer`: a test
    /// that failed halfway leaves no server behind, paused or not.
    func end() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGCONT)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
