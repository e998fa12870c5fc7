import Foundation
import Testing

/// Idle viewers must cost no CPU: the SSE reader suspends its connection instead of returning 0
/// (which would busy-loop libmicrohttpd). Measured on the real binary in its own process, so the
/// test runner's other work does not count.
@Suite struct IdleCostTests {
    @Test func twentyIdleViewersCostNoCPU() throws {
        let server = try ServerProcess.start()
        let viewers = try (0..<20).map { _ in try SSETestClient(port: server.port, path: "/api/rooms/main/events") }
        for viewer in viewers { _ = try viewer.next() }
        let before = try server.cpuSeconds()
        Thread.sleep(forTimeInterval: 2)  // the measurement interval itself, not a wait for a result
        let used = try server.cpuSeconds() - before
        // A busy loop would burn ~2 s here; an idle server needs a few milliseconds at most.
        #expect(used < 0.1, "idle server used \(used) s of CPU in 2 s")
        // SIGTERM closes the 20 parked streams and exits cleanly (a sanitizer report would not).
        #expect(server.stop() == 0)
    }
}
