import Foundation
import Statechart
import Synchronization

/// SCXML's Basic HTTP Event I/O Processor (SCXML D.2): an HTTP server that turns POSTs to a
/// session's location into external events, and the client that delivers a `<send>` of type
/// `http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor` (rule R93).
///
/// ```swift
/// let http = try BasicHTTPEventProcessor()            // 127.0.0.1, a port the system picks
/// var session = SCXMLSession(chart: chart, http: http)
/// try session.start()                                  // _ioprocessors.basichttp.location is set
/// try session.deliverReceivedHTTPEvents()              // POSTs from outside, when the host polls
/// ```
///
/// Each session of an ``SCXMLSession`` given a processor is reachable at
/// `http://<host>:<port>/scxml/<sessionid>` while it runs. A request there is answered once its
/// event is queued for the session (200), or refused: 404 for a session that does not run, 405
/// for a method other than POST, 400 for a request that is not HTTP, 413 for a body over
/// ``maximumBodyBytes``, 503 while ``maximumWaitingEvents`` wait for a host that does not take
/// them. The server reads each request with a timeout on its own thread; the events wait in the
/// processor until the session's host takes them (``SCXMLSession`` after every step and when
/// asked, ``AsyncSCXMLSession`` as they arrive). Several hosts may share one processor: each
/// takes the events of its own sessions. Sends are delivered by the host with a blocking POST (a
/// timeout of ``timeoutSeconds``): one that fails raises `error.communication` in the sender.
public final class BasicHTTPEventProcessor: Sendable {
    /// The address the server listens on, as given (an IPv4 address).
    public let host: String
    /// The port it listens on (the one the system picked, when 0 was given).
    public let port: UInt16
    /// The largest request body accepted (1 MiB).
    public static let maximumBodyBytes = 1 << 20
    /// How long a read or a write on a connection may wait, in seconds.
    public static let timeoutSeconds = 5
    /// The most events that may wait for one host; beyond it requests are answered 503.
    public let maximumWaitingEvents: Int

    private let server: Server

    /// Starts listening.
    ///
    /// - Parameters:
    ///   - host: The IPv4 address to listen on; the default is the loopback address, reachable
    ///     from this machine only.
    ///   - port: The port; 0 lets the system pick a free one (``port`` says which).
    ///   - maximumWaitingEvents: The most events that may wait for one host to take them
    ///     (10,000 by default); requests beyond it are answered 503.
    /// - Throws: ``BasicHTTPError`` when the address is not valid or cannot be bound.
    public init(host: String = "127.0.0.1", port: UInt16 = 0, maximumWaitingEvents: Int = 10_000) throws(BasicHTTPError) {
        let listener = try BasicHTTPSocket.listening(host: host, port: port)
        self.host = host
        let actual = listener.localPort
        self.port = actual
        self.maximumWaitingEvents = maximumWaitingEvents
        server = Server(listener: listener, host: host, port: actual, maximumWaitingEvents: maximumWaitingEvents)
        let server = self.server
        Thread.detachNewThread { server.serve() }
    }

    deinit { server.stop() }

    /// The location of a session (`_ioprocessors.basichttp.location`).
    public func location(of sessionID: String) -> String { base + sessionID }

    /// What every session's location starts with.
    var base: String { "http://\(host):\(port)/scxml/" }

    /// Stops listening; requests after it are refused by the system.
    public func close() { server.stop() }

    /// A new number for a host of sessions (its events are kept apart from other hosts').
    static func newOwner() -> UInt64 { UInt64.random(in: 1...UInt64.max) }

    /// The sessions of `owner` that requests may reach (requests for others get 404); an empty
    /// set forgets the owner and its waiting events.
    func setSessions(_ ids: Set<String>, owner: UInt64) {
        server.state.withLock { state in
            if ids.isEmpty {
                state.owners[owner] = nil
                state.received[owner] = nil
                state.arrivals[owner] = nil
            } else {
                state.owners[owner] = ids
            }
        }
    }

    /// Calls `handler` (on the server's thread) after each event queued for `owner`; `nil` stops.
    func setArrivalHandler(_ handler: (@Sendable () -> Void)?, owner: UInt64) {
        server.state.withLock { $0.arrivals[owner] = handler }
    }

    /// Takes `owner`'s events received since the last call, in the order they arrived, with the
    /// id of the session each is for.
    func takeReceived(owner: UInt64) -> [(sessionID: String, event: SCXMLEvent)] {
        server.state.withLock { state in
            defer { state.received[owner] = nil }
            return state.received[owner] ?? []
        }
    }

    /// Whether events wait for `owner`.
    func hasReceived(owner: UInt64) -> Bool { server.state.withLock { $0.received[owner]?.isEmpty == false } }

    /// POSTs `body` to `url` (`http://host[:port]/path`), and returns when the receiver answered
    /// with a 2xx status.
    ///
    /// - Throws: ``BasicHTTPError`` for a URL that is not `http:`, a receiver that cannot be
    ///   reached or does not answer in time, or an answer that is not 2xx.
    func post(_ body: String, contentType: String, to url: String) throws(BasicHTTPError) {
        let (host, port, path) = try Self.parse(url)
        let socket = try BasicHTTPSocket.connected(host: host, port: port, timeout: Self.timeoutSeconds)
        let payload = Array(body.utf8)
        let head = "POST \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nContent-Type: \(contentType)\r\n"
            + "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
        guard socket.write(Array(head.utf8) + payload) else { throw .rejected("the connection closed while sending") }
        var response: [UInt8] = []
        while !response.contains(0x0A) {
            if socket.read(into: &response, limit: 4096) <= 0 { break }
            if response.count > 64 << 10 { break }
        }
        let line = String(decoding: response.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw .rejected(line.isEmpty ? "no answer" : "'\(line)' is not an HTTP status line")
        }
        guard (200..<300).contains(status) else { throw .rejected(line) }
    }

