import ServiceLifecycle
import StatechartDurable

/// Forgets idempotency keys older than the retention while the service runs (rule D18): without
/// it, an order that lives for months keeps one row per keyed request.
struct KeyExpiryService: Service {
    let host: DurableHost
    /// How long a key is kept after its request was committed: longer than any client retries.
    var retention: Duration
    /// How often old keys are looked for.
    var interval: Duration

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return  // cancelled: the application is stopping
                }
                // A failed round (the database away) is retried at the next interval: the keys
                // stay meanwhile, which only keeps deduplicating longer.
                _ = try? await host.expireIdempotencyKeys(olderThan: retention)
            }
        }
    }
}
