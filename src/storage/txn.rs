//! Transactions: identities, commit timestamps, snapshots and the undo log.
//!
//! ## Timestamps
//!
//! Two counters order everything:
//!
//! - **transaction ids** (`next_txn_id`) name a writer while it is uncommitted; a row's
//!   pending version and its lock carry the id of the transaction that owns them.
//! - **commit timestamps** (`cts`) are assigned in commit order by [`TxnManager::publish`]
//!   and stored into the transaction's shared cell ([`TxnShared::cts`]). `visible_ts` is the
//!   newest commit timestamp whose transaction — and every older one — is visible.
//!
//! A snapshot is a commit timestamp: a reader with snapshot `S` sees, for each row, the newest
//! version with `cts <= S`, plus its own uncommitted writes.
//!
//! ## Publishing a commit
//!
//! `publish` is the only place where commit order is decided. It takes one short mutex
//! (O(1) work: bump the counter, store the cts in the committing transaction's shared cell,
//! advance `visible_ts`). The transaction's rows are *not* touched there: their pending
//! versions point at the shared cell, so setting one timestamp makes every row of the
//! transaction visible at once, atomically, however large the transaction. The session then
//! *finalizes* its rows (moves pending versions into the committed chain and releases the
//! row locks) outside any shared lock.
//!
//! The journal (the binary log) will call `publish` in log order, after the group containing
//! the transaction is as durable as the durability settings promise: nobody can read a
//! change that a crash could take back.
//!
//! ## Snapshots in use
//!
//! Old versions may be purged once no snapshot can see them. Each session owns a
//! [`SnapshotSlot`] (one atomic, registered once) in which it publishes the snapshot it
//! is using, or `u64::MAX` when idle. [`TxnManager::oldest_snapshot`] is the minimum over all
//! slots and `visible_ts`. Taking a snapshot is "load visible_ts, store it in my slot, load
//! visible_ts again and retry if it moved": after that, any purge that starts later sees the
//! slot, and any purge that already read `visible_ts` read a value not above ours.

use super::row::RowSlot;
use super::table::Table;
use crate::sql::value::Row;
use crossbeam_utils::CachePadded;
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::Weak;
use std::sync::atomic::{AtomicU64, Ordering};

/// Transaction isolation levels (READ UNCOMMITTED behaves as READ COMMITTED and SERIALIZABLE as
/// REPEATABLE READ, as far as snapshots go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    ReadUncommitted,
    ReadCommitted,
    RepeatableRead,
    Serializable,
}

impl Isolation {
    pub fn name(self) -> &'static str {
        match self {
            Isolation::ReadUncommitted => "READ-UNCOMMITTED",
            Isolation::ReadCommitted => "READ-COMMITTED",
            Isolation::RepeatableRead => "REPEATABLE-READ",
            Isolation::Serializable => "SERIALIZABLE",
        }
    }

    pub fn from_name(s: &str) -> Option<Isolation> {
        match s.to_ascii_uppercase().replace([' ', '_'], "-").as_str() {
            "READ-UNCOMMITTED" => Some(Isolation::ReadUncommitted),
            "READ-COMMITTED" => Some(Isolation::ReadCommitted),
            "REPEATABLE-READ" => Some(Isolation::RepeatableRead),
            "SERIALIZABLE" => Some(Isolation::Serializable),
            _ => None,
        }
    }

    /// Does each statement take a fresh snapshot (rather than the transaction's first one)?
    pub fn snapshot_per_statement(self) -> bool {
        matches!(self, Isolation::ReadUncommitted | Isolation::ReadCommitted)
    }
}

/// The part of a transaction other threads look at: its id and, once published, its commit
/// timestamp. Pending row versions point here.
#[derive(Debug)]
pub struct TxnShared {
    pub id: u64,
    /// 0 while uncommitted; the commit timestamp once published. Never changes afterwards.
    cts: AtomicU64,
}

impl TxnShared {
    pub fn cts(&self) -> u64 {
        self.cts.load(Ordering::Acquire)
    }
}

