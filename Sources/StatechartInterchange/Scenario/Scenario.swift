import Foundation
import Statechart

/// A conformance scenario (the SCION test format): the configuration expected after start, then
/// steps of optional clock advances and events, each with the configuration expected after it.
///
/// ```json
/// {"initialConfiguration": ["a"],
///  "events": [{"event": {"name": "t"}, "after": 100, "nextConfiguration": ["b"]}]}
/// ```
/// Other keys (such as SCION's `legacySemantics`) are ignored.
public struct Scenario: Hashable, Sendable, Decodable {
    /// The ids of the active atomic states expected once the machine has started.
    public var initialConfiguration: [String]
    /// The steps, in order.
    public var events: [Step]

    /// One step of a scenario.
    public struct Step: Hashable, Sendable, Decodable {
        /// The event to send, if any.
        public var event: Event?
        /// Milliseconds to advance the virtual clock before the event (firing delayed sends due by then).
        public var after: Double?
        /// The ids of the active atomic states expected after the step.
        public var nextConfiguration: [String]

        /// Creates a step.
        public init(event: Event? = nil, after: Double? = nil, nextConfiguration: [String]) {
            self.event = event
            self.after = after
            self.nextConfiguration = nextConfiguration
        }
    }

    /// An event of a step.
    public struct Event: Hashable, Sendable, Decodable {
        /// The event's name.
        public var name: String
        /// The data it carries (SCION's `"data"`), as `_event.data` shows it.
        public var data: DataValue?

        /// Creates an event.
        public init(name: String, data: DataValue? = nil) {
            self.name = name
            self.data = data
        }
    }

    /// Creates a scenario.
    public init(initialConfiguration: [String], events: [Step]) {
        self.initialConfiguration = initialConfiguration
        self.events = events
    }

    /// Decodes a scenario from JSON.
    ///
    /// - Throws: ``ScenarioError/invalidJSON(path:reason:)``.
    public static func decode(_ data: Data, path: String = "scenario") throws(ScenarioError) -> Scenario {
        do {
            return try JSONDecoder().decode(Scenario.self, from: data)
        } catch {
            throw .invalidJSON(path: path, reason: describe(error))
        }
    }

    /// Reads a scenario from a JSON file.
    ///
    /// - Throws: ``ScenarioError/unreadable(path:reason:)`` or ``ScenarioError/invalidJSON(path:reason:)``.
    public static func load(contentsOf url: URL) throws(ScenarioError) -> Scenario {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        return try decode(data, path: url.path)
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "\(context.debugDescription) at \(path(context.codingPath))"
        case .dataCorrupted(let context)?:
            return context.debugDescription
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// Why a scenario could not be read.
public enum ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not a scenario in the expected JSON format.
    case invalidJSON(path: String, reason: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .invalidJSON(let path, let reason): return "\(path) is not a valid scenario: \(reason)"
        }
    }
}
