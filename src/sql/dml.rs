//! Executing INSERT, REPLACE, UPDATE and DELETE.
//!
//! Writes run inside a transaction (the session's, or one opened for this statement). Rows to
//! change are found with locking reads (latest committed version, then lock, then re-check),
//! *collected first* and changed afterwards, so that a statement never sees its own changes
//! while scanning (no Halloween problem: `UPDATE t SET id = id + 1` visits each row once).
//!
//! Values are converted to the column types with MySQL's rules ([`convert::store`]); in strict
//! mode (STRICT_TRANS_TABLES, the default) a bad value is an error, otherwise a warning.
//! `INSERT IGNORE` turns duplicate-key and conversion errors into warnings.

use super::compare;
use super::convert;
use super::exec::{
    ExecCx, ExecError, Flow, XResult, duplicate_error, lock_and_read, storage_err, walk,
};
use super::plan::*;
use super::types::SqlType;
use super::value::{DateTime, Row, Value};
use crate::error::{MyError, Result, code};
use crate::session::sql_mode;
use crate::storage::StorageError;
use crate::storage::lock::LockMode;
use crate::storage::schema::{ColumnDef, ColumnDefault};
use crate::storage::table::Table;
use crate::storage::txn::Txn;
use std::cmp::Ordering;
use std::sync::Arc;

/// Result of a write statement, for the OK packet.
#[derive(Debug, Default, Clone)]
pub struct WriteResult {
    pub affected: u64,
    /// `LAST_INSERT_ID()` after the statement (first generated AUTO_INCREMENT value).
    pub generated_id: Option<u64>,
    /// What the OK packet reports as insert id (also explicit AUTO_INCREMENT values).
    pub insert_id: u64,
    pub info: Option<String>,
}

/// The value a column gets when an INSERT does not mention it (or says DEFAULT).
fn default_value(col: &ColumnDef, now: DateTime, strict: bool, cx: &mut ExecCx) -> Result<Value> {
    Ok(match &col.default {
        ColumnDefault::Value(v) => v.clone(),
        ColumnDefault::Null => Value::Null,
        ColumnDefault::CurrentTimestamp(fsp) => {
            let mut t = now;
            let unit = 10u32.pow(6 - (*fsp).min(6) as u32);
            t.micro = t.micro / unit * unit;
            if col.ty == SqlType::Date {
                Value::Date(t.date_part())
            } else {
                Value::DateTime(t)
            }
        }
        ColumnDefault::None => {
            if col.auto_increment {
                Value::Null
            } else if strict {
                return Err(MyError::new(
                    code::ER_NO_DEFAULT_FOR_FIELD,
                    format!("Field '{}' doesn't have a default value", col.name),
                ));
            } else {
                cx.env.ctx.diag.warn(
                    code::ER_NO_DEFAULT_FOR_FIELD,
                    format!("Field '{}' doesn't have a default value", col.name),
                );
                implicit_default(&col.ty)
            }
        }
    })
}

/// MySQL's implicit default of a type (what a NOT NULL column gets in non-strict mode).
pub fn implicit_default(ty: &SqlType) -> Value {
    match ty {
        t if t.is_integer() => {
            if t.is_unsigned() {
                Value::UInt(0)
            } else {
                Value::Int(0)
            }
        }
        SqlType::Decimal { scale, .. } => {
            Value::decimal(bigdecimal::BigDecimal::from(0).with_scale(*scale as i64))
        }
        SqlType::Float { .. } => Value::Float(0.0),
        SqlType::Double { .. } => Value::Double(0.0),
        SqlType::Date => Value::Date(DateTime::ZERO),
        SqlType::DateTime { .. } | SqlType::Timestamp { .. } => Value::DateTime(DateTime::ZERO),
        SqlType::Time { .. } => Value::Time(Default::default()),
        SqlType::Enum { values, .. } => values
            .first()
            .map(|v| Value::str(v))
            .unwrap_or_else(|| Value::str("")),
        SqlType::Binary { len } => Value::from_vec(vec![0; *len as usize]),
        _ => Value::str(""),
    }
}

