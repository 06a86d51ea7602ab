import Testing
@testable import Statechart
@Test func smoke() {}
