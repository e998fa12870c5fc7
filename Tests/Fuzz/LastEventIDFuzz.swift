// libFuzzer target: Last-Event-ID parsing. A parsed id is never negative and reads back the same.

@testable import StackWebServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLastEventID(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let id = LastEventID.parse(text) {
        precondition(id >= 0 && Int(text) == id)
    }
    return 0
}
