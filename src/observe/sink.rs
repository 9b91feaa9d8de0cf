//! One log file and the thread that writes it.
//!
//! ```text
//!  session on CPU 0 ──format entry in its own buffer (no lock)──► stripe 0: lock, memcpy, unlock
//!  session on CPU 1 ──────────────────────────────────────────► stripe 1: lock, memcpy, unlock
//!                                 ┌──────────────── stripes (≤ capacity bytes in all) ◄──┘
//!  writer thread: swap every stripe for an empty one at once (one batch) → order their
//!  entries by time → writev(2) the batch → mark the batch written, wake waiters
//! ```
//!
//! **The hand-over** is one byte buffer per CPU ("stripe"), each behind its own lock on its
//! own cache line. A session formats its entry outside any lock and copies the finished
//! bytes into the stripe of the CPU it runs on; the critical section is a `memcpy` and a
//! push. Sessions on different CPUs never touch the same cache line, so a log
//! that takes every statement costs no cache-line transfers between cores (with one shared
//! buffer, the mutex's line moving between cores was most of the logs' cost: 250 ns per
//! entry, `bench/results/2026-11-22-query-logs-append-profile.md`).
//!
//! **Order in the file**: the writer takes every stripe's lock at the same time and swaps
//! them all (a batch is a consistent cut: an entry appended after another one finished is
//! never in an earlier batch). Within a batch, it merges the stripes by the time each entry
//! carries: its statement's end, as its caller read the clock for the entry's text (a
//! second clock reading per entry, under the lock, cost about as much as the rest of the
//! append). So a batch's entries are in the order their statements ended (the `# Time:`
//! order of the slow log), and one session's entries are in its order (it gives them
//! rising times, [`Sink::append`]), whichever CPU each was handed over on. Each stripe's
//! entries stay in the order appended. The writer writes a batch with `writev(2)` straight
//! from the stripes, whole entries at a time, so each entry is whole in the file however
//! many sessions log at once.
//!
//! **Batches are numbered** from 1. [`Sink::append`] returns the number of the batch its
//! entry is in; [`Sink::wait_written`] and [`Sink::wait_synced`] wait for a batch, and every
//! entry appended before is in that batch or an earlier one.
//!
//! **Bounded**: the stripes hold at most `capacity` bytes together (each a share; an entry
//! larger than its stripe's share is still taken when the stripe is empty, so nothing is too
//! big to log). When a stripe is full, a session either waits for the writer to take the
//! batch ([`Full::Wait`], lossless: counted in `waits`) or drops its entry ([`Full::Drop`]:
//! counted in `dropped`).
//!
//! **Waking the writer**: a session wakes it only when it finds it asleep (or its stripe
//! half full while the writer gathers, or it waits on it). Once awake, the writer lets
//! entries gather for a while (see [`GATHER`]) before it takes the batch, so on a busy
//! server it is woken by its own timer, about once per `GATHER_BYTES` of the log, not once
//! per entry. Both flags are atomics that change only then: appending reads them without
//! writing a shared cache line.
//!
//! **Order of operations in the writer**: a reopen or a new path requested with
//! [`Sink::reopen`] applies after the entries appended before the request are written, so
//! `FLUSH LOGS` (which waits) means "everything logged so far is in the old file".
//!
//! **Failure model**: a file that cannot be opened or written never stops a statement.
//! The batch is lost (counted in `lost`), the first failure is reported on the error log
//! (stderr) and `errors` counts them; the writer closes the file and tries to open it again
//! at the next batch, at most once per [`RETRY`]. When it succeeds, it says so on the error
//! log and logging goes on.
//!
//! **Size rotation** (`max_slowlog_size` and its siblings): once the file reaches the limit,
//! it is renamed `name.000001` (the next free number) and a new file is started; with a file
//! limit, the oldest numbered files beyond it are deleted.
//!
//! **Page cache**: every 4 MB the writer starts writing the chunk just filled to disk and
//! drops the one before from the page cache ([`Writer::let_go`]), so a log that grows for
//! hours keeps writing into pages it has just freed instead of taking fresh ones.
//!
//! **Aligned writes**: a batch that crosses a [`ALIGN_BYTES`] boundary of the file is
//! written up to the last boundary it crosses; the bytes after it (less than
//! `ALIGN_BYTES`, all from the newest batch) stay in the writer and go first into the next
//! write. So the page cache gets whole aligned 64-KB folios instead of the mix of 4- to
//! 32-KB ones that appends at random offsets get (the kernel sizes a new folio by the
//! write's length and its alignment). Anything waited for (a written or synced batch,
//! FLUSH LOGS, a reopen, shutdown) and a batch that fills the file to its rotation size are
//! written whole; held bytes are written at the latest one gather later, even if nothing
//! else comes. A batch counts as written ([`Sink::wait_written`]) only once none of its
//! bytes are held.
//!
//! **Shutdown**: [`Sink::shutdown`] writes what is pending, closes the file and joins the
//! thread; entries handed over after that are refused.

use crossbeam_utils::CachePadded;
use parking_lot::{Condvar, Mutex};
use std::fs::File;
use std::io::{IoSlice, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long the writer lets entries gather after being woken, at the least and at the most:
/// in between, as long as the last batches took to bring [`GATHER_BYTES`]. Each wake-up
/// costs the sessions more than the write (a 500-µs gather measured 0.87 against 0.96 for
/// 5 ms with every statement audited), so the writer wakes for a batch of some size rather
/// than on a fixed clock, and on its own timer: a session that woke it when its stripe
/// reached the size cost more than the wake-ups saved (point select 7–9 % slower). A
/// half-full stripe still ends a gather early. Waiters (SEMISYNCHRONOUS, FLUSH) do not wait
/// for it.
pub const GATHER: (Duration, Duration) = (Duration::from_millis(5), Duration::from_millis(50));
/// The bytes a log's batch should hold when a gather ends (see [`GATHER`]), all stripes
/// together: with the three logs on, read/write brings this in about 7 ms (slow and audit
/// logs, 9–10 MB/s) and 18 ms (general log, 3.6 MB/s), point select in under 5 ms (so there
/// the floor decides). Twice as much a batch (64 KB a stripe on two CPUs) made point select
/// slower by throughput though not by CPU per query: a batch's bytes pass through the
/// caches the sessions work in.
const GATHER_BYTES: u64 = 64 << 10;
/// How often a failed file is tried again, at most.
pub const RETRY: Duration = Duration::from_secs(1);
/// The smallest share of the capacity a stripe gets.
const MIN_STRIPE_BYTES: u64 = 4096;
/// The chunk of a log file whose page-cache pages the writer lets go of behind it (see
/// [`Writer::let_go`]).
const LET_GO_BYTES: u64 = 4 << 20;
/// The file boundaries a batch is written up to (see "Aligned writes" in the module doc):
/// one 64-KB folio. Appending 1 GB to a file on this VM's ext4 in 65,000-byte writes, with
/// the same let-go as the writers, kept the machine busy 690–730 ms; in writes cut at 64-KB
/// boundaries, 440–470 ms (in 30,000-byte writes: 860–1,050 against 430–500 ms).
const ALIGN_BYTES: u64 = 64 << 10;

/// What a session does when its stripe of the buffer is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// Wait for the writer (lossless).
    Wait,
    /// Drop the entry and count it.
    Drop,
}

