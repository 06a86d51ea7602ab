import Foundation
import Statechart
import StatechartECMAScript
import Testing

@testable import StatechartInterchange

/// The Basic HTTP Event I/O Processor (rule R93), over real sockets on the loopback address.
@Suite("Basic HTTP Event I/O Processor")
struct BasicHTTPTests {
    static let type = "http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"

    /// Starts `body` in a session served by `http` (a new processor by default).
    static func run(_ body: String, http: BasicHTTPEventProcessor? = nil, _ inputs: [String] = []) throws -> SCXMLSession {
        try InvokeTests.run(InvokeTests.chart(body), inputs, http: try http ?? BasicHTTPEventProcessor())
    }

    /// Sends one raw request to the processor and returns the status line of its answer.
    static func request(_ text: String, to http: BasicHTTPEventProcessor) throws -> String {
        let socket = try BasicHTTPSocket.connected(host: http.host, port: http.port, timeout: 5)
        let written = socket.write(Array(text.utf8))
        #expect(written)
        var answer: [UInt8] = []
        while !answer.contains(0x0A), socket.read(into: &answer, limit: 4096) > 0 {}
        return String(decoding: answer.prefix { $0 != 0x0D }, as: UTF8.self)
    }

    @Test("R93: a session sends itself an event over HTTP: named by the send, data from its params, raw the request")
    func sendToItself() throws {
        let session = try Self.run(
            """
              <datamodel><data id="Var1" expr="2"/><data id="seen"/></datamodel>
              <state id="s0">
                <onentry>
                  <send event="test" type="\(Self.type)" targetexpr="_ioprocessors['basichttp']['location']" namelist="Var1">
                    <param name="param1" expr="'a b&amp;c'"/>
                  </send>
                </onentry>
                <transition event="test" target="pass">
                  <assign location="seen" expr="[_event.data.Var1, _event.data.param1, _event.origintype, _event.type,
                    _event.raw.search(/^POST \\/scxml\\//) === 0, _event.raw.indexOf('_scxmleventname=test') >= 0]"/>
                </transition>
                <transition event="*" target="fail"/>
              </state>
            """)
        #expect(session.root.activeAtomicIDs == ["pass"])
        #expect(try session.context.data.value(of: "seen") == ["2", "a b&c", .string(Self.type), "external", true, true])
    }

    @Test("R93: _ioprocessors lists the processor under its type and 'basichttp', one location per session")
    func locations() throws {
        let http = try BasicHTTPEventProcessor()
        let session = try Self.run(
            """
              <datamodel><data id="where"/></datamodel>
              <state id="s0">
                <onentry><assign location="where" expr="[_ioprocessors['basichttp'].location,
                  _ioprocessors['\(Self.type)'].location, _sessionid]"/></onentry>
              </state>
            """, http: http)
        guard case .array(let values)? = try session.context.data.value(of: "where"), case .string(let id) = values[2] else {
            Issue.record("no locations")
            return
        }
        let location = "http://127.0.0.1:\(http.port)/scxml/\(id)"
        #expect(values[0] == .string(location) && values[1] == .string(location))
        #expect(http.location(of: id) == location)
    }

    @Test("R93: content is the body; without an event name the event is HTTP.POST with the content as data")
    func contentAndDefaultName() throws {
        let session = try Self.run(
            """
              <datamodel><data id="seen"/></datamodel>
              <state id="s0">
                <onentry>
                  <send type="basichttp" targetexpr="_ioprocessors['basichttp']['location']"><content>this is some content</content></send>
                </onentry>
                <transition event="HTTP.POST" target="pass">
                  <assign location="seen" expr="[_event.data, _event.raw.search(/this%20is%20some%20content/) > 0]"/>
                </transition>
                <transition event="*" target="fail"/>
              </state>
            """)
        #expect(session.root.activeAtomicIDs == ["pass"])
        #expect(try session.context.data.value(of: "seen") == ["this is some content", true])
    }

    @Test("R93: a send that cannot be dispatched raises error.communication; without a processor it is error.execution")
    func failures() throws {
        func outcome(_ send: String, http: Bool = true) throws -> [String] {
            let xml = InvokeTests.chart(
                """
                  <state id="s0">
                    <onentry><send event="ping"/>\(send)</onentry>
                    <transition event="error.communication" target="pass"/>
                    <transition event="error.execution" target="fail"/>
                  </state>
                """)
            var session = SCXMLSession(chart: try SCXMLDocument.load(string: xml), http: http ? try BasicHTTPEventProcessor() : nil)
            try? session.start()
            return session.root.activeAtomicIDs
        }
        // No target (W3C 577), a port nothing listens on, a session that does not run, https.
        #expect(try outcome("<send event=\"x\" type=\"\(Self.type)\"/>") == ["pass"])
        #expect(try outcome("<send event=\"x\" type=\"\(Self.type)\" target=\"http://127.0.0.1:1/scxml/x\"/>") == ["pass"])
        #expect(try outcome("<send event=\"x\" type=\"basichttp\" targetexpr=\"_ioprocessors.basichttp.location + 'nobody'\"/>") == ["pass"])
        #expect(try outcome("<send event=\"x\" type=\"basichttp\" target=\"https://127.0.0.1/x\"/>") == ["pass"])
        #expect(try outcome("<send event=\"x\" type=\"\(Self.type)\" target=\"http://127.0.0.1:1/\"/>", http: false) == ["fail"])
    }

