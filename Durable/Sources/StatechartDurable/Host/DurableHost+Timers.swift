/// Durable timers: pending delayed sends are rows with absolute due times; the host fires the
/// due ones through the same one-transaction path as events (rule D6).

/// What one sweep over due timers did.
public struct TimerSweep: Sendable, Hashable {
    /// The timer macrosteps committed.
    public var fired: Int
    /// The instances whose timers could not fire, with why (they are tried again next sweep).
    public var failures: [DurableError]

    /// Describes a sweep.
    public init(fired: Int, failures: [DurableError]) {
        self.fired = fired
        self.failures = failures
    }
}

extension DurableHost {
    /// Fires every timer due at or before the clock's now, instance by instance (claiming
    /// instances, not single timers, keeps each instance's order); each due instant is one
    /// committed macrostep. Instances fire concurrently, so a store with group commit (D13)
    /// commits their steps together; a failing instance does not stop the others.
    @discardableResult
    public func fireDueTimers(limit: Int = 1_000) async -> TimerSweep {
        var sweep = TimerSweep(fired: 0, failures: [])
        let now = clock.now().nanoseconds
        let ids: [String]
        do {
            ids = try await store.instancesWithTimersDue(atOrBefore: now, limit: limit)
        } catch {
            sweep.failures.append(error)
            return sweep
        }
        await withTaskGroup(of: Result<Int, DurableError>.self) { group in
            for id in ids {
                group.addTask { await self.fireDueTimers(holding: id, upTo: now) }
            }
            for await result in group {
                switch result {
                case .success(let fired): sweep.fired += fired
                case .failure(let error): sweep.failures.append(error)
                }
            }
        }
        await deliverQueuedMessages()
        return sweep
    }

    /// Takes the instance, fires its due timers and lets it go.
    ///
    /// The store listed the instance because one of its timer rows is due. When the machine this
    /// host kept from its last commit (rule D21) finds nothing due, it is behind the row: another
    /// node committed a step since (a send that moved the timers), and only a commit would have
    /// revealed it — a step that fires nothing commits nothing. Trusting it again at every sweep
    /// left the timer due for good while this host held the instance (the fault test's "timers
    /// were still due"). So the host drops it and fires from the row.
    func fireDueTimers(holding id: String, upTo now: Int64) async -> Result<Int, DurableError> {
        await acquire(id)
        defer { release(id) }
        do {
            let trusted = kept[id] != nil
            var fired = try await fireDueTimers(of: id, upTo: now, trustingKept: true).fired
            if fired == 0 && trusted {
                kept[id] = nil
                statistics.staleKeptMachines += 1
                fired = try await fireDueTimers(of: id, upTo: now, trustingKept: false).fired
            }
            return .success(fired)
        } catch {
            return .failure(error)
        }
    }

    /// Fires the instance's timers due at or before `now`, one committed macrostep per due
    /// instant, in due order. The caller holds the instance.
    /// Returns how many timer steps it committed and the instance as it stands afterwards (`nil`
    /// when there is none), which a send goes on from without reading it again.
    ///
    /// With `trustingKept`, a step starts from the machine this host kept from its last commit of
    /// the instance without reading the row (rule D21); after a lost compare-and-swap it reads.
    func fireDueTimers(of id: String, upTo now: Int64, trustingKept: Bool) async throws(DurableError)
        -> (fired: Int, record: InstanceRecord?)
    {
        var fired = 0
        var conflicts = 0
        while true {
            guard let record = try await current(id, trustingKept: trustingKept && conflicts == 0) else { return (fired, nil) }
            let chart = try chart(for: record)
            let warm = warm(for: record)
            guard let result = try chart.fire(id, record.snapshot, warm, machineTime(of: record, at: now)) else {
                return (fired, record)
            }
            let commit = makeCommit(record, result, kind: .timers, key: nil, event: result.journalEvent, now: now)
            do {
                try await store.commit(commit)
            } catch .revisionConflict where conflicts < Self.conflictRetries {
                // Another host fired it (or sent an event) first: read the new revision and look again.
                kept[id] = nil
                conflicts += 1
                statistics.conflictsRetried += 1
                continue
            } catch {
                kept[id] = nil
                throw error
            }
            statistics.committed += 1
            if warm != nil { statistics.keptMachinesUsed += 1 }
            keep(commit, result)
            await dispatch(commit.outbox)
            fired += 1
            conflicts = 0
        }
    }

    /// Polls for due timers every `interval` of the host's clock until the task is cancelled.
    /// Each sweep's result is kept in ``lastSweep``; pending effects are retried each time. A
    /// sweep that failed (the database went away, say) is retried after a longer wait — 2, 4, …
    /// up to 32 intervals while failures go on — and the wait is back to one interval after a
    /// sweep without failures (rule D6). Failures that are contention with other nodes
    /// (``DurableError/isContention``) do not count. Nothing is lost meanwhile: a failed step wrote nothing,
    /// and its timer is still due.
    public func run(every interval: Duration) async {
        while !Task.isCancelled {
            lastSweep = await fireDueTimers()
            _ = try? await dispatchPendingEffects()
            // Only a failing store slows the sweeps down. Another node holding or taking an
            // instance (leases, the compare-and-swap) is contention, not failure: those
            // instances are tried again at the next interval, and backing off for them made
            // every timer of the node late (the fault test measured p50 0.8 s).
            let storeFailed = lastSweep.failures.contains { !$0.isContention }
            failedSweepsInARow = storeFailed ? failedSweepsInARow + 1 : 0
            let wait = interval * (1 << min(failedSweepsInARow, 5))
            do {
                try await clock.sleepUntil(clock.now() + wait)
            } catch {
                return
            }
        }
    }
}
