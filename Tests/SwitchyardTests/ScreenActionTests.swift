import Switchyard
import Testing

/// A recipe book whose screens name routes both ways: typed (checked by the compiler) and as strings (checked by
/// `check`), with one mistake of each kind the check reports.
final class RecipeBook: NavigationCoordinatable {
    static let events = [FlowEventDeclaration("save")]
    let stack = NavigationStack(initial: \RecipeBook.list)
    @Root var list = makeList
    @Route(.push) var recipe = makeRecipe
    @Route(.modal) var editor = makeEditor
    @Route(.push) var stray = makeStray

    func makeList() -> ScreenContent {
        ScreenContent(
            title: "Recipes",
            content: [
                .list([ListRow(id: "soup", title: "Soup", action: .push(\RecipeBook.recipe, "soup"))]),
                .button("Misspelt", action: .push("recipee", input: "soup")),
                .button("New", action: .present(\RecipeBook.editor)),
                .button("Save", action: .event("sav")),
                .button("Help", action: .deepLink("/help")),
            ])
    }
    func makeRecipe(id: String) -> ScreenContent { ScreenContent(title: "Recipe \(id)") }
    func makeEditor() -> RecipeEditor { RecipeEditor() }
    func makeStray() -> ScreenContent {
        ScreenContent(title: "Stray", content: [.button("Elsewhere", action: .push(\Pantry.shelf))])
    }
}

/// Presented by the book: its screen opens a route of the book (its parent) by key path.
final class RecipeEditor: NavigationCoordinatable {
    let stack = NavigationStack(initial: \RecipeEditor.form)
    @Root var form = makeForm
    func makeForm() -> ScreenContent {
        ScreenContent(title: "Editor", content: [.button("See soup", action: .route(\RecipeBook.recipe, "soup"))])
    }
}

/// A coordinator the book never holds.
final class Pantry: NavigationCoordinatable {
    let stack = NavigationStack(initial: \Pantry.shelf)
    @Root var shelf = makeShelf
    func makeShelf() -> ScreenContent { ScreenContent(title: "Shelf") }
}

@Suite("Screen actions")
struct ScreenActionTests {
    private func app() -> NavigationApp {
        let links = DeepLinkRouter<RecipeBook>().route("app://recipes") { _, _ in .opened }
        return NavigationApp(name: "recipes", root: { RecipeBook() }, deepLinks: links)
    }

    private func action(_ document: JSONValue, title: String) -> JSONValue? {
        guard case .array(let content)? = document["visible"]?["screen"]?["content"] else { return nil }
        for element in content where element["title"]?.stringValue == title { return element["action"] }
        return nil
    }

    @Test func theCheckFindsEveryMistakeInTheScreensItCanRender() {
        let findings = app().check()
        let byCode = Dictionary(grouping: findings, by: \.code)
        let misspelt = byCode["unknownRoute"]?.first
        #expect(misspelt?.severity == .error)
        #expect(misspelt?.coordinator == "RecipeBook")
        #expect(misspelt?.route == "list")
        #expect(misspelt?.problem.contains("'recipee'") == true)
        #expect(misspelt?.fix.contains("did you mean 'recipe'?") == true)
        #expect(misspelt?.fix.contains(".push(\\RecipeBook.recipe)") == true)
        let elsewhere = byCode["routeOfAnotherCoordinator"]?.first
        #expect(elsewhere?.severity == .error)
        #expect(elsewhere?.route == "stray")
        #expect(elsewhere?.problem.contains("Pantry") == true)
        #expect(byCode["undeclaredEvent"]?.first?.fix.contains("did you mean 'save'?") == true)
        #expect(byCode["deepLinkNotMatched"]?.first?.problem.contains("'/help'") == true)
        // The typed actions (the row, the editor's route of its parent) are sound: nothing else is found.
        #expect(findings.count == 4, "\(findings)")
    }

    @Test func aTypedActionIsWrittenAsTheRouteOfItsCoordinator() throws {
        let engine = try app().makeEngine()
        let document = try JSONValue(parsing: engine.stateDocument())
        let root = try #require(document["tree"]?["id"]?.stringValue)
        guard case .array(let content)? = document["visible"]?["screen"]?["content"],
            case .array(let rows)? = content.first?["rows"]
        else {
            Issue.record("no list")
            return
        }
        let row: JSONValue = [
            "type": "transition", "coordinator": .string(root),
            "steps": [["action": "push", "route": "recipe", "input": "soup"]],
        ]
        #expect(rows.first?["action"] == row)
        #expect(action(document, title: "New")?["steps"] == [["action": "present", "route": "editor"]])
    }

    @Test func aTypedActionOfAParentNamesTheParentAndWorksWhenUsed() throws {
        let engine = try app().makeEngine()
        try engine.perform([Step(.route(route: "editor"))])
        let document = try JSONValue(parsing: engine.stateDocument())
        let root = try #require(document["tree"]?["id"]?.stringValue)
        let seeSoup = try #require(action(document, title: "See soup"))
        #expect(seeSoup["coordinator"] == .string(root))
        let steps = try JSONValueDecoder().decode([Step].self, from: seeSoup["steps"] ?? [])
        try engine.perform(steps, from: root)
        #expect(try JSONValue(parsing: engine.stateDocument())["visible"]?["screen"]?["title"] == "Recipe soup")
    }

    @Test func aScreenWithATypedActionOfACoordinatorNotHoldingItIsNeverCommitted() throws {
        let engine = try app().makeEngine()
        engine.commitPolicy = CommitPolicy()
        let before = engine.stateDocument()
        #expect {
            try engine.perform([Step(.push(route: "stray"))])
        } throws: { error in
            guard case CommitRefusal.misplacedAction(let reason) = error else { return false }
            return reason.contains("\\Pantry") && reason.contains("'Stray'")
        }
        #expect(engine.stateDocument() == before)
    }
}
