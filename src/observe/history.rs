//! `performance_schema.events_statements_history`, `events_statements_current` and
//! `threads`: each session's last statements, and what each session is doing.
//!
//! Every statement that ends is written into its session's ring of the last
//! `performance_schema_events_statements_history_size` (default 10) statements: one more
//! view of the statement record, like the digests and the logs. The ring lives with what
//! other sessions may read of a session (`SessionShared`), behind a lock only a reader of
//! these tables ever contends for; its slots keep their text buffers, so after the first
//! lap a statement copies its text (at most `performance_schema_max_sql_text_length`
//! bytes) without allocating.
//!
//! `events_statements_current` shows, per session, the statement running now (no end time
//! yet) or, for an idle session, its last statement, as MySQL does. Timers are in
//! picoseconds since the server started. `THREAD_ID` is the connection id (MySQL numbers
//! its background threads first, so its thread ids are higher; `threads` maps one to the
//! other in both). `EVENT_ID` counts a session's statements from 1. Counters of mechanisms
//! Quire does not have, or does not measure yet, are 0, as in the digest table.

use crate::sql::lexer::StatementKind;
use crate::sql::types::{BlobSize, Charset, Collation, SqlType};
use crate::sql::value::{Row, Value};
use crate::storage::schema::{ColumnDef, TableDef};
use std::sync::Arc;

/// One ended statement.
#[derive(Clone, Default)]
pub struct StmtEvent {
    pub event_id: u64,
    /// Unix nanoseconds.
    pub start_ns: i64,
    pub end_ns: i64,
    pub lock_ps: u64,
    pub kind: StatementKind,
    pub sql_text: String,
    pub digest: Option<super::digest::DigestRef>,
    pub schema: Option<String>,
    pub errno: u16,
    pub message: String,
    pub errors: u64,
    pub warnings: u64,
    pub rows_affected: u64,
    pub rows_sent: u64,
    pub rows_examined: u64,
    pub no_index_used: bool,
}

/// A session's history behind its lock: a spin lock, whose release is a plain store (a
/// session takes it once a statement; only a reader of the tables ever waits on it).
pub type Locked = spin::mutex::SpinMutex<History, spin::relax::Yield>;

/// A session's last statements.
#[derive(Default)]
pub struct History {
    ring: Vec<StmtEvent>,
    /// Statements ended so far (the next one's slot is `ended % size`).
    ended: u64,
}

impl History {
    /// The slot for the next ended statement (its fields are the caller's to set, its text
    /// buffer kept), with the ring sized to `size`.
    pub fn next_slot(&mut self, size: usize) -> Option<&mut StmtEvent> {
        if size == 0 {
            return None;
        }
        if self.ring.len() < size {
            self.ring.resize_with(size, StmtEvent::default);
        } else {
            self.ring.truncate(size);
        }
        let i = (self.ended % size as u64) as usize;
        self.ended += 1;
        let slot = self.ring.get_mut(i)?;
        slot.event_id = self.ended;
        Some(slot)
    }

    /// Where the next ended statement will be written (slot and text buffer) and what it
    /// reads there (the slot's schema, compared with the session's), for
    /// [`super::prefetch`] at the next statement's start; None until the ring is
    /// `size` long.
    pub fn next_hint(&self, size: usize) -> Option<[(usize, usize); 3]> {
        if self.ring.len() != size || size == 0 {
            return None;
        }
        let slot = self.ring.get((self.ended % size as u64) as usize)?;
        let schema = slot.schema.as_deref().unwrap_or_default();
        Some([
            (std::ptr::from_ref(slot) as usize, size_of::<StmtEvent>()),
            (slot.sql_text.as_ptr() as usize, slot.sql_text.len()),
            (schema.as_ptr() as usize, schema.len()),
        ])
    }

    /// The kept statements, oldest first.
    pub fn events(&self) -> Vec<&StmtEvent> {
        let mut v: Vec<&StmtEvent> = self.ring.iter().filter(|e| e.event_id > 0).collect();
        v.sort_by_key(|e| e.event_id);
        v
    }

    /// The last statement, if any.
    pub fn last(&self) -> Option<&StmtEvent> {
        self.ring.iter().max_by_key(|e| e.event_id)
    }
}

/// A session as the `threads` and current tables see it.
pub struct ThreadView {
    pub id: u64,
    pub user: String,
    pub host: String,
    pub db: Option<String>,
    pub command: &'static str,
    pub time_s: u64,
    pub state: &'static str,
    pub info: Option<Arc<str>>,
    /// When its current statement started (Unix ns), if it runs one.
    pub running_since_ns: Option<i64>,
}

pub const HISTORY: &str = "events_statements_history";
pub const CURRENT: &str = "events_statements_current";
pub const THREADS: &str = "threads";

