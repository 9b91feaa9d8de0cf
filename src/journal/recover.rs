//! Start-up: find the journal's files, cut a torn tail, replay the log into the tables.
//!
//! ## Failure model
//!
//! What the disk is assumed to do: a write that returned may be lost, partly or wholly,
//! until an fsync of that file returns; after it returns, the bytes stay (an fsync that
//! fails is treated as having lost everything since the previous one — the journal stops
//! accepting commits). Renames are atomic and durable once the directory is fsynced. Bits
//! do not flip on their own; when they do, checksums find it.
//!
//! | crash point | what is on disk | what recovery does |
//! |---|---|---|
//! | while a group is written | a prefix of the group, possibly ending inside an event | cuts the file at the start of the first incomplete transaction |
//! | after the write, before the fsync | some of the group, maybe all | same: complete transactions stay (none of them was acknowledged in mode 1), the rest is cut |
//! | after the fsync | the whole group | nothing to do |
//! | while a new file is created | a file the index does not name, holding at most a header | deletes it |
//! | while the index is replaced | the old index, or the new one (rename is atomic) | either is consistent |
//! | during RESET MASTER ([`super::checkpoint`]) | a marker; the reset's checkpoint or not yet; some of the old files, or the new first file | without the checkpoint: deletes the marker, nothing else changed; with it: finishes the reset (old files, index, other checkpoints deleted) |
//! | while a large transaction is written to its spill file or adopted ([`super::cache`]) | a spill file; the indexed new file holds its header only, or (renamed over it) the whole transaction | replays what the index names; deletes the spill file |
//!
//! What is a torn tail and what is corruption: reading the last file, the first event that is
//! incomplete, fails its checksum, or is malformed ends the log **if no valid event follows
//! it** (a valid event is one whose checksum matches and whose `log_pos` is its own end). The
//! file is cut at the start of the transaction that event belongs to; so is a transaction
//! missing its Xid at the end. If a valid event does follow, or the bad event is in an earlier
//! file, the log is corrupt in the middle: start-up stops with an error naming the file and
//! offset, unless `--journal-recovery=truncate` is given, which keeps everything before the
//! corrupt event (cutting there) and sets later files aside as `<name>.discarded`.
//!
//! A file named by the index but missing stops start-up. A file after the last one the index
//! names is one a crash interrupted while it was being created: if it holds no transaction
//! it is deleted, otherwise start-up stops.
//!
//! ## Replay
//!
//! Start-up loads the newest valid checkpoint ([`super::checkpoint`]; an invalid one is set
//! aside and the older one used: its catalog in order, its rows on every core) and replays
//! the journal from the position it names; files
//! before that position are not read, and may be gone. Without a checkpoint the journal must
//! start at file 1.
//!
//! DDL Query events run as statements (in the event's database and sql_mode); transactions
//! are applied row by row — Write inserts, Update and Delete find their row by primary key
//! (or, without one, by the whole before image) — and committed in log order. After replay
//! the last file's in-use flag is cleared and the writer starts the next file, as MySQL
//! does at every start.

use super::checkpoint::{self, Image, Record};
use super::decode::{self, Events, Fault, RawEvent, TableMapEvent};
use super::events::{
    FORMAT_DESCRIPTION_EVENT, PRIVATE_MARK, QUERY_EVENT, ROTATE_EVENT, STOP_EVENT, TABLE_MAP_EVENT,
    UPDATE_ROWS_EVENT_V1, WRITE_ROWS_EVENT_V1, XID_EVENT, event_crc, event_size, is_filler,
    is_private,
};
use super::writer::{LogPos, StartAt, file_name};
use crate::error::{MyError, Result as MyResult};
use crate::server::Server;
use crate::session::Ctx;
use crate::session::run::Responder;
use crate::sql::exec::RowSink;
use crate::sql::types::{ColumnMeta, SqlType};
use crate::sql::value::{Row, Value};
use crate::storage::lock::LockMode;
use crate::storage::row::RowSlot;
use crate::storage::table::Table;
use crate::storage::txn::{Isolation, Txn};
use mysql_common::constants::StatusFlags;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// What to do about corruption before the tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnCorruption {
    Stop,
    Truncate,
}

