//! A session's side of the journal: encoding its transaction (or DDL statement) into its own
//! buffer, handing it to the journal writer, and waiting for the reply (see
//! [`crate::journal::writer`] for what the reply waits for).

use super::Ctx;
use crate::config::vars;
use crate::error::code;
use crate::error::{MyError, Result};
use crate::journal::cache::{Cache, Finished};
use crate::journal::events::{OPTION_NO_FOREIGN_KEY_CHECKS, OPTION_RELAXED_UNIQUE_CHECKS};
use crate::journal::events::{OPTION_NOT_AUTOCOMMIT, QueryContext};
use crate::journal::writer::{Control, Journal};
use crate::sql::admin::PurgeTarget;
use crate::sql::types::{Charset, Collation};
use crate::sql::utility::Outcome;
use crate::sql::value::Value;
use crate::storage::txn::Txn;
use crate::storage::txn::TxnShared;
use std::sync::Arc;

/// The highest RESET MASTER TO accepts (MySQL 8's limit).
const MAX_BINLOG_INDEX: u64 = 2_000_000_000;

/// A commit encoded but not yet handed to the journal writer (see [`Ctx::commit_last`]).
pub struct Deferred {
    pub what: Finished,
    pub txn: Txn,
}

/// Session settings the journal records, refreshed with the other cached variables.
#[derive(Clone, Debug, Default)]
pub struct BinlogSession {
    /// character_set_client, collation_connection, collation_server.
    pub charset: [u16; 3],
    pub flags2: u32,
    /// binlog_row_image=MINIMAL.
    pub minimal: bool,
    /// sql_log_bin=0: changes go to the journal as private events (see `journal::events`).
    pub private: bool,
}

impl BinlogSession {
    pub fn from_vars(v: &crate::config::SessionVars) -> BinlogSession {
        let coll = |id| {
            Collation::from_name(v.get_str(id))
                .unwrap_or(Collation::DEFAULT)
                .id()
        };
        let client = Charset::from_name(v.get_str(vars::CHARACTER_SET_CLIENT))
            .map(|c| c.default_collation().id())
            .unwrap_or(Collation::DEFAULT.id());
        let mut flags2 = 0;
        if !v.get_bool(vars::AUTOCOMMIT) {
            flags2 |= OPTION_NOT_AUTOCOMMIT;
        }
        if !v.get_bool(vars::FOREIGN_KEY_CHECKS) {
            flags2 |= OPTION_NO_FOREIGN_KEY_CHECKS;
        }
        if !v.get_bool(vars::UNIQUE_CHECKS) {
            flags2 |= OPTION_RELAXED_UNIQUE_CHECKS;
        }
        BinlogSession {
            charset: [
                client,
                coll(vars::COLLATION_CONNECTION),
                coll(vars::COLLATION_SERVER),
            ],
            flags2,
            minimal: v
                .get_str(vars::BINLOG_ROW_IMAGE)
                .eq_ignore_ascii_case("MINIMAL"),
            private: !v.get_bool(vars::SQL_LOG_BIN),
        }
    }
}

