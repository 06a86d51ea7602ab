/// A chart's state ids in index order, and the index of each id: an open-addressing hash table
/// over the ids' UTF-8 bytes.
///
/// Why not `[String: Int32]`: compiling resolves every state id once when it is declared and once
/// per transition target, and with `Dictionary` each of those was a SipHash of the id through
/// `String.hash(into:)` — about 600 instructions a lookup, a third of compiling a large chart
/// (issue 16). Here a lookup hashes the id's bytes eight at a time with a multiply-xorshift mix
/// under a seed drawn at random for each table, so that no fixed set of ids collides in every
/// process, and compares the stored hash before it compares bytes.
///
/// Ids match when their Unicode scalars are the same, the comparison XML makes of its ids (rule
/// R91): `"K"` and the Kelvin sign `"\u{212A}"`, equal as Swift strings, are two ids.
///
/// Visible to the package: the SCXML loader keys its caches of attribute texts with it
/// (`SCXMLTextCache`), for the same reason.
@usableFromInline
package struct StateIDTable: Sendable {
    /// Every id by index. A chart appends its root (id `""`) first without indexing it, so its
    /// index 0 is never found; a table whose first id is indexed finds it at 0.
    @usableFromInline private(set) var ids: [String] = []
    /// 0 for an empty slot, else the id's hash in the high 32 bits and its index + 1 in the low.
    @usableFromInline var slots: [UInt64]
    @usableFromInline var mask: Int
    @usableFromInline var indexed = 0
    @usableFromInline let seed: UInt64

    /// An empty table with room for `capacity` ids before it grows.
    @usableFromInline
    package init(capacity: Int = 0) {
        self.init(slotsFor: capacity)
        ids.reserveCapacity(capacity)
    }

    /// An empty table whose slots hold `capacity` ids before it grows, without room for the ids.
    private init(slotsFor capacity: Int) {
        var size = 16
        while size < 2 * capacity { size <<= 1 }
        slots = .prefaulted(repeating: 0, count: size)
        mask = size - 1
        seed = UInt64.random(in: .min ... .max) | 1
    }

    /// A table of `ids`, each at its position, the first one (the root's) not indexed. An id
    /// equal to an earlier one keeps its position but is not found: a lookup finds the earlier.
    @usableFromInline
    init(ids: [String]) {
        self = Self.indexing(ids).table
    }

    /// A table of `ids`, each at its position, the first one (the root's) not indexed, and the
    /// first position, in order, whose id repeats an earlier indexed one, with that one's
    /// position: what appending them one by one would have reported first. An id equal to an
    /// earlier one keeps its position but is not found: a lookup finds the earlier.
    ///
    /// Why not ``append(_:indexed:)`` one by one: in a large table each insertion reads a slot
    /// at a random place, a cache and TLB miss apiece — 150 ns an id, a third of compiling a
    /// million-state chart (issue 16). Here the hashes are computed in order, sorted by the part of
    /// the table they fall in, and inserted part after part, so that probing walks the slots
    /// forward, as a scan does.
    package static func indexing(_ ids: [String]) -> (table: StateIDTable, firstRepeat: (index: Int, first: Int32)?) {
        var table = StateIDTable(slotsFor: max(0, ids.count - 1))
        table.ids = ids
        guard ids.count > 1 else { return (table, nil) }
        var repeatIndex: Int?
        // Positions are inserted in any order here: an id that meets an equal one keeps the
        // earlier position in the slot. The first position that repeats an earlier id is the
        // second of its group, and it is always the larger of some pair that met (see
        // ``insertKeepingFirst(_:hash:)``), so the smallest such larger one is the answer.
        func insert(_ i: Int, _ h: UInt64) {
            if let repeated = table.insertKeepingFirst(i, hash: h), repeated < repeatIndex ?? .max {
                repeatIndex = repeated
            }
        }
        let blockShift = 12  // 4,096 slots, 32 KB: a part's slots stay in the first cache levels
        if table.slots.count <= 1 << (blockShift + 2) {
            for i in 1..<ids.count { insert(i, table.hash(ids[i])) }
        } else {
            let n = ids.count - 1
            var hashes = [UInt64].prefaulted(repeating: 0, count: n)
            let blocks = table.slots.count >> blockShift
            var starts = [Int32](repeating: 0, count: blocks + 1)
            for k in 0..<n {
                let h = table.hash(ids[k + 1])
                hashes[k] = h
                starts[((Int(truncatingIfNeeded: h) & table.mask) >> blockShift) + 1] += 1
            }
            for b in 0..<blocks { starts[b + 1] += starts[b] }
            // Each id's hash and position, placed by the block its slot falls in.
            var sortedHashes = [UInt64].prefaulted(repeating: 0, count: n)
            var sortedPositions = [Int32].prefaulted(repeating: 0, count: n)
            for k in 0..<n {
                let h = hashes[k]
                let b = (Int(truncatingIfNeeded: h) & table.mask) >> blockShift
                let at = Int(starts[b])
                starts[b] += 1
                sortedHashes[at] = h
                sortedPositions[at] = Int32(k + 1)
            }
            hashes = []
            for k in 0..<n { insert(Int(sortedPositions[k]), sortedHashes[k]) }
        }
        // The slot of a repeated id holds the smallest position of its group: the first.
        return (table, repeatIndex.map { ($0, table[ids[$0]]!) })
    }

    /// Places position `i`, whose id hashes to `h`, in its slot; when an equal id is there, keeps
    /// the smaller of the two positions and returns the larger.
    ///
    /// Of a group of equal ids inserted in any order, the second smallest is always returned once:
    /// inserted after the smallest, it meets it; inserted before, it holds the slot when the
    /// smallest comes (every other member is larger than it). Every position returned is the
    /// larger of two members, so none is smaller than the second smallest.
    private mutating func insertKeepingFirst(_ i: Int, hash h: UInt64) -> Int? {
        var s = Int(truncatingIfNeeded: h) & mask
        while slots[s] != 0 {
            let slot = slots[s]
            let other = Int(slot & 0xFFFF_FFFF) - 1
            if slot >> 32 == h >> 32, Self.equal(ids[other], ids[i]) {
                guard i < other else { return i }
                slots[s] = (h & 0xFFFF_FFFF_0000_0000) | UInt64(i + 1)
                return other
            }
            s = (s + 1) & mask
        }
        slots[s] = (h & 0xFFFF_FFFF_0000_0000) | UInt64(i + 1)
        indexed += 1
        return nil
    }

    /// The number of ids, indexed or not.
    @inlinable package var count: Int { ids.count }

    /// Appends `id` as the next index and, when `indexed`, makes it findable; returns the index
    /// of an equal id already findable instead, appending nothing.
    @usableFromInline
    package mutating func append(_ id: String, indexed: Bool) -> Int32? {
        guard indexed else {
            ids.append(id)
            return nil
        }
        if 2 * (self.indexed + 1) > slots.count { grow() }
        let h = hash(id)
        let (slot, found) = probe(id, hash: h)
        if let found { return found }
        slots[slot] = (h & 0xFFFF_FFFF_0000_0000) | UInt64(ids.count + 1)
        ids.append(id)
        self.indexed += 1
        return nil
    }

    /// The index of `id`, or `nil` when no findable id equals it.
    @usableFromInline
    package subscript(id: String) -> Int32? { probe(id, hash: hash(id)).found }

    /// The slot holding `id` and its index, or the empty slot where it would go and `nil`.
    private func probe(_ id: String, hash h: UInt64) -> (slot: Int, found: Int32?) {
        var s = Int(truncatingIfNeeded: h) & mask
        while slots[s] != 0 {
            let slot = slots[s]
            if slot >> 32 == h >> 32, Self.equal(ids[Int(slot & 0xFFFF_FFFF) - 1], id) {
                return (s, Int32(slot & 0xFFFF_FFFF) - 1)
            }
            s = (s + 1) & mask
        }
        return (s, nil)
    }

    /// Doubles the slots and places every findable id again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        mask = slots.count - 1
        for slot in old where slot != 0 {
            // The slot keeps the high half of the hash; the position needs the low half again.
            var s = Int(truncatingIfNeeded: hash(ids[Int(slot & 0xFFFF_FFFF) - 1])) & mask
            while slots[s] != 0 { s = (s + 1) & mask }
            slots[s] = slot
        }
    }

    /// Same Unicode scalars: the same UTF-8 bytes (Swift's `==` would also equate canonically
    /// equivalent spellings).
    @usableFromInline
    static func equal(_ a: String, _ b: String) -> Bool {
        // Two strings whose two words are the same are the same string: the same bytes of a
        // small string (count and flags included), or the same storage. The ids compared here
        // almost always are equal (their stored hashes matched), and most ids are small, so this
        // settles most comparisons without reading bytes: `withUTF8` copies a small string out
        // first, which made a comparison some 140 instructions. Words that differ prove nothing
        // (one string may be small and the other not), so the bytes decide then.
        if MemoryLayout<String>.size == 16 {
            let sameWords = withUnsafeBytes(of: a) { x in
                withUnsafeBytes(of: b) { y in
                    x.loadUnaligned(as: UInt64.self) == y.loadUnaligned(as: UInt64.self)
                        && x.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == y.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                }
            }
            if sameWords { return true }
        }
        // In place where both have contiguous bytes, as `hash` reads them.
        let inPlace = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in x.count == y.count && (x.count == 0 || bytesEqual(x, y)) }
        }
        if let inPlace, let same = inPlace { return same }
        var a = a, b = b
        return a.withUTF8 { x in b.withUTF8 { y in x.count == y.count && (x.count == 0 || bytesEqual(x, y)) } }
    }

    @usableFromInline
    static func bytesEqual(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = x.count
        let rx = UnsafeRawBufferPointer(x), ry = UnsafeRawBufferPointer(y)
        while i + 8 <= n {
            if rx.loadUnaligned(fromByteOffset: i, as: UInt64.self) != ry.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                return false
            }
            i += 8
        }
        while i < n {
            if x[i] != y[i] { return false }
            i += 1
        }
        return true
    }

    /// The id's bytes, eight at a time, mixed under the table's seed.
    @usableFromInline
    func hash(_ id: String) -> UInt64 {
        // The bytes in place where the string has them contiguous (a native or small string:
        // every id a chart makes); `withUTF8` needs a copy of the string to call, a retain and
        // a release at every hash.
        if let h = id.utf8.withContiguousStorageIfAvailable({ Self.hash(UnsafeRawBufferPointer($0), seed: seed) }) {
            return h
        }
        var id = id
        return id.withUTF8 { Self.hash(UnsafeRawBufferPointer($0), seed: seed) }
    }

    /// The hash of an id's bytes.
    @inline(__always)
    private static func hash(_ raw: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var h = seed ^ (UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        while i + 8 <= raw.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        if i < raw.count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < raw.count {
                tail |= UInt64(raw[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ tail) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
        }
        h = (h ^ (h >> 32)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }
}
