import Foundation
import Statechart
import StatechartInterchange

/// libFuzzer's entry point: loads the input as an SCXML document. Every outcome must be a chart
/// or a typed ``SCXMLError`` whose description, line and element can be read; a chart that loads
/// must export to SCXML that loads again into a chart with the same states, and its content of
/// other namespaces (collected from the reader's own tokens) must survive that round trip: exporting the
/// reloaded document gives the same text. Anything else — a
/// trap, a hang (libFuzzer's -timeout), memory exhaustion (-rss_limit_mb) — is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func loaderFuzzTestOneInput(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // `fatalError` rather than `precondition`: its message survives a release build.
    func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let chart: SCXMLChart
    let document: SCXMLLoadedDocument
    do {
        document = try SCXMLDocument.loadDocument(data: data, name: "fuzz")
        chart = document.chart
    } catch {
        require(!error.description.isEmpty, "an empty description for \(error)")
        if let line = error.line { require(line >= 1, "line \(line) in \(error)") }
        _ = error.element
        return 0
    }
    require(chart.stateCount >= 1, "a chart without a root")
    let exported = SCXMLExporter.export(chart)
    let again: SCXMLChart
    do {
        again = try SCXMLDocument.load(string: exported, name: "fuzz")
    } catch {
        fatalError("an exported chart does not load again: \(error)\n\(exported)")
    }
    require(again.ids == chart.ids, "the round trip changed the states: \(chart.ids) → \(again.ids)")
    require(again.fingerprint == chart.fingerprint, "the round trip changed the fingerprint")
    for index in 0..<Int32(chart.stateCount) {
        let s = ChartStateID(index)
        func shape(_ t: ChartTransitionInfo) -> String {
            "\(String(describing: t.events)) \(String(describing: t.guardCondition)) \(t.targets) \(t.kind) \(t.actions)"
        }
        require(
            chart.transitions(of: s).map(shape) == again.transitions(of: s).map(shape),
            "the round trip changed the transitions of \(chart.ids[Int(index)])\n\(exported)")
        require(
            chart.initialTransition(of: s).map(shape) == again.initialTransition(of: s).map(shape),
            "the round trip changed the initial transition of \(chart.ids[Int(index)])\n\(exported)")
        require(chart.entryActions(of: s) == again.entryActions(of: s), "entry actions changed\n\(exported)")
        require(chart.exitActions(of: s) == again.exitActions(of: s), "exit actions changed\n\(exported)")
    }
    let withForeign = SCXMLExporter.export(chart, foreignContent: document.foreignContent)
    let reloaded: SCXMLLoadedDocument
    do {
        reloaded = try SCXMLDocument.loadDocument(string: withForeign, name: "fuzz")
    } catch {
        fatalError("an exported chart with its foreign content does not load again: \(error)\n\(withForeign)")
    }
    require(reloaded.chart.ids == chart.ids, "the foreign round trip changed the states\n\(withForeign)")
    require(reloaded.chart.fingerprint == chart.fingerprint, "the foreign round trip changed the fingerprint")
    let twice = SCXMLExporter.export(reloaded.chart, foreignContent: reloaded.foreignContent)
    require(twice == withForeign, "exporting the reloaded document changed it:\n\(withForeign)\n---\n\(twice)")
    return 0
}