    /// The host, port and path of an `http:` URL.
    static func parse(_ url: String) throws(BasicHTTPError) -> (host: String, port: UInt16, path: String) {
        guard url.lowercased().hasPrefix("http://") else {
            throw .invalidAddress("'\(url)' is not an http: URL (https is not supported)")
        }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        var host = Substring(authority)
        var port: UInt16 = 80
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = UInt16(after.dropFirst()) else { throw .invalidAddress("'\(url)' has an invalid port") }
                port = p
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            guard let p = UInt16(host[host.index(after: colon)...]) else { throw .invalidAddress("'\(url)' has an invalid port") }
            port = p
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw .invalidAddress("'\(url)' has no host") }
        return (String(host), port, path)
    }

    /// The listening side, kept apart from the processor so that its thread does not keep the
    /// processor alive: the processor's `deinit` stops it.
    final class Server: Sendable {
        struct State {
            /// Each host's running sessions.
            var owners: [UInt64: Set<String>] = [:]
            /// Each host's events, not yet taken.
            var received: [UInt64: [(sessionID: String, event: SCXMLEvent)]] = [:]
            var arrivals: [UInt64: @Sendable () -> Void] = [:]
            var stopped = false
        }

        let state = Mutex(State())
        private let listener: BasicHTTPSocket
        private let host: String
        private let port: UInt16
        private let maximumWaitingEvents: Int

        init(listener: consuming BasicHTTPSocket, host: String, port: UInt16, maximumWaitingEvents: Int) {
            self.listener = listener
            self.host = host
            self.port = port
            self.maximumWaitingEvents = maximumWaitingEvents
        }

        /// Stops the thread: the socket is shut down, and (where shutting down a listening socket
        /// does not wake a thread waiting in `accept`, as on macOS) one last connection wakes it.
        func stop() {
            let wasStopped = state.withLock { s in
                defer { s.stopped = true }
                return s.stopped
            }
            guard !wasStopped else { return }
            listener.shutDown()
            _ = try? BasicHTTPSocket.connected(host: host == "0.0.0.0" ? "127.0.0.1" : host, port: port, timeout: 1)
        }

        /// Accepts and answers connections, one at a time, until stopped.
        func serve() {
            while let connection = listener.accept() {
                if state.withLock({ $0.stopped }) { return }
                handle(connection)
            }
        }

        private func handle(_ connection: consuming BasicHTTPSocket) {
            connection.setTimeout(seconds: BasicHTTPEventProcessor.timeoutSeconds)
            let status = answer(connection)
            let reason = [
                200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 413: "Content Too Large",
                503: "Service Unavailable",
            ][status] ?? ""
            let extra = status == 405 ? "Allow: POST\r\n" : ""
            _ = connection.write(Array("HTTP/1.1 \(status) \(reason)\r\n\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n".utf8))
        }

        /// Reads one request and queues its event; returns the status to answer.
        private func answer(_ connection: borrowing BasicHTTPSocket) -> Int {
            var buffer: [UInt8] = []
            var headEnd: Int?
            while headEnd == nil {
                guard buffer.count <= 64 << 10, connection.read(into: &buffer, limit: 16 << 10) > 0 else { return 400 }
                headEnd = Self.endOfHead(buffer)
            }
            guard let headEnd else { return 400 }
            let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
            let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
            let request = lines[0].split(separator: " ")
            guard request.count == 3, request[2].hasPrefix("HTTP/1.") else { return 400 }
            var contentLength = 0
            var contentType: String?
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-length" {
                    guard let n = Int(value), n >= 0 else { return 400 }
                    contentLength = n
                } else if name == "content-type" {
                    contentType = value
                } else if name == "transfer-encoding" {
                    return 400  // chunked bodies are not read: a sender must give the length
                }
            }
            guard contentLength <= BasicHTTPEventProcessor.maximumBodyBytes else { return 413 }
            let bodyStart = headEnd + 4
            while buffer.count < bodyStart + contentLength {
                guard connection.read(into: &buffer, limit: bodyStart + contentLength - buffer.count) > 0 else { return 400 }
            }
            let method = String(request[0])
            guard method == "POST" else { return 405 }
            let target = request[1].prefix { $0 != "?" }
            guard target.hasPrefix("/scxml/") else { return 404 }
            let sessionID = String(target.dropFirst("/scxml/".count))
            let body = Array(buffer[bodyStart..<(bodyStart + contentLength)])
            let raw = String(decoding: buffer[0..<(bodyStart + contentLength)], as: UTF8.self)
            let event = BasicHTTPMessage.event(method: method, contentType: contentType, body: body, raw: raw)
            let queued = state.withLock { s -> (status: Int, arrival: (@Sendable () -> Void)?) in
                guard let owner = s.owners.first(where: { $0.value.contains(sessionID) })?.key else { return (404, nil) }
                guard (s.received[owner]?.count ?? 0) < maximumWaitingEvents else { return (503, nil) }
                s.received[owner, default: []].append((sessionID, event))
                return (200, s.arrivals[owner])
            }
            // Called outside the lock: a handler may take the events at once.
            queued.arrival?()
            return queued.status
        }

        private static func endOfHead(_ bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for i in 0...(bytes.count - 4) where bytes[i] == 0x0D && bytes[i + 1] == 0x0A && bytes[i + 2] == 0x0D && bytes[i + 3] == 0x0A {
                return i
            }
            return nil
        }
    }
}
