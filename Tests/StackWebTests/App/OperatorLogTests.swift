import Foundation
import Testing

@testable import StackWebServer

@Suite struct OperatorLogTests {
    @Test func textLinesAreOnePlainLineEach() {
        let (log, lines) = OperatorLog.capturing(.text)
        log.record("folder.gone", "photo folder /p is gone; waiting for it", ["folder": .string("/p")])
        log("something odd")
        #expect(
            lines.withLock { $0 } == [
                "stackweb: photo folder /p is gone; waiting for it\n", "stackweb: something odd\n",
            ])
    }

    @Test func jsonLinesAreOneObjectEach() throws {
        let (log, lines) = OperatorLog.capturing(.json)
        log.record(
            "start", "listening \"here\"\nnow",
            ["url": .string("http://127.0.0.1:8080/"), "photos": .int(3), "addresses": .strings(["a", "b"])])
        let line = try #require(lines.withLock { $0.first })
        #expect(line.hasSuffix("}\n") && line.dropLast().allSatisfy { $0 != "\n" })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["event"] as? String == "start")
        #expect(object["message"] as? String == "listening \"here\"\nnow")
        #expect(object["url"] as? String == "http://127.0.0.1:8080/")
        #expect(object["photos"] as? Int == 3)
        #expect(object["addresses"] as? [String] == ["a", "b"])
        let time = try #require(object["time"] as? String)
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(time)")
    }

    @Test(arguments: OperatorLog.Format.allCases)
    func theTokenNeverReachesALine(format: OperatorLog.Format) {
        let token = "s3cret-token-0123456789"
        let (log, lines) = OperatorLog.capturing(format, redacting: token)
        log.record("start", "control: http://h/?token=\(token)", ["control": .strings(["?token=\(token)"])])
        log.redacting(nil)("again \(token)")
        #expect(lines.withLock { $0 }.allSatisfy { !$0.contains(token) && $0.contains("<token>") })
    }

    @Test func timestampsAreUTCWithMilliseconds() {
        #expect(OperatorLog.timestamp(Date(timeIntervalSince1970: 1_796_040_000.007)) == "2026-11-30T12:00:00.007Z")
    }
}
