import Foundation
import StackModel

/// Server time, the one clock read of the server: milliseconds since the Unix epoch (pages turn it
/// into their own clock with the `serverTime` of each message).
enum Clock {
    @Sendable static func now() -> Millis { Date().timeIntervalSince1970 * 1000 }
}
