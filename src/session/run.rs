//! Running statements: plan lookup, transactions, lock waits, results.
//!
//! ## Transactions
//!
//! | state | a write statement runs in | ends |
//! |---|---|---|
//! | autocommit=1, no BEGIN | its own transaction | committed (or rolled back) when the statement ends |
//! | after BEGIN, or autocommit=0 | the session's transaction | at COMMIT/ROLLBACK, DDL (implicit commit), or disconnect (rollback) |
//!
//! A failed statement rolls back only its own changes (InnoDB's statement rollback); a deadlock
//! rolls back the whole transaction (error 1213); a lock wait timeout rolls back the statement
//! (1205), as with `innodb_rollback_on_timeout=OFF`.
//!
//! ## Lock waits
//!
//! The executor never blocks: when a row lock (or a table's metadata lock) is taken, it
//! returns a [`Wait`]. The runner rolls the statement's partial changes back (keeping its
//! locks), checks the wait-for graph for a deadlock, awaits the lock with
//! `innodb_lock_wait_timeout` (or a KILL), and re-executes the statement. Locks are granted
//! to waiters in FIFO order, so re-execution finds the awaited lock already held.
//!
//! ## Snapshots
//!
//! A plain SELECT in autocommit mode reads at a snapshot taken for the statement. Inside a
//! transaction, REPEATABLE READ uses the snapshot taken at the transaction's first read (or at
//! `START TRANSACTION WITH CONSISTENT SNAPSHOT`); READ COMMITTED takes one per statement. The
//! snapshot in use is published in the session's slot so purge keeps what it needs.

use super::profile::Stage;
use super::{Ctx, sql_mode};
use crate::error::{MyError, Result, code};
use crate::observe::status::Stat;
use crate::sql::admin::{AdminStmt, TxScope};
use crate::sql::bind::{NEEDS_LITERALS, ParamInfo};
use crate::sql::cache::PlanRef;
use crate::sql::dml::WriteResult;
use crate::sql::exec::{ExecCx, ExecError, RowSink, VecSink, Wait, run_select};
use crate::sql::expr::Env;
use crate::sql::lexer::{self, LexOptions, Literal, Mark, StatementKind};
use crate::sql::plan::SelectPlan;
use crate::sql::planner::Planner;
use crate::sql::types::{ColumnMeta, SqlType};
use crate::sql::utility::Outcome;
use crate::sql::value::Value;
use crate::sql::{Planned, Prepared, Statement, ddl, parse, utility};
use crate::storage::table::ReadView;
use mysql_common::constants::StatusFlags;
use sqlparser::ast;
use std::sync::Arc;
use std::time::Duration;

/// Where a statement's response goes (the wire, in text or binary protocol).
pub trait Responder: RowSink {
    fn begin_rows(&mut self, cols: &Arc<[ColumnMeta]>, types: &Arc<[SqlType]>) -> Result<()>;
    fn end_rows(&mut self, status: StatusFlags, warnings: u16) -> Result<()>;
    fn ok(
        &mut self,
        affected: u64,
        last_insert_id: u64,
        status: StatusFlags,
        warnings: u16,
        info: &str,
    ) -> Result<()>;
    fn error(&mut self, e: &MyError) -> Result<()>;
}

/// Bound on statement re-executions caused by lock waits in one statement (each waits for
/// a lock or fails, so this only guards against a livelock bug).
const RETRIES_MAX: usize = 100_000;

fn literal_value(l: &Literal) -> Value {
    match l {
        Literal::Int(i) => Value::Int(*i),
        Literal::UInt(u) => Value::UInt(*u),
        Literal::Decimal(s) => {
            crate::sql::bind::number_literal(s).unwrap_or_else(|_| Value::str(s))
        }
        Literal::Double(f) => Value::Double(*f),
        Literal::Str(b) => Value::bytes(b),
    }
}

fn deadlock() -> MyError {
    MyError::new(
        code::ER_LOCK_DEADLOCK,
        "Deadlock found when trying to get lock; try restarting transaction",
    )
}

fn lock_timeout() -> MyError {
    MyError::new(
        code::ER_LOCK_WAIT_TIMEOUT,
        "Lock wait timeout exceeded; try restarting transaction",
    )
}

impl Ctx {
    pub fn lex_options(&self) -> LexOptions {
        LexOptions {
            ansi_quotes: self.ansi_quotes(),
            no_backslash_escapes: self.no_backslash_escapes(),
            server_version: 80040,
        }
    }

    /// Server status flags for OK/EOF packets.
    pub fn status_flags(&self, more_results: bool) -> StatusFlags {
        let mut s = StatusFlags::empty();
        if self.autocommit {
            s |= StatusFlags::SERVER_STATUS_AUTOCOMMIT;
        }
        if self.txn.as_ref().is_some_and(|t| t.explicit) {
            s |= StatusFlags::SERVER_STATUS_IN_TRANS;
            if self.txn.as_ref().is_some_and(|t| t.read_only) {
                s |= StatusFlags::SERVER_STATUS_IN_TRANS_READONLY;
            }
        }
        if more_results {
            s |= StatusFlags::SERVER_MORE_RESULTS_EXISTS;
        }
        s
    }

