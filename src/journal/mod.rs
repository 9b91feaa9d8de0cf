//! The journal: the binary log is the write-ahead log (DESIGN.md, "One journal").
//!
//! Parts:
//! - [`accounts`]: the accounts file, replaced at every account statement.
//! - [`events`]: the byte format of binlog v4 files and the encoder of every event Quire
//!   writes.
//! - [`txn`]: a session encodes its transaction's events into its own buffer with it,
//!   outside any shared lock.
//! - [`cache`]: the session's binlog cache — memory up to `binlog_cache_size`, then a spill
//!   file that a large transaction's commit hands to the writer whole.
//! - [`writer`]: the writer thread — group commit, the flush policies, rotation, the index.
//! - [`direct`]: `innodb_flush_method=O_DIRECT` — the writer's aligned block writes.
//! - [`decode`]: reading files back (recovery, `quire binlog`, SHOW BINLOG EVENTS).
//! - [`reader`]: `quire binlog FILE…`, which prints files as `mysqlbinlog -v` does.
//! - [`recover`]: start-up — cut a torn tail, replay the journal into the tables.
//! - [`sqlview`]: SHOW BINARY LOGS, SHOW MASTER STATUS, SHOW BINLOG EVENTS.

pub mod accounts;
pub mod ack;
pub mod cache;
pub mod checkpoint;
pub mod decode;
pub mod direct;
pub mod events;
pub mod reader;
pub mod recover;
pub mod sqlview;
pub mod txn;
pub mod writer;

/// A crash point for tests: when the environment variable `QUIRE_CRASH_POINT` names this
/// point, the server kills itself here with SIGKILL, as `kill -9` would (no core dump; MySQL's
/// debug builds have the same, `DBUG_EXECUTE_IF`). Used where only an interruption at one
/// step tests recovery.
pub fn crash_point(name: &str) {
    static POINT: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let point = POINT.get_or_init(|| std::env::var("QUIRE_CRASH_POINT").ok());
    if point.as_deref() == Some(name) {
        eprintln!("quire: crash point {name} (QUIRE_CRASH_POINT)");
        // SAFETY: kill(2) of this process; nothing is passed.
        unsafe { libc::kill(libc::getpid(), libc::SIGKILL) };
        std::process::abort();
    }
}