/// Evaluates a value an INSERT or UPDATE writes. With ERROR_FOR_DIVISION_BY_ZERO in strict
/// mode (and no IGNORE) a division by zero is the statement's error 1365, as in MySQL,
/// rather than the NULL and warning it is elsewhere.
fn eval_written(
    e: &super::expr::Expr,
    tuple: &[Row],
    strict: bool,
    cx: &mut ExecCx,
) -> Result<Value> {
    let before = cx.env.ctx.diag.list.len();
    let v = cx.eval(e, tuple)?;
    let ctx = &cx.env.ctx;
    if strict
        && ctx.sql_mode & sql_mode::ERROR_FOR_DIVISION_BY_ZERO != 0
        && ctx.diag.list[before..]
            .iter()
            .any(|w| w.code == code::ER_DIVISION_BY_ZERO)
    {
        return Err(MyError::new(code::ER_DIVISION_BY_ZERO, "Division by 0"));
    }
    Ok(v)
}

/// A TIMESTAMP column's value: the session-local `local` as UTC (see `temporal::Zone`),
/// within 1970-01-01 00:00:01 – 2038-01-19 03:14:07 UTC: beyond, strict mode's error 1292,
/// else the zero value and warning 1264.
fn timestamp_to_utc(
    local: DateTime,
    col: &ColumnDef,
    row_no: u64,
    strict: bool,
    cx: &mut ExecCx,
) -> Result<Value> {
    use super::temporal::{TIMESTAMP_MAX_UTC, TIMESTAMP_MIN_UTC};
    if local.is_zero() {
        return Ok(Value::DateTime(local));
    }
    if let Some(utc) = cx.env.ctx.zone().to_utc(&local)
        && (TIMESTAMP_MIN_UTC..=TIMESTAMP_MAX_UTC).contains(&utc)
    {
        return Ok(Value::DateTime(utc));
    }
    if strict {
        let mut text = Vec::new();
        super::temporal::write_datetime(&local, if local.micro != 0 { 6 } else { 0 }, &mut text);
        return Err(MyError::new(
            code::ER_TRUNCATED_WRONG_VALUE,
            format!(
                "Incorrect datetime value: '{}' for column '{}' at row {row_no}",
                String::from_utf8_lossy(&text),
                col.name
            ),
        ));
    }
    cx.env.ctx.diag.warn(
        code::ER_WARN_DATA_OUT_OF_RANGE,
        format!(
            "Out of range value for column '{}' at row {row_no}",
            col.name
        ),
    );
    Ok(Value::DateTime(DateTime::ZERO))
}

/// Convert and check one value for column `col` (row number `row_no` for messages).
fn store_value(
    v: Value,
    col: &ColumnDef,
    row_no: u64,
    strict: bool,
    single_row: bool,
    cx: &mut ExecCx,
) -> Result<Value> {
    let original = matches!(
        col.ty,
        SqlType::Date | SqlType::DateTime { .. } | SqlType::Timestamp { .. }
    )
    .then(|| v.clone());
    let mut v = convert::store(v, &col.ty, &col.name, row_no, strict, &mut cx.env.ctx.diag)?;
    if let (Some(orig), Value::Date(d) | Value::DateTime(d)) = (original, &v) {
        // sql_mode NO_ZERO_DATE / NO_ZERO_IN_DATE: an error in strict mode, else the zero
        // date with a warning.
        let mode = cx.env.ctx.sql_mode;
        let all_zero = d.year == 0 && d.month == 0 && d.day == 0;
        let bad = if all_zero {
            mode & sql_mode::NO_ZERO_DATE != 0 && !orig.is_null()
        } else {
            mode & sql_mode::NO_ZERO_IN_DATE != 0 && (d.month == 0 || d.day == 0)
        };
        if bad {
            let kind = if matches!(col.ty, SqlType::Date) {
                "date"
            } else {
                "datetime"
            };
            let mut text = Vec::new();
            convert::to_text(&orig, &SqlType::varchar(64), &mut text);
            let msg = format!(
                "Incorrect {kind} value: '{}' for column '{}' at row {row_no}",
                String::from_utf8_lossy(&text),
                col.name
            );
            if strict {
                return Err(MyError::new(code::ER_TRUNCATED_WRONG_VALUE, msg));
            }
            cx.env.ctx.diag.warn(code::ER_TRUNCATED_WRONG_VALUE, msg);
            v = if matches!(col.ty, SqlType::Date) {
                Value::Date(DateTime::ZERO)
            } else {
                Value::DateTime(DateTime::ZERO)
            };
        }
    }
    if let (SqlType::Timestamp { .. }, Value::DateTime(local)) = (&col.ty, &v) {
        v = timestamp_to_utc(*local, col, row_no, strict, cx)?;
    }
    if v.is_null() && !col.nullable {
        if strict || single_row {
            return Err(MyError::new(
                code::ER_BAD_NULL_ERROR,
                format!("Column '{}' cannot be null", col.name),
            ));
        }
        cx.env.ctx.diag.warn(
            code::ER_BAD_NULL_ERROR,
            format!("Column '{}' cannot be null", col.name),
        );
        return Ok(implicit_default(&col.ty));
    }
    Ok(v)
}

