import Foundation
import Statechart
import Testing

@testable import StatechartInterchange

/// `SCXMLEvent` keeps its fields besides the name in one shared box: it must still behave as a
/// plain value.
@Suite("SCXMLEvent as a value")
struct SCXMLEventStorageTests {
    @Test("Changing a copy's field leaves the original alone; defaults read back as before")
    func copyOnWrite() {
        let plain = SCXMLEvent("go")
        #expect(plain.data == .undefined && plain.kind == .external && plain.sendID == nil && plain.invokeID == nil)
        var a = SCXMLEvent("go", data: ["x": 1], kind: .internal, sendID: "s1", origin: "o", originType: "t", invokeID: "i")
        let b = a
        a.sendID = "s2"
        a.data = 2
        #expect(b.sendID == "s1" && b.data == ["x": 1])
        #expect(a.sendID == "s2" && a.data == 2 && a.kind == .internal && a.origin == "o")
        var c = plain
        c.kind = .platform
        #expect(plain.kind == .external && c.kind == .platform)
    }

    @Test("Equal fields are equal events with equal hashes, however they were made")
    func equalityAndHashing() {
        var built = SCXMLEvent("go")
        built.sendID = "s1"
        let direct = SCXMLEvent("go", sendID: "s1")
        #expect(built == direct)
        #expect(built.hashValue == direct.hashValue)
        var back = built
        back.sendID = nil
        #expect(back == SCXMLEvent("go"))
        #expect(Set([back, SCXMLEvent("go")]).count == 1)
        #expect(SCXMLEvent("go") != SCXMLEvent("stop"))
        #expect(SCXMLEvent("go", kind: .internal) != SCXMLEvent("go"))
    }

    @Test("Codable: the keys the synthesized conformance wrote, absent ids left out, and a round trip")
    func codable() throws {
        let event = SCXMLEvent("go", data: ["x": 1], kind: .internal, sendID: "s1", invokeID: "i")
        let json = try JSONEncoder().encode(event)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["name", "data", "kind", "sendID", "invokeID"])
        #expect(try JSONDecoder().decode(SCXMLEvent.self, from: json) == event)
        let plain = try JSONDecoder().decode(SCXMLEvent.self, from: Data(#"{"name":"a","data":{"$undefined":true},"kind":"external"}"#.utf8))
        #expect(plain == SCXMLEvent("a"))
    }
}
