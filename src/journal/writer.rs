//! The journal writer: appends finished transactions to the current binlog file, in groups,
//! and makes each group as durable as the settings ask before it publishes it.
//!
//! ## Commit protocol
//!
//! ```text
//! session:  encode events into its own buffer (unplaced)        — no shared state
//!           submit(buffer, txn, ack)  → queue (one short mutex) → await the reply
//! writer:   take everything queued (a group; optionally wait binlog_group_commit_sync_delay)
//!           place each buffer at its file offset (log_pos, CRC), rotating at max_binlog_size
//!           publish the leading entries that need no write (mode 0), reply to them
//!           one write() for the group; one fsync if any entry needs it (or sync_binlog=N)
//!           publish the rest in log order (one lock for the group), reply to all
//! session:  on Ok, finalize (release locks); on Err, roll back
//! ```
//!
//! A commit that ends its command skips the reply: the writer finalizes the transaction
//! and sends the session's OK packet itself (see [`super::ack`]), sparing the session a
//! wake-up per transaction.
//!
//! ## Who writes
//!
//! One at a time holds the *role* (the active file and the group buffer) and writes
//! everything queued, in queue order: usually the writer thread, which takes the role when
//! woken for work. A session whose autocommit statement's commit waits for an fsync and
//! finds the writer thread waiting for work (so nobody is writing) takes the role itself
//! instead of waking it (not for an explicit transaction's COMMIT: see
//! [`crate::session::commit::may_lead`]) — unless the server is busy (commits were queued
//! during the last group's fsync: the writer thread paces those groups) — and writes the
//! queue up to the next control item (rotation, checkpoint …, left to the writer thread) on
//! its own thread: under a light load a commit costs no thread hand-off, only the fsync.
//! Sessions that find the role taken queue their commit and wake the writer thread, which
//! takes the role next. Work is taken from the queue only by the role's holder, so the log
//! keeps the order of submission. Sessions on the shared pool (`pool-of-threads`) never
//! take the role: their worker must not block.
//!
//! Publication (assigning commit timestamps, which makes rows visible) happens only here and
//! only in log order, so the set of visible transactions is always a prefix of the log.
//!
//! ## What each setting waits for
//!
//! | innodb_flush_log_at_trx_commit | sync_binlog (log_bin=ON) | a commit waits for |
//! |---|---|---|
//! | 1 | any | its group fsynced |
//! | any | 1 | its group fsynced |
//! | 2 | 0 or N > 1 | its group written to the OS; fsync once a second (and every N groups) |
//! | 0 | 0 or N > 1 | nothing but its turn in the log; write and fsync once a second |
//!
//! With `log_bin=OFF` (the journal is private) `sync_binlog` is ignored.
//!
//! ## Flush methods (`innodb_flush_method`, read-only)
//!
//! | method | a sync is |
//! |---|---|
//! | `fsync` (default) | `fdatasync()` while `innodb_use_fdatasync=ON` (the default, as in MySQL 8.4), else `fsync()` |
//! | `fdatasync` | `fdatasync()` |
//! | `O_DSYNC` | nothing more: the file is opened with `O_DSYNC`, so each write returns once durable |
//! | `O_DIRECT` | as `fsync`; groups are written in whole aligned blocks past the page cache (see [`super::direct`]) |
//!
//! `fdatasync()` is enough for the journal: it flushes the data and the metadata needed to
//! read it back (size, block allocation; with the file preallocated, the size changes once
//! per 256 KB, per 4 MB with O_DIRECT); `fsync()` also writes the modification time at
//! every commit, an extra I/O per group (MySQL itself syncs its binary log with
//! `fdatasync()`). On an ext4 without a journal even `fdatasync()` writes the inode's block
//! whenever the modification time moved to a new clock tick; no write path avoids that.
//!
//! ## Failures
//!
//! A failed write or fsync puts the journal in the *failed* state: the group's transactions
//! and every later commit get error 1598 and are rolled back; nothing is published. Reads go
//! on. The file is cut back to the end of the last good group when possible, so that a
//! restart does not find a half-written group (recovery would cut it anyway).
//!
//! ## Files
//!
//! `<basename>.NNNNNN` plus `<basename>.index` (one `./<name>` line per file). A new file is
//! created and fsynced before the index names it, and the index is replaced atomically (write
//! a temporary file, fsync, rename, fsync the directory); a file that the index does not name
//! therefore never holds a transaction (see [`super::recover`]).

use super::ack::DirectAck;
use super::cache::{Finished, Spill};
use super::direct::Direct;
use super::events::{EventBuf, FILLER_MIN, Filler, MAGIC};
use crate::error::{MyError, code};
use crate::storage::Storage;
use crate::storage::txn::TxnShared;
use parking_lot::{Condvar, Mutex};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// What a commit waits for before it is acknowledged (and made visible).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ack {
    /// Its place in the log (mode 0).
    Publish,
    /// Its group written to the OS.
    Write,
    /// Its group fsynced.
    Sync,
}

/// How the journal file is made durable (`innodb_flush_method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlushMethod {
    Fsync,
    Fdatasync,
    /// Opened with O_DSYNC: every write is durable when it returns; no separate sync.
    ODsync,
    /// Groups written with O_DIRECT (aligned blocks), then synced as with `Fsync`.
    ODirect,
}

impl FlushMethod {
    pub fn from_name(s: &str) -> Option<FlushMethod> {
        match s.to_ascii_lowercase().as_str() {
            "fsync" | "" => Some(FlushMethod::Fsync),
            "fdatasync" => Some(FlushMethod::Fdatasync),
            "o_dsync" => Some(FlushMethod::ODsync),
            "o_direct" => Some(FlushMethod::ODirect),
            _ => None,
        }
    }
}

/// A position in the journal: file number and offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct LogPos {
    pub file: u32,
    pub offset: u64,
}

