// libFuzzer target: the pointer POST body decoder. Any input must either be refused with a 400
// or decode into samples that are all within the documented limits; and wherever the fast scanner
// answers, JSONDecoder (after JSONShape) must give the same body.

import Foundation

@testable import StackWebServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPointerDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    if let scanned = PointerBody.scan(body) {
        precondition(JSONShape.problem(in: body) == nil)
        precondition((try? JSONDecoder().decode(PointerBody.self, from: Data(body))) == scanned)
    }
    do {
        let samples = try APIRequest.pointerSamples(from: body)
        precondition(samples.count <= APIRequest.maxEventsPerPost)
        for sample in samples {
            let input = sample.input
            precondition(input.t.isFinite && abs(input.x) <= APIRequest.maxCoordinate)
            precondition(abs(input.y) <= APIRequest.maxCoordinate && !input.viewer.isEmpty)
        }
    } catch {
        precondition(error.status == 400 && !error.message.isEmpty)
    }
    return 0
}
