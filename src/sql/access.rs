//! Access paths: which index a table is read through, and which key ranges.
//!
//! From the conjuncts of a WHERE (and ON) clause the planner extracts, per column of the
//! table, the predicates an index can serve: `col = v`, `col IN (…)`, `col BETWEEN a AND b`,
//! `col < v` (and friends), and ORs of those on one column (`k BETWEEN … OR k BETWEEN …`). The
//! values must be computable before the table is read: constants, parameters, or columns of
//! tables earlier in the join order.
//!
//! Each index is scored by the rows it is expected to read: an equality on every column of a
//! unique index is one row; an equality on a prefix reads the index statistics' rows per
//! distinct prefix (`storage::stats`); a range on the next column keeps a twentieth of that
//! (no histograms). The cheapest wins; a full scan costs the table's row count.
//!
//! The same estimate, asked with a set of sources already joined instead of "the sources
//! before this one", orders the tables of an inner join (see the planner).
//!
//! Index ranges are a *superset* filter: every conjunct is still checked on the rows read, so
//! a range computed conservatively (a value that does not convert exactly to the column's
//! type widens the range, a value that cannot be compared through the index falls back to
//! scanning the whole index) never changes results, only speed.

use super::expr::{CmpOp, Expr};
use super::plan::{Access, IndexRef, KeyRange};
use crate::storage::schema::IndexDef;
use crate::storage::table::Table;

/// One end of a column's range: its value and whether the range includes it; None when
/// that side is open.
type RangeEnd = Option<(Expr, bool)>;

/// Predicates on one column usable by an index.
#[derive(Clone, Debug, Default)]
struct ColPreds {
    eq: Option<Expr>,
    in_list: Option<Vec<Expr>>,
    lo: RangeEnd,
    hi: RangeEnd,
    /// OR of ranges: each (lo, hi).
    ors: Option<Vec<(RangeEnd, RangeEnd)>>,
}

/// Bound on the number of key ranges an IN-list product may expand to.
const MAX_RANGES: usize = 4096;

/// Is `e` a value computable before reading source `src` (and not itself a column of it)?
fn usable_value(e: &Expr, src: usize) -> bool {
    e.is_key_constant() || (e.max_source().is_some_and(|m| m < src) && !has_side_effects(e))
}

fn has_side_effects(e: &Expr) -> bool {
    let mut se = false;
    e.walk(&mut |x| {
        if matches!(
            x,
            Expr::SetUserVar(..) | Expr::Subquery(_) | Expr::InSubquery { .. }
        ) {
            se = true;
        }
    });
    se
}

fn column_of(e: &Expr, src: usize) -> Option<usize> {
    match e {
        Expr::Col { src: s, col, .. } if *s as usize == src => Some(*col as usize),
        _ => None,
    }
}

/// The comparison's collation must be the column's for an index to order the same way.
fn collation_ok(table: &Table, col: usize, coll: super::types::Collation) -> bool {
    let ty = &table.def.columns[col].ty;
    !ty.is_string() || ty.collation() == coll
}

/// Whether a value expression can be computed before the table is read.
type Avail<'a> = &'a dyn Fn(&Expr) -> bool;

fn range_of(
    e: &Expr,
    src: usize,
    table: &Table,
    avail: Avail,
) -> Option<(usize, RangeEnd, RangeEnd)> {
    match e {
        Expr::Cmp(op, a, b, coll) => {
            let (col, val, op) = if let (Some(c), true) = (column_of(a, src), avail(b)) {
                (c, (**b).clone(), *op)
            } else if let (Some(c), true) = (column_of(b, src), avail(a)) {
                (c, (**a).clone(), op.swap())
            } else {
                return None;
            };
            if !collation_ok(table, col, *coll) {
                return None;
            }
            match op {
                CmpOp::Eq => Some((col, Some((val.clone(), true)), Some((val, true)))),
                CmpOp::Lt => Some((col, None, Some((val, false)))),
                CmpOp::Le => Some((col, None, Some((val, true)))),
                CmpOp::Gt => Some((col, Some((val, false)), None)),
                CmpOp::Ge => Some((col, Some((val, true)), None)),
                _ => None,
            }
        }
        Expr::Between {
            e,
            lo,
            hi,
            negated: false,
            coll,
        } => {
            let col = column_of(e, src)?;
            if !avail(lo) || !avail(hi) || !collation_ok(table, col, *coll) {
                return None;
            }
            Some((
                col,
                Some(((**lo).clone(), true)),
                Some(((**hi).clone(), true)),
            ))
        }
        _ => None,
    }
}

