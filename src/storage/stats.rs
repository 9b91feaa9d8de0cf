//! Index statistics for the planner: for each index (the primary first, then the
//! secondaries in definition order) and each key prefix length, the average number of rows
//! per distinct prefix — MySQL's `rec_per_key`, InnoDB's `n_diff_key_vals` turned around.
//!
//! Two measures per prefix length. Prefixes with few distinct values (a warehouse id, a
//! district) are counted exactly by hopping from each prefix to the next (a loose index
//! scan: one index seek per distinct value, at most [`HOPS_MAX`]); rows per prefix is
//! then the row count divided by that. Prefixes with more distinct values than that are
//! estimated from a sample, the first [`SAMPLE_ROWS`] entries in key order, counting how
//! often the prefix changes (assuming the keys after the sample look like those in it, true
//! of the uniform data OLTP schemas hold), and never above rows / [`HOPS_MAX`].
//!
//! Statistics are computed when a planner first asks and kept until the table's committed
//! row count leaves [half, double] of the count they were taken at. Leaving that band
//! drops them and bumps [`epoch`], which every plan records: cached and prepared plans made
//! before are rebuilt on their next use, so a plan chosen on an empty table does not outlive
//! the load that fills it. The check costs two relaxed loads per commit and table.

use super::keycode;
use super::table::Table;
use parking_lot::Mutex;
use std::ops::Bound;
use std::ops::Bound::Unbounded;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// Index entries read per index to compute statistics.
pub const SAMPLE_ROWS: usize = 4096;

/// Distinct prefixes counted exactly, per index and prefix length.
pub const HOPS_MAX: u64 = 256;

static EPOCH: AtomicU64 = AtomicU64::new(1);

/// Moves whenever some table's statistics went stale (see the module doc).
pub fn epoch() -> u64 {
    EPOCH.load(Ordering::Acquire)
}

pub struct IndexStats {
    /// Committed rows when taken.
    pub rows: u64,
    /// Per prefix length - 1, rows per distinct prefix: of the primary key (empty without
    /// one) and of each secondary index.
    pub primary: Vec<f64>,
    pub secondary: Vec<Vec<f64>>,
}

impl IndexStats {
    /// Rows per distinct prefix of the primary key (`None`) or secondary index `i`.
    pub fn rec_per_key(&self, secondary: Option<usize>) -> &[f64] {
        match secondary {
            None => &self.primary,
            Some(i) => self.secondary.get(i).map_or(&[], Vec::as_slice),
        }
    }
}

/// A table's statistics and the row-count band in which they stay valid.
pub struct StatsCell {
    current: Mutex<Option<Arc<IndexStats>>>,
    lo: AtomicI64,
    hi: AtomicI64,
}

impl Default for StatsCell {
    fn default() -> Self {
        StatsCell {
            current: Mutex::new(None),
            lo: AtomicI64::new(i64::MIN),
            hi: AtomicI64::new(i64::MAX),
        }
    }
}

impl StatsCell {
    /// The committed row count is now `rows`: out of the band, the statistics go stale.
    pub fn rows_changed(&self, rows: i64) {
        if rows <= self.hi.load(Ordering::Relaxed) && rows >= self.lo.load(Ordering::Relaxed) {
            return;
        }
        // Widen the band first so that concurrent committers do not all get here.
        self.lo.store(i64::MIN, Ordering::Relaxed);
        self.hi.store(i64::MAX, Ordering::Relaxed);
        *self.current.lock() = None;
        EPOCH.fetch_add(1, Ordering::AcqRel);
    }
}

impl Table {
    /// The table's index statistics, computed now if there are none.
    pub fn stats(&self) -> Arc<IndexStats> {
        let mut cur = self.stats.current.lock();
        if let Some(s) = &*cur {
            return s.clone();
        }
        let s = Arc::new(self.compute_stats());
        let n = s.rows as i64;
        self.stats
            .lo
            .store(if n < 32 { i64::MIN } else { n / 2 }, Ordering::Relaxed);
        self.stats.hi.store((n * 2).max(16), Ordering::Relaxed);
        *cur = Some(s.clone());
        s
    }

