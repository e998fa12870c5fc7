// libFuzzer target: what the router does with a raw request line before any handler runs —
// the request filter's path, Host and Origin checks and the route parsing. No input may crash,
// and no path the filter lets through may hold a dot segment, an empty segment or a backslash.

@testable import StackWebServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoute(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    let target = parts[0]
    let host = parts.count > 1 ? parts[1] : "127.0.0.1:8080"
    let filter = RequestFilter.standard(extraHosts: ["frame.lan"], hostname: "photobox")
    let request = Request(method: "POST", path: target, rawTarget: target, headers: ["Host": host, "Origin": host])
    _ = filter.refusal(for: request)
    _ = filter.isAllowed(hostHeader: host)
    _ = RequestFilter.hostName(host)
    if RequestFilter.pathProblem(target) == nil {
        // Up to the first "?" byte, as pathProblem reads it: "?" and a combining mark after it are
        // one Character, so a Character split would take the query for part of the path.
        let path = String(decoding: target.utf8.prefix { $0 != UInt8(ascii: "?") }, as: UTF8.self)
        precondition(!path.contains("//") && !path.contains("\\"))
        precondition(!path.split(separator: "/").contains { $0 == ".." || $0 == "." })
    }
    _ = Route(path: target).methods
    return 0
}
