//! The journal: the binary log is the write-ahead log (DESIGN.md, "One journal").
//!
//! Parts so far:
//! - [`events`]: the byte format of binlog v4 files and the encoder of every event Quire
//!   writes. Sessions encode their transaction's events into their own buffer with it,
//!   outside any shared lock; the writer only appends finished buffers.
//!
//! Still to come (issue 3): the file writer with group commit and the flush policies,
//! rotation and the index file, checkpoints, recovery, and the SQL statements over the log.

pub mod events;
