//! One log file and the thread that writes it.
//!
//! ```text
//!  session ──format entry into its own buffer (no lock)──┐
//!  session ──────────────────────────────────────────────┤  append: lock, memcpy, unlock
//!  session ──────────────────────────────────────────────┘           │
//!                                        ┌───────────── pending ◄────┘   (≤ capacity bytes)
//!  writer thread: swap pending ↔ spare ──┘ → write(2) the batch → mark it written, wake waiters
//! ```
//!
//! **The hand-over** is one byte buffer behind a mutex. A session formats its entry outside
//! any lock and only copies the finished bytes in; the critical section is a `memcpy` and a
//! few counters. The writer thread swaps the whole buffer out for an empty one and writes it
//! with one `write(2)` — so each entry is whole in the file (appends of complete entries, in
//! one order, by one thread), however many sessions log at once.
//!
//! **Bounded**: the pending buffer holds at most `capacity` bytes (an entry larger than that
//! is still taken when the buffer is empty, so nothing is too big to log). When it is full, a
//! session either waits for the writer ([`Full::Wait`], lossless: counted in `waits`) or
//! drops its entry ([`Full::Drop`]: counted in `dropped`).
//!
//! **Waking the writer**: a session wakes it only when it finds it asleep with nothing
//! pending (or the buffer half full, or someone waiting on it). Once awake, the writer lets
//! entries gather for up to [`GATHER`] before it takes the batch, so on a busy server it is
//! woken about once per `GATHER`, not once per entry.
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
//! **Shutdown**: [`Sink::shutdown`] writes what is pending, closes the file and joins the
//! thread.

use parking_lot::{Condvar, Mutex};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long the writer lets entries gather after being woken. Long enough that the writer
/// wakes rarely (each wake-up of a thread on a halted vCPU costs the sessions more than the
/// write: 500 µs measured 0.87 against 0.96 for 5 ms with every statement audited), short
/// enough that a half-full buffer is not reached at tens of MB/s. Waiters (SEMISYNCHRONOUS,
/// FLUSH) do not wait for it.
pub const GATHER: Duration = Duration::from_millis(5);
/// How often a failed file is tried again, at most.
pub const RETRY: Duration = Duration::from_secs(1);

/// What a session does when the pending buffer is full.
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

struct Pending {
    buf: Vec<u8>,
    /// Entries in `buf`.
    entries: u64,
    /// Entries ever appended; entry `n` (1-based) is in the file once `done >= n`.
    appended: u64,
    /// Entries the writer has finished with (written or lost).
    done: u64,
    /// Entries made durable (fsynced) — for writers that sync.
    synced: u64,
    /// The highest entry number someone waits to see synced.
    sync_wanted: u64,
    /// Someone waits for `done`: write without gathering.
    urgent: bool,
    /// The writer waits for work: the next entry into an empty buffer wakes it.
    writer_asleep: bool,
    /// The writer lets entries gather: a half-full buffer wakes it.
    writer_gathering: bool,
    /// Reopen requests: a number bumped per request; `reopened` follows it.
    reopen_asked: u64,
    reopened: u64,
    new_path: Option<PathBuf>,
    stop: bool,
}

/// A rewrite of each batch by the writer thread before it is written (the audit log's hash
/// chain: only the writer sees the entries in file order).
pub trait Transform: Send {
    /// Returns the bytes to write for `batch`, built in `out` or `batch` itself;
    /// `fresh_file` says the file was (re)opened since the last batch.
    fn apply<'b>(&mut self, batch: &'b [u8], fresh_file: bool, out: &'b mut Vec<u8>) -> &'b [u8];
}

