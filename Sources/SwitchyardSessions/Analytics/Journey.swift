import Switchyard
import SwitchyardJSON

/// One stored session's journey, as analytics reads it: the app version it was created on (its rollout variant),
/// and the screens it went through, each with when and how it got there. Holds route names, times and event
/// names, and for coverage what each request asked in action and route names (``ActionSignature``); never the
/// session's id, data or requests.
public struct Journey: Sendable {
    /// A version of the session: its creation (version 0) or a committed change.
    public struct Step: Sendable {
        /// The session's version.
        public let version: Int
        /// When (seconds since 1970); nil for a creation the store keeps no time of.
        public let time: Double?
        /// The visible route path after it.
        public let path: [String]
        /// The flow event's name, when the change was one.
        public let event: String?
        /// What the change's request asked (``ActionSignature``), when the journey was read with them; nil for the
        /// creation and for changes no client asked for as such.
        public let action: String?

        /// A step.
        public init(version: Int, time: Double?, path: [String], event: String? = nil, action: String? = nil) {
            self.version = version
            self.time = time
            self.path = path
            self.event = event
            self.action = action
        }

        /// The screen as analytics names it: the visible path joined by `/`.
        public var screen: String { path.joined(separator: "/") }
    }

    /// The app version the session was created on; nil when the store cannot say.
    public let app: AppVersion?
    /// Its steps, oldest first: its creation first, unless retention trimmed the history's start.
    public let steps: [Step]
    /// Whether the history's oldest entries were trimmed by retention: the journey starts part way.
    public let isTrimmed: Bool
    /// Whether the history has more entries than were read: the journey stops part way.
    public let isCut: Bool
    /// The codes of the refusals this node saw the session answer (4xx), with the version each left it at.
    public var refusals: [(version: Int, code: String)] = []

    /// A journey from its parts.
    public init(app: AppVersion?, steps: [Step], isTrimmed: Bool = false, isCut: Bool = false) {
        self.app = app
        self.steps = steps
        self.isTrimmed = isTrimmed
        self.isCut = isCut
    }

    /// The journey of `stored`, created on `app` (``appVersion(of:)``) at the visible path `start` (nil when that
    /// version is not served: the creation is then left out, as for a trimmed history); with each change's
    /// ``Step/action`` when `actions` (it parses every request).
    public init(_ stored: StoredJourney, app: AppVersion?, start: [String]?, actions: Bool = false) {
        let first = stored.entries.first?.version ?? stored.version + 1
        let trimmed = stored.version > 0 && first > 1
        var steps: [Step] = []
        steps.reserveCapacity(stored.entries.count + 1)
        if !trimmed, let start {
            steps.append(Step(version: 0, time: stored.created, path: start))
        }
        for entry in stored.entries {
            let event = entry.source == .event ? Self.eventName(entry.request) : nil
            let action = actions ? ActionSignature.of(source: entry.source, request: entry.request) : nil
            steps.append(
                Step(version: entry.version, time: entry.time, path: entry.visiblePath, event: event, action: action))
        }
        self.init(
            app: app, steps: steps, isTrimmed: trimmed,
            isCut: (stored.entries.last?.version ?? stored.version) < stored.version)
    }

    /// The name of the flow event a stored event request sent; nil when it has none.
    static func eventName(_ request: [UInt8]) -> String? {
        if let name = TopLevelMember.string("name", in: request) { return name }
        guard case .string(let name)? = (try? JSONValue(parsing: request))?["name"] else { return nil }
        return name
    }

    /// The app version `stored` was created on, as its version 0's document names it; nil when unreadable.
    public static func appVersion(of stored: StoredJourney) -> AppVersion? {
        let document = try? JSONValue(parsing: stored.initialState)
        return document.flatMap { try? AppVersion.written(in: $0, app: stored.app) }
    }

    /// When the session was created: its creation step's time; nil when the store keeps none or retention trimmed
    /// the creation away (a later change's time would put a session created before a window into it).
    public var start: Double? { steps.first.flatMap { $0.version == 0 ? $0.time : nil } }

    /// The step the session was at when at `version`: the latest step at or before it; nil when trimmed away.
    public func step(at version: Int) -> Step? {
        steps.last { $0.version <= version }
    }
}
