//! Tables computed when they are read: `information_schema` (SCHEMATA, TABLES, COLUMNS,
//! STATISTICS, PROCESSLIST, PROFILING, ENGINES, CHARACTER_SETS, COLLATIONS,
//! COLLATION_CHARACTER_SET_APPLICABILITY, KEY_COLUMN_USAGE, TABLE_CONSTRAINTS,
//! REFERENTIAL_CONSTRAINTS, PARTITIONS, VIEWS, and — empty, for Quire keeps none of what
//! they list — ROUTINES, TRIGGERS, EVENTS), `performance_schema`
//! (events_statements_summary_by_digest, events_statements_history/current, threads,
//! setup_consumers, setup_instruments, global/session_status, global/session_variables)
//! and the `sys` views over the digest summary (statement_analysis,
//! statements_with_full_table_scans, their `x$` forms). `UPDATE` of the two setup tables is
//! here too ([`update_setup`]).
//!
//! A statement that reads one gets the rows as they are when it is planned, as an
//! in-memory table of its own (the plan is never cached), so these tables filter, sort,
//! group and join like any other. Column names and order are MySQL 8.0's; values Quire has
//! no notion of are what MySQL shows for an engine without them (NULL times, `def`
//! catalog, `BTREE` indexes), and row counts and lengths are the same estimates as
//! SHOW TABLE STATUS (rows × 100 bytes).

use crate::error::{MyError, Result, code};
use crate::observe::{digest, history};
use crate::session::Ctx;
use crate::sql::exec::{ExecError, VecSink};
use crate::sql::types::{BlobSize, Charset, Collation, SqlType};
use crate::sql::utility::Outcome;
use crate::sql::value::{Row, Value};
use crate::storage::schema::{ColumnDef, IndexKind, TableDef};
use sqlparser::ast;
use std::sync::Arc;

/// A column's type, as far as these tables need.
#[derive(Clone, Copy)]
enum Ty {
    Str(u32),
    Text,
    UInt,
    Int,
    DateTime,
    Dec(u8, u8),
}

fn def(db: &str, name: &str, cols: &[(&str, Ty)]) -> TableDef {
    let utf8 = Collation::Utf8mb3GeneralCi;
    let columns = cols
        .iter()
        .map(|(n, t)| {
            let ty = match *t {
                Ty::Str(len) => SqlType::VarChar {
                    len,
                    collation: utf8,
                },
                Ty::Text => SqlType::Text {
                    size: BlobSize::Long,
                    collation: utf8,
                },
                Ty::UInt => SqlType::BIGINT_UNSIGNED,
                Ty::Int => SqlType::BIGINT,
                Ty::DateTime => SqlType::DateTime { fsp: 0 },
                Ty::Dec(precision, scale) => SqlType::Decimal {
                    precision,
                    scale,
                    unsigned: false,
                },
            };
            ColumnDef::plain(n, ty, true)
        })
        .collect();
    TableDef {
        db: db.to_string(),
        name: name.to_ascii_uppercase(),
        columns,
        primary: None,
        indexes: Vec::new(),
        engine: "MEMORY".to_string(),
        charset: Charset::Utf8mb3,
        collation: utf8,
        comment: String::new(),
        auto_increment_start: 1,
        foreign_keys: Vec::new(),
    }
}

/// `performance_schema.setup_consumers`, `.setup_instruments` (see `observe::setup`).
pub const SETUP_CONSUMERS: &str = "setup_consumers";
pub const SETUP_INSTRUMENTS: &str = "setup_instruments";

/// The columns of the status and variables tables.
const NAME_VALUE: &[(&str, Ty)] = &[
    ("VARIABLE_NAME", Ty::Str(64)),
    ("VARIABLE_VALUE", Ty::Str(1024)),
];

/// A `performance_schema` table: lower-case name, its engine.
fn ps_def(name: &str, cols: &[(&str, Ty)]) -> TableDef {
    let mut d = def("performance_schema", name, cols);
    d.name = name.to_string();
    d.engine = "PERFORMANCE_SCHEMA".to_string();
    d
}

/// The `information_schema` tables Quire computes, in MySQL's upper case.
const IS_TABLES: &[&str] = &[
    "CHARACTER_SETS",
    "COLLATIONS",
    "COLLATION_CHARACTER_SET_APPLICABILITY",
    "COLUMNS",
    "ENGINES",
    "EVENTS",
    "KEY_COLUMN_USAGE",
    "PARTITIONS",
    "PROCESSLIST",
    "PROFILING",
    "REFERENTIAL_CONSTRAINTS",
    "ROUTINES",
    "SCHEMATA",
    "STATISTICS",
    "TABLES",
    "TABLE_CONSTRAINTS",
    "TRIGGERS",
    "VIEWS",
];

/// The `performance_schema` tables Quire computes.
const PS_TABLES: &[&str] = &[
    history::CURRENT,
    history::HISTORY,
    digest::SUMMARY_BY_DIGEST,
    "global_status",
    "global_variables",
    "session_status",
    "session_variables",
    SETUP_CONSUMERS,
    SETUP_INSTRUMENTS,
    history::THREADS,
];

/// The `sys` views Quire computes.
const SYS_VIEWS: &[&str] = &[
    "statement_analysis",
    "statements_with_full_table_scans",
    "x$statement_analysis",
    "x$statements_with_full_table_scans",
];

/// The tables computed here that `db` holds, with their TABLE_TYPE, for SHOW TABLES and
/// `information_schema.TABLES`; `None` for a database whose tables are stored.
pub fn table_names(db: &str) -> Option<(&'static [&'static str], &'static str)> {
    if db.eq_ignore_ascii_case("information_schema") {
        Some((IS_TABLES, "SYSTEM VIEW"))
    } else if db.eq_ignore_ascii_case("performance_schema") {
        Some((PS_TABLES, "BASE TABLE"))
    } else if db.eq_ignore_ascii_case("sys") {
        Some((SYS_VIEWS, "VIEW"))
    } else {
        None
    }
}

fn yes_no(on: bool) -> Value {
    s(if on { "YES" } else { "NO" })
}

fn setup_rows(ctx: &Ctx, instruments: bool) -> Vec<Row> {
    let setup = &ctx.server.digests.setup;
    if instruments {
        setup
            .instrument_rows()
            .into_iter()
            .map(|(n, on)| {
                Row::from(vec![
                    Value::from_string(n),
                    yes_no(on),
                    yes_no(true),
                    s(""),
                    Value::Null,
                    Value::Int(0),
                    Value::Null,
                ])
            })
            .collect()
    } else {
        setup
            .consumer_rows()
            .into_iter()
            .map(|(n, on)| Row::from(vec![s(n), yes_no(on)]))
            .collect()
    }
}

fn s(v: &str) -> Value {
    Value::str(v)
}

fn opt(v: Option<impl Into<Value>>) -> Value {
    v.map_or(Value::Null, Into::into)
}

