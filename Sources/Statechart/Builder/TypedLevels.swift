/// The typed levels of a chart (``TypedLevel``), by level index, holding only those that
/// declare something: a stamped place that declares no global or final state holds nothing
/// (most places of a machine attached many times). Appending an empty level there, from the
/// emitter's unspecialized code, looked up the metadata of `TypedLevel<Context>` and of its array
/// at every place (issue 16, "Build"); and a chart of 100,000 places held as many empty levels.
struct TypedLevels<Context>: Sendable {
    /// The levels that are held, in the order they were added.
    private var held: [TypedLevel<Context>] = []
    /// By level index: where the level is in ``held``, or -1 for a level that declares nothing.
    private var entries: [Int32] = []

    // `count` and `appendEmpty()` are inlined: called, from the emitter's unspecialized code,
    // each took this type's metadata, looked up at every place.

    /// The number of levels, held or not.
    @inline(__always) var count: Int { entries.count }

    /// The level at `index`; `nil` when it declares nothing.
    subscript(index: Int) -> TypedLevel<Context>? {
        let entry = entries[index]
        return entry < 0 ? nil : held[Int(entry)]
    }

    /// Adds a level that declares nothing.
    @inline(__always) mutating func appendEmpty() { entries.append(-1) }

    /// Adds `level`.
    mutating func append(_ level: TypedLevel<Context>) {
        entries.append(Int32(held.count))
        held.append(level)
    }

    /// Replaces the level at `index` (one added before, held or not) with `level`.
    mutating func set(_ level: TypedLevel<Context>, at index: Int) {
        if entries[index] < 0 {
            entries[index] = Int32(held.count)
            held.append(level)
        } else {
            held[Int(entries[index])] = level
        }
    }
}
