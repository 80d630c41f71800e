import Switchyard
import Testing

@Suite("Dismissal and user gestures")
struct DismissAndGestureTests {
    @Test func dismissingTheRootCoordinatorIsRefused() throws {
        let (engine, app) = try makeEngine()
        expectRefusal(engine, "cannotDismissRoot") { try app.dismiss() }
        expectRefusal(engine, "cannotDismissRoot") { try app.dismissCoordinator() }
    }

    @Test func dismissingATabsContentIsRefused() throws {
        let (engine, app) = try makeEngine()
        let one = try app.root(\.tabs).focus(\.one)
        expectRefusal(engine, "cannotDismissTabContent") { try one.dismiss() }
        expectRefusal(engine, "cannotDismissTabContent") { try one.dismissCoordinator() }
    }

    @Test func dismissingARootContentIsRefused() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        expectRefusal(engine, "notPresented") { try main.dismissCoordinator() }
    }

    @Test func dismissRemovesThePresentationLayerAndEverythingAbove() throws {
        let log = HookLog()
        let (engine, app) = try makeEngine(log: log)
        let main = try app.root(\.main)
        let flow = try main.route(to: \.flow)
        let nested = try flow.route(to: \.nested)
        try main.route(to: \.a)
        #expect(engine.visiblePath == ["main", "home", "flow", "home", "nested", "home", "a"])
        try nested.dismiss()
        #expect(engine.visiblePath == ["main", "home"])
        #expect(
            log.lines.suffix(4) == ["finish nested", "flow saw child finish", "finish flow", "main saw child finish"])
    }

    /// `dismissCoordinator` cuts the parent's stack at the child; `dismiss` of a coordinator pushed outside any sheet
    /// does the same (Stinsen's `dismissCoordinator`, Jumper's `dismiss()`), and the refusal for a root content names
    /// the real reason.
    @Test(arguments: [false, true])
    func aPushedCoordinatorIsDismissedWithEverythingAbove(byDismiss: Bool) throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try main.route(to: \.a)
        let nested = try main.route(to: \.nested)
        try nested.route(to: \.b)
        try main.route(to: \.a)
        if byDismiss { try nested.dismiss() } else { try nested.dismissCoordinator() }
        #expect(engine.visiblePath == ["main", "home", "a"])
        let refusal = expectRefusal(engine, "notPresented") { try main.dismiss() }
        #expect(refusal?.message.contains("is the root of its parent") == true)
    }

    @Test func backPopsTheVisibleItemWhoeverOwnsIt() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        let nested = try main.route(to: \.nested)
        try nested.route(to: \.a)
        try engine.goBack()
        #expect(engine.visiblePath == ["main", "home", "nested", "home"])
        try engine.goBack()  // pops the pushed coordinator itself
        #expect(engine.visiblePath == ["main", "home"])
        expectRefusal(engine, "cannotGoBack") { try engine.goBack() }
    }

    @Test func dismissModalRemovesTheTopModalWithItsSubtree() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        let flow = try main.route(to: \.flow)
        try flow.route(to: \.a)
        try engine.dismissTopModal()
        #expect(engine.visiblePath == ["main", "home"])
        expectRefusal(engine, "noModal") { try engine.dismissTopModal() }
    }

    @Test func gesturesRespectNonDismissibleModalsButCodeDoesNot() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try main.route(to: \.terms)
        let error = expectRefusal(engine, "notDismissible") { try engine.dismissTopModal() }
        #expect(error?.category == .conflict)
        try main.pop()
        #expect(main.stackRoutes == ["home"])
    }

    @Test func shouldLeaveVetoesGesturesWithAReason() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try main.route(to: \.a)
        main.veto = "unsaved changes"
        let refusal = expectRefusal(engine, "vetoed") { try engine.goBack() }
        #expect(refusal?.message.contains("unsaved changes") == true)
        main.veto = nil
        try main.route(to: \.sheet)
        main.veto = "unsaved changes"
        expectRefusal(engine, "vetoed") { try engine.dismissTopModal() }
        main.veto = nil
        try engine.dismissTopModal()
        try engine.goBack()
        #expect(main.stackRoutes == ["home"])
    }

    @Test func selectTabTapsATabAndReselectingCallsTheHook() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        try tabs.focus(\.one).route(to: \.a).route(to: \.b)
        try engine.tapTab("two")
        #expect(tabs.selectedTab == "two")
        try engine.tapTab("one")
        #expect(engine.visiblePath == ["tabs", "one", "home", "a", "b"])
        try engine.tapTab("one")
        #expect(tabs.reselected == ["one"])
        #expect(engine.visiblePath == ["tabs", "one", "home"])
        expectRefusal(engine, "notATab") { try engine.tapTab("sheet") }
        expectRefusal(engine, "unknownRoute") { try engine.tapTab("nope") }
    }

    @Test func alertsArePresentedOneAtATimeAndAnsweringRemovesThem() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try main.presentAlert(
            title: "Error", message: "Username should not be empty",
            actions: [AlertAction("OK", role: .cancel), AlertAction("Go", event: "goA")])
        expectRefusal(engine, "alertAlreadyPresented") { try main.presentAlert(title: "Again") }
        expectRefusal(engine, "invalidAlertChoice") { try main.respondToAlert(choice: 5) }
        try main.respondToAlert(choice: 1)
        #expect(main.stackRoutes == ["home", "a"])
        expectRefusal(engine, "noAlert") { try main.respondToAlert(choice: 0) }
    }

    /// As on iOS: a sheet or a full-screen cover hides the tab bar under it.
    @Test func theTabBarUnderASheetOrACoverCannotBeTapped() throws {
        let (engine, app) = try makeEngine()
        let tabs = try app.root(\.tabs)
        try tabs.present(\.sheet)
        let covered = expectRefusal(engine, "tabBarCovered") { try engine.tapTab("two") }
        #expect(covered?.message.contains("sheet 'sheet'") == true, "\(covered?.message ?? "")")
        expectRefusal(engine, "tabBarCovered") { try engine.tapTab("nope") }
        try engine.dismissTopModal()
        let flow = try app.present(\.flow)
        let cover = expectRefusal(engine, "tabBarCovered") { try engine.tapTab("two") }
        #expect(cover?.message.contains("full-screen cover 'flow'") == true)
        #expect(tabs.selectedTab == "one", "nothing changed")
        try flow.dismiss()
        try engine.tapTab("two")
        #expect(tabs.selectedTab == "two")
    }

    /// As on iOS: an alert takes every touch until it is answered.
    @Test func gesturesWaitUntilTheAlertIsAnswered() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try main.route(to: \.a)
        try main.route(to: \.sheet)
        try main.presentAlert(title: "Error", actions: [AlertAction("OK", role: .cancel)])
        let version = engine.version
        let refusal = expectRefusal(engine, "alertShown") { try engine.goBack() }
        #expect(refusal?.message.contains("'Error'") == true)
        expectRefusal(engine, "alertShown") { try engine.dismissTopModal() }
        #expect(engine.version == version)
        try main.respondToAlert(choice: 0)
        try engine.dismissTopModal()
        try engine.goBack()
        #expect(main.stackRoutes == ["home"])
        let tabs = try app.root(\.tabs)
        try tabs.presentAlert(title: "Tabs")
        expectRefusal(engine, "alertShown") { try engine.tapTab("two") }
    }

    /// As on iOS: swiping down closes a sheet, not a full-screen cover (its own button does, by code).
    @Test func swipingDownDoesNotCloseAFullScreenCover() throws {
        let (engine, app) = try makeEngine()
        let main = try app.root(\.main)
        try main.route(to: \.cover)
        try main.route(to: \.sheet)
        try engine.dismissTopModal()  // the sheet over the cover
        let refusal = expectRefusal(engine, "notSwipeDismissible") { try engine.dismissTopModal() }
        #expect(refusal?.message.contains("'cover'") == true)
        #expect(main.stackRoutes == ["home", "cover"])
        try main.pop()
        #expect(main.stackRoutes == ["home"])
    }
}
