import Synchronization

/// Numbers for the events a machine takes, unique in the process (``ChartEnvironment/eventSerial``).
///
/// A machine numbers the events it takes one after another within a block of 2³² numbers that
/// no other machine gets: a block is taken from a process-wide counter when the machine is made,
/// and again when it has used its block up. Copies of a machine continue from the number they
/// were copied at, which is what a cache keyed by the number needs: a copy saw the same events
/// up to there.
@usableFromInline
enum EventSerial {
    /// The next unused block, shifted into the high half. Block 0 is never handed out, so no
    /// machine's number is 0, which means "unknown" (``ChartEnvironment/eventSerial``).
    private static let blocks = Atomic<UInt64>(0)

    /// The first number of a block no machine has had.
    @usableFromInline
    static func newBlock() -> UInt64 {
        (blocks.add(1, ordering: .relaxed).newValue) << 32
    }

    /// The number after `serial`: the next in its block, or the start of a new block.
    @inlinable @inline(__always)
    static func next(after serial: UInt64) -> UInt64 {
        let n = serial &+ 1
        return n & 0xFFFF_FFFF == 0 ? newBlock() : n
    }
}