/// Counters shown by `SHOW GLOBAL STATUS` (`Quire_<log>_log_*`).
#[derive(Default)]
pub struct SinkStats {
    /// Entries written to the file.
    pub entries: AtomicU64,
    pub bytes: AtomicU64,
    /// Appends that had to wait for room.
    pub waits: AtomicU64,
    /// Entries dropped because the buffer was full (drop policy).
    pub dropped: AtomicU64,
    /// Entries lost because the file could not be opened or written.
    pub lost: AtomicU64,
    /// Failed opens and writes.
    pub errors: AtomicU64,
    /// Files started by size rotation.
    pub rotations: AtomicU64,
}

/// What the file starts with each time it is opened (MySQL writes its header lines on every
/// open, FLUSH LOGS included); empty for none. Shared so that it can be set once the port is
/// known.
pub type Header = Arc<Mutex<Vec<u8>>>;

/// The entries handed over on one CPU since the last batch.
#[derive(Default)]
struct Stripe {
    buf: Vec<u8>,
    /// Per entry, in the order appended: its time (the caller's) and where it ends in `buf`.
    index: Vec<(u64, usize)>,
    /// The batch these entries will be written in.
    batch: u64,
    /// The sink is shut down: nothing more is taken.
    closed: bool,
}

/// A stripe's lock: a spin lock that yields its time slice while another thread holds it.
/// Its unlock is a plain release store, where a parking mutex's is a locked instruction
/// that first waits for every store before it — the entry just copied into lines that are
/// cold in this core's cache (the writer read them last): about 150 ns an entry, measured.
/// Held only for a copy (and by the writer for a swap); a session on the same CPU finds it
/// taken only when the holder was preempted inside, and yields to it.
type StripeLock = spin::mutex::SpinMutex<Stripe, spin::relax::Yield>;

/// A stripe and where its next entry will go.
struct StripeSlot {
    lock: StripeLock,
    /// The address just past the stripe's last entry (set under the lock, read without it):
    /// a session that will log fetches those lines for writing when its statement starts
    /// ([`Sink::prefetch_tail`]). The writer read them last (it wrote the buffer to the
    /// file before it became a stripe again), so each first store into a line waited for
    /// the writer's core to give it up, and the next locked instruction waited for those
    /// stores (about 75 ns an entry, measured on the lock the history takes next).
    tail: AtomicUsize,
}

impl StripeSlot {
    fn lock(&self) -> spin::mutex::SpinMutexGuard<'_, Stripe> {
        self.lock.lock()
    }
}

/// What the writer and the sessions that wait on it share (never touched by an append that
/// has room).
struct Ctl {
    /// Batches the writer has finished with (written or lost): batch `n` is in the file once
    /// `done >= n`.
    done: u64,
    /// Batches made durable (fsynced) — for writers that sync.
    synced: u64,
    /// The highest batch someone waits to see synced.
    sync_wanted: u64,
    /// Someone waits for the writer: take the batch without gathering.
    urgent: bool,
    /// Reopen requests: a number bumped per request; `reopened` follows it.
    reopen_asked: u64,
    reopened: u64,
    new_path: Option<PathBuf>,
    stop: bool,
}

/// A rewrite of each batch by the writer thread before it is written (the audit log's hash
/// chain: only the writer sees the entries in file order).
pub trait Transform: Send {
    /// Whether the next batch is to be rewritten. When it is not, the writer writes the
    /// entries straight from the stripes, without putting the batch together first.
    fn active(&mut self) -> bool;
    /// Returns the bytes to write for `batch`, built in `out` or `batch` itself;
    /// `fresh_file` says the file was (re)opened since the last batch.
    fn apply<'b>(&mut self, batch: &'b [u8], fresh_file: bool, out: &'b mut Vec<u8>) -> &'b [u8];
}