/// The table `db.name` if it is one of these, with its rows for `ctx`'s session.
pub fn table(ctx: &Ctx, db: &str, name: &str) -> Option<(TableDef, Vec<Row>)> {
    let rows = |v: Vec<Vec<Value>>| v.into_iter().map(Row::from).collect::<Vec<Row>>();
    if db.eq_ignore_ascii_case("performance_schema") {
        if digest::is_summary(db, name) {
            let mut d = digest::summary_def();
            d.name = digest::SUMMARY_BY_DIGEST.to_string();
            // TIMESTAMP columns hold UTC, as stored tables do (read in the session's zone).
            return Some((d, ctx.server.digests.table_rows(0)));
        }
        let name = name.to_ascii_lowercase();
        return match name.as_str() {
            history::HISTORY | history::CURRENT => Some((
                history::statements_def(&name),
                statements(ctx, name == history::CURRENT),
            )),
            history::THREADS => Some((history::threads_def(), threads(ctx))),
            "global_status" | "session_status" => Some((
                ps_def(&name, NAME_VALUE),
                rows(super::utility::status_rows(ctx, name == "global_status")),
            )),
            "global_variables" | "session_variables" => Some((
                ps_def(&name, NAME_VALUE),
                rows(super::show::variable_rows(ctx, name == "global_variables")),
            )),
            SETUP_CONSUMERS => Some((
                ps_def(&name, &[("NAME", Ty::Str(64)), ("ENABLED", Ty::Str(3))]),
                setup_rows(ctx, false),
            )),
            SETUP_INSTRUMENTS => Some((
                ps_def(
                    &name,
                    &[
                        ("NAME", Ty::Str(128)),
                        ("ENABLED", Ty::Str(3)),
                        ("TIMED", Ty::Str(3)),
                        ("PROPERTIES", Ty::Str(64)),
                        ("FLAGS", Ty::Str(64)),
                        ("VOLATILITY", Ty::Int),
                        ("DOCUMENTATION", Ty::Text),
                    ],
                ),
                setup_rows(ctx, true),
            )),
            _ => None,
        };
    }
    if db.eq_ignore_ascii_case("sys") {
        return sys_view(ctx, name);
    }
    if !db.eq_ignore_ascii_case("information_schema") {
        return None;
    }
    let db = "information_schema";
    Some(match name.to_ascii_uppercase().as_str() {
        "SCHEMATA" => (
            def(
                db,
                name,
                &[
                    ("CATALOG_NAME", Ty::Str(64)),
                    ("SCHEMA_NAME", Ty::Str(64)),
                    ("DEFAULT_CHARACTER_SET_NAME", Ty::Str(64)),
                    ("DEFAULT_COLLATION_NAME", Ty::Str(64)),
                    ("SQL_PATH", Ty::Str(512)),
                    ("DEFAULT_ENCRYPTION", Ty::Str(3)),
                ],
            ),
            rows(schemata(ctx)),
        ),
        "TABLES" => (
            def(
                db,
                name,
                &[
                    ("TABLE_CATALOG", Ty::Str(64)),
                    ("TABLE_SCHEMA", Ty::Str(64)),
                    ("TABLE_NAME", Ty::Str(64)),
                    ("TABLE_TYPE", Ty::Str(64)),
                    ("ENGINE", Ty::Str(64)),
                    ("VERSION", Ty::Int),
                    ("ROW_FORMAT", Ty::Str(10)),
                    ("TABLE_ROWS", Ty::UInt),
                    ("AVG_ROW_LENGTH", Ty::UInt),
                    ("DATA_LENGTH", Ty::UInt),
                    ("MAX_DATA_LENGTH", Ty::UInt),
                    ("INDEX_LENGTH", Ty::UInt),
                    ("DATA_FREE", Ty::UInt),
                    ("AUTO_INCREMENT", Ty::UInt),
                    ("CREATE_TIME", Ty::DateTime),
                    ("UPDATE_TIME", Ty::DateTime),
                    ("CHECK_TIME", Ty::DateTime),
                    ("TABLE_COLLATION", Ty::Str(64)),
                    ("CHECKSUM", Ty::Int),
                    ("CREATE_OPTIONS", Ty::Str(256)),
                    ("TABLE_COMMENT", Ty::Text),
                ],
            ),
            rows(tables(ctx)),
        ),
        "COLUMNS" => (
            def(
                db,
                name,
                &[
                    ("TABLE_CATALOG", Ty::Str(64)),
                    ("TABLE_SCHEMA", Ty::Str(64)),
                    ("TABLE_NAME", Ty::Str(64)),
                    ("COLUMN_NAME", Ty::Str(64)),
                    ("ORDINAL_POSITION", Ty::UInt),
                    ("COLUMN_DEFAULT", Ty::Text),
                    ("IS_NULLABLE", Ty::Str(3)),
                    ("DATA_TYPE", Ty::Text),
                    ("CHARACTER_MAXIMUM_LENGTH", Ty::Int),
                    ("CHARACTER_OCTET_LENGTH", Ty::Int),
                    ("NUMERIC_PRECISION", Ty::UInt),
                    ("NUMERIC_SCALE", Ty::UInt),
                    ("DATETIME_PRECISION", Ty::UInt),
                    ("CHARACTER_SET_NAME", Ty::Str(64)),
                    ("COLLATION_NAME", Ty::Str(64)),
                    ("COLUMN_TYPE", Ty::Text),
                    ("COLUMN_KEY", Ty::Str(3)),
                    ("EXTRA", Ty::Str(256)),
                    ("PRIVILEGES", Ty::Str(154)),
                    ("COLUMN_COMMENT", Ty::Text),
                    ("GENERATION_EXPRESSION", Ty::Text),
                    ("SRS_ID", Ty::UInt),
                ],
            ),
            rows(columns(ctx)),
        ),
        "STATISTICS" => (
            def(
                db,
                name,
                &[
                    ("TABLE_CATALOG", Ty::Str(64)),
                    ("TABLE_SCHEMA", Ty::Str(64)),
                    ("TABLE_NAME", Ty::Str(64)),
                    ("NON_UNIQUE", Ty::Int),
                    ("INDEX_SCHEMA", Ty::Str(64)),
                    ("INDEX_NAME", Ty::Str(64)),
                    ("SEQ_IN_INDEX", Ty::UInt),
                    ("COLUMN_NAME", Ty::Str(64)),
                    ("COLLATION", Ty::Str(1)),
                    ("CARDINALITY", Ty::Int),
                    ("SUB_PART", Ty::Int),
                    ("PACKED", Ty::Str(10)),
                    ("NULLABLE", Ty::Str(3)),
                    ("INDEX_TYPE", Ty::Str(11)),
                    ("COMMENT", Ty::Str(8)),
                    ("INDEX_COMMENT", Ty::Str(2048)),
                    ("IS_VISIBLE", Ty::Str(3)),
                    ("EXPRESSION", Ty::Text),
                ],
            ),
            rows(statistics(ctx)),
        ),
        "PROCESSLIST" => (
            def(
                db,
                name,
                &[
                    ("ID", Ty::UInt),
                    ("USER", Ty::Str(32)),
                    ("HOST", Ty::Str(261)),
                    ("DB", Ty::Str(64)),
                    ("COMMAND", Ty::Str(16)),
                    ("TIME", Ty::Int),
                    ("STATE", Ty::Str(64)),
                    ("INFO", Ty::Text),
                ],
            ),
            rows(super::utility::processlist_rows(ctx, true)),
        ),
        "PROFILING" => (
            def(
                db,
                name,
                &[
                    ("QUERY_ID", Ty::Int),
                    ("SEQ", Ty::Int),
                    ("STATE", Ty::Str(30)),
                    ("DURATION", Ty::Dec(9, 6)),
                    ("CPU_USER", Ty::Dec(9, 6)),
                    ("CPU_SYSTEM", Ty::Dec(9, 6)),
                    ("CONTEXT_VOLUNTARY", Ty::Int),
                    ("CONTEXT_INVOLUNTARY", Ty::Int),
                    ("BLOCK_OPS_IN", Ty::Int),
                    ("BLOCK_OPS_OUT", Ty::Int),
                    ("MESSAGES_SENT", Ty::Int),
                    ("MESSAGES_RECEIVED", Ty::Int),
                    ("PAGE_FAULTS_MAJOR", Ty::Int),
                    ("PAGE_FAULTS_MINOR", Ty::Int),
                    ("SWAPS", Ty::Int),
                    ("SOURCE_FUNCTION", Ty::Str(30)),
                    ("SOURCE_FILE", Ty::Str(20)),
                    ("SOURCE_LINE", Ty::Int),
                ],
            ),
            rows(profiling(ctx)),
        ),
        "ENGINES" => (
            def(
                db,
                name,
                &[
                    ("ENGINE", Ty::Str(64)),
                    ("SUPPORT", Ty::Str(8)),
                    ("COMMENT", Ty::Str(80)),
                    ("TRANSACTIONS", Ty::Str(3)),
                    ("XA", Ty::Str(3)),
                    ("SAVEPOINTS", Ty::Str(3)),
                ],
            ),
            rows(super::show::engine_rows()),
        ),
        "CHARACTER_SETS" => (
            def(
                db,
                name,
                &[
                    ("CHARACTER_SET_NAME", Ty::Str(64)),
                    ("DEFAULT_COLLATE_NAME", Ty::Str(64)),
                    ("DESCRIPTION", Ty::Str(2048)),
                    ("MAXLEN", Ty::UInt),
                ],
            ),
            rows(
                Charset::ALL
                    .iter()
                    .map(|c| {
                        vec![
                            s(c.name()),
                            s(c.default_collation().name()),
                            s(c.description()),
                            Value::UInt(u64::from(c.max_len())),
                        ]
                    })
                    .collect(),
            ),
        ),
        "COLLATIONS" => (
            def(
                db,
                name,
                &[
                    ("COLLATION_NAME", Ty::Str(64)),
                    ("CHARACTER_SET_NAME", Ty::Str(64)),
                    ("ID", Ty::UInt),
                    ("IS_DEFAULT", Ty::Str(3)),
                    ("IS_COMPILED", Ty::Str(3)),
                    ("SORTLEN", Ty::UInt),
                    ("PAD_ATTRIBUTE", Ty::Str(9)),
                ],
            ),
            // SHOW COLLATION's rows: the same columns in the same order.
            rows(super::show::collation_rows()),
        ),
        "COLLATION_CHARACTER_SET_APPLICABILITY" => (
            def(
                db,
                name,
                &[
                    ("COLLATION_NAME", Ty::Str(64)),
                    ("CHARACTER_SET_NAME", Ty::Str(64)),
                ],
            ),
            rows(
                Collation::ALL
                    .iter()
                    .map(|c| vec![s(c.name()), s(c.charset().name())])
                    .collect(),
            ),
        ),
        "KEY_COLUMN_USAGE" => (
            def(
                db,
                name,
                &[
                    ("CONSTRAINT_CATALOG", Ty::Str(64)),
                    ("CONSTRAINT_SCHEMA", Ty::Str(64)),
                    ("CONSTRAINT_NAME", Ty::Str(64)),
                    ("TABLE_CATALOG", Ty::Str(64)),
                    ("TABLE_SCHEMA", Ty::Str(64)),
                    ("TABLE_NAME", Ty::Str(64)),
                    ("COLUMN_NAME", Ty::Str(64)),
                    ("ORDINAL_POSITION", Ty::UInt),
                    ("POSITION_IN_UNIQUE_CONSTRAINT", Ty::UInt),
                    ("REFERENCED_TABLE_SCHEMA", Ty::Str(64)),
                    ("REFERENCED_TABLE_NAME", Ty::Str(64)),
                    ("REFERENCED_COLUMN_NAME", Ty::Str(64)),
                ],
            ),
            rows(key_column_usage(ctx)),
        ),
        "TABLE_CONSTRAINTS" => (
            def(
                db,
                name,
                &[
                    ("CONSTRAINT_CATALOG", Ty::Str(64)),
                    ("CONSTRAINT_SCHEMA", Ty::Str(64)),
                    ("CONSTRAINT_NAME", Ty::Str(64)),
                    ("TABLE_SCHEMA", Ty::Str(64)),
                    ("TABLE_NAME", Ty::Str(64)),
                    ("CONSTRAINT_TYPE", Ty::Str(11)),
                    ("ENFORCED", Ty::Str(3)),
                ],
            ),
            rows(table_constraints(ctx)),
        ),
        "PARTITIONS" => (
            def(
                db,
                name,
                &[
                    ("TABLE_CATALOG", Ty::Str(64)),
                    ("TABLE_SCHEMA", Ty::Str(64)),
                    ("TABLE_NAME", Ty::Str(64)),
                    ("PARTITION_NAME", Ty::Str(64)),
                    ("SUBPARTITION_NAME", Ty::Str(64)),
                    ("PARTITION_ORDINAL_POSITION", Ty::UInt),
                    ("SUBPARTITION_ORDINAL_POSITION", Ty::UInt),
                    ("PARTITION_METHOD", Ty::Str(13)),
                    ("SUBPARTITION_METHOD", Ty::Str(13)),
                    ("PARTITION_EXPRESSION", Ty::Text),
                    ("SUBPARTITION_EXPRESSION", Ty::Text),
                    ("PARTITION_DESCRIPTION", Ty::Text),
                    ("TABLE_ROWS", Ty::UInt),
                    ("AVG_ROW_LENGTH", Ty::UInt),
                    ("DATA_LENGTH", Ty::UInt),
                    ("MAX_DATA_LENGTH", Ty::UInt),
                    ("INDEX_LENGTH", Ty::UInt),
                    ("DATA_FREE", Ty::UInt),
                    ("CREATE_TIME", Ty::DateTime),
                    ("UPDATE_TIME", Ty::DateTime),
                    ("CHECK_TIME", Ty::DateTime),
                    ("CHECKSUM", Ty::Int),
                    ("PARTITION_COMMENT", Ty::Text),
                    ("NODEGROUP", Ty::Str(256)),
                    ("TABLESPACE_NAME", Ty::Str(268)),
                ],
            ),
            rows(partitions(ctx)),
        ),
        "REFERENTIAL_CONSTRAINTS" => (
            def(
                db,
                name,
                &[
                    ("CONSTRAINT_CATALOG", Ty::Str(64)),
                    ("CONSTRAINT_SCHEMA", Ty::Str(64)),
                    ("CONSTRAINT_NAME", Ty::Str(64)),
                    ("UNIQUE_CONSTRAINT_CATALOG", Ty::Str(64)),
                    ("UNIQUE_CONSTRAINT_SCHEMA", Ty::Str(64)),
                    ("UNIQUE_CONSTRAINT_NAME", Ty::Str(64)),
                    ("MATCH_OPTION", Ty::Str(7)),
                    ("UPDATE_RULE", Ty::Str(11)),
                    ("DELETE_RULE", Ty::Str(11)),
                    ("TABLE_NAME", Ty::Str(64)),
                    ("REFERENCED_TABLE_NAME", Ty::Str(64)),
                ],
            ),
            rows(referential_constraints(ctx)),
        ),
        // Quire has no stored routines, triggers or events: these are the tables that list
        // them, with MySQL's columns and no rows.
        "VIEWS" => (
            def(
                db,
                name,
                &[
                    ("TABLE_CATALOG", Ty::Str(64)),
                    ("TABLE_SCHEMA", Ty::Str(64)),
                    ("TABLE_NAME", Ty::Str(64)),
                    ("VIEW_DEFINITION", Ty::Text),
                    ("CHECK_OPTION", Ty::Str(8)),
                    ("IS_UPDATABLE", Ty::Str(3)),
                    ("DEFINER", Ty::Str(288)),
                    ("SECURITY_TYPE", Ty::Str(7)),
                    ("CHARACTER_SET_CLIENT", Ty::Str(64)),
                    ("COLLATION_CONNECTION", Ty::Str(64)),
                ],
            ),
            rows(views(ctx)),
        ),
        "ROUTINES" => (
            def(
                db,
                name,
                &[
                    ("SPECIFIC_NAME", Ty::Str(64)),
                    ("ROUTINE_CATALOG", Ty::Str(64)),
                    ("ROUTINE_SCHEMA", Ty::Str(64)),
                    ("ROUTINE_NAME", Ty::Str(64)),
                    ("ROUTINE_TYPE", Ty::Str(9)),
                    ("DATA_TYPE", Ty::Text),
                    ("CHARACTER_MAXIMUM_LENGTH", Ty::Int),
                    ("CHARACTER_OCTET_LENGTH", Ty::Int),
                    ("NUMERIC_PRECISION", Ty::UInt),
                    ("NUMERIC_SCALE", Ty::UInt),
                    ("DATETIME_PRECISION", Ty::UInt),
                    ("CHARACTER_SET_NAME", Ty::Str(64)),
                    ("COLLATION_NAME", Ty::Str(64)),
                    ("DTD_IDENTIFIER", Ty::Text),
                    ("ROUTINE_BODY", Ty::Str(8)),
                    ("ROUTINE_DEFINITION", Ty::Text),
                    ("EXTERNAL_NAME", Ty::Str(64)),
                    ("EXTERNAL_LANGUAGE", Ty::Str(64)),
                    ("PARAMETER_STYLE", Ty::Str(3)),
                    ("IS_DETERMINISTIC", Ty::Str(3)),
                    ("SQL_DATA_ACCESS", Ty::Str(17)),
                    ("SQL_PATH", Ty::Str(64)),
                    ("SECURITY_TYPE", Ty::Str(7)),
                    ("CREATED", Ty::DateTime),
                    ("LAST_ALTERED", Ty::DateTime),
                    ("SQL_MODE", Ty::Str(520)),
                    ("ROUTINE_COMMENT", Ty::Text),
                    ("DEFINER", Ty::Str(288)),
                    ("CHARACTER_SET_CLIENT", Ty::Str(64)),
                    ("COLLATION_CONNECTION", Ty::Str(64)),
                    ("DATABASE_COLLATION", Ty::Str(64)),
                ],
            ),
            Vec::new(),
        ),
        "TRIGGERS" => (
            def(
                db,
                name,
                &[
                    ("TRIGGER_CATALOG", Ty::Str(64)),
                    ("TRIGGER_SCHEMA", Ty::Str(64)),
                    ("TRIGGER_NAME", Ty::Str(64)),
                    ("EVENT_MANIPULATION", Ty::Str(6)),
                    ("EVENT_OBJECT_CATALOG", Ty::Str(64)),
                    ("EVENT_OBJECT_SCHEMA", Ty::Str(64)),
                    ("EVENT_OBJECT_TABLE", Ty::Str(64)),
                    ("ACTION_ORDER", Ty::UInt),
                    ("ACTION_CONDITION", Ty::Text),
                    ("ACTION_STATEMENT", Ty::Text),
                    ("ACTION_ORIENTATION", Ty::Str(3)),
                    ("ACTION_TIMING", Ty::Str(6)),
                    ("ACTION_REFERENCE_OLD_TABLE", Ty::Str(64)),
                    ("ACTION_REFERENCE_NEW_TABLE", Ty::Str(64)),
                    ("ACTION_REFERENCE_OLD_ROW", Ty::Str(3)),
                    ("ACTION_REFERENCE_NEW_ROW", Ty::Str(3)),
                    ("CREATED", Ty::DateTime),
                    ("SQL_MODE", Ty::Str(520)),
                    ("DEFINER", Ty::Str(288)),
                    ("CHARACTER_SET_CLIENT", Ty::Str(64)),
                    ("COLLATION_CONNECTION", Ty::Str(64)),
                    ("DATABASE_COLLATION", Ty::Str(64)),
                ],
            ),
            Vec::new(),
        ),
        "EVENTS" => (
            def(
                db,
                name,
                &[
                    ("EVENT_CATALOG", Ty::Str(64)),
                    ("EVENT_SCHEMA", Ty::Str(64)),
                    ("EVENT_NAME", Ty::Str(64)),
                    ("DEFINER", Ty::Str(288)),
                    ("TIME_ZONE", Ty::Str(64)),
                    ("EVENT_BODY", Ty::Str(3)),
                    ("EVENT_DEFINITION", Ty::Text),
                    ("EVENT_TYPE", Ty::Str(9)),
                    ("EXECUTE_AT", Ty::DateTime),
                    ("INTERVAL_VALUE", Ty::Str(256)),
                    ("INTERVAL_FIELD", Ty::Str(18)),
                    ("SQL_MODE", Ty::Str(520)),
                    ("STARTS", Ty::DateTime),
                    ("ENDS", Ty::DateTime),
                    ("STATUS", Ty::Str(18)),
                    ("ON_COMPLETION", Ty::Str(12)),
                    ("CREATED", Ty::DateTime),
                    ("LAST_ALTERED", Ty::DateTime),
                    ("LAST_EXECUTED", Ty::DateTime),
                    ("EVENT_COMMENT", Ty::Str(2048)),
                    ("ORIGINATOR", Ty::UInt),
                    ("CHARACTER_SET_CLIENT", Ty::Str(64)),
                    ("COLLATION_CONNECTION", Ty::Str(64)),
                    ("DATABASE_COLLATION", Ty::Str(64)),
                ],
            ),
            Vec::new(),
        ),
        _ => return None,
    })
}

