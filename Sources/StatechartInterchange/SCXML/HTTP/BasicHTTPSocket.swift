#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX sockets the Basic HTTP processor needs: a listening socket on a loopback or any
/// address, accepted connections, and outgoing connections — each read and write bounded by a
/// timeout, so that a peer that stops answering cannot hold a thread forever.
struct BasicHTTPSocket: ~Copyable {
    let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { _ = close(descriptor) }

    /// A socket listening on `host` (an IPv4 address) and `port` (0: one the system picks).
    static func listening(host: String, port: UInt16) throws(BasicHTTPError) -> BasicHTTPSocket {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw .invalidAddress("'\(host)' is not an IPv4 address")
        }
        let fd = socket(AF_INET, Int32(streamType), 0)
        guard fd >= 0 else { throw .system("socket", errno) }
        let socket = BasicHTTPSocket(descriptor: fd)
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw .system("bind to \(host):\(port)", errno) }
        guard listen(fd, 64) == 0 else { throw .system("listen", errno) }
        return socket
    }

    /// The local port the socket is bound to.
    var localPort: UInt16 {
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return UInt16(bigEndian: actual.sin_port)
    }

    /// A connection to `host`:`port` (a name or an address), or the reason there is none.
    static func connected(host: String, port: UInt16, timeout seconds: Int) throws(BasicHTTPError) -> BasicHTTPSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(streamType)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else { throw .invalidAddress("cannot resolve '\(host)'") }
        defer { freeaddrinfo(list) }
        var failure = BasicHTTPError.system("connect to \(host):\(port)", ECONNREFUSED)
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            let candidate = BasicHTTPSocket(descriptor: fd)
            candidate.setTimeout(seconds: seconds)
            if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return candidate }
            failure = .system("connect to \(host):\(port)", errno)
        }
        throw failure
    }

    /// The next connection, or `nil` when the socket was shut down (or on an error).
    func accept() -> BasicHTTPSocket? {
        while true {
            #if canImport(Darwin)
            let fd = Darwin.accept(descriptor, nil, nil)
            #elseif canImport(Glibc)
            let fd = Glibc.accept(descriptor, nil, nil)
            #else
            let fd = Musl.accept(descriptor, nil, nil)
            #endif
            if fd >= 0 { return BasicHTTPSocket(descriptor: fd) }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// Bounds every read and write of the socket.
    func setTimeout(seconds: Int) {
        var time = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Wakes a thread blocked in ``accept()`` on this socket.
    func shutDown() { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }

    /// Writes all of `bytes`; `false` when the peer is gone or the write timed out.
    func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(noSignal)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Up to `limit` bytes, appended to `buffer`; 0 at the end of the stream, -1 on an error or a
    /// timeout.
    func read(into buffer: inout [UInt8], limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        var chunk = [UInt8](repeating: 0, count: Swift.min(limit, 16 << 10))
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n > 0 { buffer.append(contentsOf: chunk[0..<n]) }
            return n
        }
    }
}

#if canImport(Darwin)
private let streamType = SOCK_STREAM
private let noSignal: Int32 = 0
#else
private let streamType = Int32(SOCK_STREAM.rawValue)
private let noSignal = Int32(MSG_NOSIGNAL)
#endif

/// What went wrong setting up or using the Basic HTTP processor.
public enum BasicHTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed: which, and its `errno`.
    case system(String, Int32)
    /// An address or URL that cannot be used.
    case invalidAddress(String)
    /// The peer answered with a status other than 2xx, or not with HTTP.
    case rejected(String)

    /// What happened, in words.
    public var description: String {
        switch self {
        case .system(let call, let code): return "\(call) failed: \(String(cString: strerror(code)))"
        case .invalidAddress(let reason): return "invalid address: \(reason)"
        case .rejected(let reason): return "the receiver rejected the message: \(reason)"
        }
    }
}
