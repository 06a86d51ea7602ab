import Foundation
import Hummingbird
import OrderServiceKit
import StatechartDurable

// The order service: `OrderService [--port N] [--host ADDRESS] [--sqlite PATH | --postgres URL]`.
// Orders live in a SQLite file (orders.sqlite in the working directory by default), or in
// PostgreSQL when given a URL (`--postgres` or the DATABASE_URL environment variable): stop the
// process, even with kill -9, start it again, and every acknowledged order and event is there,
// with timeouts that fell due meanwhile fired on start. On PostgreSQL several processes can serve
// the same orders (each instance is driven by one of them at a time, rule D15).

struct Options {
    var host = "127.0.0.1"
    var port = 8080
    var sqlitePath = "orders.sqlite"
    var postgresURL = ProcessInfo.processInfo.environment["DATABASE_URL"]

    static let usage = "usage: OrderService [--port N] [--host ADDRESS] [--sqlite PATH | --postgres URL]"

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ flag: String) throws -> String {
            guard let v = rest.popFirst() else { throw OptionError("\(flag) needs a value\n\(Self.usage)") }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--port":
                let text = try value(flag)
                guard let p = Int(text), (1...65_535).contains(p) else { throw OptionError("--port: '\(text)' is not a port") }
                port = p
            case "--host": host = try value(flag)
            case "--sqlite":
                sqlitePath = try value(flag)
                postgresURL = nil
            case "--postgres": postgresURL = try value(flag)
            case "-h", "--help": throw OptionError(Self.usage)
            default: throw OptionError("unknown option '\(flag)'\n\(Self.usage)")
            }
        }
    }
}

struct OptionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let store: any DurableStore
    let location: String
    if let url = options.postgresURL {
        let postgres = try await PostgresStore(url: url)
        store = postgres
        location = "PostgreSQL at \(postgres.location)"
    } else {
        store = try await SQLiteStore(path: options.sqlitePath)
        location = options.sqlitePath
    }
    let api = try await OrderAPI(store: store)
    print("orders in \(location); serving on http://\(options.host):\(options.port)/orders")
    let app = api.application(configuration: .init(address: .hostname(options.host, port: options.port)))
    try await app.runService()
} catch {
    FileHandle.standardError.write(Data("OrderService: \(error)\n".utf8))
    exit(1)
}
