import Foundation

/// The one JSON configuration of the package: sorted keys, so the same value always encodes to
/// the same text (idempotency keys compare the events they were sent with as text, rule D3).
enum DurableJSON {
    static func encode<T: Encodable>(_ value: T) throws(DurableError) -> String {
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .storage("could not encode \(T.self) to JSON: \(error)")
        }
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static var decoder: JSONDecoder { JSONDecoder() }
}
