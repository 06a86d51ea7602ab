/// A growable buffer that is emptied by resetting its count, so that the storage is reused
/// without the `replaceSubrange` and uniqueness work of `Array.removeAll(keepingCapacity:)`.
///
/// The interpreter's per-event lists (selected transitions, exit and entry sets, task stacks,
/// queues) live in these: after the first few events the hot path allocates nothing.
@usableFromInline
struct ScratchBuffer<Element>: RandomAccessCollection, MutableCollection {
    @usableFromInline var storage: [Element] = []
    @usableFromInline var count = 0

    @inlinable init() {}

    @inlinable init(_ elements: [Element]) {
        storage = elements
        count = elements.count
    }

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }

    @inlinable subscript(position: Int) -> Element {
        get { storage[position] }
        set { storage[position] = newValue }
    }

    /// Always inlined, with the rare growth out of line: called as a function, an append cost
    /// about 37 instructions per element on the parallel benchmark's hot path.
    @inlinable @inline(__always) mutating func append(_ element: Element) {
        if count < storage.count {
            storage[count] = element
            count += 1
        } else {
            grow(appending: element)
        }
    }

    @inlinable @inline(never) mutating func grow(appending element: Element) {
        storage.append(element)
        count += 1
    }

    /// Empties the buffer, keeping its storage (stale elements are overwritten later).
    @inlinable mutating func removeAll() { count = 0 }

    @inlinable mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return storage[count]
    }

    /// Reverses the elements from `start` to the end, in place.
    @inlinable mutating func reverseTail(from start: Int) {
        var i = start
        var j = count - 1
        while i < j {
            storage.swapAt(i, j)
            i += 1
            j -= 1
        }
    }

    /// The elements as an array.
    @inlinable var array: [Element] { Array(storage[0..<count]) }
}

extension ScratchBuffer: Sendable where Element: Sendable {}

extension ScratchBuffer where Element: FixedWidthInteger {
    /// Makes the storage hold at least `capacity` elements (zeros past `count`), so that a loop
    /// can write the first `capacity` through one unsafe pointer and set `count` after.
    @inlinable @inline(__always) mutating func reserveStorage(_ capacity: Int) {
        if storage.count < capacity { growStorage(to: capacity) }
    }

    @inlinable @inline(never) mutating func growStorage(to capacity: Int) {
        storage.append(contentsOf: repeatElement(0, count: capacity - storage.count))
    }
}

extension ScratchBuffer: Equatable where Element: Equatable {
    @inlinable static func == (a: Self, b: Self) -> Bool { a.elementsEqual(b) }
}

extension ScratchBuffer where Element: Comparable {
    /// Sorts in place (``Swift/UnsafeMutableBufferPointer/sortInPlace()``).
    @inlinable mutating func sortInPlace() {
        let n = count
        storage.withUnsafeMutableBufferPointer { UnsafeMutableBufferPointer(rebasing: $0[0..<n]).sortInPlace() }
    }

    /// Sorts in place, then drops repeated elements.
    @inlinable mutating func sortAndRemoveDuplicates() {
        let n = count
        count = storage.withUnsafeMutableBufferPointer {
            UnsafeMutableBufferPointer(rebasing: $0[0..<n]).sortAndRemoveDuplicates()
        }
    }
}

extension UnsafeMutableBufferPointer where Element: Comparable {
    /// Sorts in place: by insertion when short (the usual case, and mostly sorted already), with
    /// the standard library's O(n log n) sort when long — entering a chain 50,000 states deep by
    /// its bottom state finds its ancestors in reverse order, which insertion would make quadratic.
    @inlinable func sortInPlace() {
        guard count <= 32 else {
            var elements = self  // the same memory: `sort()` is declared mutating
            elements.sort()
            return
        }
        var i = 1
        while i < count {
            let x = self[i]
            var j = i
            while j > 0 && self[j - 1] > x {
                self[j] = self[j - 1]
                j -= 1
            }
            self[j] = x
            i += 1
        }
    }

    /// Sorts in place, then moves the distinct elements to the front.
    ///
    /// - Returns: How many distinct elements there are.
    @inlinable func sortAndRemoveDuplicates() -> Int {
        sortInPlace()
        guard count > 1 else { return count }
        var write = 1
        var read = 1
        while read < count {
            if self[read] != self[write - 1] {
                self[write] = self[read]
                write += 1
            }
            read += 1
        }
        return write
    }
}
