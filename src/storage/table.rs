//! A table: a clustered primary index of row slots plus secondary indexes, all ordered maps
//! (B-trees read in batches, see `ordered.rs`) keyed by memcomparable byte strings.
//!
//! ```text
//! primary:   pk bytes            ──► RowSlot { key, versions, pending, lock }
//! secondary: index key ++ pk     ──► the same RowSlot
//! ```
//!
//! Beside the primary's tree, `by_key` maps whole primary keys to the same slots: a point
//! lookup (`WHERE pk = …`, the rows an UPDATE or DELETE by key changes, an INSERT of a key
//! that has a slot) is a hash probe instead of a tree descent and its lock. A slot
//! is added to it under its state lock before its first row can become visible, and removed
//! by purge under the same lock when it dies (only if it is still the slot there), so a
//! lookup finds every slot the tree has; it may also find a slot just marked dead,
//! which holds no row, exactly as a reader that got it from the tree a moment earlier.
//!
//! Secondary index entries are *hints*: an entry is added whenever a version with that key is
//! written and removed by purge once no version with that key can be seen. A reader that
//! follows an entry checks that the row version it sees still has that key (otherwise the
//! entry is stale for this reader and skipped). This keeps index maintenance off the commit
//! path and makes rollback trivial.
//!
//! ## Writes
//!
//! Every write needs the row's exclusive lock. `insert` finds or creates the slot for its key
//! and locks it — so two inserts of one key serialise on the slot, and the second sees the
//! first's committed row as a duplicate (or waits for its outcome) exactly as InnoDB does.
//! Unique secondary indexes are checked under a small striped mutex per index (hash of the
//! key), making "look for a live duplicate, then add my entry" atomic with respect to other
//! inserters of the same key; a duplicate that belongs to an uncommitted transaction is waited
//! for (as a shared lock request on that row).
//!
//! Writes are recorded in the transaction's write log ([`WriteRec`]): that is the undo log,
//! and the source of the binary log's row events.
//!
//! ## Metadata locks
//!
//! A transaction that writes a table holds a shared metadata lock on it until it ends; DDL
//! that replaces or drops the table takes it exclusively, so no committed write can land in
//! a table object that DDL has already replaced.

use super::StorageError;
use super::keycode;
use super::lock::{Acquire, LockMode};
use super::ordered::OrderedMap;
use super::row::RowSlot;
use super::schema::{IndexColumn, IndexDef, TableDef};
use super::txn::{Txn, WriteRec};
use crate::sql::value::{Row, Value};
use dashmap::DashMap;
use parking_lot::Mutex;
use std::ops::Bound;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

/// An index key (memcomparable bytes). Keys up to 24 bytes — integer and short composite
/// keys — are stored inline in the tree node and the row slot, so comparing against a
/// scan's bound does not chase a pointer.
pub type Key = smallvec::SmallVec<[u8; 24]>;

/// Number of stripes of the per-index uniqueness mutex.
const UNIQUE_STRIPES: usize = 64;

pub struct SecondaryIndex {
    pub def: IndexDef,
    pub map: OrderedMap,
    stripes: Box<[Mutex<()>]>,
}

pub struct Table {
    /// Unique per table object: TRUNCATE and ALTER create a new object with a new id.
    pub id: u64,
    pub def: Arc<TableDef>,
    pub primary: OrderedMap,
    /// The primary's slots by whole key (see the module doc).
    by_key: DashMap<Key, Arc<RowSlot>, ahash::RandomState>,
    pub indexes: Vec<SecondaryIndex>,
    /// Next AUTO_INCREMENT value to hand out.
    auto_inc: AtomicU64,
    /// Next hidden row id (tables without a primary key).
    next_row_id: AtomicU64,
    /// Committed row count (exact at rest; for statistics and SHOW TABLE STATUS).
    rows_committed: AtomicI64,
    /// Index statistics for the planner (see `stats.rs`).
    pub(super) stats: super::stats::StatsCell,
    /// Metadata lock: writers hold it shared until their transaction ends; DDL exclusive.
    pub mdl: Arc<tokio::sync::RwLock<()>>,
    pub dropped: AtomicBool,
    pub created_at: std::time::SystemTime,
    /// Column types and nullability, as the binary log's Table_map describes them.
    pub binlog_columns: Vec<(crate::sql::types::SqlType, bool)>,
    /// A session's temporary table: never in the catalog, never journaled or checkpointed
    /// (MySQL's row-based binary log leaves them out too; they die with the session).
    pub temporary: bool,
}

