/// Model-based test paths: explores what a machine can do from where it is, event by event, and
/// returns the shortest way to every configuration it reaches and a set of paths that together
/// take every transition they can reach.
///
/// Exploration runs the real interpreter on copies of the instance (a `ChartInstance` is a
/// value), so guards are evaluated as they would be; a configuration is identified by its active
/// states, history values and pending delayed sends. Delayed sends are explored as "advance to
/// the next due time" steps. Bounded by `limit` configurations.
public struct PathExplorer<Event: Hashable & Sendable, Context> {
    /// One step of a path: an event to send, or time to let pass (milliseconds of machine time).
    public enum Step: Hashable, Sendable {
        /// Send this event.
        case send(Event)
        /// Advance machine time to the next delayed send's due time.
        case wait(Duration)
    }

    /// A path from the start, with the configuration (active atomic ids) after each step.
    public struct Path: Sendable {
        /// The configuration the machine starts in.
        public var initial: [String]
        /// The steps, in order.
        public var steps: [Step]
        /// The configuration after each step.
        public var configurations: [[String]]
        /// The transitions the path takes, as "source[ordinal]".
        public var transitions: [String]
    }

    /// What exploration found.
    public struct Result: Sendable {
        /// The shortest path to every configuration reached (the start's is empty).
        public var shortestPaths: [Path]
        /// Paths that together take every transition exploration took at least once.
        public var coveringPaths: [Path]
        /// The transitions that were taken, as "source[ordinal]".
        public var coveredTransitions: Set<String>
        /// Every transition of the chart that events can select, as "source[ordinal]".
        public var allTransitions: Set<String>
        /// Whether exploration stopped at the limit before finishing.
        public var reachedLimit: Bool
    }

    struct Node {
        var instance: ChartInstance<Event, Context>
        var path: Path
    }

    /// Explores from `start` (a started instance), trying every event of `alphabet` in every
    /// configuration, breadth first, up to `limit` configurations.
    public static func explore(from start: ChartInstance<Event, Context>, alphabet: [Event], limit: Int = 10_000) -> Result {
        var first = start
        first.isTracing = true
        first.trace.removeAll()
        let chart = first.chart
        var seen: Set<String> = [key(first)]
        var queue = [Node(instance: first, path: Path(initial: first.activeAtomicIDs, steps: [], configurations: [], transitions: []))]
        var shortest: [Path] = [queue[0].path]
        var covered: Set<String> = []
        var firstPathFor: [String: Path] = [:]
        var reachedLimit = false
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            guard node.instance.isRunning else { continue }
            var moves: [Step] = alphabet.map { .send($0) }
            if let due = node.instance.nextDueTime { moves.append(.wait(due - node.instance.now)) }
            for move in moves {
                var next = node.instance
                next.trace.removeAll()
                switch move {
                case .send(let e): _ = try? next.send(e)
                case .wait(let d): try? next.advance(by: d)
                }
                let taken = next.trace.compactMap { step -> String? in
                    if case .transition(let source, let ordinal, _) = step { return "\(source)[\(ordinal)]" }
                    return nil
                }
                if taken.isEmpty, case .send = move { continue }  // dropped: nothing to learn
                var path = node.path
                path.steps.append(move)
                path.configurations.append(next.activeAtomicIDs)
                path.transitions.append(contentsOf: taken)
                for t in taken where firstPathFor[t] == nil {
                    firstPathFor[t] = path
                    covered.insert(t)
                }
                let k = key(next)
                if seen.contains(k) { continue }
                if seen.count >= limit {
                    reachedLimit = true
                    continue
                }
                seen.insert(k)
                shortest.append(path)
                queue.append(Node(instance: next, path: path))
            }
        }
        // Covering set: the first path that took each transition, dropping paths that are
        // prefixes of others.
        var covering: [Path] = []
        for t in firstPathFor.keys.sorted() {
            let p = firstPathFor[t]!
            if covering.contains(where: { $0.steps.starts(with: p.steps) }) { continue }
            covering.removeAll { p.steps.starts(with: $0.steps) }
            covering.append(p)
        }
        covering.sort { $0.steps.count != $1.steps.count ? $0.steps.count < $1.steps.count : "\($0.steps)" < "\($1.steps)" }
        var all: Set<String> = []
        for t in chart.transitions.indices where !chart.transitions[t].isPseudo {
            let tr = chart.transitions[t]
            all.insert("\(tr.source == 0 ? chart.name : chart.ids[Int(tr.source)])[\(tr.ordinal)]")
        }
        return Result(
            shortestPaths: shortest, coveringPaths: covering, coveredTransitions: covered, allTransitions: all,
            reachedLimit: reachedLimit)
    }

    static func key(_ i: ChartInstance<Event, Context>) -> String {
        var parts = i.activeStates.map { i.chart.id(of: $0) }.joined(separator: ",")
        if !i.isRunning { parts += "|halted:" + i.activeAtomicIDs.joined(separator: ",") }
        for h in 0..<Int32(i.chart.stateCount) where i.chart.states[Int(h)].kind.isHistory {
            if let v = i.historyValues[Int(i.chart.states[Int(h)].historySlot)] {
                parts += "|h\(h):" + v.map(String.init).joined(separator: ",")
            }
        }
        for t in i.timers { parts += "|t:\(t.due - i.now):\(i.chart.name(of: t.event))" }
        return parts
    }
}

extension Chart {
    /// Event names a chart's SCXML-style descriptors respond to (one per token), for exploring a
    /// chart whose events are names. A `*` descriptor adds `"*.any"`. Done and error events, which
    /// the chart raises itself, are left out.
    public func descriptorEventNames() -> [String] {
        var names: [String] = []
        for (k, t) in transitions.enumerated() where !t.isPseudo {
            guard let m = matchers[k] else { continue }
            switch m {
            case .names(let tokens):
                for token in tokens where !token.hasPrefix("done.") && token != "done" && !token.hasPrefix("error") {
                    if !names.contains(token) { names.append(token) }
                }
            case .any:
                if !names.contains("*.any") { names.append("*.any") }
            default:
                break
            }
        }
        return names
    }
}
