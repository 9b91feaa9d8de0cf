//! The audit log: one JSON line per connect, failed login, disconnect and statement,
//! optionally hash-chained.
//!
//! # Records
//!
//! Each record is one JSON object on one line (JSON Lines), formatted by the session itself
//! like the other logs' entries (see the parent module) — field names after Percona's
//! audit-log plugin:
//!
//! ```text
//! {"timestamp":"2026-11-22T10:15:02.123456Z","name":"Query","connection_id":12,"user":"app",
//!  "priv_user":"app","host":"localhost","ip":"127.0.0.1","db":"shop","command_class":"select",
//!  "status":0,"rows":1,"sqltext":"SELECT c FROM t WHERE id=7"}
//! ```
//!
//! - `name`: `Connect` (a login; `status` 1045 when it failed), `Quit` (the connection
//!   ended, however it ended), `Query` (a statement of `COM_QUERY`), `Execute` (a prepared
//!   statement's execution, logged with its parameter values as the general log does).
//! - `command_class`: MySQL's `sql_command` names (`select`, `insert`, `create_table`,
//!   `set_option`, …; `connect`/`quit` for the connection records), from the statement's
//!   classification.
//! - `status`: the MySQL error number the statement ended with, 0 for success; `rows`: the
//!   rows sent for a result set, else the rows affected. `timestamp` follows
//!   `log_timestamps`; it is when the record was made (the end of the statement).
//! - Strings are JSON-escaped; bytes that are not UTF-8 (a binary parameter value) are
//!   written as `\u00XX`, one per byte.
//!
//! # Which records
//!
//! `audit_log=ON`; `audit_log_policy`: `ALL`, `LOGINS` (connect, failed login, quit),
//! `QUERIES` (statements), `NONE`. `audit_log_include_accounts` / `audit_log_exclude_accounts`
//! (comma-separated `user@host` patterns, `%`/`_` wildcards in the host, a bare `user` for
//! any host; only one of the two may be set, as in Percona) match the user the client logged
//! in as and its host or IP, or the account it was authenticated as. A session decides once
//! per change of these settings (a generation number), not per statement.
//!
//! # Strategies (`audit_log_strategy`)
//!
//! - `ASYNCHRONOUS` (default): handed to the writer; a full buffer makes the session wait
//!   (lossless).
//! - `PERFORMANCE`: a full buffer drops the record (counted in `Quire_audit_log_dropped`).
//! - `SEMISYNCHRONOUS`: the statement's answer waits until its record is written to the file.
//! - `SYNCHRONOUS`: … until it is written and fsynced. Concurrent sessions share one fsync
//!   (the sink's group sync), so a busy server pays one fsync per batch, not per statement.
//!
//! The answer waits because these waits happen when the statement ends, before its
//! response is flushed (and before a commit is handed to the journal writer, which sends its
//! OK).
//!
//! # The hash chain (`audit_log_hash_chain=ON`)
//!
//! Chaining is done by the log's writer thread, which sees the records in file order (the
//! sessions cannot: they format concurrently). For each record line `L` (`{…}`), it writes
//!
//! ```text
//! {…,"hash":"<H>"}            H = hex(SHA-256(P ‖ L))
//! {…,"prev":"<P>","hash":"<H>"}   on the first record after the file is opened or the chain
//!                                 switched on: H = hex(SHA-256(P ‖ {…,"prev":"<P>"}))
//! ```
//!
//! where `P` is the previous record's `H` in ASCII hex (64 `0`s before the first record ever).
//! A chain goes on across FLUSH LOGS, SIGHUP and size rotation: the new file's first record
//! names the last hash of the old one, so files given in order verify as one chain.
//! `quire audit-verify FILE…` ([`verify`]) recomputes it and reports the first record that
//! does not match: an edited record fails its own hash; a deleted one makes the next record
//! fail (its hash was made over the deleted record's); a record without a hash inside a
//! chain breaks it. The chain has no secret: it detects edits and deletions made without
//! rewriting every later hash (someone who can rewrite the whole rest of the file can make
//! a consistent chain; keep an external copy of a recent hash to rule that out).