static NEXT_TABLE_ID: AtomicU64 = AtomicU64::new(1);

/// How a reader looks at rows: as transaction `me` at snapshot `snapshot`.
#[derive(Clone, Copy, Debug)]
pub struct ReadView {
    pub me: u64,
    pub snapshot: u64,
}

impl Table {
    pub fn new(def: TableDef) -> Table {
        let indexes = def
            .indexes
            .iter()
            .map(|d| SecondaryIndex {
                def: d.clone(),
                map: OrderedMap::new(),
                stripes: (0..UNIQUE_STRIPES).map(|_| Mutex::new(())).collect(),
            })
            .collect();
        let start = def.auto_increment_start.max(1);
        let binlog_columns = def
            .columns
            .iter()
            .map(|c| (c.ty.clone(), c.nullable))
            .collect();
        Table {
            id: NEXT_TABLE_ID.fetch_add(1, Ordering::Relaxed),
            def: Arc::new(def),
            primary: OrderedMap::new(),
            by_key: DashMap::default(),
            indexes,
            auto_inc: AtomicU64::new(start),
            next_row_id: AtomicU64::new(1),
            rows_committed: AtomicI64::new(0),
            stats: Default::default(),
            mdl: Arc::new(tokio::sync::RwLock::new(())),
            dropped: AtomicBool::new(false),
            created_at: std::time::SystemTime::now(),
            binlog_columns,
            temporary: false,
        }
    }

    pub fn name(&self) -> &str {
        &self.def.name
    }

    pub fn row_count(&self) -> u64 {
        self.rows_committed.load(Ordering::Relaxed).max(0) as u64
    }

    pub(crate) fn add_committed_rows(&self, delta: i64) {
        if delta != 0 {
            let now = self.rows_committed.fetch_add(delta, Ordering::Relaxed) + delta;
            self.stats.rows_changed(now);
        }
    }

    // ----- keys -------------------------------------------------------------------------

    /// The clustered key of `row` (None for hidden-row-id tables: the key is allocated).
    pub fn primary_key(&self, row: &[Value]) -> Option<Key> {
        let pk = self.def.primary.as_ref()?;
        let mut out = Vec::with_capacity(16);
        self.encode_index_columns(pk, row, &mut out);
        Some(Key::from_vec(out))
    }

    /// Encode the key columns of `index` for `row`; returns whether any of them is NULL.
    pub fn encode_index_columns(&self, index: &IndexDef, row: &[Value], out: &mut Vec<u8>) -> bool {
        let mut has_null = false;
        for ic in &index.columns {
            has_null |= row[ic.col].is_null();
            self.encode_index_column(ic, row, out);
        }
        has_null
    }

    /// Encode one key column of an index (its prefix, for `KEY (c(n))`) for `row`.
    pub fn encode_index_column(&self, ic: &IndexColumn, row: &[Value], out: &mut Vec<u8>) {
        let ty = &self.def.columns[ic.col].ty;
        match ic.prefix {
            Some(n) => keycode::encode_prefix(&row[ic.col], ty, n as usize, out),
            None => keycode::encode(&row[ic.col], ty, out),
        }
    }

    /// The entry key of `row` (stored in `slot`) in secondary index `i`.
    pub fn secondary_entry_key(&self, i: usize, row: &[Value], slot_key: &[u8], out: &mut Vec<u8>) {
        out.clear();
        self.encode_index_columns(&self.indexes[i].def, row, out);
        out.extend_from_slice(slot_key);
    }

    /// Does `entry_key` of index `i` describe `row` (stored in `slot`)? Stale entries don't.
    pub fn entry_matches(
        &self,
        i: usize,
        entry_key: &[u8],
        row: &[Value],
        slot: &RowSlot,
        scratch: &mut Vec<u8>,
    ) -> bool {
        self.secondary_entry_key(i, row, &slot.key, scratch);
        scratch.as_slice() == entry_key
    }