/// What recovery found and did (for the start-up message and tests).
#[derive(Debug, Default)]
pub struct Recovered {
    pub files: usize,
    pub transactions: u64,
    pub statements: u64,
    /// (file, offset, bytes) cut from the tail.
    pub cut: Option<(String, u64, u64)>,
    /// The checkpoint loaded (its number) and the rows it held.
    pub checkpoint: Option<(u32, u64)>,
    /// Checkpoints on disk after recovery, oldest first: (number, where replay starts).
    pub checkpoints: Vec<(u32, LogPos)>,
}

/// [`super::writer::write_index`], with recovery's error text.
fn write_index(dir: &Path, basename: &str, index: &[u32]) -> Result<(), String> {
    super::writer::write_index(dir, basename, index)
        .map_err(|e| format!("cannot write '{basename}.index': {e}"))
}

/// The file numbers named by `basename.index` (None: no index).
fn read_index(dir: &Path, basename: &str) -> Result<Option<Vec<u32>>, String> {
    let path = dir.join(format!("{basename}.index"));
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
    };
    let mut seqs = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let name = line.rsplit('/').next().unwrap_or(line);
        let seq = name
            .strip_prefix(basename)
            .and_then(|r| r.strip_prefix('.'))
            .and_then(|n| n.parse::<u32>().ok())
            .ok_or_else(|| format!("'{}' names an unexpected file '{line}'", path.display()))?;
        seqs.push(seq);
    }
    Ok(Some(seqs))
}

/// Journal files present in the directory (by number).
fn files_on_disk(dir: &Path, basename: &str) -> Vec<u32> {
    let mut v: Vec<u32> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let n = name.strip_prefix(basename)?.strip_prefix('.')?;
            (n.len() >= 6 && n.bytes().all(|b| b.is_ascii_digit())).then_some(())?;
            n.parse::<u32>().ok()
        })
        .collect();
    v.sort_unstable();
    v
}

/// Is there a valid event (other than a filler) anywhere in `data` after `from`? (See the
/// module doc.)
fn valid_event_after(data: &[u8], from: usize, checksums: bool) -> Option<usize> {
    let mut at = from + 1;
    while at + 19 <= data.len() {
        let size = event_size(&data[at..]);
        let plausible = size >= 19 + if checksums { 4 } else { 0 } && at + size <= data.len();
        if plausible {
            let ev = &data[at..at + size];
            let log_pos = u32::from_le_bytes([ev[13], ev[14], ev[15], ev[16]]) as usize;
            let crc_ok = !checksums
                || u32::from_le_bytes([ev[size - 4], ev[size - 3], ev[size - 2], ev[size - 1]])
                    == event_crc(ev);
            let filler = is_filler(ev[4], u16::from_le_bytes([ev[17], ev[18]]), &ev[19..]);
            if log_pos == at + size && crc_ok && ev[4] != 0 && ev[4] < 200 && !filler {
                return Some(at);
            }
        }
        at += 1;
    }
    None
}

/// A Responder that drops results (DDL replay).
struct Discard;

impl RowSink for Discard {
    fn row(&mut self, _: &[Value]) -> MyResult<()> {
        Ok(())
    }
}

impl Responder for Discard {
    fn begin_rows(&mut self, _: &Arc<[ColumnMeta]>, _: &Arc<[SqlType]>) -> MyResult<()> {
        Ok(())
    }
    fn end_rows(&mut self, _: StatusFlags, _: u16) -> MyResult<()> {
        Ok(())
    }
    fn ok(&mut self, _: u64, _: u64, _: StatusFlags, _: u16, _: &str) -> MyResult<()> {
        Ok(())
    }
    fn error(&mut self, _: &MyError) -> MyResult<()> {
        Ok(())
    }
}

/// Replays events into the server.
struct Replay {
    server: Arc<Server>,
    ctx: Ctx,
    maps: HashMap<u64, TableMapEvent>,
    txn: Option<Txn>,
    /// Where the open transaction began (its BEGIN event).
    txn_start: u64,
    out: Recovered,
}

impl Replay {
    fn storage_err(e: crate::storage::StorageError) -> String {
        format!("{e:?}")
    }

    fn table(&self, map: &TableMapEvent) -> Result<Arc<Table>, String> {
        let t = self
            .server
            .storage
            .catalog
            .table(&map.db, &map.table)
            .ok_or_else(|| format!("table `{}`.`{}` does not exist", map.db, map.table))?;
        let cols = &t.binlog_columns;
        let same = cols.len() == map.columns.len()
            && cols
                .iter()
                .zip(&map.columns)
                .all(|((ty, _), (code, meta))| {
                    let (c, m) = super::events::column_type(ty);
                    c == *code && m[..] == meta[..]
                });
        if !same {
            return Err(format!(
                "the columns of `{}`.`{}` do not match its Table_map event",
                map.db, map.table
            ));
        }
        Ok(t)
    }

