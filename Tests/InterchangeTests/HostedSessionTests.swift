import Statechart
import StatechartInterchange
import Testing

/// SCXML machines under a host of many sessions addressed by id (``SCXMLContext/reachesAnySessionByID``):
/// the host picks the session id, takes the sends to other sessions and delivers them itself
/// (rule R86 outside an ``SCXMLSession``; the durable host's rule D22).
@Suite("SCXML sessions addressed by a host")
struct HostedSessionTests {
    static let sender = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s0">
          <state id="s0">
            <onentry>
              <send event="hello" target="#_scxml_other"><param name="n" expr="1"/></send>
              <send event="later" delay="2s" target="#_scxml_other"/>
              <send id="dropped" event="never" delay="3s" target="#_scxml_other"/>
              <send event="soon" delay="1s" target="#_scxml_third"/>
            </onentry>
            <transition event="cancel"><cancel sendid="dropped"/></transition>
            <transition event="error.communication" target="unreachable"/>
          </state>
          <final id="unreachable"/>
        </scxml>
        """

    @Test("D22: a host-chosen session id is _sessionid and the origin of what the machine sends; due sends are taken in due order, later ones stay")
    func takesDueSendsAndKeepsDelayedOnes() throws {
        var machine = ChartInstance(
            chart: try SCXMLDocument.load(string: Self.sender), context: SCXMLContext(sessionID: "me", reachesAnySessionByID: true))
        try machine.start()
        #expect(machine.context.sessionID == "me")
        #expect(machine.activeAtomicIDs == ["s0"])
        let first = machine.context.takeOutboundSends(dueBy: machine.now)
        #expect(first.map(\.sessionID) == ["other"])
        #expect(first.first?.due == nil)
        #expect(first.first?.event.name == "hello")
        #expect(first.first?.event.origin == "#_scxml_me")
        #expect(first.first?.event.originType == "http://www.w3.org/TR/scxml/#SCXMLEventProcessor")
        #expect(first.first?.event.data == ["n": 1])
        #expect(machine.context.nextOutboundDueTime == .seconds(1))
        #expect(machine.context.queuedOutboundSends.map(\.due) == [.seconds(2), .seconds(3), .seconds(1)])
        #expect(machine.context.takeOutboundSends(dueBy: machine.now).isEmpty)

        // The delayed sends stay in the context (and so in a snapshot) until they fall due.
        try machine.send("cancel")
        try machine.advance(by: .seconds(5))
        let later = machine.context.takeOutboundSends(dueBy: machine.now)
        #expect(later.map(\.sessionID) == ["third", "other"])
        #expect(later.map(\.event.name) == ["soon", "later"])
        #expect(later.map(\.due) == [.seconds(1), .seconds(2)])
        #expect(machine.context.queuedOutboundSends.isEmpty)
        #expect(machine.context.nextOutboundDueTime == nil)
    }

    @Test("D22: without the switch an unknown session is error.communication, as in an SCXMLSession")
    func unknownSessionWithoutTheSwitchIsACommunicationError() throws {
        var machine = ChartInstance(chart: try SCXMLDocument.load(string: Self.sender), context: SCXMLContext(sessionID: "me"))
        try machine.start()
        #expect(machine.finalState.map { machine.chart.id(of: $0) } == "unreachable")
    }

    @Test("D22: under a host #_parent and #_<invokeid> reach nothing, delayed or not: error.communication")
    func parentAndInvocationTargetsAreCommunicationErrors() throws {
        for target in ["#_parent", "#_child"] {
            for delay in ["", " delay=\"1s\""] {
                let xml = """
                    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="ecmascript" initial="s0">
                      <state id="s0">
                        <onentry><send event="x" target="\(target)"\(delay)/></onentry>
                        <transition event="error.communication" target="unreachable"/>
                      </state>
                      <final id="unreachable"/>
                    </scxml>
                    """
                var machine = ChartInstance(
                    chart: try SCXMLDocument.load(string: xml), context: SCXMLContext(sessionID: "me", reachesAnySessionByID: true))
                try machine.start()
                #expect(machine.finalState.map { machine.chart.id(of: $0) } == "unreachable", "\(target)\(delay)")
                #expect(machine.context.takeOutboundSends(dueBy: .seconds(10)).isEmpty)
            }
        }
    }

    @Test("D22: the switch and the delayed sends survive a snapshot; discarding drops the delayed ones")
    func snapshotKeepsTheSwitchAndTheDelayedSends() throws {
        let chart = try SCXMLDocument.load(string: Self.sender)
        var machine = ChartInstance(chart: chart, context: SCXMLContext(sessionID: "me", reachesAnySessionByID: true))
        try machine.start()
        _ = machine.context.takeOutboundSends(dueBy: machine.now)
        var restored = try ChartInstance(chart: chart, restoring: machine.snapshot())
        #expect(restored.context.reachesAnySessionByID)
        #expect(restored.context.nextOutboundDueTime == .seconds(1))
        restored.context.discardDelayedOutboundSends()
        #expect(restored.context.nextOutboundDueTime == nil)
        #expect(!SCXMLContext().reachesAnySessionByID)
    }
}