use super::sink::Transform;
use crate::bytes::ByteSet;
use crate::sql::convert::write_u64;
use crate::sql::lexer::{ObjectKind, StatementKind};
use sha2::{Digest, Sha256};
use std::io::BufRead;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// `audit_log_policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    All = 0,
    Logins = 1,
    Queries = 2,
    None = 3,
}

impl Policy {
    pub fn from_name(s: &str) -> Policy {
        match s.to_ascii_uppercase().as_str() {
            "LOGINS" => Policy::Logins,
            "QUERIES" => Policy::Queries,
            "NONE" => Policy::None,
            _ => Policy::All,
        }
    }

    pub fn from_u8(v: u8) -> Policy {
        match v {
            1 => Policy::Logins,
            2 => Policy::Queries,
            3 => Policy::None,
            _ => Policy::All,
        }
    }

    pub fn logins(self) -> bool {
        matches!(self, Policy::All | Policy::Logins)
    }

    pub fn queries(self) -> bool {
        matches!(self, Policy::All | Policy::Queries)
    }
}

/// `audit_log_strategy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    Asynchronous = 0,
    Performance = 1,
    Semisynchronous = 2,
    Synchronous = 3,
}

impl Strategy {
    pub fn from_name(s: &str) -> Strategy {
        match s.to_ascii_uppercase().as_str() {
            "PERFORMANCE" => Strategy::Performance,
            "SEMISYNCHRONOUS" => Strategy::Semisynchronous,
            "SYNCHRONOUS" => Strategy::Synchronous,
            _ => Strategy::Asynchronous,
        }
    }

    pub fn from_u8(v: u8) -> Strategy {
        match v {
            1 => Strategy::Performance,
            2 => Strategy::Semisynchronous,
            3 => Strategy::Synchronous,
            _ => Strategy::Asynchronous,
        }
    }
}

/// One `user@host` pattern of `audit_log_include_accounts`/`…_exclude_accounts`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Account {
    user: String,
    /// None: any host.
    host: Option<String>,
}

/// The include or exclude list, parsed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountFilter {
    include: Vec<Account>,
    exclude: Vec<Account>,
}

/// Who a session is, for the account filter.
pub struct Who<'a> {
    pub user: &'a str,
    pub host: &'a str,
    pub ip: &'a str,
    pub priv_user: &'a str,
    pub priv_host: &'a str,
}

fn parse_accounts(list: &str) -> Vec<Account> {
    let unquote = |s: &str| {
        let s = s.trim();
        s.strip_prefix(['\'', '"', '`'])
            .and_then(|x| x.strip_suffix(['\'', '"', '`']))
            .unwrap_or(s)
            .to_string()
    };
    list.split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(|a| match a.rsplit_once('@') {
            Some((u, h)) => Account {
                user: unquote(u),
                host: Some(unquote(h)),
            },
            None => Account {
                user: unquote(a),
                host: None,
            },
        })
        .collect()
}

impl AccountFilter {
    pub fn new(include: &str, exclude: &str) -> AccountFilter {
        AccountFilter {
            include: parse_accounts(include),
            exclude: parse_accounts(exclude),
        }
    }

    /// Whether a session of `who` is audited.
    pub fn admits(&self, who: &Who) -> bool {
        let matches = |a: &Account| {
            let host_ok = |h: &str| match &a.host {
                None => true,
                Some(p) => crate::wire::auth::wild_match(p.as_bytes(), h.as_bytes()),
            };
            (a.user == who.user && (host_ok(who.host) || (!who.ip.is_empty() && host_ok(who.ip))))
                || (a.user == who.priv_user && a.host.as_deref().is_none_or(|h| h == who.priv_host))
        };
        if !self.include.is_empty() {
            return self.include.iter().any(matches);
        }
        !self.exclude.iter().any(matches)
    }
}

/// One audit record, as the session has it.
pub struct Record<'a> {
    pub time_us: i64,
    /// `Connect`, `Quit`, `Query`, `Execute`.
    pub name: &'static str,
    /// The connection id, the account's fields and the database, as [`Head`] writes them
    /// (a session keeps them from one record to the next).
    pub head: &'a [u8],
    pub command_class: &'static str,
    pub status: u16,
    pub rows: Option<u64>,
    pub sqltext: Option<&'a [u8]>,
    pub utc: bool,
}

