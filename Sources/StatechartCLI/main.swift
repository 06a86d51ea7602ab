import Foundation

// The `statechart` command: `statechart help` lists the commands.
exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