    /// Plan `text` (already placeholder-numbered) with `params` describing its placeholders.
    pub fn plan_text(
        &self,
        numbered: &str,
        params: &[ParamInfo],
        kind: StatementKind,
    ) -> Result<Prepared> {
        let stmt = parse::parse(numbered)?;
        let storage = self.server.storage.clone();
        let version = storage.catalog.version();
        let stats_epoch = crate::storage::stats::epoch();
        let rewritten;
        let text = if numbered.contains("LOCK")
            || numbered.contains("lock")
            || numbered.contains(":=")
            || numbered.to_ascii_uppercase().contains(" MOD ")
        {
            rewritten = parse::rewritten(numbered);
            rewritten.as_str()
        } else {
            numbered
        };
        let mut planner = Planner::new(&storage, self.db.as_deref(), text);
        planner.conn_coll = self.conn_coll;
        planner.only_full_group_by = self.sql_mode & sql_mode::ONLY_FULL_GROUP_BY != 0;
        planner.log_tables = Some(&self.server.logs);
        planner.session = Some(self);
        let (planned, columns, types) = match stmt {
            Statement::Ast(ast) => match *ast {
                ast::Statement::Query(q) => {
                    let p = planner.plan_query(&q, params, None)?;
                    let (c, t) = (p.columns.clone(), p.types.clone());
                    (Planned::Select(p), c, t)
                }
                ast::Statement::Insert(ins) => (
                    Planned::Insert(planner.plan_insert(&ins, params)?),
                    vec![],
                    vec![],
                ),
                ast::Statement::Update(u)
                    if crate::sql::sysschema::setup_target(&u, self.db.as_deref()).is_some() =>
                {
                    // Interpreted at execution from its text: planned with its literals.
                    if !params.is_empty() {
                        return Err(crate::sql::bind::needs_literals());
                    }
                    (
                        Planned::Other(Statement::Ast(Box::new(ast::Statement::Update(u)))),
                        vec![],
                        vec![],
                    )
                }
                ast::Statement::Update(u) => {
                    (planner.plan_update_stmt(&u, params)?, vec![], vec![])
                }
                ast::Statement::Delete(d) => {
                    (planner.plan_delete_stmt(&d, params)?, vec![], vec![])
                }
                other => (
                    Planned::Other(Statement::Ast(Box::new(other))),
                    vec![],
                    vec![],
                ),
            },
            admin => (Planned::Other(admin), vec![], vec![]),
        };
        Ok(Prepared {
            full_scan: Prepared::plans_full_scan(&planned),
            com: Prepared::com(kind, &planned),
            plan_stats: Prepared::plan_stats(&planned),
            planned,
            param_count: planner.param_count.get(),
            columns: columns.into(),
            types: types.into(),
            catalog_version: if planner.uncacheable.get() {
                Prepared::UNCACHEABLE
            } else {
                version
            },
            stats_epoch,
            kind,
            param_typed_columns: planner.param_typed_columns.get(),
        })
    }

    /// The plan for a text statement: from the cache, or planned (and cached).
    fn plan_for_text(
        &mut self,
        text: &str,
        norm: &lexer::Normalized,
    ) -> Result<(PlanRef, Vec<Value>)> {
        let kind = norm.kind;
        // The cache is shared: a session with temporary tables (which shadow names for it
        // alone) neither uses nor fills it.
        let cacheable = matches!(
            kind,
            StatementKind::Select
                | StatementKind::Insert
                | StatementKind::Update
                | StatementKind::Delete
                | StatementKind::Replace
        ) && self.temp_tables.is_empty();
        let version = self.server.storage.catalog.version();
        let db = self.db.as_deref();
        let lit_params = || norm.literals.iter().map(literal_value).collect::<Vec<_>>();
        if cacheable {
            let (flavor, shared) = (self.plan_flavor(), &self.server.plans);
            if let Some(p) = self
                .plans
                .get(shared, db, flavor, &norm.param_text, version)
                && !matches!(p.planned, Planned::Other(_))
            {
                return Ok((p, lit_params()));
            }
            if let Some(p) = self.plans.get(shared, db, flavor, text, version) {
                return Ok((p, Vec::new()));
            }
        }
        if !norm
            .placeholders
            .iter()
            .any(|m| matches!(m, Mark::Param(_)))
        {
            // Plan the parameterised text.
            let infos: Vec<ParamInfo> = norm
                .placeholders
                .iter()
                .map(|m| match m {
                    Mark::Literal(i) => norm
                        .literals
                        .get(*i)
                        .map(|l| ParamInfo::Literal(literal_value(l)))
                        .unwrap_or(ParamInfo::Client),
                    Mark::Param(_) => ParamInfo::Client,
                })
                .collect();
            let (numbered, _) = parse::number_placeholders(&norm.param_text);
            self.profiler.mark(Stage::Optimizing);
            match self.plan_text(&numbered, &infos, kind) {
                Ok(p) => {
                    let p = Arc::new(p);
                    // Bulk inserts rarely repeat their exact shape: don't fill the cache.
                    if cacheable && norm.literals.len() <= 64 && p.reusable() {
                        self.server
                            .plans
                            .put(db, self.plan_flavor(), &norm.param_text, p.clone());
                    }
                    return Ok((Arc::new(p), lit_params()));
                }
                Err(e) if e.code == NEEDS_LITERALS => {}
                Err(e) => {
                    if norm.literals.is_empty() {
                        return Err(e);
                    }
                    // The parameterised form may be unparseable where the original is fine;
                    // fall through and let the original decide.
                }
            }
        } else {
            // A `?` in a text query is a syntax error in MySQL.
            return Err(MyError::parse("?", 1));
        }
        self.profiler.mark(Stage::Optimizing);
        let p = Arc::new(self.plan_text(text, &[], kind)?);
        if cacheable && p.reusable() {
            self.server
                .plans
                .put(db, self.plan_flavor(), text, p.clone());
        }
        Ok((Arc::new(p), Vec::new()))
    }

    /// Take (or reuse) the read view for a statement.
    fn statement_view(&mut self) -> ReadView {
        // Borrowed, not cloned: every session shares the storage's reference count.
        let storage = &self.server.storage;
        match &mut self.txn {
            Some(txn) => {
                let snapshot = if txn.isolation.snapshot_per_statement() {
                    storage.txns.take_snapshot(&self.snapshot_slot)
                } else {
                    match txn.snapshot {
                        Some(s) => s,
                        None => {
                            let s = storage.txns.take_snapshot(&self.snapshot_slot);
                            txn.snapshot = Some(s);
                            s
                        }
                    }
                };
                ReadView {
                    me: txn.id(),
                    snapshot,
                }
            }
            None => ReadView {
                me: 0,
                snapshot: storage.txns.take_snapshot(&self.snapshot_slot),
            },
        }
    }

    /// After a statement outside a transaction: release the snapshot.
    fn end_statement_view(&mut self) {
        if self.txn.is_none() {
            self.snapshot_slot.clear();
        }
    }

    fn begin_txn(&mut self, explicit: bool, read_only: Option<bool>) {
        let iso = self.isolation_for_new_txn();
        let ro = read_only
            .or(self.next_read_only.take())
            .unwrap_or(self.tx_read_only);
        self.txn = Some(self.server.storage.begin(iso, ro, explicit));
    }

