/// Declares a root route: the content a root or navigation coordinator shows at the bottom of its stack.
/// `@Root var list = makeList`; switch between roots with `root(\.other)`.
@propertyWrapper
public final class Root<Owner: AnyObject, Input, Output>: RouteDeclaration {
    /// The typed transition that key paths point at.
    public let wrappedValue: Transition<Owner, Input, Output>
    var transition: AnyTransition { wrappedValue }

    init(_ transition: Transition<Owner, Input, Output>) { wrappedValue = transition }
}

extension Root {
    /// A root screen, without input.
    public convenience init(wrappedValue factory: @escaping (Owner) -> () -> Output)
    where Input == Void, Output: Screen {
        self.init(
            Transition(
                kind: .root, style: .push, factory: RouteInput.noInput(factory), decodeInput: RouteInput.none,
                takesInput: false, wrap: { .screen($0) }, producesCoordinator: false))
    }

    /// A root screen, with input.
    public convenience init(wrappedValue factory: @escaping (Owner) -> (Input) -> Output)
    where Input: Codable & Sendable, Output: Screen {
        self.init(
            Transition(
                kind: .root, style: .push, factory: factory, decodeInput: RouteInput.decode,
                takesInput: true, wrap: { .screen($0) }, producesCoordinator: false))
    }

    /// A root coordinator, without input.
    public convenience init(wrappedValue factory: @escaping (Owner) -> () -> Output)
    where Input == Void, Output: Coordinatable {
        self.init(
            Transition(
                kind: .root, style: .push, factory: RouteInput.noInput(factory), decodeInput: RouteInput.none,
                takesInput: false, wrap: { .coordinator($0) }, producesCoordinator: true))
    }

    /// A root coordinator, with input.
    public convenience init(wrappedValue factory: @escaping (Owner) -> (Input) -> Output)
    where Input: Codable & Sendable, Output: Coordinatable {
        self.init(
            Transition(
                kind: .root, style: .push, factory: factory, decodeInput: RouteInput.decode,
                takesInput: true, wrap: { .coordinator($0) }, producesCoordinator: true))
    }
}
