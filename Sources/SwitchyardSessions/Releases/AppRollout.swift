/// Which versions of an app new sessions get, and which keep their sessions: one version, or a split between
/// several by weight (an A/B test of flows). A session keeps the version it was given until it is migrated.
///
/// A served version the rollout lists with weight 0 is pinned: it gets no new sessions, and its sessions stay on it.
/// A served version the rollout does not list hands its sessions on: each migrates, when next loaded, to the latest
/// listed version a migration leads to (and stays pinned to its own when none does or the migration fails).
/// Without a rollout, an app's latest served version takes every new session.
public struct AppRollout: Sendable, Equatable, CustomStringConvertible {
    /// A version and its share of new sessions.
    public struct Share: Sendable, Equatable {
        /// The version.
        public let version: Int
        /// Its weight among the listed versions (0: pinned, no new sessions).
        public let weight: Int

        /// `version` takes `weight` parts of new sessions.
        public init(version: Int, weight: Int) {
            self.version = version
            self.weight = weight
        }
    }

    /// The largest weight a version may have.
    public static let maxWeight = 1_000_000

    /// The app.
    public let app: String
    /// Its listed versions, in the order given.
    public let shares: [Share]

    /// A rollout of `app` over `shares`; at least one must have a positive weight.
    public init(app: String, shares: [Share]) {
        self.app = app
        self.shares = shares
    }

    /// Reads `todo=2` (every new session on version 2) or `todo=1:90,2:10` (a split by weight; `:0` pins a
    /// version); nil with the reason when it is not one.
    public static func parse(_ text: String) -> Result<AppRollout, RolloutError> {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
            return .failure(RolloutError("'\(text)' is not APP=VERSION[:WEIGHT],… (for example todo=1:90,2:10)"))
        }
        var shares: [Share] = []
        for item in parts[1].split(separator: ",", omittingEmptySubsequences: false) {
            let fields = item.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(fields.count), let version = Int(fields[0]), version >= 1,
                let weight = fields.count == 2 ? Int(fields[1]) : 100, (0...Self.maxWeight).contains(weight)
            else {
                return .failure(
                    RolloutError(
                        "'\(item)' in '\(text)' is not VERSION or VERSION:WEIGHT (whole numbers, from 1, and from 0 "
                            + "to \(Self.maxWeight))"))
            }
            shares.append(Share(version: version, weight: weight))
        }
        let rollout = AppRollout(app: parts[0], shares: shares)
        do {
            try rollout.check()
        } catch {
            return .failure(error)
        }
        return .success(rollout)
    }

    /// Throws unless the shares are versions from 1, each listed once, at weights from 0 to ``maxWeight``, one of
    /// them above 0: what every rollout must be, whether read from a flag, given in Swift or published.
    public func check() throws(RolloutError) {
        if let wrong = shares.first(where: { $0.version < 1 || !(0...Self.maxWeight).contains($0.weight) }) {
            throw RolloutError(
                "the rollout \(self) has version \(wrong.version) at weight \(wrong.weight): versions are whole "
                    + "numbers from 1, weights from 0 to \(Self.maxWeight)")
        }
        if let twice = shares.first(where: { share in shares.filter { $0.version == share.version }.count > 1 }) {
            throw RolloutError("the rollout \(self) lists version \(twice.version) twice")
        }
        guard shares.contains(where: { $0.weight > 0 }) else {
            throw RolloutError("the rollout \(self) gives new sessions to no version: give one a weight above 0")
        }
    }

    /// `todo=1:90,2:10`.
    public var description: String {
        "\(app)=" + shares.map { "\($0.version):\($0.weight)" }.joined(separator: ",")
    }

    /// The version a new session gets, for `pick` in `0..<1` (drawn at random per session).
    func version(for pick: Double) -> Int {
        let taking = shares.filter { $0.weight > 0 }
        let total = taking.reduce(0) { $0 + $1.weight }
        var threshold = pick * Double(total)
        for share in taking {
            threshold -= Double(share.weight)
            if threshold < 0 { return share.version }
        }
        return taking.last?.version ?? 1
    }
}

/// Why a rollout cannot be read.
public struct RolloutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