/// Settings the writer reads for every group (kept current by SET GLOBAL).
#[derive(Default)]
pub struct Settings {
    pub flush_at_commit: AtomicU32,
    pub sync_binlog: AtomicU64,
    pub max_size: AtomicU64,
    pub sync_delay_us: AtomicU64,
    pub no_delay_count: AtomicU64,
    pub checksum: AtomicBool,
    /// `innodb_flush_log_at_timeout`: seconds between background fsyncs.
    pub flush_timeout_s: AtomicU64,
    /// `innodb_use_fdatasync`.
    pub use_fdatasync: AtomicBool,
    /// `binlog_cache_size`, `max_binlog_cache_size` (see [`super::cache`]).
    pub cache_size: AtomicU64,
    pub max_cache_size: AtomicU64,
}

/// Counters for SHOW STATUS.
#[derive(Default)]
pub struct Stats {
    pub commits: AtomicU64,
    pub groups: AtomicU64,
    pub fsyncs: AtomicU64,
    pub bytes_written: AtomicU64,
    /// Transactions encoded in a binlog cache (bumped by sessions: per CPU) / those that
    /// spilled to a file.
    pub cache_use: crate::observe::percpu::Counter,
    pub cache_disk_use: AtomicU64,
}

type Reply = oneshot::Sender<Result<(), MyError>>;

/// Administrative requests served by the writer between groups.
pub enum Control {
    /// FLUSH BINARY LOGS: close the current file, open the next.
    Rotate,
    /// Make everything written so far durable.
    Sync,
    /// A checkpoint's cut: make everything written so far durable and set `slot` to the
    /// snapshot that sees exactly the transactions before this point of the log.
    Checkpoint(Arc<crate::storage::txn::SnapshotSlot>),
    /// RESET MASTER: as `Checkpoint`, then hold every later commit until told whether to
    /// start the log afresh ([`ResetTo`]) or to go on as before (`None`, or the sender
    /// dropped). See [`super::checkpoint`].
    Reset(
        Arc<crate::storage::txn::SnapshotSlot>,
        std::sync::mpsc::Receiver<Option<ResetTo>>,
    ),
}

/// What RESET MASTER's checkpoint, once durable, asks of the writer: delete every file of
/// the log, start it again at `first`, remove the `marker` file, reply on `done`.
pub struct ResetTo {
    pub first: u32,
    pub marker: PathBuf,
    pub done: oneshot::Sender<Result<(), String>>,
}

/// A commit (or DDL statement) waiting for the writer.
struct Commit {
    /// Its events, or a large transaction's file to adopt (see [`super::cache`]).
    what: Finished,
    /// The transaction to publish once durable (None: DDL).
    txn: Option<Arc<TxnShared>>,
    ack: Ack,
    /// Taken when the session is answered.
    reply: Option<Reply>,
    /// A commit acknowledged by the writer itself (see [`super::ack`]); `txn` is None.
    direct: Option<Box<DirectAck>>,
}

impl Commit {
    /// Answer the session with `err` (the commit did not happen).
    fn fail(&mut self, err: &MyError) {
        if let Some(r) = self.reply.take() {
            let _ = r.send(Err(err.clone()));
        }
        if let Some(d) = self.direct.take() {
            d.failed(err.clone());
        }
    }
}

enum Work {
    Commit(Commit),
    Control(Control, oneshot::Sender<Result<LogPos, MyError>>),
}

#[derive(Default)]
struct Queue {
    items: Vec<Work>,
    shutdown: bool,
    /// What the writer waits for, so that a submit wakes it only then: a wake-up per
    /// queued commit while it gathers a group would cost each commit a context switch.
    listening: Listen,
}

impl Queue {
    /// Add `w`; whether the writer must be woken for it.
    fn push(&mut self, w: Work) -> bool {
        self.items.push(w);
        match self.listening {
            Listen::Any => true,
            Listen::Count(n) => self.items.len() >= n,
            Listen::Timer => false,
        }
    }
}

#[derive(Default, Clone, Copy)]
enum Listen {
    /// Busy, or gathering until a deadline: new work waits for it.
    #[default]
    Timer,
    /// Waiting for work.
    Any,
    /// Gathering until a deadline or until this many items are queued.
    Count(usize),
}

/// What the one who writes a group holds (see "Who writes" in the module doc): the file
/// being appended to and the buffer a group is assembled in.
struct Role {
    active: Active,
    out: Vec<u8>,
}

/// The file being appended to.
struct Active {
    seq: u32,
    file: File,
    pos: u64,
    checksum: bool,
    /// Bytes written since the last fsync.
    unsynced: bool,
    groups_since_sync: u64,
    last_sync: Instant,
    /// The file's length on disk: `pos..end` is the filler (see [`Journal::flush_out`]);
    /// `pos` while the file has none yet.
    end: u64,
    /// The last group's fsync: when it ended, how long it took, whether commits were
    /// queued when it ended (see [`Journal::pace`]).
    last_group_sync: Option<(Instant, Duration, bool)>,
    /// `innodb_flush_method=O_DIRECT`: the descriptor groups are written through.
    direct: Option<Direct>,
}

impl Active {
    /// File `seq`, `len` bytes of log long (no filler yet), just synced.
    fn new(seq: u32, file: File, len: u64, checksum: bool) -> Active {
        Active {
            seq,
            file,
            pos: len,
            checksum,
            unsynced: false,
            groups_since_sync: 0,
            last_sync: Instant::now(),
            end: len,
            last_group_sync: None,
            direct: None,
        }
    }
}

