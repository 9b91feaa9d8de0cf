//! A session's binlog cache: where a transaction's (or DDL statement's) events are encoded
//! before the journal writer takes them. Up to `binlog_cache_size` bytes stay in memory;
//! beyond that they go to a spill file; more than `max_binlog_cache_size` in all fails the
//! transaction with error 1197.
//!
//! ## Large transactions
//!
//! MySQL copies a spilled transaction into the binary log while holding the log's lock, so a
//! 100 MB transaction makes every commit behind it wait until 100 MB are written and synced.
//! Quire writes the spill file *as a binlog file*: the magic, a Format_description (in use),
//! then the events at their final offsets. At commit:
//!
//! - a spill smaller than [`ADOPT_MIN`] is read back and handed to the writer like any other
//!   transaction (the writer copies a few megabytes at most);
//! - a larger one is synced by the session itself (its write-back is paced while it is
//!   written, see [`super::writer::Writeback`], so the final fsync is short), then
//!   *adopted* by the writer ([`super::writer`]): it closes the current file with a Rotate,
//!   creates and indexes the next file as at any rotation, then renames the spill file over
//!   that new file and fsyncs the directory. The rename is the commit point: before it the
//!   indexed file holds only a header, after it the whole transaction, and either is a valid
//!   log. Commits queued behind the big one wait for those few metadata syncs, not for its
//!   copy. Later commits are appended to the adopted file (until `max_binlog_size`).
//!
//! With `sql_log_bin=0` the events are wrapped in one private event (see [`super::events`]),
//! streamed: its header is written last, its checksum combined from the checksum of what it
//! wraps.
//!
//! A spill file is `<basename>.spill-<connection id>` in the journal's directory; it is
//! deleted when its transaction ends without being adopted, and one left by a crash (never
//! acknowledged) is deleted at start-up.