fn analyze(conjuncts: &[&Expr], src: usize, table: &Table, avail: Avail) -> Vec<ColPreds> {
    let mut preds = vec![ColPreds::default(); table.def.columns.len()];
    for c in conjuncts {
        match c {
            Expr::Cmp(CmpOp::Eq, a, b, coll) => {
                let (col, val) = if let (Some(col), true) = (column_of(a, src), avail(b)) {
                    (col, b)
                } else if let (Some(col), true) = (column_of(b, src), avail(a)) {
                    (col, a)
                } else {
                    continue;
                };
                if collation_ok(table, col, *coll) && preds[col].eq.is_none() {
                    preds[col].eq = Some((**val).clone());
                }
            }
            Expr::In {
                e,
                list,
                negated: false,
                coll,
            } => {
                if let Some(col) = column_of(e, src)
                    && list.iter().all(avail)
                    && collation_ok(table, col, *coll)
                    && preds[col].in_list.is_none()
                {
                    preds[col].in_list = Some(list.clone());
                }
            }
            Expr::Or(..) => {
                // Flatten the OR; every branch must be a range on the same column.
                let mut branches = Vec::new();
                flatten_or(c, &mut branches);
                let mut col0 = None;
                let mut ranges = Vec::new();
                let mut ok = true;
                for b in branches {
                    match range_of(b, src, table, avail) {
                        Some((col, lo, hi)) if col0.is_none_or(|c| c == col) => {
                            col0 = Some(col);
                            ranges.push((lo, hi));
                        }
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                }
                if let (true, Some(col)) = (ok, col0)
                    && preds[col].ors.is_none()
                {
                    preds[col].ors = Some(ranges);
                }
            }
            other => {
                if let Some((col, lo, hi)) = range_of(other, src, table, avail) {
                    let p = &mut preds[col];
                    if lo.is_some() && p.lo.is_none() {
                        p.lo = lo;
                    }
                    if hi.is_some() && p.hi.is_none() {
                        p.hi = hi;
                    }
                }
            }
        }
    }
    preds
}

fn flatten_or<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::Or(a, b) => {
            flatten_or(a, out);
            flatten_or(b, out);
        }
        other => out.push(other),
    }
}

/// Split a condition into its top-level AND conjuncts.
pub fn conjuncts(e: Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::And(a, b) => {
            conjuncts(*a, out);
            conjuncts(*b, out);
        }
        other => out.push(other),
    }
}

/// AND the conjuncts back together.
pub fn and_all(mut parts: Vec<Expr>) -> Option<Expr> {
    let first = if parts.is_empty() {
        return None;
    } else {
        parts.remove(0)
    };
    Some(
        parts
            .into_iter()
            .fold(first, |acc, e| Expr::And(Box::new(acc), Box::new(e))),
    )
}

/// Candidate plan for one index.
struct Candidate {
    index: IndexRef,
    ranges: Vec<KeyRange>,
    cost: f64,
}

