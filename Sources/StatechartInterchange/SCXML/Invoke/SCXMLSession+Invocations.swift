import Statechart

/// How an ``SCXMLSession`` starts, cancels and ends invoked sessions and carries events between
/// them (rule R86).
extension SCXMLSession {
    /// Starts the invocations of the states a session entered, and cancels those of the states it
    /// exited (SCXML 6.4: at the end of the macrostep, in document order).
    mutating func startAndCancelInvocations(_ serial: Int) -> Bool {
        guard let i = index(of: serial) else { return false }
        let requests = nodes[i].instance.takeInvocationRequests()
        guard !requests.isEmpty else { return false }
        for request in requests {
            switch request {
            case .cancel(let token):
                if let child = nodes.firstIndex(where: { $0.parent == serial && $0.token == token }) {
                    end(nodes[child].serial, cancelled: true)
                }
            case .start(let token, _, let invocation):
                start(invocation, token: token, in: serial)
            }
        }
        attempt(serial) { instance throws(MachineError) in try instance.settle() }
        return true
    }

    /// Evaluates an invocation's arguments in the invoking session and starts the child session.
    private mutating func start(_ invocation: Invocation<SCXMLEvent, SCXMLContext>, token: UInt64, in serial: Int) {
        guard let p = index(of: serial) else { return }
        func refuse(_ message: String) {
            nodes[p].instance.execute(
                [.run("<invoke>") { _ in throw SCXMLInvokeRefusal(message: message) }], event: nil)
        }
        guard let definition = invocation.definition as? SCXMLInvokeDefinition else {
            return refuse("\(invocation.name) is Swift work, which an SCXML session does not run")
        }
        guard nodes.count < maximumSessions else {
            return refuse("the <invoke> of '\(definition.stateID)' would run more than \(maximumSessions) sessions")
        }
        guard nodes[p].depth < maximumDepth else {
            return refuse("the <invoke> of '\(definition.stateID)' would nest sessions deeper than \(maximumDepth)")
        }
        nodes[p].instance.execute([definition.startAction()], event: nil)
        guard let started = nodes[p].instance.context.links.started else { return }  // error.execution was raised
        nodes[p].instance.context.links.started = nil
        nodes[p].instance.context.links.invocations[started.invokeID] = definition.stateID
        var context = SCXMLContext()
        context.sessionID = Self.newSessionID()
        context.links.parentSessionID = nodes[p].instance.context.sessionID
        context.links.passedValues = started.values
        var child = ChartInstance(chart: started.chart, context: context)
        child.isTracing = isTracing
        if definition.autoforward && !nodes[p].instance.recordsExternalEvents {
            // The invoking session records the external events it takes, to forward them.
            nodes[p].instance.recordsExternalEvents = true
            nodes[p].instance.isTracing = true
        }
        let childSerial = nextSerial
        nextSerial += 1
        nodes.append(
            Node(
                instance: child, serial: childSerial, parent: serial, invokeID: started.invokeID, token: token,
                definition: definition, source: started.source, epoch: now, depth: nodes[p].depth + 1))
        refreshSessionLinks()
        attempt(childSerial) { instance throws(MachineError) in try instance.start() }
    }

    /// Delivers the events a session sent to others since its last step.
    mutating func deliverOutbox(_ serial: Int) -> Bool {
        guard let i = index(of: serial), nodes[i].instance.context.links.outbox.contains(where: { $0.due == nil }) else {
            return false
        }
        let ready = nodes[i].instance.context.links.outbox.filter { $0.due == nil }
        nodes[i].instance.context.links.outbox.removeAll { $0.due == nil }
        for send in ready { deliver(send, from: serial) }
        return true
    }

