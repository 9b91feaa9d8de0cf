//! Plans: what the planner produces and the executor runs.
//!
//! A plan is immutable and shareable (`Arc`): the plan cache hands the same plan to every
//! session that sends the same statement shape. Everything that varies per execution —
//! parameter values (including literals lifted out of the text by the normaliser), the
//! snapshot, the session — is passed to the executor separately.
//!
//! ## A query block
//!
//! ```text
//! sources (join order) ──► per-source filters ──► [aggregate] ──► having ──► project
//!   each: access path           (pushed-down          keys+aggs       │          │
//!   (scan / key ranges)          conjuncts)          = one tuple      order ◄────┘
//!                                                                      distinct, limit
//! ```
//!
//! Expressions address the *current tuple*: `Col { src, col }` is column `col` of source
//! `src`'s row. After aggregation the tuple is a single row `[group keys…, aggregates…]`
//! (source 0), and the projection, HAVING and ORDER BY expressions are bound against it.

use super::expr::Expr;
use super::types::{Collation, ColumnMeta, SqlType};
use super::value::Row;
use crate::storage::lock::LockMode;
use crate::storage::table::Table;
use std::sync::Arc;

/// Which index of a table an access path uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexRef {
    Primary,
    Secondary(usize),
}

/// One key range over an index: an equality prefix on the first columns, then optional
/// bounds on the next column. Bound expressions are constants or parameters (or columns of
/// sources earlier in the join order).
#[derive(Clone, Debug)]
pub struct KeyRange {
    pub prefix: Vec<Expr>,
    /// (expression, inclusive)
    pub lo: Option<(Expr, bool)>,
    pub hi: Option<(Expr, bool)>,
}

#[derive(Clone, Debug)]
pub enum Access {
    /// Every row, in primary key order (or reverse).
    Scan { reverse: bool },
    /// The union of `ranges` over an index, each in key order (or reverse).
    Index {
        index: IndexRef,
        ranges: Vec<KeyRange>,
        reverse: bool,
    },
}

impl Access {
    /// How many key parts equalities fix, and whether a range on the next part follows
    /// (a scan: none of either).
    pub fn key_shape(&self) -> (usize, bool) {
        match self {
            Access::Scan { .. } => (0, false),
            Access::Index { ranges, .. } => (
                ranges.first().map_or(0, |r| r.prefix.len()),
                ranges.iter().any(|r| r.lo.is_some() || r.hi.is_some()),
            ),
        }
    }
}

impl IndexRef {
    /// The index's definition in `table` (None: the primary key of a table without one).
    pub fn def(self, table: &Table) -> Option<&crate::storage::schema::IndexDef> {
        match self {
            IndexRef::Primary => table.def.primary.as_ref(),
            IndexRef::Secondary(i) => table.indexes.get(i).map(|x| &x.def),
        }
    }

