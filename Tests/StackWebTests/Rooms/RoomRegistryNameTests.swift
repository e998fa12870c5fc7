import Foundation
import StackModel
import Testing

@testable import StackWebServer

@Suite struct RoomNameTests {
    @Test(arguments: ["main", "a", "hall-2", "x_y", "0", String(repeating: "a", count: 64)])
    func validNames(name: String) { #expect(RoomRegistry.isValidName(name)) }

    @Test(arguments: ["", "Main", "-a", "_a", "a b", "a/b", "é", String(repeating: "a", count: 65)])
    func invalidNames(name: String) { #expect(!RoomRegistry.isValidName(name)) }
}