    /// Find the slot a before image names.
    fn find(&self, t: &Arc<Table>, image: &[Option<Value>]) -> Result<Arc<RowSlot>, String> {
        let row: Vec<Value> = image
            .iter()
            .map(|v| v.clone().unwrap_or(Value::Null))
            .collect();
        let me = self.txn.as_ref().map(|t| t.id()).unwrap_or(0);
        if let Some(key) = t.primary_key(&row) {
            if let Some(slot) = t.get(&key)
                && t.read_latest(&slot, me).is_some()
            {
                return Ok(slot);
            }
        } else {
            for slot in t.scan_primary(
                std::ops::Bound::Unbounded,
                std::ops::Bound::Unbounded,
                false,
            ) {
                if let Some(r) = t.read_latest(&slot, me) {
                    let same = image.iter().zip(r.iter()).zip(&t.binlog_columns).all(
                        |((a, b), (ty, _))| {
                            a.as_ref()
                                .is_none_or(|a| super::events::same_value(ty, Some(a), Some(b)))
                        },
                    );
                    if same {
                        return Ok(slot);
                    }
                }
            }
        }
        Err(format!(
            "a row of `{}` named by a rows event is missing",
            t.name()
        ))
    }

    fn rows(&mut self, ev: &RawEvent) -> Result<(), String> {
        let e = decode::rows_event(ev.ty, ev.body).map_err(|f| f.to_string())?;
        let map = self
            .maps
            .get(&e.table_id)
            .ok_or_else(|| format!("rows event for unknown table id {}", e.table_id))?
            .clone();
        let t = self.table(&map)?;
        if self.txn.is_none() {
            // Rows outside BEGIN … Xid (not written by Quire, but valid): their own txn.
            self.txn = Some(
                self.server
                    .storage
                    .begin(Isolation::RepeatableRead, false, true),
            );
        }
        let types: Vec<SqlType> = t.binlog_columns.iter().map(|(ty, _)| ty.clone()).collect();
        let auto = t.def.auto_increment_column();
        let mut cur = decode::Cur::new(e.rows);
        while !cur.rest().is_empty() {
            let before =
                decode::row_image(&mut cur, &e.present, &types).map_err(|f| f.to_string())?;
            let after = if ev.ty == UPDATE_ROWS_EVENT_V1 {
                Some(
                    decode::row_image(&mut cur, &e.present_after, &types)
                        .map_err(|f| f.to_string())?,
                )
            } else {
                None
            };
            let txn = self.txn.as_mut().expect("opened above");
            if ev.ty == WRITE_ROWS_EVENT_V1 {
                let row: Row = before
                    .into_iter()
                    .map(|v| v.unwrap_or(Value::Null))
                    .collect();
                if let Some(a) = auto
                    && let Some(v) = row.get(a).and_then(|v| match v {
                        Value::Int(i) => Some(*i as u64),
                        Value::UInt(u) => Some(*u),
                        _ => None,
                    })
                {
                    t.observe_auto_inc(v);
                }
                t.insert(txn, row).map_err(Self::storage_err)?;
                continue;
            }
            let slot = self.find(&t, &before)?;
            let txn = self.txn.as_mut().expect("opened above");
            t.lock(txn, &slot, LockMode::Exclusive)
                .map_err(Self::storage_err)?;
            match after {
                None => {
                    t.delete(txn, &slot).map_err(Self::storage_err)?;
                }
                Some(after) => {
                    let cur_row = t.read_latest(&slot, txn.id()).unwrap_or_default();
                    let row: Row = after
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| match v {
                            Some(v) => v,
                            None => cur_row.get(i).cloned().unwrap_or(Value::Null),
                        })
                        .collect();
                    t.update(txn, &slot, row).map_err(Self::storage_err)?;
                }
            }
        }
        Ok(())
    }

    /// Apply one event of the log.
    async fn apply(&mut self, ev: &RawEvent<'_>) -> Result<(), String> {
        match ev.ty {
            QUERY_EVENT => self.query(ev).await,
            TABLE_MAP_EVENT => decode::table_map(ev.body)
                .map(|m| {
                    self.maps.insert(m.table_id, m);
                })
                .map_err(|f| f.to_string()),
            XID_EVENT => {
                self.commit();
                Ok(())
            }
            t if decode::is_rows_event(t) => self.rows(ev),
            _ => Ok(()),
        }
    }

    /// Apply the transaction a private event wraps (`sql_log_bin=0`; see `events`).
    async fn apply_private(&mut self, ev: &RawEvent<'_>, checksums: bool) -> Result<(), String> {
        let inner = &ev.body[PRIVATE_MARK.len()..];
        let mut result = Ok(());
        for item in Events::embedded(inner, checksums) {
            match item {
                Ok(e) => {
                    if let Err(why) = self.apply(&e).await {
                        result = Err(why);
                        break;
                    }
                }
                Err((at, f)) => {
                    result = Err(format!("private transaction, inner offset {at}: {f}"));
                    break;
                }
            }
        }
        // Offsets inside are relative to the wrapper: a cut goes to the wrapper's start.
        self.txn_start = ev.offset;
        result
    }

    /// Load a checkpoint into the (empty) server: its DDL as statements, its rows directly
    /// into the tables. Returns the number of rows.
    async fn load(&mut self, img: &Image) -> Result<u64, String> {
        let cts = self.server.storage.txns.visible_ts();
        // The catalog first, in order; the rows' chunks are collected to be loaded after.
        let mut tables: Vec<(Arc<Table>, Vec<SqlType>, Vec<bool>)> = Vec::new();
        let mut chunks: Vec<(usize, &[u8])> = Vec::new();
        for rec in img.records() {
            match rec {
                Record::Database(sql) => self.run_ddl(None, sql).await?,
                Record::Table { db, name, sql } => {
                    self.run_ddl(Some(db), sql).await?;
                    let t = self
                        .server
                        .storage
                        .catalog
                        .table(db, name)
                        .ok_or_else(|| format!("`{db}`.`{name}` was not created by `{sql}`"))?;
                    let types: Vec<SqlType> =
                        t.binlog_columns.iter().map(|(ty, _)| ty.clone()).collect();
                    let present = vec![true; types.len()];
                    tables.push((t, types, present));
                }
                Record::View(sql) => crate::sql::view::load(&self.server.storage.catalog, sql)?,
                Record::Rows(bytes) => {
                    if tables.is_empty() {
                        return Err("rows before any table".to_string());
                    }
                    chunks.push((tables.len() - 1, bytes));
                }
            }
        }
        // Rows go in on every core: chunks are independent (distinct keys; tables and their
        // indexes take concurrent inserts), and most of the time is spent allocating them.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let load_chunks = || -> Result<u64, String> {
            let mut rows = 0;
            loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((ti, bytes)) = chunks.get(k) else {
                    return Ok(rows);
                };
                let (t, types, present) = &tables[*ti];
                let mut cur = decode::Cur::new(bytes);
                while !cur.rest().is_empty() {
                    let row: Row = decode::row_image(&mut cur, present, types)
                        .map_err(|f| format!("`{}`: {f}", t.name()))?
                        .into_iter()
                        .map(|v| v.unwrap_or(Value::Null))
                        .collect();
                    t.load_committed(row, cts).map_err(Self::storage_err)?;
                    rows += 1;
                }
            }
        };
        let workers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, 8);
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..workers).map(|_| s.spawn(load_chunks)).collect();
            let mut total = load_chunks()?;
            for h in helpers {
                total += h
                    .join()
                    .map_err(|_| "a checkpoint loader failed".to_string())??;
            }
            Ok(total)
        })
    }

    /// Run a DDL statement in database `db` (recovery runs as root, results dropped).
    async fn run_ddl(&mut self, db: Option<&str>, sql: &str) -> Result<(), String> {
        let ctx = &mut self.ctx;
        ctx.db = db.map(str::to_string);
        ctx.diag.clear();
        ctx.run_text(sql, &mut Discard, false)
            .await
            .map_err(|e| format!("replaying `{sql}`: {}", e.message))
    }

    fn commit(&mut self) {
        if let Some(txn) = self.txn.take() {
            self.server.storage.commit_in_memory(txn);
            self.out.transactions += 1;
        }
    }

    fn rollback(&mut self) {
        if let Some(txn) = self.txn.take() {
            self.server.storage.rollback(txn);
        }
    }

    async fn query(&mut self, ev: &RawEvent<'_>) -> Result<(), String> {
        let q = decode::query(ev.body).map_err(|f| f.to_string())?;
        match q.query {
            "BEGIN" => {
                self.rollback();
                self.txn = Some(
                    self.server
                        .storage
                        .begin(Isolation::RepeatableRead, false, true),
                );
                self.txn_start = ev.offset;
                return Ok(());
            }
            "COMMIT" => {
                self.commit();
                return Ok(());
            }
            "ROLLBACK" => {
                self.rollback();
                return Ok(());
            }
            _ => {}
        }
        self.commit();
        let _ = crate::sql::utility::set_sysvar(
            &mut self.ctx,
            "sql_mode",
            false,
            Some(Value::UInt(q.sql_mode)),
        );
        self.run_ddl((!q.db.is_empty()).then_some(q.db), q.query)
            .await?;
        self.out.statements += 1;
        Ok(())
    }
}

