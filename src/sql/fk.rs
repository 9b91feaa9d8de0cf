//! Enforcing FOREIGN KEY constraints on row writes, as InnoDB does.
//!
//! Quire enforces foreign keys itself, row by row, at the moment of each write (InnoDB's
//! behaviour, which MySQL 8.0 has; not the SQL standard's end-of-statement check):
//!
//! - **Child side.** After a row is inserted into a table with foreign keys, or updated so
//!   that a key's columns change, each key whose columns are all non-NULL must find its
//!   parent row: looked up through the parent's index on the referenced columns, with a
//!   *locking read* — the latest committed version, under a shared row lock, as InnoDB's S
//!   lock on the parent index record — so that a concurrent DELETE of that parent waits for
//!   this transaction (and this one waits for a parent delete in flight). No parent: 1452.
//! - **Parent side.** After a row of a referenced table is deleted, or its referenced
//!   columns change, the children (found through their key's index, locked) are handled by
//!   the key's action: RESTRICT / NO ACTION refuse (1451); CASCADE deletes or updates them;
//!   SET NULL sets their key columns NULL. Cascades recurse (a cascaded change is a parent
//!   change for the next table) up to MySQL's depth of 15 (3008). Acting after the write
//!   lets a row that references itself be deleted or re-keyed.
//!
//! A failing row makes the statement fail, and the statement's changes are taken back as
//! for any error; with IGNORE the callers turn 1451/1452 into a warning and take back only
//! that row (with its cascades). `foreign_key_checks=0` turns everything here off for the
//! session.
//!
//! **Journal.** Cascaded changes are ordinary writes of the transaction, so they reach the
//! binary log as ordinary row events and recovery replays them without any foreign key
//! logic (recovery runs with `foreign_key_checks=0`). Every rows event Quire writes carries
//! NO_FOREIGN_KEY_CHECKS_F (see `journal::events`), so that a MySQL replica neither checks
//! nor cascades a second time.
//!
//! **Cost.** A write to a table without keys, in a server where no table is referenced,
//! pays one atomic load ([`crate::storage::catalog::Catalog::has_foreign_keys`]).

use super::exec::{ExecCx, ExecError, XResult, lock_and_read, storage_err};
use super::value::{Row, Value};
use crate::config::vars;
use crate::error::{MyError, code};
use crate::storage::keycode;
use crate::storage::lock::LockMode;
use crate::storage::row::RowSlot;
use crate::storage::schema::{FkAction, ForeignKeyDef};
use crate::storage::table::{ReadView, Table};
use std::ops::Bound;
use std::sync::Arc;

/// MySQL's limit on nested cascades (`FK_MAX_CASCADE_DEL`).
const CASCADE_DEPTH_MAX: u32 = 15;

/// Are foreign keys checked for this statement at all?
pub fn active(cx: &ExecCx) -> bool {
    cx.env.ctx.server.storage.catalog.has_foreign_keys()
        && cx.env.ctx.vars.get_bool(vars::FOREIGN_KEY_CHECKS)
}

pub fn no_parent_error(db: &str, table: &str, fk: &ForeignKeyDef) -> MyError {
    MyError::new(
        code::ER_NO_REFERENCED_ROW_2,
        format!(
            "Cannot add or update a child row: a foreign key constraint fails (`{db}`.`{table}`, {})",
            super::show::foreign_key_sql(db, fk)
        ),
    )
}

fn referenced_error(db: &str, table: &str, fk: &ForeignKeyDef) -> MyError {
    MyError::new(
        code::ER_ROW_IS_REFERENCED_2,
        format!(
            "Cannot delete or update a parent row: a foreign key constraint fails (`{db}`.`{table}`, {})",
            super::show::foreign_key_sql(db, fk)
        ),
    )
}

/// Is `e` a foreign key violation that IGNORE turns into a warning?
pub fn is_violation(e: &ExecError) -> Option<&MyError> {
    match e {
        ExecError::Sql(m)
            if m.code == code::ER_NO_REFERENCED_ROW_2 || m.code == code::ER_ROW_IS_REFERENCED_2 =>
        {
            Some(m)
        }
        _ => None,
    }
}

