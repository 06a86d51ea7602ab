import Foundation

/// libFuzzer's entry point: the bytes before the first NUL are an SCXML document, the bytes after
/// it a program of events and operations (see ``RunDriver``). A document that does not load is
/// skipped; for one that does, any broken interpreter invariant or failed snapshot round trip
/// traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func runFuzzTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    RunDriver.run(UnsafeRawBufferPointer(start: start, count: count))
    return 0
}