    /// The open transaction and the position of its savepoint `name` (1305 without).
    fn savepoint(&mut self, name: &str) -> Result<(&mut crate::storage::txn::Txn, usize)> {
        let txn = self.txn.as_mut().ok_or_else(|| no_savepoint(name))?;
        let i = txn.savepoint(name).ok_or_else(|| no_savepoint(name))?;
        Ok((txn, i))
    }

    /// After COMMIT or ROLLBACK: AND CHAIN opens the next transaction (read-only as the
    /// last one was), RELEASE ends the connection.
    fn end_chain(&mut self, chain: bool, release: bool, read_only: Option<bool>) {
        if chain {
            self.begin_txn(true, read_only);
        }
        if release {
            self.shared.killed.store(
                crate::server::KILL_CONNECTION,
                std::sync::atomic::Ordering::Relaxed,
            );
        }
    }

    /// Commit the open transaction (if any).
    pub async fn commit(&mut self) -> Result<()> {
        if let Some(txn) = self.txn.take() {
            self.shared.status.add(Stat::HandlerCommit, 1);
            let txn = if txn.has_durable_writes() {
                match self.journal_commit(txn).await {
                    Ok(t) => t,
                    Err(e) => {
                        self.snapshot_slot.clear();
                        return Err(e);
                    }
                }
            } else {
                if txn.has_writes() {
                    // Temporary tables only: visible now, nothing for the journal.
                    self.server.storage.txns.publish(&txn.shared);
                }
                txn
            };
            if super::commit::is_large(&txn) {
                let storage = &self.server.storage;
                super::threads::bulk(|| storage.finalize(txn));
            } else {
                self.server.storage.finalize(txn);
            }
        }
        self.snapshot_slot.clear();
        Ok(())
    }

    pub fn rollback(&mut self) {
        if let Some(txn) = self.txn.take() {
            self.shared.status.add(Stat::HandlerRollback, 1);
            self.server.storage.rollback(txn);
        }
        self.snapshot_slot.clear();
    }

    /// Wait for what the executor asked for. On error the statement fails with it.
    async fn wait(&mut self, w: Wait) -> Result<()> {
        let started = std::time::Instant::now();
        let r = self.wait_for(w).await;
        self.rec.lock_wait_us += started.elapsed().as_micros() as u64;
        r
    }

    async fn wait_for(&mut self, w: Wait) -> Result<()> {
        let storage = self.server.storage.clone();
        let me = self.txn.as_ref().map(|t| t.id()).unwrap_or(0);
        let timeout = Duration::from_secs(self.lock_wait_timeout_s.clamp(1, 1_073_741_824));
        match w {
            Wait::Retry => {
                tokio::task::yield_now().await;
                Ok(())
            }
            Wait::Mdl(table) => {
                let shared = self.shared.clone();
                let lock_wait = Duration::from_secs(
                    self.vars
                        .get_u64(crate::config::vars::LOCK_WAIT_TIMEOUT)
                        .clamp(1, 31_536_000),
                );
                let killed = shared.kill_notify.notified();
                tokio::pin!(killed);
                killed.as_mut().enable();
                if self.is_killed() {
                    return Err(MyError::query_interrupted());
                }
                tokio::select! {
                    g = tokio::time::timeout(lock_wait, table.mdl.clone().read_owned()) => match g {
                        Ok(g) => {
                            if let Some(txn) = self.txn.as_mut()
                                && !txn.holds_mdl(&table) {
                                    txn.mdl.push((table, g));
                                }
                            Ok(())
                        }
                        Err(_) => Err(MyError::new(code::ER_LOCK_WAIT_TIMEOUT, "Lock wait timeout exceeded; try restarting transaction")),
                    },
                    _ = killed => Err(MyError::query_interrupted()),
                }
            }
            Wait::Lock { slot, waiter, mode } => {
                storage.waits.start_waiting(me, slot.clone(), mode);
                let record_grant = |ctx: &mut Ctx| {
                    if let Some(txn) = ctx.txn.as_mut()
                        && !txn.locked.iter().any(|s| Arc::ptr_eq(s, &slot))
                    {
                        txn.locked.push(slot.clone());
                    }
                };
                if storage.waits.is_deadlocked(me, &slot, mode) {
                    storage.waits.stop_waiting(me);
                    let granted = slot.state.lock().lock.cancel(&waiter);
                    if granted {
                        record_grant(self);
                        return Ok(());
                    }
                    return Err(deadlock());
                }
                let shared = self.shared.clone();
                let killed = shared.kill_notify.notified();
                tokio::pin!(killed);
                killed.as_mut().enable();
                let outcome = if self.is_killed() {
                    false
                } else {
                    tokio::select! {
                        r = tokio::time::timeout(timeout, waiter.wait()) => r.is_ok(),
                        _ = killed => false,
                    }
                };
                storage.waits.stop_waiting(me);
                if outcome || slot.state.lock().lock.cancel(&waiter) {
                    record_grant(self);
                    return Ok(());
                }
                if self.is_killed() {
                    return Err(MyError::query_interrupted());
                }
                Err(lock_timeout())
            }
        }
    }

