import Foundation
import Statechart
import Testing

private struct Cart: Codable, Equatable {
    enum Status: String, Codable { case open, paid }
    struct Line: Codable, Equatable {
        var name: String
        var quantity: Int
    }
    var lines: [Line]
    var total: Double
    var status: Status
    var coupon: String?
    var tags: [String: Int]
    var small: UInt8
    var raw: DataValue
}

private let cart = Cart(
    lines: [.init(name: "tea", quantity: 2), .init(name: "cake", quantity: 1)], total: 7.5, status: .paid, coupon: nil,
    tags: ["x": 1], small: 200, raw: ["$xml": "kept", "u": .undefined])

@Suite("Codable bridging through DataValue (R90)")
struct DataValueCodingTests {
    @Test("R90: a Swift value encodes to the data JSONEncoder would write, and decodes back")
    func roundTrip() throws {
        let data = try DataValue(encoding: cart)
        #expect(
            data
                == [
                    "lines": [["name": "tea", "quantity": 2], ["name": "cake", "quantity": 1]], "total": 7.5,
                    "status": "paid", "tags": ["x": 1], "small": 200, "raw": ["$xml": "kept", "u": .undefined],
                ])
        // Members come in the order the type encodes them.
        guard case .object(let members) = data else { throw DataValueCodingError(path: "", reason: "not an object") }
        #expect(members.keys == ["lines", "total", "status", "tags", "small", "raw"])
        #expect(try data.decode(Cart.self) == cart)

        // The same as going through JSON text (a DataValue member aside, which JSON writes with its $-escapes).
        var plain = cart
        plain.raw = .null
        let viaJSON = try JSONDecoder().decode(DataValue.self, from: try JSONEncoder().encode(plain))
        #expect(try DataValue(encoding: plain) == viaJSON)

        // Scalars, optionals and collections on their own.
        #expect(try DataValue(encoding: 3) == 3)
        #expect(try DataValue(encoding: [1.5, 2]) == [1.5, 2])
        #expect(try DataValue(encoding: Optional<Int>.none) == .null)
        #expect(try DataValue.null.decode(Int?.self) == nil)
        #expect(try DataValue.undefined.decode(String?.self) == nil)
        #expect(try (["a", .null] as DataValue).decode([String?].self) == ["a", nil])
        #expect(try (["k": 2] as DataValue).decode([String: Int].self) == ["k": 2])
    }

    @Test("R90: a value that does not fit the type fails naming where and why")
    func mismatches() throws {
        var data = try DataValue(encoding: cart)
        func failure<T: Decodable>(_ type: T.Type, _ value: DataValue) -> DataValueCodingError? {
            do {
                _ = try value.decode(type)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure(Int.self, "12")?.description == "expected an integer, found a string (\"12\")")
        #expect(failure(Int.self, 1.5)?.description == "the number 1.5 is not Int's (an integer in its range)")
        #expect(failure(UInt8.self, 300)?.description == "the number 300.0 is not UInt8's (an integer in its range)")
        #expect(failure([Int].self, ["a": 1])?.description == "expected an array, found an object")
        #expect(failure(Bool.self, .undefined)?.description == "expected a boolean, found undefined")

        guard case .object(var members) = data, case .array(var lines) = members["lines"]! else {
            throw DataValueCodingError(path: "", reason: "not the encoded cart")
        }
        lines[1] = ["name": "cake", "quantity": "one"]
        members["lines"] = .array(lines)
        data = .object(members)
        #expect(failure(Cart.self, data)?.description == "at lines[1].quantity: expected an integer, found a string (\"one\")")
        members["lines"] = []
        members["total"] = nil
        #expect(failure(Cart.self, .object(members)) == DataValueCodingError(path: "total", reason: "the member 'total' is missing"))
        members["total"] = 1
        members["status"] = "lost"
        #expect(failure(Cart.self, .object(members))?.path == "status")
        #expect(failure([Int].self, [1, "x"])?.path == "[1]")
    }

    @Test("R90: an integer a double cannot hold exactly fails to encode")
    func inexactIntegers() {
        #expect(throws: DataValueCodingError(path: "", reason: "the integer 9223372036854775807 has no exact number (double) value")) {
            try DataValue(encoding: Int64.max)
        }
        #expect(throws: DataValueCodingError.self) { try DataValue(encoding: ["n": UInt64.max]) }
        #expect((try? DataValue(encoding: Int64(1) << 53)) == .number(9_007_199_254_740_992))
    }

    @Test("R89: DataModelValues encode their variables as one object and their read-only names sorted")
    func dataModelValuesCoding() throws {
        let values = DataModelValues(variables: ["b": 1, "$a": ["$xml": "x"], "_event": .undefined], readOnly: ["_event"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(values), as: UTF8.self)
        #expect(json == #"{"readOnly":["_event"],"variables":{"$object":{"$a":{"$object":{"$xml":"x"}},"_event":{"$undefined":true},"b":1}}}"#)
        #expect(try JSONDecoder().decode(DataModelValues.self, from: Data(json.utf8)) == values)
        // Through the Foundation-free encoder too.
        #expect(try DataValue(encoding: values).decode(DataModelValues.self) == values)
    }
}
