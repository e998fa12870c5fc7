import Foundation
import StackModel
import Testing

@testable import StackWebServer

@Suite struct JSONWriterTests {
    @Test func escapesAndNumbers() throws {
        var writer = JSONWriter()
        writer.object { json in
            json.field("s", "a\"b\\c\nd\u{1}")
            json.field("i", 42)
            json.field("d", 0.5)
            json.field("w", 3.0)
            json.field("n", Double.nan)
            json.field("b", true)
            json.array("a") {
                $0.number(1); $0.string("x")
            }
        }
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text == #"{"s":"a\"b\\c\nd\u0001","i":42,"d":0.5,"w":3,"n":0,"b":true,"a":[1,"x"]}"#)
        #expect(!text.contains("\n"))
        _ = try JSONSerialization.jsonObject(with: Data(writer.bytes))
    }
}
