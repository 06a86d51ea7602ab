import Foundation

/// Dispatches the command line to a command. Exit codes: 0 success, 1 failure (a test failed, a
/// chart did not load, the machine failed), 2 usage error.
enum CommandLineTool {
    static let usage = """
        USAGE: statechart [COMMAND] [ARGUMENTS…]

        Commands:
          test PATH…                     Run every X.scxml that has an X.json scenario beside it
          run FILE.scxml [EVENT…]        Start a chart and send it events, printing the configuration
          export FILE.scxml [--format F] Write a chart as scxml, dot or mermaid
          validate FILE.scxml [--strict] Check a chart for unreachable states, dead transitions, loops…
          paths FILE.scxml --out DIR     Write model-based test scenarios that take every transition
          help                           Show this help

        With no command, runs a built-in example. `statechart COMMAND --help` describes a command.
        """

    static func main(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            return runBuiltInExample()
        }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "test": return TestCommand.main(rest)
        case "run": return RunCommand.main(rest)
        case "export": return ExportCommand.main(rest)
        case "validate": return ValidateCommand.main(rest)
        case "paths": return PathsCommand.main(rest)
        case "help", "--help", "-h":
            print(usage)
            return 0
        default:
            printError("unknown command '\(command)'\n\n" + usage)
            return 2
        }
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data(("statechart: " + message + "\n").utf8))
}

/// The arguments of one command: positionals, flags and options with a value.
struct ParsedArguments {
    /// Parses a command's arguments, handling `--help` and refused arguments itself.
    ///
    /// - Returns: The arguments, or the exit status when the command should stop here
    ///   (0 after printing the help, 2 after printing why the arguments were refused).
    static func forCommand(
        _ arguments: [String], help: String, flags: Set<String> = [], options: Set<String> = []
    ) -> Result<ParsedArguments, CommandExit> {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments(arguments, flags: flags, options: options)
        } catch {
            printError(error.message + "\n\n" + help)
            return .failure(CommandExit(status: 2))
        }
        if parsed.flags.contains("help") {
            print(help)
            return .failure(CommandExit(status: 0))
        }
        return .success(parsed)
    }

    var positionals: [String] = []
    var flags: Set<String> = []
    var options: [String: String] = [:]

    /// Why the arguments were refused.
    struct Failure: Error {
        var message: String
    }

    /// Parses `arguments`. `--name value` and `--name=value` set an option named in `options`;
    /// other `--name`/`-x` must be one of `flags`; `--` ends the options. `--help`/`-h` is
    /// always a flag (`help`).
    init(_ arguments: [String], flags knownFlags: Set<String> = [], options knownOptions: Set<String> = [])
        throws(Failure)
    {
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if onlyPositionals || !a.hasPrefix("-") || a == "-" {
                positionals.append(a)
                continue
            }
            if a == "--" {
                onlyPositionals = true
                continue
            }
            if a == "--help" || a == "-h" {
                flags.insert("help")
                continue
            }
            var name = String(a.drop { $0 == "-" })
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if knownOptions.contains(name) {
                if value == nil {
                    guard i < arguments.count else { throw Failure(message: "option '\(a)' needs a value") }
                    value = arguments[i]
                    i += 1
                }
                options[name] = value
            } else if knownFlags.contains(name), value == nil {
                flags.insert(name)
            } else {
                throw Failure(message: "unknown option '\(a)'")
            }
        }
    }
}

/// A command that stops before doing its work, with the status to exit with.
struct CommandExit: Error {
    var status: Int32
}