impl Ctx {
    fn query_context(&self) -> QueryContext<'_> {
        QueryContext {
            thread_id: self.conn_id,
            exec_time: 0,
            db: self.db.as_deref().unwrap_or(""),
            error_code: 0,
            flags2: self.binlog.flags2,
            sql_mode: self.sql_mode,
            charset: self.binlog.charset,
        }
    }

    fn statement_unix_secs(&self) -> u32 {
        (self.stmt_unix_micros() / 1_000_000).clamp(0, u32::MAX as i64) as u32
    }

    /// Commit a transaction with writes through the journal: on success it is published
    /// (visible) and the caller finalizes it; on failure it has been rolled back.
    pub(super) async fn journal_commit(&mut self, txn: Txn) -> Result<Txn> {
        let Some(journal) = self.server.journal.get().cloned() else {
            // No journal (recovery replay, unit tests): commit in memory.
            self.server.storage.txns.publish(&txn.shared);
            return Ok(txn);
        };
        match self.encode_commit(&journal, &txn) {
            Ok(what) => self.submit_commit(&journal, what, txn).await,
            Err(e) => {
                self.server.storage.rollback(txn);
                Err(e)
            }
        }
    }

    /// Hand `txn`'s encoded events to the writer and wait: on success it is published and
    /// returned for the caller to finalize; on failure it has been rolled back.
    async fn submit_commit(&self, journal: &Journal, what: Finished, txn: Txn) -> Result<Txn> {
        let lead = may_lead(txn.explicit);
        match self
            .submit(journal, what, Some(txn.shared.clone()), lead)
            .await
        {
            Ok(()) => Ok(txn),
            Err(e) => {
                self.server.storage.rollback(txn);
                Err(e)
            }
        }
    }

    /// Encode `txn`'s events into a binlog cache of this session.
    fn encode_commit(&self, journal: &Arc<Journal>, txn: &Txn) -> Result<Finished> {
        let ts = self.statement_unix_secs();
        let mut cache = self.cache(journal, ts);
        let ctx = self.query_context();
        let encode = || {
            crate::journal::txn::encode(
                &mut cache,
                ts,
                &ctx,
                &txn.writes,
                txn.id(),
                self.binlog.minimal,
            )?;
            cache.finish()
        };
        // A large transaction is encoded (and its spill file written and synced) as bulk work.
        if is_large(txn) {
            super::threads::bulk(encode)
        } else {
            encode()
        }
    }

    /// Commit, as the last statement of its command (a COMMIT, or an autocommit statement's
    /// own transaction), of a transaction with writes: encoded now, and left in
    /// `self.deferred` for the connection, which hands it to the journal writer together
    /// with the statement's response (see [`crate::journal::ack`]) or else commits it with
    /// [`Ctx::commit_deferred`]. Other transactions commit at once.
    pub(super) async fn commit_last(&mut self) -> Result<()> {
        let Some(journal) = self.server.journal.get().cloned() else {
            return self.commit().await;
        };
        let Some(txn) = self.txn.take_if(|t| t.has_durable_writes() && !is_large(t)) else {
            return self.commit().await;
        };
        self.snapshot_slot.clear();
        match self.encode_commit(&journal, &txn) {
            Ok(what) => {
                self.shared
                    .status
                    .add(crate::observe::status::Stat::HandlerCommit, 1);
                self.deferred = Some(Deferred { what, txn });
                Ok(())
            }
            Err(e) => {
                self.server.storage.rollback(txn);
                Err(e)
            }
        }
    }

    /// Commit what [`Ctx::commit_last`] deferred, waiting for the writer's reply.
    pub async fn commit_deferred(&mut self, d: Deferred) -> Result<()> {
        let Some(journal) = self.server.journal.get().cloned() else {
            return Err(MyError::internal("no journal"));
        };
        let txn = self.submit_commit(&journal, d.what, d.txn).await?;
        self.server.storage.finalize(txn);
        Ok(())
    }

    /// A binlog cache for this session's next transaction or statement.
    fn cache(&self, journal: &Arc<Journal>, ts: u32) -> Cache {
        let private = (self.binlog.private && journal.exposed).then_some(ts);
        Cache::new(journal, self.conn_id, private)
    }

    /// FLUSH BINARY LOGS: close the current file and start the next.
    pub(super) async fn flush_binary_logs(&mut self) -> Result<()> {
        match self.server.journal.get().cloned() {
            Some(j) if j.exposed => j.control(Control::Rotate).await.map(|_| ()),
            _ => Ok(()),
        }
    }

    /// RESET MASTER [TO n]: a checkpoint replaces the whole log, which starts again at file
    /// `n` (default 1); see `journal::checkpoint`.
    pub(super) async fn reset_master(&mut self, to: Option<u64>) -> Result<()> {
        let server = self.server.clone();
        if !server.journal.get().is_some_and(|j| j.exposed) {
            return Err(MyError::new(
                code::ER_FLUSH_MASTER_BINLOG_CLOSED,
                "Binlog closed, cannot RESET MASTER",
            ));
        }
        let first = match to {
            None => 1,
            Some(n @ 1..=MAX_BINLOG_INDEX) => n as u32,
            Some(n) => {
                return Err(MyError::new(
                    code::ER_RESET_MASTER_TO_VALUE_OUT_OF_RANGE,
                    format!(
                        "The requested value '{n}' for the next binary log index is out of range. Please use a value between '1' and '{MAX_BINLOG_INDEX}'."
                    ),
                ));
            }
        };
        let Some(cps) = server.checkpoints.get().cloned() else {
            return Err(MyError::internal("no checkpoints"));
        };
        cps.reset_master(&server, first)
            .await
            .map_err(|e| MyError::new(code::ER_ERROR_ON_WRITE, e))
    }

    /// PURGE BINARY LOGS TO 'file' | BEFORE 'datetime'. Files recovery still needs are kept
    /// (with a warning), as MySQL keeps a file a replica is reading.
    pub(super) fn purge_binary_logs(&mut self, target: &PurgeTarget) -> Result<Outcome> {
        let server = self.server.clone();
        let j = crate::journal::sqlview::exposed(server.journal.get())?;
        let seqs = j.index_seqs();
        let remove: Box<dyn Fn(u32) -> bool> = match target {
            PurgeTarget::To(name) => {
                let Some(to) = seqs.iter().copied().find(|s| j.file_name(*s) == *name) else {
                    return Err(MyError::new(
                        code::ER_UNKNOWN_TARGET_BINLOG,
                        "Target log not found in binlog index",
                    ));
                };
                Box::new(move |s| s < to)
            }
            PurgeTarget::Before(when) => {
                let mut d = crate::error::Diagnostics::default();
                let Some(dt) = crate::sql::convert::to_datetime(&Value::str(when), &mut d) else {
                    return Err(MyError::new(
                        code::ER_WRONG_ARGUMENTS,
                        "Incorrect arguments to PURGE LOGS BEFORE",
                    ));
                };
                let limit = crate::sql::temporal::unix_micros_from_datetime(&dt, self.tz_offset_s)
                    .unwrap_or(0)
                    / 1_000_000;
                let mtimes: Vec<(u32, i64)> = seqs
                    .iter()
                    .map(|s| {
                        let t = std::fs::metadata(j.path_of(*s))
                            .and_then(|m| m.modified())
                            .ok()
                            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                            .map(|d| d.as_secs() as i64)
                            .unwrap_or(i64::MAX);
                        (*s, t)
                    })
                    .collect();
                Box::new(move |s| mtimes.iter().any(|(x, t)| *x == s && *t < limit))
            }
        };
        let needed_from = j.needed_from();
        let mut kept = None;
        j.purge(|s| {
            let wanted = remove(s);
            if wanted && s >= needed_from && kept.is_none() {
                kept = Some(s);
            }
            wanted && s < needed_from
        })?;
        if let Some(s) = kept {
            self.diag.warn(
                code::ER_WARN_PURGE_LOG_IN_USE,
                format!(
                    "file ./{} was not purged because it is needed for crash recovery (no checkpoint covers it yet)",
                    j.file_name(s)
                ),
            );
        }
        Ok(Outcome::ok())
    }

    /// Log a DDL statement that has been applied (a Query event in the session's database).
    pub(super) async fn journal_ddl(&mut self, text: &str) -> Result<()> {
        let Some(journal) = self.server.journal.get().cloned() else {
            return Ok(());
        };
        let ts = self.statement_unix_secs();
        let mut cache = self.cache(&journal, ts);
        cache.buf.query(ts, &self.query_context(), text);
        cache.event_done()?;
        let what = cache.finish()?;
        self.submit(&journal, what, None, may_lead(false)).await
    }

    /// Hand an encoded transaction or statement to the journal writer and wait for its
    /// reply.
    async fn submit(
        &self,
        journal: &Journal,
        what: Finished,
        txn: Option<Arc<TxnShared>>,
        lead: bool,
    ) -> Result<()> {
        journal
            .submit(what, txn, journal.ack_mode(), lead)
            .await
            .unwrap_or_else(|_| Err(MyError::internal("the journal writer stopped")))
    }
}

/// Whether this thread may write the journal's queue itself (see "Who writes" in
/// [`crate::journal::writer`]): a connection's own thread, not a shared pool worker, and
/// not for an explicit transaction (BEGIN … COMMIT), whose client is about to send its next
/// statement. On two vCPUs a client and its session that take turns share one CPU; an fsync
/// on the session's thread sends them to different CPUs, and from then on every round trip
/// wakes a halted vCPU. That costs one cross-CPU wake per round trip, while handing the
/// commit to the writer thread costs one per commit: measured on oltp_write_only at 1
/// thread (six round trips per transaction), handing off gave 1.39x the transactions per
/// second; on serial autocommit UPDATEs (one round trip each) leading took 0.81x the time.
pub fn may_lead(explicit: bool) -> bool {
    !explicit && !super::threads::on_shared_pool()
}

/// A transaction with at least this many changes is encoded and finalized as bulk work, at
/// a lower priority than sessions (see [`super::threads::bulk`]).
pub(super) fn is_large(txn: &Txn) -> bool {
    txn.writes.len() >= 10_000
}