pub struct Journal {
    pub dir: PathBuf,
    pub basename: String,
    /// `log_bin=ON`: the files are the binary log users see.
    pub exposed: bool,
    pub server_id: u32,
    pub server_version: String,
    pub flush_method: FlushMethod,
    pub settings: Settings,
    pub stats: Stats,
    storage: Arc<Storage>,
    queue: Mutex<Queue>,
    wake: Condvar,
    /// Held while writing; `None` until the first file is created.
    role: Mutex<Option<Role>>,
    failed: Mutex<Option<String>>,
    is_failed: AtomicBool,
    /// File numbers named by the index, oldest first (the last is the active file).
    index: Mutex<Vec<u32>>,
    /// The end of the last group written (SHOW MASTER STATUS).
    written: Mutex<LogPos>,
    /// The first file recovery needs (set by checkpoints; 0: all of them).
    needed: AtomicU32,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    filler: Filler,
}

pub fn unix_now() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as u32)
        .unwrap_or(0)
}

/// fsync a directory (after creating, renaming or removing files in it).
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Replace `dir/name` with `bytes`, atomically and durably: written to `dir/tmp`, fsynced,
/// renamed over `name`, then the directory fsynced (a crash leaves the old file or the new).
pub fn replace_file(dir: &Path, tmp: &str, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = dir.join(tmp);
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, dir.join(name))?;
    sync_dir(dir)
}

/// Delete `path`; one already gone is not an error.
pub fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// `<what> '<path>' (OS errno N - text)`, as MySQL words a failed file operation.
pub fn io_error(what: &str, path: &Path, e: &std::io::Error) -> String {
    let text = e.to_string();
    // std appends " (os error N)" to the OS's text.
    let text = text.split(" (os error").next().unwrap_or_default();
    format!(
        "{what} '{}' (OS errno {} - {text})",
        path.display(),
        e.raw_os_error().unwrap_or(0)
    )
}

/// Paces the write-back of a file written in bulk (a checkpoint, a spilled transaction), so
/// that the disk never has more than two [`WRITEBACK_STEP`]s of it queued ahead of a
/// commit's fsync: after each step is written, its write-back is started, and the previous
/// step's is waited for. The file's final fsync then has little left to do, and the
/// journal's fsyncs wait for at most two steps, not for the whole file.
#[derive(Default)]
pub struct Writeback {
    /// Write-back started up to here.
    started: u64,
    /// Written back up to here.
    done: u64,
}

/// See [`Writeback`]: 1 MB is about 4 ms of this machine's disk.
pub const WRITEBACK_STEP: u64 = 1 << 20;

impl Writeback {
    /// Is a step of the file, written up to `len`, waiting for its write-back?
    pub fn due(&self, len: u64) -> bool {
        len >= self.started + WRITEBACK_STEP
    }

    /// The file has been written up to `len`: pace it if a step is due.
    pub fn written(&mut self, file: &File, len: u64) {
        if !self.due(len) {
            return;
        }
        let fd = std::os::fd::AsRawFd::as_raw_fd(file);
        // SAFETY: sync_file_range on a descriptor the caller owns; no memory is passed.
        unsafe {
            if self.started > self.done {
                libc::sync_file_range(
                    fd,
                    self.done as libc::off64_t,
                    (self.started - self.done) as libc::off64_t,
                    libc::SYNC_FILE_RANGE_WAIT_BEFORE
                        | libc::SYNC_FILE_RANGE_WRITE
                        | libc::SYNC_FILE_RANGE_WAIT_AFTER,
                );
            }
            libc::sync_file_range(
                fd,
                self.started as libc::off64_t,
                (len - self.started) as libc::off64_t,
                libc::SYNC_FILE_RANGE_WRITE,
            );
        }
        self.done = self.started;
        self.started = len;
    }
}

/// Lower the calling thread's priority (nice 10), for bulk work that must leave the CPU to
/// sessions (checkpoints, encoding large transactions). A thread cannot raise it back.
pub fn lower_priority() {
    set_priority(10);
}

/// Sets the calling thread's nice value. A refusal (raising it without CAP_SYS_NICE or an
/// RLIMIT_NICE that allows it: EPERM, EACCES) leaves the priority as it was.
pub fn set_priority(nice: i32) {
    // SAFETY: setpriority on the calling thread (who = 0); no memory is passed.
    unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, nice) };
}

/// The name of journal file `seq`: `<basename>.NNNNNN`.
pub fn file_name(basename: &str, seq: u32) -> String {
    format!("{basename}.{seq:06}")
}

/// Replace `<basename>.index` with one naming `index` (`./<name>` per line), atomically: a
/// temporary file, fsync, rename, fsync of the directory.
pub fn write_index(dir: &Path, basename: &str, index: &[u32]) -> std::io::Result<()> {
    let mut text = String::new();
    for seq in index {
        text.push_str("./");
        text.push_str(&file_name(basename, *seq));
        text.push('\n');
    }
    replace_file(
        dir,
        &format!("{basename}.index_crash_safe"),
        &format!("{basename}.index"),
        text.as_bytes(),
    )
}

/// How a new journal starts: its files so far and the number of the file to create.
pub struct StartAt {
    pub index: Vec<u32>,
    pub next_seq: u32,
}

impl Journal {
    pub fn file_name(&self, seq: u32) -> String {
        file_name(&self.basename, seq)
    }

    pub fn path_of(&self, seq: u32) -> PathBuf {
        self.dir.join(self.file_name(seq))
    }

    pub fn index_path(&self) -> PathBuf {
        self.dir.join(format!("{}.index", self.basename))
    }

