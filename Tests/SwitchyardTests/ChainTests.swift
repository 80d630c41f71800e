import Foundation
import Switchyard
import Testing

@Suite("Chains by name")
struct ChainTests {
    @Test func stepsDecodeFromJSONAndChainThroughChildren() throws {
        let (engine, _) = try makeEngine()
        let json = """
            [{"action":"root","route":"tabs"},{"action":"focus","route":"two"},
             {"action":"push","route":"detail","input":"42"},{"action":"route","route":"sheet","animated":false}]
            """
        let steps = try JSONDecoder().decode([Step].self, from: Data(json.utf8))
        let end = try engine.perform(steps)
        #expect(engine.visiblePath == ["tabs", "two", "home", "detail", "sheet"])
        #expect(engine.version == 1)
        #expect(engine.nearest(StackCoordinator.self)?.nodeID == end)
    }

    @Test func aFailingStepLeavesTreeAndVersionUnchanged() throws {
        let (engine, _) = try makeEngine()
        try engine.perform([Step(.root(route: "main"))])
        expectRefusal(engine, "cannotPopRoot") {
            try engine.perform([
                Step(.child), Step(.push(route: "a")), Step(.push(route: "b")), Step(.popToRoot), Step(.pop),
            ])
        }
    }

    @Test func unknownNamesListTheValidChoices() throws {
        let (engine, _) = try makeEngine()
        let error = expectRefusal(engine, "unknownRoute") { try engine.perform([Step(.root(route: "nope"))]) }
        #expect(error?.category == .invalidRequest)
        #expect(error?.choices.contains("main") == true)
        let wrongKind = expectRefusal(engine, "wrongRouteKind") { try engine.perform([Step(.root(route: "sheet"))]) }
        #expect(wrongKind?.choices == ["launch", "main", "tabs", "user"])
        #expect(wrongKind?.message.hasSuffix("is not a root route (@Root)") == true, "\(wrongKind?.message ?? "")")
        #expect(throws: NavigationError.self) {
            _ = try JSONDecoder().decode(Step.self, from: Data(#"{"action":"jump"}"#.utf8))
        }
    }

    @Test func inputThatDoesNotDecodeIsInvalidInput() throws {
        let (engine, _) = try makeEngine()
        try engine.perform([Step(.root(route: "main"))])
        let error = expectRefusal(engine, "invalidInput") {
            try engine.perform([Step(.child), Step(.push(route: "profile", input: ["name": "Ada"]))])
        }
        #expect(error?.category == .invalidInput)
        expectRefusal(engine, "invalidInput") {
            try engine.perform([Step(.child), Step(.push(route: "detail"))])
        }
        expectRefusal(engine, "invalidInput") {
            try engine.perform([Step(.child), Step(.push(route: "a", input: 5))])
        }
    }

    @Test func operationsOutsideAKindAreRefused() throws {
        let (engine, _) = try makeEngine()
        expectRefusal(engine, "unsupportedOperation") { try engine.perform([Step(.pop)]) }
        expectRefusal(engine, "unsupportedOperation") { try engine.perform([Step(.push(route: "sheet"))]) }
        expectRefusal(engine, "missingMember") {
            try engine.perform([JSONValueDecoder().decode(Step.self, from: ["action": "push"])])
        }
    }

    @Test func chainsStartAtANodeIdOrTheNearestCoordinatorOfAType() throws {
        let (engine, _) = try makeEngine()
        try engine.perform([Step(.root(route: "tabs")), Step(.focus(route: "two"))])
        try engine.perform([Step(.push(route: "a"))], from: "StackCoordinator")
        #expect(engine.visiblePath == ["tabs", "two", "home", "a"])
        expectRefusal(engine, "coordinatorNotFound") { try engine.perform([Step(.pop)], from: "n999") }
        expectRefusal(engine, "coordinatorNotFound") { try engine.perform([Step(.pop)], from: "Nope") }
    }

    @Test func hasRootFailsTheChainWhenTheRootDiffers() throws {
        let (engine, _) = try makeEngine()
        let error = expectRefusal(engine, "notRoot") {
            try engine.perform([Step(.hasRoot(route: "tabs")), Step(.focus(route: "two"))])
        }
        #expect(error?.choices == ["launch"])
    }

    @Test func gesturesAndAlertsWorkByName() throws {
        let (engine, _) = try makeEngine()
        try engine.perform([Step(.root(route: "main")), Step(.push(route: "a"))])
        try engine.perform([Step(.back)])
        #expect(engine.visiblePath == ["main", "home"])
        let main = try engine.perform([Step(.child)])
        try engine.perform([Step(.presentAlert(title: "Hi", actions: [AlertAction("OK")]))], from: main)
        try engine.perform([Step(.respondToAlert(choice: 0))], from: main)
        try engine.perform([Step(.route(route: "sheet"))], from: main)
        try engine.perform([Step(.dismissModal)])
        #expect(engine.visiblePath == ["main", "home"])
    }
}