fn txn<'a>(cx: &'a mut ExecCx) -> Result<&'a mut Txn> {
    cx.txn
        .as_deref_mut()
        .ok_or_else(|| MyError::internal("write without a transaction"))
}

/// Are two stored values the same bytes (for "Changed" counts: 'a' → 'A' is a change)?
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Bytes(_), _) | (_, Value::Bytes(_)) => false,
        _ => compare::compare(a, b, super::types::Collation::Binary) == Some(Ordering::Equal),
    }
}

fn rows_identical(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| identical(x, y))
}

pub fn run_insert(plan: &InsertPlan, cx: &mut ExecCx) -> XResult<WriteResult> {
    let table = &plan.table;
    let def = &table.def;
    let strict = cx.env.ctx.strict() && !plan.ignore;
    let now = cx.env.ctx.stmt_time();
    let auto_col = def.auto_increment_column();
    let no_auto_on_zero = cx.env.ctx.no_auto_value_on_zero();
    let source_rows: Vec<Vec<Value>> = match &plan.source {
        InsertSource::Values(rows) => {
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                let mut vals = Vec::with_capacity(r.len());
                for (i, iv) in r.iter().enumerate() {
                    vals.push(match iv {
                        InsertValue::Expr(e) => eval_written(e, &[], strict, cx)?,
                        InsertValue::Default => {
                            default_value(&def.columns[plan.columns[i]], now, strict, cx)?
                        }
                    });
                }
                out.push(vals);
            }
            out
        }
        InsertSource::Select(p) => {
            let mut sink = super::exec::VecSink::default();
            // The SELECT part reads without locks (it is a consistent read of its own).
            super::exec::run_select(p, cx, &mut sink)?;
            sink.rows
        }
    };
    // NULL into a NOT NULL column is an error even outside strict mode for a single-row
    // VALUES (as MySQL); IGNORE and multi-row forms store the implicit default with a warning.
    let single_row =
        source_rows.len() == 1 && matches!(plan.source, InsertSource::Values(_)) && !plan.ignore;
    let source_count = source_rows.len() as u64;
    let mut res = WriteResult::default();
    let mut dups = 0u64;
    for (n, vals) in source_rows.into_iter().enumerate() {
        let row_no = n as u64 + 1;
        let mut row: Vec<Value> = vec![Value::Null; def.columns.len()];
        let mut given = vec![false; def.columns.len()];
        for (i, v) in vals.into_iter().enumerate() {
            row[plan.columns[i]] = v;
            given[plan.columns[i]] = true;
        }
        for (ci, col) in def.columns.iter().enumerate() {
            if !given[ci] {
                row[ci] = default_value(col, now, strict, cx)?;
            }
        }
        // AUTO_INCREMENT: NULL (or 0) generates the next value.
        if let Some(ac) = auto_col {
            let v = std::mem::take(&mut row[ac]);
            let is_zero = matches!(v, Value::Int(0) | Value::UInt(0)) && !no_auto_on_zero;
            if v.is_null() || is_zero {
                let id = table.next_auto_inc(1);
                if res.generated_id.is_none() {
                    res.generated_id = Some(id);
                }
                res.insert_id = res.generated_id.unwrap_or(id);
                row[ac] = Value::UInt(id);
            } else {
                let stored = store_value(v, &def.columns[ac], row_no, strict, single_row, cx)?;
                let mut d = crate::error::Diagnostics::default();
                if let Some(u) = convert::to_u64(&stored, &mut d)
                    && !matches!(stored, Value::Int(i) if i < 0)
                {
                    table.observe_auto_inc(u);
                    if res.generated_id.is_none() {
                        res.insert_id = u;
                    }
                }
                row[ac] = stored;
            }
        }
        for (ci, col) in def.columns.iter().enumerate() {
            if Some(ci) == auto_col {
                row[ci] = store_value(
                    std::mem::take(&mut row[ci]),
                    col,
                    row_no,
                    strict,
                    single_row,
                    cx,
                )?;
                continue;
            }
            row[ci] = store_value(
                std::mem::take(&mut row[ci]),
                col,
                row_no,
                strict,
                single_row,
                cx,
            )?;
        }
        let row: Row = Arc::from(row);
        view_checks(&plan.checks, &row, cx)?;
        insert_one(plan, table, row, cx, &mut res, &mut dups)?;
    }
    // MySQL reports the counts for multi-row and INSERT … SELECT statements only.
    let n = match &plan.source {
        InsertSource::Values(r) => r.len() as u64,
        InsertSource::Select(_) => source_count,
    };
    if !matches!(plan.source, InsertSource::Values(ref r) if r.len() == 1) {
        res.info = Some(format!(
            "Records: {n}  Duplicates: {dups}  Warnings: {}",
            cx.env.ctx.diag.warning_count()
        ));
    }
    Ok(res)
}

