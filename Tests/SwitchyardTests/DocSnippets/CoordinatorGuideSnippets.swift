// The samples of docs/coordinators.md, compiled here: each region between `// snippet: NAME` and `// end snippet` is
// the code block marked `<!-- snippet: NAME -->` in the docs, byte for byte after removing the region's common
// indentation (DocSnippetCheckTests fails when they differ; SWITCHYARD_UPDATE_SNIPPETS=1 rewrites the docs).

// snippet: coordinators-declare
import Switchyard

struct TodoScreen: Screen {
    let id: String
    func render() -> ScreenContent {  // called on every read: screens show current data
        ScreenContent(
            title: "Todo \(id)",
            content: [
                .text("Details of \(id)"),
                .button("Back to the list", action: .step(.popToRoot)),
            ])
    }
}

final class TodosCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \TodosCoordinator.list)
    @Root var list = makeList
    @Route(.push) var todo = makeTodo  // input: String
    @Route(.modal(dismissible: false)) var terms = makeTerms

    func makeList() -> ScreenContent {
        ScreenContent(
            title: "Todos",
            content: [
                .list([ListRow(id: "42", title: "The answer", action: .push(\TodosCoordinator.todo, "42"))])
            ])
    }
    func makeTodo(id: String) -> TodoScreen { TodoScreen(id: id) }
    func makeTerms() -> ScreenContent { ScreenContent(title: "Terms") }
}

struct AboutScreen: Screen {
    func render() -> ScreenContent { ScreenContent(title: "About", content: [.text("Made with Switchyard")]) }
}

final class AppCoordinator: TabCoordinatable {
    // Every tab, in order (the first is shown first); tabs that `addTab` adds go in `addedLater:`.
    let tabs = TabNavigation(\AppCoordinator.todos, \AppCoordinator.about)
    @TabRoute(item: todosItem) var todos = makeTodos
    @TabRoute(item: aboutItem) var about = makeAbout
    func makeTodos() -> TodosCoordinator { TodosCoordinator() }
    func makeAbout() -> AboutScreen { AboutScreen() }
    func todosItem() -> TabItem { TabItem(title: "Todos", icon: "list.bullet") }
    func aboutItem() -> TabItem { TabItem(title: "About", icon: "info.circle") }
}
// end snippet

// snippet: coordinators-persistent
final class HomeCoordinator: NavigationCoordinatable, PersistentCoordinator {
    let stack = NavigationStack(initial: \HomeCoordinator.home)
    private(set) var refreshes = 0
    @Root var home = makeHome

    var persistentState: Int {  // written to the restore document, set back on restore
        get { refreshes }
        set { refreshes = newValue }
    }

    func makeHome() -> ScreenContent { ScreenContent(title: "Refreshed \(refreshes) times") }
    func refresh() { refreshes += 1 }
}
// end snippet

// snippet: coordinators-result-declare
struct ColourPicker: Screen, ProducesResult {
    typealias ResultValue = String  // what it gives back
    func render() -> ScreenContent {
        ScreenContent(
            title: "Pick a colour",
            content: [
                .list(
                    ["red", "green"].map { ListRow(id: $0, title: $0, action: .step(.finish(result: .string($0)))) }),
                .button("Cancel", action: .step(.pop)),  // the opener hears .cancelled
            ])
    }
}

final class ThemeCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \ThemeCoordinator.home)
    var colour = "blue"
    var isAdmin = false
    @Root var home = makeHome
    @Route(.modal, onResult: picked) var pickColour = makePicker  // the handler is declared with the route
    @Route(.push, guardedBy: adminOnly) var admin = makeAdmin
    @Route(.push) var login = makeLogin

    func makeHome() -> ScreenContent { ScreenContent(title: "Theme") }
    func makePicker() -> ColourPicker { ColourPicker() }
    func makeAdmin() -> ScreenContent { ScreenContent(title: "Admin") }
    func makeLogin() -> ScreenContent { ScreenContent(title: "Log in") }

    func picked(_ outcome: RouteOutcome<String>) {  // once, in the change that closes the sheet
        if case .finished(let value) = outcome { colour = value }
    }

    func adminOnly() -> RouteGuardDecision {
        isAdmin ? .allow : .redirect([Step(.push(route: "login"))])  // steps from the root coordinator
    }
}
// end snippet

// snippet: coordinators-event-declare
final class InboxCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \InboxCoordinator.inbox)
    private(set) var read: Set<String> = []
    @Root var inbox = makeInbox
    @Route(.push) var message = makeMessage  // input: String

    func makeInbox() -> ScreenContent {
        ScreenContent(
            title: "Inbox (\(2 - read.count) unread)",
            content: [
                .list(
                    ["m1", "m2"].map { id in
                        ListRow(id: id, title: id, action: .event("open", payload: ["id": .string(id)]))
                    })
            ])
    }
    func makeMessage(id: String) -> ScreenContent { ScreenContent(title: "Message \(id)") }

    // The events handle(_:) takes: the catalog lists them, and an event nobody handles is answered with them.
    static let events = [
        FlowEventDeclaration("open", payload: ["type": "object", "properties": ["id": ["type": "string"]]])
    ]

    func handle(_ event: FlowEvent) throws -> Bool {
        guard event.name == "open", let id = event.payload["id"]?.stringValue else {
            return false  // not this coordinator's event: it goes on to the parent
        }
        guard id == "m1" || id == "m2" else {
            throw NavigationError(  // the whole event is refused: nothing changes
                code: "unknownMessage", category: .invalidInput, message: "no message '\(id)'")
        }
        read.insert(id)  // app data: committed with the event
        try route(to: \.message, id)  // joins the event's transaction
        return true  // handled: it stops here
    }
}
// end snippet

// snippet: coordinators-revision-declare
/// The messages of a mailbox, counting every change.
final class Mailbox {
    private(set) var messages: [String] = [] {
        didSet { revision += 1 }
    }
    private(set) var revision = 0
    func receive(_ message: String) { messages.append(message) }
}

struct MailboxScreen: Screen {
    let mailbox: Mailbox
    var contentRevision: Int? { mailbox.revision }  // render() reads nothing else
    func render() -> ScreenContent {
        ScreenContent(
            title: "Mail (\(mailbox.messages.count))",
            content: [.list(mailbox.messages.map { ListRow(id: $0, title: $0) })])
    }
}

final class MailCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \MailCoordinator.mail)
    let mailbox = Mailbox()
    @Root var mail = makeMail
    func makeMail() -> MailboxScreen { MailboxScreen(mailbox: mailbox) }
}
// end snippet
