import BenchmarkCharts
import Foundation
import Statechart
import StatechartInterchange

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Wall time of building charts of a million states (issue 16, "Build"), in a release executable:
//
//   swift run -c release --package-path Benchmarks BuildTime [case] [states]
//
// case: scale (ChartDefinition as `scaleDefinition`, then `Chart(definition)`), typed (the same
// shape from `Machine` through `TypedChart`), chain (compound states nested `states` deep),
// parallel (one parallel state with `states` atomic regions), or all (the default). Each case is
// run `repeats` times (third argument, default 3) and the best and worst times are printed, with
// the state count of the compiled chart so that a wrong chart cannot look fast.
//
//   BuildTime machines [count]
//
// creates `count` (default 1,000,000) live `StateMachine`s of the flat order machine over one
// shared `TypedChart` (issue 16, "Memory") and prints the time per machine and the resident
// memory per machine (Linux: the growth of the process's resident set, the array holding them
// included), then again after each machine has taken four events.
//
//   BuildTime scxml [groups]
//
// loads the parsing benchmarks' generated SCXML document (`generatedSCXML(groups:)`, default 4,000
// groups, about 6 MB) into a definition ("parse") and into a chart ("load"), and prints MB/s
// (10⁶ bytes) of each phase's best run: the same work as `SCXML.parse.*` and `SCXML.load.*`, in a
// plain executable that `perf` and callgrind can profile.
//
//   BuildTime scxml-file groups path
//
// writes that document to `path`, for tools that read a file (`statechart run`, `xmllint --noout`).

@inline(never) func keep<T>(_ value: T) { withExtendedLifetime(value) {} }

let arguments = CommandLine.arguments
let which = arguments.count > 1 ? arguments[1] : "all"
let states = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let repeats = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 3) : 3

/// One phase's wall time, CPU time, and the pages it touched for the first time (minor faults:
/// memory the kernel had to map and clear, a large part of building a large chart).
struct Sample {
    var wall: Duration
    var cpu: Duration
    var freshPages: Int
}

/// Runs `body` `repeats` times and prints the best and worst of each named phase it reports.
func measure(_ name: String, _ body: (inout [(String, Sample)]) throws -> Int) rethrows {
    var best: [String: Sample] = [:]
    var worst: [String: Sample] = [:]
    var order: [String] = []
    var count = 0
    for _ in 0..<repeats {
        var phases: [(String, Sample)] = []
        count = try body(&phases)
        for (phase, d) in phases {
            if best[phase] == nil { order.append(phase) }
            let b = best[phase] ?? d, w = worst[phase] ?? d
            best[phase] = Sample(wall: min(b.wall, d.wall), cpu: min(b.cpu, d.cpu), freshPages: min(b.freshPages, d.freshPages))
            worst[phase] = Sample(wall: max(w.wall, d.wall), cpu: max(w.cpu, d.cpu), freshPages: max(w.freshPages, d.freshPages))
        }
    }
    for phase in order {
        let b = best[phase]!, w = worst[phase]!
        print(
            "\(name) \(phase): wall best \(seconds(b.wall)) s, worst \(seconds(w.wall)) s; "
                + "cpu best \(seconds(b.cpu)) s, worst \(seconds(w.cpu)) s; "
                + "fresh pages \(b.freshPages)–\(w.freshPages) (\(count) states compiled)")
    }
}

/// Minor page faults of the process so far: pages mapped on first touch (Linux; 0 elsewhere).
func minorFaults() -> Int {
    #if canImport(Glibc)
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_minflt
    #else
    return 0
    #endif
}

/// CPU time of the whole process so far (user and system).
func processCPUTime() -> Duration {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec)
}

