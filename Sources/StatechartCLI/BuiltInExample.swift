/// Runs the example shown when `statechart` is called without arguments.
func runBuiltInExample() {
    print("statechart: built-in example coming soon; run `statechart help` for the commands")
}