/// Every session as the `threads` and statements tables see it, by id.
fn sessions(ctx: &Ctx) -> Vec<(Arc<crate::server::SessionShared>, history::ThreadView)> {
    let mut all: Vec<_> = ctx.server.sessions.lock().values().cloned().collect();
    all.sort_by_key(|s| s.id);
    let now_ns = crate::observe::now_ns();
    all.into_iter()
        .map(|s| {
            let a = s.activity.lock().clone();
            let since = a.since.elapsed();
            let view = history::ThreadView {
                id: u64::from(s.id),
                user: s.user.lock().clone(),
                host: s.host.clone(),
                db: s.db.lock().clone(),
                command: a.command,
                time_s: since.as_secs(),
                state: a.state,
                info: a.info,
                running_since_ns: (a.command != "Sleep").then(|| now_ns - since.as_nanos() as i64),
            };
            (s, view)
        })
        .collect()
}

fn threads(ctx: &Ctx) -> Vec<Row> {
    sessions(ctx)
        .iter()
        .map(|(_, v)| history::thread_row(v))
        .collect()
}

/// events_statements_history (each session's last statements) or _current (each
/// session's running statement, or its last one when idle).
fn statements(ctx: &Ctx, current: bool) -> Vec<Row> {
    if current && !ctx.server.digests.setup.current_on() {
        return Vec::new();
    }
    let start = ctx.server.digests.started_ns;
    let mut out = Vec::new();
    for (s, v) in sessions(ctx) {
        let h = s.history.lock();
        let id = u64::from(s.id);
        if !current {
            out.extend(
                h.events()
                    .into_iter()
                    .map(|e| history::statement_row(id, e, false, start)),
            );
            continue;
        }
        match (v.running_since_ns, &v.info) {
            (Some(since), Some(info)) => {
                let e = history::StmtEvent {
                    event_id: h.last().map_or(0, |l| l.event_id) + 1,
                    start_ns: since,
                    sql_text: info.to_string(),
                    schema: v.db.clone(),
                    ..history::StmtEvent::default()
                };
                out.push(history::statement_row(id, &e, true, start));
            }
            _ => {
                if let Some(e) = h.last() {
                    out.push(history::statement_row(id, e, false, start));
                }
            }
        }
    }
    out
}

