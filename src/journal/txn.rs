//! Encoding one transaction's changes as binlog events, in the session that made them.
//!
//! A transaction is `BEGIN` (Query), then for each run of consecutive changes to one table of
//! one kind (insert, update, delete) a Table_map and Write/Update/Delete_rows events of at
//! most [`ROWS_EVENT_MAX`] bytes (the last with STMT_END_F, after which readers forget the
//! table map), then Xid. Changes come from the transaction's write log in execution order, so
//! replaying them reproduces every intermediate state, including a row updated twice.
//!
//! `binlog_row_image=MINIMAL`: an Update's before image holds the primary key columns and its
//! after image only the columns that changed; a Delete's before image holds the primary key.
//! Tables without a primary key always log full before images (a row is found by all of it).

use super::cache::Cache;
use super::events::{QueryContext, RowsKind, TableMap};
use crate::error::Result;
use crate::sql::value::Value;
use crate::storage::table::Table;
use crate::storage::txn::WriteRec;
use std::sync::Arc;

/// Rows events are cut at about this size (MySQL's `binlog_row_event_max_size` default).
pub const ROWS_EVENT_MAX: usize = 8192;

fn kind_of(w: &WriteRec) -> RowsKind {
    match (&w.before, &w.after) {
        (None, _) => RowsKind::Write,
        (Some(_), None) => RowsKind::Delete,
        (Some(_), Some(_)) => RowsKind::Update,
    }
}

fn table_map(t: &Table) -> TableMap<'_> {
    TableMap {
        table_id: t.id,
        db: &t.def.db,
        table: &t.def.name,
        columns: &t.binlog_columns,
    }
}

/// Which columns an image carries (no allocation for up to 64 columns).
type Columns = smallvec::SmallVec<[bool; 64]>;

/// The before image's columns under MINIMAL: the primary key (all columns without one).
fn key_columns(t: &Table) -> Columns {
    use smallvec::smallvec as vec;
    let n = t.binlog_columns.len();
    match &t.def.primary {
        Some(pk) => {
            let mut v = vec![false; n];
            for c in &pk.columns {
                if let Some(x) = v.get_mut(c.col) {
                    *x = true;
                }
            }
            v
        }
        None => vec![true; n],
    }
}

/// Encode `writes` as one transaction into `c`: BEGIN, row events, Xid `xid`. Fails when
/// the cache's bounds are exceeded or its spill file cannot be written.
pub fn encode(
    c: &mut Cache,
    timestamp: u32,
    begin: &QueryContext,
    writes: &[WriteRec],
    xid: u64,
    minimal: bool,
) -> Result<()> {
    c.buf.query(timestamp, begin, "BEGIN");
    c.event_done()?;
    let mut i = 0;
    while i < writes.len() {
        let table = &writes[i].table;
        if table.temporary {
            // Not journaled: nothing to recover (see `Table::temporary`).
            i += 1;
            continue;
        }
        let kind = kind_of(&writes[i]);
        let mut j = i + 1;
        while j < writes.len()
            && Arc::ptr_eq(&writes[j].table, table)
            && kind_of(&writes[j]) == kind
        {
            j += 1;
        }
        encode_run(c, timestamp, table, kind, &writes[i..j], minimal)?;
        i = j;
    }
    c.buf.xid(timestamp, xid);
    c.event_done()
}

/// One statement-like run: Table_map, then rows events.
fn encode_run(
    c: &mut Cache,
    timestamp: u32,
    table: &Table,
    kind: RowsKind,
    run: &[WriteRec],
    minimal: bool,
) -> Result<()> {
    let t = table_map(table);
    c.buf.table_map(timestamp, &t);
    c.event_done()?;
    use smallvec::smallvec as vec;
    let n = t.columns.len();
    let all: Columns = vec![true; n];
    let before_cols = if minimal && kind != RowsKind::Write {
        key_columns(table)
    } else {
        all.clone()
    };
    // MINIMAL updates: the after image carries the columns any row of the run changed.
    let after_cols = if minimal && kind == RowsKind::Update {
        let mut v: Columns = vec![false; n];
        for w in run {
            if let (Some(b), Some(a)) = (&w.before, &w.after) {
                for (c, x) in v.iter_mut().enumerate() {
                    let ty = &table.binlog_columns[c].0;
                    if !*x && !super::events::same_value(ty, b.get(c), a.get(c)) {
                        *x = true;
                    }
                }
            }
        }
        v
    } else {
        all.clone()
    };
    let mut open = false;
    for (k, w) in run.iter().enumerate() {
        let buf = &mut c.buf;
        if !open {
            buf.rows_start(timestamp, kind, &t, &before_cols, &after_cols);
            open = true;
        }
        let empty: &[Value] = &[];
        match kind {
            RowsKind::Write => buf.rows_image(&t, &all, w.after.as_deref().unwrap_or(empty)),
            RowsKind::Delete => {
                buf.rows_image(&t, &before_cols, w.before.as_deref().unwrap_or(empty))
            }
            RowsKind::Update => {
                buf.rows_image(&t, &before_cols, w.before.as_deref().unwrap_or(empty));
                buf.rows_image(&t, &after_cols, w.after.as_deref().unwrap_or(empty));
            }
        }
        let last = k + 1 == run.len();
        if last || buf.open_len() >= ROWS_EVENT_MAX {
            buf.rows_finish(last);
            open = false;
            c.event_done()?;
        }
    }
    Ok(())
}
