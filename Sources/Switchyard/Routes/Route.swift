/// Declares a route of a coordinator: `@Route(.push) var todo = makeTodo`.
///
/// The factory is a method of the coordinator returning a ``Screen`` or a child ``Coordinatable``; its parameter, if
/// any, is the route's input (`Codable & Sendable`). The route's name is the property name (`todo`), which is how the
/// server reaches it with JSON input.
@propertyWrapper
public final class Route<Owner: AnyObject, Input, Output>: RouteDeclaration {
    /// The typed transition that key paths point at.
    public let wrappedValue: Transition<Owner, Input, Output>
    var transition: AnyTransition { wrappedValue }

    init(_ transition: Transition<Owner, Input, Output>) { wrappedValue = transition }
}

extension Route {
    /// A route to a screen, without input.
    public convenience init(wrappedValue factory: @escaping (Owner) -> () -> Output, _ style: RouteStyle)
    where Input == Void, Output: Screen {
        self.init(
            Transition(
                kind: .route, style: style, factory: RouteInput.noInput(factory), decodeInput: RouteInput.none,
                takesInput: false, wrap: { .screen($0) }, producesCoordinator: false))
    }

    /// A route to a screen, with input.
    public convenience init(wrappedValue factory: @escaping (Owner) -> (Input) -> Output, _ style: RouteStyle)
    where Input: Codable & Sendable, Output: Screen {
        self.init(
            Transition(
                kind: .route, style: style, factory: factory, decodeInput: RouteInput.decode,
                takesInput: true, wrap: { .screen($0) }, producesCoordinator: false))
    }

    /// A route to a child coordinator, without input.
    public convenience init(wrappedValue factory: @escaping (Owner) -> () -> Output, _ style: RouteStyle)
    where Input == Void, Output: Coordinatable {
        self.init(
            Transition(
                kind: .route, style: style, factory: RouteInput.noInput(factory), decodeInput: RouteInput.none,
                takesInput: false, wrap: { .coordinator($0) }, producesCoordinator: true))
    }

    /// A route to a child coordinator, with input.
    public convenience init(wrappedValue factory: @escaping (Owner) -> (Input) -> Output, _ style: RouteStyle)
    where Input: Codable & Sendable, Output: Coordinatable {
        self.init(
            Transition(
                kind: .route, style: style, factory: factory, decodeInput: RouteInput.decode,
                takesInput: true, wrap: { .coordinator($0) }, producesCoordinator: true))
    }
}

/// What the engine finds when it reflects over a coordinator's properties.
protocol RouteDeclaration: AnyObject {
    var transition: AnyTransition { get }
}
