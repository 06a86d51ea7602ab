import Foundation
@_spi(Testing) import Statechart
import StatechartInterchange

/// Runs a chart from the first part of a fuzz input with the rest as a program, one byte per step:
///
/// | byte        | step                                                                        |
/// |-------------|-----------------------------------------------------------------------------|
/// | `00`–`BF`   | send the event `alphabet[byte % count]`                                      |
/// | `C0`–`DF`   | advance the clock by one of 0, 1 ms, 10 ms, 100 ms, 500 ms, 1 s, 5 s, 60 s   |
/// | `E0`–`E7`   | `reset()`                                                                    |
/// | `E8`–`EF`   | snapshot, restore into a new instance, compare, go on with the restored one  |
/// | `F0`–`F3`   | inject `done.state.<s>` for the state `s` picked by the next byte             |
/// | `F4`–`F7`   | inject an `error.execution` event                                            |
/// | `F8`–`FB`   | `canHandle` of the next byte's event (must change nothing)                  |
/// | `FC`–`FF`   | `stop()`, then `reset()`                                                     |
///
/// The alphabet is every event name the chart mentions (descriptors, raise, send), each also with
/// a `.x` suffix, and `unknown`. After every step the interpreter's invariants must hold
/// (``ChartInstance/invariantViolations()``); errors a step throws (`MachineError`) are expected.
enum RunDriver {
    static let delays: [Duration] = [
        .zero, .milliseconds(1), .milliseconds(10), .milliseconds(100), .milliseconds(500), .seconds(1),
        .seconds(5), .seconds(60),
    ]

    static func run(_ input: UnsafeRawBufferPointer) {
        guard let split = input.firstIndex(of: 0) else { return }
        let document = Data(input[..<split])
        let program = Array(input[(split + 1)...])
        var options = SCXMLLoadOptions()
        options.limits.maximumStates = 2_000
        guard let chart = try? SCXMLDocument.load(data: document, name: "fuzz", options: options) else { return }
        let alphabet = eventAlphabet(of: chart)
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        instance.microstepLimit = 500
        _ = try? instance.start()
        check(instance, after: "start")
        var i = 0
        while i < program.count {
            let byte = program[i]
            i += 1
            let step: String
            switch byte {
            case 0x00...0xBF:
                let event = alphabet[Int(byte) % alphabet.count]
                _ = try? instance.send(SCXMLEvent(event))
                step = "send \(event)"
            case 0xC0...0xDF:
                let delay = delays[Int(byte & 7)]
                _ = try? instance.advance(by: delay)
                step = "advance \(delay)"
            case 0xE0...0xE7:
                _ = try? instance.reset()
                step = "reset"
            case 0xE8...0xEF:
                let snapshot = instance.snapshot()
                let restored: ChartInstance<SCXMLEvent, SCXMLContext>
                do {
                    restored = try ChartInstance(chart: chart, restoring: snapshot)
                } catch {
                    fatalError("a snapshot of a running machine does not restore: \(error)\n\(snapshot)")
                }
                let again = restored.snapshot()
                require(again == snapshot, "the restored machine's snapshot differs:\n\(snapshot)\n\(again)")
                var copy = restored
                copy.microstepLimit = instance.microstepLimit
                instance = copy
                step = "snapshot round trip"
            case 0xF0...0xF3:
                let next = i < program.count ? Int(program[i]) : 0
                i += 1
                let state = ChartStateID(Int32(next % chart.stateCount))
                _ = try? instance.send(chartEvent: .done(state))
                step = "done.state of \(chart.ids[Int(state.index)])"
            case 0xF4...0xF7:
                _ = try? instance.send(chartEvent: .error(ExecutionErrorEvent(message: "fuzz")))
                step = "error.execution"
            case 0xF8...0xFB:
                let next = i < program.count ? Int(program[i]) : 0
                i += 1
                let event = alphabet[next % alphabet.count]
                let before = instance.snapshot()
                _ = instance.canHandle(SCXMLEvent(event))
                require(instance.snapshot() == before, "canHandle(\(event)) changed the machine")
                step = "canHandle \(event)"
            default:
                instance.stop()
                check(instance, after: "stop")
                _ = try? instance.reset()
                step = "stop, reset"
            }
            check(instance, after: step)
        }
    }

    /// `fatalError` rather than `precondition`: its message survives a release build.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }

    /// Traps when an invariant is broken.
    static func check(_ instance: ChartInstance<SCXMLEvent, SCXMLContext>, after step: String) {
        let problems = instance.invariantViolations()
        if !problems.isEmpty {
            fatalError("invariants broken after \(step): \(problems.joined(separator: "; "))")
        }
    }

    /// Every event name the chart mentions, each also with a `.x` suffix, and `unknown`.
    static func eventAlphabet(of chart: SCXMLChart) -> [String] {
        var names: Set<String> = ["unknown"]
        func add(_ actions: [ChartActionInfo]) {
            for action in actions {
                switch action {
                case .raise(let e), .send(let e, _, _): names.insert(e)
                default: break
                }
            }
        }
        for index in 0..<Int32(chart.stateCount) {
            let s = ChartStateID(index)
            for t in chart.transitions(of: s) {
                if case .names(let tokens)? = t.events { names.formUnion(tokens) }
                add(t.actions)
            }
            for block in chart.entryActions(of: s) + chart.exitActions(of: s) { add(block) }
        }
        let sorted = names.sorted()
        return sorted + sorted.map { $0 + ".x" }
    }
}
