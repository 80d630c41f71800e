import Switchyard
import Testing

// The statements of docs/coordinators.md's samples (see CoordinatorGuideSnippets.swift), run with what they claim.

@Test func theCoordinatorExampleWorks() throws {
    // snippet: coordinators-use
    let app = AppCoordinator()
    let engine = try NavigationEngine(root: app)
    try engine.transaction {  // one atomic change, one version
        try app.focus(\.todos).popToRoot().route(to: \.todo, "42")
    }
    let path = engine.visiblePath  // ["todos", "list", "todo"]
    try engine.perform([Step(.push(route: "todo", input: "7"))], from: "TodosCoordinator")  // the same, by name
    let json = engine.stateDocument()  // the state document
    let saved = try engine.restoreDocument()  // what to store: tree, inputs, coordinator data
    let copy = try NavigationEngine(restoring: try JSONValue(parsing: saved), root: AppCoordinator())
    // end snippet
    #expect(path == ["todos", "list", "todo"])
    #expect(engine.version == 2)
    try engine.perform([Step(.selectTab(route: "about"))])
    #expect(engine.visiblePath == ["about"], "the second tab is there")
    try engine.perform([Step(.selectTab(route: "todos"))])
    #expect(engine.visiblePath == ["todos", "list", "todo", "todo"])
    #expect(copy.stateDocument() == json)
}

/// The sample of the DocC catalog's overview (Switchyard.md).
@Test func theOverviewExampleWorks() throws {
    // snippet: docc-overview
    let app = AppCoordinator()
    let engine = try NavigationEngine(root: app)
    try engine.transaction {
        try app.focus(\.todos).popToRoot().route(to: \.todo, "42")
    }
    let path = engine.visiblePath  // ["todos", "list", "todo"]
    // end snippet
    #expect(path == ["todos", "list", "todo"])
}

@Test func thePersistentCoordinatorExampleWorks() throws {
    let home = HomeCoordinator()
    let engine = try NavigationEngine(root: home)
    try engine.transaction { home.refresh() }
    let saved = try engine.restoreDocument()
    let copy = HomeCoordinator()
    _ = try NavigationEngine(restoring: try JSONValue(parsing: saved), root: copy)
    #expect(copy.refreshes == 1)
}

@Test func theResultAndGuardExampleWorks() throws {
    // snippet: coordinators-result-use
    let theme = ThemeCoordinator()
    let engine = try NavigationEngine(root: theme)
    try theme.route(to: \.pickColour)
    try engine.perform([Step(.finish(result: "green"))])  // theme.colour == "green", sheet closed
    try theme.route(to: \.pickColour) { outcome in print(outcome) }  // a typed handler given when routing
    try engine.dismissTopModal()  // prints "cancelled"

    _ = try? theme.route(to: \.admin)  // throws `redirected`: the login screen shows
    let pending = engine.pendingRoute?.route  // "admin"
    try engine.transaction {  // then the admin screen opens by itself
        theme.isAdmin = true
        try theme.pop()
    }
    // end snippet
    #expect(theme.colour == "green")
    #expect(pending == "admin")
    #expect(engine.visiblePath == ["home", "admin"])
}

@Test func theResultHandlerGivenWhenRoutingHearsCancelled() throws {
    let theme = ThemeCoordinator()
    let engine = try NavigationEngine(root: theme)
    var heard: [String] = []
    try theme.route(to: \.pickColour) { outcome in heard.append("\(outcome)") }
    try engine.dismissTopModal()
    #expect(heard == ["cancelled"])
    #expect(throws: NavigationError.self) { try theme.route(to: \.admin) }
    #expect(engine.visiblePath == ["home", "login"])
    #expect(engine.pendingRoute?.route == "admin")
}

@Test func theFlowEventExampleWorks() throws {
    // snippet: coordinators-event-use
    let inbox = InboxCoordinator()
    let engine = try NavigationEngine(root: inbox)
    try inbox.send(FlowEvent(name: "open", payload: ["id": "m1"]))  // version 1: read, and the message pushed
    let refused = (try? inbox.send(FlowEvent(name: "open", payload: ["id": "m9"]))) == nil  // unknownMessage
    let unheard = (try? inbox.send(FlowEvent(name: "archive"))) == nil  // eventNotHandled: nobody returned true
    // end snippet
    #expect(refused && unheard)
    #expect(engine.version == 1)
    #expect(engine.visiblePath == ["inbox", "message"])
    #expect(inbox.read == ["m1"])
    #expect(throws: NavigationError.eventNotHandled("archive", declared: ["open"])) {
        try inbox.send(FlowEvent(name: "archive"))
    }
}

@Test func aScreenWithARevisionIsRenderedAgainOnlyWhenItMoves() throws {
    // snippet: coordinators-revision-use
    let coordinator = MailCoordinator()
    let engine = try NavigationEngine(root: coordinator)
    engine.screenRenderings = ScreenRenderings()  // the server gives every session's engine one
    _ = engine.stateDocument()  // renders the mailbox and keeps its JSON
    _ = engine.stateDocument()  // same revision: the kept JSON, render() is not called
    coordinator.mailbox.receive("Hello")
    let document = engine.stateDocument()  // the revision moved: rendered again, "Mail (1)"
    // end snippet
    #expect(String(decoding: document, as: UTF8.self).contains("Mail (1)"))
    #expect(engine.screenRenderings?.count == 1)
}
