/// Which events a transition responds to.
///
/// A transition with no descriptor is *eventless*: it is taken as soon as its guard holds,
/// before any queued event is looked at (SCXML §3.13). Descriptors are matched innermost state first,
/// so a child's transition beats its parent's for the same event — that is how events bubble.
public enum EventDescriptor<Event: Hashable & Sendable>: Sendable {
    /// Every event, including done and error events (SCXML `event="*"`).
    case any
    /// Exactly this event (`==`).
    case event(Event)
    /// Every event for which the predicate holds: route an enum case whatever its associated values.
    case matching(@Sendable (Event) -> Bool)
    /// The done event of the state with this id (`done.state.<id>`).
    case done(String)
    /// Any execution error event (`error.execution`).
    case error
    /// The timer with this key (see ``Action/startTimer(_:after:)``).
    case timer(String)
    /// SCXML event descriptors: each token matches an event name equal to it or starting with it
    /// followed by a dot (`error` matches `error.execution`); `foo.*` and `foo.` mean `foo`; `*` matches all.
    case names([String])
}

/// A compiled event descriptor.
@usableFromInline
enum EventMatcher<Event: Hashable & Sendable>: Sendable {
    case any
    case event(Event)
    case matching(@Sendable (Event) -> Bool)
    case done(Int32)
    case error
    case timer(String)
    case names([String])

    /// Normalizes SCXML tokens: `foo.*` and `foo.` become `foo`; a `*` token makes the descriptor `.any`.
    /// The work is ``EventTokens``', which is not generic: from the library's generic code each call
    /// looked this type's metadata up (issue 16, SCXML loading).
    @inlinable
    static func normalizedNames(_ tokens: [String]) -> Self {
        guard let names = EventTokens.normalized(tokens) else { return .any }
        return .names(names)
    }

    @inlinable
    func matches<C>(_ event: ChartEvent<Event>, in chart: Chart<Event, C>) -> Bool {
        switch self {
        case .any:
            return true
        case .event(let wanted):
            if case .event(let e) = event { return e == wanted }
            return false
        case .matching(let predicate):
            if case .event(let e) = event { return predicate(e) }
            return false
        case .done(let state):
            if case .done(let id) = event { return id.index == state }
            return false
        case .error:
            if case .error = event { return true }
            return false
        case .timer(let key):
            if case .timer(let k) = event { return k == key }
            return false
        case .names(let tokens):
            let n = chart.name(of: event)
            for token in tokens where Self.tokenMatches(token, n) { return true }
            return false
        }
    }

    /// SCXML prefix matching on whole dot-separated tokens.
    @inlinable static func tokenMatches(_ token: String, _ name: String) -> Bool {
        guard name.hasPrefix(token) else { return false }
        if name.utf8.count == token.utf8.count { return true }
        let next = name.utf8[name.utf8.index(name.utf8.startIndex, offsetBy: token.utf8.count)]
        return next == UInt8(ascii: ".")
    }
}

/// SCXML event tokens as ``EventDescriptor/names(_:)`` holds them, normalized when a chart is
/// compiled.
@usableFromInline
enum EventTokens {
    /// The tokens with `foo.*` and `foo.` made `foo`; `nil` when one of them is `*` (every event).
    @usableFromInline
    static func normalized(_ tokens: [String]) -> [String]? {
        // Most lists are plain names, which stay as they are: then the list itself is kept,
        // shared with the definition, where a new one was an allocation for every transition.
        var plain = 0
        while plain < tokens.count, case .kept = asciiSuffix(of: tokens[plain]) { plain += 1 }
        if plain == tokens.count { return tokens }
        var result = Array(tokens[..<plain])
        result.reserveCapacity(tokens.count)
        for token in tokens[plain...] {
            switch asciiSuffix(of: token) {
            case .star:
                return nil
            case .kept:
                result.append(token)
            case .drop(let n):
                if token.utf8.count > n { result.append(String(token.utf8.dropLast(n))!) }
            case .characters:
                var t = Substring(token)
                if t == "*" { return nil }
                if t.hasSuffix(".*") { t = t.dropLast(2) } else if t.hasSuffix(".") { t = t.dropLast() }
                if !t.isEmpty { result.append(String(t)) }
            }
        }
        return result
    }

    /// What ``normalized(_:)`` does with a token, decided from its last three bytes when
    /// that decides it as comparing `Character`s would: the suffix `.*` or `.` after an ASCII byte
    /// (or alone) starts a new `Character`, since only non-ASCII marks join the character before
    /// them, and a last byte that is neither `*` nor `.` ends no such suffix. `hasSuffix` compared
    /// `Character`s generically, about 800 instructions per token of every loaded transition
    /// (issue 16, SCXML loading).
    enum TokenSuffix {
        /// The token is `*`.
        case star
        /// The token has neither suffix.
        case kept
        /// The token ends with a suffix of this many bytes.
        case drop(Int)
        /// Only comparing `Character`s decides.
        case characters
    }

    static func asciiSuffix(of token: String) -> TokenSuffix {
        let bytes = token.utf8
        guard let last = bytes.last else { return .kept }
        let dot = UInt8(ascii: "."), star = UInt8(ascii: "*")
        if last != dot && last != star { return last < 0x80 ? .kept : .characters }
        let n = last == star ? 2 : 1
        if last == star {
            if bytes.count == 1 { return .star }
            let before = bytes[bytes.index(bytes.endIndex, offsetBy: -2)]
            if before != dot { return before < 0x80 ? .kept : .characters }
        }
        if bytes.count == n { return .drop(n) }
        let preceding = bytes[bytes.index(bytes.endIndex, offsetBy: -(n + 1))]
        return preceding < 0x80 ? .drop(n) : .characters
    }
}