    /// Create the journal and start its writer with a new file `start.next_seq`.
    #[allow(clippy::too_many_arguments)]
    pub fn start(
        dir: PathBuf,
        basename: String,
        exposed: bool,
        server_id: u32,
        server_version: String,
        flush_method: FlushMethod,
        storage: Arc<Storage>,
        start: StartAt,
        globals: &crate::config::GlobalVars,
    ) -> Result<Arc<Journal>, String> {
        let j = Arc::new(Journal {
            dir,
            basename,
            exposed,
            server_id,
            server_version,
            flush_method,
            settings: Settings::default(),
            stats: Stats::default(),
            storage,
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            role: Mutex::new(None),
            failed: Mutex::new(None),
            is_failed: AtomicBool::new(false),
            index: Mutex::new(start.index),
            written: Mutex::new(LogPos::default()),
            needed: AtomicU32::new(0),
            thread: Mutex::new(None),
            filler: Filler::new(),
        });
        j.configure(globals);
        let active = j.create_file(start.next_seq)?;
        *j.written.lock() = LogPos {
            file: active.seq,
            offset: active.pos,
        };
        *j.role.lock() = Some(Role {
            active,
            out: Vec::with_capacity(1 << 20),
        });
        let me = j.clone();
        let handle = std::thread::Builder::new()
            .name("quire-journal".into())
            .spawn(move || me.run())
            .map_err(|e| format!("cannot start the journal writer: {e}"))?;
        *j.thread.lock() = Some(handle);
        Ok(j)
    }

    /// Read the settings the writer follows from the global variables (at start and after
    /// every SET GLOBAL).
    pub fn configure(&self, g: &crate::config::GlobalVars) {
        use crate::config::vars;
        let s = &self.settings;
        let r = Ordering::Relaxed;
        s.flush_at_commit
            .store(g.get_u64(vars::INNODB_FLUSH_LOG_AT_TRX_COMMIT) as u32, r);
        s.sync_binlog.store(g.get_u64(vars::SYNC_BINLOG), r);
        s.max_size.store(g.get_u64(vars::MAX_BINLOG_SIZE), r);
        s.sync_delay_us
            .store(g.get_u64(vars::BINLOG_GROUP_COMMIT_SYNC_DELAY), r);
        s.no_delay_count
            .store(g.get_u64(vars::BINLOG_GROUP_COMMIT_SYNC_NO_DELAY_COUNT), r);
        s.checksum.store(
            g.get_string(vars::BINLOG_CHECKSUM)
                .eq_ignore_ascii_case("CRC32"),
            r,
        );
        s.flush_timeout_s
            .store(g.get_u64(vars::INNODB_FLUSH_LOG_AT_TIMEOUT), r);
        s.use_fdatasync
            .store(g.get_bool(vars::INNODB_USE_FDATASYNC), r);
        s.cache_size.store(g.get_u64(vars::BINLOG_CACHE_SIZE), r);
        s.max_cache_size
            .store(g.get_u64(vars::MAX_BINLOG_CACHE_SIZE), r);
    }

    /// What a commit submitted now waits for.
    pub fn ack_mode(&self) -> Ack {
        let flush = self.settings.flush_at_commit.load(Ordering::Relaxed);
        let sync_binlog = self.settings.sync_binlog.load(Ordering::Relaxed);
        if flush == 1 || (self.exposed && sync_binlog == 1) {
            Ack::Sync
        } else if flush == 2 {
            Ack::Write
        } else {
            Ack::Publish
        }
    }

    pub fn checksums(&self) -> bool {
        self.settings.checksum.load(Ordering::Relaxed)
    }

    /// A buffer for a session to encode a transaction into.
    pub fn new_buffer(&self) -> EventBuf {
        EventBuf::unplaced(self.server_id, self.checksums())
    }

    fn refuse(&self) -> Option<MyError> {
        if !self.is_failed.load(Ordering::Acquire) {
            return None;
        }
        let why = self.failed.lock().clone().unwrap_or_default();
        Some(refusal(&why))
    }

    /// Hand a finished transaction (or DDL) to the writer. The reply comes once it is as
    /// durable as `ack` asks and — for a transaction — published. With `lead`, the calling
    /// thread may write it itself (see "Who writes" in the module doc): only a thread that
    /// may block (a connection's own thread) passes it.
    pub fn submit(
        &self,
        what: Finished,
        txn: Option<Arc<TxnShared>>,
        ack: Ack,
        lead: bool,
    ) -> oneshot::Receiver<Result<(), MyError>> {
        let (tx, rx) = oneshot::channel();
        if let Some(e) = self.refuse() {
            let _ = tx.send(Err(e));
            return rx;
        }
        let c = Commit {
            what,
            txn,
            ack,
            reply: Some(tx),
            direct: None,
        };
        let _ = self.enqueue(c, lead);
        rx
    }

    /// Queue `c` (at shutdown it fails with the error returned). If the writer thread waits
    /// for work, it is woken — or, with `lead`, when nobody is writing and `c` waits for an
    /// fsync, this thread writes the queue itself up to the next control item.
    fn enqueue(&self, mut c: Commit, lead: bool) -> Result<(), MyError> {
        let lead =
            lead && c.ack == Ack::Sync && self.settings.sync_delay_us.load(Ordering::Relaxed) == 0;
        let mut q = self.queue.lock();
        if q.shutdown {
            drop(q);
            let e = shutting_down();
            c.fail(&e);
            return Err(e);
        }
        if !q.push(Work::Commit(c)) {
            return Ok(());
        }
        // The writer thread waits for work: nobody is writing unless a session is. A busy
        // server (commits queued during the last group's sync) leaves it to the writer
        // thread, which paces groups.
        if lead
            && let Some(mut role) = self.role.try_lock()
            && let Some(r) = role.as_mut()
            && r.active.last_group_sync.is_none_or(|(_, _, busy)| !busy)
        {
            let n = q
                .items
                .iter()
                .position(|w| matches!(w, Work::Control(..)))
                .unwrap_or(q.items.len());
            let items: Vec<Work> = q.items.drain(..n).collect();
            let rest = !q.items.is_empty();
            drop(q);
            self.process(r, items);
            drop(role);
            if rest {
                self.wake.notify_one();
            }
            return Ok(());
        }
        drop(q);
        self.wake.notify_one();
        Ok(())
    }

