/// The scratch only some microsteps use — the entry-set builder (history, dynamic targets,
/// default entries that run actions), the selected transitions' domains (any step that is not
/// a splice of the configuration) and the targets computed for dynamic transitions (which never
/// splice) — kept in one box made on first use (issue 16, "Memory").
///
/// A machine whose steps are all splices (a flat chart, nested charts without history, the
/// transitions ``ChartInstance/takePlainTransition(_:)``, ``ChartInstance/takePlainTransitions()``
/// and ``ChartInstance/takeStaticTransition(_:)`` take, and a start that is one splice) never
/// makes it and holds one pointer instead of 112 bytes; a machine that needs it makes it once,
/// and its steps then allocate nothing, as before.
@usableFromInline
struct StepScratch: Sendable {
    @usableFromInline var entrySet: EntrySetBuilder
    @usableFromInline var selectedDomains = SelectionList()
    /// The targets of the selected transitions whose targets are computed when they are selected
    /// (the typed builder's dynamic targets), by transition.
    @usableFromInline var resolvedTargets: [(transition: Int32, targets: [Int32])] = []
    /// The entry sets that depend on history, from the last time each was computed.
    @usableFromInline var entryMemo = EntrySetMemo()

    @inlinable init(stateCount: Int) {
        entrySet = EntrySetBuilder(stateCount: stateCount)
    }
}

/// The box of a ``StepScratch`` (HeaderBox.swift).
@usableFromInline
typealias StepScratchBox = HeaderBox<StepScratch>

extension ChartInstance {
    /// The step scratch, made on first use; copied first when another copy of the instance shares
    /// it (copies of an instance never share mutable state, as with ``InstanceExtras``).
    @inlinable var stepScratch: UnsafeMutablePointer<StepScratch> {
        mutating get {
            let stateCount = chart.stateCount
            return uniqueHeader(of: &stepScratchBox) { StepScratch(stateCount: stateCount) }
        }
    }

    /// Empties the resolved dynamic targets, without making the box.
    @inlinable @inline(__always) mutating func clearResolvedTargets() {
        if let box = stepScratchBox, box.withUnsafeMutablePointerToHeader({ !$0.pointee.resolvedTargets.isEmpty }) {
            stepScratch.pointee.resolvedTargets.removeAll()
        }
    }

    /// Whether the step scratch has been made (tests: a machine that only splices never makes it).
    @usableFromInline var hasStepScratch: Bool { stepScratchBox != nil }
}
