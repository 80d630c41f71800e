/// What a route's factory made: a screen or a child coordinator.
package enum RouteProduct {
    case screen(any Screen)
    case coordinator(any Coordinatable)
}

/// The kinds of route declaration.
package enum RouteKind: String, Sendable {
    case root, route, tab

    /// How an error names a route of this kind ("… is not a tab route (@TabRoute)").
    package var phrase: String {
        switch self {
        case .root: "a root route (@Root)"
        case .route: "a stack route (@Route: pushed or presented)"
        case .tab: "a tab route (@TabRoute)"
        }
    }
}

/// A route of coordinator `Owner`: what `@Root`, `@Route` and `@TabRoute` wrap. Key paths to transitions are the
/// typed handles of the Swift API: `route(to: \.todo, "42")` only compiles with the route's own input type.
///
/// A transition is only a handle (where its route is declared); the engine finds the route's name and factory in the
/// route table of the owner's type, so declaring routes allocates nothing per coordinator instance (making one
/// takes a lock and a lookup per route: its wrappers register their declarations).
public struct Transition<Owner: AnyObject, Input, Output>: Sendable, RouteHandle {
    let site: RouteSite
}

/// Reads the declaration site of a ``Transition`` of any type (what `owner[keyPath:]` returns as `Any`).
protocol RouteHandle {
    var site: RouteSite { get }
}

/// Where a route is declared (file, line, column): unique per route of a coordinator type and the same in every
/// instance, it maps a key path to the route's name without comparing objects.
struct RouteSite: Hashable, Sendable {
    /// The address of the `#fileID` literal.
    let file: Int
    let line: UInt32
    let column: UInt32

    init(fileID: StaticString, line: UInt, column: UInt) {
        file = fileID.withUTF8Buffer { Int(bitPattern: $0.baseAddress) }
        self.line = UInt32(truncatingIfNeeded: line)
        self.column = UInt32(truncatingIfNeeded: column)
    }
}

/// What the engine finds when it reflects over a coordinator's properties: `@Root`, `@Route` and `@TabRoute`.
protocol RouteDeclaration {
    /// The coordinator type that declares the route.
    associatedtype Owner: AnyObject
    var site: RouteSite { get }
}

extension RouteDeclaration {
    /// The type-erased route, from what the first wrapper made at its site registered (``RouteDeclarations``);
    /// called once per coordinator type, when its table is built. Nil for a wrapper whose declaration was never
    /// registered (cannot happen: every initializer registers it).
    func makeTransition() -> AnyTransition? { RouteDeclarations.shared.transition(site, owner: Owner.self) }
}

/// A route's factory as declared, an unapplied method of the owner, with the conformances of its input and output.
///
/// Route wrappers take it as `any RouteFactory<Owner>`: each conforming type holds only the closure (two words, kept
/// inline in the existential, so passing it allocates nothing), with the same abstraction as the wrapper's init
/// parameter (a coordinator output is class-bound), so no reabstraction thunk is made. The first wrapper of each
/// declaration captures it in what it registers with ``RouteDeclarations``; the others drop it.
protocol RouteFactory<Owner> {
    associatedtype Owner: AnyObject

    /// The type-erased route, made once per coordinator type.
    func transition(kind: RouteKind, style: RouteStyle, tabItem: ((Owner) -> () -> TabItem)?) -> AnyTransition
}

/// A route to a screen, without input.
struct ScreenFactory<Owner: AnyObject, Output: Screen>: RouteFactory {
    let make: (Owner) -> () -> Output

    func transition(kind: RouteKind, style: RouteStyle, tabItem: ((Owner) -> () -> TabItem)?) -> AnyTransition {
        TypedTransition<Owner, Void, Output>(
            kind: kind, style: style, call: .plain(make), decodeInput: RouteInput.none, takesInput: false,
            wrap: { .screen($0) }, producesCoordinator: false, tabItem: tabItem)
    }
}

/// A route to a screen made from input.
struct ScreenInputFactory<Owner: AnyObject, Input: Codable & Sendable, Output: Screen>: RouteFactory {
    let make: (Owner) -> (Input) -> Output

