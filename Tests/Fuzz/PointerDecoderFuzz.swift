// libFuzzer target: the pointer POST body decoder. Any input must either be refused with a 400
// or decode into samples that are all within the documented limits.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPointerDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let inputs = try APIRequest.pointerInputs(from: body)
        precondition(inputs.count <= APIRequest.maxEventsPerPost)
        for input in inputs {
            precondition(input.t.isFinite && abs(input.x) <= APIRequest.maxCoordinate)
            precondition(abs(input.y) <= APIRequest.maxCoordinate && !input.viewer.isEmpty)
        }
    } catch {
        precondition(error.status == 400 && !error.message.isEmpty)
    }
    return 0
}
