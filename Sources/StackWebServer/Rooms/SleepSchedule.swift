import Foundation

/// The daily window in which the frame's screens are dark, in local time: `23:00-07:00` wraps
/// midnight. Starts at `start` (inclusive) and ends at `end` (exclusive), to the minute.
struct SleepSchedule: Equatable, Sendable {
    /// Minutes after local midnight.
    let start: Int
    let end: Int

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Reads `HH:MM-HH:MM` (hours 0–23, minutes 0–59; one-digit hours allowed).
    init(parsing text: String) throws(Failure) {
        let usage = "--sleep must be HH:MM-HH:MM in local time, e.g. 23:00-07:00 (hours 0 to 23, minutes 0 to 59)"
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let start = Self.minutes(ends[0]), let end = Self.minutes(ends[1]) else {
            throw Failure(description: "\(usage); got '\(text.prefix(40))'")
        }
        guard start != end else { throw Failure(description: "--sleep needs different start and end times") }
        self.init(start: start, end: end)
    }

    private static func minutes(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// Whether `minute` (after local midnight) is inside the window.
    func contains(minute: Int) -> Bool {
        start < end ? (start..<end).contains(minute) : minute >= start || minute < end
    }

    /// Whether the local time at `date` is inside the window.
    func contains(_ date: Date, calendar: Calendar = .current) -> Bool {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return contains(minute: (parts.hour ?? 0) * 60 + (parts.minute ?? 0))
    }

    /// The first moment after `date` at which the window starts or ends (daylight saving changes
    /// included: the calendar finds the next real occurrence).
    func nextBoundary(after date: Date, calendar: Calendar = .current) -> Date {
        let candidates = [start, end].compactMap { minute in
            calendar.nextDate(
                after: date, matching: DateComponents(hour: minute / 60, minute: minute % 60, second: 0),
                matchingPolicy: .nextTime)
        }
        return candidates.min() ?? date.addingTimeInterval(60)
    }
}