    @Test("R93: a delayed HTTP send is posted when it falls due, and <cancel> removes it")
    func delayed() throws {
        let body = """
              <state id="s0">
                <onentry>
                  <send id="later" event="late" delay="2s" type="basichttp" targetexpr="_ioprocessors.basichttp.location"/>
                </onentry>
                <transition event="late" target="pass"/>
                <transition event="stop"><cancel sendid="later"/></transition>
              </state>
            """
        #expect(try Self.run(body, ["+1s"]).root.activeAtomicIDs == ["s0"])
        #expect(try Self.run(body, ["+1s", "+1s"]).root.activeAtomicIDs == ["pass"])
        #expect(try Self.run(body, ["stop", "+5s"]).root.activeAtomicIDs == ["s0"])
    }

    @Test("R93: a POST from outside is queued for its session and delivered when the host asks")
    func fromOutside() throws {
        let http = try BasicHTTPEventProcessor()
        var session = try Self.run(
            """
              <datamodel><data id="got"/></datamodel>
              <state id="s0">
                <transition event="order.placed" target="pass"><assign location="got" expr="_event.data.id"/></transition>
              </state>
            """, http: http)
        let id = session.context.sessionID
        try http.post("_scxmleventname=order.placed&id=42", contentType: "application/x-www-form-urlencoded", to: http.location(of: id))
        #expect(session.root.activeAtomicIDs == ["s0"])
        #expect(try session.deliverReceivedHTTPEvents())
        #expect(session.root.activeAtomicIDs == ["pass"])
        #expect(try session.context.data.value(of: "got") == "42")
        #expect(try !session.deliverReceivedHTTPEvents())
    }

    @Test("R93: requests that are not a POST to a running session are refused with their status")
    func refusals() throws {
        let http = try BasicHTTPEventProcessor()
        let session = try Self.run("<state id=\"s0\"/>", http: http)
        let path = "/scxml/" + session.context.sessionID
        #expect(try Self.request("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", to: http) == "HTTP/1.1 405 Method Not Allowed")
        #expect(try Self.request("POST /scxml/nobody HTTP/1.1\r\nContent-Length: 0\r\n\r\n", to: http) == "HTTP/1.1 404 Not Found")
        #expect(try Self.request("POST /other HTTP/1.1\r\nContent-Length: 0\r\n\r\n", to: http) == "HTTP/1.1 404 Not Found")
        #expect(try Self.request("hello\r\n\r\n", to: http) == "HTTP/1.1 400 Bad Request")
        #expect(try Self.request("POST \(path) HTTP/1.1\r\nContent-Length: x\r\n\r\n", to: http) == "HTTP/1.1 400 Bad Request")
        #expect(try Self.request("POST \(path) HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n", to: http) == "HTTP/1.1 413 Content Too Large")
        #expect(try Self.request("POST \(path) HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", to: http) == "HTTP/1.1 400 Bad Request")
        #expect(try Self.request("POST \(path) HTTP/1.1\r\nContent-Length: 3\r\n\r\na=b", to: http) == "HTTP/1.1 200 OK")
        #expect(http.takeReceived(owner: session.httpOwner).map(\.event.name) == ["HTTP.POST"])
    }