    /// Delivers the delayed sends to other sessions that are due by `time` on the shared clock, in due order.
    mutating func deliverDelayedSends(dueBy time: Duration) {
        var due: [(time: Duration, serial: Int, send: SCXMLOutboundSend)] = []
        for i in nodes.indices {
            let epoch = nodes[i].epoch
            let ready = nodes[i].instance.context.links.outbox.filter { $0.due.map { epoch + $0 <= time } ?? false }
            guard !ready.isEmpty else { continue }
            nodes[i].instance.context.links.outbox.removeAll { $0.due.map { epoch + $0 <= time } ?? false }
            for send in ready { due.append((epoch + (send.due ?? .zero), nodes[i].serial, send)) }
        }
        // Stable: sends due at the same time keep the order they were sent in.
        for (_, serial, send) in due.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }).map(\.element) {
            deliver(send, from: serial)
        }
    }

    /// Puts one event on its receiver's external queue and runs the receiver to completion. A
    /// receiver that is gone (a cancelled or ended invocation, a parent that ended) raises
    /// `error.communication` in the sender.
    private mutating func deliver(_ send: SCXMLOutboundSend, from serial: Int) {
        guard let s = index(of: serial) else { return }
        var event = send.event
        let receiver: Int?
        switch send.target {
        case .parent:
            receiver = nodes[s].parent.flatMap(index(of:))
            event.invokeID = nodes[s].invokeID
        case .invocation(let id):
            receiver = nodes.firstIndex { $0.parent == serial && $0.invokeID == id }
        case .session(let id):
            receiver = nodes.firstIndex { $0.instance.context.sessionID == id }
        case .http(let url, let body):
            // Posted now, blocking until the receiver answers (its own server thread answers a
            // post to this host's processor once the event is queued, so it is taken next).
            do throws(BasicHTTPError) {
                guard let http else { throw .rejected("this host has no Basic HTTP processor") }
                // The sessions that run now are reachable first: one may post to itself.
                registerHTTPSessions()
                try http.post(body, contentType: BasicHTTPMessage.formType, to: url)
            } catch {
                raiseCommunicationError(in: serial, sendID: event.sendID)
            }
            return
        }
        guard let r = receiver, nodes[r].instance.isRunning else {
            raiseCommunicationError(in: serial, sendID: event.sendID)
            return
        }
        // An event of one of the receiver's invocations runs that invocation's <finalize> first.
        var finalize: [Action<SCXMLEvent, SCXMLContext>] = []
        if case .parent = send.target { finalize = nodes[s].definition?.finalize ?? [] }
        attempt(nodes[r].serial) { instance throws(MachineError) in
            if !finalize.isEmpty { instance.execute(finalize, event: .event(event)) }
            try instance.send(chartEvent: .event(event))
        }
    }

    /// Raises `error.communication` in a session whose send could not be delivered.
    private mutating func raiseCommunicationError(in serial: Int, sendID: String?) {
        attempt(serial) { instance throws(MachineError) in
            instance.execute([.raise(SCXMLEvent("error.communication", kind: .platform, sendID: sendID))], event: nil)
            try instance.settle()
        }
    }

    /// Puts the events the Basic HTTP processor received on their sessions' external queues, in
    /// the order they arrived, each run to completion (rule R93).
    mutating func deliverReceivedHTTP() -> Bool {
        guard let http, http.hasReceived(owner: httpOwner) else { return false }
        for (sessionID, event) in http.takeReceived(owner: httpOwner) {
            guard let r = nodes.firstIndex(where: { $0.instance.context.sessionID == sessionID }), nodes[r].instance.isRunning else {
                continue  // ended since the server answered
            }
            attempt(nodes[r].serial) { instance throws(MachineError) in try instance.send(chartEvent: .event(event)) }
        }
        return true
    }

    /// Tells the Basic HTTP processor which sessions run, the ones requests may reach: a session
    /// that has ended (or not started) takes no more.
    mutating func registerHTTPSessions() {
        guard let http else { return }
        let running = Set(nodes.lazy.filter(\.instance.isRunning).map(\.instance.context.sessionID))
        guard running != httpSessions else { return }
        httpSessions = running
        http.setSessions(running, owner: httpOwner)
    }

    /// Sends the external events a session took to its invocations with `autoforward="true"`.
    mutating func forwardTakenEvents(_ serial: Int) -> Bool {
        guard let i = index(of: serial), nodes[i].instance.recordsExternalEvents else { return false }
        let taken = nodes[i].instance.recordedExternalEvents
        nodes[i].instance.recordedExternalEvents.removeAll()
        if !isTracing { nodes[i].instance.trace.removeAll() }
        guard !taken.isEmpty else { return false }
        let children = nodes.filter { $0.parent == serial && $0.definition?.autoforward == true }.map(\.serial)
        for case .event(let event) in taken {
            for child in children {
                attempt(child) { instance throws(MachineError) in
                    guard instance.isRunning else { return }
                    try instance.send(chartEvent: .event(event))
                }
            }
        }
        return !children.isEmpty
    }

    /// Ends a child session that reached a top-level final state: its parent receives
    /// `done.invoke.<invokeid>` with the final state's `<donedata>`.
    mutating func endIfDone(_ serial: Int) -> Bool {
        guard let i = index(of: serial), let parent = nodes[i].parent, nodes[i].instance.hasStarted,
            !nodes[i].instance.isRunning
        else { return false }
        let invokeID = nodes[i].invokeID ?? ""
        let data = nodes[i].instance.context.doneData[""] ?? .undefined
        let finalize = nodes[i].definition?.finalize ?? []
        end(serial, cancelled: false)
        let done = SCXMLEvent("done.invoke." + invokeID, data: data, kind: .platform, invokeID: invokeID)
        attempt(parent) { instance throws(MachineError) in
            guard instance.isRunning else { return }
            if !finalize.isEmpty { instance.execute(finalize, event: .event(done)) }
            try instance.send(chartEvent: .event(done))
        }
        return true
    }

    /// Removes a session and the sessions it invoked; a cancelled one is stopped first (its exit
    /// actions run, and nothing they send is delivered).
    mutating func end(_ serial: Int, cancelled: Bool) {
        var doomed = [serial]
        var k = 0
        while k < doomed.count {
            doomed += nodes.filter { $0.parent == doomed[k] }.map(\.serial)
            k += 1
        }
        for s in doomed.reversed() {
            guard let i = index(of: s) else { continue }
            if cancelled || s != serial { nodes[i].instance.stop() }
            if isTracing, !nodes[i].instance.trace.isEmpty {
                endedTraces.append((nodes[i].invokeID ?? "", nodes[i].instance.trace))
            }
            if let parent = nodes[i].parent.flatMap(index(of:)), let id = nodes[i].invokeID {
                nodes[parent].instance.context.links.invocations[id] = nil
            }
            nodes.remove(at: i)
        }
        refreshSessionLinks()
    }

    /// Tells every session which sessions exist (`#_scxml_<sessionid>` targets), and where the
    /// Basic HTTP processor receives.
    mutating func refreshSessionLinks() {
        let ids = Set(nodes.map(\.instance.context.sessionID))
        if let http {
            for i in nodes.indices where nodes[i].instance.context.links.httpBase != http.base {
                nodes[i].instance.context.links.httpBase = http.base
            }
        }
        for i in nodes.indices where nodes[i].instance.context.links.sessions != ids {
            nodes[i].instance.context.links.sessions = ids
        }
    }
}

/// Why an `<invoke>` did not start (raised as `error.execution` in the invoking session).
struct SCXMLInvokeRefusal: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
