//! SQL: from statement text to results.
//!
//! ## Life of a statement
//!
//! 1. **Normalise** ([`lexer`]): one pass over the text lifts literals out into parameters
//!    (`… WHERE id = 5` → `… WHERE id = ?1`, literal `5`), drops comments, inlines executable
//!    comments and computes the statement digest. The parameterised text is the plan-cache key.
//! 2. **Plan cache** ([`cache`]): a hit gives the shared plan at once; the literals become the
//!    execution's parameter values.
//! 3. On a miss, **parse** ([`parse`]) with sqlparser-rs (MySQL dialect) — or Quire's own small
//!    parser for the administrative statements sqlparser does not know — and **plan**
//!    ([`planner`], [`bind`], [`access`]). If a lifted literal would leak into the plan (a
//!    literal in the select list names and types a result column), the original text is
//!    planned instead and cached under its exact text.
//! 4. **Execute** ([`exec`] for queries, [`dml`] for writes, [`utility`] and [`ddl`] for the
//!    rest) against a snapshot or, for writes and locking reads, the latest committed data with
//!    row locks. The session ([`crate::session`]) owns transactions and lock waits.
//!
//! What this layer must never do: block on I/O or on a lock (it returns a wait instead), or
//! panic on anything a client sent.

pub mod access;
pub mod admin;
pub mod bind;
pub mod builtins;
pub mod cache;
pub mod collation;
pub mod compare;
pub mod convert;
pub mod ddl;
pub mod digest;
pub mod dml;
pub mod exec;
pub mod expr;
pub mod func;
pub mod keywords;
pub mod lexer;
pub mod normalize;
pub mod parse;
pub mod plan;
pub mod plan_dml;
pub mod planner;
pub mod show;
pub mod sysschema;
pub mod temporal;
pub mod types;
pub mod utility;
pub mod value;

use plan::{DeletePlan, InsertPlan, SelectPlan, UpdatePlan};
use types::{ColumnMeta, SqlType};

/// A parsed statement: sqlparser's AST, or one of Quire's own administrative statements.
pub enum Statement {
    Ast(Box<sqlparser::ast::Statement>),
    Admin(admin::AdminStmt),
}

/// What a statement became at prepare time.
pub enum Planned {
    Select(SelectPlan),
    Insert(InsertPlan),
    Update(UpdatePlan),
    Delete(DeletePlan),
    /// Everything else is interpreted at execution from its parsed form.
    Other(Statement),
}

/// A prepared statement: its plan (or parsed form), parameter count and result shape.
pub struct Prepared {
    pub planned: Planned,
    pub param_count: usize,
    /// Result columns (shared: the wire layer keeps a reference per execution).
    pub columns: std::sync::Arc<[ColumnMeta]>,
    pub types: std::sync::Arc<[SqlType]>,
    /// The catalog version it was planned against; [`Prepared::UNCACHEABLE`] for plans of
    /// data fixed at plan time (the log tables), which are never reused.
    pub catalog_version: u64,
    pub kind: lexer::StatementKind,
    /// Planned with client parameters of unknown type in the result columns: executions
    /// re-plan with the parameters' actual types.
    pub param_typed_columns: bool,
    /// Reads a table without an index (for `log_queries_not_using_indexes`).
    pub full_scan: bool,
}

impl Prepared {
    /// The `catalog_version` of a plan that must not be reused: no catalog has it, so the
    /// plan cache never returns it and a prepared statement re-plans at each execution.
    pub const UNCACHEABLE: u64 = u64::MAX;

    pub fn reusable(&self) -> bool {
        self.catalog_version != Prepared::UNCACHEABLE
    }

    /// Does the plan read some table row by row, without an index? (Only table sources of
    /// the statement's own query blocks count, not derived tables.)
    pub fn plans_full_scan(planned: &Planned) -> bool {
        use plan::{Access, SourceKind};
        let scan = |a: &Access| matches!(a, Access::Scan { .. });
        match planned {
            Planned::Select(p) => p.sources.iter().any(|s| match &s.kind {
                SourceKind::Table { access, .. } => scan(access),
                SourceKind::Derived(d) => d
                    .sources
                    .iter()
                    .any(|s| matches!(&s.kind, SourceKind::Table { access, .. } if scan(access))),
                _ => false,
            }),
            Planned::Update(p) => scan(&p.access),
            Planned::Delete(p) => scan(&p.access),
            _ => false,
        }
    }

    pub fn is_select(&self) -> bool {
        matches!(self.planned, Planned::Select(_))
    }

    /// Does executing it write rows (and so need a transaction)?
    pub fn writes(&self) -> bool {
        matches!(
            self.planned,
            Planned::Insert(_) | Planned::Update(_) | Planned::Delete(_)
        )
    }

    /// A locking read?
    pub fn locks(&self) -> bool {
        matches!(&self.planned, Planned::Select(p) if p.lock.is_some())
    }
}
