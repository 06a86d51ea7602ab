import Synchronization

/// Group commit, shared by the SQL stores (SQLite: rule D13; PostgreSQL: rule D19). A commit that
/// arrives while the store's batches are all in flight waits; when a batch is done, the commits
/// that waited meanwhile form the next batch, led by the first of them. Each caller is answered
/// with its own result, and only after the transaction holding its macrostep has committed (or
/// failed) — rule D1. The store's batch function checks every macrostep on its own, so one
/// refused commit is left out alone.
///
/// A class with a lock rather than actor state so that an actor store (SQLite) and a plain class
/// (PostgreSQL) share it: the decision "lead now or wait" and the hand-over of the next batch are
/// each taken under the lock, so no waiter is ever left behind without a leader.
final class CommitQueue: Sendable {
    /// A commit waiting for a batch: answered with its result, or made the next batch's leader.
    struct Waiter: Sendable {
        var commit: MacrostepCommit
        var continuation: CheckedContinuation<Turn, Never>
    }

    /// What a waiting commit is told when it resumes.
    enum Turn: Sendable {
        /// Its batch was committed (or refused): this is its own result.
        case done(Result<Void, DurableError>)
        /// It leads a batch, with these other waiters.
        case lead([Waiter])
    }

    private struct State {
        /// Batches in flight (each has a leader running it).
        var leaders = 0
        var waiting: [Waiter] = []
    }

    private let state = Mutex(State())
    /// The most macrosteps one batch carries.
    let maximumBatch: Int
    /// The most batches in flight at once (SQLite: 1, it has one writer; PostgreSQL: a few
    /// connections of its pool).
    let maximumLeaders: Int

    init(maximumBatch: Int, maximumLeaders: Int) {
        self.maximumBatch = max(maximumBatch, 1)
        self.maximumLeaders = max(maximumLeaders, 1)
    }

    /// Commits `commit` through `run` — at once, as the leader of a batch of one or more, when
    /// fewer than ``maximumLeaders`` batches are in flight; otherwise in a later batch. `run`
    /// commits a batch in one transaction and returns each macrostep's result, in order. A batch
    /// of several runs in a task of its own: it carries other callers' macrosteps, so cancelling
    /// the leader's caller must not cancel it (a store's request would give up on cancellation
    /// and fail them all).
    func commit(
        _ commit: MacrostepCommit,
        through run: @escaping @Sendable ([MacrostepCommit]) async -> [Result<Void, DurableError>]
    ) async throws(DurableError) {
        // Leading at once needs no continuation (no hop through the executor: a commit with no
        // one else waiting costs what a commit without a queue does).
        let leadsNow = state.withLock { state -> Bool in
            guard state.leaders < maximumLeaders else { return false }
            state.leaders += 1
            return true
        }
        var others: [Waiter] = []
        if !leadsNow {
            // Checked again under the lock that appends: a batch may have finished meanwhile.
            let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
                let leads = state.withLock { state -> Bool in
                    guard state.leaders < maximumLeaders else {
                        state.waiting.append(Waiter(commit: commit, continuation: continuation))
                        return false
                    }
                    state.leaders += 1
                    return true
                }
                if leads { continuation.resume(returning: .lead([])) }
            }
            switch turn {
            case .done(let result): return try result.get()
            case .lead(let batch): others = batch
            }
        }
        let batch = [commit] + others.map(\.commit)
        // A batch of one harms no one else if its caller is cancelled, so it runs inline.
        let results = others.isEmpty ? await run(batch) : await Task { await run(batch) }.value
        for (waiter, result) in zip(others, results.dropFirst()) { waiter.continuation.resume(returning: .done(result)) }
        // Those that arrived meanwhile form the next batch; its first waiter leads it (this
        // batch's place among the leaders passes to it).
        let next = state.withLock { state -> [Waiter] in
            let next = Array(state.waiting.prefix(maximumBatch))
            state.waiting.removeFirst(next.count)
            if next.isEmpty { state.leaders -= 1 }
            return next
        }
        if let first = next.first { first.continuation.resume(returning: .lead(Array(next.dropFirst()))) }
        try results[0].get()
    }
}

extension CommitQueue {
    /// Each macrostep of a batch checked on its own, in order, against the stored rows and the
    /// macrosteps before it in the batch: the instance exists (``DurableError/unknownInstance(_:)``),
    /// its revision is the expected one (``DurableError/revisionConflict(instance:expected:found:)``,
    /// rule D4), `lease` has nothing against it (PostgreSQL's rules D15, D16), and its key is not
    /// recorded yet (``DurableError/duplicateIdempotencyKey(instance:key:)``, rule D3) — the order
    /// in which a store refuses a single commit. An accepted macrostep moves its instance to its
    /// new revision and records its key for those after it.
    ///
    /// - Parameters:
    ///   - revisions: The stored revision of each instance of the batch that exists.
    ///   - recordedKeys: The batch's keys recorded already, as `[instance, key]`.
    ///   - lease: The refusal of a macrostep that passed the compare-and-swap, if any.
    static func check(
        _ commits: [MacrostepCommit], revisions: [String: Int64], recordedKeys: Set<[String]>,
        lease: (String) -> DurableError? = { _ in nil }
    ) -> [Result<Void, DurableError>] {
        var revisions = revisions
        var recordedKeys = recordedKeys
        return commits.map { commit -> Result<Void, DurableError> in
            let id = commit.instance.id
            guard let revision = revisions[id] else { return .failure(.unknownInstance(id)) }
            guard revision == commit.expectedRevision else {
                return .failure(.revisionConflict(instance: id, expected: commit.expectedRevision, found: revision))
            }
            if let refusal = lease(id) { return .failure(refusal) }
            if let key = commit.idempotency?.key, !recordedKeys.insert([id, key]).inserted {
                return .failure(.duplicateIdempotencyKey(instance: id, key: key))
            }
            revisions[id] = commit.instance.revision
            return .success(())
        }
    }
}
