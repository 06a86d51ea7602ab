import Statechart
import StatechartInterchange

// MARK: - SCXML data model: a guard, an <assign>, and the same chart without data

/// The variants of the one-state SCXML chart that the data-model benchmarks send `go` to. Each
/// `go` takes (or, for ``guardFalse``, refuses) the self-transition of state `s`, so the machine
/// is back where it started after every event: the steady state of a running chart.
public enum DataModelChart: String, CaseIterable, Sendable {
    /// `datamodel="ecmascript"`, `<data id="count" expr="0"/>`, and the transition guarded by
    /// `cond="count < 2"`, which holds: the guard is evaluated and the transition taken.
    case guardTrue
    /// The same with `count` starting at 5: the guard is evaluated and fails, the event is dropped.
    /// What an event costs is then the selection and the guard only.
    case guardFalse
    /// The same ECMAScript chart with neither guard nor content: ``guardTrue`` less its guard.
    case noGuard
    /// The transition without guard, with one `<assign location="count" expr="count + 1"/>`.
    case assign
    /// The chart under the null data model (no `<data>`): the floor.
    case nullDataModel

    /// The SCXML text.
    public var document: String {
        let ecmascript = " datamodel=\"ecmascript\""
        let transition: String
        var root = ecmascript
        var data = "<datamodel><data id=\"count\" expr=\"0\"/></datamodel>"
        switch self {
        case .guardTrue:
            transition = "<transition event=\"go\" cond=\"count &lt; 2\" target=\"s\"/>"
        case .guardFalse:
            data = "<datamodel><data id=\"count\" expr=\"5\"/></datamodel>"
            transition = "<transition event=\"go\" cond=\"count &lt; 2\" target=\"s\"/>"
        case .noGuard:
            transition = "<transition event=\"go\" target=\"s\"/>"
        case .assign:
            transition = "<transition event=\"go\" target=\"s\"><assign location=\"count\" expr=\"count + 1\"/></transition>"
        case .nullDataModel:
            root = ""
            data = ""
            transition = "<transition event=\"go\" target=\"s\"/>"
        }
        return """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s"\(root)>
              \(data)
              <state id="s">\(transition)</state>
            </scxml>
            """
    }

    /// A started instance of the chart, loaded with `SCXMLDocument.load(string:)`, that has
    /// already handled a few events (so the session and `_event` exist: the steady state).
    public func instance() throws -> ChartInstance<SCXMLEvent, SCXMLContext> {
        let chart = try SCXMLDocument.load(string: document)
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        try instance.start()
        for _ in 0..<3 { try instance.send(dataModelEvent) }
        return instance
    }
}

/// The event the data-model charts handle, made once: sending it copies no string.
public let dataModelEvent = SCXMLEvent("go")
