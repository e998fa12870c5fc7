import Testing

@testable import StackWebServer

/// The `Range` header against a file of 1000 bytes: one span, the whole file, or 416.
struct ByteRangeTests {
    @Test(
        arguments: [
            ("bytes=0-99", ByteRange.partial(offset: 0, length: 100)),
            ("bytes=0-0", .partial(offset: 0, length: 1)),
            ("bytes=500-", .partial(offset: 500, length: 500)),
            ("bytes=999-", .partial(offset: 999, length: 1)),
            ("bytes=900-5000", .partial(offset: 900, length: 100)),
            ("bytes=-100", .partial(offset: 900, length: 100)),
            ("bytes=-5000", .partial(offset: 0, length: 1000)),
            ("BYTES = 10-19", .partial(offset: 10, length: 10)),
            ("bytes=1000-", .unsatisfiable),
            ("bytes=1000-1001", .unsatisfiable),
            ("bytes=-0", .unsatisfiable),
            ("bytes=0-1,5-9", .whole),
            ("bytes=20-10", .whole),
            ("bytes=a-b", .whole),
            ("bytes=-", .whole),
            ("bytes=+5-9", .whole),
            ("bytes=5 -9", .whole),
            ("items=0-9", .whole),
            ("bytes 0-9", .whole),
            ("bytes=99999999999999999999-", .whole),
            ("", .whole),
        ] as [(String, ByteRange)])
    func rangeOfAThousandBytes(_ header: String, _ expected: ByteRange) {
        #expect(ByteRange(header: header, size: 1000) == expected)
    }

    @Test func noHeaderIsTheWholeFile() {
        #expect(ByteRange(header: nil, size: 1000) == .whole)
    }

    @Test func anEmptyFileHasNoSuffix() {
        #expect(ByteRange(header: "bytes=-10", size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-", size: 0) == .unsatisfiable)
    }

    @Test func aHeaderPastItsLengthIsIgnored() {
        #expect(ByteRange(header: "bytes=0-9" + String(repeating: " ", count: 200), size: 1000) == .whole)
    }

    @Test(
        arguments: [
            (nil, true), ("\"abc\"", true), (" \"abc\" ", true), ("\"abd\"", false), ("W/\"abc\"", false),
            ("Fri, 04 Dec 2026 21:00:00 GMT", false),
        ] as [(String?, Bool)])
    func ifRange(_ header: String?, _ applies: Bool) {
        #expect(ByteRange.applies(ifRange: header, etag: "\"abc\"") == applies)
    }
}
