/// The SQL schema of the durable stores, as versioned migrations the package owns (rule D8).
/// A migration is never edited once released: a change is a new migration with the next version.
enum SQLiteSchema {
    /// The migrations in order; migration `i` brings the schema to version `i + 1`.
    static let migrations: [[String]] = [
        // Version 1: instances with their active states (for listing by state), the journal,
        // idempotency keys, timers with absolute due times, and the outbox.
        [
            """
            CREATE TABLE statechart_instances (
                id TEXT PRIMARY KEY,
                chart_name TEXT NOT NULL,
                chart_version INTEGER NOT NULL,
                revision INTEGER NOT NULL,
                sequence INTEGER NOT NULL,
                origin_ns INTEGER NOT NULL,
                finished INTEGER NOT NULL,
                active_states TEXT NOT NULL,
                snapshot TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE statechart_active_states (
                instance_id TEXT NOT NULL,
                state_id TEXT NOT NULL,
                PRIMARY KEY (instance_id, state_id)
            )
            """,
            "CREATE INDEX statechart_active_states_by_state ON statechart_active_states (state_id)",
            """
            CREATE TABLE statechart_journal (
                instance_id TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                kind TEXT NOT NULL,
                event TEXT NOT NULL,
                configuration TEXT NOT NULL,
                at_ns INTEGER NOT NULL,
                idempotency_key TEXT,
                PRIMARY KEY (instance_id, sequence)
            )
            """,
            """
            CREATE TABLE statechart_idempotency (
                instance_id TEXT NOT NULL,
                key TEXT NOT NULL,
                event TEXT NOT NULL,
                outcome TEXT NOT NULL,
                PRIMARY KEY (instance_id, key)
            )
            """,
            """
            CREATE TABLE statechart_timers (
                instance_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                due_ns INTEGER NOT NULL,
                event TEXT NOT NULL,
                send_id TEXT,
                PRIMARY KEY (instance_id, position)
            )
            """,
            "CREATE INDEX statechart_timers_by_due ON statechart_timers (due_ns)",
            """
            CREATE TABLE statechart_outbox (
                instance_id TEXT NOT NULL,
                sequence INTEGER NOT NULL,
                position INTEGER NOT NULL,
                kind TEXT NOT NULL,
                name TEXT NOT NULL,
                state TEXT NOT NULL,
                dispatched INTEGER NOT NULL,
                PRIMARY KEY (instance_id, sequence, position)
            )
            """,
            "CREATE INDEX statechart_outbox_pending ON statechart_outbox (dispatched, instance_id, sequence)",
        ],
        // Version 2: journal rows by idempotency key, so that expiring keys (rule D18) finds each
        // key's latest commit without reading its instance's whole journal.
        [
            "CREATE INDEX statechart_journal_by_key ON statechart_journal (instance_id, idempotency_key, at_ns)"
        ],
        // Version 3: an outbox row's payload — for `send`, the event another instance is sent
        // (DurableMessaging); NULL for the other kinds.
        [
            "ALTER TABLE statechart_outbox ADD COLUMN payload TEXT"
        ],
    ]

    /// The schema version this package writes.
    static var latestVersion: Int { migrations.count }
}