    @Test("R93: hosts sharing a processor each take their own sessions' events; a host that does not take them is held to its limit (503)")
    func sharedProcessor() throws {
        let http = try BasicHTTPEventProcessor(maximumWaitingEvents: 2)
        let chart = "<state id=\"s0\"><transition event=\"go\" target=\"pass\"/></state>"
        var first = try Self.run(chart, http: http)
        var second = try Self.run(chart, http: http)
        let form = "application/x-www-form-urlencoded"
        try http.post("_scxmleventname=go", contentType: form, to: http.location(of: second.context.sessionID))
        #expect(try !first.deliverReceivedHTTPEvents())
        #expect(first.root.activeAtomicIDs == ["s0"])
        #expect(try second.deliverReceivedHTTPEvents())
        #expect(second.root.activeAtomicIDs == ["pass"])
        // The second has finished: its session takes no more requests.
        #expect(throws: BasicHTTPError.rejected("HTTP/1.1 404 Not Found")) {
            try http.post("_scxmleventname=go", contentType: form, to: http.location(of: second.context.sessionID))
        }
        let location = http.location(of: first.context.sessionID)
        try http.post("a=1", contentType: form, to: location)
        try http.post("a=2", contentType: form, to: location)
        #expect(throws: BasicHTTPError.rejected("HTTP/1.1 503 Service Unavailable")) { try http.post("a=3", contentType: form, to: location) }
        #expect(try first.deliverReceivedHTTPEvents())
        try http.post("_scxmleventname=go", contentType: form, to: location)
        #expect(try first.deliverReceivedHTTPEvents())
        #expect(first.root.activeAtomicIDs == ["pass"])
        // A stopped host's sessions take no more requests either.
        var third = try Self.run(chart, http: http)
        third.stop()
        #expect(throws: BasicHTTPError.rejected("HTTP/1.1 404 Not Found")) {
            try http.post("_scxmleventname=go", contentType: form, to: http.location(of: third.context.sessionID))
        }
    }

    @Test("R93: an AsyncSCXMLSession takes a POST as it arrives")
    func asyncSessionReceives() async throws {
        let http = try BasicHTTPEventProcessor()
        let chart = try SCXMLDocument.load(string: InvokeTests.chart(
            "<state id=\"s0\"><transition event=\"paid\" cond=\"_event.data.order === '17'\" target=\"pass\"/></state>"))
        let session = try await AsyncSCXMLSession(chart: chart, clock: ContinuousClock(), http: http)
        let id = await session.inspect { $0.context.sessionID }
        try http.post("_scxmleventname=paid&order=17", contentType: "application/x-www-form-urlencoded", to: http.location(of: id))
        var waited = 0
        while await session.activeStateIDs != ["pass"] && waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(await session.activeStateIDs == ["pass"])
    }

    @Test("R93: an invoked session has its own location; it reaches its parent's over HTTP")
    func invokedSessions() throws {
        let session = try Self.run(
            """
              <state id="s0">
                <invoke id="child">
                  <param name="parent" expr="_ioprocessors.basichttp.location"/>
                  <content>
                    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="c">
                      <datamodel><data id="parent"/></datamodel>
                      <state id="c">
                        <onentry>
                          <send event="hello" type="basichttp" targetexpr="parent">
                            <param name="from" expr="_ioprocessors.basichttp.location"/>
                          </send>
                        </onentry>
                      </state>
                    </scxml>
                  </content>
                </invoke>
                <transition event="hello" cond="_event.data.from !== _ioprocessors.basichttp.location" target="pass"/>
                <transition event="*" target="fail"/>
              </state>
            """)
        #expect(session.root.activeAtomicIDs == ["pass"])
    }

    @Test("R93: the wire format: percent-encoding both ways, the event a request becomes, URLs")
    func wireFormat() throws {
        #expect(BasicHTTPMessage.percentEncoded("a b&c=d/é") == "a%20b%26c%3Dd%2F%C3%A9")
        #expect(BasicHTTPMessage.percentDecoded("a+b%20c%2") == "a b c%2")
        #expect(BasicHTTPMessage.body(event: "go", data: ["n": 2, "o": ["x": [1, true]]], isContent: false)
            == "_scxmleventname=go&n=2&o=%7B%22x%22%3A%5B1%2Ctrue%5D%7D")
        #expect(BasicHTTPMessage.body(event: nil, data: 1.5, isContent: true) == "1.5")
        // Numbers as ECMAScript writes them, however large.
        #expect(BasicHTTPMessage.body(event: nil, data: ["a": 1e20, "b": 1e21, "c": -0.0, "d": .number(.nan)], isContent: false)
            == "a=100000000000000000000&b=1e%2B21&c=0&d=NaN")
        let event = BasicHTTPMessage.event(method: "POST", contentType: nil, body: Array("_scxmleventname=a.b&k=v%21".utf8), raw: "R")
        #expect(event.name == "a.b" && event.data == ["k": "v!"] && event.raw == "R" && event.kind == .external)
        let text = BasicHTTPMessage.event(method: "PUT", contentType: "text/plain", body: Array("x=1".utf8), raw: "")
        #expect(text.name == "HTTP.PUT" && text.data == "x=1")
        #expect(try BasicHTTPEventProcessor.parse("http://h:81/a?b") == ("h", 81, "/a?b"))
        #expect(try BasicHTTPEventProcessor.parse("HTTP://[::1]:9") == ("::1", 9, "/"))
        #expect(throws: BasicHTTPError.invalidAddress("'http://h:x/' has an invalid port")) { try BasicHTTPEventProcessor.parse("http://h:x/") }
        #expect(throws: BasicHTTPError.self) { try BasicHTTPEventProcessor.parse("ftp://h/") }
        #expect(throws: BasicHTTPError.self) { try BasicHTTPEventProcessor(host: "not an address") }
    }

    @Test("R93: _event.raw survives a snapshot of the event; a chart without HTTP events has none")
    func rawField() throws {
        var event = SCXMLEvent("e", raw: "POST / HTTP/1.1\r\n\r\n")
        let decoded = try JSONDecoder().decode(SCXMLEvent.self, from: try JSONEncoder().encode(event))
        #expect(decoded == event && decoded.raw == event.raw)
        event.raw = nil
        #expect(event == SCXMLEvent("e"))
    }
}
