import Testing

@testable import StackWebServer

/// The rule of uploads at once and a minute, on a clock passed in.
@Suite struct UploadLimiterTests {
    @Test func perAddressThenInAll() {
        var limiter = UploadLimiter(perAddress: 2, total: 3, perMinute: 0)
        #expect(limiter.admit("a", at: 0) == nil)
        #expect(limiter.admit("a", at: 0) == nil)
        #expect(limiter.admit("a", at: 0) == .tooManyAtOnce)
        #expect(limiter.admit("b", at: 0) == nil)
        #expect(limiter.admit("c", at: 0) == .serverBusy)
        limiter.release("a")
        #expect(limiter.admit("c", at: 0) == nil)
    }

    @Test func aBurstThenOneEveryTwoSeconds() {
        var limiter = UploadLimiter(perAddress: 100, total: 100, perMinute: 30)
        for _ in 0..<30 { #expect(limiter.admit("a", at: 0) == nil) }
        #expect(limiter.admit("a", at: 0) == .tooFast(retryAfter: 2))
        #expect(limiter.admit("a", at: 1) == .tooFast(retryAfter: 1))
        #expect(limiter.admit("a", at: 2) == nil)
        // Another address has its own burst.
        #expect(limiter.admit("b", at: 2) == nil)
    }

    @Test func aRefusedUploadCostsNoPhotoOfTheRate() {
        var limiter = UploadLimiter(perAddress: 1, total: 10, perMinute: 1)
        #expect(limiter.admit("a", at: 0) == nil)
        #expect(limiter.admit("a", at: 0) == .tooManyAtOnce)
        limiter.release("a")
        #expect(limiter.admit("a", at: 60) == nil)
    }
}
