import Statechart
import StatechartECMAScript
import Testing

/// Hostile scripts: endless loops, huge strings, deep nesting, recursion — each ends with a
/// typed error, never a hang or a crash (issue 14 §2 safety).
@Suite struct BudgetTests {
    @Test func endlessLoopsHitTheStepBudget() {
        let limits = ScriptLimits(maximumSteps: 10_000)
        #expect(scriptFailure("while (true) {}", limits: limits)?.kind == .stepBudget)
        #expect(scriptFailure("for (;;) { try { } catch (e) { } }", limits: limits)?.kind == .stepBudget)
        // try/catch cannot swallow the budget.
        #expect(scriptFailure("while (true) { try { while (true) {} } catch (e) {} }", limits: limits)?.kind == .stepBudget)
    }

    @Test func theStepBudgetIsPerEvaluation() throws {
        let session = ScriptSession(limits: ScriptLimits(maximumSteps: 1_000))
        try session.declare("n", 0)
        for _ in 0..<100 { try session.run(ScriptProgram("for (var i = 0; i < 50; i++) n++")) }
        #expect(try session.value(of: "n") == 5_000)
    }

    @Test func hugeStringsHitTheMemoryBudget() {
        let limits = ScriptLimits(maximumMemory: 1 << 20)
        #expect(scriptFailure("var s = 'x'; while (true) s = s + s", limits: limits)?.kind == .memoryBudget)
        #expect(scriptFailure("result = 'x'.repeat(10000000)", limits: limits)?.kind == .memoryBudget)
        #expect(scriptFailure("var a = []; while (true) a.push(1, 2, 3, 4)", limits: limits)?.kind == .memoryBudget)
        #expect(scriptFailure("var a = []; a[100000000] = 1", limits: limits)?.kind == .memoryBudget)
        #expect(scriptFailure("var a = new Array(100000000)", limits: limits)?.kind == .memoryBudget)
    }

    @Test func memoryThatIsReleasedCanBeUsedAgain() throws {
        let session = ScriptSession(limits: ScriptLimits(maximumMemory: 1 << 20))
        try session.declare("s", .undefined)
        for _ in 0..<20 {
            try session.run(ScriptProgram("s = 'y'.repeat(300000)"))  // replaces the last one
        }
        #expect(throws: Never.self) { try session.run(ScriptProgram("s = ''")) }
    }

    @Test func deepNestingIsRefusedAtParseTime() {
        let deep = String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000)
        #expect(ScriptExpression(deep).syntaxError?.kind == .nesting)
        let blocks = String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000)
        #expect(ScriptProgram(blocks).syntaxError?.kind == .nesting)
        let unary = String(repeating: "!", count: 100_000) + "1"
        #expect(ScriptExpression(unary).syntaxError?.kind == .nesting)
        let chain = String(repeating: "a.", count: 100_000) + "b"
        #expect(ScriptExpression(chain).syntaxError?.kind == .nesting)
    }

    @Test func longFlatExpressionsAreFine() throws {
        let sum = Array(repeating: "1", count: 10_000).joined(separator: " + ")
        #expect(try eval(sum) == 10_000)
    }

    @Test func recursionHitsTheDepthLimit() {
        #expect(scriptFailure("function f(n) { return f(n + 1) } f(0)")?.kind == .nesting)
        #expect(scriptFailure("var a = []; for (var i = 0; i < 100000; i++) a = [a]; result = JSON.stringify(a)")?.kind == .nesting)
        #expect(scriptFailure("var a = []; for (var i = 0; i < 100000; i++) a = [a]; result = a")?.kind == .nesting)
    }

    /// Long chains of objects, arrays and closures are released without one native frame per link.
    @Test func longChainsAreReleasedWithoutRecursion() throws {
        #expect(try run("var a = []; for (var i = 0; i < 200000; i++) a = [a]; result = 1", limits: ScriptLimits(maximumSteps: 10_000_000)) == 1)
        #expect(try run("var head = {}; var c = head; for (var i = 0; i < 100000; i++) { c.next = {}; c = c.next } result = 2", limits: ScriptLimits(maximumSteps: 10_000_000)) == 2)
        #expect(
            try run(
                "var f = function () { return 0 }; for (var i = 0; i < 100000; i++) { let g = f; f = function () { return g } } result = 3",
                limits: ScriptLimits(maximumSteps: 10_000_000)) == 3)
    }
}
