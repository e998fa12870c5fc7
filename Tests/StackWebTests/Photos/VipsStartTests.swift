import CVipsTestSupport
import Dispatch
import Foundation
import Testing

@testable import StackWebServer

/// libvips must be started once per process, and `vips_init` called from two threads at once lets
/// the second go on before the first has registered libvips' classes: its first operation aborts the
/// process. Whoever calls first — the server's conversions, a test's image — starts it for all.
/// Each check runs in a fresh process (an exit test), where nothing has started libvips yet.
struct VipsStartTests {
    /// Sixteen threads making an image at the same moment, as the first libvips calls of a process;
    /// in four processes, since a race is not lost every time (without the once-only start, two
    /// processes in three aborted).
    @Test func imagesMadeFromManyThreadsAtOnceStartLibvipsOnce() async {
        for _ in 0..<4 {
            await #expect(processExitsWith: .success) {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stackweb-vips-\(UUID())")
                    .path
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let written = Locked(0)
                DispatchQueue.concurrentPerform(iterations: 16) { index in
                    // Half as the server starts it, half straight through the tests' image helpers.
                    if index.isMultiple(of: 2) { CVipsSetup.start() }
                    if CVipsTest_writeJPEG(folder + "/\(index).jpg", 32, 24, 1) == 0 { written.withLock { $0 += 1 } }
                }
                try? FileManager.default.removeItem(atPath: folder)
                exit(written.withLock { $0 } == 16 ? 0 : 1)
            }
        }
    }
}
