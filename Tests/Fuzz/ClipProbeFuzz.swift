// libFuzzer target: the clip probe (CFFmpeg_probe through ClipProbe) over any bytes. Each input is
// written to one file and probed with a short time limit; a probe either fails with one of its
// three reasons or reports a clip the server could show.

import Foundation
import Glibc

@testable import StackWebServer

/// The one file every input is written to (its descriptor stays open: each run rewrites it).
nonisolated(unsafe) private let input: (descriptor: Int32, path: String) = {
    var template = Array("/tmp/stackweb-clip-fuzz-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    precondition(descriptor >= 0, "cannot make the fuzz input file")
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    unlink(path)
    return (descriptor, "/proc/self/fd/\(descriptor)")
}()

private let codecs: Set<String> = ["h264", "hevc", "vp8", "vp9", "av1"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClipProbe(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    precondition(ftruncate(input.descriptor, 0) == 0 && pwrite(input.descriptor, data, size, 0) == size)
    switch ClipProbe.read(path: input.path, timeLimit: 1) {
    case .success(let probe):
        precondition(probe.width > 0 && probe.height > 0, "a clip without a size")
        precondition([0, 90, 180, 270].contains(probe.rotation), "rotation \(probe.rotation)")
        precondition(codecs.contains(probe.videoCodec), "codec \(probe.videoCodec) passed the whitelist")
        precondition(probe.duration >= 0 && probe.pixelAspect > 0)
    case .failure(let failure):
        precondition(!failure.description.isEmpty, "a failure without a reason")
    }
    return 0
}