/// One change made by a transaction, in execution order. It serves three purposes: undo
/// (statement and transaction rollback restore `prev_pending`), the binary log (before and
/// after images per statement, as row events need them), and purge bookkeeping.
pub struct WriteRec {
    pub table: Arc<Table>,
    pub slot: Arc<RowSlot>,
    /// The row as it was before this change (None: the row did not exist).
    pub before: Option<Row>,
    /// The row after this change (None: deleted).
    pub after: Option<Row>,
    /// The slot's pending version before this change: `None` if the transaction had not
    /// written the row yet, `Some(row)` if it had (row None = it had deleted it).
    pub prev_pending: Option<Option<Row>>,
}

/// A transaction as its session holds it.
pub struct Txn {
    pub shared: Arc<TxnShared>,
    pub isolation: Isolation,
    pub read_only: bool,
    /// The transaction's snapshot (REPEATABLE READ: taken at its first consistent read).
    pub snapshot: Option<u64>,
    /// Every change, in order.
    pub writes: Vec<WriteRec>,
    /// Slots on which this transaction holds a lock (shared or exclusive). Each appears once.
    pub locked: Vec<Arc<RowSlot>>,
    /// Metadata locks on tables written (released at the end of the transaction).
    pub mdl: Vec<(Arc<Table>, tokio::sync::OwnedRwLockReadGuard<()>)>,
    /// Explicitly started (BEGIN / START TRANSACTION / autocommit=0) rather than one
    /// statement's implicit transaction.
    pub explicit: bool,
    /// SAVEPOINTs in the order set: name and the length of `writes` at that point.
    pub savepoints: Vec<(String, usize)>,
}

impl Txn {
    pub fn id(&self) -> u64 {
        self.shared.id
    }

    pub fn has_writes(&self) -> bool {
        !self.writes.is_empty()
    }

    /// Writes to anything but temporary tables: what the journal must hold. (Stops at the
    /// first such write, the first one in the usual transaction.)
    pub fn has_durable_writes(&self) -> bool {
        self.writes.iter().any(|w| !w.table.temporary)
    }

    /// The position of savepoint `name` (names compare case-insensitively, as in MySQL).
    pub fn savepoint(&self, name: &str) -> Option<usize> {
        self.savepoints
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// Holds a metadata lock on `table` already?
    pub fn holds_mdl(&self, table: &Arc<Table>) -> bool {
        self.mdl.iter().any(|(t, _)| Arc::ptr_eq(t, table))
    }
}

/// A session's published snapshot: `u64::MAX` when it uses none.
pub struct SnapshotSlot {
    ts: AtomicU64,
}

impl SnapshotSlot {
    pub fn clear(&self) {
        self.ts.store(u64::MAX, Ordering::Release);
    }

    pub fn get(&self) -> u64 {
        self.ts.load(Ordering::Acquire)
    }
}

/// Commit ordering, snapshots, transaction ids.
/// Each field on its own cache line: sessions bump `next_txn_id` at every BEGIN and use
/// `slots` at every snapshot, the journal writer publishes through `commit_seq` and
/// `visible_ts`, which every snapshot reads.
pub struct TxnManager {
    next_txn_id: CachePadded<AtomicU64>,
    /// Last commit timestamp handed out; the mutex serialises `publish`.
    commit_seq: CachePadded<Mutex<u64>>,
    visible_ts: CachePadded<AtomicU64>,
    slots: CachePadded<Mutex<Vec<Weak<SnapshotSlot>>>>,
}

impl Default for TxnManager {
    fn default() -> Self {
        TxnManager::new(1)
    }
}

impl TxnManager {
    /// Start with `visible_ts` = `start_ts` (recovery passes the last replayed timestamp).
    pub fn new(start_ts: u64) -> TxnManager {
        TxnManager {
            next_txn_id: CachePadded::new(AtomicU64::new(1)),
            commit_seq: CachePadded::new(Mutex::new(start_ts)),
            visible_ts: CachePadded::new(AtomicU64::new(start_ts)),
            slots: CachePadded::new(Mutex::new(Vec::new())),
        }
    }

    pub fn begin(&self, isolation: Isolation, read_only: bool, explicit: bool) -> Txn {
        let id = self.next_txn_id.fetch_add(1, Ordering::Relaxed);
        Txn {
            shared: Arc::new(TxnShared {
                id,
                cts: AtomicU64::new(0),
            }),
            isolation,
            read_only,
            snapshot: None,
            writes: Vec::new(),
            locked: Vec::new(),
            mdl: Vec::new(),
            explicit,
            savepoints: Vec::new(),
        }
    }