/// One log file with its writer thread.
pub struct Sink {
    /// For messages: "slow query log", "general query log", "audit log".
    pub what: &'static str,
    stripes: Box<[CachePadded<StripeSlot>]>,
    /// The batch being filled (every stripe's `batch`; changed only by the writer while it
    /// holds every stripe).
    batch: CachePadded<AtomicU64>,
    /// The writer waits for work: the next append wakes it.
    writer_asleep: AtomicBool,
    /// The writer lets entries gather: a half-full stripe wakes it.
    writer_gathering: AtomicBool,
    ctl: Mutex<Ctl>,
    /// The writer waits here for work.
    work: Condvar,
    /// Sessions wait here for room, for their batch to be written or synced, for a reopen.
    progress: Condvar,
    capacity_bytes: AtomicU64,
    /// Each stripe's share of `capacity_bytes` (kept with it: no division per entry).
    stripe_bytes: AtomicUsize,
    pub max_size_bytes: AtomicU64,
    pub max_files: AtomicU64,
    pub stats: SinkStats,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Sink {
    /// Starts the writer thread for `path` (opened at the first batch, so that a log that
    /// is switched on but never written creates no file).
    pub fn start(
        what: &'static str,
        path: PathBuf,
        capacity_bytes: u64,
        header: Header,
        transform: Option<Box<dyn Transform>>,
    ) -> std::io::Result<Arc<Sink>> {
        let stripes = (0..super::percpu::slots())
            .map(|_| {
                CachePadded::new(StripeSlot {
                    lock: StripeLock::new(Stripe {
                        batch: 1,
                        ..Stripe::default()
                    }),
                    tail: AtomicUsize::new(0),
                })
            })
            .collect();
        let sink = Arc::new(Sink {
            what,
            stripes,
            batch: CachePadded::new(AtomicU64::new(1)),
            writer_asleep: AtomicBool::new(false),
            writer_gathering: AtomicBool::new(false),
            ctl: Mutex::new(Ctl {
                done: 0,
                synced: 0,
                sync_wanted: 0,
                urgent: false,
                reopen_asked: 0,
                reopened: 0,
                new_path: None,
                stop: false,
            }),
            work: Condvar::new(),
            progress: Condvar::new(),
            capacity_bytes: AtomicU64::new(0),
            stripe_bytes: AtomicUsize::new(0),
            max_size_bytes: AtomicU64::new(0),
            max_files: AtomicU64::new(0),
            stats: SinkStats::default(),
            thread: Mutex::new(None),
        });
        sink.set_capacity(capacity_bytes);
        let s = sink.clone();
        let handle = std::thread::Builder::new()
            .name(format!("quire-{}", what.split(' ').next().unwrap_or("log")))
            .spawn(move || Writer::new(s, path, header, transform).run())?;
        *sink.thread.lock() = Some(handle);
        Ok(sink)
    }

    pub fn set_capacity(&self, bytes: u64) {
        let all = bytes.max(MIN_STRIPE_BYTES);
        self.capacity_bytes.store(all, Ordering::Relaxed);
        let share = (all / self.stripes.len() as u64).max(MIN_STRIPE_BYTES);
        self.stripe_bytes.store(
            usize::try_from(share).unwrap_or(usize::MAX),
            Ordering::Relaxed,
        );
    }

    /// Each stripe's share of the capacity.
    fn stripe_capacity(&self) -> usize {
        self.stripe_bytes.load(Ordering::Relaxed)
    }

    /// Hands over one finished entry, whose time is `time` (nanoseconds of a clock every
    /// caller shares: it orders the entries of a batch; one caller's next entry must have a
    /// greater time to stay after this one). Returns the number of the batch it is in (for
    /// [`Sink::wait_written`]) or None if it was dropped (full stripe with [`Full::Drop`],
    /// or the sink is stopped). May block the calling thread when the stripe is full and
    /// `full` is [`Full::Wait`].
    pub fn append(&self, entry: &[u8], time: u64, full: Full) -> Option<u64> {
        let capacity = self.stripe_capacity();
        let stripe = &self.stripes[super::percpu::this_cpu(self.stripes.len())];
        let mut s = stripe.lock();
        loop {
            if s.closed {
                return None;
            }
            if s.buf.is_empty() || s.buf.len() + entry.len() <= capacity {
                break;
            }
            if full == Full::Drop {
                self.stats.dropped.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            self.stats.waits.fetch_add(1, Ordering::Relaxed);
            let batch = s.batch;
            drop(s);
            self.wait_taken(batch);
            s = stripe.lock();
        }
        s.buf.extend_from_slice(entry);
        let end = s.buf.len();
        s.index.push((time, end));
        let batch = s.batch;
        stripe
            .tail
            .store(s.buf.as_ptr() as usize + end, Ordering::Relaxed);
        drop(s);
        // The writer sets `writer_asleep` and then looks at every stripe under its lock:
        // either it saw this entry, or this load sees the flag set.
        if self.writer_asleep.load(Ordering::SeqCst)
            && self.writer_asleep.swap(false, Ordering::SeqCst)
            || end > capacity / 2
                && self.writer_gathering.load(Ordering::Relaxed)
                && self.writer_gathering.swap(false, Ordering::Relaxed)
        {
            let _c = self.ctl.lock();
            self.work.notify_one();
        }
        Some(batch)
    }

    /// Fetches the lines the next entry of `bytes` on this CPU will be copied into, for
    /// writing (a hint: see [`StripeSlot::tail`]).
    pub fn prefetch_tail(&self, bytes: usize) {
        let stripe = &self.stripes[super::percpu::this_cpu(self.stripes.len())];
        super::prefetch_write(stripe.tail.load(Ordering::Relaxed), bytes);
    }

    /// Blocks until the writer has taken batch `batch` (its stripes have room again).
    fn wait_taken(&self, batch: u64) {
        let mut c = self.ctl.lock();
        c.urgent = true;
        self.work.notify_one();
        crate::session::threads::blocking(|| {
            while self.batch.load(Ordering::SeqCst) <= batch && !c.stop {
                self.progress.wait(&mut c);
            }
        });
    }

    /// Blocks until batch `batch` has been written (or lost) — SEMISYNCHRONOUS.
    pub fn wait_written(&self, batch: u64) {
        let mut c = self.ctl.lock();
        if c.done >= batch {
            return;
        }
        c.urgent = true;
        self.work.notify_one();
        crate::session::threads::blocking(|| {
            while c.done < batch && !c.stop {
                self.progress.wait(&mut c);
            }
        });
    }

    /// Blocks until every entry handed over so far has been written (or lost).
    pub fn wait_all_written(&self) {
        self.wait_written(self.batch.load(Ordering::SeqCst));
    }

    /// Blocks until batch `batch` has been written and fsynced — SYNCHRONOUS. One fsync
    /// covers every batch written before it: concurrent waiters share it.
    pub fn wait_synced(&self, batch: u64) {
        let mut c = self.ctl.lock();
        if c.synced >= batch {
            return;
        }
        c.urgent = true;
        c.sync_wanted = c.sync_wanted.max(batch);
        self.work.notify_one();
        crate::session::threads::blocking(|| {
            while c.synced < batch && !c.stop {
                self.progress.wait(&mut c);
            }
        });
    }

    /// Closes and reopens the file (FLUSH LOGS, SIGHUP), or switches to `new_path`, after
    /// what is pending now is written. With `wait`, returns once that is done.
    pub fn reopen(&self, new_path: Option<PathBuf>, wait: bool) {
        let mut c = self.ctl.lock();
        c.reopen_asked += 1;
        if new_path.is_some() {
            c.new_path = new_path;
        }
        let asked = c.reopen_asked;
        c.urgent = true;
        self.work.notify_one();
        if wait {
            crate::session::threads::blocking(|| {
                while c.reopened < asked && !c.stop {
                    self.progress.wait(&mut c);
                }
            });
        }
    }

    /// Writes what is pending, closes the file, stops the thread.
    pub fn shutdown(&self) {
        {
            let mut c = self.ctl.lock();
            c.stop = true;
            self.work.notify_one();
            self.progress.notify_all();
        }
        if let Some(h) = self.thread.lock().take() {
            let _ = h.join();
        }
    }

    /// Whether any stripe holds entries (the writer, before it sleeps).
    fn any_pending(&self) -> bool {
        self.stripes.iter().any(|s| !s.lock().buf.is_empty())
    }

    /// Takes every stripe's entries at once as batch `batch` (swapping in the writer's empty
    /// buffers), and starts the next batch. With `close`, the stripes take nothing more.
    fn take_batch(&self, spare: &mut [Stripe], batch: u64, close: bool) {
        let mut held: Vec<spin::mutex::SpinMutexGuard<'_, Stripe>> =
            self.stripes.iter().map(|s| s.lock()).collect();
        for ((s, out), slot) in held.iter_mut().zip(spare.iter_mut()).zip(&self.stripes) {
            std::mem::swap(&mut s.buf, &mut out.buf);
            std::mem::swap(&mut s.index, &mut out.index);
            s.batch = batch + 1;
            s.closed |= close;
            slot.tail.store(s.buf.as_ptr() as usize, Ordering::Relaxed);
        }
        self.batch.store(batch + 1, Ordering::SeqCst);
    }
}

/// The gather time for a rate of `bytes` taken over `took` (see [`GATHER`]).
fn next_gather(bytes: u64, took: Duration) -> Duration {
    if bytes == 0 {
        return GATHER.1;
    }
    let ns = (took.as_nanos() as u64).saturating_mul(GATHER_BYTES) / bytes;
    Duration::from_nanos(ns).clamp(GATHER.0, GATHER.1)
}

/// The entries of one batch in time order, as runs of consecutive entries of one stripe:
/// (stripe, start, end) in `runs`. A tie goes to the lower stripe. The entries of a stripe
/// that come before the next stripe's head make one run; runs are written from the stripes
/// as they are (`writev`), with no copy into one buffer first.
fn merge_runs(stripes: &[Stripe], runs: &mut Vec<(usize, usize, usize)>) {
    runs.clear();
    // The next entry of each stripe.
    let mut next = vec![0usize; stripes.len()];
    let head = |i: usize, next: &[usize]| stripes[i].index.get(next[i]).map(|&(t, _)| (t, i));
    loop {
        // The smallest head, and the one after it.
        let (mut best, mut second) = (None, None);
        for i in 0..stripes.len() {
            let Some(h) = head(i, &next) else { continue };
            if best.is_none_or(|b| h < b) {
                second = best;
                best = Some(h);
            } else if second.is_none_or(|s| h < s) {
                second = Some(h);
            }
        }
        let Some((_, i)) = best else { break };
        let s = &stripes[i];
        let from = next[i];
        let mut to = from + 1;
        while let Some(&(t, _)) = s.index.get(to)
            && second.is_none_or(|b| (t, i) < b)
        {
            to += 1;
        }
        let start = if from == 0 { 0 } else { s.index[from - 1].1 };
        runs.push((i, start, s.index[to - 1].1));
        next[i] = to;
    }
}

/// The bytes of `runs` (see [`merge_runs`]).
fn run_slices<'a>(
    stripes: &'a [Stripe],
    runs: &[(usize, usize, usize)],
) -> impl Iterator<Item = &'a [u8]> {
    runs.iter()
        .map(move |&(i, start, end)| stripes[i].buf.get(start..end).unwrap_or_default())
}