/// A performance_schema table of `columns`.
pub fn ps_table(name: &str, columns: Vec<ColumnDef>) -> TableDef {
    TableDef {
        db: "performance_schema".to_string(),
        name: name.to_string(),
        columns,
        primary: None,
        indexes: Vec::new(),
        engine: "PERFORMANCE_SCHEMA".to_string(),
        charset: Charset::Utf8mb4,
        collation: Collation::Utf8mb4GeneralCi,
        comment: String::new(),
        auto_increment_start: 1,
        foreign_keys: Vec::new(),
    }
}

fn def(name: &str, cols: Vec<(&str, SqlType)>) -> TableDef {
    let columns = cols
        .into_iter()
        .map(|(n, ty)| ColumnDef::plain(n, ty, true))
        .collect();
    ps_table(name, columns)
}

fn vc(len: u32) -> SqlType {
    SqlType::VarChar {
        len,
        collation: Collation::Utf8mb4GeneralCi,
    }
}

fn longtext() -> SqlType {
    SqlType::Text {
        size: BlobSize::Long,
        collation: Collation::Utf8mb4GeneralCi,
    }
}

/// MySQL 8.0's columns of events_statements_current/_history.
pub fn statements_def(name: &str) -> TableDef {
    let big = SqlType::BIGINT_UNSIGNED;
    let mut cols = vec![
        ("THREAD_ID", big.clone()),
        ("EVENT_ID", big.clone()),
        ("END_EVENT_ID", big.clone()),
        ("EVENT_NAME", vc(128)),
        ("SOURCE", vc(64)),
        ("TIMER_START", big.clone()),
        ("TIMER_END", big.clone()),
        ("TIMER_WAIT", big.clone()),
        ("LOCK_TIME", big.clone()),
        ("SQL_TEXT", longtext()),
        ("DIGEST", vc(64)),
        ("DIGEST_TEXT", longtext()),
        ("CURRENT_SCHEMA", vc(64)),
        ("OBJECT_TYPE", vc(64)),
        ("OBJECT_SCHEMA", vc(64)),
        ("OBJECT_NAME", vc(64)),
        ("OBJECT_INSTANCE_BEGIN", big.clone()),
        ("MYSQL_ERRNO", SqlType::INT),
        ("RETURNED_SQLSTATE", vc(5)),
        ("MESSAGE_TEXT", vc(128)),
    ];
    for n in [
        "ERRORS",
        "WARNINGS",
        "ROWS_AFFECTED",
        "ROWS_SENT",
        "ROWS_EXAMINED",
        "CREATED_TMP_DISK_TABLES",
        "CREATED_TMP_TABLES",
        "SELECT_FULL_JOIN",
        "SELECT_FULL_RANGE_JOIN",
        "SELECT_RANGE",
        "SELECT_RANGE_CHECK",
        "SELECT_SCAN",
        "SORT_MERGE_PASSES",
        "SORT_RANGE",
        "SORT_ROWS",
        "SORT_SCAN",
        "NO_INDEX_USED",
        "NO_GOOD_INDEX_USED",
    ] {
        cols.push((n, big.clone()));
    }
    cols.extend([
        ("NESTING_EVENT_ID", big.clone()),
        ("NESTING_EVENT_TYPE", vc(11)),
        ("NESTING_EVENT_LEVEL", SqlType::INT),
        ("STATEMENT_ID", big.clone()),
        ("CPU_TIME", big.clone()),
        ("MAX_CONTROLLED_MEMORY", big.clone()),
        ("MAX_TOTAL_MEMORY", big.clone()),
        ("EXECUTION_ENGINE", vc(9)),
    ]);
    def(name, cols)
}

/// One row of the statements tables: `e` ended, or (with `running`) the statement running
/// now with only its start and text known.
pub fn statement_row(thread: u64, e: &StmtEvent, running: bool, server_start_ns: i64) -> Row {
    let ps = |ns: i64| Value::UInt((ns - server_start_ns).max(0) as u64 * 1000);
    let u = Value::UInt;
    let text = |s: &str| Value::bytes(s.as_bytes());
    let class = super::audit::command_class(e.kind);
    let (digest, digest_text) = match e.digest.as_deref().map(|d| (d.hex(), d.text())) {
        Some((Some(h), Some(t))) => (text(h), text(t)),
        _ => (Value::Null, Value::Null),
    };
    let ended = |v: Value| if running { Value::Null } else { v };
    let mut row = vec![
        u(thread),
        u(e.event_id),
        ended(u(e.event_id)),
        text(&format!("statement/sql/{class}")),
        Value::Null,
        ps(e.start_ns),
        ended(ps(e.end_ns)),
        ended(u((e.end_ns - e.start_ns).max(0) as u64 * 1000)),
        u(e.lock_ps),
        text(&e.sql_text),
        ended(digest),
        ended(digest_text),
        e.schema.as_deref().map_or(Value::Null, text),
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Null,
        Value::Int(i64::from(e.errno)),
        if running {
            Value::Null
        } else if e.errno == 0 {
            text("00000")
        } else {
            text(crate::error::sqlstate(e.errno))
        },
        if e.errno == 0 || running {
            Value::Null
        } else {
            text(&e.message)
        },
        u(e.errors),
        u(e.warnings),
        u(e.rows_affected),
        u(e.rows_sent),
        u(e.rows_examined),
    ];
    let scan = u64::from(e.no_index_used);
    // CREATED_TMP_DISK_TABLES … SORT_SCAN, then NO_INDEX_USED, NO_GOOD_INDEX_USED.
    row.extend([0, 0, 0, 0, 0, 0, scan, 0, 0, 0, 0].map(u));
    row.extend([u(scan), u(0)]);
    row.extend([
        Value::Null,
        Value::Null,
        Value::Int(0),
        Value::Null,
        u(0),
        u(0),
        u(0),
        text("PRIMARY"),
    ]);
    Arc::from(row)
}

