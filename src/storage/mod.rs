//! Storage: memory-resident MVCC tables with row locks.
//!
//! What this layer does: keeps every table in memory as a clustered primary index of row
//! slots (each with its version history) and secondary indexes; gives readers consistent
//! snapshots without blocking them; serialises writers per row with locks held to the end of
//! their transaction; orders commits; purges versions no snapshot can see.
//!
//! What it must never do: block a thread on I/O, hold a slot mutex across an `.await` or while
//! taking another slot's mutex, or take any global lock on the read path (readers take only
//! the mutex of the row they read, for a few memory operations).
//!
//! Parts:
//! - [`txn`]: transaction ids, commit timestamps, snapshots, the write (undo) log.
//! - [`row`]: a row slot: committed versions, the pending version, the lock; visibility rules.
//! - [`lock`]: shared/exclusive row locks, FIFO waiting, deadlock detection.
//! - [`table`]: primary and secondary indexes; insert/update/delete; scans; uniqueness.
//! - [`schema`]: table definitions.
//! - [`catalog`]: databases and tables by name.
//! - [`purge`]: the background thread that drops old versions and stale index entries.
//! - [`keycode`]: memcomparable key encoding.
//!
//! ## Life of a write transaction
//!
//! 1. Statements lock rows and set pending versions ([`table::Table::insert`] & co.), logging
//!    each change in [`txn::Txn::writes`].
//! 2. Commit: the session hands the transaction's changes to the journal (the commit hook);
//!    once they are as durable as the settings promise, [`txn::TxnManager::publish`] assigns
//!    the commit timestamp — from that moment all its rows are visible to new snapshots.
//! 3. [`Storage::finalize`] moves pending versions into the committed chains, releases the
//!    row locks (granting them to waiters) and queues superseded versions for purge.
//! 4. Rollback instead restores each slot's previous pending state, newest change first.

pub mod catalog;
pub mod keycode;
pub mod lock;
pub mod ordered;
pub mod purge;
pub mod row;
pub mod schema;
pub mod stats;
pub mod table;
pub mod txn;

use crate::sql::types::SqlType;
use crate::sql::value::Value;
use crossbeam_utils::CachePadded;
use lock::{LockMode, LockWaits, Waiter};
use row::{Pending, RowSlot};
use std::collections::HashMap;
use std::sync::Arc;
use table::Table;
use txn::{Isolation, Txn, TxnManager};

/// Failures of storage operations. Converted to client errors in exactly one place
/// (`crate::sql::error_map`), where the message needs SQL formatting.
pub enum StorageError {
    /// Another transaction holds the lock: wait for `waiter`, then re-execute the statement.
    LockWait {
        slot: Arc<RowSlot>,
        waiter: Arc<Waiter>,
        mode: LockMode,
    },
    /// NOWAIT / SKIP LOCKED found the row locked.
    LockNowait,
    /// DDL holds (or waits for) the table's metadata lock: wait for it, then re-execute.
    MdlWait(Arc<Table>),
    /// A duplicate key. `index`: -1 for the primary key, else the secondary index position.
    Duplicate {
        table: String,
        index: i64,
        index_name: String,
        key: Vec<(Value, SqlType)>,
        existing: Arc<RowSlot>,
    },
    /// A write in a READ ONLY transaction.
    ReadOnlyTxn,
    /// The table was dropped or replaced by DDL after the statement resolved it.
    TableDropped,
    /// A race was lost; re-execute the statement.
    Retry,
}

impl std::fmt::Debug for StorageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StorageError::LockWait { mode, .. } => write!(f, "LockWait({mode:?})"),
            StorageError::LockNowait => write!(f, "LockNowait"),
            StorageError::MdlWait(t) => write!(f, "MdlWait({})", t.name()),
            StorageError::Duplicate {
                table, index_name, ..
            } => write!(f, "Duplicate({table}.{index_name})"),
            StorageError::ReadOnlyTxn => write!(f, "ReadOnlyTxn"),
            StorageError::TableDropped => write!(f, "TableDropped"),
            StorageError::Retry => write!(f, "Retry"),
        }
    }
}

/// The storage engine: catalog, transactions, lock waits, purge.
pub struct Storage {
    /// Its version is read by every execution (the re-plan check): on a line of its own,
    /// away from the transaction counters every BEGIN and commit writes.
    pub catalog: CachePadded<catalog::Catalog>,
    pub txns: TxnManager,
    pub waits: LockWaits,
    pub purge: purge::Purge,
}

impl Default for Storage {
    fn default() -> Self {
        Storage::new()
    }
}

