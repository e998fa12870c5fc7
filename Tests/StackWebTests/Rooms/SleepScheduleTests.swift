import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// `--sleep HH:MM-HH:MM`: which minutes are dark, when the next boundary is, and what viewers hear.
@Suite struct SleepScheduleTests {
    static let night = SleepSchedule(start: 23 * 60, end: 7 * 60)
    static let lunch = SleepSchedule(start: 12 * 60, end: 13 * 60 + 30)

    @Test(arguments: [
        (22 * 60 + 59, false), (23 * 60, true), (23 * 60 + 59, true), (0, true), (6 * 60 + 59, true),
        (7 * 60, false), (12 * 60, false),
    ])
    func aWindowThatWrapsMidnight(minute: Int, asleep: Bool) {
        #expect(Self.night.contains(minute: minute) == asleep)
    }

    @Test(arguments: [(11 * 60 + 59, false), (12 * 60, true), (13 * 60 + 29, true), (13 * 60 + 30, false), (0, false)])
    func aWindowWithinOneDay(minute: Int, asleep: Bool) {
        #expect(Self.lunch.contains(minute: minute) == asleep)
    }

    @Test func parsing() throws {
        #expect(try SleepSchedule(parsing: "23:00-07:00") == Self.night)
        #expect(try SleepSchedule(parsing: "7:05-9:00") == SleepSchedule(start: 425, end: 540))
        #expect(try SleepSchedule(parsing: "0:00-23:59") == SleepSchedule(start: 0, end: 1439))
        for bad in [
            "25:00-7", "24:00-07:00", "23:00", "23:00-", "-07:00", "23-07", "23:0-07:00", "7:00-7:00", "+1:00-2:00",
        ] {
            #expect(throws: SleepSchedule.Failure.self, "\(bad)") { try SleepSchedule(parsing: bad) }
        }
    }

    @Test func theNextBoundaryIsTheNearerOfStartAndEnd() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "Europe/Paris"))
        let at = { (day: Int, hour: Int, minute: Int) in
            calendar.date(from: DateComponents(year: 2024, month: 3, day: day, hour: hour, minute: minute))!
        }
        #expect(Self.night.nextBoundary(after: at(10, 22, 0), calendar: calendar) == at(10, 23, 0))
        #expect(Self.night.nextBoundary(after: at(10, 23, 0), calendar: calendar) == at(11, 7, 0))
        #expect(Self.night.nextBoundary(after: at(11, 3, 0), calendar: calendar) == at(11, 7, 0))
        // 31 March 2024: Paris moves from 02:00 to 03:00; 07:00 is still 07:00 on the wall.
        #expect(Self.night.nextBoundary(after: at(31, 1, 0), calendar: calendar) == at(31, 7, 0))
        #expect(Self.night.contains(at(31, 3, 30), calendar: calendar))
    }

    /// A window from a minute ago to two minutes ahead, or one that ended a minute ago.
    static func window(coveringNow: Bool) -> SleepSchedule {
        let parts = Calendar.current.dateComponents([.hour, .minute], from: Date())
        let now = parts.hour! * 60 + parts.minute!
        let day = 24 * 60
        return coveringNow
            ? SleepSchedule(start: (now + day - 1) % day, end: (now + 2) % day)
            : SleepSchedule(start: (now + day - 3) % day, end: (now + day - 1) % day)
    }

    @Test(arguments: [true, false])
    func theSnapshotSaysWhetherTheScreensAreDark(asleep: Bool) throws {
        let server = try TestServer { $0.sleep = Self.window(coveringNow: asleep) }
        #expect(try server.snapshot()["asleep"] as? Bool == asleep)
        #expect(try TestServer().snapshot()["asleep"] as? Bool == false)
    }

    @Test func aBoundaryIsBroadcastAsAChange() throws {
        let room = Room.forTests(photos: 3)
        let sink = RecordingSink()
        room.subscribe(sink, lastEventID: nil)
        try room.handle(.sleepChanged(asleep: true))
        let change = try #require(sink.events.last)
        #expect(change.contains(#""asleep":true"#))
        #expect(change.hasPrefix("id: 1\nevent: change\n"))
    }
}