/// MySQL 8.0's columns of `threads`.
pub fn threads_def() -> TableDef {
    let big = SqlType::BIGINT_UNSIGNED;
    def(
        THREADS,
        vec![
            ("THREAD_ID", big.clone()),
            ("NAME", vc(128)),
            ("TYPE", vc(10)),
            ("PROCESSLIST_ID", big.clone()),
            ("PROCESSLIST_USER", vc(32)),
            ("PROCESSLIST_HOST", vc(255)),
            ("PROCESSLIST_DB", vc(64)),
            ("PROCESSLIST_COMMAND", vc(16)),
            ("PROCESSLIST_TIME", SqlType::BIGINT),
            ("PROCESSLIST_STATE", vc(64)),
            ("PROCESSLIST_INFO", longtext()),
            ("PARENT_THREAD_ID", big.clone()),
            ("ROLE", vc(64)),
            ("INSTRUMENTED", vc(3)),
            ("HISTORY", vc(3)),
            ("CONNECTION_TYPE", vc(16)),
            ("THREAD_OS_ID", big.clone()),
            ("RESOURCE_GROUP", vc(64)),
        ],
    )
}

pub fn thread_row(t: &ThreadView) -> Row {
    let text = |s: &str| Value::bytes(s.as_bytes());
    Arc::from(vec![
        Value::UInt(t.id),
        text("thread/sql/one_connection"),
        text("FOREGROUND"),
        Value::UInt(t.id),
        text(&t.user),
        text(&t.host),
        t.db.as_deref().map_or(Value::Null, text),
        text(t.command),
        Value::Int(t.time_s as i64),
        text(t.state),
        t.info.as_deref().map_or(Value::Null, text),
        Value::Null,
        Value::Null,
        text("YES"),
        text("YES"),
        text(if t.host.is_empty() || t.host == "localhost" {
            "Socket"
        } else {
            "TCP/IP"
        }),
        Value::Null,
        Value::Null,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_names_the_slot_the_next_statement_takes() {
        let mut h = History::default();
        assert!(h.next_hint(3).is_none(), "no hint before the ring exists");
        for i in 0..7 {
            let slot = h.next_slot(3).unwrap();
            slot.sql_text = format!("SELECT {i}");
            slot.schema = Some(format!("db{i}"));
            let [(slot, slot_bytes), (text, _), (schema, schema_bytes)] = h.next_hint(3).unwrap();
            let next = h.next_slot(3).unwrap();
            assert_eq!(slot, std::ptr::from_ref(next) as usize);
            assert_eq!(slot_bytes, size_of::<StmtEvent>());
            assert_eq!(text, next.sql_text.as_ptr() as usize);
            match &next.schema {
                Some(s) => assert_eq!((schema, schema_bytes), (s.as_ptr() as usize, s.len())),
                None => assert_eq!(schema_bytes, 0, "no schema, nothing to fetch"),
            }
        }
        assert!(
            h.next_hint(4).is_none(),
            "a ring being resized gives no hint"
        );
    }

    #[test]
    fn ring_keeps_the_last_n_in_order_and_reuses_its_slots() {
        let mut h = History::default();
        for i in 0..25 {
            let slot = h.next_slot(10).unwrap();
            slot.sql_text.clear();
            slot.sql_text.push_str(&format!("SELECT {i}"));
        }
        let texts: Vec<&str> = h.events().iter().map(|e| e.sql_text.as_str()).collect();
        assert_eq!(
            texts,
            (15..25).map(|i| format!("SELECT {i}")).collect::<Vec<_>>()
        );
        assert_eq!(h.last().unwrap().event_id, 25);
        // Smaller: the ring shrinks; 0 keeps nothing more.
        h.next_slot(3).unwrap().sql_text = "x".into();
        assert!(h.events().len() <= 3);
        assert!(h.next_slot(0).is_none());
    }
}
