import Foundation
import Statechart

/// A context whose actions send events to other instances (rule D20).
///
/// An action appends a message; after the macrostep the host takes the messages out of the
/// context and commits them in the step's outbox, in the same transaction as the step itself, so
/// a step and the events it sends are committed together or not at all. After the commit the host
/// delivers each message to its instance as a send with the message's idempotency key (the
/// sender, its sequence and the message's place, ``OutboxEntry/idempotencyKey``): delivered at
/// least once, applied once.
///
/// ```swift
/// struct Order: Codable, Sendable, DurableMessaging {
///     var outgoingMessages: [DurableMessage] = []
/// }
/// On(.ship, to: .shipped) { try $0.context.send(WarehouseEvent.pack, toInstance: "warehouse-1") }
/// ```
public protocol DurableMessaging {
    /// The messages the running macrostep sends. The host empties it after every step, so a
    /// snapshot never holds a message.
    var outgoingMessages: [DurableMessage] { get set }
}

/// An event for another instance, as JSON (the receiver decodes it as its own chart's event).
public struct DurableMessage: Hashable, Sendable, Codable {
    /// The id of the instance the event goes to.
    public var instance: String
    /// The event, as JSON.
    public var event: String

    /// A message carrying an event already encoded as JSON.
    public init(json event: String, to instance: String) {
        self.instance = instance
        self.event = event
    }

    /// A message carrying `event`, encoded as the host encodes events.
    ///
    /// - Throws: ``DurableError/eventNotEncodable(_:)``.
    public init<E: Encodable>(_ event: E, to instance: String) throws(DurableError) {
        do {
            self.init(json: String(decoding: try DurableJSON.encoder.encode(event), as: UTF8.self), to: instance)
        } catch {
            throw .eventNotEncodable(String(describing: error))
        }
    }
}

extension DurableMessaging {
    /// Sends `event` to the instance `id` once this macrostep is committed (rule D20).
    ///
    /// - Throws: ``DurableError/eventNotEncodable(_:)``; thrown from an action, the chart sees
    ///   `error.execution` and nothing is sent.
    public mutating func send<E: Encodable>(_ event: E, toInstance id: String) throws(DurableError) {
        outgoingMessages.append(try DurableMessage(event, to: id))
    }
}

/// Takes the messages out of a machine's context (none unless the context is ``DurableMessaging``).
func takeMessages<E: Hashable & Sendable, C>(from instance: inout ChartInstance<E, C>) -> [DurableMessage] {
    guard C.self is any DurableMessaging.Type, var context = instance.context as? any DurableMessaging,
        !context.outgoingMessages.isEmpty
    else { return [] }
    let messages = context.outgoingMessages
    context.outgoingMessages = []
    guard let emptied = context as? C else { return [] }
    instance.context = emptied
    return messages
}