    /// Run a SELECT plan, streaming rows to `resp` (buffered when it may have to restart).
    async fn run_query_plan(
        &mut self,
        prep: &Arc<Prepared>,
        plan: &SelectPlan,
        params: &[Value],
        resp: &mut (dyn Responder + Send),
        more: bool,
    ) -> Result<u64> {
        if !plan.into_vars.is_empty() {
            return self.run_select_into(plan, params, resp, more).await;
        }
        let locking = plan.lock.is_some();
        if !locking && !self.autocommit && self.txn.is_none() {
            // autocommit=0: the first statement opens the transaction its snapshot lives in.
            self.begin_txn(true, None);
        }
        if !locking {
            let view = self.statement_view();
            self.stmt_view = view;
            resp.begin_rows(&prep.columns, &prep.types)?;
            self.stage(Stage::SendingData);
            let r = {
                let mut cx = ExecCx {
                    env: Env { params, ctx: self },
                    txn: None,
                    view,
                    rows_examined: 0,
                };
                let r = run_select(plan, &mut cx, resp);
                (r, cx.rows_examined)
            };
            let (r, examined) = r;
            self.rec.rows_examined += examined;
            if self.txn.is_none() {
                // An autocommit read is a transaction of its own, as MySQL counts them.
                self.shared.status.add(Stat::HandlerCommit, 1);
            }
            self.end_statement_view();
            return match r {
                Ok(n) => {
                    let st = self.status_flags(more);
                    resp.end_rows(st, self.diag.own_count())?;
                    Ok(n)
                }
                Err(ExecError::Sql(e)) => Err(e),
                Err(ExecError::Wait(_)) => Err(MyError::internal("a plain read had to wait")),
            };
        }
        // Locking read: needs a transaction; rows are buffered until the statement is done.
        let implicit = self.txn.is_none();
        if implicit {
            self.begin_txn(!self.autocommit, None);
        }
        let mut attempts = 0;
        let result = loop {
            attempts += 1;
            let view = self.statement_view();
            self.stmt_view = view;
            let mut txn = self.txn.take().expect("transaction opened above");
            let mut sink = VecSink::default();
            let r = {
                let mut cx = ExecCx {
                    env: Env { params, ctx: self },
                    txn: Some(&mut txn),
                    view,
                    rows_examined: 0,
                };
                let r = run_select(plan, &mut cx, &mut sink);
                (r, cx.rows_examined)
            };
            let (r, examined) = r;
            self.rec.rows_examined += examined;
            self.txn = Some(txn);
            match r {
                Ok(_) => break Ok(sink.rows),
                Err(ExecError::Sql(e)) => break Err(e),
                Err(ExecError::Wait(w)) => {
                    if attempts > RETRIES_MAX {
                        break Err(MyError::internal("too many lock-wait retries"));
                    }
                    if let Err(e) = self.wait(w).await {
                        if e.code == code::ER_LOCK_DEADLOCK {
                            self.rollback();
                        }
                        break Err(e);
                    }
                }
            }
        };
        if implicit && self.autocommit {
            // Locks of an autocommit locking read end with the statement.
            self.commit().await?;
        }
        let rows = result?;
        resp.begin_rows(&prep.columns, &prep.types)?;
        self.stage(Stage::SendingData);
        for r in &rows {
            resp.row(r)?;
        }
        let st = self.status_flags(more);
        resp.end_rows(st, self.diag.own_count())?;
        Ok(rows.len() as u64)
    }

    /// `SELECT … INTO @a, …`: at most one row, stored in user variables; answered with OK.
    async fn run_select_into(
        &mut self,
        plan: &SelectPlan,
        params: &[Value],
        resp: &mut (dyn Responder + Send),
        more: bool,
    ) -> Result<u64> {
        if !self.autocommit && self.txn.is_none() {
            self.begin_txn(true, None);
        }
        let view = self.statement_view();
        self.stmt_view = view;
        let mut sink = VecSink::default();
        let r = {
            let mut cx = ExecCx {
                env: Env { params, ctx: self },
                txn: None,
                view,
                rows_examined: 0,
            };
            let r = run_select(plan, &mut cx, &mut sink);
            (r, cx.rows_examined)
        };
        let (r, examined) = r;
        self.rec.rows_examined += examined;
        self.end_statement_view();
        match r {
            Ok(_) => {}
            Err(ExecError::Sql(e)) => return Err(e),
            Err(ExecError::Wait(_)) => return Err(MyError::internal("a plain read had to wait")),
        }
        let count = sink.rows.len() as u64;
        match sink.rows.len() {
            0 => self.diag.warn(
                code::ER_SP_FETCH_NO_DATA,
                "No data - zero rows fetched, selected, or processed",
            ),
            1 => {
                let row = sink.rows.pop().unwrap_or_default();
                for (name, v) in plan.into_vars.iter().zip(row) {
                    self.user_vars.insert(name.clone(), v);
                }
            }
            _ => {
                return Err(MyError::new(
                    code::ER_TOO_MANY_ROWS,
                    "Result consisted of more than one row",
                ));
            }
        }
        let st = self.status_flags(more);
        resp.ok(count, 0, st, self.diag.own_count(), "")?;
        Ok(count)
    }

    /// Run a write plan in the right transaction, waiting for locks as needed. In autocommit
    /// mode the statement's transaction commits at the end; as the `last` statement of its
    /// command it is left for the connection to hand to the journal writer with the OK (see
    /// [`Ctx::commit_last`]).
    async fn run_write(
        &mut self,
        prep: &Arc<Prepared>,
        params: &[Value],
        last: bool,
    ) -> Result<WriteResult> {
        if self.txn.as_ref().is_some_and(|t| t.read_only)
            || (self.txn.is_none() && self.tx_read_only && !self.autocommit)
        {
            return Err(MyError::new(
                code::ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION,
                "Cannot execute statement in a READ ONLY transaction.",
            ));
        }
        let statement_txn = self.txn.is_none() && self.autocommit;
        if self.txn.is_none() {
            self.begin_txn(!self.autocommit, None);
        }
        let mut attempts = 0;
        loop {
            attempts += 1;
            let view = self.statement_view();
            self.stmt_view = view;
            let mut txn = self.txn.take().expect("transaction opened above");
            let mark = txn.writes.len();
            let r = {
                let mut cx = ExecCx {
                    env: Env { params, ctx: self },
                    txn: Some(&mut txn),
                    view,
                    rows_examined: 0,
                };
                let r = match &prep.planned {
                    Planned::Insert(p) => crate::sql::dml::run_insert(p, &mut cx),
                    Planned::Update(p) => crate::sql::dml::run_update(p, &mut cx),
                    Planned::Delete(p) => crate::sql::dml::run_delete(p, &mut cx),
                    Planned::Multi(p) => crate::sql::dml::run_multi(p, &mut cx),
                    _ => Err(ExecError::Sql(MyError::internal("not a write plan"))),
                };
                (r, cx.rows_examined)
            };
            let (r, examined) = r;
            self.rec.rows_examined += examined;
            match r {
                Ok(res) => {
                    self.txn = Some(txn);
                    if statement_txn && last {
                        self.commit_last().await?;
                    } else if statement_txn {
                        self.commit().await?;
                    }
                    return Ok(res);
                }
                Err(ExecError::Sql(e)) => {
                    self.server.storage.rollback_to(&mut txn, mark);
                    self.txn = Some(txn);
                    if statement_txn {
                        self.rollback();
                    }
                    return Err(e);
                }
                Err(ExecError::Wait(w)) => {
                    self.server.storage.rollback_to(&mut txn, mark);
                    self.txn = Some(txn);
                    let stale = matches!(w, Wait::Retry)
                        && prep.catalog_version != self.server.storage.catalog.version();
                    if attempts > RETRIES_MAX {
                        if statement_txn {
                            self.rollback();
                        }
                        return Err(MyError::internal("too many lock-wait retries"));
                    }
                    if let Err(e) = self.wait(w).await {
                        if e.code == code::ER_LOCK_DEADLOCK || statement_txn {
                            self.rollback();
                        }
                        return Err(e);
                    }
                    if stale {
                        if statement_txn {
                            self.rollback();
                        }
                        return Err(MyError::new(
                            code::ER_TABLE_DEF_CHANGED,
                            "Table definition has changed, please retry transaction",
                        ));
                    }
                }
            }
        }
    }

