/// Declares a tab of a tab coordinator: `@TabRoute(item: makeHomeTab) var home = makeHome`.
///
/// `item` is a method returning the ``TabItem`` (title, icon, badge); it is called whenever the state is read.
@propertyWrapper
public final class TabRoute<Owner: AnyObject, Input, Output>: RouteDeclaration {
    /// The typed transition that key paths point at.
    public let wrappedValue: Transition<Owner, Input, Output>
    var transition: AnyTransition { wrappedValue }

    init(_ transition: Transition<Owner, Input, Output>) { wrappedValue = transition }
}

extension TabRoute {
    /// A tab showing a screen.
    public convenience init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, item: @escaping (Owner) -> () -> TabItem
    ) where Input == Void, Output: Screen {
        self.init(
            Transition(
                kind: .tab, style: .push, factory: RouteInput.noInput(factory), decodeInput: RouteInput.none,
                takesInput: false, wrap: { .screen($0) }, producesCoordinator: false, tabItem: item))
    }

    /// A tab showing a screen made from input.
    public convenience init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, item: @escaping (Owner) -> () -> TabItem
    ) where Input: Codable & Sendable, Output: Screen {
        self.init(
            Transition(
                kind: .tab, style: .push, factory: factory, decodeInput: RouteInput.decode,
                takesInput: true, wrap: { .screen($0) }, producesCoordinator: false,
                tabItem: item))
    }

    /// A tab showing a coordinator.
    public convenience init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, item: @escaping (Owner) -> () -> TabItem
    ) where Input == Void, Output: Coordinatable {
        self.init(
            Transition(
                kind: .tab, style: .push, factory: RouteInput.noInput(factory), decodeInput: RouteInput.none,
                takesInput: false, wrap: { .coordinator($0) }, producesCoordinator: true, tabItem: item))
    }

    /// A tab showing a coordinator made from input.
    public convenience init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, item: @escaping (Owner) -> () -> TabItem
    ) where Input: Codable & Sendable, Output: Coordinatable {
        self.init(
            Transition(
                kind: .tab, style: .push, factory: factory, decodeInput: RouteInput.decode,
                takesInput: true, wrap: { .coordinator($0) }, producesCoordinator: true,
                tabItem: item))
    }
}