/// Appends one record line (with its newline).
pub fn format(out: &mut Vec<u8>, r: &Record) {
    out.extend_from_slice(b"{\"timestamp\":\"");
    super::write_iso_time(out, r.time_us, r.utc);
    out.extend_from_slice(b"\",\"name\":\"");
    out.extend_from_slice(r.name.as_bytes());
    out.extend_from_slice(b"\",");
    out.extend_from_slice(r.head);
    out.extend_from_slice(b",\"command_class\":\"");
    out.extend_from_slice(r.command_class.as_bytes());
    out.extend_from_slice(b"\",\"status\":");
    write_u64(u64::from(r.status), out);
    if let Some(rows) = r.rows {
        out.extend_from_slice(b",\"rows\":");
        write_u64(rows, out);
    }
    if let Some(text) = r.sqltext {
        out.extend_from_slice(b",\"sqltext\":");
        json_str(out, text);
    }
    out.extend_from_slice(b"}\n");
}

/// The fields a session's records share from one statement to the next, from
/// `"connection_id"` to `"db"` (`"connection_id":12,"user":"app","priv_user":"app",
/// "host":"localhost","ip":"127.0.0.1","db":"shop"`): written when the session's account is
/// decided, the database's part again when it changes. Formatting them for every record
/// (the id's digits, the database's escape) was a tenth of the audit log's instructions.
#[derive(Default)]
pub struct Head {
    json: Vec<u8>,
    /// Where `,"db":` starts in `json`.
    db_at: usize,
    /// The database's name is in `json` as it is (it needed no escape), so it can be
    /// compared with a name directly.
    db_plain: bool,
}

impl Head {
    const DB_KEY: &'static [u8] = b",\"db\":";

    /// Writes the whole head.
    pub fn write(&mut self, conn_id: u32, who: &Who, db: &str) {
        self.json.clear();
        self.json.extend_from_slice(b"\"connection_id\":");
        write_u64(u64::from(conn_id), &mut self.json);
        for (key, v) in [
            (&b",\"user\":"[..], who.user),
            (b",\"priv_user\":", who.priv_user),
            (b",\"host\":", who.host),
            (b",\"ip\":", who.ip),
        ] {
            self.json.extend_from_slice(key);
            json_str(&mut self.json, v.as_bytes());
        }
        self.db_at = self.json.len();
        self.set_db(db);
    }

    /// Writes the database's part again, unless it is `db` already (None is written as
    /// the empty name, as before any `USE`).
    pub fn keep_db(&mut self, db: Option<&str>) {
        let db = db.unwrap_or("");
        if !(self.db_plain && self.db_text() == Some(db.as_bytes())) {
            self.set_db(db);
        }
    }

    fn set_db(&mut self, db: &str) {
        self.json.truncate(self.db_at);
        self.json.extend_from_slice(Self::DB_KEY);
        json_str(&mut self.json, db.as_bytes());
        self.db_plain = self.db_text() == Some(db.as_bytes());
    }

    /// The database's name as `json` has it (escaped if it needed an escape): between the
    /// quotes after `,"db":`.
    fn db_text(&self) -> Option<&[u8]> {
        self.json
            .get(self.db_at + Self::DB_KEY.len() + 1..self.json.len().checked_sub(1)?)
    }

    pub fn json(&self) -> &[u8] {
        &self.json
    }
}

