import Statechart
import Testing

@testable import StatechartInterchange

@Suite("SCXML delays and conditions")
struct DelayAndConditionTests {
    @Test(
        "CSS2 times",
        arguments: [
            ("500ms", Duration.milliseconds(500)), ("2s", .seconds(2)), (".5s", .milliseconds(500)),
            ("1.5s", .milliseconds(1500)), ("0s", .zero), ("0ms", .zero), (" 10ms ", .milliseconds(10)),
            ("0.25ms", .microseconds(250)), ("007s", .seconds(7)),
            ("1.000000000000000001s", .seconds(1) + .nanoseconds(0) + Duration(attoseconds: 1)),
            ("86400s", .seconds(86400)), (".001s", .milliseconds(1)),
        ])
    func validDelay(_ text: String, _ expected: Duration) {
        #expect(SCXMLDocument.duration(fromDelay: text) == expected)
    }

    @Test(
        "not CSS2 times",
        arguments: [
            "", "5", "ms", "s", "5.s", "-1s", "1m", "1min", "1h", "1 s", "1S", "1.5.5s", "1e3ms", "+1s", "1sec",
            "1234567890123s", "0.0000000000000000001s",
        ])
    func invalidDelay(_ text: String) {
        #expect(SCXMLDocument.duration(fromDelay: text) == nil)
    }

    @Test func delaysWriteBackExactly() {
        for d: Duration in [
            .milliseconds(1), .milliseconds(1500), .microseconds(250), .seconds(3), Duration(attoseconds: 1),
        ] {
            #expect(SCXMLDocument.duration(fromDelay: SCXMLDelay.format(d)) == d)
        }
        #expect(SCXMLDelay.format(.milliseconds(1500)) == "1500ms")
        #expect(SCXMLDelay.format(.microseconds(250)) == "0.00025s")
    }

    @Test(
        "conditions",
        arguments: [
            ("In('a')", SCXMLCondition.inState("a")),
            ("In(\"a\")", .inState("a")),
            (" In ( 'a.b-c' ) ", .inState("a.b-c")),
            ("!In('a')", .not(.inState("a"))),
            ("not In('a')", .not(.inState("a"))),
            ("!!In('a')", .not(.not(.inState("a")))),
            ("true", .all([])),
            ("false", .any([])),
            ("In('a') && In('b')", .all([.inState("a"), .inState("b")])),
            ("In('a') and In('b') and In('c')", .all([.inState("a"), .inState("b"), .inState("c")])),
            ("In('a') || In('b') or In('c')", .any([.inState("a"), .inState("b"), .inState("c")])),
            ("In('a') || In('b') && In('c')", .any([.inState("a"), .all([.inState("b"), .inState("c")])])),
            ("(In('a') || In('b')) && In('c')", .all([.any([.inState("a"), .inState("b")]), .inState("c")])),
            ("!(In('a') && In('b'))", .not(.all([.inState("a"), .inState("b")]))),
            ("!In('a') && !In('b')", .all([.not(.inState("a")), .not(.inState("b"))])),
            ("((((In('a')))))", .inState("a")),
            ("true && In('a')", .all([.all([]), .inState("a")])),
            ("In('a')&&In('b')||!In('c')", .any([.all([.inState("a"), .inState("b")]), .not(.inState("c"))])),
        ])
    func condition(_ text: String, _ expected: SCXMLCondition) {
        #expect(SCXMLCondition.parse(text) == expected)
    }

    @Test(
        "not conditions of the null data model",
        arguments: [
            "", " ", "In('a'", "In()", "In('')", "In('a b')", "In(a)", "in('a')", "IN('a')", "In('a') &",
            "In('a') | In('b')",
            "&& In('a')", "In('a') In('b')", "()", "(In('a')", "In('a'))", "!", "In('a') !", "x == 1",
            "In('a') != true",
            "Inside('a')", "notIn('a')", "true false", "_predicate()", "In('a');",
        ])
    func invalidCondition(_ text: String) {
        #expect(SCXMLCondition.parse(text) == nil)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "!", count: SCXMLCondition.maximumDepth) + "In('a')"
        #expect(SCXMLCondition.parse(deep) == nil)
        let fine = String(repeating: "!", count: SCXMLCondition.maximumDepth - 1) + "In('a')"
        #expect(SCXMLCondition.parse(fine) != nil)
        let parentheses = String(repeating: "(", count: 10_000) + "In('a')" + String(repeating: ")", count: 10_000)
        #expect(SCXMLCondition.parse(parentheses) == .inState("a"))
    }

    @Test func conditionsDecideAtRunTime() throws {
        let xml = document(
            """
            <parallel id="p">
              <state id="r1">
                <state id="a"><transition event="t" target="b"/></state>
                <state id="b"/>
              </state>
              <state id="r2">
                <state id="x">
                  <transition event="go" cond="In('b') &amp;&amp; !(In('y') or false)" target="y"/>
                </state>
                <state id="y"/>
              </state>
            </parallel>
            """)
        let chart = try SCXMLDocument.load(string: xml)
        #expect(try configurations(chart, ["go", "t", "go"]) == [["a", "x"], ["a", "x"], ["b", "x"], ["b", "y"]])
    }
}