impl Storage {
    pub fn new() -> Storage {
        Storage {
            catalog: CachePadded::new(catalog::Catalog::new()),
            txns: TxnManager::new(1),
            waits: LockWaits::default(),
            purge: purge::Purge::default(),
        }
    }

    pub fn begin(&self, isolation: Isolation, read_only: bool, explicit: bool) -> Txn {
        self.txns.begin(isolation, read_only, explicit)
    }

    /// After [`TxnManager::publish`]: move pending versions into the committed chains, release
    /// locks, account rows, queue purge work.
    pub fn finalize(&self, txn: Txn) {
        let me = txn.id();
        let cts = txn.shared.cts();
        assert!(
            cts != 0 || txn.writes.is_empty(),
            "finalize of an unpublished writer"
        );
        let mut purge_items = Vec::new();
        for slot in &txn.locked {
            let mut st = slot.state.lock();
            let superseded = st.finalize(me);
            st.lock.release(me);
            // A slot left empty (an insert undone by statement rollback) is garbage too.
            if superseded || st.is_garbage() {
                purge_items.push(slot.clone());
            }
        }
        // Row count changes per table (a transaction writes few tables: a short list).
        let mut deltas: smallvec::SmallVec<[(&Arc<Table>, i64); 4]> = smallvec::SmallVec::new();
        for w in &txn.writes {
            let d = w.after.is_some() as i64 - w.before.is_some() as i64;
            if d != 0 {
                match deltas.iter_mut().find(|(t, _)| t.id == w.table.id) {
                    Some((_, n)) => *n += d,
                    None => deltas.push((&w.table, d)),
                }
            }
        }
        for (t, d) in deltas {
            t.add_committed_rows(d);
        }
        if !purge_items.is_empty() {
            // The table of each slot to purge: a scan of the writes when they are few.
            let table_of: Option<HashMap<*const RowSlot, &Arc<Table>>> = (txn.writes.len() > 32)
                .then(|| {
                    txn.writes
                        .iter()
                        .map(|w| (Arc::as_ptr(&w.slot), &w.table))
                        .collect()
                });
            let find = |s: &Arc<RowSlot>| match &table_of {
                Some(m) => m.get(&Arc::as_ptr(s)).copied(),
                None => txn
                    .writes
                    .iter()
                    .find(|w| Arc::ptr_eq(&w.slot, s))
                    .map(|w| &w.table),
            };
            let items = purge_items
                .into_iter()
                .filter_map(|s| {
                    find(&s).map(|t| purge::Item {
                        table: t.clone(),
                        slot: s,
                        cts,
                        stale: Vec::new(),
                    })
                })
                .collect();
            self.purge.push(items);
        }
    }

    /// Commit without a journal (tests, and `log_bin=OFF` before the journal exists):
    /// publish, then finalize. Read-only transactions just release their locks.
    pub fn commit_in_memory(&self, txn: Txn) {
        if txn.has_writes() {
            self.txns.publish(&txn.shared);
        }
        self.finalize(txn);
    }

    /// Undo every change, newest first, and release all locks.
    pub fn rollback(&self, mut txn: Txn) {
        let mut items = self.undo(&mut txn, 0);
        let me = txn.id();
        for slot in &txn.locked {
            let mut st = slot.state.lock();
            st.lock.release(me);
            if st.is_garbage() {
                // Purge needs the table: any write record for this slot names it.
                if let Some(t) = items
                    .iter()
                    .find(|i| Arc::ptr_eq(&i.slot, slot))
                    .map(|i| i.table.clone())
                {
                    items.push(purge::Item {
                        table: t,
                        slot: slot.clone(),
                        cts: 0,
                        stale: Vec::new(),
                    });
                }
            }
        }
        self.purge.push(items);
    }

    /// Statement rollback: undo the changes after `mark` (locks stay, as in InnoDB).
    pub fn rollback_to(&self, txn: &mut Txn, mark: usize) {
        let items = self.undo(txn, mark);
        self.purge.push(items);
    }

    fn undo(&self, txn: &mut Txn, mark: usize) -> Vec<purge::Item> {
        if txn.writes.len() <= mark {
            return Vec::new();
        }
        let shared = txn.shared.clone();
        let mut items = Vec::new();
        for w in txn.writes.drain(mark..).rev() {
            let mut st = w.slot.state.lock();
            st.pending = w.prev_pending.map(|row| {
                Box::new(Pending {
                    txn: shared.clone(),
                    row,
                })
            });
            drop(st);
            items.push(purge::Item {
                table: w.table,
                slot: w.slot,
                cts: 0,
                stale: w.after.into_iter().collect(),
            });
        }
        items
    }
}

#[cfg(test)]
mod tests;
