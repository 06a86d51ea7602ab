/// The instance's internal and external event queues (SCXML §3.13), kept in a box made when the
/// first event is queued (issue 16, "Memory").
///
/// A typed machine's user events are processed directly when nothing is queued
/// (``ChartInstance/sendLean(_:)``), so a machine whose actions never raise or send events never
/// queues one and holds one pointer instead of two 24-byte queues. The box is copied on write, as
/// ``StepScratch``'s is: copies of an instance never share their queues.
@usableFromInline
struct QueuedEvents<Event: Hashable & Sendable>: Sendable {
    @usableFromInline var internalQueue = EventQueue<ChartEvent<Event>>()
    @usableFromInline var externalQueue = EventQueue<ChartEvent<Event>>()

    @inlinable init() {}
}

extension ChartInstance {
    /// The box of the queues (HeaderBox.swift).
    @usableFromInline typealias QueueBox = HeaderBox<QueuedEvents<Event>>

    /// The queues, made on first use; copied first when another copy of the instance shares them.
    @inlinable var queues: UnsafeMutablePointer<QueuedEvents<Event>> {
        mutating get { uniqueHeader(of: &queueBox) { QueuedEvents() } }
    }

    /// The internal queue. Reading it copies it: the hot paths test ``internalQueueIsEmpty`` and
    /// take events with ``popInternalEvent()``, which make no box.
    @inlinable var internalQueue: EventQueue<ChartEvent<Event>> {
        get { queueBox?.withUnsafeMutablePointerToHeader { $0.pointee.internalQueue } ?? EventQueue() }
        _modify { yield &queues.pointee.internalQueue }
    }

    /// The external queue (see ``internalQueue``).
    @inlinable var externalQueue: EventQueue<ChartEvent<Event>> {
        get { queueBox?.withUnsafeMutablePointerToHeader { $0.pointee.externalQueue } ?? EventQueue() }
        _modify { yield &queues.pointee.externalQueue }
    }

    @inlinable var internalQueueIsEmpty: Bool {
        guard let box = queueBox else { return true }
        return box.withUnsafeMutablePointerToHeader { $0.pointee.internalQueue.isEmpty }
    }

    @inlinable var externalQueueIsEmpty: Bool {
        guard let box = queueBox else { return true }
        return box.withUnsafeMutablePointerToHeader { $0.pointee.externalQueue.isEmpty }
    }

    /// Whether nothing is queued, internal or external.
    @inlinable var queuesAreEmpty: Bool {
        guard let box = queueBox else { return true }
        return box.withUnsafeMutablePointerToHeader { $0.pointee.internalQueue.isEmpty && $0.pointee.externalQueue.isEmpty }
    }

    /// The oldest internal event, removed; `nil` when none is queued (without making the box).
    @inlinable mutating func popInternalEvent() -> ChartEvent<Event>? {
        internalQueueIsEmpty ? nil : queues.pointee.internalQueue.popFirst()
    }

    /// The oldest external event, removed; `nil` when none is queued (without making the box).
    @inlinable mutating func popExternalEvent() -> ChartEvent<Event>? {
        externalQueueIsEmpty ? nil : queues.pointee.externalQueue.popFirst()
    }

    /// Empties the internal queue (without making the box).
    @inlinable mutating func clearInternalQueue() {
        if !internalQueueIsEmpty { queues.pointee.internalQueue.removeAll() }
    }

    /// Empties the external queue (without making the box).
    @inlinable mutating func clearExternalQueue() {
        if !externalQueueIsEmpty { queues.pointee.externalQueue.removeAll() }
    }
}
