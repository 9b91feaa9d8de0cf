//! One row's history: committed versions, the pending version of its writer, and its lock.
//!
//! ```text
//!            pending (uncommitted, owned by the X-lock holder)
//!               │   txn ──► TxnShared { id, cts }   cts = 0 until published
//!               ▼
//! RowSlot ─► versions: [ {cts 40, row v3}, {cts 17, row v2}, {cts 5, row v1} ]   newest first
//!            lock: X owner, S owners, FIFO waiters
//! ```
//!
//! Which version does a reader see?
//!
//! | reader                          | sees                                                     |
//! |---------------------------------|----------------------------------------------------------|
//! | the writer itself               | its pending version                                      |
//! | snapshot `S`, pending published with `cts <= S` | the pending version (committed, not yet finalized) |
//! | snapshot `S` otherwise          | the newest committed version with `cts <= S`             |
//! | a locking read (FOR UPDATE, UPDATE, DELETE, duplicate checks) | the *latest* committed version, after waiting for the lock |
//!
//! A `None` row is a deletion. A slot whose only remaining version is a deletion, with no
//! pending version, no lock and no waiters, is removed from its table by purge; it is first
//! marked `dead` under its mutex so that a writer who found it just before the removal knows
//! to look the key up again.
//!
//! The slot mutex is held only for a few memory operations — never across I/O, never across
//! an `.await`, never while taking another slot's mutex.

use super::lock::LockState;
use super::txn::TxnShared;
use crate::sql::value::Row;
use parking_lot::Mutex;
use smallvec::SmallVec;
use std::sync::Arc;

pub struct Version {
    pub cts: u64,
    pub row: Option<Row>,
}

pub struct Pending {
    pub txn: Arc<TxnShared>,
    pub row: Option<Row>,
}

#[derive(Default)]
pub struct RowState {
    /// Committed versions, newest first.
    pub versions: SmallVec<[Version; 1]>,
    /// The uncommitted (or published but not yet finalized) version of the X-lock holder.
    pub pending: Option<Box<Pending>>,
    pub lock: LockState,
    /// Removed from its table by purge: look the key up again.
    pub dead: bool,
}

/// A row's identity (its primary key bytes, or hidden row id) and its history.
#[derive(Default)]
pub struct RowSlot {
    /// The clustered key this slot is stored under (memcomparable encoding).
    pub key: super::table::Key,
    pub state: Mutex<RowState>,
}

impl std::fmt::Debug for RowSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RowSlot({:02x?})", &self.key)
    }
}

impl RowSlot {
    pub fn new(key: super::table::Key) -> RowSlot {
        RowSlot {
            key,
            state: Mutex::new(RowState::default()),
        }
    }
}

impl RowState {
    /// Make `row` (None: a deletion) the pending version of `txn`, the X-lock holder.
    /// Returns the row of the pending version it replaces, if there was one (a statement
    /// rollback puts it back).
    pub fn replace_pending(
        &mut self,
        txn: Arc<TxnShared>,
        row: Option<Row>,
    ) -> Option<Option<Row>> {
        let prev = self.pending.take().map(|p| p.row);
        self.pending = Some(Box::new(Pending { txn, row }));
        prev
    }

    /// The version visible to transaction `me` reading at snapshot `snapshot`.
    pub fn visible(&self, me: u64, snapshot: u64) -> Option<&Row> {
        if let Some(p) = &self.pending {
            if p.txn.id == me {
                return p.row.as_ref();
            }
            let cts = p.txn.cts();
            if cts != 0 && cts <= snapshot {
                return p.row.as_ref();
            }
        }
        for v in &self.versions {
            if v.cts <= snapshot {
                return v.row.as_ref();
            }
        }
        None
    }

    /// The latest committed version, or `me`'s own pending one. If another transaction has
    /// an unpublished pending version, this is the newest committed version before it: a
    /// caller that needs the truth must hold (or wait for) the row lock.
    pub fn latest(&self, me: u64) -> Option<&Row> {
        if let Some(p) = &self.pending
            && (p.txn.id == me || p.txn.cts() != 0)
        {
            return p.row.as_ref();
        }
        self.versions.first().and_then(|v| v.row.as_ref())
    }

    /// Is there an uncommitted version by a transaction other than `me`?
    pub fn pending_by_other(&self, me: u64) -> Option<u64> {
        match &self.pending {
            Some(p) if p.txn.id != me && p.txn.cts() == 0 => Some(p.txn.id),
            _ => None,
        }
    }