    // ----- auto increment -----------------------------------------------------------------

    /// Reserve `n` consecutive AUTO_INCREMENT values; returns the first.
    pub fn next_auto_inc(&self, n: u64) -> u64 {
        self.auto_inc.fetch_add(n, Ordering::Relaxed)
    }

    /// An explicit value was inserted: later generated values must be above it.
    pub fn observe_auto_inc(&self, v: u64) {
        self.auto_inc
            .fetch_max(v.saturating_add(1), Ordering::Relaxed);
    }

    pub fn peek_auto_inc(&self) -> u64 {
        self.auto_inc.load(Ordering::Relaxed)
    }

    pub fn set_auto_inc(&self, v: u64) {
        self.auto_inc.store(v, Ordering::Relaxed);
    }

    /// Hidden row ids: recovery sets the next one past every id it has seen.
    pub fn observe_row_id(&self, id: u64) {
        self.next_row_id
            .fetch_max(id.saturating_add(1), Ordering::Relaxed);
    }

    // ----- reads ------------------------------------------------------------------------

    /// The slot of primary key `key` (a hash probe: see the module doc).
    pub fn get(&self, key: &[u8]) -> Option<Arc<RowSlot>> {
        self.by_key.get(key).map(|e| e.value().clone())
    }

    /// Make `slot` the one `get` finds for its key. Called with the slot's state lock held
    /// and the slot alive, before a row of it can be seen.
    fn index_slot(&self, slot: &Arc<RowSlot>) {
        self.by_key.insert(slot.key.clone(), slot.clone());
    }

    /// Purge removed the dead `slot` from the primary: forget it here too, unless its key
    /// already has a new slot. Called with the slot's state lock held.
    pub(crate) fn unindex_slot(&self, slot: &Arc<RowSlot>) {
        self.by_key
            .remove_if(&*slot.key, |_, v| Arc::ptr_eq(v, slot));
    }

    /// The row `view` sees in `slot`.
    pub fn read(&self, slot: &RowSlot, view: ReadView) -> Option<Row> {
        let st = slot.state.lock();
        st.visible(view.me, view.snapshot).cloned()
    }

    /// The latest committed row (or `me`'s own pending one). Meaningful for a caller holding
    /// the row lock.
    pub fn read_latest(&self, slot: &RowSlot, me: u64) -> Option<Row> {
        let st = slot.state.lock();
        st.latest(me).cloned()
    }

    /// Does a transaction other than `me` have an uncommitted version of the row (an
    /// insert, update or delete it has not committed yet)?
    pub fn pending_by_other(&self, slot: &RowSlot, me: u64) -> bool {
        slot.state.lock().pending_by_other(me).is_some()
    }

