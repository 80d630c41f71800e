import Switchyard
import Testing

/// A sheet that gives a number back.
struct NumberPicker: Screen, ProducesResult {
    typealias ResultValue = Int
    func render() -> ScreenContent { ScreenContent(title: "Pick a number") }
}

/// A flow (a coordinator) that gives a word back.
final class WordFlow: NavigationCoordinatable, ProducesResult {
    typealias ResultValue = String
    let stack = NavigationStack(initial: \WordFlow.start)
    @Root var start = makeStart
    @Route(.push) var next = makeNext
    func makeStart() -> Label { Label(title: "Start") }
    func makeNext() -> Label { Label(title: "Next") }
}

/// Opens pickers: with handlers declared on its routes, and a route without one.
final class Opener: NavigationCoordinatable {
    let stack = NavigationStack(initial: \Opener.home)
    var numbers: [RouteOutcome<Int>] = []
    var words: [RouteOutcome<String>] = []
    /// The version the engine was at when a handler ran.
    var seenAtVersion: [Int] = []
    var refuseNumbers = false

    @Root var home = makeHome
    @Route(.modal, onResult: pickedNumber) var pick = makePicker
    @Route(.push) var pickUnhandled = makePicker
    @Route(.fullScreen, onResult: gotWord) var word = makeWord
    @Route(.push) var plain = makePlain

    func makeHome() -> Label { Label(title: "Home") }
    func makePicker() -> NumberPicker { NumberPicker() }
    func makeWord() -> WordFlow { WordFlow() }
    func makePlain() -> Label { Label(title: "Plain") }

    func pickedNumber(_ outcome: RouteOutcome<Int>) throws {
        if refuseNumbers, outcome.value != nil {
            throw NavigationError(code: "numberRefused", category: .invalidInput, message: "not that one")
        }
        numbers.append(outcome)
        seenAtVersion.append(engine?.version ?? -1)
        try pop(to: \.home)  // what a handler does joins the change (nothing to pop here: the sheet is gone)
    }

    func gotWord(_ outcome: RouteOutcome<String>) throws { words.append(outcome) }
}

@Suite("Results back to the caller")
struct ResultTests {
    func makeOpener() throws -> (NavigationEngine, Opener) {
        let opener = Opener()
        return (try NavigationEngine(root: opener), opener)
    }

    @Test func finishByNameDeliversOnceInTheChangeThatRemovesTheSheet() throws {
        let (engine, opener) = try makeOpener()
        try engine.perform([Step(.route(route: "pick", input: nil))])
        let before = engine.version
        try engine.perform([Step(.finish(result: 7))])
        #expect(opener.numbers == [.finished(7)])
        #expect(engine.version == before + 1)
        #expect(opener.seenAtVersion == [before])  // during the transaction, before it committed
        #expect(engine.visiblePath == ["home"])
        // Gone with its item: nothing is left to finish.
        expectRefusal(engine, "nothingToFinish") { try engine.perform([Step(.finish(result: 8))]) }
        #expect(opener.numbers == [.finished(7)])
    }

    @Test func aCoordinatorFinishesItselfFromSwift() throws {
        let (engine, opener) = try makeOpener()
        let flow = try opener.route(to: \.word)
        try flow.route(to: \.next)
        try flow.pop()
        try flow.finish(with: "done")
        #expect(opener.words == [.finished("done")])
        #expect(engine.visiblePath == ["home"])
    }

    @Test func finishEndsTheTopItemOfTheCoordinatorFirst() throws {
        let (engine, opener) = try makeOpener()
        let flow = try opener.route(to: \.word)
        try flow.route(to: \.next)
        // `next` gives nothing back: finishing it is refused with the reason.
        expectRefusal(engine, "noResultExpected") { try flow.finish(with: "early") }
        #expect(opener.words.isEmpty)
    }

    @Test func gesturesAndPopsDeliverCancelled() throws {
        let (engine, opener) = try makeOpener()
        try opener.route(to: \.pick)
        try engine.dismissTopModal()
        try opener.route(to: \.pick)
        try opener.pop()
        let flow = try opener.route(to: \.word)
        try flow.dismiss()
        #expect(opener.numbers == [.cancelled, .cancelled])
        #expect(opener.words == [.cancelled])
    }