    /// Execute a prepared statement with parameter values; write the response.
    pub async fn execute_prepared(
        &mut self,
        prep: &Arc<Prepared>,
        params: &[Value],
        resp: &mut (dyn Responder + Send),
        more: bool,
    ) -> Result<()> {
        self.stage(Stage::SystemLock);
        let r = self.execute_planned(prep, params, resp, more).await;
        self.stage(Stage::End);
        r
    }

    async fn execute_planned(
        &mut self,
        prep: &Arc<Prepared>,
        params: &[Value],
        resp: &mut (dyn Responder + Send),
        more: bool,
    ) -> Result<()> {
        // A commit deferred by a caller other than the connection's command loop.
        if let Some(d) = self.deferred.take() {
            self.commit_deferred(d).await?;
        }
        if self.connection_killed() {
            return Err(MyError::query_interrupted());
        }
        self.rec.no_index_used = prep.full_scan;
        self.rec.kind = prep.kind;
        self.rec.com = Some(prep.com);
        self.shared.status.add(prep.com, 1);
        if let Some(also) = crate::observe::status::com_also(prep.kind) {
            self.shared.status.add(also, 1);
        }
        self.rec.plan = prep.plan_stats;
        self.rec.admin = is_admin_statement(prep.kind);
        self.stage(Stage::Executing);
        match &prep.planned {
            Planned::Select(plan) => {
                let n = self.run_query_plan(prep, plan, params, resp, more).await?;
                self.found_rows = n;
                self.prev_row_count = -1;
                Ok(())
            }
            Planned::Insert(_) | Planned::Update(_) | Planned::Delete(_) | Planned::Multi(_) => {
                let r = self.run_write(prep, params, !more).await?;
                if let Some(id) = r.generated_id
                    && !self.last_insert_id_set_explicitly
                {
                    self.last_insert_id = id;
                }
                self.prev_row_count = r.affected as i64;
                let st = self.status_flags(more);
                resp.ok(
                    r.affected,
                    r.insert_id,
                    st,
                    self.diag.own_count(),
                    r.info.as_deref().unwrap_or(""),
                )
            }
            Planned::Other(stmt) => self.run_other(stmt, resp, more).await,
        }
    }

    /// Statements that are not planned: transactions, DDL, SET, SHOW…
    async fn run_other(
        &mut self,
        stmt: &Statement,
        resp: &mut (dyn Responder + Send),
        more: bool,
    ) -> Result<()> {
        let outcome = match stmt {
            Statement::Admin(a) => match a {
                AdminStmt::Begin {
                    read_only,
                    consistent_snapshot,
                } => {
                    self.commit().await?;
                    self.begin_txn(true, *read_only);
                    if *consistent_snapshot {
                        let _ = self.statement_view();
                    }
                    Outcome::ok()
                }
                AdminStmt::Commit { chain, release } => {
                    let ro = self.txn.as_ref().map(|t| t.read_only);
                    if *chain || *release || more {
                        self.commit().await?;
                    } else {
                        self.commit_last().await?;
                    }
                    self.end_chain(*chain, *release, ro);
                    Outcome::ok()
                }
                AdminStmt::Rollback {
                    chain,
                    release,
                    savepoint,
                } => {
                    if let Some(name) = savepoint {
                        let storage = self.server.storage.clone();
                        let (txn, i) = self.savepoint(name)?;
                        // Savepoints set after this one go; this one stays. Row locks
                        // taken since stay too, as in InnoDB.
                        let mark = txn.savepoints[i].1;
                        txn.savepoints.truncate(i + 1);
                        storage.rollback_to(txn, mark);
                    } else {
                        let ro = self.txn.as_ref().map(|t| t.read_only);
                        self.rollback();
                        self.end_chain(*chain, *release, ro);
                    }
                    Outcome::ok()
                }
                AdminStmt::Flush(what) => {
                    if what.iter().any(|w| w == "STATUS") {
                        // The session's counters go to the global totals and restart.
                        self.server.status.retired.take(&self.shared.status, true);
                    }
                    let logs = flushed_logs(what);
                    if logs.binary {
                        self.flush_binary_logs().await?;
                    }
                    if !logs.query.is_empty() {
                        let server = self.server.clone();
                        crate::session::threads::blocking(|| {
                            for w in logs.query {
                                server.logs.reopen(&[w], true);
                            }
                        });
                    }
                    Outcome::ok()
                }
                AdminStmt::PurgeLogs(target) => self.purge_binary_logs(target)?,
                AdminStmt::CreateView(spec) => {
                    self.commit().await?;
                    let server = self.server.clone();
                    let _gate = server.ddl_gate.read().await;
                    let v = crate::sql::view::create(self, spec)?;
                    self.journal_ddl(&crate::sql::view::create_sql(&v, true))
                        .await?;
                    Outcome::ok()
                }
                AdminStmt::ResetMaster(to) => {
                    self.commit().await?;
                    self.reset_master(*to).await?;
                    Outcome::ok()
                }
                AdminStmt::Savepoint(name) => {
                    if self.txn.is_none() && !self.autocommit {
                        self.begin_txn(false, None);
                    }
                    // With autocommit on and no transaction open, the savepoint ends at once.
                    if let Some(txn) = &mut self.txn {
                        if let Some(i) = txn.savepoint(name) {
                            txn.savepoints.remove(i);
                        }
                        let mark = txn.writes.len();
                        txn.savepoints.push((name.clone(), mark));
                    }
                    Outcome::ok()
                }
                AdminStmt::ReleaseSavepoint(name) => {
                    let (txn, i) = self.savepoint(name)?;
                    txn.savepoints.truncate(i);
                    Outcome::ok()
                }
                AdminStmt::SetTransaction {
                    scope,
                    isolation,
                    read_only,
                } => {
                    match scope {
                        TxScope::Next => {
                            if self.txn.as_ref().is_some_and(|t| t.explicit) {
                                return Err(MyError::new(
                                    1568,
                                    "Transaction characteristics can't be changed while a transaction is in progress",
                                ));
                            }
                            if isolation.is_some() {
                                self.next_isolation = *isolation;
                            }
                            if read_only.is_some() {
                                self.next_read_only = *read_only;
                            }
                        }
                        TxScope::Session | TxScope::Global => {
                            let global = *scope == TxScope::Global;
                            if let Some(i) = isolation {
                                utility::set_sysvar(
                                    self,
                                    "transaction_isolation",
                                    global,
                                    Some(Value::str(i.name())),
                                )?;
                            }
                            if let Some(r) = read_only {
                                utility::set_sysvar(
                                    self,
                                    "transaction_read_only",
                                    global,
                                    Some(Value::Int(*r as i64)),
                                )?;
                            }
                        }
                    }
                    Outcome::ok()
                }
                other => {
                    let r = utility::run_admin(self, other);
                    exec_result(r)?
                }
            },
            Statement::Ast(ast) => self.run_ast(ast).await?,
        };
        let st = self.status_flags(more);
        let warnings = self.diag.own_count();
        match outcome {
            Outcome::Ok {
                affected,
                last_insert_id,
                info,
            } => {
                self.prev_row_count = affected as i64;
                resp.ok(
                    affected,
                    last_insert_id,
                    st,
                    warnings,
                    info.as_deref().unwrap_or(""),
                )
            }
            Outcome::Rows {
                columns,
                types,
                rows,
            } => {
                resp.begin_rows(&columns.into(), &types.into())?;
                for r in &rows {
                    resp.row(r)?;
                }
                self.prev_row_count = -1;
                resp.end_rows(st, warnings)
            }
        }
    }

