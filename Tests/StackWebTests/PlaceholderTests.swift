import Testing

@Suite struct ServerPlaceholderTests {
    @Test func builds() { #expect(Bool(true)) }
}
