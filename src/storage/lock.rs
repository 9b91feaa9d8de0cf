//! Row locks: shared and exclusive, FIFO waiting, deadlock detection.
//!
//! Each row slot carries a [`LockState`]: an exclusive owner, shared owners, and a FIFO queue
//! of waiters. Locks are held until the end of the transaction (strict two-phase locking),
//! as InnoDB holds record locks.
//!
//! ## Waiting without blocking the executor
//!
//! The executor is synchronous. When it needs a lock another transaction holds, the storage
//! call enqueues a [`Waiter`] and returns [`StorageError::LockWait`] carrying it. The session
//! then (outside every lock) checks for a deadlock, awaits the waiter with
//! `innodb_lock_wait_timeout`, and re-executes the statement from its beginning — with the
//! statement's partial changes rolled back but the locks it took kept. On release, a lock is
//! *granted* to the waiters at the head of the queue (no barging), so the re-executed
//! statement finds the lock already its own.
//!
//! ## Deadlocks
//!
//! [`LockWaits`] records which slot each waiting transaction waits on. Before sleeping, a
//! waiter walks the wait-for graph from its slot: the owners (and conflicting waiters ahead
//! in the queue) of a slot block it; if a blocker is itself waiting, its slot's blockers
//! follow. Reaching the waiter again is a deadlock: the waiter that closes the cycle is the
//! victim (error 1213, transaction rolled back). The walk takes one slot mutex at a time.
//! The graph is walked only when a transaction is about to wait, so uncontended locking never
//! touches it.
//!
//! [`StorageError::LockWait`]: super::StorageError::LockWait

use super::row::RowSlot;
use parking_lot::Mutex;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockMode {
    Shared,
    Exclusive,
}

/// A transaction waiting for a row lock.
pub struct Waiter {
    pub txn_id: u64,
    pub mode: LockMode,
    granted: AtomicBool,
    notify: tokio::sync::Notify,
}

impl Waiter {
    pub fn is_granted(&self) -> bool {
        self.granted.load(Ordering::Acquire)
    }

    /// Wait until granted (the caller applies the timeout).
    pub async fn wait(&self) {
        while !self.is_granted() {
            self.notify.notified().await;
        }
    }
}

#[derive(Default)]
pub struct LockState {
    /// Exclusive owner (0: none).
    x_owner: u64,
    /// Shared owners and waiters: rare, so kept out of line (every row slot has a
    /// `LockState`; this keeps it at 16 bytes). `None` when both are empty.
    more: Option<Box<Queued>>,
}

#[derive(Default)]
struct Queued {
    s_owners: Vec<u64>,
    waiters: VecDeque<Arc<Waiter>>,
}

/// Outcome of a lock request made under the slot mutex.
pub enum Acquire {
    /// Granted now (`true`: newly acquired, the caller must remember the slot).
    Granted(bool),
    /// Enqueued: wait for this.
    Wait(Arc<Waiter>),
}

impl LockState {
    fn s_owners(&self) -> &[u64] {
        self.more.as_ref().map_or(&[], |m| &m.s_owners)
    }

    fn no_waiters(&self) -> bool {
        self.more.as_ref().is_none_or(|m| m.waiters.is_empty())
    }

    fn queued(&mut self) -> &mut Queued {
        self.more.get_or_insert_with(Box::default)
    }

    /// Drop the out-of-line part once it holds nothing.
    fn tidy(&mut self) {
        if self
            .more
            .as_ref()
            .is_some_and(|m| m.s_owners.is_empty() && m.waiters.is_empty())
        {
            self.more = None;
        }
    }

    pub fn is_free(&self) -> bool {
        self.x_owner == 0 && self.s_owners().is_empty() && self.no_waiters()
    }

    pub fn holds(&self, txn: u64, mode: LockMode) -> bool {
        match mode {
            LockMode::Exclusive => self.x_owner == txn,
            LockMode::Shared => self.holds_any(txn),
        }
    }

    pub fn holds_any(&self, txn: u64) -> bool {
        self.x_owner == txn || self.s_owners().contains(&txn)
    }

    fn compatible(&self, txn: u64, mode: LockMode) -> bool {
        match mode {
            LockMode::Exclusive => {
                (self.x_owner == 0 || self.x_owner == txn)
                    && self.s_owners().iter().all(|&s| s == txn)
            }
            LockMode::Shared => self.x_owner == 0 || self.x_owner == txn,
        }
    }