/// Appends `s` as a JSON string (quoted, escaped); bytes that are not UTF-8 as `\u00XX`.
pub fn json_str(out: &mut Vec<u8>, s: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hex_escape = |out: &mut Vec<u8>, b: u8| {
        out.extend_from_slice(b"\\u00");
        out.extend_from_slice(&[HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
    };
    out.reserve(s.len() + 2);
    out.push(b'"');
    let mut rest = s;
    // Runs of ASCII that need no escape are copied whole (the usual case: all of it).
    while let Some(i) = SPECIAL.first_in(rest) {
        out.extend_from_slice(rest.get(..i).unwrap_or_default());
        rest = rest.get(i..).unwrap_or_default();
        let b = rest.first().copied().unwrap_or(0);
        if b.is_ascii() {
            match b {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                b => hex_escape(out, b),
            }
            rest = rest.get(1..).unwrap_or_default();
            continue;
        }
        // A run of bytes above 0x7f (an ASCII byte never continues a UTF-8 sequence, so
        // the run decodes as it would within the whole text): its valid characters as
        // they are, the rest escaped byte by byte.
        let end = rest.iter().position(u8::is_ascii).unwrap_or(rest.len());
        for chunk in rest.get(..end).unwrap_or_default().utf8_chunks() {
            out.extend_from_slice(chunk.valid().as_bytes());
            for &b in chunk.invalid() {
                hex_escape(out, b);
            }
        }
        rest = rest.get(end..).unwrap_or_default();
    }
    out.extend_from_slice(rest);
    out.push(b'"');
}

/// The bytes a JSON string escapes (a control character, `"`, `\\`, DEL) and those that are
/// not ASCII (checked for UTF-8 apart).
pub(crate) const SPECIAL: ByteSet = ByteSet {
    below: 0x20,
    any: [b'"', b'\\', 0x7f, 0x7f],
};

/// MySQL's `sql_command` name for a statement kind (the audit record's `command_class`).
pub fn command_class(kind: StatementKind) -> &'static str {
    use StatementKind as K;
    let object = |o: ObjectKind, table, db, index, view, user, other| match o {
        ObjectKind::Table => table,
        ObjectKind::Database => db,
        ObjectKind::Index => index,
        ObjectKind::View => view,
        ObjectKind::User => user,
        _ => other,
    };
    match kind {
        K::Empty => "error",
        K::Select | K::Table | K::Values => "select",
        K::Insert => "insert",
        K::Replace => "replace",
        K::Update => "update",
        K::Delete => "delete",
        K::Begin => "begin",
        K::Commit => "commit",
        K::Rollback => "rollback",
        K::Savepoint => "savepoint",
        K::RollbackToSavepoint => "rollback_to_savepoint",
        K::ReleaseSavepoint => "release_savepoint",
        K::Set | K::SetTransaction | K::SetNames | K::SetCharset | K::SetRole => "set_option",
        K::SetPassword => "set_password",
        K::Show => "show",
        K::Use => "change_db",
        K::Explain => "explain",
        K::Create(o) => object(
            o,
            "create_table",
            "create_db",
            "create_index",
            "create_view",
            "create_user",
            "create_other",
        ),
        K::Drop(o) => object(
            o,
            "drop_table",
            "drop_db",
            "drop_index",
            "drop_view",
            "drop_user",
            "drop_other",
        ),
        K::Alter(o) => object(
            o,
            "alter_table",
            "alter_db",
            "alter_table",
            "alter_view",
            "alter_user",
            "alter_other",
        ),
        K::Truncate => "truncate",
        K::Rename => "rename_table",
        K::Lock => "lock_tables",
        K::Unlock => "unlock_tables",
        K::Flush => "flush",
        K::Kill => "kill",
        K::Analyze => "analyze",
        K::Optimize => "optimize",
        K::Check => "check",
        K::Checksum => "checksum",
        K::Repair => "repair",
        K::Grant => "grant",
        K::Revoke => "revoke",
        K::Prepare => "prepare_sql",
        K::Execute => "execute_sql",
        K::Deallocate => "dealloc_sql",
        K::Call => "call_procedure",
        K::Do => "do",
        K::Load => "load",
        K::Handler => "ha_open",
        K::Xa => "xa",
        K::Help => "help",
        K::Reset => "reset",
        K::Purge => "purge",
        K::Change => "change_master",
        K::StartReplica => "slave_start",
        K::StopReplica => "slave_stop",
        K::Binlog => "binlog_base64_event",
        K::Install => "install_plugin",
        K::Uninstall => "uninstall_plugin",
        K::Shutdown => "shutdown",
        K::Restart => "restart_server",
        K::Clone => "clone",
        K::Import => "import",
        K::Signal => "signal",
        K::Resignal => "resignal",
        K::GetDiagnostics => "get_diagnostics",
        K::Other => "other",
    }
}

const HASH_HEX: usize = 64;
const GENESIS: [u8; HASH_HEX] = [b'0'; HASH_HEX];
/// `,"hash":"` + 64 hex + `"}`.
const HASH_SUFFIX: usize = 9 + HASH_HEX + 2;
/// `,"prev":"` + 64 hex + `"`.
const PREV_FIELD: usize = 9 + HASH_HEX + 1;

fn hash_hex(prev: &[u8; HASH_HEX], body: &[u8]) -> [u8; HASH_HEX] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut h = Sha256::new();
    h.update(prev);
    h.update(body);
    let d = h.finalize();
    let mut out = [0u8; HASH_HEX];
    for (i, b) in d.iter().enumerate() {
        out[2 * i] = HEX[usize::from(b >> 4)];
        out[2 * i + 1] = HEX[usize::from(b & 15)];
    }
    out
}

