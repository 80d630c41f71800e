import Switchyard
import Testing

/// A chain is all or nothing: when a later step fails, the earlier ones are rolled back.
@Suite("Atomic chains")
struct AtomicChainTests {
    @Test func aChainWhoseLastStepFailsLeavesVersionAndTreeUnchanged() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            let before = try session.state()
            let failures: [(String, Int)] = [
                // Two pushes, then a pop-to a route that is not there.
                (
                    #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"},"#
                        + #"{"action":"push","route":"yellow"},{"action":"popTo","route":"blue"}]}"#, 409
                ),
                // Leave the tab, push, then an unknown route.
                (
                    #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"},"#
                        + #"{"action":"push","route":"todo","input":"buy-milk"},{"action":"push","route":"nowhere"}]}"#,
                    400
                ),
                // Present a modal, push inside it, then a pop-to a route that is not there.
                (
                    #"{"coordinator":"SettingsCoordinator","steps":[{"action":"route","route":"blue"},"#
                        + #"{"action":"push","route":"green"},{"action":"popTo","route":"yellow"}]}"#, 409
                ),
                // Switch the root (logs out), then a route the login flow does not have.
                (
                    #"{"steps":[{"action":"root","route":"unauthenticated"},{"action":"push","route":"todo"}]}"#,
                    400
                ),
                // Switch the root, then pop at the login flow's root.
                (#"{"steps":[{"action":"root","route":"unauthenticated"},{"action":"child"},{"action":"pop"}]}"#, 409),
            ]
            for (body, status) in failures {
                let reply = try session.transition(body)
                #expect(reply.status == status, "\(body) → \(reply.text)")
                let after = try session.state()
                #expect(after.body == before.body, "the failed chain left traces: \(body)")
                #expect(after.header("ETag") == before.header("ETag"))
            }
            // The same chain without the failing step applies.
            let applied = try session.must(
                session.transition(
                    #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"},{"action":"push","route":"yellow"}]}"#
                ))
            #expect(applied.path == ["authenticated", "settings", "settings", "green", "yellow"])
            #expect(applied.version! > before.version!)
        }
    }

    @Test func aFailedChainAddsNoHistoryAndNoStreamEvent() throws {
        try withServer { server in
            let session = try server.createSession()
            let history = try session.history()
            let subscriber = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            let first = try #require(try subscriber.next())
            #expect(first.id == String(session.created.version!))
            let refused = try session.transition(
                #"{"coordinator":"OnboardingCoordinator","steps":[{"action":"root","route":"welcome"},{"action":"pop"}]}"#
            )
            #expect(refused.status == 409, "\(refused.text)")
            #expect(try session.history().body == history.body)
            // The next event is the next real change, not the failed one.
            let applied = try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            let next = try #require(try subscriber.next())
            #expect(next.id == String(applied.version!))
        }
    }
}