    /// Nothing left to keep: no live version, no writer, no lock.
    pub fn is_garbage(&self) -> bool {
        self.pending.is_none()
            && self.lock.is_free()
            && self.versions.iter().all(|v| v.row.is_none())
            && self.versions.len() <= 1
    }

    /// Move `txn`'s published pending version into the committed chain.
    /// Returns true if an older version now exists (purge has work to do).
    pub fn finalize(&mut self, txn_id: u64) -> bool {
        let Some(p) = self.pending.take_if(|p| p.txn.id == txn_id) else {
            return false;
        };
        let cts = p.txn.cts();
        assert!(cts != 0, "finalizing unpublished transaction {txn_id}");
        if let Some(first) = self.versions.first() {
            assert!(
                first.cts < cts,
                "commit order violated: {} then {}",
                first.cts,
                cts
            );
        }
        let is_delete = p.row.is_none();
        self.versions.insert(0, Version { cts, row: p.row });
        self.versions.len() > 1 || is_delete
    }

    /// Drop versions no snapshot at or above `oldest` can see: keep every version newer than
    /// `oldest` and the newest one at or below it. Returns the dropped rows.
    pub fn prune(&mut self, oldest: u64) -> SmallVec<[Row; 2]> {
        let mut dropped = SmallVec::new();
        if let Some(keep) = self.versions.iter().position(|v| v.cts <= oldest) {
            for v in self.versions.drain(keep + 1..) {
                if let Some(r) = v.row {
                    dropped.push(r);
                }
            }
            // A deletion that every snapshot sees is the same as no version at all.
            if keep == self.versions.len() - 1 && self.versions[keep].row.is_none() && keep > 0 {
                self.versions.pop();
            }
        }
        dropped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::value::Value;
    use crate::storage::txn::{Isolation, TxnManager};

    fn row(v: i64) -> Row {
        Arc::from(vec![Value::Int(v)])
    }

    fn val(r: Option<&Row>) -> Option<i64> {
        r.map(|r| match r[0] {
            Value::Int(v) => v,
            _ => panic!("not an int"),
        })
    }

    #[test]
    fn visibility_follows_snapshots() {
        let m = TxnManager::new(0);
        let mut st = RowState::default();
        let t1 = m.begin(Isolation::RepeatableRead, false, true);
        st.pending = Some(Box::new(Pending {
            txn: t1.shared.clone(),
            row: Some(row(1)),
        }));
        assert_eq!(
            val(st.visible(t1.id(), 0)),
            Some(1),
            "writer sees its own version"
        );
        assert_eq!(
            val(st.visible(999, 100)),
            None,
            "others do not see uncommitted data"
        );
        let cts = m.publish(&t1.shared);
        assert_eq!(
            val(st.visible(999, cts)),
            Some(1),
            "published before finalize"
        );
        assert_eq!(val(st.visible(999, cts - 1)), None, "older snapshot");
        assert!(!st.finalize(t1.id()));
        assert_eq!(val(st.visible(999, cts)), Some(1));

        let t2 = m.begin(Isolation::RepeatableRead, false, true);
        st.pending = Some(Box::new(Pending {
            txn: t2.shared.clone(),
            row: Some(row(2)),
        }));
        assert_eq!(
            val(st.latest(999)),
            Some(1),
            "latest committed skips unpublished"
        );
        assert_eq!(st.pending_by_other(999), Some(t2.id()));
        let cts2 = m.publish(&t2.shared);
        assert!(st.finalize(t2.id()));
        assert_eq!(val(st.visible(999, cts)), Some(1));
        assert_eq!(val(st.visible(999, cts2)), Some(2));
        let dropped = st.prune(cts2);
        assert_eq!(dropped.len(), 1);
        assert_eq!(st.versions.len(), 1);
    }

    #[test]
    fn delete_then_prune_leaves_garbage() {
        let m = TxnManager::new(0);
        let mut st = RowState::default();
        let t1 = m.begin(Isolation::RepeatableRead, false, true);
        st.pending = Some(Box::new(Pending {
            txn: t1.shared.clone(),
            row: Some(row(1)),
        }));
        m.publish(&t1.shared);
        st.finalize(t1.id());
        let t2 = m.begin(Isolation::RepeatableRead, false, true);
        st.pending = Some(Box::new(Pending {
            txn: t2.shared.clone(),
            row: None,
        }));
        let c2 = m.publish(&t2.shared);
        assert!(st.finalize(t2.id()));
        assert!(!st.is_garbage(), "an older snapshot may still see the row");
        st.prune(c2);
        assert!(st.is_garbage());
    }
}