/// The writer thread's side of the hash chain (see the module doc): a [`Transform`] of
/// each batch of record lines.
pub struct Chain {
    on: Arc<AtomicBool>,
    /// The last record's hash (GENESIS before the first).
    last: [u8; HASH_HEX],
    /// The previous batch was chained into the file that is open now.
    linked: bool,
}

impl Chain {
    pub fn new(on: Arc<AtomicBool>) -> Chain {
        Chain {
            on,
            last: GENESIS,
            linked: false,
        }
    }
}

impl Transform for Chain {
    fn active(&mut self) -> bool {
        let on = self.on.load(Ordering::Relaxed);
        if !on {
            // Records written unchained interrupt the chain: it starts again with a "prev".
            self.linked = false;
        }
        on
    }

    fn apply<'b>(&mut self, batch: &'b [u8], fresh_file: bool, out: &'b mut Vec<u8>) -> &'b [u8] {
        if fresh_file {
            self.linked = false;
        }
        out.clear();
        out.reserve(batch.len() + batch.len() / 4);
        for line in batch.split_inclusive(|&b| b == b'\n') {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            let Some(open) = body.strip_suffix(b"}") else {
                // Not a record (cannot happen: the sessions write whole records).
                out.extend_from_slice(line);
                continue;
            };
            let start = out.len();
            out.extend_from_slice(open);
            if !self.linked {
                out.extend_from_slice(b",\"prev\":\"");
                out.extend_from_slice(&self.last);
                out.push(b'"');
                self.linked = true;
            }
            out.push(b'}');
            let h = hash_hex(&self.last, out.get(start..).unwrap_or_default());
            out.pop();
            out.extend_from_slice(b",\"hash\":\"");
            out.extend_from_slice(&h);
            out.extend_from_slice(b"\"}\n");
            self.last = h;
        }
        out
    }
}

/// Where and why a chain broke.
#[derive(Debug, PartialEq, Eq)]
pub struct Break {
    pub file: String,
    /// 1-based line in `file`.
    pub line: u64,
    /// 1-based record number across all files.
    pub record: u64,
    pub reason: &'static str,
}

/// What [`verify`] found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// Chained records verified.
    pub records: u64,
    /// Records before the chain starts (written while it was off), not verifiable.
    pub unchained_before: u64,
    /// The first break, if any.
    pub broken: Option<Break>,
}

/// A chained line's parts: the body with its `prev` field (without the closing brace), the
/// `prev` hash if present, the stated hash.
struct Chained<'a> {
    with_prev: &'a [u8],
    prev: Option<&'a [u8]>,
    hash: &'a [u8],
}

fn split_chained(line: &[u8]) -> Option<Chained<'_>> {
    let n = line.len();
    if n < HASH_SUFFIX + 2 || !line.ends_with(b"\"}") {
        return None;
    }
    let suffix = line.get(n - HASH_SUFFIX..)?;
    if !suffix.starts_with(b",\"hash\":\"") {
        return None;
    }
    let hash = suffix.get(9..9 + HASH_HEX)?;
    let body = line.get(..n - HASH_SUFFIX)?;
    let prev = body
        .len()
        .checked_sub(PREV_FIELD)
        .and_then(|at| body.get(at..))
        .filter(|f| f.starts_with(b",\"prev\":\"") && f.ends_with(b"\""))
        .and_then(|f| f.get(9..9 + HASH_HEX));
    Some(Chained {
        with_prev: body,
        prev,
        hash,
    })
}

