import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

/// Loads a document and returns the error it throws, or `nil` when it loads.
func loadError(_ xml: String) -> SCXMLError? {
    do {
        _ = try SCXMLDocument.load(string: xml)
        return nil
    } catch {
        return error
    }
}

/// Wraps states in an `<scxml>` root (line 1), so the body starts on line 2.
func document(_ body: String, rootAttributes: String = "") -> String {
    "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\"\(rootAttributes)>\n\(body)\n</scxml>"
}

/// The SCION conformance material: `<package root>/../shared/conformance/scion`.
enum Conformance {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let scion = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/conformance/scion")
    static var isAvailable: Bool { FileManager.default.fileExists(atPath: scion.appendingPathComponent("test").path) }
    static var cases: [ScenarioCase] { (try? ScenarioDiscovery.cases(in: [scion])) ?? [] }
}

/// Starts a chart and sends events; returns the active atomic ids after each (start first).
func configurations(_ chart: SCXMLChart, _ inputs: [String]) throws -> [[String]] {
    var instance = ChartInstance(chart: chart, context: SCXMLContext())
    try instance.start()
    var result = [instance.activeAtomicIDs]
    for input in inputs {
        if input.hasPrefix("+"), let d = SCXMLDocument.duration(fromDelay: String(input.dropFirst())) {
            try instance.advance(by: d)
        } else {
            try instance.send(SCXMLEvent(input))
        }
        result.append(instance.activeAtomicIDs)
    }
    return result
}