    /// Primary-key range scan, in key order (or reverse).
    pub fn scan_primary<'a>(
        &'a self,
        lo: Bound<&'a [u8]>,
        hi: Bound<&'a [u8]>,
        reverse: bool,
    ) -> Box<dyn Iterator<Item = Arc<RowSlot>> + 'a> {
        Box::new(self.primary.range(lo, hi, reverse).map(|(_, slot)| slot))
    }

    /// Secondary index range scan over entry keys (index key ++ pk).
    pub fn scan_index<'a>(
        &'a self,
        i: usize,
        lo: Bound<&'a [u8]>,
        hi: Bound<&'a [u8]>,
        reverse: bool,
    ) -> Box<dyn Iterator<Item = (Key, Arc<RowSlot>)> + 'a> {
        Box::new(self.indexes[i].map.range(lo, hi, reverse))
    }

    // ----- locks ------------------------------------------------------------------------

    /// Take a row lock for `txn`. `Ok(false)`: the slot was purged (the row is gone).
    pub fn lock(
        &self,
        txn: &mut Txn,
        slot: &Arc<RowSlot>,
        mode: LockMode,
    ) -> Result<bool, StorageError> {
        let mut st = slot.state.lock();
        if st.dead {
            return Ok(false);
        }
        match st.lock.acquire(txn.id(), mode) {
            Acquire::Granted(new) => {
                if new {
                    txn.locked.push(slot.clone());
                }
                Ok(true)
            }
            Acquire::Wait(waiter) => Err(StorageError::LockWait {
                slot: slot.clone(),
                waiter,
                mode,
            }),
        }
    }

    /// Like [`lock`](Self::lock) but never waits: `Err(LockNowait)` if the lock is taken.
    pub fn try_lock(
        &self,
        txn: &mut Txn,
        slot: &Arc<RowSlot>,
        mode: LockMode,
    ) -> Result<bool, StorageError> {
        match self.lock(txn, slot, mode) {
            Err(StorageError::LockWait { slot, waiter, .. }) => {
                slot.state.lock().lock.cancel(&waiter);
                if waiter.is_granted() {
                    txn.locked.push(slot.clone());
                    return Ok(true);
                }
                Err(StorageError::LockNowait)
            }
            other => other,
        }
    }

    /// The shared metadata lock writers hold until their transaction ends.
    pub fn acquire_mdl(self: &Arc<Self>, txn: &mut Txn) -> Result<(), StorageError> {
        if txn.holds_mdl(self) {
            return Ok(());
        }
        if self.dropped.load(Ordering::Acquire) {
            return Err(StorageError::TableDropped);
        }
        match self.mdl.clone().try_read_owned() {
            Ok(guard) => {
                txn.mdl.push((self.clone(), guard));
                Ok(())
            }
            Err(_) => Err(StorageError::MdlWait(self.clone())),
        }
    }

    // ----- writes -----------------------------------------------------------------------

    /// Insert `row`. On a duplicate primary or unique key, returns `Duplicate` (the existing
    /// row's slot stays locked by `txn`, as InnoDB keeps the lock it took to check).
    pub fn insert(self: &Arc<Self>, txn: &mut Txn, row: Row) -> Result<Arc<RowSlot>, StorageError> {
        if txn.read_only {
            return Err(StorageError::ReadOnlyTxn);
        }
        self.acquire_mdl(txn)?;
        let key = match self.primary_key(&row) {
            Some(k) => k,
            None => {
                let id = self.next_row_id.fetch_add(1, Ordering::Relaxed);
                Key::from_slice(&id.to_be_bytes())
            }
        };
        let me = txn.id();
        let slot = loop {
            // A key that has a slot (a row deleted and inserted again, a duplicate) is
            // found with a hash probe; only a new one descends the primary's tree.
            let slot = match self.get(&key) {
                Some(slot) => slot,
                None => self
                    .primary
                    .get_or_insert_with(&key, || Arc::new(RowSlot::new(key.clone()))),
            };
            let mut st = slot.state.lock();
            if st.dead {
                drop(st);
                std::thread::yield_now();
                continue;
            }
            match st.lock.acquire(me, LockMode::Exclusive) {
                Acquire::Granted(new) => {
                    if new {
                        txn.locked.push(slot.clone());
                    }
                }
                Acquire::Wait(waiter) => {
                    drop(st);
                    return Err(StorageError::LockWait {
                        slot,
                        waiter,
                        mode: LockMode::Exclusive,
                    });
                }
            }
            if st.latest(me).is_some() {
                drop(st);
                return Err(self.duplicate(None, &row, slot));
            }
            self.index_slot(&slot);
            let prev = st.replace_pending(txn.shared.clone(), Some(row.clone()));
            drop(st);
            txn.writes.push(WriteRec {
                table: self.clone(),
                slot: slot.clone(),
                before: None,
                after: Some(row.clone()),
                prev_pending: prev,
            });
            break slot;
        };
        for i in 0..self.indexes.len() {
            self.add_index_entry(txn, i, &row, &slot, None)?;
        }
        Ok(slot)
    }

    /// Replace the row in `slot` (which `txn` holds exclusively) with `new_row`. A changed
    /// primary key is a delete plus an insert, as in InnoDB.
    pub fn update(
        self: &Arc<Self>,
        txn: &mut Txn,
        slot: &Arc<RowSlot>,
        new_row: Row,
    ) -> Result<Option<Arc<RowSlot>>, StorageError> {
        if txn.read_only {
            return Err(StorageError::ReadOnlyTxn);
        }
        self.acquire_mdl(txn)?;
        let me = txn.id();
        if let Some(new_key) = self.primary_key(&new_row)
            && *new_key != *slot.key
        {
            self.delete(txn, slot)?;
            return self.insert(txn, new_row).map(Some);
        }
        let mut st = slot.state.lock();
        assert!(
            st.lock.holds(me, LockMode::Exclusive),
            "update without the row lock"
        );
        let Some(before) = st.latest(me).cloned() else {
            return Ok(None);
        };
        let prev = st.replace_pending(txn.shared.clone(), Some(new_row.clone()));
        drop(st);
        txn.writes.push(WriteRec {
            table: self.clone(),
            slot: slot.clone(),
            before: Some(before.clone()),
            after: Some(new_row.clone()),
            prev_pending: prev,
        });
        for i in 0..self.indexes.len() {
            self.add_index_entry(txn, i, &new_row, slot, Some(&before))?;
        }
        Ok(Some(slot.clone()))
    }

    /// Delete the row in `slot` (which `txn` holds exclusively). Returns the deleted row.
    pub fn delete(
        self: &Arc<Self>,
        txn: &mut Txn,
        slot: &Arc<RowSlot>,
    ) -> Result<Option<Row>, StorageError> {
        if txn.read_only {
            return Err(StorageError::ReadOnlyTxn);
        }
        self.acquire_mdl(txn)?;
        let me = txn.id();
        let mut st = slot.state.lock();
        assert!(
            st.lock.holds(me, LockMode::Exclusive),
            "delete without the row lock"
        );
        let Some(before) = st.latest(me).cloned() else {
            return Ok(None);
        };
        let prev = st.replace_pending(txn.shared.clone(), None);
        drop(st);
        txn.writes.push(WriteRec {
            table: self.clone(),
            slot: slot.clone(),
            before: Some(before.clone()),
            after: None,
            prev_pending: prev,
        });
        Ok(Some(before))
    }

    /// Add `row`'s entry to secondary index `i`, checking uniqueness. `before`: the row's
    /// previous version (no work if the key did not change).
    fn add_index_entry(
        self: &Arc<Self>,
        txn: &mut Txn,
        i: usize,
        row: &Row,
        slot: &Arc<RowSlot>,
        before: Option<&Row>,
    ) -> Result<(), StorageError> {
        let idx = &self.indexes[i];
        let mut key = Vec::with_capacity(32);
        let has_null = self.encode_index_columns(&idx.def, row, &mut key);
        if let Some(b) = before {
            let mut old = Vec::with_capacity(32);
            self.encode_index_columns(&idx.def, b, &mut old);
            if old == key {
                return Ok(());
            }
        }
        let prefix_len = key.len();
        key.extend_from_slice(&slot.key);
        if !idx.def.is_unique() || has_null {
            idx.map.put(Key::from_vec(key), slot);
            return Ok(());
        }
        let stripe = stripe_of(&key[..prefix_len]);
        let _guard = idx.stripes[stripe].lock();
        let me = txn.id();
        let mut scratch = Vec::with_capacity(32);
        for (_, other) in Self::prefix_entries(idx, &key[..prefix_len]) {
            if Arc::ptr_eq(&other, slot) {
                continue;
            }
            let mut st = other.state.lock();
            if st.dead {
                continue;
            }
            let mut has_key = |r: Option<&Row>| {
                r.is_some_and(|r| {
                    scratch.clear();
                    self.encode_index_columns(&idx.def, r, &mut scratch);
                    scratch[..] == key[..prefix_len]
                })
            };
            if st.pending_by_other(me).is_some() {
                let pending_row = st.pending.as_ref().and_then(|p| p.row.as_ref());
                let committed = st.versions.first().and_then(|v| v.row.as_ref());
                if has_key(pending_row) || has_key(committed) {
                    // The other writer's outcome decides: wait for it, as a shared lock.
                    return match st.lock.acquire(me, LockMode::Shared) {
                        Acquire::Granted(new) => {
                            // Cannot happen while another transaction has a pending version
                            // (it holds the row exclusively); be safe and re-check later.
                            if new {
                                txn.locked.push(other.clone());
                            }
                            Err(StorageError::Retry)
                        }
                        Acquire::Wait(waiter) => Err(StorageError::LockWait {
                            slot: other.clone(),
                            waiter,
                            mode: LockMode::Shared,
                        }),
                    };
                }
            } else if has_key(st.latest(me)) {
                drop(st);
                return Err(self.duplicate(Some(i), row, other.clone()));
            }
        }
        idx.map.put(Key::from_vec(key), slot);
        Ok(())
    }

    /// The entries of `idx` whose keys start with `prefix` (a whole index key: the rows
    /// that may hold it).
    fn prefix_entries<'a>(idx: &'a SecondaryIndex, prefix: &[u8]) -> super::ordered::Range<'a> {
        let hi = keycode::prefix_successor(prefix);
        let hi = hi.as_deref().map_or(Bound::Unbounded, Bound::Excluded);
        idx.map.range(Bound::Included(prefix), hi, false)
    }

    fn duplicate(&self, index: Option<usize>, row: &Row, existing: Arc<RowSlot>) -> StorageError {
        let def = match index {
            None => self.def.primary.as_ref(),
            Some(i) => Some(&self.indexes[i].def),
        };
        let (name, values) = match def {
            Some(d) => (
                d.name.clone(),
                d.columns
                    .iter()
                    .map(|c| (row[c.col].clone(), self.def.columns[c.col].ty.clone()))
                    .collect(),
            ),
            None => ("PRIMARY".to_string(), Vec::new()),
        };
        StorageError::Duplicate {
            table: self.def.name.clone(),
            index: index.map_or(-1, |i| i as i64),
            index_name: name,
            key: values,
            existing,
        }
    }
}

