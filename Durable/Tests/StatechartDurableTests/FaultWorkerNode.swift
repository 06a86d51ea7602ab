import Foundation
import Synchronization
import Testing

/// One worker process of the fault test (DurableFaultWorker), seen from the driver: it starts the
/// process, writes its commands, and matches the answer lines to the callers waiting for them.
/// When the process dies (the test kills it with SIGKILL) every caller still waiting gets `.died`.
final class FaultWorkerNode: Sendable {
    /// An answer to one command.
    enum Reply: Sendable, Equatable {
        case ack(sequence: Int64, replayed: Bool, handled: Bool)
        case created
        case error(kind: String, message: String)
        /// The process died before it answered: the command may or may not have taken effect.
        case died
    }

    private struct State {
        var process: Process?
        var input: FileHandle?
        var alive = false
        var ready: CheckedContinuation<Bool, Never>?
        /// Callers waiting, by "<instance> <key>" (`-` as the key of a `create`).
        var waiting: [String: CheckedContinuation<Reply, Never>] = [:]
        /// Bytes of the output not yet ending in a newline.
        var partial = Data()
        var launches = 0
    }

    let slot: Int
    private let binary: URL
    private let arguments: [String]
    private let state = Mutex(State())

    init(slot: Int, binary: URL, arguments: [String]) {
        self.slot = slot
        self.binary = binary
        self.arguments = arguments
    }

    var isAlive: Bool { state.withLock { $0.alive } }
    var processIdentifier: Int32? { state.withLock { $0.alive ? $0.process?.processIdentifier : nil } }
    var launches: Int { state.withLock { $0.launches } }

    /// Starts the process and waits until it says it is ready (false: it died first).
    func launch() async throws -> Bool {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.received(handle.availableData)
        }
        process.terminationHandler = { [weak self] _ in
            output.fileHandleForReading.readabilityHandler = nil
            self?.died()
        }
        return await withCheckedContinuation { (ready: CheckedContinuation<Bool, Never>) in
            state.withLock {
                $0.process = process
                $0.input = input.fileHandleForWriting
                $0.partial = Data()
                $0.ready = ready
                $0.launches += 1
            }
            do {
                try process.run()
            } catch {
                state.withLock { $0.ready = nil }
                ready.resume(returning: false)
            }
        }
    }

    /// Sends one command line and waits for its answer (`notRunning` when the process is not
    /// running: nothing was sent).
    func request(_ line: String, instance: String, key: String) async -> Reply {
        let tag = "\(instance) \(key)"
        return await withCheckedContinuation { (answer: CheckedContinuation<Reply, Never>) in
            let input: FileHandle? = state.withLock {
                guard $0.alive, let input = $0.input, $0.waiting[tag] == nil else { return nil }
                $0.waiting[tag] = answer
                return input
            }
            guard let input else { return answer.resume(returning: .error(kind: "notRunning", message: "")) }
            do {
                try input.write(contentsOf: Data((line + "\n").utf8))
            } catch {
                // The pipe broke: the process is dying, and its termination answers the caller
                // (unless it already has).
                if let waiting = state.withLock({ $0.waiting.removeValue(forKey: tag) }) { waiting.resume(returning: .died) }
            }
        }
    }

    /// Kills the process with SIGKILL; returns whether it was running.
    func killNow() -> Bool {
        guard let pid = processIdentifier else { return false }
        return kill(pid, SIGKILL) == 0
    }

    /// Closes the process's input (it finishes what it has and exits) and waits for it to end.
    func finish() async {
        let (process, input) = state.withLock { ($0.process, $0.input) }
        try? input?.close()
        for _ in 0..<600 where process?.isRunning == true { try? await Task.sleep(for: .milliseconds(50)) }
        if process?.isRunning == true { _ = killNow() }
    }

    private func received(_ data: Data) {
        var answers: [(CheckedContinuation<Reply, Never>, Reply)] = []
        var ready: CheckedContinuation<Bool, Never>?
        state.withLock { s in
            s.partial.append(data)
            while let newline = s.partial.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: s.partial[s.partial.startIndex..<newline], as: UTF8.self)
                s.partial.removeSubrange(s.partial.startIndex...newline)
                let words = line.split(separator: " ", maxSplits: 4).map(String.init)
                switch words.first {
                case "ready":
                    s.alive = true
                    ready = s.ready
                    s.ready = nil
                case "ack" where words.count == 5:
                    let values = words[4].split(separator: " ")
                    guard let sequence = Int64(words[3]), values.count == 2 else { continue }
                    if let waiting = s.waiting.removeValue(forKey: "\(words[1]) \(words[2])") {
                        answers.append((waiting, .ack(sequence: sequence, replayed: values[0] == "true", handled: values[1] == "true")))
                    }
                case "created" where words.count == 2:
                    if let waiting = s.waiting.removeValue(forKey: "\(words[1]) -") { answers.append((waiting, .created)) }
                case "err" where words.count >= 4:
                    if let waiting = s.waiting.removeValue(forKey: "\(words[1]) \(words[2])") {
                        answers.append((waiting, .error(kind: words[3], message: words.count > 4 ? words[4] : "")))
                    }
                default:
                    continue
                }
            }
        }
        ready?.resume(returning: true)
        for (waiting, reply) in answers { waiting.resume(returning: reply) }
    }

    private func died() {
        let (waiting, ready) = state.withLock { s -> ([CheckedContinuation<Reply, Never>], CheckedContinuation<Bool, Never>?) in
            s.alive = false
            s.input = nil
            let waiting = Array(s.waiting.values)
            s.waiting = [:]
            let ready = s.ready
            s.ready = nil
            return (waiting, ready)
        }
        ready?.resume(returning: false)
        for w in waiting { w.resume(returning: .died) }
    }
}
