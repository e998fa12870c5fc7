import StackModel
import Testing

@testable import StackWebServer

/// `--order date`: where newly added photos go in a stack that has been turned.
@Suite struct PhotoPlacementTests {
    static func photo(_ id: String) -> Photo { Photo(id: id, width: 4, height: 3) }

    static func apply(_ placements: [LibraryChange.Placement], to stack: [String]) -> [String] {
        var result = stack
        for placement in placements { result.insert(placement.photo.id, at: placement.position) }
        return result
    }

    @Test func eachAddedPhotoFollowsThePhotoTakenJustBeforeIt() {
        // By date: z a x b c d e y; the stack has been turned to c.
        let change = LibraryChange(added: ["x", "y", "z"].map(Self.photo))
        let stack = ["c", "d", "e", "a", "b"]
        let placements = change.placements(libraryOrder: ["z", "a", "x", "b", "c", "d", "e", "y"], stack: stack)
        #expect(Self.apply(placements, to: stack) == ["c", "d", "e", "y", "z", "a", "x", "b"])
        #expect(placements.map(\.position) == [3, 4, 6])
    }

    @Test func theFrontCardStaysInFront() {
        // The stack is at its oldest photo: an older one goes to the back, not in front.
        let change = LibraryChange(added: [Self.photo("z")])
        let stack = ["a", "b", "c"]
        let placements = change.placements(libraryOrder: ["z", "a", "b", "c"], stack: stack)
        #expect(Self.apply(placements, to: stack) == ["a", "b", "c", "z"])
    }

    @Test func severalInARowKeepTheirOrder() {
        let change = LibraryChange(added: ["b1", "b2", "b3"].map(Self.photo))
        let stack = ["a", "b", "c"]
        let placements = change.placements(libraryOrder: ["a", "b", "b1", "b2", "b3", "c"], stack: stack)
        #expect(Self.apply(placements, to: stack) == ["a", "b", "b1", "b2", "b3", "c"])
    }

    @Test func anEmptyStackTakesThemInDateOrder() {
        let change = LibraryChange(added: ["b", "a"].map(Self.photo))
        let placements = change.placements(libraryOrder: ["a", "b"], stack: [])
        #expect(Self.apply(placements, to: []) == ["a", "b"])
    }
}