/// Recomputes the chain over `files`, read in order as one log (see the module doc).
pub fn verify(files: &[&Path]) -> std::io::Result<Verified> {
    let mut v = Verified::default();
    let mut last: Option<[u8; HASH_HEX]> = None;
    let mut record = 0u64;
    let mut body = Vec::new();
    for path in files {
        let reader = std::io::BufReader::new(std::fs::File::open(path)?);
        for (i, line) in reader.split(b'\n').enumerate() {
            let line = line?;
            record += 1;
            let broken = |reason| Break {
                file: path.display().to_string(),
                line: i as u64 + 1,
                record,
                reason,
            };
            let Some(Chained {
                with_prev,
                prev,
                hash,
            }) = split_chained(&line)
            else {
                if last.is_none() {
                    v.unchained_before += 1;
                    continue;
                }
                v.broken = Some(broken("the record has no hash: the chain is interrupted"));
                return Ok(v);
            };
            let running = match (last, prev) {
                (None, None) => GENESIS,
                (None, Some(p)) => p.try_into().unwrap_or(GENESIS),
                (Some(l), None) => l,
                (Some(l), Some(p)) => {
                    if p != l {
                        v.broken = Some(broken(
                            "the record does not follow the one before it (its \"prev\" differs): a record is missing or out of place",
                        ));
                        return Ok(v);
                    }
                    l
                }
            };
            body.clear();
            body.extend_from_slice(with_prev);
            body.push(b'}');
            if hash_hex(&running, &body) != hash {
                v.broken = Some(broken(
                    "the record's hash does not match: it was changed, or the record before it is missing",
                ));
                return Ok(v);
            }
            last = hash.try_into().ok();
            v.records += 1;
        }
    }
    Ok(v)
}