fn schemata(ctx: &Ctx) -> Vec<Vec<Value>> {
    let catalog = &ctx.server.storage.catalog;
    catalog
        .database_names()
        .into_iter()
        .map(|d| {
            let (cs, coll) = catalog
                .database(&d)
                .map(|x| (x.charset.name(), x.collation.name()))
                .unwrap_or(("utf8mb4", Collation::DEFAULT.name()));
            vec![s("def"), s(&d), s(cs), s(coll), Value::Null, s("NO")]
        })
        .collect()
}

/// Every table of every database, with its database's name.
fn all_tables(ctx: &Ctx) -> Vec<(String, Arc<crate::storage::table::Table>)> {
    let catalog = &ctx.server.storage.catalog;
    let mut out = Vec::new();
    for d in catalog.database_names() {
        if let Some(db) = catalog.database(&d) {
            let mut ts: Vec<_> = db.tables.read().values().cloned().collect();
            ts.sort_by(|a, b| a.name().cmp(b.name()));
            out.extend(ts.into_iter().map(|t| (d.clone(), t)));
        }
    }
    out
}

/// Every view of every database, by database and name.
fn all_views(ctx: &Ctx) -> Vec<Arc<crate::storage::schema::ViewDef>> {
    let catalog = &ctx.server.storage.catalog;
    let mut out = Vec::new();
    for d in catalog.database_names() {
        if let Some(db) = catalog.database(&d) {
            out.extend(db.views.read().values().cloned());
        }
    }
    out
}

