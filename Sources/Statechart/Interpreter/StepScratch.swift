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
    /// (the typed builder's dynamic targets, a state request's target), by transition: each one's
    /// run of ``resolvedTargetPool``. One pool kept from step to step, not an array per
    /// transition: a request allocated its one-target array at every step (issue 16). Both are
    /// ``ScratchBuffer``s, emptied by resetting their counts: `Array.removeAll(keepingCapacity:)`
    /// cost a request about 130 instructions.
    @usableFromInline var resolvedTargets = ScratchBuffer<(transition: Int32, start: Int32, count: Int32)>()
    /// The resolved targets of every transition in ``resolvedTargets``, one run each.
    @usableFromInline var resolvedTargetPool = ScratchBuffer<Int32>()
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

    /// Empties the resolved targets, without making the box and keeping the lists' storage.
    ///
    /// The test is read first and the box let go before ``stepScratch`` is asked for: held across
    /// that call (an `if let` binding), the box was not uniquely referenced there, and every step
    /// with resolved targets copied the whole scratch into a new box (a state request: about
    /// 1,000 instructions and an allocation, issue 16).
    @inlinable @inline(__always) mutating func clearResolvedTargets() {
        let hasResolved = stepScratchBox?.withUnsafeMutablePointerToHeader { !$0.pointee.resolvedTargets.isEmpty } ?? false
        guard hasResolved else { return }
        let scratch = stepScratch
        scratch.pointee.resolvedTargets.removeAll()
        scratch.pointee.resolvedTargetPool.removeAll()
    }

    /// Records the targets `targets` resolved for transition `t` in this step.
    @inlinable
    mutating func appendResolvedTargets<Targets: Collection<Int32>>(of t: Int32, _ targets: Targets) {
        let scratch = stepScratch
        let start = Int32(truncatingIfNeeded: scratch.pointee.resolvedTargetPool.count)
        for target in targets { scratch.pointee.resolvedTargetPool.append(target) }
        let count = Int32(truncatingIfNeeded: scratch.pointee.resolvedTargetPool.count) - start
        scratch.pointee.resolvedTargets.append((t, start, count))
    }

    /// Whether the step scratch has been made (tests: a machine that only splices never makes it).
    @usableFromInline var hasStepScratch: Bool { stepScratchBox != nil }
}