/// Writes all of `slices`, as few `writev` calls as the kernel takes (at most `IOV_MAX`
/// slices each).
fn write_all_vectored(f: &mut File, mut slices: &mut [IoSlice<'_>]) -> std::io::Result<()> {
    const IOV_MAX: usize = 1024;
    while !slices.is_empty() {
        match f.write_vectored(&slices[..slices.len().min(IOV_MAX)]) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut slices, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// How many of the bytes that would take a file from `size` to `end` bytes to hold back:
/// those past the last [`ALIGN_BYTES`] boundary the write crosses, none if it crosses none.
fn to_hold(size: u64, end: u64) -> u64 {
    if end / ALIGN_BYTES == size / ALIGN_BYTES {
        0
    } else {
        end % ALIGN_BYTES
    }
}

/// The writer thread's side: the open file and where it is.
struct Writer {
    sink: Arc<Sink>,
    path: PathBuf,
    header: Header,
    file: Option<File>,
    /// Bytes in the open file (for size rotation and [`Writer::let_go`]).
    size: u64,
    /// Where the next chunk to let go of starts (see [`Writer::let_go`]).
    let_go_at: u64,
    /// Set after a failure: when to try the file again.
    retry_at: Option<Instant>,
    transform: Option<Box<dyn Transform>>,
    /// Where the transform builds its output.
    transformed: Vec<u8>,
    /// A file was opened since the last batch was written.
    fresh: bool,
    /// The newest batch's bytes past the last [`ALIGN_BYTES`] boundary it crossed, to be
    /// written first next time (see "Aligned writes" in the module doc); `spare` is where
    /// the next such tail is copied while this one is written.
    held: Vec<u8>,
    spare: Vec<u8>,
}

impl Writer {
    fn new(
        sink: Arc<Sink>,
        path: PathBuf,
        header: Header,
        transform: Option<Box<dyn Transform>>,
    ) -> Writer {
        Writer {
            sink,
            path,
            header,
            file: None,
            size: 0,
            let_go_at: 0,
            retry_at: None,
            transform,
            transformed: Vec::new(),
            fresh: false,
            held: Vec::new(),
            spare: Vec::new(),
        }
    }

    fn run(mut self) {
        // Nice -5 where the server may raise a thread's priority (else the default). At
        // equal priority, 64 busy sessions on 2 CPUs left the writer about a 65th of a CPU:
        // it fell behind, wrote batches of up to 800 KB (stripes grown past the cache,
        // copies cold) and sessions waited on full stripes; its work is small but must run
        // when woken.
        crate::journal::writer::set_priority(-5);
        let sink = self.sink.clone();
        // The batch being taken, stripe by stripe, its runs in time order, and where it is
        // put together for a transform.
        let mut batch: Vec<Stripe> = (0..sink.stripes.len()).map(|_| Stripe::default()).collect();
        let mut runs = Vec::new();
        let mut merged: Vec<u8> = Vec::new();
        // The gather time: what the batches' rate says GATHER_BYTES takes.
        let mut gather = GATHER.0;
        let mut last_take = Instant::now();
        loop {
            let (number, reopen, new_path, sync, stop, whole) = {
                let mut c = sink.ctl.lock();
                loop {
                    if c.stop
                        || c.urgent
                        || c.reopen_asked != c.reopened
                        || c.sync_wanted > c.synced
                    {
                        break;
                    }
                    // Set before looking: an append either is seen here or sees the flag.
                    sink.writer_asleep.store(true, Ordering::SeqCst);
                    // Held bytes are written after the gather even if nothing else comes.
                    if !self.held.is_empty() || sink.any_pending() {
                        break;
                    }
                    sink.work.wait(&mut c);
                }
                sink.writer_asleep.store(false, Ordering::SeqCst);
                if !c.stop && !c.urgent && c.reopen_asked == c.reopened {
                    // Let entries gather (see the module doc); an urgent request or a
                    // half-full stripe ends the wait early.
                    sink.writer_gathering.store(true, Ordering::Relaxed);
                    let _ = sink.work.wait_for(&mut c, gather);
                    sink.writer_gathering.store(false, Ordering::Relaxed);
                }
                let number = sink.batch.load(Ordering::SeqCst);
                sink.take_batch(&mut batch, number, c.stop);
                // Sessions waiting for room have it now.
                sink.progress.notify_all();
                // Someone waits for a batch to be written (or for room: cheap to include).
                let waited = c.urgent;
                c.urgent = false;
                let reopen = (c.reopen_asked != c.reopened).then_some(c.reopen_asked);
                let sync = c.sync_wanted > c.synced;
                let whole = waited || reopen.is_some() || sync || c.stop;
                (number, reopen, c.new_path.take(), sync, c.stop, whole)
            };
            let entries: usize = batch.iter().map(|s| s.index.len()).sum();
            let bytes: u64 = batch.iter().map(|s| s.buf.len() as u64).sum();
            let now = Instant::now();
            gather = next_gather(bytes, now - last_take);
            last_take = now;
            if entries > 0 || !self.held.is_empty() {
                merge_runs(&batch, &mut runs);
                // Nothing new: what is held goes out now.
                let whole = whole || entries == 0;
                self.write(&batch, &runs, entries as u64, &mut merged, whole);
            }
            let capacity = sink.capacity_bytes.load(Ordering::Relaxed) as usize;
            for s in &mut batch {
                s.buf.clear();
                s.index.clear();
                if s.buf.capacity() > capacity * 2 {
                    *s = Stripe::default();
                }
            }
            if merged.capacity() > capacity * 2 {
                merged = Vec::new();
            }
            if sync {
                // Batches up to `number` are written; one fsync makes them all durable (or,
                // if it fails, they are as lost as a failed write's).
                if let Some(Err(e)) = self.file.as_ref().map(|f| f.sync_data()) {
                    self.failed("sync", &e);
                }
            }
            if let Some(path) = new_path {
                self.path = path;
            }
            if reopen.is_some() {
                // Closed here; opened again (with its header) at the next batch.
                self.file = None;
                self.retry_at = None;
            }
            {
                let mut c = sink.ctl.lock();
                // Held bytes are the newest batch's (see `write`).
                c.done = if self.held.is_empty() {
                    number
                } else {
                    number.saturating_sub(1)
                };
                if sync {
                    c.synced = c.synced.max(number);
                }
                if let Some(r) = reopen {
                    c.reopened = r;
                }
                sink.progress.notify_all();
            }
            if stop {
                // The stripes were closed with this batch: nothing more can come.
                break;
            }
        }
        if let Some(f) = self.file.take() {
            let _ = f.sync_data();
        }
    }

    /// Opens the file for appending (header first) unless it is already open or a retry is
    /// not due yet. Returns whether a file is open.
    fn open(&mut self) -> bool {
        if self.file.is_some() {
            return true;
        }
        if self.retry_at.is_some_and(|t| Instant::now() < t) {
            return false;
        }
        let opened = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .and_then(|mut f| {
                let size = f.metadata()?.len();
                let header = self.header.lock().clone();
                f.write_all(&header)?;
                Ok((f, size + header.len() as u64))
            });
        match opened {
            Ok((f, size)) => {
                if self.retry_at.take().is_some() {
                    eprintln!(
                        "quire: [Note] {}: writing to '{}' again",
                        self.sink.what,
                        self.path.display()
                    );
                }
                self.file = Some(f);
                self.size = size;
                self.let_go_at = size - size % LET_GO_BYTES;
                self.fresh = true;
                true
            }
            Err(e) => {
                self.failed("open", &e);
                false
            }
        }
    }

    fn failed(&mut self, op: &str, e: &std::io::Error) {
        self.sink.stats.errors.fetch_add(1, Ordering::Relaxed);
        // Bytes held for this file go with it (their entries were counted written).
        self.held.clear();
        if self.retry_at.is_none() {
            eprintln!(
                "quire: [ERROR] {}: cannot {op} '{}': {e}; entries are lost until it can be written again",
                self.sink.what,
                self.path.display()
            );
        }
        self.file = None;
        self.retry_at = Some(Instant::now() + RETRY);
    }

    /// Writes a batch: its `runs` (see [`merge_runs`]) from the stripes, or, with a
    /// transform, what it makes of them put together in `merged`; after the bytes held from
    /// the batch before. Unless `whole`, the bytes past the last [`ALIGN_BYTES`] boundary
    /// this write would cross are held back for the next one (see "Aligned writes" in the
    /// module doc).
    fn write(
        &mut self,
        batch: &[Stripe],
        runs: &[(usize, usize, usize)],
        entries: u64,
        merged: &mut Vec<u8>,
        whole: bool,
    ) {
        if !self.open() {
            self.sink.stats.lost.fetch_add(entries, Ordering::Relaxed);
            return;
        }
        let mut out = std::mem::take(&mut self.transformed);
        let active = entries > 0 && self.transform.as_mut().is_some_and(|t| t.active());
        let mut pieces: Vec<&[u8]> = match self.transform.as_mut() {
            Some(t) if active => {
                // The transform reads the batch as one buffer.
                merged.clear();
                run_slices(batch, runs).for_each(|r| merged.extend_from_slice(r));
                vec![t.apply(merged, std::mem::take(&mut self.fresh), &mut out)]
            }
            _ => run_slices(batch, runs).collect(),
        };
        let len: u64 = pieces.iter().map(|s| s.len() as u64).sum();
        let held = self.held.len() as u64;
        let end = self.size + held + len;
        let max = self.sink.max_size_bytes.load(Ordering::Relaxed);
        // An entry is never split between a file and the next: a batch that fills the file
        // to its rotation size is written whole.
        let keep = if whole || (max > 0 && end >= max) {
            0
        } else {
            to_hold(self.size, end)
        };
        // What is held is the newest batch's: its write crossed a boundary, so it started at
        // one (or nothing was held) and the bytes past the next are fewer than the batch's.
        debug_assert!(keep < len.max(1), "held bytes beyond the newest batch");
        // The held tail: the pieces' bytes from `len - keep` on, copied in order; the pieces
        // end where it starts.
        let mut tail = std::mem::take(&mut self.spare);
        tail.clear();
        if keep > 0 {
            // The piece the tail starts in (`i`), and where in it (`at`).
            let (mut i, mut at) = (0, (len - keep) as usize);
            while let Some(p) = pieces.get(i)
                && at >= p.len()
            {
                at -= p.len();
                i += 1;
            }
            if i < pieces.len() {
                tail.extend_from_slice(pieces[i].get(at..).unwrap_or_default());
                pieces[i + 1..]
                    .iter()
                    .for_each(|p| tail.extend_from_slice(p));
                pieces[i] = pieces[i].get(..at).unwrap_or_default();
                pieces.truncate(i + 1);
            }
        }
        let mut slices: Vec<IoSlice<'_>> = Vec::with_capacity(pieces.len() + 1);
        if held > 0 {
            slices.push(IoSlice::new(&self.held));
        }
        slices.extend(pieces.into_iter().map(IoSlice::new));
        let written = held + len - keep;
        let stats = &self.sink.stats;
        let r = match self.file.as_mut() {
            Some(f) => write_all_vectored(f, &mut slices),
            None => Ok(()),
        };
        drop(slices);
        out.clear();
        self.transformed = out;
        self.spare = std::mem::replace(&mut self.held, tail);
        match r {
            Ok(()) => {
                stats.entries.fetch_add(entries, Ordering::Relaxed);
                stats.bytes.fetch_add(len, Ordering::Relaxed);
                self.size += written;
                self.let_go();
                if max > 0 && self.size >= max {
                    self.rotate();
                }
            }
            Err(e) => {
                // Part of the batch may be in the file; what is counted lost is all of it.
                stats.lost.fetch_add(entries, Ordering::Relaxed);
                self.failed("write", &e);
            }
        }
    }

    /// Once the file has passed the end of a [`LET_GO_BYTES`] chunk: starts writing that
    /// chunk to disk and drops the chunk before it (written by now) from the page cache. A
    /// log is written once and read seldom; kept in the page cache, it would take fresh
    /// pages all the time (1.5 GB a minute at read/write with the three logs), and on a
    /// virtual machine fresh pages cost several times what pages just freed do (the host
    /// takes back pages the guest leaves free). This way each log keeps two chunks in the
    /// page cache and writes into pages it has just let go of. Hints only: a failure
    /// changes nothing.
    fn let_go(&mut self) {
        let Some(f) = self.file.as_ref() else { return };
        while self.size >= self.let_go_at + LET_GO_BYTES {
            let chunk = self.let_go_at;
            let fd = std::os::fd::AsRawFd::as_raw_fd(f);
            // SAFETY: plain system calls on an open descriptor; no memory is passed.
            unsafe {
                libc::sync_file_range(
                    fd,
                    chunk as libc::off64_t,
                    LET_GO_BYTES as libc::off64_t,
                    libc::SYNC_FILE_RANGE_WRITE,
                );
                if let Some(before) = chunk.checked_sub(LET_GO_BYTES) {
                    libc::posix_fadvise(
                        fd,
                        before as libc::off_t,
                        LET_GO_BYTES as libc::off_t,
                        libc::POSIX_FADV_DONTNEED,
                    );
                }
            }
            self.let_go_at += LET_GO_BYTES;
        }
    }

    /// Renames the full file to the next numbered name, deletes numbered files beyond
    /// `max_files`, and starts a new file.
    fn rotate(&mut self) {
        self.file = None;
        let numbered = numbered_files(&self.path);
        let next = numbered.last().map(|(n, _)| n + 1).unwrap_or(1);
        let to = numbered_name(&self.path, next);
        if let Err(e) = std::fs::rename(&self.path, &to) {
            // Renamed away already (logrotate before its SIGHUP): the next batch starts a
            // new file anyway. Otherwise say so and go on appending to the same file:
            // entries are not lost for a rotation that could not be made.
            if e.kind() != std::io::ErrorKind::NotFound {
                self.sink.stats.errors.fetch_add(1, Ordering::Relaxed);
                eprintln!(
                    "quire: [ERROR] {}: cannot rotate '{}' to '{}': {e}",
                    self.sink.what,
                    self.path.display(),
                    to.display()
                );
            }
            return;
        }
        self.sink.stats.rotations.fetch_add(1, Ordering::Relaxed);
        let keep = self.sink.max_files.load(Ordering::Relaxed);
        if keep > 0 {
            let mut all = numbered;
            all.push((next, to));
            let excess = all.len().saturating_sub(keep as usize);
            for (_, p) in all.into_iter().take(excess) {
                let _ = std::fs::remove_file(p);
            }
        }
        self.open();
    }
}

/// `name.000001`, `name.000002`, …
fn numbered_name(path: &Path, n: u64) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".{n:06}"));
    PathBuf::from(s)
}