/// Open or create the journal in `dir`: check the index against the files, replay every
/// file into the server, cut a torn tail. Returns where the writer starts.
pub async fn recover(
    server: &Arc<Server>,
    dir: &Path,
    basename: &str,
    on_corruption: OnCorruption,
) -> Result<(StartAt, Recovered), String> {
    super::cache::remove_leftovers(dir, basename);
    finish_reset(dir, basename)?;
    let on_disk = files_on_disk(dir, basename);
    let mut index = match read_index(dir, basename)? {
        Some(i) => i,
        None if on_disk.is_empty() => Vec::new(),
        None => {
            return Err(format!(
                "journal files such as '{}' exist in '{}' but '{basename}.index' does not; \
                 restore the index (one './{basename}.NNNNNN' line per file) to start",
                file_name(basename, on_disk[0]),
                dir.display()
            ));
        }
    };
    // The newest valid checkpoint: replay starts at its position.
    let mut cps = checkpoint::list(dir);
    let mut image = None;
    while let Some(no) = cps.last().copied() {
        match Image::read(dir, no) {
            // (A RESET MASTER's checkpoint, before its first file exists: nothing to replay.)
            Ok(img)
                if index.contains(&img.pos.file) || (index.is_empty() && img.pos.offset <= 4) =>
            {
                image = Some((no, img));
                break;
            }
            Ok(img) => {
                return Err(format!(
                    "checkpoint '{}' starts in '{}', which '{basename}.index' does not name",
                    checkpoint::file_name(no),
                    file_name(basename, img.pos.file)
                ));
            }
            Err(e) => {
                let path = dir.join(checkpoint::file_name(no));
                eprintln!(
                    "quire: [Warning] checkpoint '{}' is invalid ({e}); set aside as .invalid, using the one before",
                    path.display()
                );
                let _ = std::fs::rename(&path, path.with_extension(format!("{no:06}.invalid")));
                cps.pop();
            }
        }
    }
    let from = match &image {
        Some((_, img)) => img.pos,
        None => {
            if let Some(first) = index.first().filter(|f| **f > 1) {
                return Err(format!(
                    "the journal starts at '{}' and no valid checkpoint covers what came before it",
                    file_name(basename, *first)
                ));
            }
            LogPos::default()
        }
    };
    for seq in index.iter().filter(|s| **s >= from.file) {
        if !on_disk.contains(seq) {
            return Err(format!(
                "'{}' is named by '{basename}.index' but does not exist in '{}'",
                file_name(basename, *seq),
                dir.display()
            ));
        }
    }
    // Files after the last indexed one: interrupted creations.
    let last = index.last().copied().unwrap_or(0);
    for seq in on_disk.iter().filter(|s| **s > last) {
        let path = dir.join(file_name(basename, *seq));
        let data = std::fs::read(&path).map_err(|e| format!("'{}': {e}", path.display()))?;
        let has_txn = Events::new(&data)
            .map(|evs| {
                evs.flatten().any(|e| {
                    !matches!(e.ty, FORMAT_DESCRIPTION_EVENT | ROTATE_EVENT | STOP_EVENT)
                        && !is_filler(e.ty, e.flags, e.body)
                })
            })
            .unwrap_or(false);
        if has_txn {
            return Err(format!(
                "'{}' holds transactions but '{basename}.index' does not name it; add it to the index to start",
                path.display()
            ));
        }
        std::fs::remove_file(&path).map_err(|e| format!("'{}': {e}", path.display()))?;
    }

    let shared = server.register_session("localhost".into());
    let mut ctx = Ctx::new(server.clone(), shared.clone());
    ctx.user = "root".into();
    ctx.priv_user = "root".into();
    ctx.host = "localhost".into();
    ctx.priv_host = "localhost".into();
    // Foreign keys are not checked while replaying: tables come back in any order, a key may
    // name a parent dropped later, and cascades are in the journal as row events already.
    let _ =
        crate::sql::utility::set_sysvar(&mut ctx, "foreign_key_checks", false, Some(Value::Int(0)));
    let mut r = Replay {
        server: server.clone(),
        ctx,
        maps: HashMap::new(),
        txn: None,
        txn_start: 0,
        out: Recovered::default(),
    };
    let result = async {
        if let Some((no, img)) = &image {
            let rows = r
                .load(img)
                .await
                .map_err(|e| format!("loading '{}': {e}", checkpoint::file_name(*no)))?;
            r.out.checkpoint = Some((*no, rows));
        }
        replay_files(&mut r, dir, basename, &mut index, from, on_corruption).await
    }
    .await;
    server.unregister_session(shared.id);
    result?;
    r.out.checkpoints = cps
        .iter()
        .filter_map(|no| {
            let img = match &image {
                Some((n, img)) if n == no => img.pos,
                _ => checkpoint::read_position(dir, *no)?,
            };
            Some((*no, img))
        })
        .collect();
    let next_seq = index.last().map(|s| s + 1).unwrap_or(from.file.max(1));
    r.out.files = index.len();
    Ok((StartAt { index, next_seq }, r.out))
}

