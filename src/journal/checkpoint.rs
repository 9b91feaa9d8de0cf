//! Checkpoints: a consistent image of the catalog and every table, so that start-up loads
//! it and replays only the journal written after it — and so that older journal files can
//! go.
//!
//! ## Taking one (in the background; commits go on)
//!
//! 1. Take the DDL gate ([`crate::server::Server::ddl_gate`]) exclusively: DDL in flight
//!    finishes queuing its journal entry, new DDL waits. Commits are not held.
//! 2. Queue a [`Control::Checkpoint`] to the journal writer. It is served in log order, after
//!    everything queued before it: the writer syncs the file and sets a snapshot that sees
//!    exactly the transactions written before this position P (the writer is the only one
//!    that publishes, in log order).
//! 3. Note the databases, the table objects and their AUTO_INCREMENT counters; release the
//!    gate. DDL waited for one writer round trip.
//! 4. On a thread of its own at a lower priority (nice 10), read every table at the
//!    snapshot (which keeps purge away from the versions it reads) and write
//!    `quire_checkpoint.NNNNNN.tmp` past the page cache, 1 MB per write
//!    ([`super::direct::Appender`]; where the file system has no direct I/O, through the
//!    cache with its write-back paced in 1 MB steps, [`super::writer::Writeback`]), so that
//!    commits' fsyncs do not queue behind a large write-back; fsync it, rename it, fsync the
//!    directory.
//! 5. Keep the newest two checkpoints, delete older ones. Journal files before the older
//!    kept checkpoint's P are no longer needed by recovery: with `log_bin=OFF` they are
//!    deleted at once (and a checkpoint first starts a new file when the active one holds
//!    `quire_checkpoint_log_size` bytes, so the journal stays within a few times that);
//!    with `log_bin=ON` they stay until `PURGE BINARY LOGS` or `binlog_expire_logs_seconds`
//!    removes them.
//!
//! When: once the journal written since the last checkpoint is at least
//! `quire_checkpoint_log_size` bytes *and* at least half that checkpoint's file size (for
//! files under 512 MB; beyond, the file's whole size), or `quire_checkpoint_interval`
//! seconds after the last one if the journal since is at least an eighth of that file; at a
//! clean shutdown; soon after a start-up that replayed anything. A checkpoint copies every
//! row, so its cost grows with the data while the journal grows with the writes: tying the
//! trigger to the last checkpoint's size keeps the checkpoint thread's work within about
//! twice the journal's own write volume for small databases and once for large ones
//! (amortised), and recovery's replay within about half a checkpoint's worth of
//! journal, or a checkpoint's worth for large ones (where loading the checkpoint dominates
//! anyway). Small databases keep the tighter bound because their restarts are measured in
//! fractions of a second: a 4 × 100,000-row database replaying a whole checkpoint's worth
//! of journal (57,000 transactions) restarted in 1.8 s, against under 1 s with half. (A fixed 32 MB trigger had a 10-warehouse TPC-C database — 17 million rows,
//! 45 s per checkpoint — checkpointing back to back, a core's worth of CPU; half the last
//! size still took a tenth of the machine's CPU under TPC-C, a checkpoint every minute.)
//!
//! ## RESET MASTER [TO n]
//!
//! The journal is the write-ahead log, so its files can go only once a checkpoint holds
//! everything in them. RESET MASTER takes one that names the start of the new log, then
//! replaces the log:
//!
//! 1. As steps 1–2 above (the DDL gate, then the writer syncs and sets the snapshot), but
//!    the writer then holds every later commit until step 5: they queue.
//! 2. Write `quire_reset_master` ("checkpoint NNNNNN"), fsync it and the directory.
//! 3. Write checkpoint NNNNNN at the snapshot with P = (n, 4): the new first file, from its
//!    start. Its rename is the **commit point**.
//! 4. Delete the older checkpoints.
//! 5. The writer deletes every journal file, creates file n and an index naming only it,
//!    deletes the marker (fsyncing the directory), and goes on with the queued commits.
//!
//! A crash between 2 and 3 leaves the marker and a valid older state: start-up deletes the
//! marker (and the checkpoint's `.tmp`). A crash after 3 leaves the marker and checkpoint
//! NNNNNN: start-up finishes the reset (deletes the journal files, the index and the other
//! checkpoints, then the marker) and starts the log at file n. The marker goes before any
//! commit reaches the new log, so a finished reset is never repeated over new commits.
//!
//! ## File format
//!
//! Integers are little-endian.
//!
//! ```text
//! "QUIRECP1"                      magic
//! u32 file, u64 offset            P: replay starts at this journal position
//! u64 unix time                   when it was taken
//! records, each: u8 kind, u32 length, payload
//!   1  database: the CREATE DATABASE statement
//!   2  table:    u16 n, n bytes database name, u16 m, m bytes table name,
//!                the CREATE TABLE statement (with AUTO_INCREMENT=…, and its FOREIGN KEY
//!                constraints as SHOW CREATE TABLE prints them; loaded with
//!                foreign_key_checks=0, so a child may come before its parent)
//!   3  rows of the last table: row images back to back, every column present
//!      (the encoding of rows events, `events::put_row_image`)
//!   4  view:     its `CREATE OR REPLACE … VIEW db.name (columns) AS …` statement
//!      (`sql::view::create_sql`); after every database's tables, since a view may read
//!      another database's tables; loaded as it is, without checking its SELECT
//!   0  end (length 0)
//! u32 CRC32 of everything before it
//! ```
//!
//! A file whose checksum does not match or that has no end record is invalid: start-up
//! says so, sets it aside as `.invalid` and loads the older one (recovery needs the journal
//! from the older one's P, which is why files are kept back to there).

