import Switchyard
import Testing

/// The demo's flows, driven over HTTP the way the page drives them.
@Suite("Demo walk over HTTP")
struct DemoWalkTests {
    @Test func aFullWalkThroughTheDemo() throws {
        try withServer { server in
            // Create: 201, Location, ETag, the state document.
            let session = try server.createSession()
            let created = session.created
            #expect(created.status == 201)
            #expect(created.header("Location") == "/api/sessions/\(session.id)")
            let version = try #require(created.version)
            #expect(created.header("ETag") == "\"\(version)\"")
            #expect(created.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(created.path == ["onboarding", "welcome"])
            #expect(created.json["visible"]?["screen"]?["title"] == "Welcome")
            #expect(created.json["tree"]?["type"] == "AppCoordinator")
            #expect(created.json["pendingDeepLink"] == nil)
            #expect(created.json["result"] == nil)

            let fetched = try session.state()
            #expect(fetched.status == 200)
            #expect(fetched.header("ETag") == "\"\(version)\"")
            #expect(fetched.body == created.body)

            // Onboarding: the button's event, sent from the visible item.
            let welcomeItem = try #require(created.json["visible"]?["item"]?.stringValue)
            let onboarded = try session.must(
                session.event(#"{"from":"\#(welcomeItem)","name":"completeOnboarding"}"#))
            #expect(onboarded.path == ["unauthenticated", "login"])
            #expect(onboarded.json["result"]?["type"] == "AppCoordinator")
            #expect(onboarded.json["result"]?["handledBy"] == onboarded.json["tree"]?["id"])
            #expect(onboarded.version! > version)
            #expect(onboarded.header("ETag") == "\"\(onboarded.version!)\"")

            // An empty name: the alert, answered with respondToAlert.
            let alerted = try session.must(session.event(#"{"name":"login","fields":{"username":"  "}}"#))
            let alert = alerted.json["tree"]?["root"]?["coordinator"]?["alert"]
            #expect(alert?["title"] == "Error")
            #expect(alert?["message"] == "Username should not be empty")
            #expect(alert?["actions"]?[0]?["role"] == "cancel")
            let loginNode = try #require(alerted.json["tree"]?["root"]?["coordinator"]?["id"]?.stringValue)
            let answered = try session.must(
                session.transition(
                    #"{"coordinator":"\#(loginNode)","steps":[{"action":"respondToAlert","choice":0}]}"#))
            #expect(answered.json["tree"]?["root"]?["coordinator"]?["alert"] == nil)
            #expect(answered.path == ["unauthenticated", "login"])

            // Login: the tabs, home selected.
            let loggedIn = try session.must(session.event(#"{"name":"login","fields":{"username":"ada"}}"#))
            #expect(loggedIn.path == ["authenticated", "home", "favourites"])
            #expect(loggedIn.json["tree"]?["root"]?["input"] == "ada")
            let tabs = loggedIn.json["tree"]?["root"]?["coordinator"]
            #expect(tabs?["kind"] == "tab")
            #expect(
                tabs?["tabs"]?.array?.compactMap { $0["route"]?.stringValue } == [
                    "home", "todos", "settings", "profile",
                ])

            // Tabs, push, back.
            let todos = try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
            #expect(todos.path == ["authenticated", "todos", "list"])
            #expect(todos.json["tree"]?["root"]?["coordinator"]?["selectedTab"] == "todos")
            let pushed = try session.must(
                session.transition(
                    #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#
                ))
            #expect(pushed.path == ["authenticated", "todos", "list", "todo"])
            #expect(pushed.json["visible"]?["screen"]?["title"] == "Buy milk")
            #expect(pushed.json["result"]?["type"] == "TodosCoordinator")
            let back = try session.must(session.transition(#"{"action":"back"}"#))
            #expect(back.path == ["authenticated", "todos", "list"])

            // Create a todo through the modal form: the route, then the form's event with its field.
            let form = try session.must(
                session.transition(
                    #"{"coordinator":"TodosCoordinator","steps":[{"action":"route","route":"create"}]}"#))
            #expect(form.path == ["authenticated", "todos", "list", "create", "form"])
            #expect(form.json["visible"]?["screen"]?["title"] == "New todo")
            let formItem = try #require(form.json["visible"]?["item"]?.stringValue)
            let created2 = try session.must(
                session.event(#"{"from":"\#(formItem)","name":"create","fields":{"name":"Walk the dog"}}"#))
            #expect(created2.path == ["authenticated", "todos", "list"])
            let rows = created2.json["visible"]?["screen"]?["content"]?[0]?["rows"]?.array ?? []
            let ids = rows.compactMap { $0["id"]?.stringValue }
            #expect(ids.contains("walk-the-dog"))

            // The favourites chain from home: focus todos, pop to its root, push the todo.
            try session.must(
                session.transition(
                    #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"write-docs"}]}"#
                ))
            let home = try session.must(session.transition(#"{"action":"selectTab","route":"home"}"#))
            #expect(home.path == ["authenticated", "home", "favourites"])
            let favourites = home.json["visible"]?["screen"]?["content"]?[1]?["rows"]?.array ?? []
            #expect(favourites.compactMap { $0["id"]?.stringValue } == ["hello-world"])
            let opened = try session.must(session.event(#"{"name":"openTodo","payload":{"id":"hello-world"}}"#))
            #expect(opened.path == ["authenticated", "todos", "list", "todo"])
            #expect(opened.json["visible"]?["screen"]?["title"] == "Hello, world!")
            #expect(opened.json["result"]?["type"] == "HomeCoordinator")
            let todosStack = opened.json["tree"]?["root"]?["coordinator"]?["tabs"]?[1]?["coordinator"]?["stack"]
            #expect(todosStack?.array?.count == 1, "write-docs was popped before hello-world was pushed")

            // The same chain as an explicit step chain from the tabs.
            try session.must(session.transition(#"{"action":"selectTab","route":"home"}"#))
            let chained = try session.must(
                session.transition(
                    #"""
                    {"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focusFirst","route":"todos"},
                     {"action":"popToRoot"},{"action":"route","route":"todo","input":"buy-milk"}]}
                    """#))
            #expect(chained.path == ["authenticated", "todos", "list", "todo"])
            #expect(chained.json["visible"]?["screen"]?["title"] == "Buy milk")
            #expect(chained.json["result"]?["type"] == "TodosCoordinator")

            // A deep link: focus todos, present the todo modally.
            let linked = try session.must(session.deepLink("jumper://io.idevs/todo/hello-world"))
            #expect(linked.json["result"]?["deepLink"] == "opened")
            #expect(linked.path.suffix(1) == ["todo"])
            #expect(linked.path.prefix(2) == ["authenticated", "todos"])
            #expect(linked.json["visible"]?["screen"]?["title"] == "Hello, world!")
            #expect(linked.text.contains("\"presentation\":\"modal\""))

            // Logout from the profile tab: its bar is under the todo's sheet until that is swiped down.
            let covered = try session.transition(#"{"action":"selectTab","route":"profile"}"#)
            #expect(covered.status == 409)
            #expect(covered.json["code"] == "tabBarCovered")
            try session.must(session.transition(#"{"action":"dismissModal"}"#))
            let profile = try session.must(session.transition(#"{"action":"selectTab","route":"profile"}"#))
            #expect(profile.path == ["authenticated", "profile"])
            let loggedOut = try session.must(session.event(#"{"name":"logout"}"#))
            #expect(loggedOut.path == ["unauthenticated", "login"])

            // GET agrees with the last answer.
            let final = try session.state()
            #expect(final.version == loggedOut.version)
            #expect(final.path == ["unauthenticated", "login"])
        }
    }

    @Test func aDeepLinkOpenedWhileLoggedOutCompletesRightAfterLogin() throws {
        try withServer { server in
            let session = try server.createSession()
            let pending = try session.must(session.deepLink("jumper://io.idevs/todo/hello-world"))
            #expect(pending.json["result"]?["deepLink"] == "pending")
            #expect(pending.json["pendingDeepLink"] == "jumper://io.idevs/todo/hello-world")
            #expect(pending.path == ["onboarding", "welcome"])
            #expect(try session.state().json["pendingDeepLink"] == "jumper://io.idevs/todo/hello-world")

            let onboarded = try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            #expect(onboarded.json["pendingDeepLink"] == "jumper://io.idevs/todo/hello-world")
            let loggedIn = try session.must(session.event(#"{"name":"login","fields":{"username":"ada"}}"#))
            #expect(loggedIn.json["pendingDeepLink"] == nil)
            #expect(loggedIn.path.prefix(2) == ["authenticated", "todos"])
            #expect(loggedIn.path.last == "todo")
            #expect(loggedIn.json["visible"]?["screen"]?["title"] == "Hello, world!")

            let entries = try session.history().json["entries"]?.array ?? []
            #expect(entries.last?["source"] == "deeplink", "the completion is recorded as the deep link's doing")
        }
    }

    @Test func registrationPushesACoordinatorThatSharesTheStack() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            let started = try session.must(
                session.transition(
                    #"{"coordinator":"UnauthenticatedCoordinator","steps":[{"action":"route","route":"registration"}]}"#
                ))
            #expect(started.path == ["unauthenticated", "login", "registration", "start"])
            #expect(started.json["result"]?["type"] == "RegistrationCoordinator")
            let password = try session.must(session.event(#"{"name":"next","fields":{"username":"bob"}}"#))
            #expect(password.path == ["unauthenticated", "login", "registration", "start", "password"])
            let registered = try session.must(session.event(#"{"name":"register","payload":{"username":"bob"}}"#))
            #expect(registered.path == ["authenticated", "home", "favourites"])
            #expect(registered.json["tree"]?["root"]?["input"] == "bob")
        }
    }
}

/// The same requests over a real socket and in process get the same answers: the transport adds nothing to them.
@Suite("Live and in-process answers agree")
struct LiveAnswerTests {
    @Test func aWalkOverTheSocketMatchesTheInProcessAnswers() throws {
        try withServer { server in
            let live = try server.live("POST", "/api/sessions", body: nil)
            let id = try #require(live.json["session"]?.stringValue)
            let base = "/api/sessions/\(id)"
            let steps: [(String, String, String?)] = [
                ("POST", base + "/events", #"{"name":"completeOnboarding"}"#),
                ("POST", base + "/events", #"{"name":"login","fields":{"username":"ada"}}"#),
                ("POST", base + "/transitions", #"{"action":"selectTab","route":"todos"}"#),
                ("POST", base + "/transitions", #"{"action":"back"}"#),
                ("GET", base, nil),
                ("GET", base + "/history", nil),
            ]
            for (method, path, body) in steps {
                let overSocket = try server.live(method, path, body: body)
                #expect(overSocket.status == 200 || overSocket.status == 409, "\(method) \(path)")
                let inProcess = try server.request("GET", base)
                let socketState = try server.live("GET", base)
                #expect(inProcess.body == socketState.body, "\(method) \(path): the document is the same either way")
                #expect(socketState.header("Content-Type") == "application/json")
                #expect(socketState.header("ETag") == inProcess.header("ETag"))
            }
        }
    }
}
