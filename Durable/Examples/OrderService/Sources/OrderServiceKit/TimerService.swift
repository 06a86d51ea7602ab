import ServiceLifecycle
import StatechartDurable

/// Fires the orders' due timers (the payment timeout) while the service runs: the host's sweep
/// loop as a service of the application, stopped with it.
struct TimerService: Service {
    let host: DurableHost
    /// How often due timers are looked for: the bound on how late a timeout fires.
    var interval: Duration = .milliseconds(100)

    func run() async {
        // The sweep loop ends when its task is cancelled: at the application's graceful shutdown.
        await cancelWhenGracefulShutdown {
            await host.run(every: interval)
        }
    }
}
