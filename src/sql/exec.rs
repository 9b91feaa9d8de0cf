//! The executor for queries: joins, aggregation, sorting, limits.
//!
//! Execution is synchronous and pull-free: a recursive nested loop walks the sources in join
//! order, and every complete tuple is pushed to the next stage (aggregation, or projection to
//! the output). When nothing needs the full result first (no aggregation, DISTINCT or sort),
//! rows stream to the client as they are found and a LIMIT stops the scan early.
//!
//! ## Reads
//!
//! Plain reads see the statement's snapshot ([`ReadView`]). Locking reads (`FOR UPDATE`,
//! `FOR SHARE`, and the row search of UPDATE/DELETE) read the *latest* committed version,
//! check the conditions, lock the row, then read and check again — the row may have changed
//! while the lock was awaited. If a lock is held by another transaction, the storage layer
//! returns a wait, which surfaces here as [`ExecError::Wait`]: the session waits and
//! re-executes the whole statement (see `storage::lock`).
//!
//! ## Index ranges
//!
//! Key ranges are computed per execution (their bounds are parameters, or columns of outer
//! join rows) by converting each bound to the key column's type. A bound that does not convert
//! exactly widens the range (an equality that cannot match yields nothing); a bound that
//! cannot be compared through the index (a number against a string column) falls back to
//! reading the whole index. Every condition is re-checked on the rows read.

use super::compare;
use super::convert;
use super::expr::{Env, Expr};
use super::plan::*;
use super::types::SqlType;
use super::value::{Row, Value};
use crate::error::{Diagnostics, MyError, Result, code};
use crate::storage::keycode;
use crate::storage::lock::LockMode;
use crate::storage::row::RowSlot;
use crate::storage::table::{ReadView, Table};
use crate::storage::txn::Txn;
use crate::storage::{StorageError, lock::Waiter};
use ahash::AHashSet as HashSet;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::Arc;

/// Something to wait for before re-executing the statement.
pub enum Wait {
    Lock {
        slot: Arc<RowSlot>,
        waiter: Arc<Waiter>,
        mode: LockMode,
    },
    Mdl(Arc<Table>),
    Retry,
}

pub enum ExecError {
    Sql(MyError),
    Wait(Wait),
}

impl From<MyError> for ExecError {
    fn from(e: MyError) -> Self {
        ExecError::Sql(e)
    }
}

pub type XResult<T> = std::result::Result<T, ExecError>;

/// Map a storage failure to what the session acts on: a wait, or a client error.
pub fn storage_err(e: StorageError) -> ExecError {
    match e {
        StorageError::LockWait { slot, waiter, mode } => {
            ExecError::Wait(Wait::Lock { slot, waiter, mode })
        }
        StorageError::MdlWait(t) => ExecError::Wait(Wait::Mdl(t)),
        StorageError::Retry => ExecError::Wait(Wait::Retry),
        StorageError::Duplicate {
            table,
            index_name,
            key,
            ..
        } => ExecError::Sql(duplicate_error(&table, &index_name, &key)),
        StorageError::LockNowait => ExecError::Sql(MyError::new(
            code::ER_LOCK_NOWAIT,
            "Statement aborted because lock(s) could not be acquired immediately and NOWAIT is set.",
        )),
        StorageError::ReadOnlyTxn => ExecError::Sql(MyError::new(
            code::ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION,
            "Cannot execute statement in a READ ONLY transaction.",
        )),
        StorageError::TableDropped => ExecError::Wait(Wait::Retry),
    }
}

/// MySQL 8's duplicate-key message: `Duplicate entry '1-a' for key 't.PRIMARY'`.
pub fn duplicate_error(table: &str, index: &str, key: &[(Value, SqlType)]) -> MyError {
    MyError::new(
        code::ER_DUP_ENTRY,
        format!(
            "Duplicate entry '{}' for key '{table}.{index}'",
            key_text(key)
        ),
    )
}

pub fn key_text(key: &[(Value, SqlType)]) -> String {
    let mut out = Vec::new();
    for (i, (v, t)) in key.iter().enumerate() {
        if i > 0 {
            out.push(b'-');
        }
        if v.is_null() {
            out.extend_from_slice(b"NULL");
        } else {
            convert::to_text(v, t, &mut out);
        }
    }
    let s = String::from_utf8_lossy(&out).into_owned();
    s.chars().take(64).collect()
}

/// Where result rows go.
pub trait RowSink {
    fn row(&mut self, values: &[Value]) -> Result<()>;
}

/// Collects rows in memory.
#[derive(Default)]
pub struct VecSink {
    pub rows: Vec<Vec<Value>>,
}

impl RowSink for VecSink {
    fn row(&mut self, values: &[Value]) -> Result<()> {
        self.rows.push(values.to_vec());
        Ok(())
    }
}

/// Execution state of one statement.
pub struct ExecCx<'a> {
    pub env: Env<'a>,
    pub txn: Option<&'a mut Txn>,
    pub view: ReadView,
    pub rows_examined: u64,
}

/// Rows examined between checks of the kill flag.
const KILL_CHECK_INTERVAL: u64 = 1024;

