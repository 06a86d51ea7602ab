import Foundation
import Statechart

/// A running ``SCXMLSession`` as a value: the root session's snapshot and one per invoked session,
/// with what is needed to load each invoked document again (rule R86).
///
/// `Codable`, like ``ChartSnapshot``: a session with data and invocations survives JSON. Restoring
/// it needs the root chart; invoked documents written inline come back from it, those read from a
/// file are read again from the same path, and those given as markup (`<content expr>`) are kept
/// in the snapshot.
public struct SCXMLSessionSnapshot: Sendable, Codable, Equatable {
    /// Where an invoked session's document came from.
    public enum Source: Sendable, Codable, Hashable {
        /// Inline `<content>` of the invoking chart.
        case inline
        /// A file (`src`, `srcexpr`), by its path.
        case file(String)
        /// Markup evaluated from `<content expr>`.
        case markup(String)
    }

    /// One invoked session.
    public struct Invocation: Sendable, Codable, Equatable {
        /// The invocation's id, as its parent knows it.
        public var invokeID: String
        /// The invoking session's `_sessionid`.
        public var parentSessionID: String
        /// The invoking state's id.
        public var stateID: String
        /// The `<invoke>` element's position in the invoking document.
        public var element: Int
        /// Where its document came from.
        public var source: Source
        /// The shared clock's time when it started.
        public var started: Duration
        /// The session itself.
        public var session: ChartSnapshot<SCXMLEvent, SCXMLContext>
    }

    /// The version of this format.
    public static var currentFormatVersion: Int { 1 }
    /// The version the snapshot was written in.
    public var formatVersion: Int
    /// The shared clock.
    public var now: Duration
    /// The root session.
    public var root: ChartSnapshot<SCXMLEvent, SCXMLContext>
    /// The invoked sessions, every parent before its children.
    public var invocations: [Invocation]
}

extension SCXMLSession {
    /// The running sessions as a value (taken between calls, so every session is idle).
    public func snapshot() -> SCXMLSessionSnapshot {
        var invocations: [SCXMLSessionSnapshot.Invocation] = []
        for n in nodes.dropFirst() {
            guard let parent = n.parent.flatMap(index(of:)), let definition = n.definition else { continue }
            invocations.append(
                SCXMLSessionSnapshot.Invocation(
                    invokeID: n.invokeID ?? "", parentSessionID: nodes[parent].instance.context.sessionID,
                    stateID: definition.stateID, element: definition.element, source: n.source, started: n.epoch,
                    session: n.instance.snapshot()))
        }
        return SCXMLSessionSnapshot(
            formatVersion: SCXMLSessionSnapshot.currentFormatVersion, now: now, root: nodes[0].instance.snapshot(),
            invocations: invocations)
    }

    /// Restores sessions from a snapshot of `chart`'s: the root, then every invoked session, each
    /// adopted by the invocation of its parent that is running. Nothing runs: no action, no
    /// invocation starts.
    ///
    /// - Throws: ``MachineError/invalidSnapshot(_:)`` naming what does not fit: a version this
    ///   library does not read, a session of another chart, an invocation whose parent, state or
    ///   `<invoke>` is not there, a document that cannot be loaded again.
    ///
    /// With `http`, the restored sessions are reachable through that Basic HTTP processor (at
    /// its address: locations are not part of a snapshot).
    public init(chart: SCXMLChart, restoring snapshot: SCXMLSessionSnapshot, http: BasicHTTPEventProcessor? = nil) throws(MachineError) {
        guard snapshot.formatVersion == SCXMLSessionSnapshot.currentFormatVersion else {
            throw .invalidSnapshot(
                "unsupported session format version \(snapshot.formatVersion) (this library reads version "
                    + "\(SCXMLSessionSnapshot.currentFormatVersion))")
        }
        self.init(chart: chart, http: http)
        nodes[0].instance = try ChartInstance(chart: chart, restoring: snapshot.root)
        now = snapshot.now
        // The invocations each restored session would start: the running ones adopt them.
        var pending: [Int: [(token: UInt64, invocation: Statechart.Invocation<SCXMLEvent, SCXMLContext>)]] = [:]
        pending[0] = Self.starts(&nodes[0].instance)
        for saved in snapshot.invocations {
            guard let p = nodes.firstIndex(where: { $0.instance.context.sessionID == saved.parentSessionID }) else {
                throw .invalidSnapshot("invocation '\(saved.invokeID)': no session '\(saved.parentSessionID)' invoked it")
            }
            let parentSerial = nodes[p].serial
            guard
                let k = pending[parentSerial]?.firstIndex(where: {
                    ($0.invocation.definition as? SCXMLInvokeDefinition)?.element == saved.element
                })
            else {
                throw .invalidSnapshot(
                    "invocation '\(saved.invokeID)': the state '\(saved.stateID)' has no running <invoke> at element \(saved.element)")
            }
            guard let (token, invocation) = pending[parentSerial]?.remove(at: k),
                let definition = invocation.definition as? SCXMLInvokeDefinition
            else { continue }
            let childChart: SCXMLChart
            do throws(SCXMLError) {
                switch (saved.source, definition.source) {
                case (.inline, .chart(let c)): childChart = c
                case (.file(let path), _): childChart = try definition.load(file: URL(fileURLWithPath: path))
                case (.markup(let markup), _): childChart = try definition.load(markup: markup)
                case (.inline, _):
                    throw .invalidElement("invoke", line: definition.line, reason: "this <invoke> has no inline document")
                }
            } catch {
                throw .invalidSnapshot("invocation '\(saved.invokeID)': its document does not load: \(error.description)")
            }
            var child = try ChartInstance(chart: childChart, restoring: saved.session)
            let serial = nextSerial
            nextSerial += 1
            pending[serial] = Self.starts(&child)
            nodes.append(
                Node(
                    instance: child, serial: serial, parent: parentSerial, invokeID: saved.invokeID, token: token,
                    definition: definition, source: saved.source, epoch: saved.started, depth: nodes[p].depth + 1))
            if definition.autoforward {
                nodes[p].instance.recordsExternalEvents = true
                nodes[p].instance.isTracing = true
            }
        }
        // Invocations that were not running (their child had ended) stay ended: nothing starts.
        refreshSessionLinks()
    }

    /// The invocations a restored instance asks to start.
    private static func starts(
        _ instance: inout ChartInstance<SCXMLEvent, SCXMLContext>
    ) -> [(token: UInt64, invocation: Statechart.Invocation<SCXMLEvent, SCXMLContext>)] {
        instance.takeInvocationRequests().compactMap {
            if case .start(let token, _, let invocation) = $0 { return (token, invocation) }
            return nil
        }
    }
}