    func transition(kind: RouteKind, style: RouteStyle, tabItem: ((Owner) -> () -> TabItem)?) -> AnyTransition {
        TypedTransition(
            kind: kind, style: style, call: .input(make), decodeInput: RouteInput.decode, takesInput: true,
            wrap: { .screen($0) }, producesCoordinator: false, tabItem: tabItem)
    }
}

/// A route to a child coordinator, without input.
struct CoordinatorFactory<Owner: AnyObject, Output: Coordinatable>: RouteFactory {
    let make: (Owner) -> () -> Output

    func transition(kind: RouteKind, style: RouteStyle, tabItem: ((Owner) -> () -> TabItem)?) -> AnyTransition {
        TypedTransition<Owner, Void, Output>(
            kind: kind, style: style, call: .plain(make), decodeInput: RouteInput.none, takesInput: false,
            wrap: { .coordinator($0) }, producesCoordinator: true, tabItem: tabItem)
    }
}

/// A route to a child coordinator made from input.
struct CoordinatorInputFactory<Owner: AnyObject, Input: Codable & Sendable, Output: Coordinatable>: RouteFactory {
    let make: (Owner) -> (Input) -> Output

    func transition(kind: RouteKind, style: RouteStyle, tabItem: ((Owner) -> () -> TabItem)?) -> AnyTransition {
        TypedTransition(
            kind: kind, style: style, call: .input(make), decodeInput: RouteInput.decode, takesInput: true,
            wrap: { .coordinator($0) }, producesCoordinator: true, tabItem: tabItem)
    }
}

/// The type-erased part of a route: one per route of a coordinator type, in its ``RouteTable``.
///
/// Swift routes are ``TypedTransition``s made from `@Root`, `@Route` and `@TabRoute`; routes declared as data
/// (module `SwitchyardDefinitions`) subclass it in the package, with their types given by name.
package class AnyTransition {
    package let kind: RouteKind
    package let style: RouteStyle
    /// The input type's name, e.g. `String`; nil for routes without input.
    package let inputTypeName: String?
    /// The output type's name, e.g. `TodoScreen`.
    package let outputTypeName: String
    /// Whether the route makes a child coordinator (rather than a screen).
    package let producesCoordinator: Bool
    /// The kind of coordinator the route makes; nil when it makes a screen (or a coordinator of no known kind).
    package let outputKind: CoordinatorKind?
    /// The result type, when the output produces a result.
    package let resultType: ResultType?
    /// The route's guard (`@Route(guardedBy:)`), asked each time the route would be entered. Set (with
    /// ``resultHandler``) by the route's declaration right after the transition is made, before its ``RouteTable`` is
    /// published; never changed after that.
    package var guardCheck: ((AnyObject) -> RouteGuardDecision)?
    /// The handler of the route's result declared with the route (`@Route(onResult:)`).
    package var resultHandler: ((AnyObject, DeliveredOutcome) throws -> Void)?

    /// A route whose input and output are named rather than typed.
    init(
        kind: RouteKind, style: RouteStyle, inputTypeName: String?, outputTypeName: String,
        outputKind: CoordinatorKind?, resultType: ResultType?
    ) {
        self.kind = kind
        self.style = style
        self.inputTypeName = inputTypeName
        self.outputTypeName = outputTypeName
        producesCoordinator = outputKind != nil
        self.outputKind = outputKind
        self.resultType = resultType
    }

    init(kind: RouteKind, style: RouteStyle, inputType: Any.Type?, outputType: Any.Type, producesCoordinator: Bool) {
        self.kind = kind
        self.style = style
        inputTypeName = inputType.map { String(describing: $0) }
        outputTypeName = String(describing: outputType)
        self.producesCoordinator = producesCoordinator
        outputKind =
            switch outputType {
            case is any NavigationCoordinatable.Type: .navigation
            case is any TabCoordinatable.Type: .tab
            case is any RootCoordinatable.Type: .root
            default: nil
            }
        resultType = ResultType(of: outputType)
    }

    /// Calls the factory on `owner` with JSON input.
    package func make(owner: AnyObject, input: JSONValue?, route: String) throws -> RouteProduct {
        // Only subclasses are ever made; this base implementation is never reached.
        throw NavigationError.restoreFailed("route '\(route)' has no factory")
    }

    /// Makes the tab item (tab routes only).
    package func makeTabItem(owner: AnyObject) -> TabItem? { nil }
}