impl ExecCx<'_> {
    pub fn eval(&mut self, e: &Expr, rows: &[Row]) -> Result<Value> {
        e.eval(rows, &mut self.env)
    }

    pub fn test(&mut self, e: &Option<Expr>, rows: &[Row]) -> Result<bool> {
        match e {
            None => Ok(true),
            Some(e) => Ok(e.eval_bool(rows, &mut self.env)? == Some(true)),
        }
    }

    fn examined(&mut self) -> Result<()> {
        self.rows_examined += 1;
        if self.rows_examined.is_multiple_of(KILL_CHECK_INTERVAL) && self.env.ctx.is_killed() {
            return Err(MyError::query_interrupted());
        }
        Ok(())
    }

    fn me(&self) -> u64 {
        self.view.me
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

// ----- key ranges ---------------------------------------------------------------------------

enum KeyVal {
    Exact(Value),
    Inexact(Value),
    Null,
    Unusable,
}

fn key_value(v: Value, ty: &SqlType) -> KeyVal {
    if v.is_null() {
        return KeyVal::Null;
    }
    let compatible = if ty.is_numeric() {
        !matches!(v, Value::Date(_) | Value::DateTime(_) | Value::Time(_))
    } else if ty.is_string() {
        matches!(v, Value::Bytes(_))
    } else if ty.is_temporal() {
        matches!(
            v,
            Value::Bytes(_) | Value::Date(_) | Value::DateTime(_) | Value::Time(_)
        )
    } else {
        false
    };
    if !compatible {
        return KeyVal::Unusable;
    }
    let mut diag = Diagnostics::default();
    let Ok(kv) = convert::store(v.clone(), ty, "", 0, false, &mut diag) else {
        return KeyVal::Unusable;
    };
    if kv.is_null() {
        return KeyVal::Unusable;
    }
    match compare::compare(&v, &kv, ty.collation()) {
        Some(Ordering::Equal) => KeyVal::Exact(kv),
        Some(_) => KeyVal::Inexact(kv),
        None => KeyVal::Unusable,
    }
}

/// [`key_value`] for a key column of a stored table: a TIMESTAMP bound, given in the
/// session's time zone, is looked up as the UTC value the index holds.
fn key_value_in(v: Value, ty: &SqlType, cx: &ExecCx) -> KeyVal {
    let kv = key_value(v, ty);
    if !matches!(ty, SqlType::Timestamp { .. }) {
        return kv;
    }
    let zone = cx.env.ctx.zone();
    let utc = |v: Value| match v {
        Value::DateTime(d) => zone.to_utc(&d).map(Value::DateTime),
        other => Some(other),
    };
    match kv {
        KeyVal::Exact(v) => utc(v).map_or(KeyVal::Unusable, KeyVal::Exact),
        KeyVal::Inexact(v) => utc(v).map_or(KeyVal::Unusable, KeyVal::Inexact),
        other => other,
    }
}

type ByteRange = (Bound<Vec<u8>>, Bound<Vec<u8>>);

/// A full-key equality on the primary key is one `get` instead of a range scan. `None`: the
/// access is not one; `Some(slot)`: its slot, if the key can match and has one.
fn point_lookup(
    table: &Table,
    index: IndexRef,
    ranges: &[KeyRange],
    tuple: &[Row],
    cx: &mut ExecCx,
) -> Result<Option<Option<Arc<RowSlot>>>> {
    let (IndexRef::Primary, [r]) = (index, ranges) else {
        return Ok(None);
    };
    let Some(pk) = &table.def.primary else {
        return Ok(None);
    };
    if r.lo.is_some()
        || r.hi.is_some()
        || r.prefix.len() != pk.columns.len()
        || pk.columns.iter().any(|c| c.prefix.is_some())
    {
        return Ok(None);
    }
    let mut key = Vec::with_capacity(16);
    for (i, e) in r.prefix.iter().enumerate() {
        let ty = &table.def.columns[pk.columns[i].col].ty;
        match key_value_in(cx.eval(e, tuple)?, ty, cx) {
            KeyVal::Exact(v) => keycode::encode(&v, ty, &mut key),
            KeyVal::Inexact(_) | KeyVal::Null => return Ok(Some(None)),
            KeyVal::Unusable => return Ok(None),
        }
    }
    cx.env.ctx.rec.reads.key += 1;
    Ok(Some(table.get(&key)))
}

fn successor(k: &[u8]) -> Bound<Vec<u8>> {
    match keycode::prefix_successor(k) {
        Some(s) => Bound::Excluded(s),
        None => Bound::Unbounded,
    }
}

/// Byte ranges for `ranges` over `index`; `None` means "read the whole index".
fn byte_ranges(
    table: &Table,
    index: IndexRef,
    ranges: &[KeyRange],
    tuple: &[Row],
    cx: &mut ExecCx,
) -> Result<Option<Vec<ByteRange>>> {
    let def = match index {
        IndexRef::Primary => match &table.def.primary {
            Some(p) => p,
            None => return Ok(None),
        },
        IndexRef::Secondary(i) => &table.indexes[i].def,
    };
    let mut out = Vec::with_capacity(ranges.len());
    'ranges: for r in ranges {
        let mut prefix = Vec::with_capacity(16);
        for (i, e) in r.prefix.iter().enumerate() {
            let ty = &table.def.columns[def.columns[i].col].ty;
            match key_value_in(cx.eval(e, tuple)?, ty, cx) {
                KeyVal::Exact(v) => keycode::encode(&v, ty, &mut prefix),
                KeyVal::Inexact(_) | KeyVal::Null => continue 'ranges,
                KeyVal::Unusable => return Ok(None),
            }
        }
        let next_ty = def
            .columns
            .get(r.prefix.len())
            .map(|c| &table.def.columns[c.col].ty);
        let lo = match (&r.lo, next_ty) {
            (Some((e, incl)), Some(ty)) => match key_value_in(cx.eval(e, tuple)?, ty, cx) {
                KeyVal::Exact(v) => {
                    let mut k = prefix.clone();
                    keycode::encode(&v, ty, &mut k);
                    if *incl {
                        Bound::Included(k)
                    } else {
                        match keycode::prefix_successor(&k) {
                            Some(s) => Bound::Included(s),
                            None => continue 'ranges,
                        }
                    }
                }
                KeyVal::Inexact(v) => {
                    let mut k = prefix.clone();
                    keycode::encode(&v, ty, &mut k);
                    Bound::Included(k)
                }
                KeyVal::Null => continue 'ranges,
                KeyVal::Unusable => return Ok(None),
            },
            _ => {
                if r.hi.is_some() {
                    // Skip NULLs (encoded 0x00) when only an upper bound is given.
                    let mut k = prefix.clone();
                    k.push(1);
                    Bound::Included(k)
                } else if prefix.is_empty() {
                    Bound::Unbounded
                } else {
                    Bound::Included(prefix.clone())
                }
            }
        };
        let hi = match (&r.hi, next_ty) {
            (Some((e, incl)), Some(ty)) => match key_value_in(cx.eval(e, tuple)?, ty, cx) {
                KeyVal::Exact(v) => {
                    let mut k = prefix.clone();
                    keycode::encode(&v, ty, &mut k);
                    if *incl {
                        successor(&k)
                    } else {
                        Bound::Excluded(k)
                    }
                }
                KeyVal::Inexact(v) => {
                    let mut k = prefix.clone();
                    keycode::encode(&v, ty, &mut k);
                    successor(&k)
                }
                KeyVal::Null => continue 'ranges,
                KeyVal::Unusable => return Ok(None),
            },
            _ => {
                if prefix.is_empty() {
                    Bound::Unbounded
                } else {
                    successor(&prefix)
                }
            }
        };
        out.push((lo, hi));
    }
    Ok(Some(merge_ranges(out)))
}

