import Foundation
import Statechart

extension Notification.Name {
    /// Posted after every send or request of a ``StateMachine`` that opted in with
    /// ``Statechart/StateMachine/postNotifications(name:center:object:)`` (Machinus' notifications).
    public static let statechartDidTransition = Notification.Name("StatechartDidTransition")
}

/// The keys of a ``Foundation/Notification/Name/statechartDidTransition`` notification's `userInfo`.
public enum StatechartNotificationKey {
    /// The active state ids before (`[String]`).
    public static let from = "from"
    /// The active state ids after (`[String]`).
    public static let to = "to"
    /// The event, when the change came from a send (the machine's `Event` value).
    public static let event = "event"
}

extension StateMachine {
    /// Posts a notification after every send or request (opt-in; Machinus' `postNotifications`),
    /// with the states before and after and the event in `userInfo`. This lives outside the
    /// Foundation-free core: it is an ordinary observer (rule R30), removable with the returned token.
    @discardableResult
    public mutating func postNotifications(
        name: Notification.Name = .statechartDidTransition, center: NotificationCenter = .default,
        object: (any Sendable)? = nil
    ) -> ObserverToken {
        observe { change in
            var info: [String: Any] = [StatechartNotificationKey.from: change.from, StatechartNotificationKey.to: change.to]
            if let event = change.event { info[StatechartNotificationKey.event] = event }
            center.post(name: name, object: object, userInfo: info)
        }
    }
}
