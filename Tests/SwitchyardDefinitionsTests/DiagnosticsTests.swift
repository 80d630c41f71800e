import Switchyard
import SwitchyardDefinitions
import Testing

/// A definition that cannot work is refused with findings a person can act on: severity, code, JSON Pointer,
/// message and a suggestion.
@Suite("Checking app definitions")
struct DiagnosticsTests {
    private func findings(_ text: String, format: DefinitionFormat = .json) -> [String] {
        AppDefinition.load(text, format: format).diagnostics.map(\.description)
    }

    private func app(_ coordinators: String, screens: String = "{}", extra: String = "") -> String {
        #"{"name": "shop", "root": "App", "coordinators": \#(coordinators), "screens": \#(screens)\#(extra)}"#
    }

    @Test func anUnknownTargetIsNamedWithItsPointerAndTheNearestName() {
        let text = app(
            #"{"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home"}, "checkout": {"target": "Chekout"}}}}"#,
            screens: #"{"Home": {"title": "Home"}, "Checkout": {"title": "Pay"}}"#)
        #expect(
            findings(text) == [
                "error unknownTarget at /coordinators/App/routes/checkout/target: 'Chekout' is neither a screen nor a coordinator of this definition (did you mean 'Checkout'?)"
            ])
    }

    @Test func unknownMembersAndWrongTypesAreEachFound() {
        let text = app(
            #"{"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home", "presentaton": "modal"}}}}"#,
            screens: #"{"Home": {"title": 7}}"#)
        #expect(
            findings(text) == [
                "error unknownMember at /coordinators/App/routes/home/presentaton: a route has no member 'presentaton' (did you mean 'presentation'?)",
                "error wrongType at /screens/Home/title: expected a string (title), found a number",
            ])
    }

