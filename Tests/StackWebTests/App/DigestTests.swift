import Testing

@testable import StackWebServer

/// GnuTLS's digests as the server calls them, against published vectors, and what an instance
/// that knows only the group token's digest prints.
@Suite struct DigestTests {
    @Test func sha256OfABCIsTheFIPSVector() {
        #expect(
            Digest.hex(Digest.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// RFC 4231, test case 2.
    @Test func hmacSHA256IsTheRFC4231Vector() {
        let mac = Digest.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
        #expect(Digest.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hexReadsBackWhatItWrote() {
        let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xFE, 0xFF]
        #expect(Digest.bytes(hex: Digest.hex(bytes)) == bytes)
        #expect(Digest.bytes(hex: "ABcd") == [0xAB, 0xCD])
        #expect(Digest.bytes(hex: "abc") == nil)
        #expect(Digest.bytes(hex: "zz") == nil)
    }

    @Test func anInstanceThatDidNotDrawTheGroupsTokenSaysWhereItWasPrinted() {
        let lines = ControlTokenNotice.lines(base: "http://frame:8080/", token: nil, source: .group, toTerminal: true)
        #expect(
            lines == [
                "  control: http://frame:8080/?token=<token> (the group's generated token, printed by the instance that drew it, the first to start)"
            ])
    }
}
