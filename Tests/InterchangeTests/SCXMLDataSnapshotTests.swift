import Foundation
import Statechart
import StatechartECMAScript
import Testing

@testable import StatechartInterchange

/// A shop chart with data: early-bound `<data>`, a state with late-bound data, `_event.data`,
/// `<log>`, a delayed `<send idlocation>`, and a transition that tries to assign `_sessionid`.
private let shop = document(
    """
    <datamodel>
      <data id="count" expr="0"/>
      <data id="items" expr="[]"/>
      <data id="lastSend"/>
      <data id="forged" expr="false"/>
    </datamodel>
    <state id="shopping">
      <onentry><send event="reminder" delay="5s" idlocation="lastSend"/></onentry>
      <transition event="add" cond="_event.data.qty &gt; 0">
        <assign location="count" expr="count + _event.data.qty"/>
        <script>items.push({name: _event.data.name, qty: _event.data.qty});</script>
        <log label="added" expr="_event.data.name + ' x' + _event.data.qty + ' = ' + count"/>
      </transition>
      <transition event="reminder"><log label="reminder" expr="count + ' via ' + _event.sendid + ' in ' + _name"/></transition>
      <transition event="hack"><assign location="_sessionid" expr="'forged'"/><assign location="forged" expr="true"/></transition>
      <transition event="error.execution"><log label="refused" expr="_event.name"/></transition>
      <transition event="checkout" target="paying"/>
    </state>
    <state id="paying">
      <datamodel><data id="total" expr="count * 2"/></datamodel>
      <onentry><log label="total" expr="total"/><send event="again" idlocation="lastSend"/></onentry>
      <transition event="pay" cond="_event.data.amount == total" target="paid"/>
      <transition event="again"><log label="again" expr="lastSend"/></transition>
    </state>
    <final id="paid"/>
    """, rootAttributes: #" datamodel="ecmascript" binding="late" name="shop""#)

/// An input: an event with data, or time passing.
private enum Input {
    case event(String, DataValue)
    case wait(Duration)
}

/// Feeds inputs; execution errors (the `hack` provokes one on purpose) do not stop the run.
private func feed(_ inputs: [Input], to instance: inout ChartInstance<SCXMLEvent, SCXMLContext>) throws {
    for input in inputs {
        do {
            switch input {
            case .event(let name, let data): try instance.send(SCXMLEvent(name, data: data))
            case .wait(let d): try instance.advance(by: d)
            }
        } catch .executionFailed {}
    }
}

private typealias Snapshot = ChartSnapshot<SCXMLEvent, SCXMLContext>

@Suite("SCXML charts with data: snapshots and Swift values (R89, R90)")
struct SCXMLDataSnapshotTests {
    private func started() throws -> ChartInstance<SCXMLEvent, SCXMLContext> {
        var instance = ChartInstance(chart: try SCXMLDocument.load(string: shop), context: SCXMLContext())
        instance.isTracing = true
        try instance.start()
        try feed([.event("add", ["name": "tea", "qty": 2]), .wait(.seconds(1))], to: &instance)
        return instance
    }

    @Test("R89: a running SCXML chart with data snapshots through JSON and the restored machine continues identically")
    func jsonRoundTripContinuesIdentically() throws {
        let chart = try SCXMLDocument.load(string: shop)
        var original = try started()
        let snapshot = original.snapshot()
        #expect(snapshot.formatVersion == 2)
        let json = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(Snapshot.self, from: json)
        #expect(decoded == snapshot)
        var restored = try ChartInstance(chart: chart, restoring: decoded)
        restored.isTracing = true
        #expect(restored.context == original.context)
        #expect(try restored.context.data.snapshot() == original.context.data.snapshot())

        // Everything after the snapshot: the pending reminder fires, `_event`, `_name` and
        // `_sessionid` are read, a system variable is refused, late binding happens on first entry,
        // and idlocation keeps counting.
        let rest: [Input] = [
            .event("add", ["name": "cake", "qty": 1]), .event("add", ["name": "none", "qty": 0]), .wait(.seconds(4)),
            .event("hack", .undefined), .event("checkout", .undefined), .event("pay", ["amount": 5]),
            .event("pay", ["amount": 6]),
        ]
        original.trace.removeAll()
        try feed(rest, to: &original)
        try feed(rest, to: &restored)
        #expect(restored.trace == original.trace)
        #expect(restored.context == original.context)
        #expect(restored.finalState == original.finalState)
        #expect(!restored.isRunning && restored.snapshot().finalState == "paid")

        let logs = restored.trace.compactMap { step -> String? in
            if case .log(let line) = step { return line }
            return nil
        }
        #expect(
            logs == [
                "added: cake x1 = 3", "reminder: 3 via send.1 in shop", "refused: error.execution", "total: 6",
                "again: send.2",
            ])
        let context = restored.context
        #expect(try context.value(of: "_sessionid", as: String.self) == snapshot.context.sessionID)
        #expect(try context.value(of: "forged", as: Bool.self) == false)
        #expect(try context.value(of: "total", as: Int.self) == 6)
    }

    @Test("R89: the snapshot's JSON holds the data as plain JSON, the read-only names and the late-binding record")
    func jsonShape() throws {
        let instance = try started()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(instance.snapshot()), as: UTF8.self)
        #expect(json.contains(#""count":2"#))
        #expect(json.contains(#""items":[{"name":"tea","qty":2}]"#))
        #expect(json.contains(#""readOnly":["_event","_ioprocessors","_name","_sessionid"]"#))
        #expect(json.contains(#""boundStates":[]"#))
        #expect(json.contains(#""formatVersion":2"#))
    }

    @Test("R89: a chart whose data holds a function fails to encode, naming the variable")
    func functionsDoNotEncode() throws {
        let chart = try SCXMLDocument.load(
            string: document(
                #"<script>function double(x) { return 2 * x; }</script><state id="a"/>"#,
                rootAttributes: #" datamodel="ecmascript""#))
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        try instance.start()
        do {
            _ = try JSONEncoder().encode(instance.snapshot())
            Issue.record("a snapshot holding a function encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(
                context.debugDescription
                    == "ECMAScriptDataModel: ConversionError: the variable 'double' holds a function, which is not plain data: it cannot be snapshotted")
        }
        // The snapshot as a value (in memory) still works: restoring it keeps the function.
        var copy = try ChartInstance(chart: chart, restoring: instance.snapshot())
        try copy.context.data.declare("y", 0)
        #expect(copy.context.data.isDeclared("double"))
    }

    @Test("R89: a chart under the null data model snapshots through JSON too (its data model stays empty)")
    func nullDataModelChart() throws {
        let chart = try SCXMLDocument.load(
            string: document(
                #"<state id="a"><transition event="go" cond="In('a')" target="b"/></state><state id="b"/>"#))
        var instance = ChartInstance(chart: chart, context: SCXMLContext())
        try instance.start()
        let json = try JSONEncoder().encode(instance.snapshot())
        var restored = try ChartInstance(chart: chart, restoring: JSONDecoder().decode(Snapshot.self, from: json))
        #expect(try restored.context.data.snapshot() == DataModelValues())
        try restored.send("go")
        #expect(restored.activeAtomicIDs == ["b"])
    }

    @Test("R89: version 1 snapshots still restore; other versions are refused naming the version")
    func formatVersions() throws {
        let chart = try SCXMLDocument.load(string: shop)
        let instance = try started()
        #expect(Snapshot.currentFormatVersion == 2)
        #expect(Snapshot.readableFormatVersions == 1...2)
        var old = instance.snapshot()
        old.formatVersion = 1
        let json = try JSONEncoder().encode(old)
        let fromVersion1 = try ChartInstance(chart: chart, restoring: JSONDecoder().decode(Snapshot.self, from: json))
        #expect(fromVersion1.context == instance.context)
        #expect(fromVersion1.snapshot().formatVersion == 2)
        for version in [0, 3] {
            var bad = instance.snapshot()
            bad.formatVersion = version
            #expect(throws: MachineError.invalidSnapshot("unsupported format version \(version) (this library reads versions 1 to 2)")) {
                try ChartInstance(chart: chart, restoring: bad)
            }
        }
    }

    @Test("R90: a Swift program reads and writes the chart's data as Swift values, with typed errors")
    func swiftValues() throws {
        struct Line: Codable, Equatable {
            var name: String
            var qty: Int
        }
        #expect(throws: DataModelError.unknownVariable("count")) { try SCXMLContext().value(of: "count", as: Int.self) }
        var instance = try started()
        #expect(try instance.context.value(of: "count", as: Int.self) == 2)
        #expect(try instance.context.value(of: "items", as: [Line].self) == [Line(name: "tea", qty: 2)])
        #expect(try instance.context.value(of: "lastSend", as: String?.self) == "send.1")
        #expect(try instance.context.dataValue(of: "_event") == SCXMLEvent("add", data: ["name": "tea", "qty": 2]).scriptValue)
        #expect(throws: DataModelError.typeMismatch(variable: "items", reason: "as Array<Int>: at [0]: expected an integer, found an object")) {
            try instance.context.value(of: "items", as: [Int].self)
        }
        #expect(throws: DataModelError.unknownVariable("nothing")) { try instance.context.value(of: "nothing", as: Int.self) }

        // Written values are what the chart sees next.
        try instance.context.setValue([Line(name: "tea", qty: 2), Line(name: "jam", qty: 5)], for: "items")
        try instance.context.setValue(40, for: "count")
        try feed([.event("add", ["name": "pie", "qty": 1])], to: &instance)
        #expect(try instance.context.value(of: "count", as: Int.self) == 41)
        #expect(try instance.context.value(of: "items", as: [Line].self).map(\.name) == ["tea", "jam", "pie"])

        #expect(throws: DataModelError.readOnlyVariable("_sessionid")) { try instance.context.setValue("x", for: "_sessionid") }
        #expect(throws: DataModelError.readOnlyVariable("_event")) { try instance.context.setValue(1, for: "_event") }
        #expect(throws: DataModelError.unknownVariable("undeclared")) { try instance.context.setValue(1, for: "undeclared") }
        #expect(throws: DataModelError.typeMismatch(variable: "count", reason: "UInt64 cannot be made data: the integer 18446744073709551615 has no exact number (double) value")) {
            try instance.context.setValue(UInt64.max, for: "count")
        }
        #expect(try instance.context.value(of: "count", as: Int.self) == 41)
    }
}
