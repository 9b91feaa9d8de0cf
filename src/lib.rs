//! Quire: a MySQL-compatible transactional SQL server where logging costs (almost) nothing.
//!
//! The layers follow the flow of a statement (see `../shared/DESIGN.md`):
//!
//! ```text
//! wire ─► session ─► sql ─► storage ─► journal
//!                     └──► observe (statement records: logs, digests, status)
//! ```
//!
//! - [`wire`]: the MySQL client/server protocol: packets, handshake, authentication,
//!   result-set encoding. Knows nothing about SQL.
//! - [`session`]: one client connection's state: variables, current database, transaction,
//!   prepared statements; runs statements.
//! - [`sql`]: lexing, parsing (sqlparser-rs), planning (with a plan cache keyed by the
//!   normalised statement) and execution.
//! - [`storage`]: memory-resident MVCC tables, indexes, row locks, transactions.
//! - [`config`]: command-line options, `my.cnf`, and the registry of system variables.
//! - [`observe`]: the query logs (slow, general), fed by each statement's record.
//! - [`server`]: state shared by all sessions.
//! - [`error`]: MySQL error numbers and SQLSTATEs.
//! - [`bench`]: `quire bench` (the seed experiments beside MariaDB) and the TPC-C client.

pub mod bench;
pub mod bytes;
pub mod config;
pub mod error;
pub mod journal;
pub mod observe;
pub mod server;
pub mod session;
pub mod sql;
pub mod storage;
pub mod wire;
