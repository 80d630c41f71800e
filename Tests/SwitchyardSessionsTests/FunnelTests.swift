import Switchyard
import Testing

@testable import SwitchyardSessions

/// The funnel's rules on journeys made by hand: order, events after screens, times.
@Suite("Funnel")
struct FunnelTests {
    static func step(_ version: Int, _ time: Double?, _ path: String, event: String? = nil) -> Journey.Step {
        Journey.Step(
            version: version, time: time, path: path.split(separator: "/").map(String.init), event: event)
    }

    static let app = AppVersion(name: "todo", version: 1)

    @Test func aStepCountsOnlyAfterTheStepBeforeIt() {
        var funnel = Funnel(steps: [.screen("welcome"), .screen("login"), .screen("favourites")])
        // Straight through; login reached twice, the first counts.
        funnel.count(
            Journey(
                app: Self.app,
                steps: [
                    Self.step(0, 100, "onboarding/welcome"), Self.step(1, 110, "unauthenticated/login"),
                    Self.step(2, 130, "unauthenticated/login"), Self.step(3, 200, "authenticated/home/favourites"),
                ]))
        // Favourites before login: not counted at the third step.
        funnel.count(
            Journey(
                app: Self.app,
                steps: [
                    Self.step(0, 0, "onboarding/welcome"), Self.step(1, 5, "authenticated/home/favourites"),
                    Self.step(2, 35, "unauthenticated/login"),
                ]))
        // Never on the first step: counted nowhere.
        funnel.count(Journey(app: Self.app, steps: [Self.step(0, 0, "unauthenticated/login")]))
        let report = funnel.report()
        #expect(report.sessions == 3)
        #expect(report.counts == [2, 2, 1])
        #expect(report.steps.map(\.medianSeconds) == [nil, 10, 90])
        #expect(report.steps.map(\.p90Seconds) == [nil, 35, 90])
        #expect(report.notes.isEmpty)
    }

    @Test func anEventNeedsAChangeOfItsOwnAScreenMayShareOne() {
        let journey = Journey(
            app: Self.app,
            steps: [
                Self.step(0, 0, "unauthenticated/login"),
                Self.step(1, 4, "authenticated/home/favourites", event: "login"),
            ])
        var screenAfterEvent = Funnel(steps: [.event("login"), .screen("favourites")])
        screenAfterEvent.count(journey)
        #expect(screenAfterEvent.report().counts == [1, 1])
        var eventAfterScreen = Funnel(steps: [.screen("favourites"), .event("login")])
        eventAfterScreen.count(journey)
        #expect(eventAfterScreen.report().counts == [1, 0])
        #expect(FunnelStep.screen("authenticated/home").isShown(on: ["authenticated", "home", "favourites"]))
        #expect(!FunnelStep.screen("home/favourites").isShown(on: ["authenticated", "home", "favourites"]))
    }

    @Test func percentilesAreNearestRank() {
        #expect(Funnel.percentile(0.5, of: []) == nil)
        #expect(Funnel.percentile(0.5, of: [1, 2, 3, 4]) == 2)
        #expect(Funnel.percentile(0.9, of: Array(1...10).map(Double.init)) == 9)
        #expect(Funnel.percentile(0.9, of: [7]) == 7)
    }

    @Test func timesAreReadAsUTCOrAsASpanBeforeNow() {
        #expect(AnalyticsTime.parse("2026-11-29T10:00:00Z", now: 0) == 1_795_946_400)
        #expect(AnalyticsTime.parse("2026-11-29", now: 0) == 1_795_910_400)
        #expect(AnalyticsTime.parse("24h", now: 100_000) == 13_600)
        // RFC 3339 as a client library writes it: offsets, lower case, fractions.
        #expect(AnalyticsTime.parse("2026-11-29T11:30:00+01:30", now: 0) == 1_795_946_400)
        #expect(AnalyticsTime.parse("2026-11-29T08:00:00-02:00", now: 0) == 1_795_946_400)
        #expect(AnalyticsTime.parse("2026-11-29t10:00:00.25z", now: 0) == 1_795_946_400.25)
        #expect(AnalyticsTime.parse("2026-11-29T10:00", now: 0) == 1_795_946_400)
        for bad in [
            "yesterday", "2026-13-01", "2026-11-29T25:00", "1.5h", "-2h", "", "2026-11-29T", "2026-11-29T10:00:00+1",
            "2026-11-29T10:00:00+24:00", "2026-11-29+01:00", "2026-11-29T10:00:00Zz", "2026-11-29Tnan",
        ] {
            #expect(AnalyticsTime.parse(bad, now: 0) == nil, "\(bad)")
        }
    }
}
