// libFuzzer target: the command POST body decoder. Any input is a known command or a 400.

@testable import StackWebServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        _ = try APIRequest.command(from: body)
    } catch {
        precondition(error.status == 400 && !error.message.isEmpty)
    }
    return 0
}
