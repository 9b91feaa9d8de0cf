//! EXPLAIN: MySQL 8's tabular output and `FORMAT=TREE`, read off Quire's plans.
//!
//! Tabular: one row per table read, query block by query block (the outer block, then its
//! derived tables and subqueries, then UNION branches), with MySQL's twelve columns:
//!
//! - `type`: `const` (unique key, every part a constant), `eq_ref` (unique key, parts from
//!   earlier tables), `ref` (equality on a key prefix), `range` (ranges or IN lists),
//!   `index` (a whole index read in order), `ALL` (table scan).
//! - `possible_keys`: the indexes whose first column has a usable predicate; `key`,
//!   `key_len` (bytes of the key parts used, as InnoDB counts them), `ref` (`const`, or the
//!   column supplying each equality part).
//! - `rows`: the statistics' estimate (`access::expected_rows`); `filtered`: 100.00 unless
//!   conditions remain that the index does not apply (then MySQL's default guess, 10.00).
//! - `Extra`: `Using where`, `Using temporary` (grouping), `Using filesort`, `Backward index
//!   scan`, `No tables used`.
//!
//! Tree: the iterator tree MySQL 8.0.18+ prints, one line per node, with row estimates only
//! (Quire has no cost model to print).

use super::Planned;
use super::access;
use super::expr::{CmpOp, Expr};
use super::plan::*;
use super::types::{ColumnMeta, SqlType};
use super::utility::Outcome;
use super::value::Value;
use crate::storage::schema::IndexDef;
use crate::storage::table::Table;

const COLUMNS: [&str; 12] = [
    "id",
    "select_type",
    "table",
    "partitions",
    "type",
    "possible_keys",
    "key",
    "key_len",
    "ref",
    "rows",
    "filtered",
    "Extra",
];

/// One tabular row.
#[derive(Default)]
struct Line {
    id: Option<u64>,
    select_type: String,
    table: Option<String>,
    typ: Option<String>,
    possible_keys: Option<String>,
    key: Option<String>,
    key_len: Option<String>,
    reference: Option<String>,
    rows: Option<u64>,
    filtered: Option<f64>,
    extra: Vec<String>,
}

struct Explainer {
    lines: Vec<Line>,
    next_id: u64,
}

/// EXPLAIN [FORMAT=TRADITIONAL|TREE] of a planned statement.
pub fn explain(planned: &Planned, tree: bool) -> crate::error::Result<Outcome> {
    let text_col = |name: &str| {
        (
            ColumnMeta::expr(name, &SqlType::varchar(4096), true),
            SqlType::varchar(4096),
        )
    };
    if tree {
        let mut out = String::new();
        tree_of(planned, &mut out);
        let (c, t) = text_col("EXPLAIN");
        return Ok(Outcome::Rows {
            columns: vec![c],
            types: vec![t],
            rows: vec![vec![Value::from_vec(out.trim_end().as_bytes().to_vec())]],
        });
    }
    let mut ex = Explainer {
        lines: Vec::new(),
        next_id: 1,
    };
    match planned {
        Planned::Select(p) => ex.query(p, None),
        Planned::Insert(p) => {
            ex.lines.push(Line {
                id: Some(1),
                select_type: "INSERT".into(),
                table: Some(p.table.name().to_string()),
                typ: Some("ALL".into()),
                ..Default::default()
            });
            if let InsertSource::Select(q) = &p.source {
                ex.query(q, Some(1));
            }
        }
        Planned::Update(p) => ex.single_write("UPDATE", &p.table, &p.access, p.filter.as_ref()),
        Planned::Delete(p) => ex.single_write("DELETE", &p.table, &p.access, p.filter.as_ref()),
        Planned::Multi(p) => {
            ex.next_id = 2;
            let kind = if p.delete { "DELETE" } else { "UPDATE" };
            let start = ex.lines.len();
            ex.block(&p.select, 1, "SIMPLE");
            for t in &p.targets {
                if let Some(l) = ex.lines.get_mut(start + t.source) {
                    l.select_type = kind.into();
                }
            }
        }
        Planned::Other(_) => {
            return Err(crate::error::MyError::not_supported(
                "EXPLAIN of this statement",
            ));
        }
    }
    let mut columns = Vec::new();
    let mut types = Vec::new();
    for name in COLUMNS {
        let ty = match name {
            "id" | "rows" => SqlType::BIGINT_UNSIGNED,
            _ => SqlType::varchar(4096),
        };
        columns.push(ColumnMeta::expr(name, &ty, true));
        types.push(ty);
    }
    let s = |v: Option<String>| v.map_or(Value::Null, |s| Value::from_vec(s.into_bytes()));
    let rows = ex
        .lines
        .into_iter()
        .map(|l| {
            vec![
                l.id.map_or(Value::Null, Value::UInt),
                s(Some(l.select_type)),
                s(l.table),
                Value::Null,
                s(l.typ),
                s(l.possible_keys),
                s(l.key),
                s(l.key_len),
                s(l.reference),
                l.rows.map_or(Value::Null, Value::UInt),
                s(l.filtered.map(|f| format!("{f:.2}"))),
                s((!l.extra.is_empty()).then(|| l.extra.join("; "))),
            ]
        })
        .collect();
    Ok(Outcome::Rows {
        columns,
        types,
        rows,
    })
}

