//! The journal: the binary log is the write-ahead log (DESIGN.md, "One journal").
//!
//! Parts:
//! - [`events`]: the byte format of binlog v4 files and the encoder of every event Quire
//!   writes.
//! - [`txn`]: a session encodes its transaction's events into its own buffer with it,
//!   outside any shared lock.
//! - [`cache`]: the session's binlog cache — memory up to `binlog_cache_size`, then a spill
//!   file that a large transaction's commit hands to the writer whole.
//! - [`writer`]: the writer thread — group commit, the flush policies, rotation, the index.
//! - [`decode`]: reading files back (recovery, `quire binlog`, SHOW BINLOG EVENTS).
//! - [`reader`]: `quire binlog FILE…`, which prints files as `mysqlbinlog -v` does.
//! - [`recover`]: start-up — cut a torn tail, replay the journal into the tables.
//! - [`sqlview`]: SHOW BINARY LOGS, SHOW MASTER STATUS, SHOW BINLOG EVENTS.

pub mod cache;
pub mod checkpoint;
pub mod decode;
pub mod events;
pub mod reader;
pub mod recover;
pub mod sqlview;
pub mod txn;
pub mod writer;
