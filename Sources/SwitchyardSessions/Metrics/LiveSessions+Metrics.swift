import Switchyard

/// What the session layer counts, in the Prometheus text exposition.
extension LiveSessions {
    /// Writes the session layer's metric families: live sessions, changes, streams, migrations, the store (with its
    /// commit counts when it reports them); `publishedGeneration`: the generation of the published app versions
    /// this node serves.
    package func writeMetrics(into metrics: inout MetricsText, publishedGeneration: Int) {
        let counts = counters.current
        writeSessionMetrics(counts, into: &metrics)
        metrics.family(
            "switchyard_app_sessions", .gauge, "Live sessions in memory, by the app version they run.",
            samples: sessionsByVersion.sorted { $0.key < $1.key }.map { (Self.labels($0.key), "\($0.value)") })
        metrics.family(
            "switchyard_published_apps_generation", .gauge,
            "The generation of the app versions published through the admin API that this node serves (0: none); "
                + "nodes of one store agree once each has looked.", publishedGeneration)
        writeChangeMetrics(counts, into: &metrics)
        metrics.family(
            "switchyard_screen_rendering_bytes", .gauge,
            "Bytes of screens' JSON kept for the next documents of the sessions whose documents were written last "
                + "(bounded by SessionConfiguration.maxRenderingBytes).", renderingBytes)
        metrics.family(
            "switchyard_store_failures_total", .counter, "Failed writes and reads of the durable store.",
            counts.storeFailures)
        writeStoreMetrics(into: &metrics)
    }

    private func writeSessionMetrics(_ counts: SessionCounters.Counts, into metrics: inout MetricsText) {
        metrics.family("switchyard_sessions", .gauge, "Live sessions.", counts.sessions)
        metrics.family("switchyard_transitions_total", .counter, "Transition requests committed.", counts.transitions)
        metrics.family(
            "switchyard_transitions_rejected_total", .counter, "Transition requests refused.", counts.rejected)
        metrics.family("switchyard_sse_subscribers", .gauge, "Open state streams.", counts.subscribers)
        metrics.family(
            "switchyard_sse_broadcasts_total", .counter, "State changes pushed to subscribers.", counts.broadcasts)
        metrics.family(
            "switchyard_sessions_restored_total", .counter, "Stored sessions read back into memory.", counts.restored)
        metrics.family(
            "switchyard_sessions_incompatible_total", .counter,
            "Stored sessions the running app cannot restore.", counts.incompatible)
    }

    private func writeChangeMetrics(_ counts: SessionCounters.Counts, into metrics: inout MetricsText) {
        metrics.family(
            "switchyard_app_changes_total", .counter,
            "Change requests answered (transitions, events, deep links, restores), by the app version of the "
                + "session and whether they were accepted.",
            samples: counts.changes.sorted { $0.key < $1.key }.map { count, value in
                (Self.labels(count.app) + ",outcome=\"\(count.accepted ? "accepted" : "refused")\"", "\(value)")
            })
        metrics.family(
            "switchyard_session_migrations_total", .counter,
            "Stored sessions offered a newer app version, by the version they were on and whether they migrated, "
                + "stayed (pinned) or started over (restarted).",
            samples: counts.migrations.sorted { $0.key < $1.key }.map { count, value in
                (Self.labels(count.from) + ",outcome=\"\(count.outcome.rawValue)\"", "\(value)")
            })
        metrics.family(
            "switchyard_sessions_caught_up_total", .counter,
            "Sessions in memory brought to a version another node stored.", counts.caughtUp)
        metrics.family(
            "switchyard_change_conflicts_total", .counter,
            "Changes run again because another node changed the session first.", counts.conflicts)
    }

    /// The store's commit counts, when it reports them.
    private func writeStoreMetrics(into metrics: inout MetricsText) {
        guard let store = archive.statistics else { return }
        metrics.family(
            "switchyard_store_commits_total", .counter, "Transactions the session store committed.", store.commits)
        metrics.family(
            "switchyard_store_batches_total", .counter, "Writes those commits held (group commit).", store.batches)
        if let bytes = store.historyBytes {
            metrics.family(
                "switchyard_memory_history_bytes", .gauge,
                "Bytes of history (requests and restore documents) the in-memory store holds, within "
                    + "--max-memory-history.", bytes)
        }
        if let roundTrips = store.roundTrips {
            metrics.family(
                "switchyard_store_round_trips_total", .counter,
                "Round trips to the database (statements or pipelines sent and answered, statements prepared).",
                roundTrips)
        }
    }

    /// `app="…",version="…"`.
    static func labels(_ version: AppVersion) -> String {
        "app=\"\(MetricsText.label(version.name))\",version=\"\(version.version)\""
    }
}