/// `rec_per_key`: the index's rows per distinct prefix (by prefix length - 1).
fn candidate(
    index: IndexRef,
    def: &IndexDef,
    preds: &[ColPreds],
    rows: f64,
    rec_per_key: &[f64],
) -> Option<Candidate> {
    // Equality / IN prefix.
    let mut prefixes: Vec<Vec<Expr>> = vec![Vec::new()];
    let mut eq_cols = 0;
    let mut points = 1usize;
    let mut pos = 0;
    for ic in &def.columns {
        if ic.prefix.is_some() {
            break;
        }
        let p = &preds[ic.col];
        if let Some(v) = &p.eq {
            for pre in &mut prefixes {
                pre.push(v.clone());
            }
        } else if let Some(list) = &p.in_list {
            if prefixes.len().saturating_mul(list.len()) > MAX_RANGES {
                break;
            }
            points *= list.len().max(1);
            prefixes = prefixes
                .iter()
                .flat_map(|pre| {
                    list.iter().map(move |v| {
                        let mut n = pre.clone();
                        n.push(v.clone());
                        n
                    })
                })
                .collect();
        } else {
            break;
        }
        eq_cols += 1;
        pos += 1;
    }
    // A range on the next column.
    let mut ranges = Vec::new();
    let mut has_range = false;
    if let Some(ic) = def.columns.get(pos).filter(|ic| ic.prefix.is_none()) {
        let p = &preds[ic.col];
        if let Some(ors) = &p.ors {
            if prefixes.len().saturating_mul(ors.len()) <= MAX_RANGES {
                has_range = true;
                for pre in &prefixes {
                    for (lo, hi) in ors {
                        ranges.push(KeyRange {
                            prefix: pre.clone(),
                            lo: lo.clone(),
                            hi: hi.clone(),
                        });
                    }
                }
            }
        } else if p.lo.is_some() || p.hi.is_some() {
            has_range = true;
            for pre in &prefixes {
                ranges.push(KeyRange {
                    prefix: pre.clone(),
                    lo: p.lo.clone(),
                    hi: p.hi.clone(),
                });
            }
        }
    }
    if !has_range {
        if eq_cols == 0 {
            return None;
        }
        ranges = prefixes
            .into_iter()
            .map(|prefix| KeyRange {
                prefix,
                lo: None,
                hi: None,
            })
            .collect();
    }
    let unique_point = def.is_unique() && eq_cols == def.columns.len() && !has_range;
    let read = rows_read(def, rec_per_key, rows, eq_cols, ranges.len(), has_range);
    let mut cost = if unique_point {
        read
    } else {
        read.max(points as f64) + 1.0
    };
    // Prefer the clustered index on ties (no difference in Quire's reads, but stable plans).
    if index != IndexRef::Primary {
        cost *= 1.01;
    }
    Some(Candidate {
        index,
        ranges,
        cost,
    })
}

/// The rows reading `ranges` key ranges of index `def` is expected to give, with `eq_cols`
/// key parts fixed by equality and, if `has_range`, a range on the next: one per range for
/// a unique key given whole; otherwise the statistics' rows per prefix for each (the whole
/// table without equalities), a twentieth of that with a range.
fn rows_read(
    def: &IndexDef,
    rec_per_key: &[f64],
    rows: f64,
    eq_cols: usize,
    ranges: usize,
    has_range: bool,
) -> f64 {
    if def.is_unique() && eq_cols == def.columns.len() && !has_range {
        return ranges as f64;
    }
    let per_point = match eq_cols {
        0 => rows,
        n => rec_per_key
            .get(n - 1)
            .copied()
            .unwrap_or(rows * 0.001f64.powi(n as i32)),
    };
    let c = per_point.max(1.0) * ranges.max(1) as f64;
    if has_range { c * 0.05 } else { c }
}

/// Choose the access path for `table` (source `src`) given the conjuncts that apply to it.
/// `allowed`: FORCE/USE INDEX restriction (None: any).
pub fn choose(
    table: &Table,
    src: usize,
    conjuncts: &[&Expr],
    allowed: Option<&[IndexRef]>,
) -> Access {
    best(table, src, conjuncts, allowed, &|e| usable_value(e, src)).0
}

