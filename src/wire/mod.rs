//! The wire: the MySQL client/server protocol as Quire speaks it — bytes in, bytes out.
//!
//! This layer turns a TCP or Unix-socket byte stream into command payloads and turns
//! results into packets. It knows nothing about SQL: the session (`crate::session`)
//! dispatches commands and decides what to answer; this layer only says how to say it.
//! It must never block, never panic on client bytes, never buffer more than a bounded
//! amount per connection, and never send a response in more syscalls than needed (one,
//! normally).
//!
//! Parts:
//! - [`packet`]: framing (the spec of the 4-byte header and 16 MiB splitting lives there),
//!   the buffered [`PacketReader`](packet::PacketReader) and
//!   [`PacketWriter`](packet::PacketWriter), length-encoded integers and strings, and the
//!   bounds-checked [`Cursor`](packet::Cursor) every parser uses.
//! - [`proto`]: the handshake packets, OK/ERR/EOF, column definitions, text rows, and the
//!   small command payloads (COM_QUERY, COM_INIT_DB, COM_FIELD_LIST, COM_CHANGE_USER …).
//! - [`binary`]: prepared statements: COM_STMT_PREPARE's answer, COM_STMT_EXECUTE's
//!   parameters, long data, binary rows.
//! - [`auth`]: password hashes, the two password plugins, host matching, and the whole
//!   connection phase as one async function.
//!
//! ## The conversation
//!
//! ```text
//! connect ─► server: HandshakeV10 (seq 0)            proto::write_handshake_v10
//!            client: HandshakeResponse41 (seq 1)     proto::parse_handshake_response
//!            [server: AuthSwitchRequest / client: scramble]      auth::authenticate
//!            [server: AuthMoreData 0x01 0x03 (caching_sha2 fast auth)]
//!            server: OK (or ERR 1045 / 1049) — written by the caller after its db check
//! command ─► client: command packet, seq 0           (PacketReader::reset_seq first)
//!            server: response, seq 1, 2, …           (PacketWriter::set_seq(reader.seq()))
//! ```
//!
//! A response is one of: an OK packet; an ERR packet; a result set (column count, column
//! definitions, (EOF), rows, EOF-or-OK), possibly several in a row for multi-statements
//! and CALL (each but the last with `SERVER_MORE_RESULTS_EXISTS` in its final status); or,
//! for LOAD DATA LOCAL, a file request that the client answers with more packets before
//! the final OK. COM_STMT_SEND_LONG_DATA and COM_STMT_CLOSE get no response at all, and
//! COM_QUIT closes. The status flags (`SERVER_STATUS_IN_TRANS`, `AUTOCOMMIT`,
//! `MORE_RESULTS_EXISTS`, `NO_INDEX_USED` …) are the session's knowledge; every writer
//! here takes them as arguments.
//!
//! ## Capabilities Quire advertises, and why
//!
//! [`proto::SERVER_CAPABILITIES`]: `LONG_PASSWORD`, `FOUND_ROWS`, `LONG_FLAG`,
//! `CONNECT_WITH_DB`, `NO_SCHEMA`, `ODBC`, `LOCAL_FILES`, `IGNORE_SPACE`, `PROTOCOL_41`,
//! `INTERACTIVE`, `TRANSACTIONS`, `SECURE_CONNECTION`, `MULTI_STATEMENTS`,
//! `MULTI_RESULTS`, `PS_MULTI_RESULTS`, `PLUGIN_AUTH`, `CONNECT_ATTRS`,
//! `PLUGIN_AUTH_LENENC_CLIENT_DATA`, `DEPRECATE_EOF`. Most are simply what every MySQL 8.0
//! server offers and every client expects; the session honours the ones with semantics
//! (`FOUND_ROWS` changes UPDATE's affected-row count, `MULTI_STATEMENTS` allows `;`-separated
//! batches, `INTERACTIVE` picks `interactive_timeout`, `IGNORE_SPACE` lets a function name
//! be followed by a space, `LOCAL_FILES` allows LOAD DATA LOCAL).
//!
//! - `LONG_PASSWORD` (bit 0) is also MariaDB's `CLIENT_MYSQL`. Set, it tells MariaDB
//!   clients that this is a MySQL server: they then never read or send MariaDB's extended
//!   capabilities (the last 4 "reserved" bytes of the greeting and of the response), never
//!   use COM_STMT_BULK_EXECUTE, metadata caching or progress reports. The version string
//!   is MySQL-style (no `5.5.5-` prefix) for the same reason.
//! - Not `SSL`: Quire has no TLS yet. Clients that merely prefer TLS continue in plain text;
//!   clients that require it fail on their side with a clear message; a client that sends
//!   an SSLRequest anyway gets ERR 1043 "Bad handshake" and is closed (as MySQL does when
//!   it has no TLS). Without TLS, caching_sha2_password's full authentication (which sends
//!   the password, RSA-encrypted or over TLS) is never used — see [`auth`].
//! - Not `COMPRESS` (nor zstd): compression costs CPU on both sides for the small packets
//!   of OLTP traffic, complicates framing (a second header layer), and clients fall back
//!   silently when it is not offered.
//! - Not `SESSION_TRACK`: tracking would put variable/schema/transaction-state changes into
//!   every OK packet, a cost on the hottest response for a feature few clients use (MySQL
//!   connectors use it for connection-pool state and proxies). Without it, OK's info string
//!   is written length-encoded when non-empty, as MySQL does. (libmariadb sets
//!   SESSION_TRACK in its response even when the server does not offer it; negotiated
//!   capabilities are always client ∧ server, so it is ignored.)
//! - Not `OPTIONAL_RESULTSET_METADATA`, `QUERY_ATTRIBUTES`, `CAN_HANDLE_EXPIRED_PASSWORDS`:
//!   each changes packet layouts for a feature Quire does not have.
//!
//! ## EOF vs DEPRECATE_EOF
//!
//! The old protocol ends column definitions with an EOF packet (`0xFE`, warnings, status)
//! and ends rows with another. With `CLIENT_DEPRECATE_EOF` negotiated (MySQL 5.7.5+
//! clients), the EOF after the column definitions is dropped and the one after the rows
//! becomes an OK packet whose header is `0xFE` (so it is still told apart from a row:
//! a row starting with `0xFE` is a length ≥ 2^24 and thus a packet of `0xFF_FFFF` bytes,
//! while this OK is short). [`proto::write_result_header`] and
//! [`proto::write_result_end`] (and [`binary::write_prepare_ok`]) do the right thing per
//! negotiated capabilities; callers never write EOFs themselves. The MariaDB CLI and PyMySQL
//! do not ask for DEPRECATE_EOF; MySQL 8 connectors (Connector/J, mysql_async, the mysql
//! 8 CLI) do.
//!
//! ## Packet splitting
//!
//! A logical packet of 16 MiB − 1 bytes or more travels in several chunks (see
//! [`packet`]). The reader reassembles them, enforcing `max_allowed_packet` on the total
//! before buffering anything; the writer splits on [`end`](packet::PacketWriter::end),
//! so a 20 MB row or an ERR never needs special handling by callers.
//!
//! ## What this layer never does
//!
//! - It never formats values itself beyond the binary encodings: text is `to_text`'s job
//!   (`crate::sql::convert`), so the text protocol, `SELECT … INTO OUTFILE` and the logs
//!   print values identically.
//! - It never resolves host names, never does TLS, compression, the old (pre-4.1)
//!   protocol, `mysql_old_password`, cursors (COM_STMT_FETCH), query attributes, or
//!   MariaDB's bulk execution.
//! - It never sends anything unprompted (except the greeting): no session-state tracking,
//!   no progress reports.
//! - It never holds a lock or calls into storage: encoding happens in the connection's
//!   own buffers.

pub mod auth;
pub mod binary;
pub mod packet;
pub mod proto;

#[cfg(test)]
mod client_tests;
