import Switchyard
import Testing

/// `dismiss` from inside a sheet or cover that a coordinator at the base of what is shown (a tab's content, a
/// parent's root content, the root coordinator) presented on its own stack: as UIKit's `dismiss` on the presenting
/// controller, it closes the topmost presentation. A presented coordinator still dismisses itself.
@Suite("Dismiss inside a presentation")
struct DismissInsidePresentationTests {
    /// What a screen's `.step(.dismiss)` does: the chain starts at the coordinator owning the screen.
    private func pressDismiss(_ engine: NavigationEngine, on coordinator: some Coordinatable) throws {
        try engine.perform([Step(.dismiss)], from: coordinator.nodeID)
    }

    @Test(arguments: ["sheet", "cover"])
    func dismissInsideAScreenPresentedOnATabsStackClosesIt(route: String) throws {
        let (engine, app) = try makeEngine()
        let one = try app.root(\.tabs).focus(\.one)
        try one.route(to: \.a)
        try engine.perform([Step(.route(route: route)), Step(.push(route: "b"))], from: one.nodeID)
        #expect(engine.visiblePath == ["tabs", "one", "home", "a", route, "b"])
        try pressDismiss(engine, on: one)
        #expect(engine.visiblePath == ["tabs", "one", "home", "a"], "the presentation and the push inside it")
        #expect(one.stackRoutes == ["home", "a"])
    }

    @Test func dismissClosesOnlyTheTopmostOfStackedSheets() throws {
        let (engine, app) = try makeEngine()
        let one = try app.root(\.tabs).focus(\.one)
        try one.route(to: \.sheet)
        try one.route(to: \.cover)
        try pressDismiss(engine, on: one)
        #expect(one.stackRoutes == ["home", "sheet"])
        try pressDismiss(engine, on: one)
        #expect(one.stackRoutes == ["home"])
    }

    /// The same at the base of other containers: a root's content, and the root coordinator itself.
    @Test func dismissClosesWhatARootContentOrTheRootCoordinatorPresented() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try main.route(to: \.sheet)
        try main.dismiss()
        #expect(main.stackRoutes == ["home"])
        try app.present(\.sheet)
        #expect(engine.visiblePath == ["main", "home", "sheet"])
        try app.dismiss()
        #expect(engine.visiblePath == ["main", "home"])
    }

    /// Unchanged: a presented coordinator dismisses itself with everything above it, sheets it presented included
    /// (Jumper's `dismiss()`: its parent's controller dismisses what it presented).
    @Test(arguments: [false, true])
    func aPresentedChildCoordinatorStillDismissesItself(withSheet: Bool) throws {
        let log = HookLog()
        let (engine, app) = try makeEngine(log: log)
        let one = try app.root(\.tabs).focus(\.one)
        let flow = try one.route(to: \.flow)
        try flow.route(to: \.a)
        if withSheet { try flow.route(to: \.sheet) }
        try pressDismiss(engine, on: flow)
        #expect(engine.visiblePath == ["tabs", "one", "home"])
        #expect(log.lines.suffix(2) == ["finish flow", "one saw child finish"])
    }

    @Test func aRefusedDismissNamesPopWhenTheStackHasPushes() throws {
        let (engine, app) = try makeEngine()
        let one = try app.root(\.tabs).focus(\.one)
        let bare = expectRefusal(engine, "cannotDismissTabContent") { try one.dismiss() }
        #expect(bare?.message.contains("use pop") == false, "nothing to pop: no hint")
        try one.route(to: \.a)
        let tab = expectRefusal(engine, "cannotDismissTabContent") { try pressDismiss(engine, on: one) }
        #expect(tab?.message.hasSuffix("it cannot be dismissed; use pop to go back in this stack") == true)
        let main = try app.root(\.main)
        try main.route(to: \.a)
        let root = expectRefusal(engine, "notPresented") { try main.dismiss() }
        #expect(root?.message.hasSuffix("; use pop to go back in this stack") == true, "\(root?.message ?? "")")
    }

    @Test func aRefusedDismissCoordinatorNamesDismissForWhatTheCoordinatorPresented() throws {
        let (engine, app) = try makeEngine()
        let one = try app.root(\.tabs).focus(\.one)
        try one.route(to: \.cover)
        let refusal = expectRefusal(engine, "cannotDismissTabContent") { try one.dismissCoordinator() }
        #expect(refusal?.message.hasSuffix("; use dismiss to close the full-screen cover 'cover'") == true)
    }
}