    fn grant(&mut self, txn: u64, mode: LockMode) {
        match mode {
            LockMode::Exclusive => {
                self.x_owner = txn;
                if let Some(m) = &mut self.more {
                    m.s_owners.retain(|&s| s != txn);
                }
                self.tidy();
            }
            LockMode::Shared => {
                if !self.holds_any(txn) {
                    self.queued().s_owners.push(txn);
                }
            }
        }
    }

    /// Request a lock. `nowait`: fail instead of queueing (returns `Wait` never).
    pub fn acquire(&mut self, txn: u64, mode: LockMode) -> Acquire {
        if self.holds(txn, mode) {
            return Acquire::Granted(false);
        }
        let already_holds = self.holds_any(txn);
        // No barging past queued waiters, except for an upgrade by a current holder (which
        // would otherwise deadlock behind waiters that wait for it).
        if self.compatible(txn, mode) && (self.no_waiters() || already_holds) {
            self.grant(txn, mode);
            return Acquire::Granted(!already_holds);
        }
        let w = Arc::new(Waiter {
            txn_id: txn,
            mode,
            granted: AtomicBool::new(false),
            notify: tokio::sync::Notify::new(),
        });
        let waiters = &mut self.queued().waiters;
        if already_holds {
            waiters.push_front(w.clone());
        } else {
            waiters.push_back(w.clone());
        }
        Acquire::Wait(w)
    }

    /// Release every lock `txn` holds here and grant what can be granted.
    pub fn release(&mut self, txn: u64) {
        if self.x_owner == txn {
            self.x_owner = 0;
        }
        if let Some(m) = &mut self.more {
            m.s_owners.retain(|&s| s != txn);
        }
        self.grant_waiters();
    }

    /// Remove a waiter that gave up (timeout, deadlock victim, killed). If it had been
    /// granted meanwhile, the lock stays granted and `true` is returned.
    pub fn cancel(&mut self, w: &Arc<Waiter>) -> bool {
        if w.is_granted() {
            return true;
        }
        if let Some(m) = &mut self.more {
            m.waiters.retain(|x| !Arc::ptr_eq(x, w));
        }
        self.grant_waiters();
        false
    }

    /// Grant the head of the queue what can be granted; drops the out-of-line part if it
    /// is left empty.
    fn grant_waiters(&mut self) {
        while let Some(w) = self.more.as_ref().and_then(|m| m.waiters.front()) {
            if !self.compatible(w.txn_id, w.mode) {
                break;
            }
            let w = self.queued().waiters.pop_front().expect("front exists");
            self.grant(w.txn_id, w.mode);
            w.granted.store(true, Ordering::Release);
            w.notify.notify_one();
        }
        self.tidy();
    }

    /// Transactions that `txn` (a waiter, or about to be one, in `mode`) waits for here:
    /// conflicting owners and conflicting waiters queued ahead of it.
    fn blockers(&self, txn: u64, mode: LockMode, out: &mut Vec<u64>) {
        // Granted meanwhile (its session has not yet noticed and left the wait registry):
        // nothing blocks it. Stale entries must not become edges, or waiters queued behind
        // it would look like its blockers and close a false cycle.
        if self.holds(txn, mode) {
            return;
        }
        if self.x_owner != 0 && self.x_owner != txn {
            out.push(self.x_owner);
        }
        if mode == LockMode::Exclusive {
            out.extend(self.s_owners().iter().copied().filter(|&s| s != txn));
        }
        // Conflicting waiters ahead of it in the queue (none if it is not queued here).
        let Some(waiters) = self.more.as_ref().map(|m| &m.waiters) else {
            return;
        };
        if let Some(pos) = waiters.iter().position(|w| w.txn_id == txn) {
            for w in waiters.iter().take(pos) {
                if mode == LockMode::Exclusive || w.mode == LockMode::Exclusive {
                    out.push(w.txn_id);
                }
            }
        }
    }

    /// The owners, for diagnostics (SHOW ENGINE … STATUS, tests).
    pub fn owners(&self) -> (u64, &[u64], usize) {
        (
            self.x_owner,
            self.s_owners(),
            self.more.as_ref().map_or(0, |m| m.waiters.len()),
        )
    }
}

/// Who waits on what: the wait-for graph's edges are derived from this on demand.
#[derive(Default)]
pub struct LockWaits {
    waiting: Mutex<HashMap<u64, (Arc<RowSlot>, LockMode)>>,
}