/// The rows reading `table` (source `src`) is expected to cost once the sources for which
/// `joined` holds have been read (the planner's join ordering asks this).
pub fn estimate(
    table: &Table,
    src: usize,
    conjuncts: &[&Expr],
    allowed: Option<&[IndexRef]>,
    joined: &dyn Fn(usize) -> bool,
) -> f64 {
    let avail = |e: &Expr| {
        if e.is_key_constant() {
            return true;
        }
        let mut ok = !has_side_effects(e);
        e.walk(&mut |x| {
            if let Expr::Col { src: s, .. } = x
                && (*s as usize == src || !joined(*s as usize))
            {
                ok = false;
            }
        });
        ok
    };
    best(table, src, conjuncts, allowed, &avail).1
}

fn best(
    table: &Table,
    src: usize,
    conjuncts: &[&Expr],
    allowed: Option<&[IndexRef]>,
    avail: Avail,
) -> (Access, f64) {
    let preds = analyze(conjuncts, src, table, avail);
    let rows = table.row_count() as f64;
    let stats = table.stats();
    let mut best: Option<Candidate> = None;
    let mut consider = |c: Option<Candidate>| {
        if let Some(c) = c
            && best.as_ref().is_none_or(|b| c.cost < b.cost)
        {
            best = Some(c);
        }
    };
    let ok = |r: IndexRef| allowed.is_none_or(|a| a.contains(&r));
    if let Some(pk) = &table.def.primary
        && ok(IndexRef::Primary)
    {
        consider(candidate(
            IndexRef::Primary,
            pk,
            &preds,
            rows,
            &stats.primary,
        ));
    }
    for (i, idx) in table.indexes.iter().enumerate() {
        if ok(IndexRef::Secondary(i)) {
            let rec = stats.rec_per_key(Some(i));
            consider(candidate(
                IndexRef::Secondary(i),
                &idx.def,
                &preds,
                rows,
                rec,
            ));
        }
    }
    let scan = rows.max(1.0) + 1.0;
    match best {
        Some(c) if c.cost < scan || allowed.is_some() => {
            let cost = c.cost;
            (
                Access::Index {
                    index: c.index,
                    ranges: c.ranges,
                    reverse: false,
                },
                cost,
            )
        }
        _ => (Access::Scan { reverse: false }, scan),
    }
}

/// The rows `access` is expected to read from `table` per lookup (what EXPLAIN shows), by
/// the same statistics the choice was made with.
pub fn expected_rows(table: &Table, access: &Access) -> f64 {
    let rows = table.row_count() as f64;
    let Access::Index { index, ranges, .. } = access else {
        return rows;
    };
    let Some(def) = index.def(table) else {
        return rows;
    };
    let (eq_cols, has_range) = access.key_shape();
    let stats = table.stats();
    let read = rows_read(
        def,
        stats.rec_per_key(index.secondary()),
        rows,
        eq_cols,
        ranges.len(),
        has_range,
    );
    read.clamp(1.0, rows.max(1.0))
}

/// The indexes whose first column has a predicate usable as a key (EXPLAIN's
/// possible_keys), given the conjuncts that apply to source `src`.
pub fn possible_keys(table: &Table, src: usize, conjuncts: &[&Expr]) -> Vec<IndexRef> {
    let preds = analyze(conjuncts, src, table, &|e| usable_value(e, src));
    let usable = |def: &IndexDef| {
        def.columns.first().is_some_and(|c| {
            let p = &preds[c.col];
            p.eq.is_some()
                || p.in_list.is_some()
                || p.lo.is_some()
                || p.hi.is_some()
                || p.ors.is_some()
        })
    };
    let mut out = Vec::new();
    if let Some(pk) = &table.def.primary
        && usable(pk)
    {
        out.push(IndexRef::Primary);
    }
    for (i, idx) in table.indexes.iter().enumerate() {
        if usable(&idx.def) {
            out.push(IndexRef::Secondary(i));
        }
    }
    out
}