/// One log file with its writer thread.
pub struct Sink {
    /// For messages: "slow query log", "general query log", "audit log".
    pub what: &'static str,
    pending: Mutex<Pending>,
    /// The writer waits here for work.
    work: Condvar,
    /// Sessions wait here for room, for their entry to be written or synced, for a reopen.
    progress: Condvar,
    capacity_bytes: AtomicU64,
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
        let sink = Arc::new(Sink {
            what,
            pending: Mutex::new(Pending {
                buf: Vec::new(),
                entries: 0,
                appended: 0,
                done: 0,
                synced: 0,
                sync_wanted: 0,
                urgent: false,
                writer_asleep: false,
                writer_gathering: false,
                reopen_asked: 0,
                reopened: 0,
                new_path: None,
                stop: false,
            }),
            work: Condvar::new(),
            progress: Condvar::new(),
            capacity_bytes: AtomicU64::new(capacity_bytes.max(4096)),
            max_size_bytes: AtomicU64::new(0),
            max_files: AtomicU64::new(0),
            stats: SinkStats::default(),
            thread: Mutex::new(None),
        });
        let s = sink.clone();
        let handle = std::thread::Builder::new()
            .name(format!("quire-{}", what.split(' ').next().unwrap_or("log")))
            .spawn(move || Writer::new(s, path, header, transform).run())?;
        *sink.thread.lock() = Some(handle);
        Ok(sink)
    }

    pub fn set_capacity(&self, bytes: u64) {
        self.capacity_bytes
            .store(bytes.max(4096), Ordering::Relaxed);
    }

    /// Hands over one finished entry. Returns its number (for [`Sink::wait_written`]) or
    /// None if it was dropped (full buffer with [`Full::Drop`], or the sink is stopped).
    /// May block the calling thread when the buffer is full and `full` is [`Full::Wait`].
    pub fn append(&self, entry: &[u8], full: Full) -> Option<u64> {
        let capacity = self.capacity_bytes.load(Ordering::Relaxed) as usize;
        let mut p = self.pending.lock();
        if !p.buf.is_empty() && p.buf.len() + entry.len() > capacity {
            if full == Full::Drop {
                self.stats.dropped.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            self.stats.waits.fetch_add(1, Ordering::Relaxed);
            p.urgent = true;
            self.work.notify_one();
            crate::session::threads::blocking(|| {
                while !p.stop && !p.buf.is_empty() && p.buf.len() + entry.len() > capacity {
                    self.progress.wait(&mut p);
                }
            });
        }
        if p.stop {
            return None;
        }
        let was_empty = p.buf.is_empty();
        p.buf.extend_from_slice(entry);
        p.entries += 1;
        p.appended += 1;
        let n = p.appended;
        if (p.writer_asleep && was_empty) || (p.writer_gathering && p.buf.len() > capacity / 2) {
            p.writer_asleep = false;
            p.writer_gathering = false;
            self.work.notify_one();
        }
        Some(n)
    }

    /// Blocks until entry `n` has been written (or lost) — SEMISYNCHRONOUS.
    pub fn wait_written(&self, n: u64) {
        let mut p = self.pending.lock();
        if p.done >= n {
            return;
        }
        p.urgent = true;
        self.work.notify_one();
        crate::session::threads::blocking(|| {
            while p.done < n && !p.stop {
                self.progress.wait(&mut p);
            }
        });
    }

    /// Blocks until every entry handed over so far has been written (or lost).
    pub fn wait_all_written(&self) {
        let n = self.pending.lock().appended;
        self.wait_written(n);
    }

    /// Blocks until entry `n` has been written and fsynced — SYNCHRONOUS. One fsync covers
    /// every entry written before it: concurrent waiters share it.
    pub fn wait_synced(&self, n: u64) {
        let mut p = self.pending.lock();
        if p.synced >= n {
            return;
        }
        p.urgent = true;
        p.sync_wanted = p.sync_wanted.max(n);
        self.work.notify_one();
        crate::session::threads::blocking(|| {
            while p.synced < n && !p.stop {
                self.progress.wait(&mut p);
            }
        });
    }

    /// Closes and reopens the file (FLUSH LOGS, SIGHUP), or switches to `new_path`, after
    /// what is pending now is written. With `wait`, returns once that is done.
    pub fn reopen(&self, new_path: Option<PathBuf>, wait: bool) {
        let mut p = self.pending.lock();
        p.reopen_asked += 1;
        if new_path.is_some() {
            p.new_path = new_path;
        }
        let asked = p.reopen_asked;
        p.urgent = true;
        self.work.notify_one();
        if wait {
            crate::session::threads::blocking(|| {
                while p.reopened < asked && !p.stop {
                    self.progress.wait(&mut p);
                }
            });
        }
    }

    /// Writes what is pending, closes the file, stops the thread.
    pub fn shutdown(&self) {
        {
            let mut p = self.pending.lock();
            p.stop = true;
            self.work.notify_one();
            self.progress.notify_all();
        }
        if let Some(h) = self.thread.lock().take() {
            let _ = h.join();
        }
    }
}

