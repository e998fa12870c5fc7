@testable import StackWebServer

extension OperatorLog {
    /// A log in `format` whose lines are kept, for the test to read, instead of written to stderr.
    static func capturing(_ format: OperatorLog.Format, redacting secret: String? = nil) -> (
        OperatorLog, Locked<[String]>
    ) {
        let lines = Locked<[String]>([])
        let log = OperatorLog(format: format, redacting: secret) { line in lines.withLock { $0.append(line) } }
        return (log, lines)
    }
}