/// WITH CHECK OPTION: the row written through a view must be one the view shows (1369).
fn view_checks(checks: &[(super::expr::Expr, String)], row: &Row, cx: &mut ExecCx) -> Result<()> {
    for (e, view) in checks {
        if e.eval_bool(std::slice::from_ref(row), &mut cx.env)? != Some(true) {
            return Err(MyError::new(
                crate::error::code::ER_VIEW_CHECK_FAILED,
                format!("CHECK OPTION failed '{view}'"),
            ));
        }
    }
    Ok(())
}

/// Bound on REPLACE's delete-and-retry loop (one per unique index, plus slack).
const REPLACE_ATTEMPTS_MAX: usize = 64;

fn insert_one(
    plan: &InsertPlan,
    table: &Arc<Table>,
    row: Row,
    cx: &mut ExecCx,
    res: &mut WriteResult,
    dups: &mut u64,
) -> XResult<()> {
    let mut attempts = 0;
    let mut replaced = false;
    loop {
        attempts += 1;
        let mark = txn(cx)?.writes.len();
        let r = table.insert(txn(cx)?, row.clone());
        if r.is_err() {
            // A duplicate on a secondary index is found after the primary entry went in:
            // take this row's partial insert back before IGNORE/ODKU/REPLACE go on.
            undo_row(cx, mark);
        }
        match r {
            Ok(_) => {
                if let Err(e) = super::fk::check_parents(cx, table, &row, None) {
                    return row_ignored(e, plan.ignore, mark, cx);
                }
                res.affected += 1;
                return Ok(());
            }
            Err(StorageError::Duplicate {
                table: tname,
                index_name,
                key,
                existing,
                ..
            }) => {
                if plan.replace && attempts < REPLACE_ATTEMPTS_MAX {
                    let t = txn(cx)?;
                    if !table
                        .lock(t, &existing, LockMode::Exclusive)
                        .map_err(storage_err)?
                    {
                        continue;
                    }
                    if let Some(old) = table.delete(t, &existing).map_err(storage_err)? {
                        super::fk::after_delete(cx, table, &old)?;
                        res.affected += 1;
                        if !replaced {
                            replaced = true;
                            *dups += 1;
                        }
                    }
                    continue;
                }
                if !plan.on_dup.is_empty() {
                    *dups += 1;
                    return on_duplicate_update(plan, table, &existing, &row, cx, res);
                }
                if plan.ignore {
                    *dups += 1;
                    let e = duplicate_error(&tname, &index_name, &key);
                    cx.env.ctx.diag.warn(e.code, e.message);
                    return Ok(());
                }
                return Err(ExecError::Sql(duplicate_error(&tname, &index_name, &key)));
            }
            Err(e) => return Err(storage_err(e)),
        }
    }
}

