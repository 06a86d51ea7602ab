import StatechartDurable

/// A clock that runs `factor` times faster than `base` from `epoch` on: the fault test's hosts
/// take a 30 s payment timeout as half a second. Every process of one run is given the same
/// epoch and factor and the database's clock as its base, so their readings agree (rule D17).
///
/// Reading `t` on the base reads `epoch + (t - epoch) * factor` here; sleeping until a time here
/// sleeps until the base reads its preimage.
public func compressedClock(_ base: HostClock, factor: Int, epoch: Duration) -> HostClock {
    HostClock(
        now: { epoch + (base.now() - epoch) * factor },
        sleepUntil: { deadline in
            // A nanosecond later: the division rounds down, and waking early finds the deadline not reached.
            try await base.sleepUntil(epoch + (deadline - epoch) / factor + .nanoseconds(1))
        })
}
