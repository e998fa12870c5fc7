import Foundation
import Testing

@testable import StackWebServer

/// The page and demo photos are found from wherever the binary runs.
@Suite struct ResourceLocatorTests {
    /// Makes `<root>/<resources>/web/index.html` in a fresh temporary folder and returns `root`.
    func tree(resources: String) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("locator-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: "\(root)/\(resources)/web", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: "\(root)/\(resources)/web/index.html", contents: Data("<html>".utf8))
        return root
    }

    @Test func anInstalledBinaryUsesShareStackweb() throws {
        let prefix = try tree(resources: "share/stackweb")
        let found = ResourceLocator.locate(explicit: nil, executable: "\(prefix)/bin/stackweb")
        #expect(found == "\(prefix)/share/stackweb")
    }

    @Test func aBuildInsideTheSourceTreeUsesItsResources() throws {
        let checkout = try tree(resources: "Resources")
        let found = ResourceLocator.locate(
            explicit: nil, executable: "\(checkout)/.build/x86_64-unknown-linux-gnu/release/stackweb")
        #expect(found == "\(checkout)/Resources")
    }

    @Test func anExplicitFolderMustHoldThePage() throws {
        let root = try tree(resources: "res")
        #expect(ResourceLocator.locate(explicit: "\(root)/res") == "\(root)/res")
        #expect(ResourceLocator.locate(explicit: "\(root)/missing") == nil)
    }
}