/// A foreign key violation of one row, or (UPDATE) a unique key its new values would take:
/// with IGNORE a warning, the row's changes (and their cascades) taken back; otherwise the
/// statement's error.
fn row_ignored(e: ExecError, ignore: bool, mark: usize, cx: &mut ExecCx) -> XResult<()> {
    fn taken_key(e: &ExecError) -> Option<&MyError> {
        match e {
            ExecError::Sql(m) if m.code == code::ER_DUP_ENTRY => Some(m),
            _ => None,
        }
    }
    match super::fk::is_violation(&e).or_else(|| taken_key(&e)) {
        Some(m) if ignore => {
            let (code, message) = (m.code, m.message.clone());
            undo_row(cx, mark);
            cx.env.ctx.diag.warn(code, message);
            Ok(())
        }
        _ => Err(e),
    }
}

/// Undo this statement's changes after write number `mark` (a row-level savepoint).
fn undo_row(cx: &mut ExecCx, mark: usize) {
    let server = cx.env.ctx.server.clone();
    if let Some(t) = cx.txn.as_deref_mut() {
        server.storage.rollback_to(t, mark);
    }
}

fn on_duplicate_update(
    plan: &InsertPlan,
    table: &Arc<Table>,
    existing: &Arc<crate::storage::row::RowSlot>,
    new_row: &Row,
    cx: &mut ExecCx,
    res: &mut WriteResult,
) -> XResult<()> {
    let me = cx.view.me;
    let locked = table
        .lock(txn(cx)?, existing, LockMode::Exclusive)
        .map_err(storage_err)?;
    let Some(old) = (if locked {
        table.read_latest(existing, me)
    } else {
        None
    }) else {
        return Err(ExecError::Wait(super::exec::Wait::Retry));
    };
    let strict = cx.env.ctx.strict() && !plan.ignore;
    let mut updated: Vec<Value> = old.to_vec();
    for (ci, e) in &plan.on_dup {
        let tuple: Vec<Row> = vec![Arc::from(updated.clone()), new_row.clone()];
        let v = eval_written(e, &tuple, strict, cx)?;
        updated[*ci] = store_value(v, &table.def.columns[*ci], 1, strict, true, cx)?;
    }
    if rows_identical(&old, &updated) {
        if cx.env.ctx.client_found_rows {
            res.affected += 1;
        }
        return Ok(());
    }
    touch_on_update(table, &old, &mut updated, &[], cx);
    if let Some(ac) = table.def.auto_increment_column() {
        let mut d = crate::error::Diagnostics::default();
        if let Some(u) = convert::to_u64(&updated[ac], &mut d) {
            res.insert_id = u;
        }
    }
    let mark = txn(cx)?.writes.len();
    table
        .update(txn(cx)?, existing, Arc::from(updated.clone()))
        .map_err(storage_err)?;
    if let Err(e) = fk_after_update(cx, table, &old, &updated) {
        return row_ignored(e, plan.ignore, mark, cx);
    }
    res.affected += 2;
    Ok(())
}

/// ON UPDATE CURRENT_TIMESTAMP columns not assigned explicitly get the statement time when
/// the row changes.
fn touch_on_update(
    table: &Table,
    old: &[Value],
    new: &mut [Value],
    assigned: &[usize],
    cx: &mut ExecCx,
) {
    if !table.def.columns.iter().any(|c| c.on_update_now) || rows_identical(old, new) {
        return;
    }
    let now = cx.env.ctx.stmt_time();
    let zone = cx.env.ctx.zone();
    for (ci, c) in table.def.columns.iter().enumerate() {
        if c.on_update_now && !assigned.contains(&ci) {
            new[ci] = Value::DateTime(match c.ty {
                SqlType::Timestamp { .. } => zone.to_utc(&now).unwrap_or(now),
                _ => now,
            });
        }
    }
}

/// A row found for an UPDATE or DELETE: its slot, the key of the index entry it was found
/// through (checked again once the row is locked), and the row as read.
type Found = (
    Arc<crate::storage::row::RowSlot>,
    Option<crate::storage::table::Key>,
    Row,
);

