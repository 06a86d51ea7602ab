import Foundation

/// An executable target of this package, built next to the test binary (the test target depends
/// on the crash and fault tests' workers, so SwiftPM builds them into the same directory).
///
/// Looks in the test binary's directory and up to three above it: the binary sits inside an
/// `.xctest` bundle on some platforms and directly in the build directory on others.
func builtExecutable(named name: String) -> URL? {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return nil
}