/// Bound on the wait-for graph walk (InnoDB uses a similar limit and treats a too-deep
/// search as a deadlock).
const DEADLOCK_SEARCH_MAX: usize = 10_000;

/// How many times a cycle that does not survive confirmation is searched for again.
const DEADLOCK_CONFIRM_ATTEMPTS: usize = 3;

impl LockWaits {
    pub fn start_waiting(&self, txn: u64, slot: Arc<RowSlot>, mode: LockMode) {
        self.waiting.lock().insert(txn, (slot, mode));
    }

    pub fn stop_waiting(&self, txn: u64) {
        self.waiting.lock().remove(&txn);
    }

    /// Would `txn`, waiting on `slot`, close a cycle? Call after `start_waiting`, holding no
    /// slot mutex.
    ///
    /// The walk takes one slot mutex at a time, so it does not see one consistent graph: a
    /// lock released and granted while it walks can make a path look closed. A cycle found
    /// is therefore confirmed edge by edge afterwards; a real deadlock is stable (everyone
    /// in it waits), a transient one is not, and the search is repeated.
    pub fn is_deadlocked(&self, txn: u64, slot: &Arc<RowSlot>, mode: LockMode) -> bool {
        for _ in 0..DEADLOCK_CONFIRM_ATTEMPTS {
            match self.find_cycle(txn, slot, mode) {
                None => return false,
                Some(None) => return true, // search too deep: treated as a deadlock
                Some(Some(path)) => {
                    if self.confirm(txn, slot, mode, &path) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The waits-for path from `txn` back to itself (`txn`, b1, …, bn; bn waits for `txn`),
    /// `Some(None)` if the search hit its bound, `None` if there is no cycle.
    fn find_cycle(
        &self,
        txn: u64,
        slot: &Arc<RowSlot>,
        mode: LockMode,
    ) -> Option<Option<Vec<u64>>> {
        let mut first = Vec::new();
        slot.state.lock().lock.blockers(txn, mode, &mut first);
        // (node, the node it blocks)
        let mut stack: Vec<(u64, u64)> = first.into_iter().map(|b| (b, txn)).collect();
        let mut via: HashMap<u64, u64> = HashMap::new();
        let mut steps = 0usize;
        let mut scratch = Vec::new();
        while let Some((t, from)) = stack.pop() {
            if t == txn {
                let mut path = vec![from];
                let mut cur = from;
                while cur != txn {
                    cur = *via.get(&cur)?;
                    path.push(cur);
                }
                path.reverse();
                return Some(Some(path));
            }
            if via.contains_key(&t) {
                continue;
            }
            via.insert(t, from);
            steps += 1;
            if steps > DEADLOCK_SEARCH_MAX {
                return Some(None);
            }
            let next = self.waiting.lock().get(&t).cloned();
            if let Some((s, m)) = next {
                scratch.clear();
                s.state.lock().lock.blockers(t, m, &mut scratch);
                stack.extend(scratch.iter().map(|&b| (b, t)));
            }
        }
        None
    }

    /// Is every edge of `path` (a cycle through `txn`) still there?
    fn confirm(&self, txn: u64, slot: &Arc<RowSlot>, mode: LockMode, path: &[u64]) -> bool {
        let mut out = Vec::new();
        for (i, &a) in path.iter().enumerate() {
            let b = path.get(i + 1).copied().unwrap_or(txn);
            out.clear();
            if a == txn {
                slot.state.lock().lock.blockers(a, mode, &mut out);
            } else {
                let Some((s, m)) = self.waiting.lock().get(&a).cloned() else {
                    return false;
                };
                s.state.lock().lock.blockers(a, m, &mut out);
            }
            if !out.contains(&b) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_locks_coexist_exclusive_waits() {
        let mut l = LockState::default();
        assert!(matches!(
            l.acquire(1, LockMode::Shared),
            Acquire::Granted(true)
        ));
        assert!(matches!(
            l.acquire(2, LockMode::Shared),
            Acquire::Granted(true)
        ));
        let w = match l.acquire(3, LockMode::Exclusive) {
            Acquire::Wait(w) => w,
            _ => panic!("exclusive must wait for shared owners"),
        };
        // A later shared request queues behind the exclusive waiter (no barging).
        let w4 = match l.acquire(4, LockMode::Shared) {
            Acquire::Wait(w) => w,
            _ => panic!("must queue"),
        };
        l.release(1);
        assert!(!w.is_granted());
        l.release(2);
        assert!(w.is_granted());
        assert!(l.holds(3, LockMode::Exclusive));
        assert!(!w4.is_granted());
        l.release(3);
        assert!(w4.is_granted());
        assert!(l.holds(4, LockMode::Shared));
    }

    #[test]
    fn reacquire_and_upgrade() {
        let mut l = LockState::default();
        assert!(matches!(
            l.acquire(1, LockMode::Exclusive),
            Acquire::Granted(true)
        ));
        assert!(matches!(
            l.acquire(1, LockMode::Exclusive),
            Acquire::Granted(false)
        ));
        assert!(matches!(
            l.acquire(1, LockMode::Shared),
            Acquire::Granted(false)
        ));
        l.release(1);
        assert!(l.is_free());
        assert!(matches!(
            l.acquire(1, LockMode::Shared),
            Acquire::Granted(true)
        ));
        assert!(matches!(
            l.acquire(1, LockMode::Exclusive),
            Acquire::Granted(false)
        ));
        assert!(l.holds(1, LockMode::Exclusive));
    }

    #[test]
    fn cancel_lets_others_through() {
        let mut l = LockState::default();
        l.acquire(1, LockMode::Exclusive);
        let w2 = match l.acquire(2, LockMode::Exclusive) {
            Acquire::Wait(w) => w,
            _ => panic!(),
        };
        let w3 = match l.acquire(3, LockMode::Shared) {
            Acquire::Wait(w) => w,
            _ => panic!(),
        };
        assert!(!l.cancel(&w2));
        l.release(1);
        assert!(w3.is_granted());
        assert!(!w2.is_granted());
    }

    #[test]
    fn granted_waiter_is_not_blocked_by_those_behind_it() {
        let mut l = LockState::default();
        l.acquire(1, LockMode::Exclusive);
        let w2 = match l.acquire(2, LockMode::Exclusive) {
            Acquire::Wait(w) => w,
            _ => panic!("must wait"),
        };
        let _w3 = l.acquire(3, LockMode::Exclusive);
        l.release(1);
        assert!(w2.is_granted());
        // 2 holds the lock now; 3 waits for 2, but 2 waits for nobody here.
        let mut out = Vec::new();
        l.blockers(2, LockMode::Exclusive, &mut out);
        assert!(out.is_empty(), "{out:?}");
        l.blockers(3, LockMode::Exclusive, &mut out);
        assert_eq!(out, vec![2]);
    }

    #[test]
    fn detects_two_party_deadlock() {
        let waits = LockWaits::default();
        let a = Arc::new(RowSlot::default());
        let b = Arc::new(RowSlot::default());
        // T1 holds A, T2 holds B.
        a.state.lock().lock.acquire(1, LockMode::Exclusive);
        b.state.lock().lock.acquire(2, LockMode::Exclusive);
        // T1 waits for B.
        assert!(matches!(
            b.state.lock().lock.acquire(1, LockMode::Exclusive),
            Acquire::Wait(_)
        ));
        waits.start_waiting(1, b.clone(), LockMode::Exclusive);
        assert!(!waits.is_deadlocked(1, &b, LockMode::Exclusive));
        // T2 waits for A: cycle.
        assert!(matches!(
            a.state.lock().lock.acquire(2, LockMode::Exclusive),
            Acquire::Wait(_)
        ));
        waits.start_waiting(2, a.clone(), LockMode::Exclusive);
        assert!(waits.is_deadlocked(2, &a, LockMode::Exclusive));
    }

    #[test]
    fn shared_upgrade_deadlock_is_detected() {
        let waits = LockWaits::default();
        let a = Arc::new(RowSlot::default());
        a.state.lock().lock.acquire(1, LockMode::Shared);
        a.state.lock().lock.acquire(2, LockMode::Shared);
        assert!(matches!(
            a.state.lock().lock.acquire(1, LockMode::Exclusive),
            Acquire::Wait(_)
        ));
        waits.start_waiting(1, a.clone(), LockMode::Exclusive);
        assert!(!waits.is_deadlocked(1, &a, LockMode::Exclusive));
        assert!(matches!(
            a.state.lock().lock.acquire(2, LockMode::Exclusive),
            Acquire::Wait(_)
        ));
        waits.start_waiting(2, a.clone(), LockMode::Exclusive);
        assert!(waits.is_deadlocked(2, &a, LockMode::Exclusive));
    }
}
