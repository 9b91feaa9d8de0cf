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
pub mod explain;
pub mod expr;
pub mod fk;
pub mod fk_ddl;
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
pub mod view;

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
    /// Multi-table UPDATE or DELETE.
    Multi(plan::MultiWritePlan),
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
    /// [`crate::storage::stats::epoch`] when planned: index choices and join order rest on
    /// statistics; once they moved, the plan is rebuilt like after DDL.
    pub stats_epoch: u64,
    pub kind: lexer::StatementKind,
    /// Planned with client parameters of unknown type in the result columns: executions
    /// re-plan with the parameters' actual types.
    pub param_typed_columns: bool,
    /// Reads a table without an index (for `log_queries_not_using_indexes`).
    pub full_scan: bool,
    /// Its `Com_*` counter.
    pub com: crate::observe::status::Stat,
    /// What each execution adds to `Select_*`, `Sort_*`, `Created_tmp_tables`.
    pub plan_stats: crate::observe::status::PlanStats,
}

impl Prepared {
    /// The `catalog_version` of a plan that must not be reused: no catalog has it, so the
    /// plan cache never returns it and a prepared statement re-plans at each execution.
    pub const UNCACHEABLE: u64 = u64::MAX;

    pub fn reusable(&self) -> bool {
        self.catalog_version != Prepared::UNCACHEABLE
    }

