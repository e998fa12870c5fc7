import Foundation
import Testing

@testable import StackWebServer

/// Where guests' photos may go, and how the add token is shown.
@Suite struct UploadConfigurationTests {
    @Test func uploadsNeedAPhotoFolderOfTheOperators() throws {
        var configuration = Configuration()
        configuration.port = 0
        configuration.resources = TestServer.repositoryRoot.appendingPathComponent("Resources").path
        configuration.uploads.mode = .open
        #expect(throws: Configuration.Failure.self) { _ = try Application(configuration: configuration) }
    }

    @Test func theAddTokenIsMadeOnALanOnlyWhenARoomTakesPhotos() {
        var configuration = Configuration()
        configuration.host = "0.0.0.0"
        #expect(configuration.addTokenInUse { "drawn" } == nil)
        configuration.uploads.rooms = ["party": .open]
        #expect(configuration.addTokenInUse { "drawn" } == "drawn")
        configuration.host = "127.0.0.1"
        #expect(configuration.addTokenInUse { "drawn" } == nil)
    }

    @Test func theAddTokenIsShownOnATerminalOnly() {
        let base = "http://192.168.1.20:8080/"
        let terminal = ControlTokenNotice.lines(
            base: base, token: "secret-add-token", source: .generated(file: "/var/lib/stackweb/add-token"),
            toTerminal: true, role: .add)
        #expect(terminal.joined().contains("secret-add-token"))
        let journal = ControlTokenNotice.lines(
            base: base, token: "secret-add-token", source: .generated(file: "/var/lib/stackweb/add-token"),
            toTerminal: false, role: .add)
        #expect(!journal.joined().contains("secret-add-token"))
        #expect(journal.joined().contains("/var/lib/stackweb/add-token"))
    }
}
