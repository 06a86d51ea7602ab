import Statechart

/// Compares what a test expected of one operation with what the machine's trace recorded, and
/// renders the difference.
enum TraceComparison {
    /// The steps of a trace that a test must list: exits, entries, actions, raised and sent events
    /// (except the timers of `After` transitions) and halts.
    static func checked(_ trace: [TraceStep]) -> [TraceStep] {
        trace.filter { step in
            switch step {
            case .exited, .entered, .action, .raised, .halted: return true
            case .sent(let name, _): return !name.hasPrefix("timer.")
            case .event, .transition, .dropped, .log, .error: return false
            }
        }
    }

    /// One row of the side-by-side rendering.
    struct Row: Equatable {
        var expected: String?
        var actual: String?
        var matched: Bool
    }

    /// Aligns the expected steps with the actual ones along a longest common subsequence; the
    /// unmatched steps between two matches share rows.
    static func align(_ expected: [ExpectedStep], _ actual: [TraceStep]) -> [Row] {
        let n = expected.count, m = actual.count
        // lengths[i][j]: the longest common subsequence of expected[i...] and actual[j...].
        var lengths = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lengths[i][j] =
                    expected[i].matches.contains(actual[j])
                    ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var rows: [Row] = []
        var missing: [String] = []
        var unexpected: [String] = []
        func flush() {
            for k in 0..<max(missing.count, unexpected.count) {
                rows.append(
                    Row(
                        expected: k < missing.count ? missing[k] : nil,
                        actual: k < unexpected.count ? unexpected[k] : nil, matched: false))
            }
            missing.removeAll()
            unexpected.removeAll()
        }
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, expected[i].matches.contains(actual[j]), lengths[i][j] == lengths[i + 1][j + 1] + 1 {
                flush()
                rows.append(Row(expected: expected[i].display, actual: actual[j].description, matched: true))
                i += 1
                j += 1
            } else if j < m && (i == n || lengths[i][j + 1] >= lengths[i + 1][j]) {
                unexpected.append(actual[j].description)
                j += 1
            } else {
                missing.append(expected[i].display)
                i += 1
            }
        }
        flush()
        return rows
    }

    /// The rows as a table: `expected | actual`, with a mark on each row that differs — `-` a step
    /// expected that did not happen, `+` a step that happened unexpectedly, `≠` both on one row.
    static func table(_ rows: [Row]) -> String {
        let width = max("expected".count, rows.map { ($0.expected ?? "").count }.max() ?? 0)
        func pad(_ s: String) -> String { s + String(repeating: " ", count: width - s.count) }
        var lines = ["  " + pad("expected") + " | actual"]
        for row in rows {
            let mark: String
            switch (row.matched, row.expected, row.actual) {
            case (true, _, _): mark = " "
            case (false, .some, .some): mark = "≠"
            case (false, .some, nil): mark = "-"
            default: mark = "+"
            }
            lines.append(mark + " " + pad(row.expected ?? "") + " | " + (row.actual ?? ""))
        }
        if rows.isEmpty { lines.append("  " + pad("(nothing)") + " | (nothing)") }
        return lines.joined(separator: "\n")
    }

    /// The actual steps written as the statements a test would list, to copy into the test when
    /// the new behaviour is the intended one.
    static func statements(_ actual: [TraceStep]) -> String {
        if actual.isEmpty { return "    (no step: nothing to list)" }
        return actual.map { step -> String in
            switch step {
            case .exited(let id): return "    $0.exited(\(quoted(id)))"
            case .entered(let id): return "    $0.entered(\(quoted(id)))"
            case .action(let label): return "    $0.ran(\(quoted(label)))"
            case .raised(let name) where name.hasPrefix("done.state."):
                return "    $0.raisedDone(of: \(quoted(String(name.dropFirst("done.state.".count)))))"
            case .raised(let name): return "    $0.raised(named: \(quoted(name)))"
            case .sent(let name, let delay):
                return "    $0.sent(named: \(quoted(name))" + (delay == .zero ? ")" : ", after: \(swiftDuration(delay)))")
            case .halted(let id): return "    $0.halted(in: \(quoted(id)))"
            default: return "    // \(step)"
            }
        }.joined(separator: "\n")
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out + "\""
    }

    /// `.milliseconds(1500)`, `.seconds(2)` or `.nanoseconds(…)`: a literal that reads back as the duration.
    static func swiftDuration(_ d: Duration) -> String {
        let (seconds, attoseconds) = d.components
        if attoseconds == 0 { return ".seconds(\(seconds))" }
        if attoseconds % 1_000_000_000_000_000 == 0 {
            return ".milliseconds(\(seconds * 1000 + attoseconds / 1_000_000_000_000_000))"
        }
        return ".nanoseconds(\(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))"
    }
}
