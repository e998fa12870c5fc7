import Foundation
import StackModel
import Testing

@testable import StackWebServer

@Suite struct LastEventIDTests {
    @Test(
        arguments: [
            ("0", 0), ("42", 42), ("007", 7), ("9223372036854775807", Int.max), ("9223372036854775808", nil),
            ("-1", nil), ("+1", nil), (" 1", nil), ("1 ", nil), ("1e3", nil), ("", nil), ("banana", nil),
            ("99999999999999999999", nil), ("١٢", nil),
        ] as [(String, Int?)])
    func parses(header: String, id: Int?) {
        #expect(LastEventID.parse(header) == id)
    }
}