/// The writer thread's side: the open file and where it is.
struct Writer {
    sink: Arc<Sink>,
    path: PathBuf,
    header: Header,
    file: Option<File>,
    /// Bytes in the open file (for size rotation).
    size: u64,
    /// Set after a failure: when to try the file again.
    retry_at: Option<Instant>,
    transform: Option<Box<dyn Transform>>,
    /// Where the transform builds its output.
    transformed: Vec<u8>,
    /// A file was opened since the last batch was written.
    fresh: bool,
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
            retry_at: None,
            transform,
            transformed: Vec::new(),
            fresh: false,
        }
    }

    fn run(mut self) {
        let sink = self.sink.clone();
        let mut batch: Vec<u8> = Vec::new();
        loop {
            let (entries, upto, reopen, new_path, sync, stop) = {
                let mut p = sink.pending.lock();
                loop {
                    let reopen = p.reopen_asked != p.reopened;
                    if p.stop || reopen || !p.buf.is_empty() || p.sync_wanted > p.synced {
                        break;
                    }
                    p.writer_asleep = true;
                    sink.work.wait(&mut p);
                    p.writer_asleep = false;
                }
                if !p.stop && !p.urgent && p.reopen_asked == p.reopened {
                    // Let entries gather (see the module doc); an urgent request or a
                    // half-full buffer ends the wait early.
                    p.writer_gathering = true;
                    let _ = sink.work.wait_for(&mut p, GATHER);
                    p.writer_gathering = false;
                }
                std::mem::swap(&mut p.buf, &mut batch);
                let entries = std::mem::take(&mut p.entries);
                p.urgent = false;
                let reopen = (p.reopen_asked != p.reopened).then_some(p.reopen_asked);
                (
                    entries,
                    p.appended,
                    reopen,
                    p.new_path.take(),
                    p.sync_wanted > p.synced,
                    p.stop,
                )
            };
            if !batch.is_empty() {
                self.write(&batch, entries);
                batch.clear();
            }
            let synced = sync.then(|| {
                // Entries up to `upto` are written; one fsync makes them all durable (or,
                // if it fails, they are as lost as a failed write's).
                if let Some(Err(e)) = self.file.as_ref().map(|f| f.sync_data()) {
                    self.failed("sync", &e);
                }
                upto
            });
            if let Some(path) = new_path {
                self.path = path;
            }
            if reopen.is_some() {
                // Closed here; opened again (with its header) at the next batch.
                self.file = None;
                self.retry_at = None;
            }
            {
                let mut p = sink.pending.lock();
                p.done = upto;
                if let Some(s) = synced {
                    p.synced = p.synced.max(s);
                }
                if let Some(r) = reopen {
                    p.reopened = r;
                }
                sink.progress.notify_all();
            }
            if stop {
                let p = sink.pending.lock();
                if p.buf.is_empty() {
                    break;
                }
            }
            if batch.capacity() > (sink.capacity_bytes.load(Ordering::Relaxed) as usize) * 2 {
                batch = Vec::new();
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

    fn write(&mut self, batch: &[u8], entries: u64) {
        if !self.open() {
            self.sink.stats.lost.fetch_add(entries, Ordering::Relaxed);
            return;
        }
        let mut out = std::mem::take(&mut self.transformed);
        let bytes = match self.transform.as_mut() {
            Some(t) => t.apply(batch, std::mem::take(&mut self.fresh), &mut out),
            None => batch,
        };
        let stats = &self.sink.stats;
        let r = match self.file.as_mut() {
            Some(f) => f.write_all(bytes),
            None => Ok(()),
        };
        let len = bytes.len() as u64;
        out.clear();
        self.transformed = out;
        match r {
            Ok(()) => {
                stats.entries.fetch_add(entries, Ordering::Relaxed);
                stats.bytes.fetch_add(len, Ordering::Relaxed);
                self.size += len;
                let max = self.sink.max_size_bytes.load(Ordering::Relaxed);
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
                        assert!(sink.append(e.as_bytes(), Full::Wait).is_some());
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
    fn drop_policy_counts_what_it_drops() {
        let dir = tmpdir("drop");
        let path = dir.join("t.log");
        let sink =
            Sink::start("test log", path.clone(), 4096, Header::default(), None).expect("start");
        let entry = vec![b'y'; 1000];
        let mut kept = 0u64;
        for _ in 0..10_000 {
            if sink.append(&entry, Full::Drop).is_some() {
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
    fn reopen_after_rename_starts_a_new_file_and_loses_nothing() {
        let dir = tmpdir("reopen");
        let path = dir.join("t.log");
        let header: Header = Arc::new(Mutex::new(b"HEADER\n".to_vec()));
        let sink = Sink::start("test log", path.clone(), 1 << 20, header, None).expect("start");
        let mut last = 0;
        for i in 0..100 {
            last = sink
                .append(format!("a{i}\n").as_bytes(), Full::Wait)
                .expect("taken");
        }
        sink.wait_written(last);
        std::fs::rename(&path, dir.join("t.log.old")).expect("rename");
        // Entries written after the rename still go to the renamed file until the reopen.
        for i in 0..100 {
            sink.append(format!("b{i}\n").as_bytes(), Full::Wait);
        }
        sink.reopen(None, true);
        for i in 0..100 {
            sink.append(format!("c{i}\n").as_bytes(), Full::Wait);
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
            sink.append(&e, Full::Wait);
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
        let n = sink.append(b"lost\n", Full::Wait).expect("taken");
        sink.wait_written(n);
        assert_eq!(sink.stats.lost.load(Ordering::Relaxed), 1);
        assert!(sink.stats.errors.load(Ordering::Relaxed) >= 1);
        std::fs::create_dir_all(path.parent().expect("dir")).expect("mkdir");
        std::thread::sleep(RETRY + Duration::from_millis(100));
        let n = sink.append(b"kept\n", Full::Wait).expect("taken");
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
                            .append(format!("{t} {i}\n").as_bytes(), Full::Wait)
                            .expect("taken");
                        sink.wait_synced(n);
                        assert!(sink.pending.lock().synced >= n);
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