use super::events::put_row_image;
use super::writer::{Control, Journal, LogPos};
use crate::server::Server;
use crate::sql::show::{create_table_sql, quote_ident};
use crate::sql::types::{Charset, Collation};
use crate::storage::catalog::{Catalog, SYSTEM_DATABASES};
use crate::storage::table::{ReadView, Table};
use parking_lot::Mutex;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub const PREFIX: &str = "quire_checkpoint";
/// See "RESET MASTER" in the module doc.
pub const RESET_MARKER: &str = "quire_reset_master";
const MAGIC: &[u8; 8] = b"QUIRECP1";
const HEADER_LEN: usize = 8 + 4 + 8 + 8;
const REC_END: u8 = 0;
const REC_DATABASE: u8 = 1;
const REC_TABLE: u8 = 2;
const REC_ROWS: u8 = 3;
const REC_VIEW: u8 = 4;
/// Rows records are cut at about this size.
const ROWS_CHUNK: usize = 1 << 20;

pub fn file_name(no: u32) -> String {
    format!("{PREFIX}.{no:06}")
}

/// Checkpoint numbers present in `dir`, ascending. Leftover temporary files are removed.
pub fn list(dir: &Path) -> Vec<u32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let Ok(name) = e.file_name().into_string() else {
            continue;
        };
        let Some(rest) = name.strip_prefix(PREFIX).and_then(|r| r.strip_prefix('.')) else {
            continue;
        };
        if rest.ends_with(".tmp") {
            let _ = std::fs::remove_file(e.path());
        } else if rest.len() == 6
            && let Ok(n) = rest.parse::<u32>()
        {
            v.push(n);
        }
    }
    v.sort_unstable();
    v
}

