extension StoredJourney {
    /// A history entry as analytics reads it: what a ``StoredChange`` says of the journey, without its restore
    /// document or lifecycle, so that a store reads and a scan keeps only these.
    public struct Entry: Sendable, Equatable {
        /// The session's version after the change.
        public var version: Int
        /// When it was committed (seconds since 1970).
        public var time: Double
        /// Who asked for it.
        public var source: HistorySource
        /// The request as received (JSON); empty when the read did not ask for it (``StoredJourney/Requests``).
        public var request: [UInt8]
        /// The visible route path after it.
        public var visiblePath: [String]

        /// An entry from its parts.
        public init(version: Int, time: Double, source: HistorySource, request: [UInt8], visiblePath: [String]) {
            self.version = version
            self.time = time
            self.source = source
            self.request = request
            self.visiblePath = visiblePath
        }

        /// The entry of a history entry read whole, with its request or without (empty).
        public init(_ change: StoredChange, request: Bool = true) {
            self.init(
                version: change.version, time: change.time, source: change.source,
                request: request ? change.request : [], visiblePath: change.visiblePath)
        }
    }
}
