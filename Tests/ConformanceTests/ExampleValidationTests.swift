import Statechart
import Testing

/// `validate()` stays silent on the four documented examples (issue 7 §2, "Done when"): each Swift
/// chart here has an SCXML twin under `Specs/examples/`, on which `statechart validate --strict`
/// is silent too (`Tests/InterchangeTests/ExampleChartsTests.swift`).
@Suite("Conformance: the documented examples validate cleanly")
struct ExampleValidationTests {
    static func diagnostics<S: Hashable & Sendable, E: Hashable & Sendable, C>(
        _ machine: Machine<S, E, C>
    ) throws -> [ChartDiagnostic] {
        try TypedChart(machine).validate()
    }

    @Test("the order chart with its payment child (swift-state-kit)")
    func order() throws {
        let diagnostics = try Self.diagnostics(OrderConformanceTests.orderWithPayment())
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    }

    @Test("the order chart of the README without the child (swift-state-kit)")
    func flatOrder() throws {
        let diagnostics = try Self.diagnostics(OrderConformanceTests.orderMachine())
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    }

    @Test("the sync chart (DDStateMachine)")
    func sync() throws {
        let diagnostics = try Self.diagnostics(SyncConformanceTests.syncMachine(service: .init()))
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    }

    @Test("the app launcher (Stated)")
    func appLauncher() throws {
        let services = AppLauncherConformanceTests.AppServices(isUpgradePending: false, canLogIn: true)
        let diagnostics = try Self.diagnostics(AppLauncherConformanceTests.appLauncher(services))
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
    }

    @Test("the user login chart with its screens child (Machinus): its background state is entered by suspend(to:) (R42)")
    func userLogin() throws {
        let chart = try TypedChart(UserLoginConformanceTests.userMachine())
        let diagnostics = chart.validate(backgroundStates: [UserLoginConformanceTests.UserState.background])
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        // Without naming it, the background state — which no route or event leads to — is unreachable.
        #expect(chart.validate().map(\.description) == ["warning[unreachable-state]: 'background' can never be entered"])
    }
}