fn lo_cmp(a: &Bound<Vec<u8>>, b: &Bound<Vec<u8>>) -> Ordering {
    match (a, b) {
        (Bound::Unbounded, Bound::Unbounded) => Ordering::Equal,
        (Bound::Unbounded, _) => Ordering::Less,
        (_, Bound::Unbounded) => Ordering::Greater,
        (Bound::Included(x) | Bound::Excluded(x), Bound::Included(y) | Bound::Excluded(y)) => {
            x.cmp(y)
        }
    }
}

/// Does range `a`'s end reach range `b`'s start (so they can be merged)?
fn touches(hi: &Bound<Vec<u8>>, lo: &Bound<Vec<u8>>) -> bool {
    match (hi, lo) {
        (Bound::Unbounded, _) | (_, Bound::Unbounded) => true,
        (Bound::Excluded(h), Bound::Included(l) | Bound::Excluded(l)) => l < h,
        (Bound::Included(h), Bound::Included(l) | Bound::Excluded(l)) => l <= h,
    }
}

fn hi_max(a: Bound<Vec<u8>>, b: Bound<Vec<u8>>) -> Bound<Vec<u8>> {
    match (&a, &b) {
        (Bound::Unbounded, _) | (_, Bound::Unbounded) => Bound::Unbounded,
        (Bound::Included(x) | Bound::Excluded(x), Bound::Included(y) | Bound::Excluded(y)) => {
            if x >= y { a } else { b }
        }
    }
}

/// Sort ranges and merge overlapping ones, so no row is read twice.
fn merge_ranges(mut rs: Vec<ByteRange>) -> Vec<ByteRange> {
    if rs.len() <= 1 {
        return rs;
    }
    rs.sort_by(|a, b| lo_cmp(&a.0, &b.0));
    let mut out: Vec<ByteRange> = Vec::with_capacity(rs.len());
    for r in rs {
        if let Some(last) = out.last_mut()
            && touches(&last.1, &r.0)
        {
            let hi = std::mem::replace(&mut last.1, Bound::Unbounded);
            last.1 = hi_max(hi, r.1);
            continue;
        }
        out.push(r);
    }
    out
}

fn as_ref_bound(b: &Bound<Vec<u8>>) -> Bound<&[u8]> {
    match b {
        Bound::Included(v) => Bound::Included(v.as_slice()),
        Bound::Excluded(v) => Bound::Excluded(v.as_slice()),
        Bound::Unbounded => Bound::Unbounded,
    }
}

/// Visit the rows of a table access that `cx` can see, as (slot, row), stopping on Stop.
fn for_each_visible(
    table: &Table,
    access: &Access,
    tuple: &mut Vec<Row>,
    level: usize,
    cx: &mut ExecCx,
    f: &mut dyn FnMut(&mut Vec<Row>, &mut ExecCx) -> XResult<Flow>,
) -> XResult<Flow> {
    let view = cx.view;
    let mut scratch = Vec::new();
    let mut visit = |slot: &Arc<RowSlot>,
                     key: Option<&[u8]>,
                     tuple: &mut Vec<Row>,
                     cx: &mut ExecCx|
     -> XResult<Flow> {
        let Some(row) = table.read(slot, view) else {
            return Ok(Flow::Continue);
        };
        if let (
            Some(k),
            Access::Index {
                index: IndexRef::Secondary(i),
                ..
            },
        ) = (key, access)
            && !table.entry_matches(*i, k, &row, slot, &mut scratch)
        {
            return Ok(Flow::Continue);
        }
        cx.examined()?;
        tuple[level] = row;
        f(tuple, cx)
    };
    walk(table, access, tuple, cx, &mut visit)
}

/// What [`walk`] hands each slot to: the slot, its index entry key (secondary indexes), the
/// tuple under construction.
pub type SlotFn<'a> =
    dyn FnMut(&Arc<RowSlot>, Option<&[u8]>, &mut Vec<Row>, &mut ExecCx) -> XResult<Flow> + 'a;

/// The slots of a table access in order, handed to `visit` one at a time until it says
/// Stop; counts `Handler_read_*`.
pub fn walk(
    table: &Table,
    access: &Access,
    tuple: &mut Vec<Row>,
    cx: &mut ExecCx,
    visit: &mut SlotFn,
) -> XResult<Flow> {
    // Steps of the scan or range under way, for `Handler_read_*` (see `observe::status`).
    let mut steps = 0u64;
    match access {
        Access::Scan { reverse } => {
            cx.env.ctx.rec.reads.scan_start(*reverse);
            for slot in table.scan_primary(Bound::Unbounded, Bound::Unbounded, *reverse) {
                steps += 1;
                if visit(&slot, None, tuple, cx)? == Flow::Stop {
                    cx.env.ctx.rec.reads.steps(*reverse, steps, false);
                    return Ok(Flow::Stop);
                }
            }
            cx.env.ctx.rec.reads.steps(*reverse, steps, true);
        }
        Access::Index {
            index,
            ranges,
            reverse,
        } => {
            // Point lookup on the whole primary key: one `get`, no range iterator.
            if let Some(slot) = point_lookup(table, *index, ranges, tuple, cx)? {
                return match slot {
                    Some(slot) => visit(&slot, None, tuple, cx),
                    None => Ok(Flow::Continue),
                };
            }
            let br = byte_ranges(table, *index, ranges, tuple, cx)?;
            let br = br.unwrap_or_else(|| vec![(Bound::Unbounded, Bound::Unbounded)]);
            let order: Vec<&ByteRange> = if *reverse {
                br.iter().rev().collect()
            } else {
                br.iter().collect()
            };
            for (lo, hi) in order {
                cx.env.ctx.rec.reads.key += 1;
                steps = 0;
                let mut stop = false;
                match index {
                    IndexRef::Primary => {
                        for slot in table.scan_primary(as_ref_bound(lo), as_ref_bound(hi), *reverse)
                        {
                            steps += 1;
                            if visit(&slot, None, tuple, cx)? == Flow::Stop {
                                stop = true;
                                break;
                            }
                        }
                    }
                    IndexRef::Secondary(i) => {
                        for (k, slot) in
                            table.scan_index(*i, as_ref_bound(lo), as_ref_bound(hi), *reverse)
                        {
                            steps += 1;
                            if visit(&slot, Some(&k), tuple, cx)? == Flow::Stop {
                                stop = true;
                                break;
                            }
                        }
                    }
                }
                cx.env.ctx.rec.reads.steps(*reverse, steps, !stop);
                if stop {
                    return Ok(Flow::Stop);
                }
            }
        }
    }
    Ok(Flow::Continue)
}