    @Test func brokenJSONAndYAMLSayWhere() {
        #expect(findings("{\"name\": ").first?.hasPrefix("error invalidJSON at /: the file is not JSON") == true)
        #expect(
            findings("name: [", format: .yaml).first?.hasPrefix("error invalidYAML at /name/0: the file is not YAML")
                == true)
        #expect(findings("[]") == ["error wrongType at /: expected an object (an app definition), found an array"])
    }

    /// A misspelled route in a deep link's steps is found by the check, not by every open of the link.
    @Test func aDeepLinksStepsNameRoutesThatExist() {
        let text = app(
            #"{"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home"}, "recipe": {"target": "Home", "input": "string"}}}}"#,
            screens: #"{"Home": {"title": "Shop"}}"#,
            extra:
                #", "deepLinks": [{"pattern": "shop://recipe/{id}", "steps": [{"action": "push", "route": "recipee", "input": "{{link.id}}"}]}]"#
        )
        #expect(
            findings(text) == [
                "error unknownRoute at /deepLinks/0/steps/0/route: no coordinator has a route 'recipee' (the deep link 'shop://recipe/{id}' opens it) (did you mean 'recipe'?)"
            ])
    }

    @Test func theRootMustBeACoordinatorAndTheInitialRouteARootRoute() {
        let text =
            #"{"name": "shop", "root": "Ap", "coordinators": {"App": {"kind": "stack", "initial": "next", "routes": {"next": {"target": "App"}}}}}"#
        #expect(
            findings(text) == [
                "error unknownCoordinator at /root: 'Ap' is not a coordinator of this definition (did you mean 'App'?)",
                "error wrongRouteKind at /coordinators/App/initial: the initial route 'next' is not a root route (give it \"kind\": \"root\")",
            ])
    }

    @Test func warningsForWhatIsNeverReachedDataNothingSetsAndIconsThePageLacks() {
        let text = app(
            #"{"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home"}, "admin": {"target": "Home", "presentation": "modal", "guard": {"allowIf": {"path": "data.rol", "equals": "admin"}, "refuse": {"code": "no", "message": "No"}}}}}}"#,
            screens:
                #"{"Home": {"title": "Home", "content": [{"type": "image", "systemName": "unicorn"}]}, "Old": {"title": "Old"}}"#,
            extra: #", "data": {"role": "user"}"#)
        #expect(
            findings(text) == [
                "warning dataNeverSet at /coordinators/App/routes/admin/guard: the condition reads 'data.rol', which neither 'data' nor any operation sets (did you mean 'role'? (it always reads as absent))",
                "warning unknownIcon at /screens/Home/content/0/systemName: the page cannot draw the icon 'unicorn' (it shows the name instead) (one of: arrow.left, arrow.right, bell, bookmark, calendar, cart, checkmark, chevron.left, chevron.right, circle, circle.fill, clock)",
                "warning unreachable at /screens/Old: no route from the root 'App' leads to the screen 'Old' (target it from a route, or remove it)",
            ])
        #expect(AppDefinition.load(text).definition != nil)  // warnings do not stop it
    }

    @Test func guardsRedirectingInACircleAreFound() {
        let text = app(
            #"{"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home"}, "a": {"target": "Home", "guard": {"allowIf": {"path": "data.x", "exists": true}, "redirect": [{"action": "push", "route": "b"}]}}, "b": {"target": "Home", "guard": {"allowIf": {"path": "data.x", "exists": true}, "redirect": [{"action": "push", "route": "a"}]}}}}}"#,
            screens: #"{"Home": {"title": "Home"}}"#, extra: #", "data": {"x": null}"#)
        #expect(
            findings(text).first
                == "error redirectLoop at /coordinators/App/routes/a/guard: guards redirect in a circle: a → b → a (let one of them allow, or redirect elsewhere)"
        )
    }

    /// The engine's own findings come with pointers, in the definition's words (not Swift's TabNavigation).
    @Test func whatTheEnginesCheckFindsComesWithPointers() {
        let text = app(
            #"{"App": {"kind": "tabs", "tabs": ["one"], "routes": {"one": {"kind": "tab", "target": "Home", "item": {"title": "One", "icon": "house"}}, "two": {"kind": "tab", "target": "Home", "item": {"title": "Two", "icon": "star"}}}}}"#,
            screens: #"{"Home": {"title": "Home"}}"#,
            extra:
                #", "deepLinks": [{"pattern": "shop://x/:id", "steps": []}, {"pattern": "shop://x/new", "steps": []}]"#)
        #expect(
            findings(text) == [
                "error tabNotListed at /coordinators/App/routes/two: the tab route 'two' is in neither \"tabs\" nor \"addedLater\", so it is never shown (add 'two' to \"tabs\", or to \"addedLater\" if an operation adds it)",
                "error shadowedDeepLink at /deepLinks/1/pattern: deep link 'shop://x/new' never runs: the earlier 'shop://x/:id' matches every link it does (declare 'shop://x/new' before 'shop://x/:id')",
            ])
    }

    @Test func aScreenActionNamesARouteOrEventThatExists() {
        let text = app(
            #"{"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home"}, "detail": {"target": "Home"}}, "events": {"save": {}}}}"#,
            screens:
                #"{"Home": {"title": "Home", "content": [{"type": "button", "title": "Go", "action": {"type": "transition", "steps": [{"action": "push", "route": "detial"}]}}, {"type": "button", "title": "Save", "action": {"type": "event", "name": "sav"}}]}}"#
        )
        #expect(
            findings(text) == [
                "error unknownRoute at /screens/Home/content/0/action/steps/0/route: the screen's coordinator (App) has no route 'detial' (did you mean 'detail'?)",
                "error unknownEvent at /screens/Home/content/1/action/name: no coordinator handles the event 'sav' (did you mean 'save'?)",
            ])
    }

    /// Independent mistakes come out in one check, not one round after another: a route targeting nothing, a
    /// screen action's route and event, and a deep link's step.
    @Test func independentMistakesAreAllFoundAtOnce() {
        let text = app(
            #"{"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home"}, "detail": {"target": "Home"}, "checkout": {"target": "Chekout"}}, "events": {"save": {}}}}"#,
            screens:
                #"{"Home": {"title": "Home", "content": [{"type": "button", "title": "Go", "action": {"type": "transition", "steps": [{"action": "push", "route": "detial"}]}}, {"type": "button", "title": "Save", "action": {"type": "event", "name": "sav"}}]}}"#,
            extra: #", "deepLinks": [{"pattern": "shop://d", "steps": [{"action": "push", "route": "detale"}]}]"#
        )
        #expect(
            findings(text) == [
                "error unknownTarget at /coordinators/App/routes/checkout/target: 'Chekout' is neither a screen nor a coordinator of this definition (one of: App, Home)",
                "error unknownRoute at /screens/Home/content/0/action/steps/0/route: the screen's coordinator (App) has no route 'detial' (did you mean 'detail'?)",
                "error unknownEvent at /screens/Home/content/1/action/name: no coordinator handles the event 'sav' (did you mean 'save'?)",
                "error unknownRoute at /deepLinks/0/steps/0/route: no coordinator has a route 'detale' (the deep link 'shop://d' opens it) (did you mean 'detail'?)",
            ])
    }

    /// The engine's findings (a tab never shown) come in the same round as mistakes in actions and deep-link steps.
    @Test func theEnginesFindingsComeWithTheActionsMistakes() {
        let text = app(
            #"{"App": {"kind": "tabs", "tabs": ["one"], "routes": {"one": {"kind": "tab", "target": "Home", "item": {"title": "One", "icon": "house"}}, "two": {"kind": "tab", "target": "Home", "item": {"title": "Two", "icon": "star"}}}, "events": {"save": {}}}}"#,
            screens:
                #"{"Home": {"title": "Home", "content": [{"type": "button", "title": "Save", "action": {"type": "event", "name": "sav"}}]}}"#,
            extra: #", "deepLinks": [{"pattern": "shop://d", "steps": [{"action": "focus", "route": "tow"}]}]"#
        )
        #expect(
            findings(text) == [
                "error tabNotListed at /coordinators/App/routes/two: the tab route 'two' is in neither \"tabs\" nor \"addedLater\", so it is never shown (add 'two' to \"tabs\", or to \"addedLater\" if an operation adds it)",
                "error unknownEvent at /screens/Home/content/0/action/name: no coordinator handles the event 'sav' (did you mean 'save'?)",
                "error unknownRoute at /deepLinks/0/steps/0/route: no coordinator has a route 'tow' (the deep link 'shop://d' opens it) (one of: one, two)",
            ])
    }

    /// A message naming a kind of thing says "an" before a vowel sound: "an element type", "an image element".
    @Test func messagesChooseTheirArticleBySound() {
        let text = app(
            #"{"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Home"}}}}"#,
            screens:
                #"{"Home": {"title": "Home", "content": [{"type": "imag", "systemName": "star"}, {"type": "image", "systemName": "star", "colour": "red"}, {"type": "text", "text": "Hi", "style": "heading"}]}}"#
        )
        #expect(
            findings(text) == [
                "error invalidValue at /screens/Home/content/0/type: 'imag' is not an element type (did you mean 'image'?)",
                "error unknownMember at /screens/Home/content/1/colour: an image element has no member 'colour' (did you mean 'color'?)",
                "error invalidValue at /screens/Home/content/2/style: 'heading' is not a text style (did you mean 'headline'?)",
            ])
    }

    /// Findings come errors first, each severity in the order of the file's text (line, then column), not of the
    /// pointers: here the screens come before the coordinators, a route's `target` before its misspelt member
    /// (`presentaton` < `target` as pointers), and the warning, though on line 4, after the errors.
    @Test func findingsComeInTheOrderOfTheText() {
        let yaml = """
            name: shop
            root: App
            screens:
              Intro: {title: Intro, content: [{type: image, systemName: unicorn}]}
              Home:
                title: Home
                content:
                  - {type: button, title: Go, action: {type: transition, steps: [{action: push, route: detial}]}}
            coordinators:
              App:
                kind: stack
                initial: home
                routes:
                  checkout: {target: Chekout, presentaton: modal}
                  home: {kind: root, target: Home}
                  detail: {target: Home}
            """
        let diagnostics = AppDefinition.load(yaml, format: .yaml).diagnostics
        #expect(
            diagnostics.map { "\($0.position.map { "\($0.line):\($0.column)" } ?? "-") \($0.code) \($0.pointer)" } == [
                "8:92 unknownRoute /screens/Home/content/0/action/steps/0/route",
                "14:26 unknownTarget /coordinators/App/routes/checkout/target",
                "14:48 unknownMember /coordinators/App/routes/checkout/presentaton",
                "4:61 unknownIcon /screens/Intro/content/0/systemName",
            ])
    }

    /// A wrong kind or a wrong title does not hide the mistakes in the rest of the coordinator or screen.
    @Test func aWrongKindOrTitleHidesNothingElse() {
        let yaml = """
            name: hello
            root: Main
            coordinators:
              Main:
                kind: stak
                initial: home
                routes:
                  home: {kind: root, target: Home}
                  more: {target: Home, presentation: sheet, input: str}
            screens:
              Home:
                title: 5
                content: {a: 1}
            """
        #expect(
            AppDefinition.load(yaml, format: .yaml).diagnostics.map { "\($0.code) \($0.pointer)" } == [
                "invalidValue /coordinators/Main/kind", "invalidValue /coordinators/Main/routes/more/presentation",
                "invalidValue /coordinators/Main/routes/more/input", "wrongType /screens/Home/title",
                "wrongType /screens/Home/content",
            ])
    }

    @Test func aRefusedDefinitionIsAFailureListingEveryError() {
        #expect {
            _ = try NavigationApp(definition: "{}")
        } throws: { error in
            "\(error)"
                == "error missingMember at /: an app definition needs the member 'name' (add \"name\")\nerror missingMember at /: an app definition needs the member 'root' (add \"root\")\nerror missingMember at /: an app definition needs the member 'coordinators' (add \"coordinators\")"
        }
    }

    @Test func yamlReadsAsTheSameDefinition() throws {
        let yaml = """
            name: hello
            root: Main
            coordinators:
              Main:
                kind: stack
                initial: home
                routes:
                  home: {kind: root, target: Home}
            screens:
              Home:
                title: Hello
            """
        let engine = try NavigationApp(definition: yaml, format: .yaml).makeEngine()
        #expect(engine.stateValue()["visible"]?["screen"]?["title"] == "Hello")
    }
}
