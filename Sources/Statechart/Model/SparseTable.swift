/// A value per state or per transition that most of them do not have — a state's entry and exit
/// action blocks and its invoked work, a transition's dynamic targets, asynchronous guard and
/// source location — stored only once one of them has it.
///
/// A million-state chart built in code has none of these: it held three arrays of a million
/// empty lists and a million transition records with room for two closures and a location,
/// memory the compiler wrote and the kernel had to map for nothing (issue 16, "Build"). An empty
/// table answers every index with its default.
@usableFromInline
struct SparseTable<Value: SparseTableValue> {
    /// Every index's value, or empty when every value is the default.
    @usableFromInline private(set) var values: [Value] = []

    /// No value for any index: each reads as ``SparseTableValue/absent``.
    //
    // The default is the value type's, not a stored one: a table of guards stored an absent
    // guard, an indirect enum, and the compiler's move checker crashed on the chart's consuming
    // initializer that took such a table out of the assembly (Swift 6.3.1).
    @inlinable init() {}

    /// The value at `index`: ``SparseTableValue/absent`` when it has none.
    @inlinable
    subscript(index: Int) -> Value {
        values.isEmpty ? .absent : values[index]
    }

    /// Whether no index has a value.
    @inlinable var isEmpty: Bool { values.isEmpty }

    /// Sets the value at `index`, one of `count` indices. Setting the first value fills the others
    /// with the absent value; until then, absent values store nothing.
    @inlinable
    mutating func set(_ value: Value, at index: Int, count: Int) {
        if values.isEmpty {
            guard !value.isAbsent else { return }
            values = Array(repeating: .absent, count: count)
        }
        values[index] = value
    }
}

extension SparseTable: Sendable where Value: Sendable {}

extension SparseTable {
    /// Whether the value at `index` is not `nil`, without copying it.
    @inlinable
    func hasValue<Wrapped>(at index: Int) -> Bool where Value == Wrapped? {
        !values.isEmpty && values[index] != nil
    }
}

/// What a ``SparseTable`` holds: a value with a default that an index without one reads as.
@usableFromInline
protocol SparseTableValue {
    /// The value of an index that has none: `nil`, or an empty list.
    static var absent: Self { get }
    /// Whether this is the absent value (a table stores nothing for it while it is empty).
    var isAbsent: Bool { get }
}

extension Optional: SparseTableValue {
    @inlinable static var absent: Self { nil }
    @inlinable var isAbsent: Bool { self == nil }
}

extension Array: SparseTableValue {
    @inlinable static var absent: Self { [] }
    @inlinable var isAbsent: Bool { isEmpty }
}