impl Explainer {
    fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// A query expression: its first block, then each UNION branch and the UNION RESULT.
    /// `id`: the id to use for the first block (an INSERT … SELECT shares the INSERT's).
    fn query(&mut self, p: &SelectPlan, id: Option<u64>) {
        let id = id.unwrap_or_else(|| self.id());
        let nested = has_nested(p);
        let first = match (p.unions.is_empty(), nested) {
            (false, _) | (true, true) => "PRIMARY",
            (true, false) => "SIMPLE",
        };
        self.block(p, id, first);
        let mut ids = vec![id];
        for (u, _) in &p.unions {
            let uid = self.id();
            ids.push(uid);
            self.block(u, uid, "UNION");
        }
        if p.unions.iter().any(|(_, all)| !*all) {
            let list: Vec<String> = ids.iter().map(u64::to_string).collect();
            self.lines.push(Line {
                select_type: "UNION RESULT".into(),
                table: Some(format!("<union{}>", list.join(","))),
                typ: Some("ALL".into()),
                extra: vec!["Using temporary".into()],
                ..Default::default()
            });
        }
    }

    fn block(&mut self, p: &SelectPlan, id: u64, select_type: &str) {
        let first_line = self.lines.len();
        let subs = subqueries(p);
        let mut nested: Vec<(u64, &SelectPlan, &'static str)> = Vec::new();
        for (i, src) in p.sources.iter().enumerate() {
            let mut line = Line {
                id: Some(id),
                select_type: select_type.into(),
                table: Some(src.alias.clone()),
                filtered: Some(100.0),
                ..Default::default()
            };
            match &src.kind {
                SourceKind::Dual => {
                    line.table = None;
                    line.filtered = None;
                    line.extra.push("No tables used".into());
                }
                SourceKind::Rows(rows) => {
                    line.typ = Some("ALL".into());
                    line.rows = Some(rows.len() as u64);
                    if src.filter.is_some() {
                        line.extra.push("Using where".into());
                    }
                }
                SourceKind::Derived(d) => {
                    let did = self.id();
                    line.table = Some(format!("<derived{did}>"));
                    line.typ = Some("ALL".into());
                    nested.push((did, d, "DERIVED"));
                    if src.filter.is_some() {
                        line.extra.push("Using where".into());
                    }
                }
                SourceKind::Table { table, access } => {
                    let whole_index = p.order_satisfied && p.sources.len() == 1;
                    let conj = source_conjuncts(p, i);
                    describe_table(&mut line, p, i, table, access, &conj, whole_index);
                }
            }
            self.lines.push(line);
        }
        if p.filter.is_some()
            && let Some(l) = self.lines.last_mut()
            && !l.extra.iter().any(|e| e == "Using where")
            && l.table.is_some()
        {
            l.extra.push("Using where".into());
        }
        if let Some(l) = self.lines.get_mut(first_line) {
            let grouped = p.agg.as_ref().is_some_and(|a| !a.keys.is_empty());
            if (grouped || p.distinct) && l.table.is_some() {
                l.extra.push("Using temporary".into());
            }
            if !p.order.is_empty() && !p.order_satisfied && l.table.is_some() {
                l.extra.push("Using filesort".into());
            }
        }
        for s in &subs {
            let kind = if s.correlated {
                "DEPENDENT SUBQUERY"
            } else {
                "SUBQUERY"
            };
            nested.push((0, &s.plan, kind));
        }
        for (nid, plan, kind) in nested {
            let nid = if nid == 0 { self.id() } else { nid };
            self.block(plan, nid, kind);
            for (u, _) in &plan.unions {
                let uid = self.id();
                self.block(u, uid, "UNION");
            }
        }
    }

    fn single_write(&mut self, kind: &str, table: &Table, access: &Access, filter: Option<&Expr>) {
        let mut line = Line {
            id: Some(1),
            select_type: kind.into(),
            table: Some(table.name().to_string()),
            filtered: Some(100.0),
            ..Default::default()
        };
        let mut conj = Vec::new();
        if let Some(f) = filter {
            access::conjuncts(f.clone(), &mut conj);
        }
        describe_table(
            &mut line,
            &SelectPlan::empty(),
            0,
            table,
            access,
            &conj,
            false,
        );
        self.lines.push(line);
    }
}

/// Does the block have derived tables or subqueries (its select_type is then PRIMARY)?
fn has_nested(p: &SelectPlan) -> bool {
    p.sources
        .iter()
        .any(|s| matches!(s.kind, SourceKind::Derived(_)))
        || !subqueries(p).is_empty()
}

/// The subqueries in a block's expressions, in the order found.
fn subqueries(p: &SelectPlan) -> Vec<std::sync::Arc<SubqueryExpr>> {
    let mut subs = Vec::new();
    for_each_expr(p, &mut |e| {
        e.walk(&mut |x| {
            if let Expr::Subquery(s) | Expr::InSubquery { sub: s, .. } = x {
                subs.push(s.clone());
            }
        })
    });
    subs
}

/// Every expression of a block (not of its nested blocks).
fn for_each_expr<'a>(p: &'a SelectPlan, f: &mut dyn FnMut(&'a Expr)) {
    for s in &p.sources {
        s.on.iter().chain(s.filter.iter()).for_each(&mut *f);
    }
    p.filter.iter().for_each(&mut *f);
    p.project.iter().for_each(&mut *f);
    p.having.iter().for_each(&mut *f);
    p.order.iter().for_each(|k| f(&k.expr));
    if let Some(a) = &p.agg {
        a.keys.iter().for_each(|(k, _)| f(k));
        a.aggs.iter().flat_map(|s| s.args.iter()).for_each(&mut *f);
    }
}

/// The conjuncts checked on source `src`'s rows: its filter and ON condition.
fn source_conjuncts(p: &SelectPlan, src: usize) -> Vec<Expr> {
    let mut conj = Vec::new();
    if let Some(s) = p.sources.get(src) {
        for e in s.filter.iter().chain(s.on.iter()) {
            access::conjuncts(e.clone(), &mut conj);
        }
    }
    conj
}

/// The table columns the key parts of `access` cover.
fn used_key_cols(table: &Table, access: &Access) -> Vec<usize> {
    let Access::Index { index, .. } = access else {
        return Vec::new();
    };
    let Some(def) = index.def(table) else {
        return Vec::new();
    };
    let (eq_cols, has_range) = access.key_shape();
    let parts = (eq_cols + usize::from(has_range)).min(def.columns.len());
    def.columns[..parts].iter().map(|c| c.col).collect()
}

/// The access type, keys, key length, ref, rows and Extra of table source `src`.
fn describe_table(
    line: &mut Line,
    p: &SelectPlan,
    src: usize,
    table: &Table,
    access: &Access,
    conj: &[Expr],
    whole_index: bool,
) {
    let possible = access::possible_keys(table, src, &conj.iter().collect::<Vec<_>>());
    let name = |r: &IndexRef| r.def(table).map_or(String::new(), |d| d.name.clone());
    if !possible.is_empty() {
        line.possible_keys = Some(possible.iter().map(name).collect::<Vec<_>>().join(","));
    }
    line.rows = Some(access::expected_rows(table, access).round().max(1.0) as u64);
    let used = used_key_cols(table, access);
    match access {
        Access::Scan { reverse } => {
            if whole_index && table.def.primary.is_some() {
                line.typ = Some("index".into());
                line.key = Some("PRIMARY".into());
                if let Some(pk) = &table.def.primary {
                    line.key_len = Some(key_len(table, pk, pk.columns.len()).to_string());
                }
                if *reverse {
                    line.extra.push("Backward index scan".into());
                }
            } else {
                line.typ = Some("ALL".into());
            }
        }
        Access::Index {
            index,
            ranges,
            reverse,
        } => {
            let Some(def) = index.def(table) else {
                return;
            };
            let (eq_cols, has_range) = access.key_shape();
            let parts = used.len();
            let constant = ranges
                .iter()
                .all(|r| r.prefix.iter().all(Expr::is_key_constant));
            let typ = if has_range || ranges.len() > 1 {
                "range"
            } else if def.is_unique() && eq_cols == def.columns.len() {
                if constant { "const" } else { "eq_ref" }
            } else {
                "ref"
            };
            line.typ = Some(typ.into());
            line.key = Some(def.name.clone());
            line.key_len = Some(key_len(table, def, parts).to_string());
            if typ != "range"
                && let Some(r) = ranges.first()
            {
                let refs: Vec<String> = r.prefix.iter().map(|e| ref_of(e, p)).collect();
                line.reference = Some(refs.join(","));
            }
            if *reverse {
                line.extra.push("Backward index scan".into());
            }
        }
    }
    let residual = conj.iter().any(|c| !consumed(c, src, &used));
    if residual {
        line.filtered = Some(10.0);
        line.extra.insert(0, "Using where".into());
    }
}

/// Is conjunct `c` applied exactly by the key columns `used` of source `src` (a comparison
/// of one of them with a value from elsewhere)?
fn consumed(c: &Expr, src: usize, used: &[usize]) -> bool {
    let key_col = |e: &Expr| matches!(e, Expr::Col { src: s, col, .. } if *s as usize == src && used.contains(&(*col as usize)));
    let other = |e: &Expr| {
        let mut own = false;
        e.walk(&mut |x| {
            if matches!(x, Expr::Col { src: s, .. } if *s as usize == src) {
                own = true;
            }
        });
        !own
    };
    match c {
        Expr::Cmp(op, a, b, _) if *op != CmpOp::Ne => {
            (key_col(a) && other(b)) || (key_col(b) && other(a))
        }
        Expr::Between {
            e, lo, hi, negated, ..
        } => !negated && key_col(e) && other(lo) && other(hi),
        Expr::In {
            e, list, negated, ..
        } => !negated && key_col(e) && list.iter().all(other),
        _ => false,
    }
}

/// `const`, the column supplying a key part, or `func`.
fn ref_of(e: &Expr, p: &SelectPlan) -> String {
    if e.is_key_constant() {
        return "const".into();
    }
    match e {
        Expr::Col { src, col, .. } => match p.sources.get(*src as usize) {
            Some(s) => match &s.kind {
                SourceKind::Table { table, .. } => format!(
                    "{}.{}.{}",
                    table.def.db, s.alias, table.def.columns[*col as usize].name
                ),
                _ => format!("{}.{}", s.alias, col_name(p, *src as usize, *col as usize)),
            },
            None => "func".into(),
        },
        _ => "func".into(),
    }
}

fn col_name(p: &SelectPlan, src: usize, col: usize) -> String {
    match p.sources.get(src).map(|s| &s.kind) {
        Some(SourceKind::Table { table, .. }) => table
            .def
            .columns
            .get(col)
            .map_or("?".into(), |c| c.name.clone()),
        Some(SourceKind::Derived(d)) => d.columns.get(col).map_or("?".into(), |c| c.name.clone()),
        _ => format!("col{col}"),
    }
}

/// The bytes of the first `parts` key parts of `def`, as MySQL's key_len counts them.
fn key_len(table: &Table, def: &IndexDef, parts: usize) -> u32 {
    def.columns[..parts.min(def.columns.len())]
        .iter()
        .map(|ic| {
            let c = &table.def.columns[ic.col];
            let chars = |len: u32, coll: super::types::Collation| {
                ic.prefix.map_or(len, |p| p) * coll.charset().max_len()
            };
            let n = match &c.ty {
                SqlType::Int { width, .. } => width.bytes(),
                SqlType::Bool | SqlType::Year => 1,
                SqlType::Decimal {
                    precision, scale, ..
                } => decimal_bytes(*precision as u32, *scale as u32),
                SqlType::Float { .. } => 4,
                SqlType::Double { .. } => 8,
                SqlType::Char { len, collation } => chars(*len, *collation),
                SqlType::VarChar { len, collation } => chars(*len, *collation) + 2,
                SqlType::Text { collation, .. } => chars(0, *collation) + 2,
                SqlType::Binary { len } => ic.prefix.map_or(*len, |p| p),
                SqlType::VarBinary { len } => ic.prefix.map_or(*len, |p| p) + 2,
                SqlType::Blob { .. } => ic.prefix.unwrap_or(0) + 2,
                SqlType::Date => 3,
                SqlType::DateTime { fsp } => 5 + (*fsp as u32).div_ceil(2),
                SqlType::Timestamp { fsp } => 4 + (*fsp as u32).div_ceil(2),
                SqlType::Time { fsp } => 3 + (*fsp as u32).div_ceil(2),
                _ => 8,
            };
            n + u32::from(c.nullable)
        })
        .sum()
}

/// DECIMAL(p, s) in MySQL's binary format: 4 bytes per 9 digits on each side of the point.
fn decimal_bytes(precision: u32, scale: u32) -> u32 {
    const REST: [u32; 9] = [0, 1, 1, 2, 2, 3, 3, 4, 4];
    let intg = precision.saturating_sub(scale);
    intg / 9 * 4 + REST[(intg % 9) as usize] + scale / 9 * 4 + REST[(scale % 9) as usize]
}

// ----- FORMAT=TREE ------------------------------------------------------------------------

fn tree_of(planned: &Planned, out: &mut String) {
    match planned {
        Planned::Select(p) => tree_query(p, 0, out),
        Planned::Insert(p) => {
            push(out, 0, &format!("-> Insert into {}", p.table.name()));
            if let InsertSource::Select(q) = &p.source {
                tree_query(q, 1, out);
            } else {
                push(out, 1, "-> Rows fetched before execution");
            }
        }
        Planned::Update(p) => {
            push(out, 0, &format!("-> Update {}", p.table.name()));
            tree_write_source(&p.table, &p.access, p.filter.as_ref(), 1, out);
        }
        Planned::Delete(p) => {
            push(out, 0, &format!("-> Delete from {}", p.table.name()));
            tree_write_source(&p.table, &p.access, p.filter.as_ref(), 1, out);
        }
        Planned::Multi(p) => {
            let names: Vec<&str> = p.targets.iter().map(|t| t.table.name()).collect();
            let verb = if p.delete { "Delete from" } else { "Update" };
            push(out, 0, &format!("-> {verb} {}", names.join(", ")));
            tree_block(&p.select, 1, out);
        }
        Planned::Other(_) => {}
    }
}

fn push(out: &mut String, depth: usize, s: &str) {
    for _ in 0..depth {
        out.push_str("    ");
    }
    out.push_str(s);
    out.push('\n');
}

fn tree_query(p: &SelectPlan, depth: usize, out: &mut String) {
    if p.unions.is_empty() {
        return tree_block(p, depth, out);
    }
    let all = p.unions.iter().all(|(_, a)| *a);
    push(
        out,
        depth,
        if all {
            "-> Append"
        } else {
            "-> Table scan on <union temporary>"
        },
    );
    tree_block(p, depth + 1, out);
    for (u, _) in &p.unions {
        tree_block(u, depth + 1, out);
    }
}

fn tree_write_source(
    table: &Table,
    access: &Access,
    filter: Option<&Expr>,
    depth: usize,
    out: &mut String,
) {
    let empty = SelectPlan::empty();
    let mut conj = Vec::new();
    if let Some(f) = filter {
        access::conjuncts(f.clone(), &mut conj);
    }
    let d = residual_filter(&conj, 0, Some((table, access)), &empty, depth, out);
    push(out, d, &access_text(table, table.name(), access, &empty));
}

fn tree_block(p: &SelectPlan, depth: usize, out: &mut String) {
    let mut d = depth;
    if let Some(l) = &p.limit {
        let n = expr_text(l, p);
        match &p.offset {
            Some(o) => push(
                out,
                d,
                &format!("-> Limit/Offset: {n}/{} row(s)", expr_text(o, p)),
            ),
            None => push(out, d, &format!("-> Limit: {n} row(s)")),
        }
        d += 1;
    }
    if !p.order.is_empty() && !p.order_satisfied {
        let keys: Vec<String> = p
            .order
            .iter()
            .map(|k| {
                let t = expr_text(&k.expr, p);
                if k.desc { format!("{t} DESC") } else { t }
            })
            .collect();
        push(out, d, &format!("-> Sort: {}", keys.join(", ")));
        d += 1;
    }
    if let Some(h) = &p.having {
        push(out, d, &format!("-> Filter: {}", expr_text(h, p)));
        d += 1;
    }
    if let Some(a) = &p.agg {
        if a.keys.is_empty() {
            push(out, d, "-> Aggregate");
        } else {
            push(out, d, "-> Group aggregate (in a temporary table)");
        }
        d += 1;
    }
    if let Some(f) = &p.filter {
        push(out, d, &format!("-> Filter: {}", expr_text(f, p)));
        d += 1;
    }
    tree_join(p, p.sources.len(), d, out);
}

/// The nested-loop joins of the first `n` sources (left-deep).
fn tree_join(p: &SelectPlan, n: usize, depth: usize, out: &mut String) {
    if n == 0 {
        return;
    }
    if n == 1 {
        return tree_source(p, 0, depth, out);
    }
    let kind = if p.sources[n - 1].join == JoinKind::Left {
        "left"
    } else {
        "inner"
    };
    push(out, depth, &format!("-> Nested loop {kind} join"));
    tree_join(p, n - 1, depth + 1, out);
    tree_source(p, n - 1, depth + 1, out);
}

fn tree_source(p: &SelectPlan, i: usize, depth: usize, out: &mut String) {
    let s = &p.sources[i];
    let conj = source_conjuncts(p, i);
    let key = match &s.kind {
        SourceKind::Table { table, access } => Some((&**table, access)),
        _ => None,
    };
    let d = residual_filter(&conj, i, key, p, depth, out);
    match &s.kind {
        SourceKind::Dual => push(out, d, "-> Rows fetched before execution"),
        SourceKind::Rows(rows) => push(
            out,
            d,
            &format!("-> Table scan on {}  (rows={})", s.alias, rows.len()),
        ),
        SourceKind::Derived(sub) => {
            push(out, d, &format!("-> Table scan on {}", s.alias));
            push(
                out,
                d + 1,
                &format!("-> Materialize derived table {}", s.alias),
            );
            tree_query(sub, d + 2, out);
        }
        SourceKind::Table { table, access } => {
            push(out, d, &access_text(table, &s.alias, access, p));
        }
    }
}

/// A Filter node for the conjuncts the access path does not apply; the depth below it.
fn residual_filter(
    conj: &[Expr],
    src: usize,
    key: Option<(&Table, &Access)>,
    p: &SelectPlan,
    depth: usize,
    out: &mut String,
) -> usize {
    let used = key.map_or(Vec::new(), |(t, a)| used_key_cols(t, a));
    let rest: Vec<String> = conj
        .iter()
        .filter(|c| !consumed(c, src, &used))
        .map(|c| expr_text(c, p))
        .collect();
    if rest.is_empty() {
        return depth;
    }
    push(out, depth, &format!("-> Filter: {}", rest.join(" and ")));
    depth + 1
}

fn access_text(table: &Table, alias: &str, access: &Access, p: &SelectPlan) -> String {
    let rows = access::expected_rows(table, access).round().max(1.0) as u64;
    match access {
        Access::Scan { .. } => format!("-> Table scan on {alias}  (rows={rows})"),
        Access::Index {
            index,
            ranges,
            reverse,
        } => {
            let Some(def) = index.def(table) else {
                return format!("-> Table scan on {alias}  (rows={rows})");
            };
            let col = |i: usize| {
                def.columns
                    .get(i)
                    .map_or("?".to_string(), |c| table.def.columns[c.col].name.clone())
            };
            let (eq_cols, has_range) = access.key_shape();
            let rev = if *reverse { " (reverse)" } else { "" };
            if has_range || ranges.len() > 1 {
                let parts: Vec<String> = ranges
                    .iter()
                    .map(|r| {
                        let mut conds: Vec<String> = r
                            .prefix
                            .iter()
                            .enumerate()
                            .map(|(i, v)| format!("{} = {}", col(i), expr_text(v, p)))
                            .collect();
                        let c = col(r.prefix.len());
                        if let Some((v, inc)) = &r.lo {
                            let op = if *inc { "<=" } else { "<" };
                            conds.push(format!("{} {op} {c}", expr_text(v, p)));
                        }
                        if let Some((v, inc)) = &r.hi {
                            let op = if *inc { "<=" } else { "<" };
                            conds.push(format!("{c} {op} {}", expr_text(v, p)));
                        }
                        format!("({})", conds.join(" and "))
                    })
                    .collect();
                format!(
                    "-> Index range scan on {alias} using {}{rev} over {}  (rows={rows})",
                    def.name,
                    parts.join(" OR ")
                )
            } else {
                let keys: Vec<String> = ranges[0]
                    .prefix
                    .iter()
                    .enumerate()
                    .map(|(i, v)| format!("{}={}", col(i), expr_text(v, p)))
                    .collect();
                let single = def.is_unique() && eq_cols == def.columns.len();
                let what = if single {
                    "Single-row index lookup"
                } else {
                    "Index lookup"
                };
                format!(
                    "-> {what} on {alias} using {}{rev} ({})  (rows={rows})",
                    def.name,
                    keys.join(", ")
                )
            }
        }
    }
}

/// An expression as EXPLAIN shows it (columns as `alias.column`).
fn expr_text(e: &Expr, p: &SelectPlan) -> String {
    let bin =
        |a: &Expr, op: &str, b: &Expr| format!("({} {op} {})", expr_text(a, p), expr_text(b, p));
    match e {
        Expr::Const(v) => {
            if v.is_null() {
                return "NULL".into();
            }
            let mut t = Vec::new();
            super::convert::to_text(v, &SqlType::varchar(64), &mut t);
            let s = String::from_utf8_lossy(&t).into_owned();
            match v {
                Value::Bytes(_) => format!("'{s}'"),
                _ => s,
            }
        }
        Expr::Param(_) => "?".into(),
        Expr::Col { src, col, .. } => {
            let alias = p
                .sources
                .get(*src as usize)
                .map_or("", |s| s.alias.as_str());
            format!("{alias}.{}", col_name(p, *src as usize, *col as usize))
        }
        Expr::Cmp(op, a, b, _) => {
            let o = match op {
                CmpOp::Eq => "=",
                CmpOp::Ne => "<>",
                CmpOp::Lt => "<",
                CmpOp::Le => "<=",
                CmpOp::Gt => ">",
                CmpOp::Ge => ">=",
                CmpOp::NullSafeEq => "<=>",
            };
            bin(a, o, b)
        }
        Expr::And(a, b) => bin(a, "and", b),
        Expr::Or(a, b) => bin(a, "or", b),
        Expr::Not(a) => format!("(not({}))", expr_text(a, p)),
        Expr::IsNull(a, neg) => format!(
            "({} is {}null)",
            expr_text(a, p),
            if *neg { "not " } else { "" }
        ),
        Expr::Between {
            e, lo, hi, negated, ..
        } => format!(
            "({} {}between {} and {})",
            expr_text(e, p),
            if *negated { "not " } else { "" },
            expr_text(lo, p),
            expr_text(hi, p)
        ),
        Expr::In {
            e, list, negated, ..
        } => format!(
            "({} {}in ({}))",
            expr_text(e, p),
            if *negated { "not " } else { "" },
            list.iter()
                .map(|x| expr_text(x, p))
                .collect::<Vec<_>>()
                .join(",")
        ),
        Expr::Func(f, args) => format!(
            "{}({})",
            f.name().to_ascii_lowercase(),
            args.iter()
                .map(|x| expr_text(x, p))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Expr::Subquery(_) | Expr::InSubquery { .. } => "(select #2)".into(),
        _ => "<expr>".into(),
    }
}
