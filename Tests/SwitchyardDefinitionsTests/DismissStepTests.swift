import Switchyard
import SwitchyardDefinitions
import Testing

/// A defined app's `{action: dismiss}` is the engine's `dismiss`: a Done button on a sheet that a tab's stack
/// presented closes the sheet.
@Suite("The dismiss step of a defined app")
struct DismissStepTests {
    private static let definition = """
        name: sheets
        root: Tabs
        coordinators:
          Tabs:
            kind: tabs
            tabs: [notes]
            routes:
              notes: {kind: tab, target: Notes, item: {title: Notes, icon: circle}}
          Notes:
            kind: stack
            initial: list
            routes:
              list: {kind: root, target: List}
              detail: {target: Detail}
              about: {target: About, presentation: modal}
        screens:
          List:
            title: Notes
            content:
              - {type: button, title: Open, action: {type: transition, steps: [{action: push, route: detail}]}}
          Detail:
            title: Detail
            content:
              - {type: button, title: About, action: {type: transition, steps: [{action: route, route: about}]}}
              - {type: button, title: Close, action: {type: transition, steps: [{action: dismiss}]}}
          About:
            title: About
            content:
              - {type: button, title: Done, action: {type: transition, steps: [{action: dismiss}]}}
        """

    /// Uses the visible screen's button as a client does: its steps, from the coordinator owning the screen.
    private func press(_ title: String, in engine: NavigationEngine) throws {
        let visible = engine.stateValue()["visible"]
        guard case .array(let content)? = visible?["screen"]?["content"],
            let button = content.first(where: { $0["title"]?.stringValue == title })
        else {
            Issue.record("no button '\(title)' on the visible screen")
            return
        }
        let steps = try #require(button["action"]?["steps"]).decode([Step].self)
        try engine.perform(steps, from: visible?["coordinator"]?.stringValue)
    }

    @Test func doneOnASheetPresentedByATabsStackClosesTheSheet() throws {
        #expect(AppDefinition.load(Self.definition, format: .yaml).diagnostics.isEmpty)
        let engine = try NavigationApp(definition: Self.definition, format: .yaml).makeEngine()
        try press("Open", in: engine)
        try press("About", in: engine)
        #expect(engine.visiblePath == ["notes", "list", "detail", "about"])
        try press("Done", in: engine)
        #expect(engine.visiblePath == ["notes", "list", "detail"])
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Detail")
    }

    @Test func closeOnAPushedScreenIsRefusedNamingPop() throws {
        let engine = try NavigationApp(definition: Self.definition, format: .yaml).makeEngine()
        try press("Open", in: engine)
        #expect {
            try press("Close", in: engine)
        } throws: { error in
            (error as? NavigationError)?.code == "cannotDismissTabContent"
                && (error as? NavigationError)?.message.hasSuffix("; use pop to go back in this stack") == true
        }
        #expect(engine.visiblePath == ["notes", "list", "detail"])
    }
}