func seconds(_ d: Duration) -> String {
    let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    let fraction = String(ms % 1000)
    return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

func timed<T>(_ phase: String, _ phases: inout [(String, Sample)], _ body: () throws -> T) rethrows -> T {
    let clock = ContinuousClock()
    let start = clock.now
    let cpu = processCPUTime()
    let faults = minorFaults()
    let value = try body()
    phases.append((phase, Sample(wall: clock.now - start, cpu: processCPUTime() - cpu, freshPages: minorFaults() - faults)))
    return value
}

/// Compound states `c0 ⊃ c1 ⊃ …` nested `depth` deep, the innermost atomic, one transition on it.
func chainDefinition(depth: Int) -> ChartDefinition<ScaleEvent, Void> {
    var definition = ChartDefinition<ScaleEvent, Void>(name: "chain\(depth)")
    var parent = definition.root
    for i in 0..<depth { parent = definition.addState("c\(i)", in: parent) }
    definition.addTransition(TransitionDefinition(on: .event(.next), to: ["c0"]), from: parent)
    return definition
}

/// One parallel state with `regions` atomic regions, each with a targetless transition.
func parallelDefinition(regions: Int) -> ChartDefinition<ScaleEvent, Void> {
    var definition = ChartDefinition<ScaleEvent, Void>(name: "parallel\(regions)")
    let p = definition.addState("p", kind: .parallel, in: definition.root)
    for i in 0..<regions {
        let r = definition.addState("r\(i)", in: p)
        definition.addTransition(TransitionDefinition(on: .event(.next)), from: r)
    }
    return definition
}

/// The shape of `scaleDefinition` from the typed builder: `states / 10` groups of the top machine,
/// each with one child machine of nine states attached.
func typedScaleMachine(states: Int) -> Machine<Int, ScaleEvent, Void> {
    let groups = states / 10
    let child = Machine<Int, ScaleEvent, Void>(initial: 0) {
        for s in 0..<9 { When(s) { On(.next, to: (s + 1) % 9) } }
    }
    var machine = Machine<Int, ScaleEvent, Void>("scale\(states)", initial: 0) {
        for g in 0..<groups { When(g) { On(.jump, to: (g + 1) % groups) } }
    }
    for g in 0..<groups { machine.attach(child: child, to: g) }
    return machine
}

if which == "scale" || which == "all" {
    try measure("scale \(states)") { phases in
        let definition = timed("definition", &phases) { scaleDefinition(states: states) }
        let chart = try timed("compile", &phases) { try Chart(definition) }
        keep(chart)
        return chart.stateCount
    }
}
if which == "typed" || which == "all" {
    try measure("typed \(states)") { phases in
        let machine = timed("machine", &phases) { typedScaleMachine(states: states) }
        let chart = try timed("typedChart", &phases) { try TypedChart(machine) }
        keep(chart)
        return chart.chart.stateCount
    }
}
if which == "chain" || which == "all" {
    try measure("chain \(states)") { phases in
        let definition = timed("definition", &phases) { chainDefinition(depth: states) }
        let chart = try timed("compile", &phases) { try Chart(definition) }
        keep(chart)
        return chart.stateCount
    }
}
if which == "parallel" || which == "all" {
    try measure("parallel \(states)") { phases in
        let definition = timed("definition", &phases) { parallelDefinition(regions: states) }
        let chart = try timed("compile", &phases) { try Chart(definition) }
        keep(chart)
        return chart.stateCount
    }
}

/// The process's resident set in bytes (Linux `/proc/self/statm`; 0 elsewhere).
func residentBytes() -> Int {
    #if canImport(Glibc)
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 128)
    guard fgets(&buffer, 128, file) != nil else { return 0 }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return 0
    #endif
}

if which == "machines" {
    let count = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
    let typed = try TypedChart(flatOrderMachine())
    for round in 0..<repeats {
        var machines: [StateMachine<OrderState, OrderEvent, Void>] = []
        let before = residentBytes()
        let clock = ContinuousClock()
        let start = clock.now
        machines.reserveCapacity(count)
        for _ in 0..<count { machines.append(try StateMachine(typed: typed, context: ())) }
        let elapsed = clock.now - start
        let bytes = residentBytes() - before
        let ns = Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9
        // Only the first round's memory is new to the process: later rounds reuse what the
        // allocator kept from the one before.
        let memory = round == 0 ? "\(bytes / count) resident bytes per machine" : "memory reused"
        print("machines \(count), round \(round + 1): \(Int(ns / Double(count))) ns per machine, \(memory) (inline size \(MemoryLayout<StateMachine<OrderState, OrderEvent, Void>>.size) bytes)")
        // A machine that has worked: each takes the order round once (four events, back to
        // `pending`), so whatever a macrostep keeps (scratch it grew) shows in the figure too.
        let beforeEvents = residentBytes()
        for index in machines.indices {
            for event in [OrderEvent.confirm, .ship, .deliver, .reset] { try machines[index].send(event) }
        }
        if round == 0 {
            print("machines \(count), round 1, after four events each: \((residentBytes() - before) / count) resident bytes per machine (\((residentBytes() - beforeEvents) / count) of them since the events)")
        }
        keep(machines)
    }
}

if which == "scxml-file" {
    guard arguments.count > 3, let groups = Int(arguments[2]) else {
        print("usage: BuildTime scxml-file GROUPS PATH")
        exit(2)
    }
    try generatedSCXML(groups: groups).write(to: URL(fileURLWithPath: arguments[3]))
}

if which == "scxml" {
    let groups = arguments.count > 2 ? Int(arguments[2]) ?? 4_000 : 4_000
    let data = generatedSCXML(groups: groups)
    var best: [String: Duration] = [:]
    try measure("scxml \(data.count) bytes") { phases in
        let definition = try timed("parse", &phases) { try SCXMLDocument.definition(data: data) }
        keep(definition)
        let chart = try timed("load", &phases) { try SCXMLDocument.load(data: data) }
        for (phase, sample) in phases { best[phase] = min(best[phase] ?? sample.wall, sample.wall) }
        return chart.stateCount
    }
    for phase in ["parse", "load"] {
        guard let wall = best[phase] else { continue }
        let s = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        print("scxml \(phase): \(Double(Int((Double(data.count) / s / 1e5).rounded())) / 10) MB/s")
    }
}
