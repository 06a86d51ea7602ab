import Testing

@testable import Statechart

/// ``TypedLevels`` holds only the levels that declare something; the others read as `nil`, by
/// their index among all levels, whatever order the held ones were added or set in.
@Suite("Typed levels")
struct TypedLevelsTests {
    static func level(final id: String) -> TypedLevel<Void> {
        var level = TypedLevel<Void>()
        level.add(id: id, role: .final)
        return level
    }

    @Test("empty levels are counted, not held; held ones are found by level index")
    func sparse() {
        var levels = TypedLevels<Void>()
        levels.appendEmpty()
        levels.append(Self.level(final: "a.done"))
        levels.appendEmpty()
        levels.appendEmpty()
        #expect(levels.count == 4)
        #expect(levels[0] == nil)
        #expect(levels[1]?.finals == ["a.done"])
        #expect(levels[2] == nil && levels[3] == nil)
    }

    @Test("a level set after its children's levels keeps its index (the per-state walk's order)")
    func setLater() {
        var levels = TypedLevels<Void>()
        levels.appendEmpty()  // the walked level's place, filled once its states are done
        levels.append(Self.level(final: "child.end"))  // a child emitted meanwhile
        levels.set(Self.level(final: "top.end"), at: 0)
        levels.set(Self.level(final: "child.end2"), at: 1)
        #expect(levels.count == 2)
        #expect(levels[0]?.finals == ["top.end"])
        #expect(levels[1]?.finals == ["child.end2"])
        // Setting an empty level holds it, empty.
        levels.appendEmpty()
        levels.set(TypedLevel(), at: 2)
        #expect(levels[2]?.finals.isEmpty == true)
    }
}
