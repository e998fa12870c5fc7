import Foundation

@testable import StackWebServer

extension TestServer {
    /// A server on `photos` whose resized variants are cached in a fresh folder of their own.
    static func caching(photos: String) throws -> TestServer {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)").path
        return try TestServer {
            $0.photos = photos
            $0.cache = cache
        }
    }
}