    async fn run_ast(&mut self, stmt: &ast::Statement) -> Result<Outcome> {
        use ast::Statement as S;
        if let S::CreateTable(ct) = stmt
            && let Some(q) = &ct.query
        {
            return self.create_table_select(ct, q).await;
        }
        let ddl = matches!(
            stmt,
            S::CreateDatabase { .. }
                | S::CreateSchema { .. }
                | S::Drop { .. }
                | S::CreateTable(_)
                | S::CreateIndex(_)
                | S::AlterTable(_)
                | S::RenameTable(_)
                | S::Truncate(_)
        );
        let server = self.server.clone();
        let _gate = if ddl {
            Some(server.ddl_gate.read().await)
        } else {
            None
        };
        self.journal_as = None;
        let out = self.run_ast_statement(stmt).await?;
        if ddl {
            let r = match self.journal_as.take() {
                Some(None) => Ok(()),
                Some(Some(text)) => self.journal_ddl(&text).await,
                None => {
                    let text = std::mem::take(&mut self.stmt_text);
                    let r = self.journal_ddl(&text).await;
                    self.stmt_text = text;
                    r
                }
            };
            r?;
        }
        Ok(out)
    }

    /// `CREATE TABLE … [AS] SELECT`: the table is created and journaled as a plain CREATE
    /// TABLE (SHOW CREATE TABLE's text), then its rows are inserted and committed as one
    /// transaction — what MySQL's row-based binary log holds for it. If the rows fail, the
    /// table is dropped again (MySQL 8's atomic DDL leaves no table either).
    async fn create_table_select(
        &mut self,
        ct: &ast::CreateTable,
        q: &ast::Query,
    ) -> Result<Outcome> {
        self.commit().await?;
        let server = self.server.clone();
        let table = 'made: {
            let _gate = server.ddl_gate.read().await;
            let Some(filled) = ddl::create_table_def(self, ct)? else {
                return Ok(Outcome::ok());
            };
            let (db, name) = crate::sql::planner::object_name(&ct.name)?;
            let db = ddl::resolve_db_name(self, db)?;
            if ct.temporary {
                // Not journaled: only its rows' transaction follows (and they are skipped).
                let table = self
                    .temp_table(&db, &name)
                    .ok_or_else(|| MyError::no_such_table(&db, &name))?;
                break 'made (table, filled);
            }
            let table = server
                .storage
                .catalog
                .table(&db, &name)
                .ok_or_else(|| MyError::no_such_table(&db, &name))?;
            // Qualified: the Query event's default database is the session's, which may be
            // another one or none.
            let text = crate::sql::show::create_table_sql(&table.def, 1);
            let unqualified = format!("CREATE TABLE {}", crate::sql::show::quote_ident(&name));
            let text = match text.strip_prefix(&unqualified) {
                Some(rest) => format!(
                    "CREATE TABLE {}.{}{rest}",
                    crate::sql::show::quote_ident(&db),
                    crate::sql::show::quote_ident(&name)
                ),
                None => {
                    server.storage.catalog.remove_table(&db, &name);
                    return Err(MyError::internal("CREATE TABLE text without its name"));
                }
            };
            if let Err(e) = self.journal_ddl(&text).await {
                server.storage.catalog.remove_table(&db, &name);
                return Err(e);
            }
            (table, filled)
        };
        let (table, filled) = table;
        self.fill_created(table, filled, q).await
    }

    /// The rows of `CREATE TABLE … SELECT`: inserted and committed; on failure the table is
    /// dropped again (and the drop journaled, for a base table).
    async fn fill_created(
        &mut self,
        table: Arc<crate::storage::table::Table>,
        filled: Vec<String>,
        q: &ast::Query,
    ) -> Result<Outcome> {
        let server = self.server.clone();
        let quote = crate::sql::show::quote_ident;
        let cols: Vec<String> = filled.iter().map(|c| quote(c)).collect();
        let insert = format!(
            "INSERT INTO {}.{} ({}) {q}",
            quote(&table.def.db),
            quote(&table.def.name),
            cols.join(", ")
        );
        let r = match self.plan_text(&insert, &[], StatementKind::Insert) {
            Ok(prep) => self.run_write(&Arc::new(prep), &[], false).await,
            Err(e) => Err(e),
        };
        let r = match r {
            Ok(r) if self.txn.is_some() => self.commit().await.map(|_| r),
            other => other,
        };
        match r {
            Ok(r) => {
                self.prev_row_count = r.affected as i64;
                Ok(Outcome::Ok {
                    affected: r.affected,
                    info: Some(format!(
                        "Records: {}  Duplicates: 0  Warnings: {}",
                        r.affected,
                        self.diag.own_count()
                    )),
                    last_insert_id: 0,
                })
            }
            Err(e) => {
                self.rollback();
                let (db, name) = (table.def.db.clone(), table.def.name.clone());
                if table.temporary {
                    self.temp_tables.retain(|t| !Arc::ptr_eq(t, &table));
                    return Err(e);
                }
                let _gate = server.ddl_gate.read().await;
                if server.storage.catalog.remove_table(&db, &name).is_some() {
                    let drop = format!("DROP TABLE {}.{}", quote(&db), quote(&name));
                    self.journal_ddl(&drop).await?;
                }
                Err(e)
            }
        }
    }

    async fn run_ast_statement(&mut self, stmt: &ast::Statement) -> Result<Outcome> {
        use ast::Statement as S;
        match stmt {
            S::Set(set) => {
                let was_autocommit = self.autocommit;
                let r = exec_result(utility::run_set(self, set))?;
                if !was_autocommit && self.autocommit && self.txn.is_some() {
                    // SET autocommit=1 commits the open transaction.
                    self.commit().await?;
                }
                Ok(r)
            }
            S::CreateDatabase {
                db_name,
                if_not_exists,
                default_charset,
                default_collation,
                ..
            } => {
                self.commit().await?;
                let (_, name) = crate::sql::planner::object_name(db_name)?;
                ddl::create_database(
                    self,
                    &name,
                    *if_not_exists,
                    default_charset.as_deref(),
                    default_collation.as_deref(),
                )
            }
            S::CreateSchema {
                schema_name,
                if_not_exists,
                options,
                ..
            } => {
                self.commit().await?;
                let name = match schema_name {
                    ast::SchemaName::Simple(n) => crate::sql::planner::object_name(n)?.1,
                    _ => return Err(MyError::not_supported("CREATE SCHEMA AUTHORIZATION")),
                };
                let mut cs = None;
                let mut coll = None;
                for o in options.iter().flatten() {
                    if let ast::SqlOption::KeyValue { key, value } = o {
                        let k = key.value.to_ascii_uppercase();
                        let v = value.to_string().trim_matches(['\'', '"', '`']).to_string();
                        if k.contains("CHARSET") || k.contains("CHARACTER") {
                            cs = Some(v);
                        } else if k.contains("COLLATE") {
                            coll = Some(v);
                        }
                    }
                }
                ddl::create_database(self, &name, *if_not_exists, cs.as_deref(), coll.as_deref())
            }
            S::Drop {
                object_type,
                if_exists,
                names,
                table,
                temporary,
                ..
            } => {
                // DROP TEMPORARY TABLE does not end the transaction (MySQL).
                if !(*temporary && *object_type == ast::ObjectType::Table) {
                    self.commit().await?;
                }
                match object_type {
                    ast::ObjectType::Table => {
                        ddl::drop_tables(self, names, *if_exists, *temporary).await
                    }
                    ast::ObjectType::View => {
                        crate::sql::view::drop(self, names, *if_exists).map(|_| Outcome::ok())
                    }
                    ast::ObjectType::Database | ast::ObjectType::Schema => {
                        let mut out = Outcome::ok();
                        for n in names {
                            let (_, name) = crate::sql::planner::object_name(n)?;
                            out = ddl::drop_database(self, &name, *if_exists).await?;
                        }
                        Ok(out)
                    }
                    ast::ObjectType::Index => {
                        let Some(t) = table else {
                            return Err(MyError::parse("DROP INDEX", 1));
                        };
                        let mut out = Outcome::ok();
                        for n in names {
                            let (_, name) = crate::sql::planner::object_name(n)?;
                            out = ddl::drop_index(self, &name, t).await?;
                        }
                        Ok(out)
                    }
                    other => Err(MyError::not_supported(format!("DROP {other}"))),
                }
            }
            S::CreateTable(ct) => {
                // CREATE TEMPORARY TABLE does not end the transaction (MySQL).
                if !ct.temporary {
                    self.commit().await?;
                }
                ddl::create_table(self, ct).await
            }
            S::CreateIndex(ci) => {
                self.commit().await?;
                ddl::create_index(self, ci).await
            }
            S::AlterTable(at) => {
                self.commit().await?;
                ddl::alter_table(self, at).await
            }
            S::RenameTable(pairs) => {
                self.commit().await?;
                let pairs: Vec<_> = pairs
                    .iter()
                    .map(|p| (p.old_name.clone(), p.new_name.clone()))
                    .collect();
                ddl::rename_tables(self, &pairs).await
            }
            S::Truncate(t) => {
                self.commit().await?;
                let names: Vec<ast::ObjectName> =
                    t.table_names.iter().map(|x| x.name.clone()).collect();
                ddl::truncate(self, &names).await
            }
            S::Use(u) => {
                let name = match u {
                    ast::Use::Object(n) | ast::Use::Database(n) | ast::Use::Schema(n) => {
                        crate::sql::planner::object_name(n)?.1
                    }
                    _ => return Err(MyError::not_supported("this USE")),
                };
                exec_result(utility::run_admin(self, &AdminStmt::Use(name)))
            }
            S::Update(u) => match crate::sql::sysschema::setup_target(u, self.db.as_deref()) {
                Some(instruments) => crate::sql::sysschema::update_setup(self, u, instruments),
                None => Err(MyError::internal("UPDATE should have been planned")),
            },
            S::Analyze(_) => Ok(Outcome::ok()),
            S::Flush { .. } => Ok(Outcome::ok()),
            S::Explain {
                statement,
                format,
                analyze,
                ..
            } => {
                use ast::{AnalyzeFormat as F, AnalyzeFormatKind as K};
                if *analyze {
                    return Err(MyError::not_supported("EXPLAIN ANALYZE"));
                }
                let tree = match format {
                    None | Some(K::Keyword(F::TRADITIONAL) | K::Assignment(F::TRADITIONAL)) => {
                        false
                    }
                    Some(K::Keyword(F::TREE) | K::Assignment(F::TREE)) => true,
                    Some(other) => {
                        return Err(MyError::not_supported(format!("EXPLAIN {other}")));
                    }
                };
                // Planned from its text like any statement, literals and all; not run.
                let text = statement.to_string();
                let kind = lexer::statement_kind(&text, &lexer::LexOptions::default());
                let prep = self.plan_text(&text, &[], kind)?;
                crate::sql::explain::explain(&prep.planned, tree)
            }
            S::ShowVariables { .. }
            | S::ShowStatus { .. }
            | S::ShowDatabases { .. }
            | S::ShowTables { .. }
            | S::ShowColumns { .. }
            | S::ShowCreate { .. }
            | S::ShowCollation { .. } => {
                Err(MyError::internal("SHOW should have been parsed by Quire"))
            }
            S::StartTransaction { .. } | S::Commit { .. } | S::Rollback { .. } => Err(
                MyError::internal("transaction statement should have been parsed by Quire"),
            ),
            other => Err(MyError::not_supported(first_words(&other.to_string()))),
        }
    }

    /// Run one statement of a COM_QUERY.
    pub async fn run_text(
        &mut self,
        text: &str,
        resp: &mut (dyn Responder + Send),
        more: bool,
    ) -> Result<()> {
        let opts = self.lex_options();
        self.stmt_digest.clear();
        let norm = lexer::normalize(text, &opts).map_err(|e| {
            let (near, line) = e.near_text(text);
            MyError::parse(&near, line)
        })?;
        let kind = norm.kind;
        self.rec.kind = kind;
        self.stmt_digest.set(self.digest_cache.get(
            &self.server.digests,
            self.db.as_deref(),
            &norm.digest_text,
        ));
        self.stage(Stage::CheckingPermissions);
        // Diagnostics statements read the previous statement's diagnostics area: SHOW
        // WARNINGS/ERRORS, and (as in MySQL) a statement reading @@warning_count or
        // @@error_count.
        let keeps_diag = match kind {
            StatementKind::Show => {
                let up = text.to_ascii_uppercase();
                up.contains("WARNINGS") || up.contains("ERRORS")
            }
            StatementKind::Select => {
                text.contains("@@") && {
                    let up = text.to_ascii_uppercase();
                    up.contains("WARNING_COUNT") || up.contains("ERROR_COUNT")
                }
            }
            _ => false,
        };
        if keeps_diag {
            self.diag.inherit();
        } else {
            self.diag.clear();
        }
        self.begin_statement();
        self.stage(Stage::OpeningTables);
        let (prep, params) = self.plan_for_text(text, &norm)?;
        if matches!(prep.planned, Planned::Other(_)) {
            self.stmt_text.clear();
            self.stmt_text.push_str(text);
        }
        self.execute_prepared(&prep, &params, resp, more).await
    }
}

