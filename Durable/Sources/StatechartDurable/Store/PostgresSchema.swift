/// The PostgreSQL schema of ``PostgresStore``, as versioned migrations the package owns (rule D8).
/// A migration is never edited once released: a change is a new migration with the next version.
/// Table names are written `{schema}.name`; the store puts its (quoted) schema in their place, so
/// one database can hold several independent stores (the tests give each test its own schema).
enum PostgresSchema {
    /// The migrations in order; migration `i` brings the schema to version `i + 1`.
    static let migrations: [[String]] = [
        // Version 1: the same rows as SQLite's version 1, in PostgreSQL's types. Active states
        // are a `text[]` with a GIN index (listing by state reads the index; no second table).
        [
            """
            CREATE TABLE {schema}.statechart_instances (
                id text PRIMARY KEY,
                chart_name text NOT NULL,
                chart_version bigint NOT NULL,
                revision bigint NOT NULL,
                sequence bigint NOT NULL,
                origin_ns bigint NOT NULL,
                finished boolean NOT NULL,
                active_states text[] NOT NULL,
                snapshot text NOT NULL
            )
            """,
            "CREATE INDEX statechart_instances_by_state ON {schema}.statechart_instances USING gin (active_states)",
            """
            CREATE TABLE {schema}.statechart_journal (
                instance_id text NOT NULL,
                sequence bigint NOT NULL,
                kind text NOT NULL,
                event text NOT NULL,
                configuration text[] NOT NULL,
                at_ns bigint NOT NULL,
                idempotency_key text,
                PRIMARY KEY (instance_id, sequence)
            )
            """,
            """
            CREATE TABLE {schema}.statechart_idempotency (
                instance_id text NOT NULL,
                key text NOT NULL,
                event text NOT NULL,
                outcome text NOT NULL,
                PRIMARY KEY (instance_id, key)
            )
            """,
            """
            CREATE TABLE {schema}.statechart_timers (
                instance_id text NOT NULL,
                position bigint NOT NULL,
                due_ns bigint NOT NULL,
                event text NOT NULL,
                send_id text,
                PRIMARY KEY (instance_id, position)
            )
            """,
            "CREATE INDEX statechart_timers_by_due ON {schema}.statechart_timers (due_ns)",
            """
            CREATE TABLE {schema}.statechart_outbox (
                id bigint GENERATED ALWAYS AS IDENTITY,
                instance_id text NOT NULL,
                sequence bigint NOT NULL,
                position bigint NOT NULL,
                kind text NOT NULL,
                name text NOT NULL,
                state text NOT NULL,
                dispatched boolean NOT NULL,
                PRIMARY KEY (instance_id, sequence, position)
            )
            """,
            "CREATE INDEX statechart_outbox_pending ON {schema}.statechart_outbox (id) WHERE NOT dispatched",
        ],
        // Version 2: leases (rule D15). One row per instance a node drives: the owner, a fencing
        // token that grows with every new claim of the instance, and when the claim lapses, in
        // the database's clock. A commit under a lease checks owner and token in its transaction.
        [
            """
            CREATE TABLE {schema}.statechart_leases (
                instance_id text PRIMARY KEY,
                owner text NOT NULL,
                token bigint NOT NULL,
                expires_at timestamptz NOT NULL
            )
            """,
            "CREATE INDEX statechart_leases_by_owner ON {schema}.statechart_leases (owner)",
        ],
        // Version 3: journal rows by idempotency key, so that expiring keys (rule D18) finds each
        // key's latest commit without reading its instance's whole journal.
        [
            "CREATE INDEX statechart_journal_by_key ON {schema}.statechart_journal (instance_id, idempotency_key, at_ns)"
        ],
        // Version 4: an outbox row's payload — for `send`, the event another instance is sent
        // (DurableMessaging); NULL for the other kinds.
        [
            "ALTER TABLE {schema}.statechart_outbox ADD COLUMN payload text"
        ],
    ]

    /// The schema version this package writes.
    static var latestVersion: Int { migrations.count }
}