/// Rows matching a single-table WHERE, found with a non-locking look at the latest versions
/// (locks are taken afterwards, row by row, with a re-check).
fn find_rows(
    table: &Arc<Table>,
    access: &Access,
    filter: &Option<super::expr::Expr>,
    cx: &mut ExecCx,
) -> XResult<Vec<Found>> {
    let me = cx.view.me;
    let secondary = match access {
        Access::Index {
            index: IndexRef::Secondary(i),
            ..
        } => Some(*i),
        _ => None,
    };
    let mut scratch = Vec::new();
    let mut out = Vec::new();
    let mut visit = |slot: &Arc<crate::storage::row::RowSlot>,
                     key: Option<&[u8]>,
                     _: &mut Vec<Row>,
                     cx: &mut ExecCx|
     -> XResult<Flow> {
        let Some(row) = table.read_latest(slot, me) else {
            return Ok(Flow::Continue);
        };
        if let (Some(k), Some(i)) = (key, secondary)
            && !table.entry_matches(i, k, &row, slot, &mut scratch)
        {
            return Ok(Flow::Continue);
        }
        let tuple = [row.clone()];
        if cx.test(filter, &tuple)? {
            out.push((slot.clone(), key.map(Into::into), row));
        }
        Ok(Flow::Continue)
    };
    walk(table, access, &mut Vec::new(), cx, &mut visit)?;
    Ok(out)
}

fn sort_rows(rows: &mut [Found], order: &[SortKey], cx: &mut ExecCx) -> Result<()> {
    if order.is_empty() {
        return Ok(());
    }
    let mut keyed: Vec<(Vec<Value>, usize)> = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        let tuple = [r.2.clone()];
        keyed.push((
            order
                .iter()
                .map(|k| cx.eval(&k.expr, &tuple))
                .collect::<Result<_>>()?,
            i,
        ));
    }
    keyed.sort_by(|a, b| {
        for (i, k) in order.iter().enumerate() {
            let o = compare::sort_cmp(&a.0[i], &b.0[i], k.coll);
            let o = if k.desc { o.reverse() } else { o };
            if o != Ordering::Equal {
                return o;
            }
        }
        Ordering::Equal
    });
    let perm: Vec<usize> = keyed.into_iter().map(|(_, i)| i).collect();
    let orig = rows.to_vec();
    for (dst, src) in perm.into_iter().enumerate() {
        rows[dst] = orig[src].clone();
    }
    Ok(())
}

fn limit_of(e: &Option<super::expr::Expr>, cx: &mut ExecCx) -> Result<Option<u64>> {
    let Some(e) = e else { return Ok(None) };
    match cx.eval(e, &[])? {
        Value::Int(i) if i >= 0 => Ok(Some(i as u64)),
        Value::UInt(u) => Ok(Some(u)),
        _ => Err(MyError::new(
            code::ER_WRONG_ARGUMENTS,
            "Incorrect arguments to LIMIT",
        )),
    }
}

pub fn run_update(plan: &UpdatePlan, cx: &mut ExecCx) -> XResult<WriteResult> {
    let table = &plan.table;
    let strict = cx.env.ctx.strict() && !plan.ignore;
    let mut rows = find_rows(table, &plan.access, &plan.filter, cx)?;
    sort_rows(&mut rows, &plan.order, cx)?;
    let limit = limit_of(&plan.limit, cx)?;
    let secondary = match &plan.access {
        Access::Index {
            index: IndexRef::Secondary(i),
            ..
        } => Some(*i),
        _ => None,
    };
    let assigned: Vec<usize> = plan.assignments.iter().map(|(c, _)| *c).collect();
    let (mut matched, mut changed) = (0u64, 0u64);
    for (slot, key, _) in rows {
        if limit.is_some_and(|l| matched >= l) {
            break;
        }
        let filter = &plan.filter;
        let mut check = |row: &Row, cx: &mut ExecCx| cx.test(filter, std::slice::from_ref(row));
        let Some(row) = lock_and_read(
            table,
            &slot,
            secondary.zip(key.as_deref()),
            LockMode::Exclusive,
            None,
            &mut check,
            cx,
        )?
        else {
            continue;
        };
        matched += 1;
        let mut tuple = [row.clone()];
        let new = assign(table, &plan.assignments, &mut tuple, 0, matched, strict, cx)?;
        if !plan.checks.is_empty() {
            view_checks(&plan.checks, &Arc::from(new.clone()), cx)?;
        }
        let mark = txn(cx)?.writes.len();
        match change_row(table, &slot, &row, new, &assigned, cx) {
            Ok(true) => changed += 1,
            Ok(false) => {}
            Err(e) => row_ignored(e, plan.ignore, mark, cx)?,
        }
    }
    Ok(update_result(matched, changed, cx))
}

