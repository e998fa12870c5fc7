import Foundation

/// Waiting on a real server, a real folder or a real Redis without sleeping a guessed time: a
/// condition is polled until it holds or a deadline passes.
enum Poll {
    /// Polls `condition` every 10 ms until it holds or `seconds` pass; whether it held.
    static func until(_ seconds: Double = 3, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return try condition()
    }
}