/// A RESET MASTER a crash interrupted (see [`super::checkpoint`]): if its checkpoint is on
/// disk, finish it — delete the journal's files, its index and the other checkpoints;
/// either way, delete the marker.
fn finish_reset(dir: &Path, basename: &str) -> Result<(), String> {
    let Some(no) = checkpoint::reset_marker(dir)? else {
        return Ok(());
    };
    let err = |p: &Path, e: std::io::Error| format!("'{}': {e}", p.display());
    if no > 0 && Image::read(dir, no).is_ok() {
        let mut gone: Vec<std::path::PathBuf> = files_on_disk(dir, basename)
            .into_iter()
            .map(|s| dir.join(file_name(basename, s)))
            .collect();
        gone.push(dir.join(format!("{basename}.index")));
        gone.extend(
            checkpoint::list(dir)
                .into_iter()
                .filter(|c| *c != no)
                .map(|c| dir.join(checkpoint::file_name(c))),
        );
        for p in gone {
            super::writer::remove_if_present(&p).map_err(|e| err(&p, e))?;
        }
        eprintln!(
            "quire: [Note] finished the RESET MASTER a crash interrupted (checkpoint '{}')",
            checkpoint::file_name(no)
        );
    } else {
        eprintln!(
            "quire: [Note] a crash interrupted RESET MASTER before its checkpoint: the log is as it was"
        );
    }
    let marker = dir.join(checkpoint::RESET_MARKER);
    std::fs::remove_file(&marker)
        .and_then(|_| super::writer::sync_dir(dir))
        .map_err(|e| err(&marker, e))
}