    fn compute_stats(&self) -> IndexStats {
        let rows = self.row_count();
        IndexStats {
            rows,
            primary: self
                .def
                .primary
                .as_ref()
                .map_or(Vec::new(), |pk| self.index_stats(None, pk, rows)),
            secondary: self
                .indexes
                .iter()
                .enumerate()
                .map(|(i, x)| self.index_stats(Some(i), &x.def, rows))
                .collect(),
        }
    }

    /// The primary key's slots (`None`) or secondary index `i`'s, in key order from `lo`.
    fn index_slots<'a>(
        &'a self,
        secondary: Option<usize>,
        lo: Bound<&'a [u8]>,
    ) -> Box<dyn Iterator<Item = Arc<super::row::RowSlot>> + 'a> {
        match secondary {
            None => self.scan_primary(lo, Unbounded, false),
            Some(i) => Box::new(self.scan_index(i, lo, Unbounded, false).map(|e| e.1)),
        }
    }

    /// Rows per distinct prefix of one index (see the module doc).
    fn index_stats(
        &self,
        secondary: Option<usize>,
        def: &super::schema::IndexDef,
        rows: u64,
    ) -> Vec<f64> {
        let width = def.columns.len();
        let mut changes = vec![0u64; width];
        let mut prev: Vec<Vec<u8>> = Vec::new();
        let mut n = 0u64;
        for slot in self.index_slots(secondary, Unbounded).take(SAMPLE_ROWS) {
            let Some(row) = self.read_latest(&slot, 0) else {
                continue;
            };
            let cur: Vec<Vec<u8>> = def
                .columns
                .iter()
                .map(|ic| {
                    let mut b = Vec::new();
                    self.encode_index_column(ic, &row, &mut b);
                    b
                })
                .collect();
            let first = if n == 0 {
                0
            } else {
                cur.iter()
                    .zip(&prev)
                    .position(|(a, b)| a != b)
                    .unwrap_or(width)
            };
            for c in &mut changes[first..] {
                *c += 1;
            }
            prev = cur;
            n += 1;
        }
        let whole = (n as usize) < SAMPLE_ROWS;
        let mut rec = Vec::with_capacity(width);
        for (j, &d) in changes.iter().enumerate() {
            rec.push(if n == 0 || whole {
                n.max(1) as f64 / d.max(1) as f64
            } else {
                match self.distinct_prefixes(secondary, def, j + 1) {
                    Some(exact) => (rows as f64 / exact.max(1) as f64).max(1.0),
                    None => (n as f64 / d.max(1) as f64).min(rows as f64 / HOPS_MAX as f64),
                }
            });
        }
        rec
    }

    /// The number of distinct values of the first `len` key columns of an index (the
    /// primary if `secondary` is None), if at most [`HOPS_MAX`].
    fn distinct_prefixes(
        &self,
        secondary: Option<usize>,
        def: &super::schema::IndexDef,
        len: usize,
    ) -> Option<u64> {
        let mut from: Option<Vec<u8>> = None;
        let mut count = 0;
        while count <= HOPS_MAX {
            let lo = from.as_deref().map_or(Unbounded, Bound::Included);
            // The next live row (a few dead entries may come first).
            let next = self.index_slots(secondary, lo).take(64);
            let Some(row) = next.into_iter().find_map(|s| self.read_latest(&s, 0)) else {
                return Some(count);
            };
            count += 1;
            let mut prefix = Vec::new();
            for ic in &def.columns[..len] {
                self.encode_index_column(ic, &row, &mut prefix);
            }
            match keycode::prefix_successor(&prefix) {
                Some(next) => from = Some(next),
                None => return Some(count),
            }
        }
        None
    }
}