    /// Hand a finished transaction to the writer, which finalizes it and sends its OK
    /// itself once it is as durable as `ack` asks (see [`super::ack`]). On refusal the
    /// transaction is rolled back and the error returned.
    pub fn submit_direct(
        &self,
        what: Finished,
        direct: DirectAck,
        ack: Ack,
        lead: bool,
    ) -> Result<(), MyError> {
        if let Some(e) = self.refuse() {
            direct.failed(e.clone());
            return Err(e);
        }
        let c = Commit {
            what,
            txn: None,
            ack,
            reply: None,
            direct: Some(Box::new(direct)),
        };
        self.enqueue(c, lead)
    }

    /// Ask the writer to do `c` between groups; the reply carries the position after it.
    pub async fn control(&self, c: Control) -> Result<LogPos, MyError> {
        if let Some(e) = self.refuse() {
            return Err(e);
        }
        let (tx, rx) = oneshot::channel();
        let wake = {
            let mut q = self.queue.lock();
            if q.shutdown {
                return Err(shutting_down());
            }
            q.push(Work::Control(c, tx))
        };
        if wake {
            self.wake.notify_one();
        }
        rx.await
            .unwrap_or_else(|_| Err(MyError::internal("the journal writer stopped")))
    }

    /// The end of the last group written.
    pub fn position(&self) -> LogPos {
        *self.written.lock()
    }

    /// Files of the journal, oldest first, with their sizes.
    pub fn files(&self) -> Vec<(String, u64)> {
        let index = self.index.lock().clone();
        let written = self.position();
        index
            .into_iter()
            .map(|seq| {
                let size = if seq == written.file {
                    written.offset
                } else {
                    std::fs::metadata(self.path_of(seq))
                        .map(|m| m.len())
                        .unwrap_or(0)
                };
                (self.file_name(seq), size)
            })
            .collect()
    }

    /// The first file crash recovery needs: files before it may be purged (see
    /// [`super::checkpoint`]: the older of the two checkpoints kept starts there).
    pub fn needed_from(&self) -> u32 {
        match self.needed.load(Ordering::Acquire) {
            0 => self.index.lock().first().copied().unwrap_or(0),
            n => n,
        }
    }

    pub fn set_needed_from(&self, seq: u32) {
        self.needed.store(seq, Ordering::Release);
    }

    pub fn index_seqs(&self) -> Vec<u32> {
        self.index.lock().clone()
    }

    /// Write `index` as the index file, atomically.
    fn write_index(&self, index: &[u32]) -> std::io::Result<()> {
        write_index(&self.dir, &self.basename, index)
    }

    /// Remove files from the index (and the disk): PURGE BINARY LOGS, checkpoints with
    /// `log_bin=OFF`. The active file is never removed.
    pub fn purge(&self, mut remove: impl FnMut(u32) -> bool) -> Result<usize, MyError> {
        let mut index = self.index.lock();
        let active = self.position().file;
        let (gone, keep): (Vec<u32>, Vec<u32>) =
            index.iter().partition(|s| **s != active && remove(**s));
        if gone.is_empty() {
            return Ok(0);
        }
        self.write_index(&keep).map_err(|e| {
            MyError::new(
                code::ER_ERROR_ON_WRITE,
                io_error("Error writing file", &self.index_path(), &e),
            )
        })?;
        *index = keep;
        drop(index);
        for seq in &gone {
            let _ = std::fs::remove_file(self.path_of(*seq));
        }
        let _ = sync_dir(&self.dir);
        Ok(gone.len())
    }

    fn open_options(&self) -> OpenOptions {
        let mut opts = OpenOptions::new();
        opts.read(true).write(true);
        if self.flush_method == FlushMethod::ODsync {
            opts.custom_flags(libc::O_DSYNC);
        }
        opts
    }