fn views(ctx: &Ctx) -> Vec<Vec<Value>> {
    all_views(ctx)
        .into_iter()
        .map(|v| {
            let updatable = super::view::is_updatable(&ctx.server.storage, &v);
            vec![
                s("def"),
                s(&v.db),
                s(&v.name),
                s(&v.select),
                s(v.check.name()),
                s(if updatable { "YES" } else { "NO" }),
                s(&v.definer.replace('`', "")),
                s(&v.security),
                s("utf8mb4"),
                s("utf8mb4_0900_ai_ci"),
            ]
        })
        .collect()
}

fn tables(ctx: &Ctx) -> Vec<Vec<Value>> {
    let mut out: Vec<Vec<Value>> = all_tables(ctx)
        .into_iter()
        .map(|(d, t)| {
            let mut r = vec![s("def"), s(&d), s(t.name()), s("BASE TABLE")];
            r.extend(super::show::table_status(&t));
            r
        })
        .collect();
    // Views: no engine, no sizes, the comment VIEW (as MySQL).
    for v in all_views(ctx) {
        let mut r = vec![s("def"), s(&v.db), s(&v.name), s("VIEW")];
        r.extend(std::iter::repeat_n(Value::Null, 16));
        r.push(s("VIEW"));
        out.push(r);
    }
    // The log tables, as the CSV tables MySQL keeps them in.
    for t in crate::observe::logtable::LogTable::ALL {
        let mut r = vec![s("def"), s("mysql"), s(t.name()), s("BASE TABLE"), s("CSV")];
        r.push(Value::Int(10));
        r.push(s("Dynamic"));
        r.extend(std::iter::repeat_n(Value::Null, 11));
        r.push(s(""));
        r.push(s(if t == crate::observe::logtable::LogTable::Slow {
            "Slow log"
        } else {
            "General log"
        }));
        out.push(r);
    }
    // The computed tables, with what MySQL shows for its own: no sizes, and an engine
    // only for performance_schema's.
    for d in ["information_schema", "performance_schema", "sys"] {
        let Some((names, kind)) = table_names(d) else {
            continue;
        };
        let ps = d == "performance_schema";
        for n in names {
            let mut r = vec![s("def"), s(d), s(n), s(kind)];
            r.push(if ps {
                s("PERFORMANCE_SCHEMA")
            } else {
                Value::Null
            });
            r.push(if kind == "VIEW" {
                Value::Null
            } else {
                Value::Int(10)
            });
            r.push(if ps { s("Dynamic") } else { Value::Null });
            r.extend(std::iter::repeat_n(Value::Null, 11));
            r.push(s(""));
            r.push(s(if kind == "VIEW" { "VIEW" } else { "" }));
            out.push(r);
        }
    }
    out
}

/// DATA_TYPE: the type's name without its length or attributes, lower case.
fn data_type(ty: &SqlType) -> String {
    let name = ty.sql_name();
    let end = name.find(['(', ' ']).unwrap_or(name.len());
    name[..end].to_ascii_lowercase()
}

