import Foundation
import Statechart
import StatechartECMAScript
import Testing

/// Datamodel values are plain, Codable data, so a snapshot of a machine with data encodes.
@Suite struct DataValueTests {
    @Test func codableRoundTrip() throws {
        let values: [DataValue] = [
            .undefined, .null, true, 1.5, "s", [1, "two", [nil]], ["a": 1, "$b": .undefined], .xml("<scxml/>"),
            .number(.infinity), .number(-.infinity),
        ]
        for v in values {
            let data = try JSONEncoder().encode(v)
            #expect(try JSONDecoder().decode(DataValue.self, from: data) == v, "\(String(decoding: data, as: UTF8.self))")
        }
        let nan = try JSONDecoder().decode(DataValue.self, from: JSONEncoder().encode(DataValue.number(.nan)))
        guard case .number(let n) = nan else {
            Issue.record("NaN decoded as \(nan)")
            return
        }
        #expect(n.isNaN)
    }

    @Test func plainJSONIsReadAsIs() throws {
        let v = try JSONDecoder().decode(DataValue.self, from: Data(#"{"x": [1, true, null, "s"]}"#.utf8))
        #expect(v == ["x": [1, true, nil, "s"]])
    }

    @Test func valuesCrossIntoTheSessionAndBack() throws {
        let session = ScriptSession()
        let value: DataValue = ["list": [1, 2], "xml": .xml("<a/>"), "u": .undefined]
        try session.declare("v", value)
        #expect(try session.value(of: "v") == value)
        #expect(try eval("typeof v.u", in: session) == "undefined")
        #expect(try eval("v.list.length", in: session) == 2)
        #expect(throws: ScriptError.self) { try session.evaluate(ScriptExpression("function () {}")) }
        try session.run(ScriptProgram("function helper() { return 1 }"))
        #expect(try session.variables() == ["v": value])  // functions are not data
    }
}