/// The memcomparable key of `values` as columns `cols` of `table` (the prefix of an index
/// on them).
fn key_of(table: &Table, cols: &[usize], values: &[Value]) -> Vec<u8> {
    let mut key = Vec::with_capacity(16);
    for (c, v) in cols.iter().zip(values) {
        keycode::encode(v, &table.def.columns[*c].ty, &mut key);
    }
    key
}

/// Do columns `cols` of `row` have key `key`?
fn row_has_key(
    table: &Table,
    cols: &[usize],
    row: &[Value],
    key: &[u8],
    scratch: &mut Vec<u8>,
) -> bool {
    scratch.clear();
    for c in cols {
        keycode::encode(&row[*c], &table.def.columns[*c].ty, scratch);
    }
    scratch.as_slice() == key
}

/// Slots that may hold rows of `table` whose columns `cols` have `key`: through the first
/// index that starts with those columns, else (a parent whose index went away while checks
/// were off) every slot.
fn candidates(table: &Table, cols: &[usize], key: &[u8]) -> Vec<Arc<RowSlot>> {
    let hi = keycode::prefix_successor(key);
    let hi_bound = match &hi {
        Some(h) => Bound::Excluded(h.as_slice()),
        None => Bound::Unbounded,
    };
    let Some(index) = table.def.index_with_prefix(cols) else {
        return table
            .scan_primary(Bound::Unbounded, Bound::Unbounded, false)
            .collect();
    };
    if table
        .def
        .primary
        .as_ref()
        .is_some_and(|p| std::ptr::eq(p, index))
    {
        if index.columns.len() == cols.len() {
            return table.get(key).into_iter().collect();
        }
        return table
            .scan_primary(Bound::Included(key), hi_bound, false)
            .collect();
    }
    let Some(i) = table.indexes.iter().position(|s| s.def.name == index.name) else {
        return Vec::new();
    };
    table
        .scan_index(i, Bound::Included(key), hi_bound, false)
        .map(|(_, slot)| slot)
        .collect()
}

/// The rows of `table` whose columns `cols` equal `values`, each locked in `mode` (a
/// locking read: latest committed version, lock, re-read, re-check). `first_only` stops at
/// the first.
fn locked_matches(
    cx: &mut ExecCx,
    table: &Arc<Table>,
    cols: &[usize],
    values: &[Value],
    mode: LockMode,
    first_only: bool,
) -> XResult<Vec<(Arc<RowSlot>, Row)>> {
    let key = key_of(table, cols, values);
    let mut scratch = Vec::new();
    let mut out = Vec::new();
    for slot in candidates(table, cols, &key) {
        // (A row another transaction inserted and has not committed is waited for.)
        let mut check =
            |row: &Row, _: &mut ExecCx| Ok(row_has_key(table, cols, row, &key, &mut scratch));
        if let Some(row) = lock_and_read(table, &slot, None, mode, None, &mut check, cx)? {
            out.push((slot, row));
            if first_only {
                break;
            }
        }
    }
    Ok(out)
}

/// Without locks, at `view`: has `table` a row whose `cols` (named) equal `values`? For
/// ALTER TABLE … ADD FOREIGN KEY's check of existing rows.
pub fn exists_unlocked(table: &Table, cols: &[String], values: &[Value], view: ReadView) -> bool {
    let Some(cols) = table.def.column_positions(cols) else {
        return false;
    };
    let key = key_of(table, &cols, values);
    let mut scratch = Vec::new();
    candidates(table, &cols, &key).iter().any(|slot| {
        table
            .read(slot, view)
            .is_some_and(|row| row_has_key(table, &cols, &row, &key, &mut scratch))
    })
}

