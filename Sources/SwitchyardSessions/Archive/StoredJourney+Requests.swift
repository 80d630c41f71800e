extension StoredJourney {
    /// Which entries' requests a read of journeys brings (``SessionArchive/journeys(of:entries:requests:)``): every
    /// one, as traffic coverage reads what each change asked; or only flow events', whose names are all funnels,
    /// paths, exits and read-outs read; the others' are left empty (most of a journey's bytes are not read then).
    public enum Requests: Sendable {
        /// Every entry's request.
        case all
        /// Only the requests of flow events (``HistorySource/event``).
        case events

        /// Whether an entry of `source` is read with its request.
        public func includes(_ source: HistorySource) -> Bool {
            self == .all || source == .event
        }
    }
}
