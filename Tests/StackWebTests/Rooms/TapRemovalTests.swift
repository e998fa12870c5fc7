import Foundation
import StackModel
import Testing

@testable import StackWebServer

/// A removal by a tap is told to the screen that tapped (`removedBy`), and a photo whose file left
/// the folder is never brought back by a tap on empty stage.
@Suite struct TapRemovalTests {
    static let t0: Millis = 1_000_000
    static let photos = (0..<4).map { Photo(id: "p\($0)", width: 4, height: 3) }

    static func tap(_ x: Double, _ y: Double, by viewer: String, t: Millis) -> [APIRequest.PointerSample] {
        [.down, .up].enumerated().map { index, phase in
            APIRequest.PointerSample(
                input: PointerInput(viewer: viewer, phase: phase, pointer: 1, x: x, y: y, t: t + Double(index) * 60),
                seq: nil)
        }
    }

    static func changeText(_ effects: [RoomEffect]) -> String? {
        for case .publish(.change(_, let bytes), _) in effects { return String(decoding: bytes, as: UTF8.self) }
        return nil
    }

    @Test func theChangeOfARemovalByATapNamesTheTappingViewer() throws {
        var state = RoomState.forTests(settings: RoomSettings(idleUnload: 60_000), now: Self.t0)
        state.load(Stack(photos: Self.photos, style: .angles, seed: 1), paused: nil)
        let removal = try state.handle(
            .pointerBatchReceived(Self.tap(512, 384, by: "v-phone", t: 0), from: "192.0.2.7"), at: Self.t0)
        #expect(Self.changeText(removal)?.contains(#""removedBy":["v-phone"]"#) == true)
        // Bringing it back names nobody.
        let back = try state.handle(
            .pointerBatchReceived(Self.tap(10, 10, by: "v-phone", t: 1000), from: "192.0.2.7"), at: Self.t0 + 1000)
        let text = try #require(Self.changeText(back))
        #expect(!text.contains("removedBy") && text.contains(#""count":4"#))
    }

    @Test func aPhotoDeletedFromTheFolderIsNotBroughtBack() throws {
        var stack = Stack(photos: Self.photos, style: .angles, seed: 1)
        for (index, sample) in Self.tap(512, 384, by: "v", t: 0).enumerated() {
            _ = try stack.handle(.pointer(sample.input), at: Self.t0 + Double(index) * 60)
        }
        #expect(stack.count == 3)
        _ = stack.follow(LibraryChange(removed: ["p0"]), at: Self.t0 + 500, maxCards: 100)
        for (index, sample) in Self.tap(10, 10, by: "v", t: 1000).enumerated() {
            _ = try stack.handle(.pointer(sample.input), at: Self.t0 + 1000 + Double(index) * 60)
        }
        #expect(stack.count == 3 && stack.photoIDs(at: 0..<3) == ["p1", "p2", "p3"])
    }
}
