import Switchyard
import TodoDemo

/// Demo engines in the states the benchmarks start from, built through the by-name API.
enum DemoStates {
    /// A demo engine logged in and on the todos tab, with the node ids of its tab and todos coordinators.
    static func loggedIn() throws -> (engine: NavigationEngine, tabs: NodeID, todos: NodeID) {
        let engine = try TodoDemo.app.makeEngine()
        let tabs = try engine.perform([Step(.root(route: "authenticated", input: "bench"))])
        let todos = try engine.perform([Step(.focus(route: "todos"))], from: tabs)
        return (engine, tabs, todos)
    }

    /// A deep demo state: logged in, a todo pushed, the settings tab with two pushes, a modal settings coordinator
    /// with two pushes of its own, and an alert on top.
    static func deep() throws -> NavigationEngine {
        let (engine, tabs, todos) = try loggedIn()
        try engine.perform([Step(.push(route: "todo", input: "hello-world"))], from: todos)
        try engine.perform(
            [
                Step(.focus(route: "settings")), Step(.push(route: "green")), Step(.push(route: "yellow")),
                Step(.route(route: "settingsCoordinator")), Step(.push(route: "green")),
                Step(.push(route: "yellow")),
                Step(
                    .presentAlert(
                        title: "Alert", message: "Shown by the bench.",
                        actions: [AlertAction("OK", role: .cancel), AlertAction("Delete", role: .destructive)])),
            ], from: tabs)
        return engine
    }
}