/// Read `slot` for a locking read: check, lock, re-read, re-check. `Ok(None)`: skip the row.
/// `entry`: the secondary index and the key of its entry the row was found through, which
/// the row must still match.
pub fn lock_and_read(
    table: &Arc<Table>,
    slot: &Arc<RowSlot>,
    entry: Option<(usize, &[u8])>,
    mode: LockMode,
    lock: Option<LockClause>,
    check: &mut dyn FnMut(&Row, &mut ExecCx) -> Result<bool>,
    cx: &mut ExecCx,
) -> XResult<Option<Row>> {
    let me = cx.me();
    let mut scratch = Vec::new();
    let matches_entry = |row: &Row, scratch: &mut Vec<u8>| match entry {
        Some((i, k)) => table.entry_matches(i, k, row, slot, scratch),
        None => true,
    };
    match table.read_latest(slot, me) {
        Some(row) => {
            if !matches_entry(&row, &mut scratch) {
                return Ok(None);
            }
            cx.examined()?;
            if !check(&row, cx)? {
                return Ok(None);
            }
        }
        // Another transaction's uncommitted insert: a locking read waits for it (InnoDB's
        // implicit lock on an inserted record), then reads what it committed — so a
        // foreign key's parent inserted but not yet committed is waited for, not missed.
        None if table.pending_by_other(slot, me) => cx.examined()?,
        None => return Ok(None),
    }
    let txn = match cx.txn.as_deref_mut() {
        Some(t) => t,
        None => {
            return Err(ExecError::Sql(MyError::internal(
                "locking read without a transaction",
            )));
        }
    };
    let locked = match lock {
        Some(LockClause { nowait: true, .. }) => table.try_lock(txn, slot, mode),
        Some(LockClause {
            skip_locked: true, ..
        }) => match table.try_lock(txn, slot, mode) {
            Err(StorageError::LockNowait) => return Ok(None),
            other => other,
        },
        _ => table.lock(txn, slot, mode),
    }
    .map_err(storage_err)?;
    if !locked {
        return Ok(None);
    }
    let Some(row) = table.read_latest(slot, me) else {
        return Ok(None);
    };
    if !matches_entry(&row, &mut scratch) || !check(&row, cx)? {
        return Ok(None);
    }
    Ok(Some(row))
}

// ----- select ------------------------------------------------------------------------------