/// Child side: `row` was just written to `table` (inserted, or updated from `old`); every
/// key whose columns are non-NULL (and changed) must find its parent, which stays locked.
pub fn check_parents(
    cx: &mut ExecCx,
    table: &Arc<Table>,
    row: &[Value],
    old: Option<&[Value]>,
) -> XResult<()> {
    if table.def.foreign_keys.is_empty() || !active(cx) {
        return Ok(());
    }
    for f in &table.def.foreign_keys {
        let Some(cols) = table.def.column_positions(&f.columns) else {
            continue;
        };
        if cols.iter().any(|c| row[*c].is_null()) {
            continue;
        }
        if let Some(old) = old
            && cols.iter().all(|c| same(&old[*c], &row[*c]))
        {
            continue;
        }
        let values: Vec<Value> = cols.iter().map(|c| row[*c].clone()).collect();
        let parent = cx
            .env
            .ctx
            .server
            .storage
            .catalog
            .table(&f.parent_db, &f.parent_table);
        let found = match parent {
            Some(p) => match p.def.column_positions(&f.parent_columns) {
                Some(pcols) => {
                    !locked_matches(cx, &p, &pcols, &values, LockMode::Shared, true)?.is_empty()
                }
                None => false,
            },
            None => false,
        };
        if !found {
            return Err(ExecError::Sql(no_parent_error(
                &table.def.db,
                table.name(),
                f,
            )));
        }
    }
    Ok(())
}

/// Same stored value (a change of case under a _ci collation is a change, as in InnoDB).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        _ => {
            super::compare::compare(a, b, super::types::Collation::Binary)
                == Some(std::cmp::Ordering::Equal)
        }
    }
}

/// The children of one key that references `table`, with what the key needs.
struct Children {
    child: Arc<Table>,
    /// The key's position in the child's `foreign_keys`.
    fk: usize,
    /// The key's columns in the child.
    cols: Vec<usize>,
    /// The referenced columns in the parent.
    parent_cols: Vec<usize>,
}

impl Children {
    fn fk(&self) -> &ForeignKeyDef {
        &self.child.def.foreign_keys[self.fk]
    }
}

/// The keys that reference `table` and whose referenced columns `wanted` accepts (an
/// update skips, before any more work, the keys whose columns it did not change).
fn children_of(cx: &ExecCx, table: &Table, wanted: &dyn Fn(&[usize]) -> bool) -> Vec<Children> {
    let catalog = &cx.env.ctx.server.storage.catalog;
    let mut out = Vec::new();
    for r in catalog.referencing(&table.def.db, table.name()).iter() {
        let Some(child) = catalog.table(&r.db, &r.table) else {
            continue;
        };
        let Some(fk) = child.def.foreign_keys.get(r.fk) else {
            continue;
        };
        let Some(parent_cols) = table.def.column_positions(&fk.parent_columns) else {
            continue;
        };
        if !wanted(&parent_cols) {
            continue;
        }
        let Some(cols) = child.def.column_positions(&fk.columns) else {
            continue;
        };
        out.push(Children {
            child,
            fk: r.fk,
            cols,
            parent_cols,
        });
    }
    out
}

fn depth_error() -> ExecError {
    ExecError::Sql(MyError::new(
        code::ER_FK_DEPTH_EXCEEDED,
        format!("Foreign key cascade delete/update exceeds max depth of {CASCADE_DEPTH_MAX}."),
    ))
}

fn txn<'a>(cx: &'a mut ExecCx) -> XResult<&'a mut crate::storage::txn::Txn> {
    cx.txn
        .as_deref_mut()
        .ok_or_else(|| ExecError::Sql(MyError::internal("cascade without a transaction")))
}

/// Parent side: `old` was just deleted from `table`.
pub fn after_delete(cx: &mut ExecCx, table: &Arc<Table>, old: &[Value]) -> XResult<()> {
    if !active(cx) {
        return Ok(());
    }
    deleted(cx, table, old, 0)
}

/// Parent side: a row of `table` changed from `old` to `new`.
pub fn after_update(
    cx: &mut ExecCx,
    table: &Arc<Table>,
    old: &[Value],
    new: &[Value],
) -> XResult<()> {
    if !active(cx) {
        return Ok(());
    }
    updated(cx, table, old, new, 0)
}

