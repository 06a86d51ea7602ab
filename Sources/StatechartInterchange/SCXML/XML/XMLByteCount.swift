/// Counts two byte values, and the pairs of the first followed by a third, in a buffer sixteen
/// bytes at a time.
///
/// The tree builder sizes its arrays from a document's start tags and `=` bytes before reading it
/// (``XMLTreeBuilder``): a start tag is a `<` not followed by `/`. Written as a plain loop over the
/// bytes, the count was not vectorized and cost nine instructions a byte, more than the growing it
/// saved; compared a vector at a time, it costs a fraction of one.
enum XMLByteCount {
    /// How many bytes of `bytes` are `first`, how many are `second`, and how many times `first`
    /// is followed by `third` (`<` then `/`: an end tag).
    static func count(_ first: UInt8, _ second: UInt8, firstThen third: UInt8, in bytes: UnsafeBufferPointer<UInt8>)
        -> (first: Int, second: Int, firstThenThird: Int)
    {
        guard let base = bytes.baseAddress else { return (0, 0, 0) }
        let raw = UnsafeRawPointer(base)
        let one = SIMD16<UInt8>(repeating: 1)
        let zero = SIMD16<UInt8>()
        let firstLanes = SIMD16<UInt8>(repeating: first)
        let secondLanes = SIMD16<UInt8>(repeating: second)
        let thirdLanes = SIMD16<UInt8>(repeating: third)
        var firstCount = 0
        var secondCount = 0
        var pairCount = 0
        var i = 0
        // Seventeen bytes left at least: the pairs read the vector one byte on as well.
        while bytes.count - i >= 17 {
            // Each lane counts to at most 255 before it is added up.
            let blockEnd = i + min(255, (bytes.count - i - 1) / 16) * 16
            var firstSums = zero
            var secondSums = zero
            var pairSums = zero
            while i < blockEnd {
                let v = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                let next = raw.loadUnaligned(fromByteOffset: i + 1, as: SIMD16<UInt8>.self)
                let isFirst = v .== firstLanes
                firstSums &+= zero.replacing(with: one, where: isFirst)
                secondSums &+= zero.replacing(with: one, where: v .== secondLanes)
                pairSums &+= zero.replacing(with: one, where: isFirst .& (next .== thirdLanes))
                i += 16
            }
            for lane in 0..<16 {
                firstCount += Int(firstSums[lane])
                secondCount += Int(secondSums[lane])
                pairCount += Int(pairSums[lane])
            }
        }
        while i < bytes.count {
            if bytes[i] == first {
                firstCount += 1
                if i + 1 < bytes.count && bytes[i + 1] == third { pairCount += 1 }
            }
            if bytes[i] == second { secondCount += 1 }
            i += 1
        }
        return (firstCount, secondCount, pairCount)
    }
}
