/// Routes to screens and coordinators that give a value back, with the owner's method that receives it.
///
/// ```swift
/// @Route(.modal, onResult: pickedFavourite) var pickFavourite = makePicker
/// func makePicker() -> PickFavouriteScreen { … }           // PickFavouriteScreen: ProducesResult, ResultValue == String
/// func pickedFavourite(_ outcome: RouteOutcome<String>) throws { … }
/// ```
///
/// The handler runs in the transaction that removes what the route opened, once: with the value it finished with,
/// or ``RouteOutcome/cancelled`` when it left another way. A handler that throws rolls that transaction back.
extension Route {
    /// A route to a screen that produces a result, without input.
    public init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, _ style: RouteStyle,
        guardedBy guardCheck: ((Owner) -> () -> RouteGuardDecision)? = nil,
        onResult handler: @escaping (Owner) -> (RouteOutcome<Output.ResultValue>) throws -> Void,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) where Input == Void, Output: Screen & ProducesResult {
        self.init(ScreenFactory(make: factory), style, .init(guardCheck, handler), fileID, line, column)
    }

    /// A route to a screen that produces a result, with input.
    public init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, _ style: RouteStyle,
        guardedBy guardCheck: ((Owner) -> () -> RouteGuardDecision)? = nil,
        onResult handler: @escaping (Owner) -> (RouteOutcome<Output.ResultValue>) throws -> Void,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) where Input: Codable & Sendable, Output: Screen & ProducesResult {
        self.init(ScreenInputFactory(make: factory), style, .init(guardCheck, handler), fileID, line, column)
    }

    /// A route to a child coordinator that produces a result, without input.
    public init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, _ style: RouteStyle,
        guardedBy guardCheck: ((Owner) -> () -> RouteGuardDecision)? = nil,
        onResult handler: @escaping (Owner) -> (RouteOutcome<Output.ResultValue>) throws -> Void,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) where Input == Void, Output: Coordinatable & ProducesResult {
        self.init(CoordinatorFactory(make: factory), style, .init(guardCheck, handler), fileID, line, column)
    }

    /// A route to a child coordinator that produces a result, with input.
    public init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, _ style: RouteStyle,
        guardedBy guardCheck: ((Owner) -> () -> RouteGuardDecision)? = nil,
        onResult handler: @escaping (Owner) -> (RouteOutcome<Output.ResultValue>) throws -> Void,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) where Input: Codable & Sendable, Output: Coordinatable & ProducesResult {
        self.init(CoordinatorInputFactory(make: factory), style, .init(guardCheck, handler), fileID, line, column)
    }
}

extension RouteOptions {
    /// Options with a guard and a typed result handler.
    init<Value: Sendable>(
        _ guardCheck: ((Owner) -> () -> RouteGuardDecision)?,
        _ handler: @escaping (Owner) -> (RouteOutcome<Value>) throws -> Void
    ) {
        self.guardCheck = guardCheck
        resultHandler = { owner, outcome in try outcome.deliver(to: handler(owner)) }
    }
}