    /// Write the header of file `seq`, fsync it, then add it to the index.
    fn create_file(&self, seq: u32) -> Result<Active, String> {
        let path = self.path_of(seq);
        let mut file = self
            .open_options()
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|e| io_error("Can't create file", &path, &e))?;
        let checksum = self.checksums();
        let mut header = EventBuf::new(4, self.server_id, checksum);
        header.format_description(unix_now(), &self.server_version, true);
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&header.bytes);
        file.write_all(&bytes)
            .and_then(|_| file.sync_all())
            .map_err(|e| io_error("Error writing file", &path, &e))?;
        let mut index = self.index.lock();
        let mut next = index.clone();
        next.push(seq);
        self.write_index(&next)
            .map_err(|e| io_error("Error writing file", &self.index_path(), &e))?;
        *index = next;
        drop(index);
        self.activate(seq, file, bytes.len() as u64, checksum)
    }

    /// The active file `seq`, whose log is `len` bytes long, just synced.
    fn activate(&self, seq: u32, file: File, len: u64, checksum: bool) -> Result<Active, String> {
        let mut a = Active::new(seq, file, len, checksum);
        if self.flush_method == FlushMethod::ODirect {
            let path = self.path_of(seq);
            let d = Direct::open(&path, &a.file, len)
                .map_err(|e| io_error("Can't open file with O_DIRECT", &path, &e))?;
            a.direct = Some(d);
        }
        Ok(a)
    }

    fn sync(&self, a: &mut Active) -> std::io::Result<()> {
        match self.flush_method {
            FlushMethod::Fsync | FlushMethod::ODirect
                if !self.settings.use_fdatasync.load(Ordering::Relaxed) =>
            {
                a.file.sync_all()?
            }
            FlushMethod::Fsync | FlushMethod::ODirect => a.file.sync_data()?,
            FlushMethod::Fdatasync => a.file.sync_data()?,
            FlushMethod::ODsync => {}
        }
        self.stats.fsyncs.fetch_add(1, Ordering::Relaxed);
        a.unsynced = false;
        a.groups_since_sync = 0;
        a.last_sync = Instant::now();
        Ok(())
    }

    /// Close the active file: an event naming what follows (Rotate) or Stop, fsync, and
    /// clear the in-use flag of its Format_description.
    fn close(&self, a: &mut Active, next: Option<u32>) -> std::io::Result<()> {
        let mut ev = EventBuf::new(a.pos, self.server_id, a.checksum);
        match next {
            Some(seq) => ev.rotate(unix_now(), &self.file_name(seq)),
            None => ev.stop(unix_now()),
        }
        a.file.write_all_at(&ev.bytes, a.pos)?;
        a.pos += ev.len() as u64;
        // Cut the filler off.
        a.file.set_len(a.pos)?;
        // The FDE's flags are at file offset 4 + 17; its checksum ignores the in-use bit.
        a.file.write_all_at(&[0], 4 + 17)?;
        self.sync(a)
    }

    fn rotate(&self, a: &mut Active) -> Result<(), String> {
        let next = a.seq + 1;
        self.close(a, Some(next))
            .map_err(|e| io_error("Error writing file", &self.path_of(a.seq), &e))?;
        *a = self.create_file(next)?;
        *self.written.lock() = LogPos {
            file: a.seq,
            offset: a.pos,
        };
        Ok(())
    }

    /// Make a large transaction's spill file (synced by its session) the next file of the
    /// log: rotate as usual, then rename it over the new file (see [`super::cache`]).
    fn adopt(&self, a: &mut Active, spill: &mut Spill) -> Result<(), String> {
        self.rotate(a)?;
        let path = self.path_of(a.seq);
        std::fs::rename(spill.path(), &path)
            .and_then(|_| sync_dir(&self.dir))
            .map_err(|e| io_error("Error writing file", &path, &e))?;
        spill.keep();
        let file = self
            .open_options()
            .open(&path)
            .map_err(|e| io_error("Can't open file", &path, &e))?;
        *a = self.activate(a.seq, file, spill.file_len(), spill.has_checksums())?;
        Ok(())
    }

    /// RESET MASTER, once its checkpoint is durable: delete the log's files, start a new
    /// one numbered `first` (the index names only it), remove the marker.
    fn reset(&self, a: &mut Active, first: u32, marker: &Path) -> Result<(), String> {
        let r = (|| {
            let old = std::mem::take(&mut *self.index.lock());
            for seq in old {
                let path = self.path_of(seq);
                remove_if_present(&path).map_err(|e| io_error("Error on delete of", &path, &e))?;
            }
            *a = self.create_file(first)?;
            *self.written.lock() = LogPos {
                file: a.seq,
                offset: a.pos,
            };
            self.needed.store(0, Ordering::Release);
            std::fs::remove_file(marker)
                .and_then(|_| sync_dir(&self.dir))
                .map_err(|e| io_error("Error on delete of", marker, &e))
        })();
        if let Err(why) = &r {
            self.fail(why.clone());
        }
        r
    }

    fn fail(&self, why: String) {
        eprintln!("quire: [ERROR] journal: {why}; commits are refused from now on");
        *self.failed.lock() = Some(why);
        self.is_failed.store(true, Ordering::Release);
    }

    /// The writer thread: waits for work while nobody writes, then takes the role and writes
    /// everything queued (see "Who writes" in the module doc).
    fn run(self: Arc<Self>) {
        loop {
            // The once-a-second sync of modes 0 and 2 is due at this time, if anything is
            // unsynced.
            let due = self.role.lock().as_ref().and_then(|r| {
                r.active.unsynced.then(|| {
                    r.active.last_sync
                        + Duration::from_secs(
                            self.settings.flush_timeout_s.load(Ordering::Relaxed).max(1),
                        )
                })
            });
            {
                let mut q = self.queue.lock();
                loop {
                    if !q.items.is_empty() {
                        break;
                    }
                    if q.shutdown {
                        drop(q);
                        if let Some(r) = self.role.lock().as_mut()
                            && !self.is_failed.load(Ordering::Acquire)
                            && let Err(e) = self.close(&mut r.active, None)
                        {
                            eprintln!("quire: [ERROR] journal: closing: {e}");
                        }
                        return;
                    }
                    if due.is_some_and(|due| Instant::now() >= due) {
                        break;
                    }
                    q.listening = Listen::Any;
                    match due {
                        Some(due) => {
                            self.wake.wait_until(&mut q, due);
                        }
                        None => self.wake.wait(&mut q),
                    }
                    q.listening = Listen::Timer;
                }
            }
            let mut role = self.role.lock();
            let Some(r) = role.as_mut() else {
                return;
            };
            let mut items = std::mem::take(&mut self.queue.lock().items);
            if items.is_empty() {
                // The once-a-second fsync of modes 0 and 2 (unless a session wrote and
                // synced meanwhile).
                if r.active.unsynced
                    && due.is_some_and(|due| Instant::now() >= due)
                    && let Err(e) = self.sync(&mut r.active)
                {
                    self.fail(io_error(
                        "Error syncing file",
                        &self.path_of(r.active.seq),
                        &e,
                    ));
                }
                continue;
            }
            self.pace(&r.active, &mut items);
            self.gather(&mut items);
            self.process(r, items);
        }
    }

    /// Write `items` in order: commits in groups, control work between groups.
    fn process(&self, r: &mut Role, items: Vec<Work>) {
        let Role { active, out } = r;
        let mut group = Vec::new();
        for w in items {
            match w {
                Work::Commit(c) => group.push(c),
                Work::Control(Control::Reset(slot, proceed), reply) => {
                    self.write_group(active, std::mem::take(&mut group), out);
                    let r = self.control_now(active, Control::Checkpoint(slot));
                    let snapshot_taken = r.is_ok();
                    let _ = reply.send(r);
                    // Commits queue up until the checkpoint is on disk.
                    if snapshot_taken && let Ok(Some(to)) = proceed.recv() {
                        let r = self.reset(active, to.first, &to.marker);
                        let _ = to.done.send(r);
                    }
                }
                Work::Control(c, reply) => {
                    self.write_group(active, std::mem::take(&mut group), out);
                    let r = self.control_now(active, c);
                    let _ = reply.send(r);
                }
            }
        }
        self.write_group(active, group, out);
    }

    /// Bound the time the writer spends in fsync to a quarter of the wall clock: when
    /// commits queued up during the last fsync (the server is busy), the next group waits
    /// until `SYNC_DUTY_WAIT` × that fsync's duration has passed since it ended, gathering
    /// more commits for one fsync. Each fsync costs CPU (on a VM, device exits) that busy
    /// sessions need; an idle server (nothing queued during the fsync) never waits, so a
    /// lone client's commit latency is one fsync.
    fn pace(&self, a: &Active, items: &mut Vec<Work>) {
        let Some((ended, took, busy)) = a.last_group_sync else {
            return;
        };
        if !busy
            || !items
                .iter()
                .any(|w| matches!(w, Work::Commit(Commit { ack: Ack::Sync, .. })))
        {
            return;
        }
        let until = ended + (took * SYNC_DUTY_WAIT).min(Duration::from_millis(2));
        self.collect_until(items, until);
    }

    /// Add queued work to `items` until `until`, or until
    /// `binlog_group_commit_sync_no_delay_count` items are gathered.
    fn collect_until(&self, items: &mut Vec<Work>, until: Instant) {
        let enough = self.settings.no_delay_count.load(Ordering::Relaxed) as usize;
        let mut q = self.queue.lock();
        loop {
            items.append(&mut q.items);
            if (enough > 0 && items.len() >= enough) || q.shutdown {
                return;
            }
            // Woken only by the count (or shutdown), not by every commit.
            q.listening = if enough > 0 {
                Listen::Count(enough - items.len())
            } else {
                Listen::Timer
            };
            let timed_out = self.wake.wait_until(&mut q, until).timed_out();
            q.listening = Listen::Timer;
            if timed_out {
                items.append(&mut q.items);
                return;
            }
        }
    }

    /// `binlog_group_commit_sync_delay`: wait up to that long for more commits, unless
    /// `binlog_group_commit_sync_no_delay_count` are already queued.
    fn gather(&self, items: &mut Vec<Work>) {
        let delay = self.settings.sync_delay_us.load(Ordering::Relaxed);
        if delay == 0 {
            return;
        }
        self.collect_until(items, Instant::now() + Duration::from_micros(delay));
    }

    fn control_now(&self, a: &mut Active, c: Control) -> Result<LogPos, MyError> {
        if let Some(e) = self.refuse() {
            return Err(e);
        }
        let r = match c {
            Control::Rotate => self.rotate(a),
            Control::Sync => self
                .sync(a)
                .map_err(|e| io_error("Error syncing file", &self.path_of(a.seq), &e)),
            Control::Checkpoint(slot) | Control::Reset(slot, _) => {
                let r = if a.unsynced { self.sync(a) } else { Ok(()) };
                // Every transaction before this point has been published, none after it:
                // the writer is the only publisher.
                self.storage.txns.take_snapshot(&slot);
                r.map_err(|e| io_error("Error syncing file", &self.path_of(a.seq), &e))
            }
        };
        match r {
            Ok(()) => Ok(LogPos {
                file: a.seq,
                offset: a.pos,
            }),
            Err(why) => {
                self.fail(why.clone());
                Err(refusal(&why))
            }
        }
    }

    /// Write, sync and publish one group of commits.
    fn write_group(&self, a: &mut Active, group: Vec<Commit>, out: &mut Vec<u8>) {
        if group.is_empty() {
            return;
        }
        let mut entries = group;
        if let Some(err) = self.refuse() {
            for e in entries.iter_mut() {
                e.fail(&err);
            }
            return;
        }
        let start = LogPos {
            file: a.seq,
            offset: a.pos,
        };
        let mut result = Ok(());
        // Mode 0: the leading entries that need no write are published now.
        let early = entries
            .iter()
            .take_while(|e| e.ack == Ack::Publish && matches!(e.what, Finished::Memory(_)))
            .count();
        out.clear();
        let max_size = self.settings.max_size.load(Ordering::Relaxed).max(4096);
        let mut bytes = 0u64;
        for e in entries.iter_mut() {
            let buf = match &mut e.what {
                Finished::File(spill) => {
                    if result.is_ok() {
                        result = self.flush_out(a, out).and_then(|_| self.adopt(a, spill));
                    }
                    bytes += spill.events_len();
                    continue;
                }
                Finished::Memory(buf) => buf,
            };
            if (a.pos >= max_size || buf.has_checksums() != a.checksum) && result.is_ok() {
                result = self.flush_out(a, out).and_then(|_| self.rotate(a));
            }
            buf.place(a.pos);
            a.pos += buf.len() as u64;
            bytes += buf.len() as u64;
            out.extend_from_slice(&buf.bytes);
            if out.len() >= 8 << 20 && result.is_ok() {
                result = self.flush_out(a, out);
            }
        }
        self.publish(&mut entries[..early]);
        if result.is_ok() {
            result = self.flush_out(a, out);
        }
        let sync_binlog = self.settings.sync_binlog.load(Ordering::Relaxed);
        let need_sync = entries.iter().any(|e| e.ack == Ack::Sync)
            || (self.exposed && sync_binlog > 1 && a.groups_since_sync + 1 >= sync_binlog);
        a.groups_since_sync += 1;
        if result.is_ok() && need_sync {
            let t0 = Instant::now();
            result = self
                .sync(a)
                .map_err(|e| io_error("Error syncing file", &self.path_of(a.seq), &e));
            let busy = !self.queue.lock().items.is_empty();
            a.last_group_sync = Some((Instant::now(), t0.elapsed(), busy));
        }
        match result {
            Ok(()) => {
                *self.written.lock() = LogPos {
                    file: a.seq,
                    offset: a.pos,
                };
                self.stats
                    .commits
                    .fetch_add(entries.len() as u64, Ordering::Relaxed);
                self.stats.groups.fetch_add(1, Ordering::Relaxed);
                self.stats.bytes_written.fetch_add(bytes, Ordering::Relaxed);
                self.publish(&mut entries[early..]);
            }
            Err(why) => {
                // Cut the file back to the last good group (if the group did not rotate).
                if a.seq == start.file {
                    let _ = a.file.set_len(start.offset);
                    a.pos = start.offset;
                }
                self.fail(why.clone());
                let err = refusal(&why);
                for e in entries.iter_mut() {
                    e.fail(&err);
                }
            }
        }
    }

    /// Write `out` (events ending at `a.pos`) and the filler after them.
    ///
    /// The file is kept allocated ahead of the log, with its length set: an fsync then
    /// writes the group's blocks but not a new file size. The space ahead is written with
    /// zeros `ZERO_STEP` bytes at a time rather than `fallocate`d: on ext4 a write into
    /// fallocated (unwritten) blocks changes the extent tree, so every group's
    /// `fdatasync()` also writes that metadata (or commits the filesystem journal that holds
    /// it): 3 device writes per sync instead of 2, a lone commit's sync 0.21 ms instead of
    /// 0.15 on this machine's ext4. With O_DIRECT the space is fallocated `PREALLOCATE`
    /// bytes at a time (its writes bypass the page cache the zeros would go through).
    /// Readers must not see zeros there, so the space is one Ignorable event (see `events`:
    /// the filler): its header and the patch that makes its checksum zero follow the
    /// group's events in the same write; the zeros after them, checksum included, are
    /// already on disk.
    fn flush_out(&self, a: &mut Active, out: &mut Vec<u8>) -> Result<(), String> {
        if out.is_empty() {
            return Ok(());
        }
        let err = |e: std::io::Error| io_error("Error writing file", &self.path_of(a.seq), &e);
        let at = a.pos - out.len() as u64;
        if a.pos + FILLER_MIN > a.end {
            let base = (a.pos + FILLER_MIN).next_multiple_of(4096);
            let from = a.end.max(at);
            a.end = if a.direct.is_none() {
                let end = base + ZERO_STEP;
                // The group's own bytes go over the first of these zeros just after.
                let zeros = vec![0u8; (end - from) as usize];
                a.file.write_all_at(&zeros, from).map_err(err)?;
                end
            } else {
                let end = base + PREALLOCATE;
                // SAFETY: fallocate on a descriptor we own; no memory is passed.
                let r = unsafe {
                    libc::fallocate(
                        std::os::fd::AsRawFd::as_raw_fd(&a.file),
                        0,
                        from as libc::off_t,
                        (end - from) as libc::off_t,
                    )
                };
                if r != 0 {
                    // Not supported here: a sparse extension reads as zeros too.
                    a.file.set_len(end).map_err(err)?;
                }
                end
            };
        }
        let (header, patch) =
            self.filler
                .event(unix_now(), self.server_id, a.pos, a.end, a.checksum);
        let log_len = out.len();
        out.extend_from_slice(&header);
        if let Some(patch) = patch {
            out.extend_from_slice(&patch);
        }
        if let Some(d) = &mut a.direct {
            d.write(at, out, log_len).map_err(err)?;
        } else {
            a.file.write_all_at(out, at).map_err(err)?;
        }
        a.unsynced = true;
        out.clear();
        Ok(())
    }

    /// Make the entries' transactions visible, in order, and reply to their sessions.
    fn publish(&self, entries: &mut [Commit]) {
        if entries.is_empty() {
            return;
        }
        self.storage
            .txns
            .publish_many(entries.iter().filter_map(|e| {
                e.txn
                    .as_deref()
                    .or_else(|| e.direct.as_ref().and_then(|d| d.shared()))
            }));
        for e in entries.iter_mut() {
            if let Some(r) = e.reply.take() {
                let _ = r.send(Ok(()));
            }
            if let Some(d) = e.direct.take() {
                d.committed();
            }
        }
    }

    /// Stop accepting commits, write what is queued, close the file with a Stop event.
    pub fn shutdown(&self) {
        self.queue.lock().shutdown = true;
        self.wake.notify_one();
        if let Some(h) = self.thread.lock().take() {
            let _ = h.join();
        }
    }
}

/// See [`Journal::pace`]: after a busy fsync of duration T the writer waits until 3·T has
/// passed, so fsyncs take at most a quarter of its time.
const SYNC_DUTY_WAIT: u32 = 3;

/// How much disk space is allocated at a time ahead of the log with O_DIRECT.
const PREALLOCATE: u64 = 4 << 20;

/// How much space ahead of the log is written with zeros at a time (see
/// [`Journal::flush_out`]): the group whose sync writes them back waits about 1 ms longer.
const ZERO_STEP: u64 = 256 << 10;

fn shutting_down() -> MyError {
    MyError::new(code::ER_SERVER_SHUTDOWN, "Server shutdown in progress")
}

fn refusal(why: &str) -> MyError {
    MyError::new(
        code::ER_BINLOG_LOGGING_IMPOSSIBLE,
        format!(
            "Binary logging not possible. Message: {why}; the server refuses commits until it is restarted"
        ),
    )
}
