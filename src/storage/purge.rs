//! Purge: dropping what no snapshot can see any more.
//!
//! Committing transactions (and rollbacks) queue the slots they touched, with their commit
//! timestamp, in batches (one short mutex per transaction). The queue is in commit order, nearly
//! (transactions finalize in about the order they publish): a purge pass takes the items at its
//! front whose timestamp is at or below the oldest snapshot in use — an item queued behind a
//! newer one waits for it, so a pass never walks the items a long snapshot holds back — plus
//! every rolled-back item, and for each slot, under its mutex:
//!
//! 1. prunes versions older than the newest one every snapshot can see;
//! 2. removes the secondary index entries of dropped (and rolled-back) row images whose key no
//!    remaining version — nor the pending one — still has;
//! 3. if nothing is left (a deletion everyone sees, or an undone insert), marks the slot
//!    `dead` and removes it from the primary index.
//!
//! Removal happens under the slot mutex so it cannot race with a writer that is about to
//! re-add the same index key for this row: writers set their pending version (under the
//! mutex) before adding index entries, and purge checks the pending version before removing.
//!
//! An entry is removed by its key alone, in one descent of the index's tree. The key
//! ends with the slot's primary key, and a slot that is not dead is the only one with its
//! key (a new slot for a key is made only after purge took the old one out of the primary
//! index), so an entry with that key points to this slot or to a dead one, which no reader
//! can use; removing either is right.
//!
//! Purge runs on its own thread ([`Purge::spawn`]) every `PURGE_INTERVAL_MS`, or inline in
//! tests ([`Purge::run_once`]). The queue is bounded in effect by the commit rate times the
//! longest open snapshot; a very old snapshot makes it grow, as InnoDB's history list does.

use super::row::RowSlot;
use super::table::Table;
use super::txn::TxnManager;
use crate::sql::value::Row;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

pub const PURGE_INTERVAL_MS: u64 = 20;

pub struct Item {
    pub table: Arc<Table>,
    pub slot: Arc<RowSlot>,
    /// Commit timestamp of the change (0: a rollback, processable at once).
    pub cts: u64,
    /// Row images whose index entries may now be stale (rolled-back writes).
    pub stale: Vec<Row>,
}

#[derive(Default)]
pub struct Purge {
    /// Committed changes, in commit order nearly.
    queue: Mutex<VecDeque<Item>>,
    /// Rolled-back changes (`cts` 0), processable at once.
    undone: Mutex<Vec<Item>>,
    /// Versions dropped and slots removed, for status counters.
    pub versions_purged: AtomicU64,
    pub slots_removed: AtomicU64,
    pub stop: AtomicBool,
}

impl Purge {
    pub fn push(&self, items: Vec<Item>) {
        if items.is_empty() {
            return;
        }
        if items.iter().all(|i| i.cts != 0) {
            self.queue.lock().extend(items);
            return;
        }
        let (undone, committed): (Vec<Item>, Vec<Item>) =
            items.into_iter().partition(|i| i.cts == 0);
        self.undone.lock().extend(undone);
        self.queue.lock().extend(committed);
    }

    pub fn queue_len(&self) -> usize {
        self.queue.lock().len() + self.undone.lock().len()
    }

    /// One purge pass. Returns the number of items processed.
    pub fn run_once(&self, txns: &TxnManager) -> usize {
        let oldest = txns.oldest_snapshot();
        let mut ready = std::mem::take(&mut *self.undone.lock());
        {
            let mut q = self.queue.lock();
            let n = q.iter().take_while(|i| i.cts <= oldest).count();
            ready.extend(q.drain(..n));
        }
        let n = ready.len();
        let mut scratch = (Vec::with_capacity(64), Vec::with_capacity(64));
        for item in ready {
            self.purge_slot(&item, oldest, &mut scratch.0, &mut scratch.1);
        }
        n
    }

    /// `scratch`, `live_key`: reused buffers for index entry keys.
    fn purge_slot(&self, item: &Item, oldest: u64, scratch: &mut Vec<u8>, live_key: &mut Vec<u8>) {
        let table = &item.table;
        let slot = &item.slot;
        let mut st = slot.state.lock();
        if st.dead {
            return;
        }
        let dropped = st.prune(oldest);
        self.versions_purged
            .fetch_add(dropped.len() as u64, Ordering::Relaxed);
        if !table.indexes.is_empty() {
            let mut live: Vec<&Row> = st.versions.iter().filter_map(|v| v.row.as_ref()).collect();
            if let Some(p) = st.pending.as_ref().and_then(|p| p.row.as_ref()) {
                live.push(p);
            }
            for old in dropped.iter().chain(item.stale.iter()) {
                for i in 0..table.indexes.len() {
                    table.secondary_entry_key(i, old, &slot.key, scratch);
                    let still_used = live.iter().any(|r| {
                        table.secondary_entry_key(i, r, &slot.key, live_key);
                        live_key == scratch
                    });
                    if !still_used {
                        table.indexes[i].map.remove(scratch.as_slice());
                    }
                }
            }
        }
        if st.is_garbage() {
            st.dead = true;
            if let Some(e) = table.primary.remove(&slot.key) {
                debug_assert!(Arc::ptr_eq(&e, slot), "a live slot is its key's");
                self.slots_removed.fetch_add(1, Ordering::Relaxed);
            }
            table.unindex_slot(slot);
            // The last committed row image (before the deletion) was dropped by prune above,
            // or never existed: its index entries are gone with it.
        }
    }

    /// Run purge passes on a background thread until `stop` is set.
    pub fn spawn(storage: Arc<super::Storage>) -> std::thread::JoinHandle<()> {
        std::thread::Builder::new()
            .name("quire-purge".into())
            .spawn(move || {
                while !storage.purge.stop.load(Ordering::Relaxed) {
                    let n = storage.purge.run_once(&storage.txns);
                    if n == 0 {
                        std::thread::sleep(Duration::from_millis(PURGE_INTERVAL_MS));
                    }
                }
            })
            .expect("spawn purge thread")
    }
}