/// The new values of the row `tuple[at]` under `assignments`, each assignment seeing the
/// values of the ones before it (as MySQL): expressions are evaluated in `tuple`, whose
/// entry `at` is the row as read until an assignment has stored a value, a copy of the new
/// values after that. `row_no` numbers the row for warnings.
fn assign(
    table: &Table,
    assignments: &[(usize, InsertValue)],
    tuple: &mut [Row],
    at: usize,
    row_no: u64,
    strict: bool,
    cx: &mut ExecCx,
) -> Result<Vec<Value>> {
    let mut new: Vec<Value> = tuple[at].to_vec();
    let mut fresh = true;
    for (ci, v) in assignments {
        let col = &table.def.columns[*ci];
        let value = match v {
            InsertValue::Expr(e) => {
                if !fresh {
                    tuple[at] = Arc::from(new.clone());
                }
                eval_written(e, tuple, strict, cx)?
            }
            InsertValue::Default => default_value(col, cx.env.ctx.stmt_time(), strict, cx)?,
        };
        new[*ci] = store_value(value, col, row_no, strict, true, cx)?;
        fresh = false;
    }
    Ok(new)
}

/// Store `new` over `row` unless nothing changed (ON UPDATE columns are touched first).
/// Whether it changed.
fn change_row(
    table: &Arc<Table>,
    slot: &Arc<crate::storage::row::RowSlot>,
    row: &Row,
    mut new: Vec<Value>,
    assigned: &[usize],
    cx: &mut ExecCx,
) -> XResult<bool> {
    if rows_identical(row, &new) {
        return Ok(false);
    }
    touch_on_update(table, row, &mut new, assigned, cx);
    table
        .update(txn(cx)?, slot, Arc::from(new.clone()))
        .map_err(storage_err)?;
    fk_after_update(cx, table, row, &new)?;
    Ok(true)
}

/// Foreign keys after a row of `table` changed from `old` to `new`: its own keys (the
/// parents must exist) and the keys that reference it (the children follow).
fn fk_after_update(
    cx: &mut ExecCx,
    table: &Arc<Table>,
    old: &[Value],
    new: &[Value],
) -> XResult<()> {
    super::fk::after_update(cx, table, old, new)?;
    super::fk::check_parents(cx, table, new, Some(old))
}

/// An UPDATE's OK: affected rows (changed, or matched with CLIENT_FOUND_ROWS) and the info.
fn update_result(matched: u64, changed: u64, cx: &mut ExecCx) -> WriteResult {
    let warnings = cx.env.ctx.diag.warning_count();
    let affected = if cx.env.ctx.client_found_rows {
        matched
    } else {
        changed
    };
    WriteResult {
        affected,
        generated_id: None,
        insert_id: 0,
        info: Some(update_info(matched, changed, u64::from(warnings))),
    }
}

/// An UPDATE's info text, as MySQL words it (`mysql_info()`), without `fmt`: it is in every
/// UPDATE's OK, and `format!` took about 1,000 instructions for it (callgrind).
pub(crate) fn update_info(matched: u64, changed: u64, warnings: u64) -> String {
    let mut s = String::with_capacity(48);
    let mut n = itoa::Buffer::new();
    s.push_str("Rows matched: ");
    s.push_str(n.format(matched));
    s.push_str("  Changed: ");
    s.push_str(n.format(changed));
    s.push_str("  Warnings: ");
    s.push_str(n.format(warnings));
    s
}

pub fn run_delete(plan: &DeletePlan, cx: &mut ExecCx) -> XResult<WriteResult> {
    let table = &plan.table;
    let mut rows = find_rows(table, &plan.access, &plan.filter, cx)?;
    sort_rows(&mut rows, &plan.order, cx)?;
    let limit = limit_of(&plan.limit, cx)?;
    let secondary = match &plan.access {
        Access::Index {
            index: IndexRef::Secondary(i),
            ..
        } => Some(*i),
        _ => None,
    };
    let mut deleted = 0u64;
    for (slot, key, _) in rows {
        if limit.is_some_and(|l| deleted >= l) {
            break;
        }
        let filter = &plan.filter;
        let mut check = |row: &Row, cx: &mut ExecCx| cx.test(filter, std::slice::from_ref(row));
        if lock_and_read(
            table,
            &slot,
            secondary.zip(key.as_deref()),
            LockMode::Exclusive,
            None,
            &mut check,
            cx,
        )?
        .is_none()
        {
            continue;
        }
        let mark = txn(cx)?.writes.len();
        if let Some(old) = table.delete(txn(cx)?, &slot).map_err(storage_err)? {
            match super::fk::after_delete(cx, table, &old) {
                Ok(()) => deleted += 1,
                Err(e) => row_ignored(e, plan.ignore, mark, cx)?,
            }
        }
    }
    Ok(WriteResult {
        affected: deleted,
        ..Default::default()
    })
}

