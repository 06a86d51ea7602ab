/// A value per state or per transition that most of them do not have — a state's entry and exit
/// action blocks and its invoked work, a transition's dynamic targets, asynchronous guard and
/// source location — stored only once one of them has it.
///
/// A million-state chart built in code has none of these: it held three arrays of a million
/// empty lists and a million transition records with room for two closures and a location,
/// memory the compiler wrote and the kernel had to map for nothing (issue 16, "Build"). An empty
/// table answers every index with its default.
@usableFromInline
struct SparseTable<Value> {
    /// Every index's value, or empty when every value is the default.
    @usableFromInline private(set) var values: [Value] = []
    /// What an index without a value has.
    @usableFromInline let absent: Value

    /// No value for any index: each reads as `absent`.
    @inlinable init(absent: Value) {
        self.absent = absent
    }

    /// The value at `index`: `absent` when it has none.
    @inlinable
    subscript(index: Int) -> Value {
        values.isEmpty ? absent : values[index]
    }

    /// Whether no index has a value.
    @inlinable var isEmpty: Bool { values.isEmpty }

    /// Sets the value at `index`, one of `count` indices. Setting the first value fills the others
    /// with `absent`; until then, `isAbsent` values store nothing.
    @inlinable
    mutating func set(_ value: Value, at index: Int, count: Int, isAbsent: Bool) {
        if values.isEmpty {
            guard !isAbsent else { return }
            values = Array(repeating: absent, count: count)
        }
        values[index] = value
    }
}

extension SparseTable: Sendable where Value: Sendable {}

extension SparseTable {
    /// A table of lists, each absent list empty.
    @inlinable
    init<Element>() where Value == [Element] {
        self.init(absent: [])
    }

    /// Sets the list at `index`, one of `count`; an empty list stores nothing while no index has one.
    @inlinable
    mutating func set<Element>(_ list: [Element], at index: Int, count: Int) where Value == [Element] {
        set(list, at: index, count: count, isAbsent: list.isEmpty)
    }

    /// A table of optional values, each absent one `nil`.
    @inlinable
    init<Wrapped>() where Value == Wrapped? {
        self.init(absent: nil)
    }

    /// Whether the value at `index` is not `nil`, without copying it.
    @inlinable
    func hasValue<Wrapped>(at index: Int) -> Bool where Value == Wrapped? {
        !values.isEmpty && values[index] != nil
    }

    /// Sets the value at `index`, one of `count`; `nil` stores nothing while no index has a value.
    @inlinable
    mutating func set<Wrapped>(_ value: Wrapped?, at index: Int, count: Int) where Value == Wrapped? {
        set(value, at: index, count: count, isAbsent: value == nil)
    }
}