/// A route whose factory and tab item are closures: how other modules of the package (coordinators declared as
/// data) make routes, as a class can only be subclassed in its own module.
package final class ClosureTransition: AnyTransition {
    private let factory: (AnyObject, JSONValue?, String) throws -> RouteProduct
    private let tabItem: (AnyObject) -> TabItem?

    /// A route with named input and output types, made by `factory` (owner, input, route name).
    package init(
        kind: RouteKind, style: RouteStyle, inputTypeName: String?, outputTypeName: String,
        outputKind: CoordinatorKind?, resultType: ResultType?,
        factory: @escaping (AnyObject, JSONValue?, String) throws -> RouteProduct,
        tabItem: @escaping (AnyObject) -> TabItem?
    ) {
        self.factory = factory
        self.tabItem = tabItem
        super.init(
            kind: kind, style: style, inputTypeName: inputTypeName, outputTypeName: outputTypeName,
            outputKind: outputKind, resultType: resultType)
    }

    override package func make(owner: AnyObject, input: JSONValue?, route: String) throws -> RouteProduct {
        try factory(owner, input, route)
    }

    override package func makeTabItem(owner: AnyObject) -> TabItem? {
        tabItem(owner)
    }
}

/// A route with its factory and input decoding, made once per coordinator type. (`package` only because an internal
/// subclass overriding `package` methods draws a spurious "infinite recursion" warning from Swift 6.3.)
package final class TypedTransition<Owner: AnyObject, Input, Output>: AnyTransition {
    /// The factory, called with or without the decoded input.
    enum Call {
        case plain((Owner) -> () -> Output)
        case input((Owner) -> (Input) -> Output)
    }

    let call: Call
    let decodeInput: (JSONValue?) throws -> Input
    let wrap: (Output) -> RouteProduct
    let tabItem: ((Owner) -> () -> TabItem)?

    init(
        kind: RouteKind, style: RouteStyle, call: Call, decodeInput: @escaping (JSONValue?) throws -> Input,
        takesInput: Bool,
        wrap: @escaping (Output) -> RouteProduct, producesCoordinator: Bool,
        tabItem: ((Owner) -> () -> TabItem)?
    ) {
        self.call = call
        self.decodeInput = decodeInput
        self.wrap = wrap
        self.tabItem = tabItem
        super.init(
            kind: kind, style: style, inputType: takesInput ? Input.self : nil, outputType: Output.self,
            producesCoordinator: producesCoordinator)
    }

    override package func make(owner: AnyObject, input: JSONValue?, route: String) throws -> RouteProduct {
        guard let owner = owner as? Owner else {
            throw NavigationError.restoreFailed("route '\(route)' does not belong to \(type(of: owner))")
        }
        let value: Input
        do {
            value = try decodeInput(input)
        } catch let error as NavigationError {
            throw error
        } catch {
            throw NavigationError.invalidInput(
                route: route, expected: inputTypeName ?? "absent", reason: RouteInput.describe(error))
        }
        switch call {
        case .plain(let make): return wrap(make(owner)())
        case .input(let make): return wrap(make(owner)(value))
        }
    }

    override package func makeTabItem(owner: AnyObject) -> TabItem? {
        guard let tabItem, let owner = owner as? Owner else { return nil }
        return tabItem(owner)()
    }
}

/// Input plumbing shared by the route factories.
enum RouteInput {
    static func none(_ json: JSONValue?) throws {
        if let json, json != .null {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "this route takes no input, got \(json.jsonString)"))
        }
    }

    static func decode<Input: Decodable>(_ json: JSONValue?) throws -> Input {
        guard let json else {
            throw DecodingError.valueNotFound(Input.self, .init(codingPath: [], debugDescription: "input missing"))
        }
        return try json.decode(Input.self)
    }

    /// A decoding error in a sentence: what was expected where.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let context):
            return "expected \(type) at \(path(context))"
        case DecodingError.keyNotFound(let key, let context):
            return "missing member '\(key.stringValue)' at \(path(context))"
        case DecodingError.valueNotFound(let type, let context):
            return "missing \(type) at \(path(context))"
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription
        default:
            return String(describing: error)
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.isEmpty ? "the top level" : context.codingPath.map(\.stringValue).joined(separator: ".")
    }

}