/// A row of `width` NULLs, shared per thread for the usual widths (it is never changed in
/// place; outer joins tell it from real rows by pointer).
fn null_row(width: usize) -> Row {
    const SHARED: usize = 64;
    thread_local! {
        static NULLS: std::cell::RefCell<Vec<Row>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    if width >= SHARED {
        return Arc::from(vec![Value::Null; width]);
    }
    NULLS.with_borrow_mut(|rows| {
        if rows.is_empty() {
            rows.extend((0..SHARED).map(|w| Arc::from(vec![Value::Null; w])));
        }
        rows[width].clone()
    })
}

struct Materialized {
    derived: Vec<Option<Arc<Vec<Row>>>>,
    null_rows: Vec<Row>,
    /// Per LEFT JOIN source: whether a row (a combination, for a nested group) of its inner
    /// side matched the current outer row.
    matched: Vec<std::cell::Cell<bool>>,
}

/// The nested-loop join from source `level` on. A LEFT JOIN source NULL-extends when no
/// row of its inner side matched: its own rows, or for a nested group (`nest_end`) the
/// combinations of the group's rows, whose ON is checked at the group's last source (see
/// `after_bound`).
fn join(
    plan: &SelectPlan,
    mat: &Materialized,
    level: usize,
    tuple: &mut Vec<Row>,
    cx: &mut ExecCx,
    out: &mut dyn FnMut(&mut Vec<Row>, &mut ExecCx) -> XResult<Flow>,
) -> XResult<Flow> {
    if level == plan.sources.len() {
        if !cx.test(&plan.filter, tuple)? {
            return Ok(Flow::Continue);
        }
        return out(tuple, cx);
    }
    let src = &plan.sources[level];
    let is_left = src.join == JoinKind::Left;
    // A single LEFT JOIN source checks its ON with its own row.
    let own_on = is_left && src.nest_end.is_none();
    if is_left {
        mat.matched[level].set(false);
    }
    let mut next = |tuple: &mut Vec<Row>, cx: &mut ExecCx| -> XResult<Flow> {
        if own_on && !cx.test(&src.on, tuple)? {
            return Ok(Flow::Continue);
        }
        if !cx.test(&src.filter, tuple)? {
            return Ok(Flow::Continue);
        }
        if own_on {
            mat.matched[level].set(true);
        }
        after_bound(plan, mat, level, usize::MAX, tuple, cx, out)
    };
    let flow = match &src.kind {
        SourceKind::Dual => {
            tuple[level] = mat.null_rows[level].clone();
            next(tuple, cx)?
        }
        SourceKind::Rows(rows) => {
            let mut f = Flow::Continue;
            for r in rows.iter() {
                cx.examined()?;
                tuple[level] = r.clone();
                if next(tuple, cx)? == Flow::Stop {
                    f = Flow::Stop;
                    break;
                }
            }
            f
        }
        SourceKind::Derived(_) => {
            let rows = mat.derived[level].clone().unwrap_or_default();
            let mut f = Flow::Continue;
            for r in rows.iter() {
                cx.examined()?;
                tuple[level] = r.clone();
                if next(tuple, cx)? == Flow::Stop {
                    f = Flow::Stop;
                    break;
                }
            }
            f
        }
        SourceKind::Table { table, access } => match plan.lock {
            None => for_each_visible(table, access, tuple, level, cx, &mut next)?,
            Some(lc) => {
                let secondary = match access {
                    Access::Index {
                        index: IndexRef::Secondary(i),
                        ..
                    } => Some(*i),
                    _ => None,
                };
                // Streamed: a LIMIT stops the range (the map's range iterator pins no epoch
                // between steps, so a lock wait here holds nothing back).
                let mut visit = |slot: &Arc<RowSlot>,
                                 key: Option<&[u8]>,
                                 tuple: &mut Vec<Row>,
                                 cx: &mut ExecCx|
                 -> XResult<Flow> {
                    let mut check = |row: &Row, cx: &mut ExecCx| -> Result<bool> {
                        tuple[level] = row.clone();
                        Ok((!own_on || cx.test(&src.on, tuple)?) && cx.test(&src.filter, tuple)?)
                    };
                    let Some(row) = lock_and_read(
                        table,
                        slot,
                        secondary.zip(key),
                        lc.mode,
                        Some(lc),
                        &mut check,
                        cx,
                    )?
                    else {
                        return Ok(Flow::Continue);
                    };
                    tuple[level] = row;
                    next(tuple, cx)
                };
                walk(table, access, tuple, cx, &mut visit)?
            }
        },
    };
    if flow == Flow::Stop {
        return Ok(Flow::Stop);
    }
    if is_left && !mat.matched[level].get() {
        let last = src.nest_end.unwrap_or(level);
        tuple[level..=last].clone_from_slice(&mat.null_rows[level..=last]);
        if last == level && !cx.test(&src.filter, tuple)? {
            return Ok(Flow::Continue);
        }
        return after_bound(plan, mat, last, level, tuple, cx, out);
    }
    Ok(Flow::Continue)
}

/// Source `level` is bound (a row, or NULLs of a group that starts at `nulled`): check the
/// ON of each nested group enclosing it that ends here, innermost first, noting the match,
/// then join the next source.
fn after_bound(
    plan: &SelectPlan,
    mat: &Materialized,
    level: usize,
    nulled: usize,
    tuple: &mut Vec<Row>,
    cx: &mut ExecCx,
    out: &mut dyn FnMut(&mut Vec<Row>, &mut ExecCx) -> XResult<Flow>,
) -> XResult<Flow> {
    for &g in &plan.sources[level].closes {
        if g >= nulled {
            continue;
        }
        if !cx.test(&plan.sources[g].on, tuple)? {
            return Ok(Flow::Continue);
        }
        mat.matched[g].set(true);
    }
    join(plan, mat, level + 1, tuple, cx, out)
}

/// Evaluate LIMIT/OFFSET.
fn count_value(e: &Option<Expr>, cx: &mut ExecCx, what: &str) -> Result<Option<u64>> {
    let Some(e) = e else { return Ok(None) };
    let v = cx.eval(e, &[])?;
    match v {
        Value::Int(i) if i >= 0 => Ok(Some(i as u64)),
        Value::UInt(u) => Ok(Some(u)),
        Value::Bytes(ref b) => match std::str::from_utf8(b)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
        {
            Some(n) => Ok(Some(n)),
            None => Err(MyError::new(
                code::ER_WRONG_ARGUMENTS,
                format!("Incorrect arguments to {what}"),
            )),
        },
        _ => Err(MyError::new(
            code::ER_WRONG_ARGUMENTS,
            format!("Incorrect arguments to {what}"),
        )),
    }
}

/// Aggregate state of one function in one group.
#[derive(Clone)]
enum AggState {
    Count(i64),
    SumInt(i128, bool /* any */),
    SumDec(bigdecimal::BigDecimal, bool),
    SumDbl(f64, bool),
    Avg {
        sum: bigdecimal::BigDecimal,
        dsum: f64,
        dbl: bool,
        n: i64,
    },
    MinMax(Option<Value>),
    Any(Option<Value>),
    Concat(Option<Vec<u8>>),
    /// GROUP_CONCAT with ORDER BY: each value's sort keys and text, joined at the end.
    ConcatSorted(Vec<(Vec<Value>, Vec<u8>)>),
    Bits(u64),
    Var {
        n: f64,
        mean: f64,
        m2: f64,
    },
}

fn agg_init(a: &AggSpec) -> AggState {
    match a.func {
        AggFunc::CountStar | AggFunc::Count => AggState::Count(0),
        AggFunc::Sum => match a.arg_type {
            ref t if t.is_integer() => AggState::SumInt(0, false),
            SqlType::Decimal { .. } => AggState::SumDec(bigdecimal::BigDecimal::from(0), false),
            _ => AggState::SumDbl(0.0, false),
        },
        AggFunc::Avg => AggState::Avg {
            sum: bigdecimal::BigDecimal::from(0),
            dsum: 0.0,
            dbl: matches!(a.arg_type, SqlType::Double { .. } | SqlType::Float { .. })
                || a.arg_type.is_string(),
            n: 0,
        },
        AggFunc::Min | AggFunc::Max => AggState::MinMax(None),
        AggFunc::AnyValue => AggState::Any(None),
        AggFunc::GroupConcat if !a.order.is_empty() => AggState::ConcatSorted(Vec::new()),
        AggFunc::GroupConcat => AggState::Concat(None),
        AggFunc::BitAnd => AggState::Bits(u64::MAX),
        AggFunc::BitOr | AggFunc::BitXor => AggState::Bits(0),
        AggFunc::StdDevPop | AggFunc::StdDevSamp | AggFunc::VarPop | AggFunc::VarSamp => {
            AggState::Var {
                n: 0.0,
                mean: 0.0,
                m2: 0.0,
            }
        }
    }
}

struct Group {
    keys: Vec<Value>,
    states: Vec<AggState>,
    distinct: Vec<Option<HashSet<Vec<u8>>>>,
}

fn agg_update(
    spec: &AggSpec,
    st: &mut AggState,
    distinct: &mut Option<HashSet<Vec<u8>>>,
    tuple: &[Row],
    cx: &mut ExecCx,
) -> Result<()> {
    if spec.func == AggFunc::CountStar {
        if let AggState::Count(n) = st {
            *n += 1;
        }
        return Ok(());
    }
    let mut vals = Vec::with_capacity(spec.args.len());
    for a in &spec.args {
        let v = cx.eval(a, tuple)?;
        if v.is_null() && spec.func != AggFunc::AnyValue {
            return Ok(());
        }
        vals.push(v);
    }
    if spec.distinct {
        let mut k = Vec::new();
        for v in &vals {
            compare::group_key(v, spec.coll, &mut k);
        }
        if !distinct.get_or_insert_with(HashSet::new).insert(k) {
            return Ok(());
        }
    }
    if let AggState::ConcatSorted(items) = st {
        let mut keys = Vec::with_capacity(spec.order.len());
        for k in &spec.order {
            keys.push(cx.eval(&k.expr, tuple)?);
        }
        items.push((keys, concat_text(&vals)));
        return Ok(());
    }
    let v = if spec.func == AggFunc::GroupConcat && vals.len() > 1 {
        Value::from_vec(concat_text(&vals))
    } else {
        vals.swap_remove(0)
    };
    let diag = &mut cx.env.ctx.diag;
    match st {
        AggState::Count(n) => *n += 1,
        AggState::SumInt(s, any) => {
            match v {
                Value::Int(i) => *s += i as i128,
                Value::UInt(u) => *s += u as i128,
                other => *s += convert::to_i64(&other, diag).unwrap_or(0) as i128,
            }
            *any = true;
        }
        AggState::SumDec(s, any) => {
            *s += convert::to_decimal(&v, diag).unwrap_or_default();
            *any = true;
        }
        AggState::SumDbl(s, any) => {
            *s += convert::to_f64(&v, diag).unwrap_or(0.0);
            *any = true;
        }
        AggState::Avg { sum, dsum, dbl, n } => {
            if *dbl {
                *dsum += convert::to_f64(&v, diag).unwrap_or(0.0);
            } else {
                *sum += convert::to_decimal(&v, diag).unwrap_or_default();
            }
            *n += 1;
        }
        AggState::MinMax(cur) => {
            let replace = match cur {
                None => true,
                Some(c) => {
                    let o = compare::sort_cmp(&v, c, spec.coll);
                    if spec.func == AggFunc::Min {
                        o == Ordering::Less
                    } else {
                        o == Ordering::Greater
                    }
                }
            };
            if replace {
                *cur = Some(v);
            }
        }
        AggState::Any(cur) => {
            if cur.is_none() {
                *cur = Some(v);
            }
        }
        AggState::Concat(cur) => {
            let buf = cur.get_or_insert_with(Vec::new);
            if !buf.is_empty() || spec.func != AggFunc::GroupConcat {
                buf.extend_from_slice(&spec.separator);
            }
            buf.extend_from_slice(&convert::to_bytes(&v));
            buf.truncate(GROUP_CONCAT_MAX_LEN);
        }
        // Collected in the branch above.
        AggState::ConcatSorted(_) => {}
        AggState::Bits(b) => {
            let x = convert::to_u64(&v, diag).unwrap_or(0);
            match spec.func {
                AggFunc::BitAnd => *b &= x,
                AggFunc::BitOr => *b |= x,
                _ => *b ^= x,
            }
        }
        AggState::Var { n, mean, m2 } => {
            let x = convert::to_f64(&v, diag).unwrap_or(0.0);
            *n += 1.0;
            let d = x - *mean;
            *mean += d / *n;
            *m2 += d * (x - *mean);
        }
    }
    Ok(())
}

/// The byte after a key prefix that marks a WITH ROLLUP super-aggregate group: above every
/// tag [`compare::group_key`] starts a value with.
const ROLLUP_KEY: u8 = 0xFF;

/// MySQL's default `group_concat_max_len`: longer GROUP_CONCAT results are cut there.
const GROUP_CONCAT_MAX_LEN: usize = 1024;

/// One GROUP_CONCAT value: its arguments' texts run together.
fn concat_text(vals: &[Value]) -> Vec<u8> {
    let mut text = Vec::new();
    for v in vals {
        text.extend_from_slice(&convert::to_bytes(v));
    }
    text
}

fn agg_final(spec: &AggSpec, st: &AggState) -> Value {
    match st {
        AggState::Count(n) => Value::Int(*n),
        AggState::SumInt(s, any) => {
            if *any {
                Value::decimal(bigdecimal::BigDecimal::from(*s))
            } else {
                Value::Null
            }
        }
        AggState::SumDec(s, any) => {
            if *any {
                Value::decimal(s.clone())
            } else {
                Value::Null
            }
        }
        AggState::SumDbl(s, any) => {
            if *any {
                Value::Double(*s)
            } else {
                Value::Null
            }
        }
        AggState::Avg { sum, dsum, dbl, n } => {
            if *n == 0 {
                Value::Null
            } else if *dbl {
                Value::Double(dsum / *n as f64)
            } else {
                let scale = spec.arg_type.decimals() as i64 + 4;
                Value::decimal(super::expr::round_half_up(
                    sum / bigdecimal::BigDecimal::from(*n),
                    scale,
                ))
            }
        }
        AggState::MinMax(v) | AggState::Any(v) => v.clone().unwrap_or(Value::Null),
        AggState::Concat(v) => v.clone().map(Value::from_vec).unwrap_or(Value::Null),
        AggState::ConcatSorted(items) => {
            if items.is_empty() {
                return Value::Null;
            }
            let mut order: Vec<&(Vec<Value>, Vec<u8>)> = items.iter().collect();
            order.sort_by(|(a, _), (b, _)| {
                a.iter()
                    .zip(b)
                    .zip(&spec.order)
                    .map(|((x, y), k)| {
                        let o = compare::sort_cmp(x, y, k.coll);
                        if k.desc { o.reverse() } else { o }
                    })
                    .find(|o| o.is_ne())
                    .unwrap_or(Ordering::Equal)
            });
            let mut buf = Vec::new();
            for (i, (_, text)) in order.into_iter().enumerate() {
                if i > 0 {
                    buf.extend_from_slice(&spec.separator);
                }
                buf.extend_from_slice(text);
                if buf.len() >= GROUP_CONCAT_MAX_LEN {
                    break;
                }
            }
            buf.truncate(GROUP_CONCAT_MAX_LEN);
            Value::from_vec(buf)
        }
        AggState::Bits(b) => Value::UInt(*b),
        AggState::Var { n, m2, .. } => {
            let samp = matches!(spec.func, AggFunc::StdDevSamp | AggFunc::VarSamp);
            let denom = if samp { *n - 1.0 } else { *n };
            if *n == 0.0 || denom <= 0.0 {
                return Value::Null;
            }
            let var = m2 / denom;
            if matches!(spec.func, AggFunc::StdDevPop | AggFunc::StdDevSamp) {
                Value::Double(var.sqrt())
            } else {
                Value::Double(var)
            }
        }
    }
}

/// Output of one block before sort/distinct/limit: (sort keys, row).
type OutRow = (Vec<Value>, Vec<Value>);

/// Run a query plan, sending rows to `sink`. Returns the number of rows sent.
pub fn run_select(plan: &SelectPlan, cx: &mut ExecCx, sink: &mut dyn RowSink) -> XResult<u64> {
    let limit = count_value(&plan.limit, cx, "LIMIT")?;
    let offset = count_value(&plan.offset, cx, "LIMIT")?.unwrap_or(0);
    let streaming = plan.agg.is_none()
        && (plan.order.is_empty() || plan.order_satisfied)
        && !plan.distinct
        && plan.unions.is_empty();
    if streaming {
        let mut sent = 0u64;
        let mut skipped = 0u64;
        if limit == Some(0) {
            return Ok(0);
        }
        let mut emit = |row: Vec<Value>, _cx: &mut ExecCx| -> XResult<Flow> {
            if skipped < offset {
                skipped += 1;
                return Ok(Flow::Continue);
            }
            sink.row(&row)?;
            sent += 1;
            Ok(if limit.is_some_and(|l| sent >= l) {
                Flow::Stop
            } else {
                Flow::Continue
            })
        };
        produce(plan, cx, &mut |keys_row: OutRow, cx| emit(keys_row.1, cx))?;
        return Ok(sent);
    }
    let mut rows: Vec<OutRow> = Vec::new();
    produce(plan, cx, &mut |r, _| {
        rows.push(r);
        Ok(Flow::Continue)
    })?;
    for (u, all) in &plan.unions {
        let mut branch = VecSink::default();
        run_select(u, cx, &mut branch)?;
        rows.extend(branch.rows.into_iter().map(|r| (Vec::new(), r)));
        if !*all {
            dedupe(&mut rows, plan);
        }
    }
    if plan.distinct {
        dedupe(&mut rows, plan);
    }
    if !plan.order.is_empty() && !plan.order_satisfied {
        cx.env.ctx.rec.reads.sorted += rows.len() as u64;
        let order = &plan.order;
        rows.sort_by(|a, b| {
            for (k, (x, y)) in order.iter().zip(a.0.iter().zip(&b.0)) {
                let o = compare::sort_cmp(x, y, k.coll);
                let o = if k.desc { o.reverse() } else { o };
                if o != Ordering::Equal {
                    return o;
                }
            }
            Ordering::Equal
        });
    }
    let mut sent = 0;
    for (_, r) in rows.into_iter().skip(offset as usize) {
        if limit.is_some_and(|l| sent >= l) {
            break;
        }
        sink.row(&r)?;
        sent += 1;
    }
    Ok(sent)
}

fn dedupe(rows: &mut Vec<OutRow>, plan: &SelectPlan) {
    let mut seen = HashSet::new();
    rows.retain(|(_, r)| {
        let mut k = Vec::new();
        for (v, t) in r.iter().zip(&plan.types) {
            compare::group_key(v, t.collation(), &mut k);
        }
        seen.insert(k)
    });
}

/// A block's derived tables, run, and each source's row of NULLs.
fn materialize(plan: &SelectPlan, cx: &mut ExecCx) -> XResult<Materialized> {
    let mut mat = Materialized {
        derived: Vec::with_capacity(plan.sources.len()),
        null_rows: Vec::new(),
        matched: (0..plan.sources.len())
            .map(|_| std::cell::Cell::new(false))
            .collect(),
    };
    for s in &plan.sources {
        mat.null_rows.push(null_row(s.width));
        mat.derived.push(match &s.kind {
            SourceKind::Derived(p) => {
                let mut v = VecSink::default();
                run_select(p, cx, &mut v)?;
                Some(Arc::new(
                    v.rows.into_iter().map(|r| Arc::from(r) as Row).collect(),
                ))
            }
            _ => None,
        });
    }
    Ok(mat)
}

/// What [`for_each_tuple`] calls: the tuple, and whether source `i`'s row is the NULL row
/// of an unmatched outer join.
pub type TupleFn<'a> = dyn FnMut(&[Row], &dyn Fn(usize) -> bool, &mut ExecCx) -> XResult<()> + 'a;

/// Every joined tuple of a block without aggregation (multi-table UPDATE and DELETE).
pub fn for_each_tuple(plan: &SelectPlan, cx: &mut ExecCx, out: &mut TupleFn) -> XResult<()> {
    let mat = materialize(plan, cx)?;
    let mut tuple: Vec<Row> = mat.null_rows.clone();
    join(plan, &mat, 0, &mut tuple, cx, &mut |t, cx| {
        let is_null = |i: usize| Arc::ptr_eq(&t[i], &mat.null_rows[i]);
        out(t, &is_null, cx)?;
        Ok(Flow::Continue)
    })?;
    Ok(())
}

/// Produce the block's (sort keys, projected row) pairs, before distinct/sort/limit.
fn produce(
    plan: &SelectPlan,
    cx: &mut ExecCx,
    out: &mut dyn FnMut(OutRow, &mut ExecCx) -> XResult<Flow>,
) -> XResult<()> {
    let mat = materialize(plan, cx)?;
    let mut tuple: Vec<Row> = mat.null_rows.clone();
    let sort_keys = |tuple: &[Row], cx: &mut ExecCx| -> Result<Vec<Value>> {
        if plan.order.is_empty() || plan.order_satisfied {
            return Ok(Vec::new());
        }
        plan.order.iter().map(|k| cx.eval(&k.expr, tuple)).collect()
    };
    let project = |tuple: &[Row], cx: &mut ExecCx| -> Result<Vec<Value>> {
        plan.project.iter().map(|e| cx.eval(e, tuple)).collect()
    };

    match &plan.agg {
        None => {
            join(plan, &mat, 0, &mut tuple, cx, &mut |t, cx| {
                let keys = sort_keys(t, cx)?;
                let row = project(t, cx)?;
                out((keys, row), cx)
            })?;
        }
        Some(agg) => {
            let mut groups: BTreeMap<Vec<u8>, Group> = BTreeMap::new();
            // Without GROUP BY there is one group: no key to build or look up per row.
            let mut single: Option<Group> = None;
            join(plan, &mat, 0, &mut tuple, cx, &mut |t, cx| {
                let new_group = |keys| Group {
                    keys,
                    states: agg.aggs.iter().map(agg_init).collect(),
                    distinct: vec![None; agg.aggs.len()],
                };
                let update = |g: &mut Group, cx: &mut ExecCx| -> Result<()> {
                    for (i, spec) in agg.aggs.iter().enumerate() {
                        agg_update(spec, &mut g.states[i], &mut g.distinct[i], t, cx)?;
                    }
                    Ok(())
                };
                if agg.keys.is_empty() {
                    update(single.get_or_insert_with(|| new_group(Vec::new())), cx)?;
                    return Ok(Flow::Continue);
                }
                let mut keys = Vec::with_capacity(agg.keys.len());
                let mut kb = Vec::new();
                // Where each key's bytes end in `kb` (for the rollup prefixes).
                let mut key_ends = Vec::new();
                for (k, coll) in &agg.keys {
                    let v = cx.eval(k, t)?;
                    compare::group_key(&v, *coll, &mut kb);
                    keys.push(v);
                    if agg.rollup {
                        key_ends.push(kb.len());
                    }
                }
                if agg.rollup {
                    // The row also counts in the super-aggregate of each prefix of its keys.
                    // Its map key is the prefix's bytes and then ROLLUP_KEY, which no key
                    // encoding starts with: each super-aggregate row comes right after the
                    // groups it sums up, as in MySQL.
                    for level in 0..keys.len() {
                        let end = if level == 0 { 0 } else { key_ends[level - 1] };
                        let mut rb = kb[..end].to_vec();
                        rb.push(ROLLUP_KEY);
                        let g = groups.entry(rb).or_insert_with(|| {
                            let mut ks = keys[..level].to_vec();
                            ks.resize(keys.len(), Value::Null);
                            new_group(ks)
                        });
                        update(g, cx)?;
                    }
                }
                update(groups.entry(kb).or_insert_with(|| new_group(keys)), cx)?;
                Ok(Flow::Continue)
            })?;
            if let Some(g) = single {
                groups.insert(Vec::new(), g);
            }
            if groups.is_empty() && agg.keys.is_empty() {
                groups.insert(
                    Vec::new(),
                    Group {
                        keys: Vec::new(),
                        states: agg.aggs.iter().map(agg_init).collect(),
                        distinct: vec![None; agg.aggs.len()],
                    },
                );
            }
            for (_, g) in groups {
                let mut vals = g.keys;
                for (spec, st) in agg.aggs.iter().zip(&g.states) {
                    vals.push(agg_final(spec, st));
                }
                let t: Vec<Row> = vec![Arc::from(vals)];
                if !cx.test(&plan.having, &t)? {
                    continue;
                }
                let keys = sort_keys(&t, cx)?;
                let row = project(&t, cx)?;
                if out((keys, row), cx)? == Flow::Stop {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Run a subquery's plan and collect its rows. A correlated one sees `rows` (the enclosing
/// block's current row) through `Expr::OuterCol`.
fn run_subquery(sq: &SubqueryExpr, rows: &[Row], env: &mut Env) -> Result<Vec<Vec<Value>>> {
    let view = env.ctx.stmt_view;
    let mut sink = VecSink::default();
    if sq.correlated {
        env.ctx.outer_rows.push(rows.to_vec());
    }
    let r = {
        let mut cx = ExecCx {
            env: Env {
                params: env.params,
                ctx: env.ctx,
            },
            txn: None,
            view,
            rows_examined: 0,
        };
        run_select(&sq.plan, &mut cx, &mut sink)
    };
    if sq.correlated {
        env.ctx.outer_rows.pop();
    }
    match r {
        Ok(_) => Ok(sink.rows),
        Err(ExecError::Sql(e)) => Err(e),
        Err(ExecError::Wait(_)) => Err(MyError::internal("subquery needed a lock")),
    }
}

/// Evaluate a scalar or EXISTS subquery (uncorrelated: once per statement).
pub fn eval_subquery(sq: &Arc<SubqueryExpr>, rows: &[Row], env: &mut Env) -> Result<Value> {
    let key = Arc::as_ptr(sq) as usize;
    if !sq.correlated
        && let Some(v) = env.ctx.subquery_cache.get(&key)
    {
        return Ok(v.clone());
    }
    let result = run_subquery(sq, rows, env)?;
    let v = match sq.kind {
        SubqueryKind::Exists => Value::bool(!result.is_empty()),
        SubqueryKind::Scalar | SubqueryKind::In => {
            if result.len() > 1 {
                return Err(MyError::new(
                    code::ER_SUBQUERY_NO_1_ROW,
                    "Subquery returns more than 1 row",
                ));
            }
            result
                .into_iter()
                .next()
                .and_then(|r| r.into_iter().next())
                .unwrap_or(Value::Null)
        }
    };
    if !sq.correlated {
        env.ctx.subquery_cache.insert(key, v.clone());
    }
    Ok(v)
}

/// The rows of a subquery one after another, for `IN`, `ANY`, `ALL` and row comparisons
/// (uncorrelated: once per statement).
pub fn subquery_values(
    sq: &Arc<SubqueryExpr>,
    rows: &[Row],
    env: &mut Env,
) -> Result<Arc<[Value]>> {
    let key = Arc::as_ptr(sq) as usize;
    if !sq.correlated
        && let Some(v) = env.ctx.subquery_sets.get(&key)
    {
        return Ok(v.clone());
    }
    let result = run_subquery(sq, rows, env)?;
    let set: Arc<[Value]> = result.into_iter().flatten().collect();
    if !sq.correlated {
        env.ctx.subquery_sets.insert(key, set.clone());
    }
    Ok(set)
}
