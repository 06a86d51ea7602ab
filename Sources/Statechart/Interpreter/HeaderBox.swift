/// The boxes a machine makes on first need — its step scratch, its event queues, its scope's
/// lists (issue 16, "Memory") — are `ManagedBuffer`s whose header is the value, read and written
/// through a pointer: a stored property of a class is checked for exclusive access at every use
/// (about 20 instructions each, on loops that read it per element).
///
/// A box is copied on write, so that copies of a machine never share mutable state.
@usableFromInline
typealias HeaderBox<Header> = ManagedBuffer<Header, UInt8>

/// The header of `box`, made with `make()` on first use, or copied first when another copy of
/// its owner shares the box. The pointer stays valid while the owner holds the box: only this
/// function replaces it, and only when the box is shared.
@inlinable @inline(__always)
func uniqueHeader<Header>(of box: inout HeaderBox<Header>?, orMake make: () -> Header) -> UnsafeMutablePointer<Header> {
    if !isKnownUniquelyReferenced(&box) { remake(&box, orMake: make) }
    return box.unsafelyUnwrapped.withUnsafeMutablePointerToHeader { $0 }
}

/// Makes the box, or a copy of a shared one with what it holds (a copy made mid-step, say by a
/// suspension, keeps what the step had selected).
@inlinable @inline(never)
func remake<Header>(_ box: inout HeaderBox<Header>?, orMake make: () -> Header) {
    let header = box?.withUnsafeMutablePointerToHeader { $0.pointee } ?? make()
    box = HeaderBox<Header>.create(minimumCapacity: 0) { _ in header }
}