/// What a checkpoint file holds.
pub enum Record<'a> {
    Database(&'a str),
    Table {
        db: &'a str,
        name: &'a str,
        sql: &'a str,
    },
    Rows(&'a [u8]),
    View(&'a str),
}

/// A checkpoint read from disk and checked (checksum, structure).
pub struct Image {
    pub pos: LogPos,
    pub taken_unix: u64,
    data: super::decode::FileBytes,
}

fn le_u16(b: &[u8]) -> usize {
    u16::from_le_bytes([b[0], b[1]]) as usize
}

fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn le_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

impl Image {
    /// Read and check checkpoint `no`.
    pub fn read(dir: &Path, no: u32) -> Result<Image, String> {
        let data = super::decode::map_file(&dir.join(file_name(no))).map_err(|e| e.to_string())?;
        if data.len() < HEADER_LEN + 4 || &data[..8] != MAGIC {
            return Err("not a checkpoint (bad magic or too short)".into());
        }
        let body = data.len() - 4;
        if crc32fast::hash(&data[..body]) != le_u32(&data[body..]) {
            return Err("checksum mismatch".into());
        }
        let img = Image {
            pos: LogPos {
                file: le_u32(&data[8..]),
                offset: le_u64(&data[12..]),
            },
            taken_unix: le_u64(&data[20..]),
            data,
        };
        let mut ended = false;
        for r in img.raw_records() {
            let (kind, payload) = r?;
            if kind == REC_END {
                ended = true;
            } else {
                Self::parse(kind, payload)?;
            }
        }
        if !ended {
            return Err("no end record".into());
        }
        Ok(img)
    }

    fn raw_records(&self) -> impl Iterator<Item = Result<(u8, &[u8]), String>> {
        let body = &self.data[HEADER_LEN..self.data.len() - 4];
        let mut at = 0;
        std::iter::from_fn(move || {
            if at >= body.len() {
                return None;
            }
            if at + 5 > body.len() {
                at = body.len();
                return Some(Err("truncated record header".into()));
            }
            let kind = body[at];
            let len = le_u32(&body[at + 1..]) as usize;
            let start = at + 5;
            if start + len > body.len() {
                at = body.len();
                return Some(Err("truncated record".into()));
            }
            at = start + len;
            Some(Ok((kind, &body[start..start + len])))
        })
    }

    fn parse(kind: u8, p: &[u8]) -> Result<Record<'_>, String> {
        let text = |b| std::str::from_utf8(b).map_err(|_| "a name or statement is not UTF-8");
        match kind {
            REC_DATABASE => Ok(Record::Database(text(p)?)),
            REC_TABLE => {
                let bad = || "malformed table record".to_string();
                let n = le_u16(p.get(..2).ok_or_else(bad)?);
                let db = text(p.get(2..2 + n).ok_or_else(bad)?)?;
                let rest = &p[2 + n..];
                let m = le_u16(rest.get(..2).ok_or_else(bad)?);
                let name = text(rest.get(2..2 + m).ok_or_else(bad)?)?;
                let sql = text(&rest[2 + m..])?;
                Ok(Record::Table { db, name, sql })
            }
            REC_ROWS => Ok(Record::Rows(p)),
            REC_VIEW => Ok(Record::View(text(p)?)),
            k => Err(format!("unknown record kind {k}")),
        }
    }

    /// The records, in order (the file was checked by [`Image::read`]).
    pub fn records(&self) -> impl Iterator<Item = Record<'_>> {
        self.raw_records()
            .map_while(Result::ok)
            .take_while(|(k, _)| *k != REC_END)
            .filter_map(|(k, p)| Self::parse(k, p).ok())
    }
}

/// A database as the checkpoint notes it under the gate.
struct DbImage {
    name: String,
    charset: Charset,
    collation: Collation,
    tables: Vec<(Arc<Table>, u64)>,
    views: Vec<Arc<crate::storage::schema::ViewDef>>,
}

fn capture(catalog: &Catalog) -> Vec<DbImage> {
    catalog
        .database_names()
        .into_iter()
        .filter(|n| !SYSTEM_DATABASES.contains(&n.as_str()))
        .filter_map(|n| catalog.database(&n))
        .map(|d| DbImage {
            name: d.name.clone(),
            charset: d.charset,
            collation: d.collation,
            tables: d
                .tables
                .read()
                .values()
                .map(|t| (t.clone(), t.peek_auto_inc()))
                .collect(),
            views: d.views.read().values().cloned().collect(),
        })
        .collect()
}

/// Where a checkpoint's bytes go: past the page cache where the file system allows it,
/// else through it, with the write-back paced.
enum Sink {
    Direct(super::direct::Appender),
    Buffered(std::io::BufWriter<File>, super::writer::Writeback),
}

/// Writes a checkpoint file, checksumming as it goes.
struct Out {
    w: Sink,
    crc: crc32fast::Hasher,
    written: u64,
}

