//! The ordered maps behind a table's primary and secondary indexes: a B-tree behind a
//! reader-writer lock, read by scans in batches.
//!
//! A lookup, insert or removal takes the lock for one descent of the tree (about six nodes
//! of up to eleven keys each at 100,000 rows, searched within each node in cache). The
//! lock-free skip lists used before took about twice as long per operation at many
//! connections: a descent there is some seventeen dependent pointer loads, most of them
//! cache misses once 64 sessions share two cores, plus the epoch bookkeeping of every node
//! visited.
//!
//! A scan never holds the lock while its caller works. It copies the next batch of entries
//! (16 at first, doubling up to 1,024) under the read lock, releases it, hands them out, and
//! resumes after the last key it copied. So a reader that goes on to take row locks, or an
//! UPDATE that adds entries to the index it is scanning, never waits on the map, and a
//! long scan never stalls writers. Like the skip list's iterators, a scan sees the entries
//! that exist as it reaches each batch: entries added behind its position are not seen,
//! entries added ahead of it may be. Table scans rely only on what that gives: an entry
//! stays in place as long as some snapshot can see its row (purge removes it after), and
//! readers check each row version they reach (see `table.rs`).
//!
//! Lock order: a slot's state mutex may be held while taking the map's lock (purge removes
//! entries under it); the map's lock is never held while taking anything else.

use super::row::RowSlot;
use super::table::Key;
use parking_lot::RwLock;
use std::collections::{BTreeMap, VecDeque};
use std::ops::Bound;
use std::sync::Arc;

/// First batch a scan copies; each next one is twice as large, up to [`BATCH_MAX`].
const BATCH_MIN: usize = 16;
const BATCH_MAX: usize = 1024;

#[derive(Default)]
pub struct OrderedMap {
    tree: RwLock<BTreeMap<Key, Arc<RowSlot>>>,
}

impl OrderedMap {
    pub fn new() -> OrderedMap {
        OrderedMap::default()
    }

    pub fn len(&self) -> usize {
        self.tree.read().len()
    }

    pub fn is_empty(&self) -> bool {
        self.tree.read().is_empty()
    }

    /// The slot under `key`, or the one `make` creates and inserts.
    pub fn get_or_insert_with(
        &self,
        key: &[u8],
        make: impl FnOnce() -> Arc<RowSlot>,
    ) -> Arc<RowSlot> {
        let mut tree = self.tree.write();
        if let Some(slot) = tree.get(key) {
            return slot.clone();
        }
        let slot = make();
        tree.insert(Key::from_slice(key), slot.clone());
        slot
    }

    /// Point `key` at `slot` (an entry already pointing there stays as it is).
    pub fn put(&self, key: Key, slot: &Arc<RowSlot>) {
        let mut tree = self.tree.write();
        match tree.entry(key) {
            std::collections::btree_map::Entry::Occupied(mut e) => {
                if !Arc::ptr_eq(e.get(), slot) {
                    e.insert(slot.clone());
                }
            }
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(slot.clone());
            }
        }
    }

    /// Remove `key`'s entry; returns the slot it pointed to.
    pub fn remove(&self, key: &[u8]) -> Option<Arc<RowSlot>> {
        self.tree.write().remove(key)
    }

    /// The entries with keys between `lo` and `hi`, in key order (or reverse), copied in
    /// batches (see the module doc).
    pub fn range(&self, lo: Bound<&[u8]>, hi: Bound<&[u8]>, reverse: bool) -> Range<'_> {
        Range {
            map: self,
            lo: lo.map(Key::from_slice),
            hi: hi.map(Key::from_slice),
            reverse,
            buf: VecDeque::new(),
            batch: BATCH_MIN,
            done: false,
        }
    }
}

/// Is no key between `lo` and `hi`? (`BTreeMap::range` panics on such bounds.)
fn is_empty_range(lo: Bound<&[u8]>, hi: Bound<&[u8]>) -> bool {
    match (lo, hi) {
        (Bound::Included(a), Bound::Included(b)) => a > b,
        (Bound::Included(a) | Bound::Excluded(a), Bound::Excluded(b))
        | (Bound::Excluded(a), Bound::Included(b)) => a >= b,
        _ => false,
    }
}

/// A batched scan of an [`OrderedMap`] (see the module doc).
pub struct Range<'a> {
    map: &'a OrderedMap,
    /// What is left to scan: the next batch starts after the last key handed out.
    lo: Bound<Key>,
    hi: Bound<Key>,
    reverse: bool,
    /// Copied, not yet handed out.
    buf: VecDeque<(Key, Arc<RowSlot>)>,
    batch: usize,
    /// The last batch was short: nothing is left.
    done: bool,
}