/// `quire audit-verify FILE…`: exit status 0 when the chain holds, 1 when it breaks, 2 on
/// a usage or read error.
pub fn verify_main(args: &[String]) -> i32 {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        eprintln!(
            "usage: quire audit-verify FILE...\n\
             Verifies the hash chain of audit log files (audit_log_hash_chain=ON), oldest \
             first, as one chain; reports the first record where it breaks."
        );
        return 2;
    }
    let paths: Vec<&Path> = args.iter().map(Path::new).collect();
    match verify(&paths) {
        Err(e) => {
            eprintln!("quire audit-verify: {e}");
            2
        }
        Ok(v) => match v.broken {
            Some(b) => {
                println!(
                    "BROKEN at {}:{} (record {}): {}",
                    b.file, b.line, b.record, b.reason
                );
                println!("{} records verified before it", v.records);
                1
            }
            None if v.records == 0 => {
                println!(
                    "no chained records ({} records without a hash)",
                    v.unchained_before
                );
                1
            }
            None => {
                print!("OK: {} records verified", v.records);
                if v.unchained_before > 0 {
                    print!(" ({} earlier records without a hash)", v.unchained_before);
                }
                println!();
                0
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> Who<'static> {
        Who {
            user: "app",
            host: "localhost",
            ip: "127.0.0.1",
            priv_user: "app",
            priv_host: "localhost",
        }
    }

    #[test]
    fn the_head_follows_the_database() {
        let mut head = Head::default();
        head.write(7, &app(), "");
        let db_of = |h: &Head| {
            let j = String::from_utf8_lossy(h.json()).into_owned();
            j.rsplit_once(",\"db\":")
                .map(|(_, d)| d.to_string())
                .unwrap_or_default()
        };
        assert!(
            String::from_utf8_lossy(head.json()).starts_with(
                r#""connection_id":7,"user":"app","priv_user":"app","host":"localhost","ip":"127.0.0.1","db":"#
            ),
            "{}",
            String::from_utf8_lossy(head.json())
        );
        assert_eq!(db_of(&head), r#""""#);
        for (db, json) in [
            (Some("shop"), r#""shop""#),
            (Some("shop"), r#""shop""#),
            (None, r#""""#),
            (Some("caf\u{e9}"), "\"caf\u{e9}\""),
            // A name that needs an escape is written again for every record, and its
            // escaped text never passes for a name that is spelt that way.
            (Some("a\"b"), r#""a\"b""#),
            (Some(r#"a\"b"#), r#""a\\\"b""#),
            (Some("a\"b"), r#""a\"b""#),
            (Some(""), r#""""#),
        ] {
            head.keep_db(db);
            assert_eq!(db_of(&head), json, "{db:?}");
        }
    }

    fn record(n: u32, text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        let mut head = Head::default();
        head.write(n, &app(), "shop");
        format(
            &mut out,
            &Record {
                time_us: 1_715_363_076_400_424,
                name: "Query",
                head: head.json(),
                command_class: "select",
                status: 0,
                rows: Some(1),
                sqltext: Some(text.as_bytes()),
                utc: true,
            },
        );
        out
    }

    #[test]
    fn json_strings_escape_and_keep_utf8() {
        for (raw, json) in [
            (&b"plain"[..], r#""plain""#),
            (b"", r#""""#),
            (
                "caf\u{e9} \u{1F600}!".as_bytes(),
                "\"caf\u{e9} \u{1F600}!\"",
            ),
            (
                b"a\"b\\c\nd\re\tf\x01g\x7f",
                r#""a\"b\\c\nd\re\tf\u0001g\u007f""#,
            ),
            // Invalid UTF-8 (a lone continuation byte, a cut sequence before ASCII) is
            // escaped byte by byte; the valid characters around it are kept.
            (
                b"\x80x\xc3\xa9\xe2\x82y\xff",
                "\"\\u0080x\u{e9}\\u00e2\\u0082y\\u00ff\"",
            ),
            ("\u{e9}\"\u{e9}".as_bytes(), "\"\u{e9}\\\"\u{e9}\""),
        ] {
            let mut out = Vec::new();
            json_str(&mut out, raw);
            assert_eq!(String::from_utf8_lossy(&out), json, "{raw:?}");
        }
    }

    #[test]
    fn records_are_json_lines() {
        let r = record(7, "SELECT \"x\\y\"\n\t\u{1}é");
        assert_eq!(
            String::from_utf8(r).unwrap(),
            "{\"timestamp\":\"2024-05-10T17:44:36.400424Z\",\"name\":\"Query\",\"connection_id\":7,\
             \"user\":\"app\",\"priv_user\":\"app\",\"host\":\"localhost\",\"ip\":\"127.0.0.1\",\
             \"db\":\"shop\",\"command_class\":\"select\",\"status\":0,\"rows\":1,\
             \"sqltext\":\"SELECT \\\"x\\\\y\\\"\\n\\t\\u0001é\"}\n"
        );
        let mut out = Vec::new();
        json_str(&mut out, b"a\xffb");
        assert_eq!(out, b"\"a\\u00ffb\"");
    }

    #[test]
    fn accounts_filter() {
        let who = Who {
            user: "app",
            host: "localhost",
            ip: "10.0.0.7",
            priv_user: "app",
            priv_host: "10.0.0.%",
        };
        assert!(AccountFilter::new("", "").admits(&who));
        assert!(AccountFilter::new("app@10.0.%", "").admits(&who));
        assert!(AccountFilter::new("'app'@'localhost'", "").admits(&who));
        assert!(AccountFilter::new("root@%, app", "").admits(&who));
        assert!(!AccountFilter::new("root@%", "").admits(&who));
        assert!(!AccountFilter::new("app@192.%", "").admits(&Who { ip: "", ..who }));
        assert!(!AccountFilter::new("", "app@%").admits(&who));
        assert!(AccountFilter::new("", "root@%,app@192.%").admits(&Who { ip: "", ..who }));
        assert!(!AccountFilter::new("", "app@10.0.0.%").admits(&Who { ip: "", ..who }));
    }

    fn chained(lines: &[Vec<u8>], chain: &mut Chain, fresh: bool) -> Vec<u8> {
        let batch: Vec<u8> = lines.concat();
        let mut out = Vec::new();
        // As the writer does: batches the chain is not active for are written as they are.
        if !chain.active() {
            return batch;
        }
        chain.apply(&batch, fresh, &mut out).to_vec()
    }

    fn verify_bytes(files: &[&[u8]]) -> Verified {
        let dir = std::env::temp_dir().join(format!(
            "quire-audit-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let paths: Vec<_> = files
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let p = dir.join(format!("a{i}.log"));
                std::fs::write(&p, b).unwrap();
                p
            })
            .collect();
        let refs: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
        let v = verify(&refs).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        v
    }

    #[test]
    fn a_chain_verifies_and_breaks_where_it_is_tampered_with() {
        let on = Arc::new(AtomicBool::new(true));
        let mut chain = Chain::new(on.clone());
        let recs: Vec<Vec<u8>> = (0..6).map(|i| record(i, &format!("SELECT {i}"))).collect();
        let mut file = chained(&recs[..3], &mut chain, true);
        file.extend(chained(&recs[3..], &mut chain, false));
        let lines: Vec<&[u8]> = file.split_inclusive(|&b| b == b'\n').collect();
        assert_eq!(lines.len(), 6);
        assert!(
            String::from_utf8_lossy(lines[0]).contains(&format!("\"prev\":\"{}\"", "0".repeat(64)))
        );
        assert!(!String::from_utf8_lossy(lines[1]).contains("\"prev\""));
        let v = verify_bytes(&[&file]);
        assert_eq!((v.records, v.broken), (6, None));

        // An edited record fails at itself.
        let edited = String::from_utf8(file.clone())
            .unwrap()
            .replacen("SELECT 3", "SELECT 4", 1);
        let b = verify_bytes(&[edited.as_bytes()]).broken.unwrap();
        assert_eq!((b.line, b.record), (4, 4));
        // A deleted record: the chain breaks where it was.
        let deleted: Vec<u8> = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != 2)
            .flat_map(|(_, l)| l.to_vec())
            .collect();
        let v = verify_bytes(&[&deleted]);
        assert_eq!(v.broken.unwrap().line, 3);
        assert_eq!(v.records, 2);
        // Deleting the first record is seen too (the next one has no "prev").
        let b = verify_bytes(&[&lines[1..].concat()]).broken.unwrap();
        assert_eq!(b.line, 1);
        // A record without a hash inside the chain.
        let mut inserted = lines[..2].concat();
        inserted.extend(record(9, "DROP TABLE evidence"));
        inserted.extend(lines[2..].concat());
        assert_eq!(verify_bytes(&[&inserted]).broken.unwrap().line, 3);

        // Across a reopen: the new file names the old one's last hash; each file verifies
        // alone and both in order; a missing file in between is seen.
        let second = chained(&recs[..2], &mut chain, true);
        let third = chained(&recs[2..4], &mut chain, true);
        assert!(String::from_utf8_lossy(&second).contains("\"prev\""));
        assert_eq!(verify_bytes(&[&second]).broken, None);
        let v = verify_bytes(&[&file, &second, &third]);
        assert_eq!((v.records, v.broken), (10, None));
        let b = verify_bytes(&[&file, &third]).broken.unwrap();
        assert_eq!((b.file.ends_with("a1.log"), b.line, b.record), (true, 1, 7));

        // The chain switched off, then on: the unchained records interrupt it.
        on.store(false, Ordering::Relaxed);
        let off = chained(&recs[..1], &mut chain, false);
        on.store(true, Ordering::Relaxed);
        let again = chained(&recs[1..2], &mut chain, false);
        let b = verify_bytes(&[&[third.clone(), off, again].concat()])
            .broken
            .unwrap();
        assert_eq!(b.line, 3);
        // Records from before the chain was switched on are counted, not verified.
        let v = verify_bytes(&[&[recs[0].clone(), third].concat()]);
        assert_eq!((v.unchained_before, v.records, v.broken), (1, 2, None));
    }
}