/// The key the children of `k` reference in the parent row `old`; None when a part is
/// NULL (no child can match it).
fn referenced_key(k: &Children, old: &[Value]) -> Option<Vec<Value>> {
    let values: Vec<Value> = k.parent_cols.iter().map(|c| old[*c].clone()).collect();
    (!values.iter().any(Value::is_null)).then_some(values)
}

/// RESTRICT / NO ACTION: error 1451 if a child row references `values` (found under a
/// shared lock, so that it cannot appear behind the check).
fn restrict(cx: &mut ExecCx, k: &Children, values: &[Value]) -> XResult<()> {
    if locked_matches(cx, &k.child, &k.cols, values, LockMode::Shared, true)?.is_empty() {
        return Ok(());
    }
    Err(ExecError::Sql(referenced_error(
        &k.child.def.db,
        k.child.name(),
        k.fk(),
    )))
}

fn deleted(cx: &mut ExecCx, table: &Arc<Table>, old: &[Value], depth: u32) -> XResult<()> {
    for k in children_of(cx, table, &|_| true) {
        let Some(values) = referenced_key(&k, old) else {
            continue;
        };
        match k.fk().on_delete {
            FkAction::Restrict | FkAction::NoAction => restrict(cx, &k, &values)?,
            FkAction::Cascade => {
                let rows =
                    locked_matches(cx, &k.child, &k.cols, &values, LockMode::Exclusive, false)?;
                if !rows.is_empty() && depth + 1 > CASCADE_DEPTH_MAX {
                    return Err(depth_error());
                }
                for (slot, row) in rows {
                    if k.child
                        .delete(txn(cx)?, &slot)
                        .map_err(storage_err)?
                        .is_some()
                    {
                        deleted(cx, &k.child, &row, depth + 1)?;
                    }
                }
            }
            FkAction::SetNull => set_children(cx, &k, &values, None, depth)?,
        }
    }
    Ok(())
}

fn updated(
    cx: &mut ExecCx,
    table: &Arc<Table>,
    old: &[Value],
    new: &[Value],
    depth: u32,
) -> XResult<()> {
    let changed = |cols: &[usize]| cols.iter().any(|c| !same(&old[*c], &new[*c]));
    for k in children_of(cx, table, &changed) {
        let Some(values) = referenced_key(&k, old) else {
            continue;
        };
        match k.fk().on_update {
            FkAction::Restrict | FkAction::NoAction => restrict(cx, &k, &values)?,
            FkAction::Cascade => {
                let to: Vec<Value> = k.parent_cols.iter().map(|c| new[*c].clone()).collect();
                set_children(cx, &k, &values, Some(&to), depth)?;
            }
            FkAction::SetNull => set_children(cx, &k, &values, None, depth)?,
        }
    }
    Ok(())
}

/// CASCADE (an update) / SET NULL: the children whose key is `values` get `to` (NULLs
/// when `None`) in their key columns; each change is in turn a parent change.
fn set_children(
    cx: &mut ExecCx,
    k: &Children,
    values: &[Value],
    to: Option<&[Value]>,
    depth: u32,
) -> XResult<()> {
    let rows = locked_matches(cx, &k.child, &k.cols, values, LockMode::Exclusive, false)?;
    if !rows.is_empty() && depth + 1 > CASCADE_DEPTH_MAX {
        return Err(depth_error());
    }
    for (slot, row) in rows {
        let mut new: Vec<Value> = row.to_vec();
        for (i, c) in k.cols.iter().enumerate() {
            new[*c] = to.map(|t| t[i].clone()).unwrap_or(Value::Null);
        }
        if k.child
            .update(txn(cx)?, &slot, Arc::from(new.clone()))
            .map_err(storage_err)?
            .is_some()
        {
            updated(cx, &k.child, &row, &new, depth + 1)?;
        }
    }
    Ok(())
}