impl Range<'_> {
    fn fill(&mut self) {
        let (lo, hi) = (
            self.lo.as_ref().map(|k| &k[..]),
            self.hi.as_ref().map(|k| &k[..]),
        );
        if is_empty_range(lo, hi) {
            self.done = true;
            return;
        }
        {
            let tree = self.map.tree.read();
            let range = tree.range::<[u8], _>((lo, hi));
            let copy = |(k, v): (&Key, &Arc<RowSlot>)| (k.clone(), v.clone());
            if self.reverse {
                self.buf.extend(range.rev().take(self.batch).map(copy));
            } else {
                self.buf.extend(range.take(self.batch).map(copy));
            }
        }
        if self.buf.len() < self.batch {
            self.done = true;
        } else if let Some((last, _)) = self.buf.back() {
            let resume = Bound::Excluded(last.clone());
            if self.reverse {
                self.hi = resume;
            } else {
                self.lo = resume;
            }
        }
        self.batch = (self.batch * 2).min(BATCH_MAX);
    }
}

impl Iterator for Range<'_> {
    type Item = (Key, Arc<RowSlot>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.buf.is_empty() && !self.done {
            self.fill();
        }
        self.buf.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_of(keys: &[u8]) -> OrderedMap {
        let m = OrderedMap::new();
        for &k in keys {
            m.put(
                Key::from_slice(&[k]),
                &Arc::new(RowSlot::new(Key::from_slice(&[k]))),
            );
        }
        m
    }

    fn keys(r: Range<'_>) -> Vec<u8> {
        r.map(|(k, s)| {
            assert_eq!(k, s.key, "each entry comes with its own slot");
            k[0]
        })
        .collect()
    }

    #[test]
    fn scans_cross_batches_both_ways() {
        let all: Vec<u8> = (0..=250).collect();
        let m = map_of(&all);
        let b = |k: u8| [k];
        let (k10, k200) = (b(10), b(200));
        let fwd = keys(m.range(Bound::Included(&k10), Bound::Excluded(&k200), false));
        assert_eq!(fwd, (10..200).collect::<Vec<_>>());
        let rev = keys(m.range(Bound::Excluded(&k10), Bound::Included(&k200), true));
        assert_eq!(rev, (11..=200).rev().collect::<Vec<_>>());
        assert_eq!(
            keys(m.range(Bound::Unbounded, Bound::Unbounded, false)).len(),
            251
        );
        // Exactly a batch's worth: the next (empty) batch ends the scan.
        let k16 = b(16);
        assert_eq!(
            keys(m.range(Bound::Unbounded, Bound::Excluded(&k16), false)),
            (0..16).collect::<Vec<_>>()
        );
    }

    #[test]
    fn empty_and_inverted_bounds_are_empty_scans() {
        let m = map_of(&[1, 2, 3, 5, 8]);
        let (k3, k5) = ([3u8], [5u8]);
        for (lo, hi) in [
            (Bound::Excluded(&k3[..]), Bound::Excluded(&k3[..])),
            (Bound::Included(&k3[..]), Bound::Excluded(&k3[..])),
            (Bound::Excluded(&k3[..]), Bound::Included(&k3[..])),
            (Bound::Included(&k5[..]), Bound::Included(&k3[..])),
            (Bound::Excluded(&k5[..]), Bound::Excluded(&k3[..])),
        ] {
            assert!(keys(m.range(lo, hi, false)).is_empty(), "{lo:?}..{hi:?}");
            assert!(
                keys(m.range(lo, hi, true)).is_empty(),
                "{lo:?}..{hi:?} reverse"
            );
        }
        assert_eq!(
            keys(m.range(Bound::Included(&k3), Bound::Included(&k3), false)),
            [3]
        );
    }

    #[test]
    fn a_scan_does_not_hold_the_map_between_batches() {
        let all: Vec<u8> = (10..110).collect();
        let m = map_of(&all);
        let mut seen = Vec::new();
        for (k, _) in m.range(Bound::Unbounded, Bound::Unbounded, false) {
            // Writing the map mid-scan (as an UPDATE that scans an index it changes does)
            // must not deadlock. An entry added behind the scan is not seen.
            m.put(
                Key::from_slice(&[0, k[0]]),
                &Arc::new(RowSlot::new(k.clone())),
            );
            assert!(m.remove(&k).is_some());
            seen.push(k[0]);
        }
        assert_eq!(seen, all);
        assert_eq!(m.len(), 100);
    }

    #[test]
    fn put_keeps_an_entry_for_the_same_slot_and_replaces_another() {
        let m = OrderedMap::new();
        let a = Arc::new(RowSlot::new(Key::from_slice(b"a")));
        let b = Arc::new(RowSlot::new(Key::from_slice(b"b")));
        m.put(Key::from_slice(b"k"), &a);
        m.put(Key::from_slice(b"k"), &a);
        assert!(Arc::ptr_eq(&m.remove(b"k").unwrap(), &a));
        m.put(Key::from_slice(b"k"), &a);
        m.put(Key::from_slice(b"k"), &b);
        assert!(Arc::ptr_eq(&m.remove(b"k").unwrap(), &b));
        assert!(m.is_empty());
        let c = m.get_or_insert_with(b"x", || a.clone());
        let d = m.get_or_insert_with(b"x", || b.clone());
        assert!(Arc::ptr_eq(&c, &a) && Arc::ptr_eq(&d, &a));
    }
}
