import Statechart
import Synchronization
import Testing

/// A clock that moves only when a test moves it, and wakes nobody: a machine on it sees the time
/// only when an operation catches up (rule R54), never through a tick. It counts how often it is
/// read (`ClockReadTests`).
final class SilentClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let state = Mutex((time: Duration.zero, reads: 0))
    var now: Instant {
        state.withLock {
            $0.reads += 1
            return Instant(offset: $0.time)
        }
    }
    var minimumResolution: Duration { .nanoseconds(1) }
    /// How many times ``now`` was read.
    var reads: Int { state.withLock { $0.reads } }

    /// Sleeps until cancelled: the machine's timer never fires on its own.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        while true { try await Task.sleep(for: .seconds(3600)) }
    }

    func move(by duration: Duration) { state.withLock { $0.time += duration } }
}

/// Rule R56 around the clock's catch-up (R54) and queued work (R51): what changes is published
/// even when the operation that found it changed nothing itself, or when the stream came later.
@Suite("Publishing what catching up and queued work change")
struct CatchUpPublishingTests {
    enum S: Hashable, Sendable { case waiting, late, done, idle, loading, ready }
    enum E: Hashable, Sendable { case ping, go, load, loaded, again }

    static let timed = Machine<S, E, Int>(initial: .waiting) {
        When(.waiting) {
            After(.seconds(2), to: .late)
            On(.ping)
        }
        When(.late) {
            On(.ping)
            On(.go, to: .done)
        }
        When(.done) {}
    }

    @Test("R56, R54: a delayed transition that fell due before a send is published, though the send itself changes nothing")
    func catchUpBeforeSend() async throws {
        let clock = SilentClock()
        let m = try await AsyncStateMachine(Self.timed, context: 0, clock: clock)
        let configurations = await m.configurations()
        let transitions = await m.transitions()
        clock.move(by: .seconds(3))
        try await m.send(.ping)  // its catch-up fires the timer; `ping` is targetless
        #expect(await m.state == .late)
        try await m.send(.go)
        // Read up to the last change, which is published either way: without the catch-up
        // published on its own, the first change seen was `done`.
        #expect(await Self.prefix(of: configurations, through: ["done"]) == [["waiting"], ["late"], ["done"]])
        var records: [String] = []
        for await r in transitions {
            records.append("\(r.fromState.map { "\($0)" } ?? "nil") -\(r.event.map { "\($0)" } ?? "nil")-> \(r.toState)")
            if r.toState == .done { break }
        }
        #expect(records == ["waiting -nil-> late", "late -go-> done"])
    }

    /// The stream's elements up to and including `last`, which the test knows will come.
    static func prefix(of stream: AsyncStream<[String]>, through last: [String]) async -> [[String]] {
        var seen: [[String]] = []
        for await c in stream {
            seen.append(c)
            if c == last { break }
        }
        return seen
    }

    @Test("R56, R54: a delayed transition that fell due before reset() is published before the reset")
    func catchUpBeforeOperation() async throws {
        let clock = SilentClock()
        let m = try await AsyncStateMachine(Self.timed, context: 0, clock: clock)
        let configurations = await m.configurations()
        clock.move(by: .seconds(3))
        try await m.reset()  // catches up (waiting → late), then back to waiting
        #expect(await m.state == .waiting)
        clock.move(by: .seconds(3))
        try await m.send(.ping)  // waiting → late again, in the send's catch-up
        try await m.send(.go)
        #expect(
            await Self.prefix(of: configurations, through: ["done"]) == [["waiting"], ["late"], ["waiting"], ["late"], ["done"]])
    }

    @Test("R56, R51: a stream subscribed while a send awaits its queued work receives what the work changes")
    func subscribedDuringWork() async throws {
        let (started, startedSignal) = AsyncStream.makeStream(of: Void.self)
        let (gate, opening) = AsyncStream.makeStream(of: Void.self)
        let machine = Machine<S, E, Int>(initial: .idle) {
            When(.idle) {
                On(.load, to: .loading) { scope in
                    scope.perform("fetch") {
                        startedSignal.yield()
                        for await _ in gate { break }
                        return .loaded
                    }
                }
            }
            When(.loading) { On(.loaded, to: .ready) }
            When(.ready) { On(.again, to: .idle) }
        }
        let m = try await AsyncStateMachine(machine, context: 0)
        let send = Task { try await m.send(.load) }
        for await _ in started { break }
        let configurations = await m.configurations()
        opening.yield()
        try await send.value
        #expect(await m.state == .ready)
        try await m.send(.again)
        // Without the fix the work's change went unpublished and the next change seen was `idle`.
        #expect(await Self.prefix(of: configurations, through: ["idle"]) == [["loading"], ["ready"], ["idle"]])
    }
}
