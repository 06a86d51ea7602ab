import Testing

@testable import Statechart

/// The table a chart resolves its state ids with (issue 16): it finds every id it holds and
/// nothing else, across growth and collisions, and matches ids by their scalars (rule R91).
@Suite("State id table")
struct StateIDTableTests {
    @Test("finds every indexed id at its index and no other id, growing from empty")
    func findsEveryID() {
        var table = StateIDTable()
        #expect(table.append("", indexed: false) == nil)
        // Short, eight-byte, long and non-ASCII ids: every tail length of the hash.
        var ids = [""]
        for i in 0..<5_000 {
            let id = i % 3 == 0 ? "s\(i)" : i % 3 == 1 ? "group\(i).state\(i % 17)" : "état·\(i)"
            ids.append(id)
            #expect(table.append(id, indexed: true) == nil)
        }
        #expect(table.count == ids.count)
        #expect(table.ids == ids)
        for (i, id) in ids.enumerated().dropFirst() { #expect(table[id] == Int32(i)) }
        #expect(table[""] == nil)
        #expect(table["s1"] == nil)
        #expect(table["group1.state2"] == nil)
        #expect(table["missing"] == nil)
    }

    @Test("a repeated id is refused and names the first index")
    func repeatedID() {
        var table = StateIDTable(ids: ["", "a", "b"])
        #expect(table.append("b", indexed: true) == 2)
        #expect(table.count == 3)
        #expect(table.append("c", indexed: true) == nil)
        #expect(table["c"] == 3)
    }

    @Test(
        "built in one pass, a table finds what appending one by one finds, and reports the same first repeat",
        arguments: [40, 5_000, 60_000])
    func indexingMatchesAppending(count: Int) {
        // Below about 8,000 ids the table is filled in order; above, block by block of its slots.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D &* UInt64(count)
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % n
        }
        let unique = [""] + (1..<count).map { i in i % 2 == 0 ? "g\(i / 10).s\(i % 10)" : "state·\(i)·long enough to be stored" }
        // No repeats: every id at its position.
        let (table, none) = StateIDTable.indexing(unique)
        #expect(none == nil)
        #expect(table.ids == unique)
        #expect(table[""] == nil)
        for i in 1..<count where table[unique[i]] != Int32(i) {
            Issue.record("\(unique[i]) not at \(i)")
            break
        }
        #expect(table["g0.s99"] == nil)
        // Repeats: a few ids copied to later places, the first repeat's place drawn at random.
        for _ in 0..<8 {
            var ids = unique
            for _ in 0..<3 {
                let from = 1 + next(count - 1), to = 1 + next(count - 1)
                ids[to] = ids[from]
            }
            var appended = StateIDTable(capacity: count)
            _ = appended.append("", indexed: false)
            var expected: (index: Int, first: Int32)?
            for i in 1..<count {
                if let first = appended.append(ids[i], indexed: true) {
                    expected = (i, first)
                    break
                }
            }
            let (built, firstRepeat) = StateIDTable.indexing(ids)
            #expect(firstRepeat?.index == expected?.index)
            #expect(firstRepeat?.first == expected?.first)
            // Every id is found at its first place.
            var firstPlace: [String: Int] = [:]
            for i in 1..<count where firstPlace[ids[i]] == nil { firstPlace[ids[i]] = i }
            for i in 1..<count where built[ids[i]] != Int32(firstPlace[ids[i]]!) {
                Issue.record("\(ids[i]) not at its first place")
                break
            }
        }
    }

    @Test("an id is found whatever the representation of either string: small, or in storage of its own")
    func representations() {
        // `equal` settles equal words first: a short id held in storage (not as a small string)
        // has other words than the same id written small, and must be found by its bytes.
        func stored(_ id: String) -> String {
            var s = id
            s.reserveCapacity(64)
            return s
        }
        var table = StateIDTable()
        _ = table.append("", indexed: false)
        let ids = ["a", "s1", "g12.s3", "exactly15bytes!", "sixteen-bytes-id", "état"]
        for id in ids { #expect(table.append(stored(id), indexed: true) == nil) }
        for (i, id) in ids.enumerated() {
            #expect(table[id] == Int32(i + 1))
            #expect(table[stored(id)] == Int32(i + 1))
            #expect(StateIDTable.equal(id, stored(id)))
            #expect(StateIDTable.equal(stored(id), id))
            #expect(!StateIDTable.equal(id, id + "x"))
            #expect(!StateIDTable.equal(stored(id), stored(id + "x")))
        }
        #expect(table["g12.s4"] == nil)
        #expect(table[stored("g12.s4")] == nil)
    }

    @Test("R91: ids match by their scalars, not by Swift's canonical equivalence")
    func exactMatch() throws {
        let kelvin = "\u{212A}"
        #expect(kelvin == "K")  // what Swift's `==` says
        var d = ChartDefinition<String, Void>(name: "ids")
        let k = d.addState("K", in: d.root)
        d.addState(kelvin, in: d.root)
        let decomposed = d.addState("e\u{301}", in: d.root)
        d.addTransition(TransitionDefinition(on: .event("go"), to: [kelvin]), from: k)
        d.addTransition(TransitionDefinition(on: .event("back"), to: ["\u{E9}"]), from: decomposed)
        // "é" precomposed names no state: only the decomposed spelling was declared.
        #expect(throws: ChartError.self) { try Chart(d) }
        d.setTargets([kelvin], ofTransition: 1)
        let chart = try Chart(d)
        #expect(chart.stateCount == 4)
        #expect(chart.state(withID: "K") != chart.state(withID: kelvin))
        #expect(chart.state(withID: "\u{E9}") == nil)
        var instance = ChartInstance(chart: chart, context: ())
        try instance.start()
        // Compared by scalars: `==` on the strings could not tell the two states apart.
        let scalars = { (ids: [String]) in ids.map { Array($0.unicodeScalars) } }
        #expect(scalars(instance.activeAtomicIDs) == scalars(["K"]))
        #expect(try instance.send("go"))
        #expect(scalars(instance.activeAtomicIDs) == scalars([kelvin]))
    }
}
