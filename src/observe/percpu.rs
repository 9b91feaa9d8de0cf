//! Per-CPU slots, for what every session touches on every statement: a status counter, a
//! log's hand-over buffer. One slot per CPU, each on its own cache line, picked by the CPU
//! the thread runs on now — so sessions on different cores never write the same line (one
//! shared counter bumped by every statement moves its line between the cores each time:
//! 100–250 ns on this machine, `bench/results/2026-11-22-query-logs-append-profile.md`).

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many slots: one per CPU the system can have.
pub fn slots() -> usize {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_CONF) };
    (n.max(1) as usize).min(1024)
}

/// The slot (below `count`) for the CPU the calling thread runs on now.
pub fn this_cpu(count: usize) -> usize {
    // SAFETY: sched_getcpu has no preconditions; it returns -1 on failure.
    let cpu = unsafe { libc::sched_getcpu() }.max(0) as usize;
    // A division (tens of cycles, several calls a statement) only for a CPU past the
    // slots.
    if cpu < count { cpu } else { cpu % count.max(1) }
}

/// A counter that many threads add to and few read: one cell per CPU, summed when read.
pub struct Counter {
    cells: Box<[CachePadded<AtomicU64>]>,
}

impl Default for Counter {
    fn default() -> Counter {
        Counter {
            cells: (0..slots())
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
        }
    }
}

impl Counter {
    pub fn add(&self, n: u64) {
        self.cells[this_cpu(self.cells.len())].fetch_add(n, Ordering::Relaxed);
    }

    /// The total (each cell read once; adds made meanwhile may or may not be in it).
    pub fn get(&self) -> u64 {
        self.cells
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .fold(0, u64::wrapping_add)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_from_many_threads_all_count() {
        let c = Counter::default();
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let c = &c;
                s.spawn(move || {
                    for _ in 0..10_000 {
                        c.add(t + 1);
                    }
                });
            }
        });
        assert_eq!(c.get(), 10_000 * (1 + 2 + 3 + 4));
        assert!(this_cpu(slots()) < slots());
    }
}