fn columns(ctx: &Ctx) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    for (d, t) in all_tables(ctx) {
        let def = &t.def;
        for (i, c) in def.columns.iter().enumerate() {
            let ty = &c.ty;
            let (chars, octets) = match ty {
                SqlType::Char { len, collation } | SqlType::VarChar { len, collation } => (
                    Some(i64::from(*len)),
                    Some(i64::from(*len) * i64::from(collation.charset().max_len())),
                ),
                SqlType::Binary { len } | SqlType::VarBinary { len } => {
                    (Some(i64::from(*len)), Some(i64::from(*len)))
                }
                SqlType::Text { size, .. } | SqlType::Blob { size } => {
                    let n = size.max_bytes() as i64;
                    (Some(n), Some(n))
                }
                SqlType::Json => (None, None),
                _ => (None, None),
            };
            let (precision, scale) = match ty {
                SqlType::Int {
                    width, unsigned, ..
                } => {
                    use crate::sql::types::IntWidth as W;
                    let p = match width {
                        W::Tiny => 3,
                        W::Small => 5,
                        W::Medium => 7,
                        W::Int => 10,
                        W::Big => 19 + u64::from(*unsigned),
                    };
                    (Some(p), Some(0))
                }
                SqlType::Bool => (Some(3), Some(0)),
                SqlType::Decimal {
                    precision, scale, ..
                } => (Some(u64::from(*precision)), Some(u64::from(*scale))),
                SqlType::Float { .. } => (Some(12), None),
                SqlType::Double { .. } => (Some(22), None),
                SqlType::Bit { len } => (Some(u64::from(*len)), None),
                _ => (None, None),
            };
            let dt_precision = match ty {
                SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } | SqlType::Time { fsp } => {
                    Some(u64::from(*fsp))
                }
                SqlType::Date => Some(0),
                _ => None,
            };
            let (cs, coll) = if ty.is_string() && !ty.collation().is_binary() {
                (s(ty.collation().charset().name()), s(ty.collation().name()))
            } else {
                (Value::Null, Value::Null)
            };
            out.push(vec![
                s("def"),
                s(&d),
                s(&def.name),
                s(&c.name),
                Value::UInt(i as u64 + 1),
                super::show::default_text_value(&c.default, ty),
                s(if c.nullable { "YES" } else { "NO" }),
                Value::from_string(data_type(ty)),
                opt(chars.map(Value::Int)),
                opt(octets.map(Value::Int)),
                opt(precision.map(Value::UInt)),
                opt(scale.map(Value::UInt)),
                opt(dt_precision.map(Value::UInt)),
                cs,
                coll,
                Value::from_string(ty.sql_name()),
                s(super::show::key_of(def, i)),
                Value::from_string(super::show::extra_of(c)),
                s("select,insert,update,references"),
                s(&c.comment),
                s(""),
                Value::Null,
            ]);
        }
    }
    out
}

fn statistics(ctx: &Ctx) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    for (d, t) in all_tables(ctx) {
        for r in super::show::index_rows(&t) {
            // SHOW INDEX's row with the catalog and schemas added.
            let mut r = r.into_iter();
            let mut row = vec![s("def"), s(&d)];
            row.extend(r.by_ref().take(2)); // TABLE_NAME, NON_UNIQUE
            row.push(s(&d)); // INDEX_SCHEMA
            row.extend(r);
            // information_schema's types: SEQ_IN_INDEX unsigned, CARDINALITY signed.
            for (i, unsigned) in [(6, true), (9, false)] {
                if let Some(v) = row.get_mut(i) {
                    *v = match *v {
                        Value::Int(n) if unsigned => Value::UInt(n as u64),
                        Value::UInt(n) if !unsigned => Value::Int(n as i64),
                        ref other => other.clone(),
                    };
                }
            }
            out.push(row);
        }
    }
    out
}

/// Each column of each PRIMARY KEY and UNIQUE index (constraints, in MySQL's terms).
fn key_column_usage(ctx: &Ctx) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    for (d, t) in all_tables(ctx) {
        let def = &t.def;
        for idx in def.all_indexes().filter(|i| i.is_unique()) {
            for (i, ic) in idx.columns.iter().enumerate() {
                let Some(c) = def.columns.get(ic.col) else {
                    continue;
                };
                out.push(vec![
                    s("def"),
                    s(&d),
                    s(&idx.name),
                    s("def"),
                    s(&d),
                    s(&def.name),
                    s(&c.name),
                    Value::UInt(i as u64 + 1),
                    Value::Null,
                    Value::Null,
                    Value::Null,
                    Value::Null,
                ]);
            }
        }
        for fk in &def.foreign_keys {
            for (i, (c, p)) in fk.columns.iter().zip(&fk.parent_columns).enumerate() {
                out.push(vec![
                    s("def"),
                    s(&d),
                    s(&fk.name),
                    s("def"),
                    s(&d),
                    s(&def.name),
                    s(c),
                    Value::UInt(i as u64 + 1),
                    Value::UInt(i as u64 + 1),
                    s(&fk.parent_db),
                    s(&fk.parent_table),
                    s(p),
                ]);
            }
        }
    }
    out
}

/// One row per foreign key. UNIQUE_CONSTRAINT_NAME is the parent index the key uses (NULL
/// when the parent is missing, possible with `foreign_key_checks=0`).
fn referential_constraints(ctx: &Ctx) -> Vec<Vec<Value>> {
    let catalog = &ctx.server.storage.catalog;
    let mut out = Vec::new();
    for (d, t) in all_tables(ctx) {
        for fk in &t.def.foreign_keys {
            let parent_index = catalog
                .table(&fk.parent_db, &fk.parent_table)
                .and_then(|p| {
                    let cols = p.def.column_positions(&fk.parent_columns)?;
                    p.def.index_with_prefix(&cols).map(|i| i.name.clone())
                });
            out.push(vec![
                s("def"),
                s(&d),
                s(&fk.name),
                s("def"),
                s(&fk.parent_db),
                parent_index.as_deref().map(s).unwrap_or(Value::Null),
                s("NONE"),
                s(fk.on_update.sql()),
                s(fk.on_delete.sql()),
                s(t.name()),
                s(&fk.parent_table),
            ]);
        }
    }
    out
}

fn table_constraints(ctx: &Ctx) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    for (d, t) in all_tables(ctx) {
        for idx in t.def.all_indexes() {
            let kind = match idx.kind {
                IndexKind::Primary => "PRIMARY KEY",
                IndexKind::Unique => "UNIQUE",
                IndexKind::Index => continue,
            };
            out.push(vec![
                s("def"),
                s(&d),
                s(&idx.name),
                s(&d),
                s(t.name()),
                s(kind),
                s("YES"),
            ]);
        }
        for fk in &t.def.foreign_keys {
            out.push(vec![
                s("def"),
                s(&d),
                s(&fk.name),
                s(&d),
                s(t.name()),
                s("FOREIGN KEY"),
                s("YES"),
            ]);
        }
    }
    out
}

/// One row per table, its partition columns NULL (Quire does not partition), as MySQL
/// shows an unpartitioned table.
fn partitions(ctx: &Ctx) -> Vec<Vec<Value>> {
    all_tables(ctx)
        .into_iter()
        .map(|(d, t)| {
            let status = super::show::table_status(&t);
            // SHOW TABLE STATUS: Engine, Version, Row_format, Rows, Avg_row_length,
            // Data_length, Max_data_length, Index_length, Data_free, Auto_increment,
            // Create_time, Update_time, Check_time, Collation, Checksum, …
            let at = |i: usize| status.get(i).cloned().unwrap_or(Value::Null);
            let mut r = vec![s("def"), s(&d), s(t.name())];
            r.extend(std::iter::repeat_n(Value::Null, 9));
            r.extend((3..9).map(at));
            r.extend((10..13).map(at));
            r.push(at(14));
            r.push(s(""));
            r.push(Value::Null);
            r.push(Value::Null);
            r
        })
        .collect()
}

