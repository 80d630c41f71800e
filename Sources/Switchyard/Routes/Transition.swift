/// What a route's factory made: a screen or a child coordinator.
enum RouteProduct {
    case screen(any Screen)
    case coordinator(any Coordinatable)
}

/// The kinds of route declaration.
enum RouteKind: String, Sendable {
    case root, route, tab
}

/// The type-erased part of a route, shared by every ``Transition``.
public class AnyTransition {
    let kind: RouteKind
    let style: RouteStyle
    /// The input and output types; their names are made on demand (every coordinator instance creates its routes,
    /// so naming them eagerly cost two `String(describing:)` per route per instance, and the memory of the names).
    let inputType: Any.Type?
    let outputType: Any.Type
    let producesCoordinator: Bool

    init(kind: RouteKind, style: RouteStyle, inputType: Any.Type?, outputType: Any.Type, producesCoordinator: Bool) {
        self.kind = kind
        self.style = style
        self.inputType = inputType
        self.outputType = outputType
        self.producesCoordinator = producesCoordinator
    }

    /// The input type's name, e.g. `String`; nil for routes without input.
    var inputTypeName: String? { inputType.map { String(describing: $0) } }
    /// The output type's name, e.g. `TodoScreen`.
    var outputTypeName: String { String(describing: outputType) }

    /// Calls the factory on `owner` with JSON input.
    func make(owner: AnyObject, input: JSONValue?, route: String) throws -> RouteProduct {
        // Only `Transition` instances exist; this base implementation is never reached.
        throw NavigationError.restoreFailed("route '\(route)' has no factory")
    }

    /// Makes the tab item (tab routes only).
    func makeTabItem(owner: AnyObject) -> TabItem? { nil }
}

/// A route of coordinator `Owner`: what `@Root`, `@Route` and `@TabRoute` wrap. Key paths to transitions are the
/// typed handles of the Swift API: `route(to: \.todo, "42")` only compiles with the route's own input type.
public final class Transition<Owner: AnyObject, Input, Output>: AnyTransition {
    let factory: (Owner) -> (Input) -> Output
    let decodeInput: (JSONValue?) throws -> Input
    let wrap: (Output) -> RouteProduct
    let tabItem: ((Owner) -> () -> TabItem)?

    init(
        kind: RouteKind, style: RouteStyle, factory: @escaping (Owner) -> (Input) -> Output,
        decodeInput: @escaping (JSONValue?) throws -> Input, takesInput: Bool,
        wrap: @escaping (Output) -> RouteProduct, producesCoordinator: Bool,
        tabItem: ((Owner) -> () -> TabItem)? = nil
    ) {
        self.factory = factory
        self.decodeInput = decodeInput
        self.wrap = wrap
        self.tabItem = tabItem
        super.init(
            kind: kind, style: style, inputType: takesInput ? Input.self : nil, outputType: Output.self,
            producesCoordinator: producesCoordinator)
    }

    override func make(owner: AnyObject, input: JSONValue?, route: String) throws -> RouteProduct {
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
                route: route, expected: inputTypeName ?? "absent", reason: Self.describe(error))
        }
        return wrap(factory(owner)(value))
    }

    override func makeTabItem(owner: AnyObject) -> TabItem? {
        guard let tabItem, let owner = owner as? Owner else { return nil }
        return tabItem(owner)()
    }

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

/// Input plumbing shared by the route wrappers.
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

    static func noInput<Owner, Output>(_ factory: @escaping (Owner) -> () -> Output) -> (Owner) -> (()) -> Output {
        { owner in { _ in factory(owner)() } }
    }
}
