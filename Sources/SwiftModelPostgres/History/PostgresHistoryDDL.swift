import ModelSQL

/// PostgreSQL's change history: one table, `swiftmodel_history`, filled by a row trigger
/// on each table whose model keeps history, in the write's own transaction — whoever
/// writes (the model layer, bulk writes, raw SQL, other programs).
///
/// **Cursors in commit order.** With concurrent writers, a sequence value taken when a row
/// is written would not do: a transaction that took cursor 10 may commit after one that
/// took 11, and a reader that saw 11 would skip 10. So an entry is written without a
/// cursor, and a deferred constraint trigger gives the transaction's entries theirs at
/// commit, holding a transaction-level advisory lock, which PostgreSQL releases only
/// after the commit is visible: the next committing transaction takes its cursors after,
/// so cursors follow the order in which commits become visible, and a transaction's
/// entries are consecutive. The price: committing transactions that wrote history
/// take turns for that last step.
enum PostgresHistoryDDL {
    static let table = "swiftmodel_history"
    static let horizonTable = "swiftmodel_history_horizon"
    /// The advisory lock the commits take turns on (any constant; "SMHISTRY").
    static let lockKey: Int64 = 0x534D_4849_5354_5259

    /// The shared objects: the tables, the cursor sequence, the commit-order trigger.
    /// Serialised by an advisory lock (two tables may be prepared at once).
    static let shared = [
        "SELECT pg_advisory_xact_lock(\(lockKey))",
        """
        CREATE TABLE IF NOT EXISTS \(table) (
          entry bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
          cursor bigint UNIQUE,
          table_name text NOT NULL,
          row_int bigint,
          row_text text,
          action smallint NOT NULL,
          changed text,
          recorded_at timestamptz NOT NULL DEFAULT clock_timestamp()
        )
        """,
        "CREATE TABLE IF NOT EXISTS \(horizonTable) (singleton integer PRIMARY KEY CHECK (singleton = 1), cursor bigint NOT NULL)",
        "CREATE SEQUENCE IF NOT EXISTS swiftmodel_history_cursor",
        """
        CREATE OR REPLACE FUNCTION swiftmodel_history_order() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_advisory_xact_lock(\(lockKey));
          UPDATE \(table) SET cursor = nextval('swiftmodel_history_cursor') WHERE entry = NEW.entry AND cursor IS NULL;
          RETURN NULL;
        END $$
        """,
        """
        DO $$ BEGIN
          IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'swiftmodel_history_order' AND tgrelid = '\(table)'::regclass) THEN
            CREATE CONSTRAINT TRIGGER swiftmodel_history_order AFTER INSERT ON \(table)
              DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION swiftmodel_history_order();
          END IF;
        END $$
        """,
    ]

    /// The trigger's (and its function's) name on `tableName`, within 63 bytes, unquoted.
    static func triggerName(_ tableName: String) -> String {
        String("swiftmodel_history_\(tableName)".utf8.prefix(63)) ?? "swiftmodel_history"
    }

    /// Drops the table's history trigger, then — for a model that keeps history — creates
    /// the shared objects and the trigger for its columns as declared now.
    static func preparation(_ schema: ModelSchema) -> [String] {
        let bare = triggerName(schema.tableName)
        let name = SQLText.quote(bare)
        let table = SQLText.quote(schema.tableName)
        let drop = "DROP TRIGGER IF EXISTS \(name) ON \(table)"
        guard let tableLiteral = SQLText.string(schema.tableName), let nameLiteral = SQLText.string(bare),
            let relation = SQLText.string(table)
        else { return [] }  // a NUL in the name: no such table can exist
        guard schema.keepsHistory else {
            // Only when there is one: dropping a trigger locks the table against every reader.
            return [
                "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = \(nameLiteral) AND tgrelid = to_regclass(\(relation))) THEN \(drop); END IF; END $$"
            ]
        }
        let id = SQLText.quote(schema.columns[0].name)
        let idColumn = schema.columns[0].type == .int ? "row_int" : "row_text"
        func entry(_ row: String, _ action: Int, _ changed: String = "NULL") -> String {
            let value = idColumn == "row_int" ? row : "\(row)::text"
            return "INSERT INTO \(Self.table) (table_name, \(idColumn), action, changed) VALUES (\(tableLiteral), \(value), \(action), \(changed));"
        }
        let names = schema.columns.dropFirst().compactMap { column -> String? in
            let quoted = SQLText.quote(column.name)
            return SQLText.string(column.name).map { "CASE WHEN OLD.\(quoted) IS DISTINCT FROM NEW.\(quoted) THEN \($0) END" }
        }
        let changedList = names.isEmpty ? "ARRAY[]::text[]" : "array_remove(ARRAY[\(names.joined(separator: ", "))]::text[], NULL)"
        let function = """
            CREATE OR REPLACE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE changed text[];
            BEGIN
              IF TG_OP = 'INSERT' THEN
                \(entry("NEW.\(id)", 1))
              ELSIF TG_OP = 'DELETE' THEN
                \(entry("OLD.\(id)", 3))
              ELSIF OLD.\(id) IS DISTINCT FROM NEW.\(id) THEN
                \(entry("OLD.\(id)", 3))
                \(entry("NEW.\(id)", 1))
              ELSE
                changed := \(changedList);
                IF cardinality(changed) > 0 THEN
                  \(entry("NEW.\(id)", 2, "array_to_json(changed)::text"))
                END IF;
              END IF;
              RETURN NULL;
            END $$
            """
        return shared + [
            function, drop,
            "CREATE TRIGGER \(name) AFTER INSERT OR UPDATE OR DELETE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(name)()",
        ]
    }
}

extension PostgresDialect {
    /// PostgreSQL keeps change history (``PostgresHistoryDDL``).
    package func historyPreparation(_ schema: ModelSchema) -> [String]? { PostgresHistoryDDL.preparation(schema) }
}