fn profiling(ctx: &Ctx) -> Vec<Vec<Value>> {
    let mut out = Vec::new();
    for p in &ctx.profiler.history {
        for (seq, (mark, us, used)) in p.stage_micros().enumerate() {
            let file = mark.source.file();
            out.push(vec![
                Value::UInt(p.id),
                // MySQL numbers from 2 (its first entry, before `starting`, is not shown).
                Value::Int(seq as i64 + 2),
                s(mark.stage.name()),
                super::show::seconds(us * 1000, 6),
                super::show::seconds(used.user_us * 1000, 6),
                super::show::seconds(used.system_us * 1000, 6),
                Value::Int(used.voluntary),
                Value::Int(used.involuntary),
                Value::Int(used.block_in),
                Value::Int(used.block_out),
                Value::Int(used.msg_sent),
                Value::Int(used.msg_received),
                Value::Int(used.faults_major),
                Value::Int(used.faults_minor),
                Value::Int(used.swaps),
                s("<unknown>"),
                s(file.rsplit('/').next().unwrap_or(file)),
                Value::UInt(u64::from(mark.source.line())),
            ]);
        }
    }
    out
}

/// Is `upd` an UPDATE of `setup_consumers` or `setup_instruments`? `Some(true)`: the
/// instruments.
pub fn setup_target(upd: &ast::Update, db: Option<&str>) -> Option<bool> {
    let ast::TableFactor::Table { name, .. } = &upd.table.relation else {
        return None;
    };
    let (schema, table) = super::planner::object_name(name).ok()?;
    let schema = schema.as_deref().or(db)?;
    if !schema.eq_ignore_ascii_case("performance_schema") || !upd.table.joins.is_empty() {
        return None;
    }
    if table.eq_ignore_ascii_case(SETUP_CONSUMERS) {
        Some(false)
    } else if table.eq_ignore_ascii_case(SETUP_INSTRUMENTS) {
        Some(true)
    } else {
        None
    }
}

/// `UPDATE performance_schema.setup_consumers|setup_instruments SET ENABLED = … [WHERE …]
/// [ORDER BY …] [LIMIT …]`: the rows and new values are found by running the same clauses
/// as a SELECT of the table, so any expression works; then each switch is set. `TIMED`
/// may be set to `YES` only (Quire's statements are always timed); other columns are
/// MySQL's 1683.
pub fn update_setup(ctx: &mut Ctx, upd: &ast::Update, instruments: bool) -> Result<Outcome> {
    let table = if instruments {
        SETUP_INSTRUMENTS
    } else {
        SETUP_CONSUMERS
    };
    let perfschema_usage = || {
        MyError::new(
            code::ER_WRONG_PERFSCHEMA_USAGE,
            "Invalid performance_schema usage.",
        )
    };
    let mut enabled = None;
    let mut timed = Vec::new();
    for a in &upd.assignments {
        let ast::AssignmentTarget::ColumnName(n) = &a.target else {
            return Err(perfschema_usage());
        };
        let (_, col) = super::planner::object_name(n)?;
        if col.eq_ignore_ascii_case("ENABLED") {
            enabled = Some(&a.value);
        } else if instruments && col.eq_ignore_ascii_case("TIMED") {
            timed.push(&a.value);
        } else {
            return Err(perfschema_usage());
        }
    }
    let mut sql = format!(
        "SELECT NAME, {}",
        enabled.map_or("NULL".to_string(), |e| e.to_string())
    );
    for t in &timed {
        sql.push_str(&format!(", {t}"));
    }
    sql.push_str(&format!(" FROM performance_schema.{table}"));
    if let Some(w) = &upd.selection {
        sql.push_str(&format!(" WHERE {w}"));
    }
    if !upd.order_by.is_empty() {
        let keys: Vec<String> = upd.order_by.iter().map(|o| o.to_string()).collect();
        sql.push_str(&format!(" ORDER BY {}", keys.join(", ")));
    }
    if let Some(l) = &upd.limit {
        sql.push_str(&format!(" LIMIT {l}"));
    }
    let prep = ctx.plan_text(&sql, &[], crate::sql::lexer::StatementKind::Select)?;
    let crate::sql::Planned::Select(plan) = &prep.planned else {
        return Err(MyError::internal("setup update: not a select"));
    };
    let mut sink = VecSink::default();
    {
        let mut cx = super::utility::exec_cx(ctx);
        match super::exec::run_select(plan, &mut cx, &mut sink) {
            Ok(_) => {}
            Err(ExecError::Sql(e)) => return Err(e),
            Err(ExecError::Wait(_)) => return Err(MyError::internal("setup update waited")),
        }
    }
    // Check every value before switching anything, as one statement.
    let mut changes = Vec::new();
    for (i, row) in sink.rows.iter().enumerate() {
        let name = row
            .first()
            .map(super::convert::to_string_lossy)
            .unwrap_or_default();
        let on = match row.get(1) {
            Some(v) if enabled.is_some() => Some(yes_no_value(v, "ENABLED", i + 1)?),
            _ => None,
        };
        for v in row.iter().skip(2) {
            if !yes_no_value(v, "TIMED", i + 1)? {
                return Err(MyError::not_supported("untimed instruments (TIMED='NO')"));
            }
        }
        changes.push((name, on));
    }
    let setup = &ctx.server.digests.setup;
    let matched = changes.len() as u64;
    let mut changed = 0u64;
    for (name, on) in changes {
        if let Some(on) = on
            && setup.set(instruments, &name, on)
        {
            changed += 1;
        }
    }
    Ok(Outcome::Ok {
        affected: changed,
        last_insert_id: 0,
        info: Some(super::dml::update_info(matched, changed, 0)),
    })
}

/// An `ENUM('YES','NO')` column's new value: the name or its index (1, 2), as MySQL takes
/// them; anything else is 1265 (strict, as `UPDATE` of these tables always is).
fn yes_no_value(v: &Value, column: &str, row: usize) -> Result<bool> {
    let t = super::convert::to_string_lossy(v);
    if t.eq_ignore_ascii_case("YES") || t == "1" {
        Ok(true)
    } else if t.eq_ignore_ascii_case("NO") || t == "2" {
        Ok(false)
    } else {
        Err(MyError::new(
            code::WARN_DATA_TRUNCATED,
            format!("Data truncated for column '{column}' at row {row}"),
        ))
    }
}