    pub fn visible_ts(&self) -> u64 {
        self.visible_ts.load(Ordering::Acquire)
    }

    /// A new snapshot slot for a session.
    pub fn register_slot(&self) -> Arc<SnapshotSlot> {
        let slot = Arc::new(SnapshotSlot {
            ts: AtomicU64::new(u64::MAX),
        });
        let mut slots = self.slots.lock();
        slots.retain(|w| w.strong_count() > 0);
        slots.push(Arc::downgrade(&slot));
        slot
    }

    /// Take a snapshot and publish it in `slot` (see the module doc for why the re-check).
    pub fn take_snapshot(&self, slot: &SnapshotSlot) -> u64 {
        let mut v = self.visible_ts.load(Ordering::SeqCst);
        loop {
            slot.ts.store(v, Ordering::SeqCst);
            let again = self.visible_ts.load(Ordering::SeqCst);
            if again == v {
                return v;
            }
            v = again;
        }
    }

    /// Make a committed transaction visible: assign its commit timestamp (commit order) and
    /// advance `visible_ts`. O(1) whatever the transaction's size.
    pub fn publish(&self, txn: &TxnShared) -> u64 {
        let mut seq = self.commit_seq.lock();
        *seq += 1;
        let cts = *seq;
        assert_eq!(
            txn.cts.load(Ordering::Relaxed),
            0,
            "transaction {} published twice",
            txn.id
        );
        txn.cts.store(cts, Ordering::Release);
        self.visible_ts.store(cts, Ordering::SeqCst);
        cts
    }

    /// Publish transactions in this order under one lock (the journal's group commit).
    pub fn publish_many<'a>(&self, txns: impl Iterator<Item = &'a TxnShared>) {
        let mut seq = self.commit_seq.lock();
        let mut any = false;
        for txn in txns {
            *seq += 1;
            debug_assert_eq!(txn.cts.load(Ordering::Relaxed), 0, "published twice");
            txn.cts.store(*seq, Ordering::Release);
            any = true;
        }
        if any {
            self.visible_ts.store(*seq, Ordering::SeqCst);
        }
    }

    /// The oldest snapshot any session may still read at: versions older than the newest
    /// one at or below this are garbage.
    pub fn oldest_snapshot(&self) -> u64 {
        let mut oldest = self.visible_ts.load(Ordering::SeqCst);
        let slots = self.slots.lock();
        for w in slots.iter() {
            if let Some(s) = w.upgrade() {
                oldest = oldest.min(s.ts.load(Ordering::SeqCst));
            }
        }
        oldest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_orders_commits_and_moves_visibility() {
        let m = TxnManager::new(10);
        let a = m.begin(Isolation::RepeatableRead, false, true);
        let b = m.begin(Isolation::RepeatableRead, false, true);
        assert_ne!(a.id(), b.id());
        assert_eq!(m.visible_ts(), 10);
        assert_eq!(m.publish(&b.shared), 11);
        assert_eq!(b.shared.cts(), 11);
        assert_eq!(a.shared.cts(), 0);
        assert_eq!(m.publish(&a.shared), 12);
        assert_eq!(m.visible_ts(), 12);
    }

    #[test]
    fn oldest_snapshot_respects_slots() {
        let m = TxnManager::new(5);
        let s1 = m.register_slot();
        let s2 = m.register_slot();
        assert_eq!(m.take_snapshot(&s1), 5);
        let t = m.begin(Isolation::RepeatableRead, false, true);
        m.publish(&t.shared);
        assert_eq!(m.take_snapshot(&s2), 6);
        assert_eq!(m.oldest_snapshot(), 5);
        s1.clear();
        assert_eq!(m.oldest_snapshot(), 6);
        s2.clear();
        drop(s1);
        assert_eq!(m.oldest_snapshot(), 6);
    }

    #[test]
    fn isolation_names() {
        assert_eq!(
            Isolation::from_name("read committed"),
            Some(Isolation::ReadCommitted)
        );
        assert_eq!(
            Isolation::from_name("REPEATABLE-READ"),
            Some(Isolation::RepeatableRead)
        );
        assert_eq!(Isolation::from_name("x"), None);
    }
}