fn stripe_of(key: &[u8]) -> usize {
    // FNV-1a: short keys, no allocation, good enough spread for 64 stripes.
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in key {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    (h % UNIQUE_STRIPES as u64) as usize
}

impl Table {
    /// Load a committed row directly (DDL copies, recovery): no transaction, no locks.
    /// Must not run while transactions write this table (the caller holds the exclusive
    /// metadata lock, or the table is not yet visible).
    pub fn load_committed(&self, row: Row, cts: u64) -> Result<Arc<RowSlot>, StorageError> {
        let key = match self.primary_key(&row) {
            Some(k) => k,
            None => {
                let id = self.next_row_id.fetch_add(1, Ordering::Relaxed);
                Key::from_slice(&id.to_be_bytes())
            }
        };
        let slot = self
            .primary
            .get_or_insert_with(&key, || Arc::new(RowSlot::new(key.clone())));
        {
            let mut st = slot.state.lock();
            if st.latest(0).is_some() {
                drop(st);
                return Err(self.duplicate(None, &row, slot));
            }
            self.index_slot(&slot);
            st.versions.insert(
                0,
                super::row::Version {
                    cts,
                    row: Some(row.clone()),
                },
            );
        }
        let mut scratch = Vec::new();
        for i in 0..self.indexes.len() {
            let idx = &self.indexes[i];
            let mut key = Vec::with_capacity(32);
            let has_null = self.encode_index_columns(&idx.def, &row, &mut key);
            let prefix_len = key.len();
            if idx.def.is_unique() && !has_null {
                for (_, other) in Self::prefix_entries(idx, &key[..prefix_len]) {
                    let st = other.state.lock();
                    if let Some(r) = st.latest(0) {
                        scratch.clear();
                        self.encode_index_columns(&idx.def, r, &mut scratch);
                        if scratch[..] == key[..prefix_len] {
                            drop(st);
                            return Err(self.duplicate(Some(i), &row, other.clone()));
                        }
                    }
                }
            }
            key.extend_from_slice(&slot.key);
            idx.map.put(Key::from_vec(key), &slot);
        }
        let now = self.rows_committed.fetch_add(1, Ordering::Relaxed) + 1;
        self.stats.rows_changed(now);
        Ok(slot)
    }
}