/// `sys.statement_analysis`, `sys.statements_with_full_table_scans` and their `x$` forms
/// (raw picoseconds), built from the digest summary as MySQL's sys views compute them:
/// statements cut to 64 characters by `sys.format_statement`, latencies by
/// `FORMAT_PICO_TIME`, averages rounded. Rows come in the views' order (total latency,
/// descending; the full-scan view by the share of executions without an index first).
fn sys_view(ctx: &Ctx, name: &str) -> Option<(TableDef, Vec<Row>)> {
    let lower = name.to_ascii_lowercase();
    let (raw, view) = match lower.strip_prefix("x$") {
        Some(v) => (true, v),
        None => (false, lower.as_str()),
    };
    let analysis = match view {
        "statement_analysis" => true,
        "statements_with_full_table_scans" => false,
        _ => return None,
    };
    let def_cols = digest::summary_def();
    let at = |col: &str| def_cols.column_index(col);
    let mut summary = ctx.server.digests.table_rows(0);
    let num = |r: &Row, col: &str| match at(col).and_then(|i| r.get(i)) {
        Some(Value::UInt(u)) => *u,
        _ => 0,
    };
    let val = |r: &Row, col: &str| {
        at(col)
            .and_then(|i| r.get(i))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let avg = |sum: u64, n: u64| {
        Value::UInt(if n == 0 {
            0
        } else {
            (sum as f64 / n as f64).round() as u64
        })
    };
    let latency = |ps: u64| {
        if raw {
            Value::UInt(ps)
        } else {
            Value::from_string(super::builtins::misc::format_pico_time(ps as f64))
        }
    };
    let query = |r: &Row| {
        let t = val(r, "DIGEST_TEXT");
        if raw {
            return t;
        }
        match t {
            Value::Null => Value::Null,
            t => Value::from_string(format_statement(&super::convert::to_string_lossy(&t))),
        }
    };
    let lat_ty = if raw { Ty::UInt } else { Ty::Str(11) };
    let rows: Vec<Row>;
    let cols: Vec<(&str, Ty)>;
    if analysis {
        summary.sort_by_key(|r| std::cmp::Reverse(num(r, "SUM_TIMER_WAIT")));
        cols = vec![
            ("query", Ty::Text),
            ("db", Ty::Str(64)),
            ("full_scan", Ty::Str(1)),
            ("exec_count", Ty::UInt),
            ("err_count", Ty::UInt),
            ("warn_count", Ty::UInt),
            ("total_latency", lat_ty),
            ("max_latency", lat_ty),
            ("avg_latency", lat_ty),
            ("lock_latency", lat_ty),
            ("cpu_latency", lat_ty),
            ("rows_sent", Ty::UInt),
            ("rows_sent_avg", Ty::UInt),
            ("rows_examined", Ty::UInt),
            ("rows_examined_avg", Ty::UInt),
            ("rows_affected", Ty::UInt),
            ("rows_affected_avg", Ty::UInt),
            ("tmp_tables", Ty::UInt),
            ("tmp_disk_tables", Ty::UInt),
            ("rows_sorted", Ty::UInt),
            ("sort_merge_passes", Ty::UInt),
            ("digest", Ty::Str(64)),
            ("first_seen", Ty::DateTime),
            ("last_seen", Ty::DateTime),
        ];
        rows = summary
            .iter()
            .map(|r| {
                let n = num(r, "COUNT_STAR");
                let full = num(r, "SUM_NO_GOOD_INDEX_USED") > 0 || num(r, "SUM_NO_INDEX_USED") > 0;
                Row::from(vec![
                    query(r),
                    val(r, "SCHEMA_NAME"),
                    s(if full { "*" } else { "" }),
                    Value::UInt(n),
                    val(r, "SUM_ERRORS"),
                    val(r, "SUM_WARNINGS"),
                    latency(num(r, "SUM_TIMER_WAIT")),
                    latency(num(r, "MAX_TIMER_WAIT")),
                    latency(num(r, "AVG_TIMER_WAIT")),
                    latency(num(r, "SUM_LOCK_TIME")),
                    latency(num(r, "SUM_CPU_TIME")),
                    val(r, "SUM_ROWS_SENT"),
                    avg(num(r, "SUM_ROWS_SENT"), n),
                    val(r, "SUM_ROWS_EXAMINED"),
                    avg(num(r, "SUM_ROWS_EXAMINED"), n),
                    val(r, "SUM_ROWS_AFFECTED"),
                    avg(num(r, "SUM_ROWS_AFFECTED"), n),
                    val(r, "SUM_CREATED_TMP_TABLES"),
                    val(r, "SUM_CREATED_TMP_DISK_TABLES"),
                    val(r, "SUM_SORT_ROWS"),
                    val(r, "SUM_SORT_MERGE_PASSES"),
                    val(r, "DIGEST"),
                    val(r, "FIRST_SEEN"),
                    val(r, "LAST_SEEN"),
                ])
            })
            .collect();
    } else {
        let pct = |r: &Row| {
            let n = num(r, "COUNT_STAR");
            if n == 0 {
                0
            } else {
                (num(r, "SUM_NO_INDEX_USED") as f64 * 100.0 / n as f64).round() as u64
            }
        };
        summary.retain(|r| {
            (num(r, "SUM_NO_INDEX_USED") > 0 || num(r, "SUM_NO_GOOD_INDEX_USED") > 0)
                && !super::convert::to_string_lossy(&val(r, "DIGEST_TEXT"))
                    .get(..4)
                    .is_some_and(|p| p.eq_ignore_ascii_case("SHOW"))
        });
        summary.sort_by_key(|r| std::cmp::Reverse((pct(r), num(r, "SUM_TIMER_WAIT"))));
        cols = vec![
            ("query", Ty::Text),
            ("db", Ty::Str(64)),
            ("exec_count", Ty::UInt),
            ("total_latency", lat_ty),
            ("no_index_used_count", Ty::UInt),
            ("no_good_index_used_count", Ty::UInt),
            ("no_index_used_pct", Ty::UInt),
            ("rows_sent", Ty::UInt),
            ("rows_examined", Ty::UInt),
            ("rows_sent_avg", Ty::UInt),
            ("rows_examined_avg", Ty::UInt),
            ("first_seen", Ty::DateTime),
            ("last_seen", Ty::DateTime),
            ("digest", Ty::Str(64)),
        ];
        rows = summary
            .iter()
            .map(|r| {
                let n = num(r, "COUNT_STAR");
                Row::from(vec![
                    query(r),
                    val(r, "SCHEMA_NAME"),
                    Value::UInt(n),
                    latency(num(r, "SUM_TIMER_WAIT")),
                    val(r, "SUM_NO_INDEX_USED"),
                    val(r, "SUM_NO_GOOD_INDEX_USED"),
                    Value::UInt(pct(r)),
                    val(r, "SUM_ROWS_SENT"),
                    val(r, "SUM_ROWS_EXAMINED"),
                    avg(num(r, "SUM_ROWS_SENT"), n),
                    avg(num(r, "SUM_ROWS_EXAMINED"), n),
                    val(r, "FIRST_SEEN"),
                    val(r, "LAST_SEEN"),
                    val(r, "DIGEST"),
                ])
            })
            .collect();
    }
    let mut d = def("sys", name, &cols);
    d.name = lower.clone();
    d.engine = String::new();
    Some((d, rows))
}

/// `sys.format_statement` with the default `statement_truncate_len` (64): longer texts
/// keep their first and last 30 characters around ` ... `; newlines become spaces.
fn format_statement(text: &str) -> String {
    const LEN: usize = 64;
    const KEEP: usize = LEN / 2 - 2;
    let chars: Vec<char> = text.chars().collect();
    let out: String = if chars.len() > LEN {
        let head: String = chars[..KEEP].iter().collect();
        let tail: String = chars[chars.len() - KEEP..].iter().collect();
        format!("{head} ... {tail}")
    } else {
        text.to_string()
    };
    out.replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_are_cut_to_64_characters() {
        let long = format!("SELECT {} FROM t", "a , ".repeat(30));
        let f = format_statement(&long);
        assert_eq!(f.chars().count(), 30 + 5 + 30);
        assert!(f.starts_with("SELECT a , ") && f.ends_with(" FROM t") && f.contains(" ... "));
        assert_eq!(format_statement("SELECT ?\nFROM t"), "SELECT ? FROM t");
    }
}