    /// The secondary index's number (None: the primary), as the storage layer names them.
    pub fn secondary(self) -> Option<usize> {
        match self {
            IndexRef::Primary => None,
            IndexRef::Secondary(i) => Some(i),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinKind {
    Inner,
    Left,
}

pub enum SourceKind {
    Table {
        table: Arc<Table>,
        access: Access,
    },
    /// A derived table, materialised once per execution.
    Derived(Box<SelectPlan>),
    /// Rows computed at plan time (e.g. `information_schema` snapshots, `SHOW` output).
    Rows(Arc<Vec<Row>>),
    /// The one-row, no-column table of `SELECT 1` / `FROM DUAL`.
    Dual,
}

pub struct Source {
    pub kind: SourceKind,
    pub alias: String,
    pub width: usize,
    pub join: JoinKind,
    /// LEFT JOIN: the ON condition (a row of this source matches when it holds; for a
    /// nested group, a combination of the group's rows, checked at `nest_end`).
    pub on: Option<Expr>,
    /// A LEFT JOIN whose inner side is several sources (`a LEFT JOIN (b JOIN c) ON …`):
    /// this source is the first of the group, and this is the index of its last one.
    pub nest_end: Option<usize>,
    /// The nested groups that end at this source, as their first sources, innermost
    /// first: their ON conditions are checked once this source is bound.
    pub closes: Vec<usize>,
    /// Conjuncts that can be checked once this source's row is bound.
    pub filter: Option<Expr>,
}

impl Source {
    /// An inner-joined source with no conditions yet.
    pub fn new(kind: SourceKind, alias: String, width: usize) -> Source {
        Source {
            kind,
            alias,
            width,
            join: JoinKind::Inner,
            on: None,
            nest_end: None,
            closes: Vec::new(),
            filter: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AggFunc {
    CountStar,
    Count,
    Sum,
    Avg,
    Min,
    Max,
    /// A non-aggregated column in an aggregate query: any value of the group (MySQL without
    /// ONLY_FULL_GROUP_BY).
    AnyValue,
    GroupConcat,
    BitAnd,
    BitOr,
    BitXor,
    StdDevPop,
    StdDevSamp,
    VarPop,
    VarSamp,
}

#[derive(Clone, Debug)]
pub struct AggSpec {
    pub func: AggFunc,
    pub args: Vec<Expr>,
    pub distinct: bool,
    pub coll: Collation,
    /// GROUP_CONCAT separator.
    pub separator: Vec<u8>,
    /// GROUP_CONCAT's ORDER BY (keys over the group's rows).
    pub order: Vec<SortKey>,
    pub arg_type: SqlType,
}

pub struct AggPlan {
    pub keys: Vec<(Expr, Collation)>,
    pub aggs: Vec<AggSpec>,
    /// `WITH ROLLUP`: a super-aggregate row per prefix of the keys, the rest NULL.
    pub rollup: bool,
}

#[derive(Clone, Debug)]
pub struct SortKey {
    pub expr: Expr,
    pub desc: bool,
    pub coll: Collation,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockClause {
    pub mode: LockMode,
    pub nowait: bool,
    pub skip_locked: bool,
}

pub struct SelectPlan {
    pub sources: Vec<Source>,
    /// Conjuncts that could not be pushed to a source (checked on the full tuple).
    pub filter: Option<Expr>,
    pub agg: Option<AggPlan>,
    pub having: Option<Expr>,
    pub project: Vec<Expr>,
    pub order: Vec<SortKey>,
    /// The access path already delivers rows in ORDER BY order.
    pub order_satisfied: bool,
    pub distinct: bool,
    pub limit: Option<Expr>,
    pub offset: Option<Expr>,
    pub lock: Option<LockClause>,
    pub columns: Vec<ColumnMeta>,
    pub types: Vec<SqlType>,
    /// UNION [ALL] branches appended to this block's output (bool: ALL).
    pub unions: Vec<(SelectPlan, bool)>,
    /// `SELECT … INTO @a, @b`: the user variables the single result row goes to.
    pub into_vars: Vec<String>,
    /// Does some access path use an index (for `Select_scan`-style accounting and the slow
    /// log's `log_queries_not_using_indexes`)?
    pub uses_index: bool,
}

impl SelectPlan {
    /// A block of nothing (the context EXPLAIN describes a single-table write's access in).
    pub fn empty() -> SelectPlan {
        SelectPlan {
            sources: Vec::new(),
            filter: None,
            agg: None,
            having: None,
            project: Vec::new(),
            order: Vec::new(),
            order_satisfied: false,
            distinct: false,
            limit: None,
            offset: None,
            lock: None,
            columns: Vec::new(),
            types: Vec::new(),
            unions: Vec::new(),
            into_vars: Vec::new(),
            uses_index: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubqueryKind {
    Scalar,
    Exists,
    /// The rows of `x IN (SELECT …)`, `x op ANY|ALL (SELECT …)`, `(a, b) = (SELECT …)`.
    In,
}

/// A subquery inside an expression. Uncorrelated subqueries are evaluated once per
/// statement execution.
pub struct SubqueryExpr {
    pub plan: SelectPlan,
    pub kind: SubqueryKind,
    /// The highest source of the immediately enclosing block it reads (join placement).
    pub outer_max_source: Option<usize>,
    /// Reads an enclosing block's row: evaluated per outer row, never cached.
    pub correlated: bool,
}

impl std::fmt::Debug for SubqueryExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Subquery({:?})", self.kind)
    }
}

/// A value to insert: an expression or the column's DEFAULT.
#[derive(Clone, Debug)]
pub enum InsertValue {
    Expr(Expr),
    Default,
}

pub enum InsertSource {
    Values(Vec<Vec<InsertValue>>),
    Select(Box<SelectPlan>),
}

pub struct InsertPlan {
    pub table: Arc<Table>,
    /// Table column positions the source's columns go to.
    pub columns: Vec<usize>,
    pub source: InsertSource,
    /// ON DUPLICATE KEY UPDATE assignments, bound with source 0 = the existing row and
    /// source 1 = the row that was to be inserted (for `VALUES(col)`).
    pub on_dup: Vec<(usize, Expr)>,
    pub ignore: bool,
    pub replace: bool,
    /// WITH CHECK OPTION of the views it was written through: what each row must meet, and
    /// the view (`db.name`) for the error.
    pub checks: Vec<(Expr, String)>,
}

pub struct UpdatePlan {
    pub table: Arc<Table>,
    pub access: Access,
    pub filter: Option<Expr>,
    pub assignments: Vec<(usize, InsertValue)>,
    pub order: Vec<SortKey>,
    pub limit: Option<Expr>,
    pub ignore: bool,
    /// As [`InsertPlan::checks`], for the new row.
    pub checks: Vec<(Expr, String)>,
}

pub struct DeletePlan {
    pub table: Arc<Table>,
    pub access: Access,
    pub filter: Option<Expr>,
    pub order: Vec<SortKey>,
    pub limit: Option<Expr>,
    pub ignore: bool,
}

/// A multi-table UPDATE or DELETE: a join read with exclusive locks, then each matched row of
/// each target table changed once (the first join row that matched it decides).
pub struct MultiWritePlan {
    pub select: SelectPlan,
    pub targets: Vec<MultiTarget>,
    pub delete: bool,
    /// UPDATE IGNORE.
    pub ignore: bool,
}

pub struct MultiTarget {
    /// Index of the target's source in `select.sources`.
    pub source: usize,
    pub table: Arc<Table>,
    /// UPDATE: column index and what it is set to, bound over the join's sources.
    pub assignments: Vec<(usize, InsertValue)>,
}