/// The rotated files of `path`, oldest first.
fn numbered_files(path: &Path) -> Vec<(u64, PathBuf)> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{}.", name.to_string_lossy());
    let mut out: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let f = e.file_name().to_string_lossy().into_owned();
            let n = f.strip_prefix(&prefix)?;
            if n.len() != 6 || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((n.parse().ok()?, e.path()))
        })
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A time for an entry of a test: now, in nanoseconds.
    fn now() -> u64 {
        crate::observe::now_ns() as u64
    }

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("quire-sink-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn entries_from_many_threads_are_whole_and_all_there() {
        let dir = tmpdir("many");
        let path = dir.join("t.log");
        let sink =
            Sink::start("test log", path.clone(), 4096, Header::default(), None).expect("start");
        std::thread::scope(|s| {
            for t in 0..8 {
                let sink = &sink;
                s.spawn(move || {
                    for i in 0..2000 {
                        let e = format!("{t} {i} {}\n", "x".repeat(i % 300));
                        assert!(sink.append(e.as_bytes(), now(), Full::Wait).is_some());
                    }
                });
            }
        });
        sink.shutdown();
        let text = std::fs::read_to_string(&path).expect("read");
        let mut seen = std::collections::HashSet::new();
        for line in text.lines() {
            let mut w = line.split(' ');
            let (t, i, x) = (w.next(), w.next(), w.next().unwrap_or(""));
            let i: usize = i.and_then(|i| i.parse().ok()).expect("entry number");
            assert_eq!(x.len(), i % 300, "entry {line:?} is whole");
            assert!(seen.insert((t.map(str::to_string), i)), "{line:?} once");
        }
        assert_eq!(seen.len(), 16_000);
        assert_eq!(sink.stats.entries.load(Ordering::Relaxed), 16_000);
        assert!(
            sink.stats.waits.load(Ordering::Relaxed) > 0,
            "a 4 KiB buffer filled"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_larger_than_several_let_go_chunks_holds_every_entry() {
        // The file already holds a little over one chunk (its chunks are counted from the
        // start of the file), then more than three chunks are appended: the pages let go
        // of behind the writer were written first, so the file reads back whole.
        let dir = tmpdir("letgo");
        let path = dir.join("t.log");
        let before: Vec<u8> = (0..LET_GO_BYTES + 123)
            .map(|i| b'a' + (i % 26) as u8)
            .collect();
        std::fs::write(&path, &before).expect("write");
        let sink =
            Sink::start("test log", path.clone(), 1 << 20, Header::default(), None).expect("start");
        let mut expected = before;
        append_kb(&sink, 0, (3 * LET_GO_BYTES / 1000) + 10, &mut expected);
        sink.shutdown();
        let got = std::fs::read(&path).expect("read");
        assert_eq!(got.len(), expected.len());
        assert!(got == expected, "the file differs from what was appended");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_write_that_crosses_a_boundary_holds_what_is_past_the_last_one() {
        const A: u64 = ALIGN_BYTES;
        // Within one aligned block: nothing held.
        assert_eq!(to_hold(10, A - 1), 0);
        assert_eq!(to_hold(A, 2 * A - 1), 0);
        // Ends on a boundary: nothing past it.
        assert_eq!(to_hold(10, A), 0);
        assert_eq!(to_hold(A, 3 * A), 0);
        // Crosses one or more: what is past the last.
        assert_eq!(to_hold(10, A + 5), 5);
        assert_eq!(to_hold(A, 3 * A + 700), 700);
        assert_eq!(to_hold(A - 1, A + A - 1), A - 1);
    }

    /// Appends `n` entries of 1,000 bytes numbered from `from`, and adds them to `expected`;
    /// returns the last one's batch.
    fn append_kb(sink: &Sink, from: u64, n: u64, expected: &mut Vec<u8>) -> u64 {
        let mut batch = 0;
        for i in from..from + n {
            let mut entry = format!("{i:>10} ").into_bytes();
            entry.resize(999, b'y');
            entry.push(b'\n');
            batch = sink.append(&entry, i + 1, Full::Wait).expect("taken");
            expected.extend_from_slice(&entry);
        }
        batch
    }

    /// A sink on `t.log` in a new scratch directory `name`: (directory, file, sink).
    fn scratch_sink(name: &str) -> (PathBuf, PathBuf, Arc<Sink>) {
        let dir = tmpdir(name);
        let path = dir.join("t.log");
        let sink =
            Sink::start("test log", path.clone(), 1 << 20, Header::default(), None).expect("start");
        (dir, path, sink)
    }

    #[test]
    fn a_batch_waited_for_is_in_the_file_whole_though_part_of_it_was_held() {
        let (dir, path, sink) = scratch_sink("held-wait");
        let mut expected = Vec::new();
        // Rounds of 150 KB and then 70 KB handed over without waiting, so that the writer
        // takes them on its own timer and holds what lies past a 64-KB boundary; then a
        // wait for the round's last batch: it returns only once every byte of it is in the
        // file (the writer says a batch is done only when none of its bytes are held).
        let mut from = 0;
        for (round, n) in [150, 70, 70, 70, 70, 70, 70, 70, 70, 70]
            .into_iter()
            .enumerate()
        {
            let last = append_kb(&sink, from, n, &mut expected);
            from += n;
            std::thread::sleep(GATHER.0 * 3);
            sink.wait_written(last);
            let got = std::fs::read(&path).expect("read");
            assert_eq!(got.len(), expected.len(), "round {round}");
        }
        sink.shutdown();
        assert_eq!(std::fs::read(&path).expect("read"), expected);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn held_bytes_reach_the_file_when_nothing_more_comes() {
        let (dir, path, sink) = scratch_sink("held-idle");
        let mut expected = Vec::new();
        append_kb(&sink, 0, 100, &mut expected);
        // Nobody waits and nothing else is appended: the writer still writes what it held,
        // one gather after the batch (a few times GATHER.1 at most here).
        let deadline = Instant::now() + GATHER.1 * 40;
        while std::fs::metadata(&path).map_or(0, |m| m.len()) < expected.len() as u64
            && Instant::now() < deadline
        {
            std::thread::sleep(GATHER.0);
        }
        assert_eq!(std::fs::read(&path).expect("read"), expected);
        sink.shutdown();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn entries_are_in_the_file_in_the_order_they_were_handed_over() {
        // Each append is made under a lock that passes a number from thread to thread, so
        // entry n+1 is handed over after entry n returned — from another thread, on
        // whichever CPU — with a later time: the file must hold 1, 2, 3, … in order.
        let dir = tmpdir("order");
        let path = dir.join("t.log");
        let sink =
            Sink::start("test log", path.clone(), 1 << 16, Header::default(), None).expect("start");
        let next = Mutex::new(0u64);
        std::thread::scope(|s| {
            for _ in 0..4 {
                let (sink, next) = (&sink, &next);
                s.spawn(move || {
                    for _ in 0..5000 {
                        let mut n = next.lock();
                        *n += 1;
                        assert!(
                            sink.append(format!("{n}\n").as_bytes(), *n, Full::Wait)
                                .is_some()
                        );
                    }
                });
            }
        });
        sink.shutdown();
        let text = std::fs::read_to_string(&path).expect("read");
        let got: Vec<u64> = text.lines().map(|l| l.parse().expect("number")).collect();
        assert_eq!(got, (1..=20_000).collect::<Vec<u64>>());
        assert!(
            sink.append(b"late\n", now(), Full::Wait).is_none(),
            "refused after shutdown"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The batch's bytes in file order.
    fn merge(stripes: &[Stripe]) -> Vec<u8> {
        let mut runs = Vec::new();
        merge_runs(stripes, &mut runs);
        run_slices(stripes, &runs).flatten().copied().collect()
    }

    #[test]
    fn merge_orders_stripes_by_time() {
        let stripe = |entries: &[(u64, &str)]| {
            let mut s = Stripe::default();
            for (t, e) in entries {
                s.buf.extend_from_slice(e.as_bytes());
                s.index.push((*t, s.buf.len()));
            }
            s
        };
        let stripes = [
            stripe(&[(1, "a"), (5, "bb"), (9, "c")]),
            stripe(&[]),
            stripe(&[(2, "dd"), (5, "e"), (10, "f")]),
        ];
        assert_eq!(merge(&stripes), b"addbbecf");
        // Runs of one stripe between the other's entries, and ties to the lower stripe.
        let runs = [
            stripe(&[(1, "a"), (2, "b"), (3, "c"), (7, "g"), (8, "i")]),
            stripe(&[(4, "d"), (5, "e"), (7, "h"), (9, "j"), (9, "k")]),
            stripe(&[(7, "!")]),
        ];
        assert_eq!(merge(&runs), b"abcdegh!ijk");
        let one = [stripe(&[]), stripe(&[(3, "xy"), (4, "z")])];
        assert_eq!(merge(&one), b"xyz");
        assert_eq!(merge(&[stripe(&[])]), b"");
    }

    #[test]
    fn drop_policy_counts_what_it_drops() {
        let dir = tmpdir("drop");
        let path = dir.join("t.log");
        let sink =
            Sink::start("test log", path.clone(), 4096, Header::default(), None).expect("start");
        let entry = vec![b'y'; 1000];
        let mut kept = 0u64;
        for _ in 0..10_000 {
            if sink.append(&entry, now(), Full::Drop).is_some() {
                kept += 1;
            }
        }
        sink.shutdown();
        let dropped = sink.stats.dropped.load(Ordering::Relaxed);
        assert_eq!(kept + dropped, 10_000);
        assert_eq!(std::fs::metadata(&path).expect("file").len(), kept * 1000);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_gather_is_the_time_the_log_takes_to_bring_its_batch() {
        let ms = Duration::from_millis;
        // The log brought its batch's bytes in 18 ms: gather 18 ms again.
        assert_eq!(next_gather(GATHER_BYTES, ms(18)), ms(18));
        // Four times the rate: a quarter of the time, but not under the floor.
        assert_eq!(next_gather(4 * GATHER_BYTES, ms(40)), ms(10));
        assert_eq!(next_gather(4 * GATHER_BYTES, ms(8)), GATHER.0);
        // A trickle, or nothing (an idle writer woken by one entry): the ceiling.
        assert_eq!(next_gather(300, Duration::from_secs(10)), GATHER.1);
        assert_eq!(next_gather(0, ms(1)), GATHER.1);
    }

    #[test]
    fn reopen_after_rename_starts_a_new_file_and_loses_nothing() {
        let dir = tmpdir("reopen");
        let path = dir.join("t.log");
        let header: Header = Arc::new(Mutex::new(b"HEADER\n".to_vec()));
        let sink = Sink::start("test log", path.clone(), 1 << 20, header, None).expect("start");
        let mut last = 0;
        for i in 0..100 {
            last = sink
                .append(format!("a{i}\n").as_bytes(), now(), Full::Wait)
                .expect("taken");
        }
        sink.wait_written(last);
        std::fs::rename(&path, dir.join("t.log.old")).expect("rename");
        // Entries written after the rename still go to the renamed file until the reopen.
        for i in 0..100 {
            sink.append(format!("b{i}\n").as_bytes(), now(), Full::Wait);
        }
        sink.reopen(None, true);
        for i in 0..100 {
            sink.append(format!("c{i}\n").as_bytes(), now(), Full::Wait);
        }
        sink.shutdown();
        let old = std::fs::read_to_string(dir.join("t.log.old")).expect("old");
        let new = std::fs::read_to_string(&path).expect("new");
        assert_eq!(old.lines().filter(|l| l.starts_with('a')).count(), 100);
        assert_eq!(old.lines().filter(|l| l.starts_with('b')).count(), 100);
        assert_eq!(old.matches("HEADER").count(), 1, "{old}");
        assert_eq!(new.lines().filter(|l| l.starts_with('c')).count(), 100);
        assert!(new.starts_with("HEADER\n"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn size_rotation_keeps_max_files() {
        let dir = tmpdir("rotate");
        let path = dir.join("t.log");
        let sink =
            Sink::start("test log", path.clone(), 4096, Header::default(), None).expect("start");
        sink.max_size_bytes.store(10_000, Ordering::Relaxed);
        sink.max_files.store(3, Ordering::Relaxed);
        let entry = [b'z'; 99];
        for _ in 0..2000 {
            let mut e = entry.to_vec();
            e.push(b'\n');
            sink.append(&e, now(), Full::Wait);
        }
        sink.shutdown();
        let numbered = numbered_files(&path);
        assert_eq!(numbered.len(), 3, "{numbered:?}");
        assert!(sink.stats.rotations.load(Ordering::Relaxed) >= 10);
        for (_, p) in &numbered {
            assert!(std::fs::metadata(p).expect("rotated").len() >= 10_000);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn unwritable_file_loses_entries_and_recovers() {
        let dir = tmpdir("unwritable");
        let path = dir.join("sub").join("t.log");
        let sink =
            Sink::start("test log", path.clone(), 1 << 20, Header::default(), None).expect("start");
        let n = sink.append(b"lost\n", now(), Full::Wait).expect("taken");
        sink.wait_written(n);
        assert_eq!(sink.stats.lost.load(Ordering::Relaxed), 1);
        assert!(sink.stats.errors.load(Ordering::Relaxed) >= 1);
        std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
        std::thread::sleep(RETRY + Duration::from_millis(100));
        let n = sink.append(b"kept\n", now(), Full::Wait).expect("taken");
        sink.wait_written(n);
        sink.shutdown();
        assert_eq!(std::fs::read_to_string(&path).expect("file"), "kept\n");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn synchronous_waiters_share_fsyncs() {
        let dir = tmpdir("sync");
        let path = dir.join("t.log");
        let sink =
            Sink::start("test log", path.clone(), 1 << 20, Header::default(), None).expect("start");
        std::thread::scope(|s| {
            for t in 0..4 {
                let sink = &sink;
                s.spawn(move || {
                    for i in 0..50 {
                        let n = sink
                            .append(format!("{t} {i}\n").as_bytes(), now(), Full::Wait)
                            .expect("taken");
                        sink.wait_synced(n);
                        assert!(sink.ctl.lock().synced >= n);
                    }
                });
            }
        });
        sink.shutdown();
        assert_eq!(
            std::fs::read_to_string(&path)
                .expect("file")
                .lines()
                .count(),
            200
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
