import Switchyard

/// A stack of greetings: a list of names, and a greeting pushed for each.
final class GreetingCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \GreetingCoordinator.names)
    @Root var names = makeNames
    @Route(.push) var greeting = makeGreeting  // input: the name
    @Route(.modal) var about = makeAbout

    func makeNames() -> ScreenContent {
        ScreenContent(
            title: "Hello",
            content: [
                .list(
                    ["Ada", "Grace", "Linus"].map { name in
                        ListRow(id: name, title: name, action: .push(\GreetingCoordinator.greeting, name))
                    }),
                .button("About", action: .route(\GreetingCoordinator.about)),
            ])
    }

    func makeGreeting(name: String) -> ScreenContent {
        ScreenContent(title: "Hello, \(name)!", content: [.text("Nice to meet you, \(name).")])
    }

    func makeAbout() -> ScreenContent {
        ScreenContent(title: "About", content: [.text("A Switchyard app of its own.")])
    }
}