use super::events::{EventBuf, HEADER_LEN, MAGIC, PRIVATE_MARK, ignorable_header};
use super::writer::{Journal, Writeback, unix_now};
use crate::error::{MyError, Result, code};
use std::fs::{File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// A spilled transaction of at least this many bytes is adopted as a file rather than
/// copied by the writer.
pub const ADOPT_MIN: u64 = 4 << 20;

/// The private wrapper's header and mark, before the events it wraps.
const WRAP_HEAD: u64 = HEADER_LEN as u64 + PRIVATE_MARK.len() as u64;

/// The spill files' name prefix: `<basename>.spill-`.
pub fn spill_prefix(basename: &str) -> String {
    format!("{basename}.spill-")
}

/// Delete spill files a crash left behind (start-up, before any session).
pub fn remove_leftovers(dir: &Path, basename: &str) {
    let prefix = spill_prefix(basename);
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

pub struct Cache {
    /// Where events are encoded; emptied into the spill file when it grows past the limit.
    pub buf: EventBuf,
    journal: Arc<Journal>,
    conn_id: u32,
    /// binlog_cache_size.
    limit: usize,
    /// max_binlog_cache_size (and what a binlog file's 32-bit positions allow).
    max: u64,
    /// sql_log_bin=0 with the binary log exposed: the wrapper's timestamp.
    private: Option<u32>,
    spill: Option<Spill>,
}

/// What a finished cache holds.
pub enum Finished {
    Memory(EventBuf),
    File(Spill),
}

impl Cache {
    pub fn new(journal: &Arc<Journal>, conn_id: u32, private: Option<u32>) -> Cache {
        let s = &journal.settings;
        journal.stats.cache_use.add(1);
        Cache {
            buf: journal.new_buffer(),
            journal: journal.clone(),
            conn_id,
            limit: s.cache_size.load(Ordering::Relaxed) as usize,
            max: s
                .max_cache_size
                .load(Ordering::Relaxed)
                .min(u32::MAX as u64 >> 1),
            private,
            spill: None,
        }
    }

    /// Called after each complete event: spill when the memory part is full.
    pub fn event_done(&mut self) -> Result<()> {
        let total = self.spill.as_ref().map_or(0, |s| s.len) + self.buf.len() as u64;
        if total > self.max {
            return Err(MyError::new(
                code::ER_TRANS_CACHE_FULL,
                "Multi-statement transaction required more than 'max_binlog_cache_size' bytes of storage; increase this mysqld variable and try again",
            ));
        }
        if self.buf.len() >= self.limit {
            if self.spill.is_none() {
                self.spill = Some(Spill::create(&self.journal, self.conn_id, self.private)?);
                self.journal
                    .stats
                    .cache_disk_use
                    .fetch_add(1, Ordering::Relaxed);
            }
            if let Some(s) = self.spill.as_mut() {
                s.append(&mut self.buf)?;
            }
        }
        Ok(())
    }

    /// The transaction is complete: as the writer takes it — in memory (wrapped if private;
    /// a spill smaller than [`ADOPT_MIN`] is read back), or its spill file, synced.
    pub fn finish(mut self) -> Result<Finished> {
        let Some(mut s) = self.spill.take() else {
            return Ok(Finished::Memory(match self.private {
                Some(ts) => self.buf.into_private(ts),
                None => self.buf,
            }));
        };
        s.append(&mut self.buf)?;
        if let Some(ts) = self.private {
            s.close_wrapper(ts)?;
        }
        if s.events_len() < ADOPT_MIN {
            return Ok(Finished::Memory(EventBuf::from_events(
                s.read_events()?,
                s.server_id,
                s.checksum,
            )));
        }
        s.sync()?;
        Ok(Finished::File(s))
    }
}

/// A transaction's events in a file laid out as a binlog file.
pub struct Spill {
    path: PathBuf,
    file: File,
    /// The file's length: where the next bytes go.
    len: u64,
    /// Where the transaction starts: just after the Format_description.
    start: u64,
    checksum: bool,
    server_id: u32,
    /// Private: the checksum of the wrapped events so far.
    inner_crc: Option<crc32fast::Hasher>,
    writeback: Writeback,
    /// Adopted: the file is the journal's now.
    kept: bool,
}

fn spill_error(path: &Path, e: std::io::Error) -> MyError {
    MyError::new(
        code::ER_ERROR_ON_WRITE,
        super::writer::io_error("Error writing file", path, &e),
    )
}

impl Spill {
    fn create(j: &Journal, conn_id: u32, private: Option<u32>) -> Result<Spill> {
        let path = j
            .dir
            .join(format!("{}{conn_id}", spill_prefix(&j.basename)));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|e| spill_error(&path, e))?;
        let checksum = j.checksums();
        let mut header = EventBuf::new(MAGIC.len() as u64, j.server_id, checksum);
        header.format_description(unix_now(), &j.server_version, true);
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&header.bytes);
        let start = bytes.len() as u64;
        if private.is_some() {
            // The wrapper's header is written by `close_wrapper`.
            bytes.extend_from_slice(&[0; HEADER_LEN]);
            bytes.extend_from_slice(PRIVATE_MARK);
        }
        file.write_all_at(&bytes, 0)
            .map_err(|e| spill_error(&path, e))?;
        Ok(Spill {
            len: bytes.len() as u64,
            path,
            file,
            start,
            checksum,
            server_id: j.server_id,
            inner_crc: private.map(|_| crc32fast::Hasher::new()),
            writeback: Writeback::default(),
            kept: false,
        })
    }

    /// Bytes of events (the transaction's size in the log).
    pub fn events_len(&self) -> u64 {
        self.len - self.start
    }

    /// The file's length.
    pub fn file_len(&self) -> u64 {
        self.len
    }

    pub fn has_checksums(&self) -> bool {
        self.checksum
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The writer has renamed the file into the log: do not delete it.
    pub fn keep(&mut self) {
        self.kept = true;
    }

    /// Move `buf`'s events to the file (placing them first if they are not yet).
    fn append(&mut self, buf: &mut EventBuf) -> Result<()> {
        // Wrapped events are placed relative to the start of what the wrapper holds.
        let base = match self.inner_crc {
            Some(_) => self.len - self.start - WRAP_HEAD,
            None => self.len,
        };
        if buf.base().is_none() {
            buf.place(base);
        }
        self.file
            .write_all_at(&buf.bytes, self.len)
            .map_err(|e| spill_error(&self.path, e))?;
        if let Some(h) = self.inner_crc.as_mut() {
            h.update(&buf.bytes);
        }
        self.len += buf.len() as u64;
        buf.restart_at(base + buf.len() as u64);
        self.writeback.written(&self.file, self.len);
        Ok(())
    }

    /// Private: write the wrapper's header and checksum around the events.
    fn close_wrapper(&mut self, timestamp: u32) -> Result<()> {
        let Some(inner) = self.inner_crc.take() else {
            return Ok(());
        };
        let end = self.len + if self.checksum { 4 } else { 0 };
        let header = ignorable_header(timestamp, self.server_id, self.start, end);
        let err = |e| spill_error(&self.path, e);
        if self.checksum {
            let mut h = crc32fast::Hasher::new();
            h.update(&header);
            h.update(PRIVATE_MARK);
            h.combine(&inner);
            self.file
                .write_all_at(&h.finalize().to_le_bytes(), self.len)
                .map_err(err)?;
        }
        self.file.write_all_at(&header, self.start).map_err(err)?;
        self.len = end;
        Ok(())
    }

    /// Make the file durable (before it is adopted).
    fn sync(&self) -> Result<()> {
        self.file
            .sync_data()
            .map_err(|e| spill_error(&self.path, e))
    }

    /// The events, read back (a spill too small to adopt).
    fn read_events(&self) -> Result<Vec<u8>> {
        let mut v = vec![0u8; self.events_len() as usize];
        self.file
            .read_exact_at(&mut v, self.start)
            .map_err(|e| spill_error(&self.path, e))?;
        Ok(v)
    }
}

impl Drop for Spill {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}