async fn replay_files(
    r: &mut Replay,
    dir: &Path,
    basename: &str,
    index: &mut Vec<u32>,
    from: LogPos,
    on_corruption: OnCorruption,
) -> Result<(), String> {
    let mut k = index
        .iter()
        .position(|s| *s >= from.file)
        .unwrap_or(index.len());
    while k < index.len() {
        let seq = index[k];
        let name = file_name(basename, seq);
        let path = dir.join(&name);
        // Mapped: the part before the checkpoint's position is never read.
        let data = decode::map_file(&path).map_err(|e| format!("'{}': {e}", path.display()))?;
        let is_last = k + 1 == index.len();
        let mut events = match Events::new(&data) {
            Ok(e) => e,
            Err(_) if is_last && data.len() < 4 => {
                // Its header never reached the disk: nothing was committed to it.
                std::fs::remove_file(&path).map_err(|e| format!("'{}': {e}", path.display()))?;
                index.pop();
                write_index(dir, basename, index)?;
                break;
            }
            Err(f) => return Err(format!("'{name}' at offset 0: {f}")),
        };
        let mut bad: Option<(u64, Fault)> = None;
        // Where the log in this file ends, if before the end of the file: at the filler of
        // an open file, or after a Rotate or Stop (a crash while closing can leave the
        // filler's space after them).
        let mut log_end: Option<u64> = None;
        r.maps.clear();
        while let Some(item) = events.next() {
            let ev = match item {
                Ok(ev) => ev,
                Err((at, f)) => {
                    bad = Some((at, f));
                    break;
                }
            };
            if is_filler(ev.ty, ev.flags, ev.body) {
                log_end = Some(ev.offset);
                break;
            }
            if matches!(ev.ty, ROTATE_EVENT | STOP_EVENT) {
                let end = ev.offset + ev.size as u64;
                if end < data.len() as u64 {
                    log_end = Some(end);
                }
                break;
            }
            if seq == from.file && ev.offset < from.offset {
                // Before the checkpoint: already in the tables (and not read from disk).
                events.skip_to(from.offset);
                continue;
            }
            let applied = if is_private(ev.ty, ev.flags, ev.body) {
                r.apply_private(&ev, events.checksums()).await
            } else {
                r.apply(&ev).await
            };
            applied.map_err(|e| format!("'{name}' at offset {}: {e}", ev.offset))?;
        }
        let checksums = events.checksums();
        // Where the complete transactions end.
        let open_txn = r.txn.is_some();
        let txn_start = r.txn_start;
        r.rollback();
        if let (None, Some(end), false) = (&bad, log_end, open_txn) {
            // Only the filler (or leftover space) follows: not damage, nothing to report.
            truncate(&path, end)?;
        }
        match bad {
            None if !open_txn => {}
            None => {
                if !is_last {
                    return Err(format!(
                        "'{name}' ends inside the transaction that starts at offset {txn_start}"
                    ));
                }
                cut(r, &path, &name, txn_start, data.len() as u64)?;
            }
            Some((at, fault)) => {
                let corrupt_mid =
                    !is_last || valid_event_after(&data, at as usize, checksums).is_some();
                if corrupt_mid {
                    let msg = format!("'{name}' is corrupt at offset {at}: {fault}");
                    if on_corruption == OnCorruption::Stop {
                        return Err(format!(
                            "{msg}. Start with --journal-recovery=truncate to keep the log before it and discard the rest"
                        ));
                    }
                    eprintln!(
                        "quire: [Warning] {msg}; truncating there (--journal-recovery=truncate)"
                    );
                    let from = if open_txn { txn_start } else { at };
                    cut(r, &path, &name, from, data.len() as u64)?;
                    for later in index.drain(k + 1..) {
                        let p = dir.join(file_name(basename, later));
                        let _ =
                            std::fs::rename(&p, p.with_extension(format!("{later:06}.discarded")));
                    }
                    write_index(dir, basename, index)?;
                } else {
                    let from = if open_txn { txn_start } else { at };
                    cut(r, &path, &name, from, data.len() as u64)?;
                }
            }
        }
        k += 1;
    }
    if let Some(last) = index.last() {
        clear_in_use(&dir.join(file_name(basename, *last)))?;
    }
    Ok(())
}

/// Cut `path` at `at` (the start of the first incomplete transaction or bad event).
fn cut(r: &mut Replay, path: &Path, name: &str, at: u64, len: u64) -> Result<(), String> {
    truncate(path, at)?;
    eprintln!(
        "quire: [Note] journal: cut {} bytes of an incomplete tail from '{name}' at offset {at}",
        len - at
    );
    r.out.cut = Some((name.to_string(), at, len - at));
    Ok(())
}

/// Cut `path` to `len` bytes, durably.
fn truncate(path: &Path, len: u64) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|f| f.set_len(len).and_then(|_| f.sync_all()))
        .map_err(|e| format!("cannot truncate '{}': {e}", path.display()))
}

/// Clear LOG_EVENT_BINLOG_IN_USE_F in a file's Format_description (the file is closed).
fn clear_in_use(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::FileExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| format!("'{}': {e}", path.display()))?;
    let mut flags = [0u8; 1];
    if f.read_exact_at(&mut flags, 4 + 17).is_ok() && flags[0] & 1 != 0 {
        f.write_all_at(&[flags[0] & !1], 4 + 17)
            .and_then(|_| f.sync_all())
            .map_err(|e| format!("'{}': {e}", path.display()))?;
    }
    Ok(())
}