impl Out {
    fn create(path: &Path) -> std::io::Result<Out> {
        let w = match super::direct::Appender::create(path) {
            Ok(a) => Sink::Direct(a),
            Err(_) => Sink::Buffered(
                std::io::BufWriter::with_capacity(1 << 20, File::create(path)?),
                Default::default(),
            ),
        };
        Ok(Out {
            w,
            crc: crc32fast::Hasher::new(),
            written: 0,
        })
    }

    fn put(&mut self, b: &[u8]) -> std::io::Result<()> {
        self.crc.update(b);
        self.written += b.len() as u64;
        match &mut self.w {
            Sink::Direct(a) => a.write_all(b),
            Sink::Buffered(w, writeback) => {
                w.write_all(b)?;
                if writeback.due(self.written) {
                    w.flush()?;
                    writeback.written(w.get_ref(), self.written);
                }
                Ok(())
            }
        }
    }

    /// The checksum of everything put, written last; the file, for the caller to sync.
    fn finish(self) -> std::io::Result<File> {
        let crc = self.crc.clone().finalize();
        match self.w {
            Sink::Direct(mut a) => {
                a.write_all(&crc.to_le_bytes())?;
                a.finish()
            }
            Sink::Buffered(mut w, _) => {
                w.write_all(&crc.to_le_bytes())?;
                w.into_inner().map_err(|e| e.into_error())
            }
        }
    }

    fn record(&mut self, kind: u8, parts: &[&[u8]]) -> std::io::Result<()> {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        self.put(&[kind])?;
        self.put(&(len as u32).to_le_bytes())?;
        for p in parts {
            self.put(p)?;
        }
        Ok(())
    }
}

fn write_file(
    dir: &Path,
    no: u32,
    pos: LogPos,
    snapshot: u64,
    dbs: &[DbImage],
) -> std::io::Result<u64> {
    let tmp = dir.join(format!("{}.tmp", file_name(no)));
    let mut out = Out::create(&tmp)?;
    out.put(MAGIC)?;
    out.put(&pos.file.to_le_bytes())?;
    out.put(&pos.offset.to_le_bytes())?;
    out.put(&(super::writer::unix_now() as u64).to_le_bytes())?;
    let view = ReadView { me: 0, snapshot };
    let mut rows = 0u64;
    let mut buf = Vec::with_capacity(ROWS_CHUNK + 4096);
    for d in dbs {
        let sql = format!(
            "CREATE DATABASE {} DEFAULT CHARACTER SET {} COLLATE {}",
            quote_ident(&d.name),
            d.charset.name(),
            d.collation.name()
        );
        out.record(REC_DATABASE, &[sql.as_bytes()])?;
        for (t, auto_inc) in &d.tables {
            let sql = create_table_sql(&t.def, *auto_inc);
            out.record(
                REC_TABLE,
                &[
                    &(d.name.len() as u16).to_le_bytes(),
                    d.name.as_bytes(),
                    &(t.name().len() as u16).to_le_bytes(),
                    t.name().as_bytes(),
                    sql.as_bytes(),
                ],
            )?;
            let present = vec![true; t.binlog_columns.len()];
            for slot in t.scan_primary(
                std::ops::Bound::Unbounded,
                std::ops::Bound::Unbounded,
                false,
            ) {
                if let Some(row) = t.read(&slot, view) {
                    put_row_image(&mut buf, &t.binlog_columns, &present, &row);
                    rows += 1;
                    if buf.len() >= ROWS_CHUNK {
                        out.record(REC_ROWS, &[&buf])?;
                        buf.clear();
                    }
                }
            }
            if !buf.is_empty() {
                out.record(REC_ROWS, &[&buf])?;
                buf.clear();
            }
        }
    }
    for v in dbs.iter().flat_map(|d| &d.views) {
        let sql = crate::sql::view::create_sql(v, true);
        out.record(REC_VIEW, &[sql.as_bytes()])?;
    }
    out.record(REC_END, &[])?;
    let f = out.finish()?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, dir.join(file_name(no)))?;
    super::writer::sync_dir(dir)?;
    Ok(rows)
}