    @Test func aHandlerGivenWhenRoutingIsTypedAndReplacesTheDeclaredOne() throws {
        let (engine, opener) = try makeOpener()
        var received: [RouteOutcome<Int>] = []
        try opener.route(to: \.pick) { outcome in received.append(outcome) }
        try engine.perform([Step(.finish(result: 3))])
        try opener.route(to: \.pickUnhandled) { outcome in received.append(outcome) }
        try engine.goBack()
        #expect(received == [.finished(3), .cancelled])
        #expect(opener.numbers.isEmpty)
    }

    @Test func aResultOfTheWrongTypeIsRefusedAndChangesNothing() throws {
        let (engine, opener) = try makeOpener()
        try opener.route(to: \.pick)
        let refusal = expectRefusal(engine, "invalidResult") { try engine.perform([Step(.finish(result: "seven"))]) }
        #expect(refusal?.category == .invalidInput)
        #expect(refusal?.message.contains("must be Int") == true)
        #expect(opener.numbers.isEmpty)
    }

    @Test func finishIsRefusedWhereNoResultIsExpectedOrAwaited() throws {
        let (engine, opener) = try makeOpener()
        expectRefusal(engine, "nothingToFinish") { try opener.finish(with: 1) }
        try opener.route(to: \.plain)
        expectRefusal(engine, "noResultExpected") { try opener.finish(with: 1) }
        try opener.pop()
        try engine.perform([Step(.push(route: "pickUnhandled"))])
        expectRefusal(engine, "resultNotAwaited") { try opener.finish(with: 1) }
    }

    @Test func aHandlerThatThrowsRollsTheFinishBack() throws {
        let (engine, opener) = try makeOpener()
        try opener.route(to: \.pick)
        opener.refuseNumbers = true
        expectRefusal(engine, "numberRefused") { try engine.perform([Step(.finish(result: 1))]) }
        #expect(engine.visiblePath == ["home", "pick"])
        opener.refuseNumbers = false
        try engine.perform([Step(.finish(result: 2))])
        #expect(opener.numbers == [.finished(2)])
    }

    @Test func aRestoredSessionDeliversToTheDeclaredHandler() throws {
        let (engine, _) = try makeOpener()
        try engine.perform([Step(.route(route: "pick"))])
        let saved = try JSONValue(parsing: engine.restoreDocument())
        let restoredOpener = Opener()
        let restored = try NavigationEngine(restoring: saved, root: restoredOpener)
        try restored.perform([Step(.finish(result: 5))])
        #expect(restoredOpener.numbers == [.finished(5)])
    }

    @Test func aRestoreDeliversOnlyForItemsItTakesAway() throws {
        let (engine, opener) = try makeOpener()
        let atHome = try JSONValue(parsing: engine.restoreDocument())
        try opener.route(to: \.pick)
        let withPicker = try JSONValue(parsing: engine.restoreDocument())
        // Back to the same tree: the picker is rebuilt with its id, nobody hears anything, and it still finishes once.
        try engine.restore(to: withPicker)
        #expect(opener.numbers.isEmpty)
        #expect(engine.visiblePath == ["home", "pick"])
        // Back to a version without it: it left without a result.
        try engine.restore(to: atHome)
        #expect(opener.numbers == [.cancelled])
        try engine.restore(to: withPicker)
        try engine.perform([Step(.finish(result: 4))])
        #expect(opener.numbers == [.cancelled, .finished(4)])
    }

    @Test func theStepRoundTripsThroughJSON() throws {
        let step = Step(.finish(result: ["id": "buy-milk"]))
        let decoded = try JSONValue(parsing: Array(#"{"action":"finish","result":{"id":"buy-milk"}}"#.utf8))
            .decode(Step.self)
        #expect(decoded == step)
        guard case .object(let object) = try JSONValue(encoding: step) else {
            Issue.record("a step encodes as an object")
            return
        }
        #expect(Step(plainJSON: object) == step)
        #expect(throws: NavigationError.self) {
            try JSONValue(parsing: Array(#"{"action":"finish"}"#.utf8)).decode(Step.self)
        }
    }
}