/// The slot holding `row` as a locking read of `table` returned it: found by primary key,
/// or (tables without one) by the identity of the row version, over a map built once.
fn slot_of(
    table: &Table,
    row: &Row,
    me: u64,
    by_version: &mut Option<ahash::AHashMap<usize, Arc<crate::storage::row::RowSlot>>>,
) -> Option<Arc<crate::storage::row::RowSlot>> {
    if let Some(k) = table.primary_key(row) {
        return table.get(&k);
    }
    let map = by_version.get_or_insert_with(|| {
        use std::ops::Bound::Unbounded;
        table
            .scan_primary(Unbounded, Unbounded, false)
            .filter_map(|s| {
                let r = table.read_latest(&s, me)?;
                Some((Arc::as_ptr(&r) as *const Value as usize, s))
            })
            .collect()
    });
    map.get(&(Arc::as_ptr(row) as *const Value as usize))
        .cloned()
}

/// A multi-table UPDATE or DELETE: the join is read with exclusive locks and every matched
/// row of each target collected (once, with the first join row that matched it); then the
/// changes are made, so the join never sees them.
pub fn run_multi(plan: &MultiWritePlan, cx: &mut ExecCx) -> XResult<WriteResult> {
    type Hit = (Arc<crate::storage::row::RowSlot>, Vec<Row>);
    let me = cx.view.me;
    let mut hits: Vec<Vec<Hit>> = plan.targets.iter().map(|_| Vec::new()).collect();
    let mut seen: Vec<ahash::AHashSet<usize>> =
        plan.targets.iter().map(|_| Default::default()).collect();
    let mut by_version = plan.targets.iter().map(|_| None).collect::<Vec<_>>();
    super::exec::for_each_tuple(&plan.select, cx, &mut |tuple, is_null, _cx| {
        for (ti, t) in plan.targets.iter().enumerate() {
            if is_null(t.source) {
                continue;
            }
            let Some(slot) = slot_of(&t.table, &tuple[t.source], me, &mut by_version[ti]) else {
                continue;
            };
            if seen[ti].insert(Arc::as_ptr(&slot) as usize) {
                // A DELETE needs only the row; an UPDATE evaluates its values in the tuple.
                let tuple = if plan.delete {
                    Vec::new()
                } else {
                    tuple.to_vec()
                };
                hits[ti].push((slot, tuple));
            }
        }
        Ok(())
    })?;
    if plan.delete {
        let mut deleted = 0u64;
        for (t, rows) in plan.targets.iter().zip(hits) {
            for (slot, _) in rows {
                if let Some(old) = t.table.delete(txn(cx)?, &slot).map_err(storage_err)? {
                    super::fk::after_delete(cx, &t.table, &old)?;
                    deleted += 1;
                }
            }
        }
        return Ok(WriteResult {
            affected: deleted,
            ..Default::default()
        });
    }
    let strict = cx.env.ctx.strict() && !plan.ignore;
    let (mut matched, mut changed) = (0u64, 0u64);
    for (t, rows) in plan.targets.iter().zip(hits) {
        let table = &t.table;
        let assigned: Vec<usize> = t.assignments.iter().map(|(c, _)| *c).collect();
        for (slot, mut tuple) in rows {
            // Read again: an earlier target of this statement may have changed the row.
            let Some(row) = table.read_latest(&slot, me) else {
                continue;
            };
            matched += 1;
            tuple[t.source] = row.clone();
            let new = assign(
                table,
                &t.assignments,
                &mut tuple,
                t.source,
                matched,
                strict,
                cx,
            )?;
            let mark = txn(cx)?.writes.len();
            match change_row(table, &slot, &row, new, &assigned, cx) {
                Ok(true) => changed += 1,
                Ok(false) => {}
                Err(e) => row_ignored(e, plan.ignore, mark, cx)?,
            }
        }
    }
    Ok(update_result(matched, changed, cx))
}