/// The statements `log_slow_admin_statements` is about (MySQL's list).
fn is_admin_statement(kind: StatementKind) -> bool {
    use crate::sql::lexer::ObjectKind;
    matches!(
        kind,
        StatementKind::Alter(ObjectKind::Table)
            | StatementKind::Analyze
            | StatementKind::Check
            | StatementKind::Optimize
            | StatementKind::Repair
            | StatementKind::Create(ObjectKind::Index)
            | StatementKind::Drop(ObjectKind::Index)
    )
}

/// Which logs a `FLUSH` statement names.
struct FlushedLogs {
    binary: bool,
    query: Vec<crate::observe::Which>,
}

/// `FLUSH LOGS` (every log, the audit log's file too), `FLUSH BINARY LOGS`, `FLUSH SLOW LOGS`,
/// `FLUSH GENERAL LOGS`, and lists of them; `ERROR`, `ENGINE` and `RELAY LOGS` name logs Quire does not keep
/// (its error log is its standard error) and do nothing; other FLUSH targets (TABLES,
/// PRIVILEGES, STATUS, …) have nothing to flush either.
fn flushed_logs(what: &[String]) -> FlushedLogs {
    use crate::observe::Which;
    let mut out = FlushedLogs {
        binary: false,
        query: Vec::new(),
    };
    for (i, w) in what.iter().enumerate() {
        if w != "LOGS" {
            continue;
        }
        match i
            .checked_sub(1)
            .and_then(|p| what.get(p))
            .map(String::as_str)
        {
            Some("BINARY") => out.binary = true,
            Some("SLOW") => out.query.push(Which::Slow),
            Some("GENERAL") => out.query.push(Which::General),
            Some("ERROR" | "ENGINE" | "RELAY") => {}
            _ => {
                out.binary = true;
                out.query
                    .extend([Which::Slow, Which::General, Which::Audit]);
            }
        }
    }
    out
}

fn exec_result(r: std::result::Result<Outcome, ExecError>) -> Result<Outcome> {
    match r {
        Ok(o) => Ok(o),
        Err(ExecError::Sql(e)) => Err(e),
        Err(ExecError::Wait(_)) => Err(MyError::internal("unexpected wait")),
    }
}

fn first_words(s: &str) -> String {
    s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// ER_SP_DOES_NOT_EXIST for a savepoint, as MySQL words it.
fn no_savepoint(name: &str) -> MyError {
    MyError::new(
        code::ER_SP_DOES_NOT_EXIST,
        format!("SAVEPOINT {name} does not exist"),
    )
}