    /// Planned against this catalog version and the current statistics?
    pub fn current(&self, catalog_version: u64) -> bool {
        self.catalog_version == catalog_version
            && self.stats_epoch == crate::storage::stats::epoch()
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
            Planned::Multi(p) => p.select.sources.iter().any(|s| match &s.kind {
                SourceKind::Table { access, .. } => scan(access),
                _ => false,
            }),
            _ => false,
        }
    }

    /// What one execution adds to `Select_*`, `Sort_*` and `Created_tmp_tables` (see
    /// `observe::status`): each query block (derived tables and UNION branches too) by how
    /// its tables are read.
    pub fn plan_stats(planned: &Planned) -> crate::observe::status::PlanStats {
        use plan::{Access, SelectPlan, SourceKind};
        #[derive(PartialEq)]
        enum Read {
            Scan,
            Range,
            Other,
        }
        let read = |a: &Access| match a {
            Access::Scan { .. } => Read::Scan,
            Access::Index { .. } if a.key_shape().1 => Read::Range,
            Access::Index { .. } => Read::Other,
        };
        fn bump(n: &mut u8) {
            *n = n.saturating_add(1);
        }
        fn block(
            p: &SelectPlan,
            st: &mut crate::observe::status::PlanStats,
            read: &dyn Fn(&Access) -> Read,
        ) {
            let mut first = None;
            for (i, s) in p.sources.iter().enumerate() {
                match &s.kind {
                    SourceKind::Table { access, .. } => {
                        let r = read(access);
                        match (i == 0, &r) {
                            (true, Read::Scan) => bump(&mut st.select_scan),
                            (true, Read::Range) => bump(&mut st.select_range),
                            (false, Read::Scan) => bump(&mut st.select_full_join),
                            (false, Read::Range) => bump(&mut st.select_full_range_join),
                            _ => {}
                        }
                        if i == 0 {
                            first = Some(r);
                        }
                    }
                    SourceKind::Derived(d) => {
                        bump(&mut st.tmp_tables);
                        block(d, st, read);
                    }
                    _ => {}
                }
            }
            if !p.order.is_empty() && !p.order_satisfied {
                if first == Some(Read::Range) {
                    bump(&mut st.sort_range);
                } else {
                    bump(&mut st.sort_scan);
                }
            }
            if p.agg.as_ref().is_some_and(|a| !a.keys.is_empty())
                || p.distinct
                || p.unions.iter().any(|(_, all)| !all)
            {
                bump(&mut st.tmp_tables);
            }
            for (u, _) in &p.unions {
                block(u, st, read);
            }
        }
        let mut st = crate::observe::status::PlanStats::default();
        match planned {
            Planned::Select(p) => block(p, &mut st, &read),
            Planned::Insert(p) => {
                if let plan::InsertSource::Select(q) = &p.source {
                    block(q, &mut st, &read);
                }
            }
            Planned::Update(plan::UpdatePlan { access, .. })
            | Planned::Delete(plan::DeletePlan { access, .. }) => match read(access) {
                Read::Scan => bump(&mut st.select_scan),
                Read::Range => bump(&mut st.select_range),
                Read::Other => {}
            },
            Planned::Multi(p) => block(&p.select, &mut st, &read),
            Planned::Other(_) => {}
        }
        st
    }

    /// The `Com_*` counter of a statement of `kind` planned as `planned`.
    pub fn com(kind: lexer::StatementKind, planned: &Planned) -> crate::observe::status::Stat {
        use crate::observe::status::{Stat, com_of};
        use admin::{AdminStmt, Show};
        let show = match planned {
            Planned::Insert(p) => {
                return com_of(kind, matches!(p.source, plan::InsertSource::Select(_)));
            }
            Planned::Multi(p) if p.delete => return Stat::ComDeleteMulti,
            Planned::Multi(_) => return Stat::ComUpdateMulti,
            Planned::Other(Statement::Admin(a)) => match a {
                AdminStmt::Show(s) => s,
                AdminStmt::Describe { .. } => return Stat::ComShowFields,
                AdminStmt::PurgeLogs(admin::PurgeTarget::Before(_)) => {
                    return Stat::ComPurgeBeforeDate;
                }
                _ => return com_of(kind, false),
            },
            Planned::Other(Statement::Ast(a))
                if matches!(**a, sqlparser::ast::Statement::RenameTable(_))
                    || kind != lexer::StatementKind::Rename =>
            {
                return com_of(kind, false);
            }
            Planned::Other(Statement::Ast(_)) => return Stat::ComRenameUser,
            _ => return com_of(kind, false),
        };
        match show {
            Show::Variables { .. } => Stat::ComShowVariables,
            Show::Status { .. } => Stat::ComShowStatus,
            Show::Databases { .. } => Stat::ComShowDatabases,
            Show::Tables { .. } => Stat::ComShowTables,
            Show::TableStatus { .. } => Stat::ComShowTableStatus,
            Show::Columns { .. } => Stat::ComShowFields,
            Show::Index { .. } => Stat::ComShowKeys,
            // MySQL counts SHOW CREATE VIEW as a SHOW CREATE TABLE.
            Show::CreateTable(_) | Show::CreateView(_) => Stat::ComShowCreateTable,
            Show::CreateDatabase { .. } => Stat::ComShowCreateDb,
            Show::CreateUser { .. } => Stat::ComShowCreateUser,
            Show::Warnings {
                errors_only: true, ..
            } => Stat::ComShowErrors,
            Show::Warnings { .. } => Stat::ComShowWarnings,
            Show::Engines => Stat::ComShowStorageEngines,
            Show::Charset { .. } => Stat::ComShowCharsets,
            Show::Collation { .. } => Stat::ComShowCollations,
            Show::Processlist { .. } => Stat::ComShowProcesslist,
            Show::Grants { .. } => Stat::ComShowGrants,
            Show::Privileges => Stat::ComShowPrivileges,
            Show::Plugins => Stat::ComShowPlugins,
            Show::MasterStatus => Stat::ComShowMasterStatus,
            Show::BinaryLogs => Stat::ComShowBinlogs,
            Show::BinlogEvents { .. } => Stat::ComShowBinlogEvents,
            Show::EngineStatus(_) => Stat::ComShowEngineStatus,
            Show::OpenTables => Stat::ComShowOpenTables,
            Show::Profiles => Stat::ComShowProfiles,
            Show::Profile { .. } => Stat::ComShowProfile,
            Show::Triggers => Stat::ComShowTriggers,
            Show::Events => Stat::ComShowEvents,
            Show::ProcedureStatus => Stat::ComShowProcedureStatus,
            Show::FunctionStatus => Stat::ComShowFunctionStatus,
        }
    }

    pub fn is_select(&self) -> bool {
        matches!(self.planned, Planned::Select(_))
    }

    /// Does executing it write rows (and so need a transaction)?
    pub fn writes(&self) -> bool {
        matches!(
            self.planned,
            Planned::Insert(_) | Planned::Update(_) | Planned::Delete(_) | Planned::Multi(_)
        )
    }

    /// A locking read?
    pub fn locks(&self) -> bool {
        matches!(&self.planned, Planned::Select(p) if p.lock.is_some())
    }
}