/// Write RESET MASTER's marker naming checkpoint `no`, durably.
fn write_marker(path: &Path, no: u32) -> std::io::Result<()> {
    let mut f = File::create(path)?;
    f.write_all(format!("checkpoint {no:06}\n").as_bytes())?;
    f.sync_all()?;
    super::writer::sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// The checkpoint an interrupted RESET MASTER's marker names (None: no marker).
pub fn reset_marker(dir: &Path) -> Result<Option<u32>, String> {
    let path = dir.join(RESET_MARKER);
    match std::fs::read_to_string(&path) {
        Ok(t) => Ok(Some(
            t.trim()
                .strip_prefix("checkpoint ")
                .and_then(|n| n.parse().ok())
                .unwrap_or(0),
        )),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read '{}': {e}", path.display())),
    }
}

struct State {
    /// Checkpoints on disk, oldest first: (number, P).
    kept: Vec<(u32, LogPos)>,
    /// Journal bytes written when the last one was taken; `None` forces the next tick to
    /// take one (after a recovery that replayed anything).
    bytes_at_last: Option<u64>,
    /// Size of the last checkpoint's file.
    last_size: u64,
    last_at: Instant,
    last_expire_check: Option<Instant>,
}

/// The server's checkpoints: when to take one, taking it, what the journal may drop.
pub struct Checkpoints {
    dir: PathBuf,
    state: Mutex<State>,
    /// One checkpoint at a time.
    busy: tokio::sync::Mutex<()>,
    /// Checkpoints taken since start (`Quire_checkpoints`).
    pub taken: AtomicU64,
}

impl Checkpoints {
    /// `kept`: the checkpoints recovery found (oldest first); `replayed`: whether recovery
    /// applied anything from the journal (then one is taken soon).
    pub fn new(dir: PathBuf, kept: Vec<(u32, LogPos)>, replayed: bool) -> Arc<Checkpoints> {
        Arc::new(Checkpoints {
            dir,
            state: Mutex::new(State {
                kept,
                bytes_at_last: (!replayed).then_some(0),
                last_size: 0,
                last_at: Instant::now(),
                last_expire_check: None,
            }),
            busy: tokio::sync::Mutex::new(()),
            taken: AtomicU64::new(0),
        })
    }

    /// Tell the journal which files recovery needs (the older kept checkpoint's P onwards).
    pub fn publish_needed(&self, journal: &Journal) {
        let st = self.state.lock();
        if st.kept.len() >= 2 {
            journal.set_needed_from(st.kept[st.kept.len() - 2].1.file);
        }
    }

    /// Take a checkpoint now. `Ok(None)`: no journal.
    pub async fn take(&self, server: &Arc<Server>) -> Result<Option<u32>, String> {
        let Some(journal) = server.journal.get().cloned() else {
            return Ok(None);
        };
        let _one = self.busy.lock().await;
        let log_size = server
            .globals
            .get_u64(crate::config::vars::QUIRE_CHECKPOINT_LOG_SIZE);
        if !journal.exposed && journal.position().offset >= log_size {
            // With log_bin=OFF nobody reads old files: start a new one, so that the files
            // before the older checkpoint can go (the active file never does).
            journal
                .control(Control::Rotate)
                .await
                .map_err(|e| e.message)?;
        }
        let bytes = journal.stats.bytes_written.load(Ordering::Relaxed);
        let slot = server.storage.txns.register_slot();
        let (pos, dbs) = {
            let _gate = server.ddl_gate.write().await;
            let pos = journal
                .control(Control::Checkpoint(slot.clone()))
                .await
                .map_err(|e| e.message)?;
            (pos, capture(&server.storage.catalog))
        };
        let no = self.next_no();
        let started = Instant::now();
        let rows = self
            .write_on_thread(slot, no, pos, dbs, || {
                // Sessions come first: the checkpoint takes what CPU they leave.
                super::writer::lower_priority();
                Ok(())
            })
            .await?;
        let size = std::fs::metadata(self.dir.join(file_name(no))).map_or(0, |m| m.len());
        let gone = {
            let mut st = self.state.lock();
            st.kept.push((no, pos));
            st.bytes_at_last = Some(bytes);
            st.last_size = size;
            st.last_at = Instant::now();
            let n = st.kept.len().saturating_sub(2);
            st.kept.drain(..n).collect::<Vec<_>>()
        };
        self.remove(&gone);
        let _ = super::writer::sync_dir(&self.dir);
        self.taken.fetch_add(1, Ordering::Relaxed);
        self.publish_needed(&journal);
        if !journal.exposed {
            let needed = journal.needed_from();
            journal.purge(|s| s < needed).map_err(|e| e.message)?;
        }
        if started.elapsed() > Duration::from_secs(10) {
            eprintln!(
                "quire: [Note] checkpoint {} ({rows} rows) took {} ms",
                file_name(no),
                started.elapsed().as_millis()
            );
        }
        Ok(Some(no))
    }

    /// RESET MASTER [TO first] (see the module doc). Runs to its end even if the statement
    /// is abandoned: once the checkpoint is renamed, the old log must go.
    pub async fn reset_master(
        self: &Arc<Self>,
        server: &Arc<Server>,
        first: u32,
    ) -> Result<(), String> {
        let me = self.clone();
        let server = server.clone();
        tokio::spawn(async move { me.reset_now(&server, first).await })
            .await
            .map_err(|e| format!("RESET MASTER: {e}"))?
    }

    async fn reset_now(&self, server: &Arc<Server>, first: u32) -> Result<(), String> {
        let Some(journal) = server.journal.get().cloned() else {
            return Ok(());
        };
        let _one = self.busy.lock().await;
        let slot = server.storage.txns.register_slot();
        let _gate = server.ddl_gate.write().await;
        let bytes = journal.stats.bytes_written.load(Ordering::Relaxed);
        let (proceed, held) = std::sync::mpsc::channel();
        journal
            .control(Control::Reset(slot.clone(), held))
            .await
            .map_err(|e| e.message)?;
        // The writer now holds every commit until `proceed` says what to do.
        let dbs = capture(&server.storage.catalog);
        let no = self.next_no();
        let pos = LogPos {
            file: first,
            offset: 4,
        };
        let marker = self.dir.join(RESET_MARKER);
        let m = marker.clone();
        let written = self
            .write_on_thread(slot, no, pos, dbs, move || {
                write_marker(&m, no)?;
                super::crash_point("reset_master_marker");
                Ok(())
            })
            .await;
        if let Err(e) = written {
            // Not committed: the log goes on as it was (`proceed` is dropped).
            let _ = std::fs::remove_file(&marker);
            return Err(e);
        }
        super::crash_point("reset_master_committed");
        let gone = {
            let mut st = self.state.lock();
            let gone = std::mem::replace(&mut st.kept, vec![(no, pos)]);
            st.bytes_at_last = Some(bytes);
            st.last_at = Instant::now();
            gone
        };
        self.remove(&gone);
        let (done, reply) = tokio::sync::oneshot::channel();
        proceed
            .send(Some(super::writer::ResetTo {
                first,
                marker,
                done,
            }))
            .map_err(|_| "the journal writer stopped".to_string())?;
        reply
            .await
            .map_err(|_| "the journal writer stopped".to_string())?
    }

    /// The number of the next checkpoint.
    fn next_no(&self) -> u32 {
        let st = self.state.lock();
        st.kept.last().map(|k| k.0 + 1).unwrap_or(1)
    }

    /// Write checkpoint `no` at the snapshot `slot` holds, on a thread of its own that runs
    /// `first` before it; the slot is cleared once the file is written (or not). The rows.
    async fn write_on_thread(
        &self,
        slot: Arc<crate::storage::txn::SnapshotSlot>,
        no: u32,
        pos: LogPos,
        dbs: Vec<DbImage>,
        first: impl FnOnce() -> std::io::Result<()> + Send + 'static,
    ) -> Result<u64, String> {
        let snapshot = slot.get();
        let dir = self.dir.clone();
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("quire-checkpoint".into())
            .spawn(move || {
                let _ = tx.send(first().and_then(|_| write_file(&dir, no, pos, snapshot, &dbs)));
            })
            .map_err(|e| format!("cannot start the checkpoint writer: {e}"))?;
        let written = rx.await;
        slot.clear();
        written
            .map_err(|e| format!("checkpoint writer: {e}"))?
            .map_err(|e| format!("writing checkpoint {}: {e}", file_name(no)))
    }

    /// Delete checkpoints no longer kept.
    fn remove(&self, gone: &[(u32, LogPos)]) {
        for (old, _) in gone {
            let _ = std::fs::remove_file(self.dir.join(file_name(*old)));
        }
    }

    /// Is a checkpoint due (see the module doc)?
    fn due(&self, journal: &Journal, g: &crate::config::GlobalVars) -> bool {
        use crate::config::vars;
        let st = self.state.lock();
        let bytes = journal.stats.bytes_written.load(Ordering::Relaxed);
        let Some(at_last) = st.bytes_at_last else {
            return true;
        };
        let since = bytes.saturating_sub(at_last);
        if since == 0 {
            return false;
        }
        let interval = g.get_u64(vars::QUIRE_CHECKPOINT_INTERVAL);
        // Half the last checkpoint's size under 512 MB, its whole size beyond.
        let by_size = if st.last_size < 512 << 20 {
            st.last_size / 2
        } else {
            st.last_size
        };
        since >= g.get_u64(vars::QUIRE_CHECKPOINT_LOG_SIZE).max(by_size)
            || (interval > 0
                && st.last_at.elapsed() >= Duration::from_secs(interval)
                && since >= st.last_size / 8)
    }

    /// Take one if anything was written since the last (clean shutdown).
    pub async fn take_if_changed(&self, server: &Arc<Server>) -> Result<(), String> {
        let Some(journal) = server.journal.get() else {
            return Ok(());
        };
        let changed = {
            let st = self.state.lock();
            st.bytes_at_last != Some(journal.stats.bytes_written.load(Ordering::Relaxed))
        };
        if changed {
            self.take(server).await?;
        }
        Ok(())
    }

    /// `binlog_expire_logs_seconds` (or `expire_logs_days`): with `log_bin=ON`, files older
    /// than that which recovery does not need are purged, checked once a minute.
    fn expire(&self, journal: &Journal, g: &crate::config::GlobalVars) {
        use crate::config::vars;
        {
            let mut st = self.state.lock();
            if st
                .last_expire_check
                .is_some_and(|t| t.elapsed() < Duration::from_secs(60))
            {
                return;
            }
            st.last_expire_check = Some(Instant::now());
        }
        let secs = match g.get_u64(vars::BINLOG_EXPIRE_LOGS_SECONDS) {
            0 => g.get_u64(vars::EXPIRE_LOGS_DAYS) * 86_400,
            s => s,
        };
        if !journal.exposed || secs == 0 {
            return;
        }
        let limit = std::time::SystemTime::now() - Duration::from_secs(secs);
        let needed = journal.needed_from();
        let _ = journal.purge(|s| {
            s < needed
                && std::fs::metadata(journal.path_of(s))
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t < limit)
        });
    }

    /// The background task: once a second, take a checkpoint when one is due.
    pub fn spawn(self: &Arc<Self>, server: Arc<Server>) {
        let me = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                let Some(journal) = server.journal.get().cloned() else {
                    continue;
                };
                if me.due(&journal, &server.globals)
                    && let Err(e) = me.take(&server).await
                {
                    eprintln!("quire: [ERROR] checkpoint: {e}");
                    // Not again at once: wait for the interval or the next log size.
                    let mut st = me.state.lock();
                    st.bytes_at_last = Some(journal.stats.bytes_written.load(Ordering::Relaxed));
                    st.last_at = Instant::now();
                }
                me.expire(&journal, &server.globals);
            }
        });
    }
}

/// The journal position a checkpoint file's header names (without checking the rest).
pub fn read_position(dir: &Path, no: u32) -> Option<LogPos> {
    use std::io::Read;
    let mut head = [0u8; HEADER_LEN];
    File::open(dir.join(file_name(no)))
        .ok()?
        .read_exact(&mut head)
        .ok()?;
    (&head[..8] == MAGIC).then(|| LogPos {
        file: le_u32(&head[8..]),
        offset: le_u64(&head[12..]),
    })
}
