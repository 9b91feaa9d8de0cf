//! The text protocol: handshake packets, OK/ERR/EOF, result-set metadata, text rows, and
//! the small command payloads the session dispatches on.
//!
//! Every writer here appends whole packets to a [`PacketWriter`]; nothing is sent until the
//! caller flushes, so a response is one syscall. Every parser takes a payload and returns a
//! [`ProtoError`] on anything malformed — never a panic. Command parsers take the *whole*
//! command payload, command byte included (the session has already matched on it).
//!
//! Packet layouts are MySQL 8.0's ("Client/Server Protocol" in the MySQL source docs);
//! where a layout depends on capabilities, the flags that matter are the *negotiated* ones
//! (client ∧ server), which the session keeps from [`authenticate`](super::auth::authenticate).

use super::packet::{
    Cursor, PacketWriter, ProtoError, put_lenenc_bytes, put_lenenc_int, put_lenenc_with,
};
use crate::error::MyError;
use crate::sql::convert::to_text;
use crate::sql::types::{ColumnMeta, SqlType};
use crate::sql::value::Value;
use mysql_common::constants::{CapabilityFlags, StatusFlags};

/// What Quire advertises in the handshake (see the module doc of [`super`] for why each
/// flag is on or off). `CLIENT_LONG_PASSWORD` (bit 0) is left clear: it doubles as MariaDB's
/// `CLIENT_MYSQL` bit, and with it clear MariaDB clients read the extended capabilities in
/// the greeting's reserved bytes ([`SERVER_EXT_CAPABILITIES`]). MySQL clients ignore bit 0.
pub const SERVER_CAPABILITIES: CapabilityFlags = CapabilityFlags::CLIENT_FOUND_ROWS
    .union(CapabilityFlags::CLIENT_LONG_FLAG)
    .union(CapabilityFlags::CLIENT_CONNECT_WITH_DB)
    .union(CapabilityFlags::CLIENT_NO_SCHEMA)
    .union(CapabilityFlags::CLIENT_ODBC)
    .union(CapabilityFlags::CLIENT_LOCAL_FILES)
    .union(CapabilityFlags::CLIENT_IGNORE_SPACE)
    .union(CapabilityFlags::CLIENT_PROTOCOL_41)
    .union(CapabilityFlags::CLIENT_INTERACTIVE)
    .union(CapabilityFlags::CLIENT_TRANSACTIONS)
    .union(CapabilityFlags::CLIENT_SECURE_CONNECTION)
    .union(CapabilityFlags::CLIENT_MULTI_STATEMENTS)
    .union(CapabilityFlags::CLIENT_MULTI_RESULTS)
    .union(CapabilityFlags::CLIENT_PS_MULTI_RESULTS)
    .union(CapabilityFlags::CLIENT_PLUGIN_AUTH)
    .union(CapabilityFlags::CLIENT_CONNECT_ATTRS)
    .union(CapabilityFlags::CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)
    .union(CapabilityFlags::CLIENT_DEPRECATE_EOF);

/// MariaDB's extended capabilities (bits 32–63 of the capability set, sent in the last four
/// reserved bytes of the greeting and of the handshake response). Quire offers one:
/// `MARIADB_CLIENT_CACHE_METADATA`, with which a result set's column count is followed by a
/// "metadata follows" byte and an unchanged prepared statement's column definitions are not
/// sent again on every execution (they are most of a point select's response, and parsing
/// them is most of the client's work).
pub const SERVER_EXT_CAPABILITIES: u32 = MARIADB_CLIENT_CACHE_METADATA;
/// `MARIADB_CLIENT_CACHE_METADATA` (1 << 36), as an extended-capability bit.
pub const MARIADB_CLIENT_CACHE_METADATA: u32 = 1 << 4;

/// Bytes of the authentication nonce ("scramble") in the handshake.
pub const NONCE_BYTES: usize = 20;
/// MySQL's `MYSQL_ERRMSG_SIZE`: error messages are cut to this many bytes.
pub const ERRMSG_MAX_BYTES: usize = 512;

/// First bytes of server packets.
pub const OK_HEADER: u8 = 0x00;
pub const EOF_HEADER: u8 = 0xFE;
pub const ERR_HEADER: u8 = 0xFF;
pub const LOCAL_INFILE_HEADER: u8 = 0xFB;
/// The NULL marker of a text row.
pub const NULL_MARKER: u8 = 0xFB;

// ───────────────────────────── handshake ─────────────────────────────

/// Writes the server's greeting (Protocol::HandshakeV10):
///
/// ```text
/// 0x0a | server_version NUL | conn_id u32 | nonce[0..8] | 0x00 | caps low u16 |
/// collation u8 | status u16 | caps high u16 | 21 (nonce len + NUL) | 6 × 0x00 |
/// MariaDB extended caps u32 | nonce[8..20] 0x00 | auth_plugin NUL
/// ```
pub fn write_handshake_v10(
    w: &mut PacketWriter,
    server_version: &str,
    conn_id: u32,
    nonce: &[u8; NONCE_BYTES],
    collation_id: u8,
    status: StatusFlags,
    auth_plugin: &str,
) {
    let caps = SERVER_CAPABILITIES.bits();
    w.begin();
    w.put_u8(10);
    w.put_nul_str(server_version.as_bytes());
    w.put_u32_le(conn_id);
    w.put_bytes(&nonce[..8]);
    w.put_u8(0);
    w.put_u16_le(caps as u16);
    w.put_u8(collation_id);
    w.put_u16_le(status.bits());
    w.put_u16_le((caps >> 16) as u16);
    w.put_u8(NONCE_BYTES as u8 + 1);
    w.put_bytes(&[0; 6]);
    w.put_u32_le(SERVER_EXT_CAPABILITIES);
    w.put_bytes(&nonce[8..]);
    w.put_u8(0);
    w.put_nul_str(auth_plugin.as_bytes());
    w.end();
}

/// The client's answer to the greeting (Protocol::HandshakeResponse41).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandshakeResponse {
    /// The capabilities as the client sent them (they decide the layout of this packet);
    /// the session uses `capabilities & SERVER_CAPABILITIES`.
    pub capabilities: CapabilityFlags,
    pub max_packet: u32,
    pub collation_id: u8,
    pub user: String,
    pub auth_response: Vec<u8>,
    /// The schema to use, if the client asked for one (empty → `None`).
    pub database: Option<String>,
    /// The plugin that produced `auth_response` (`None` without CLIENT_PLUGIN_AUTH).
    pub auth_plugin: Option<String>,
    /// Connection attributes (`_client_name`, `_os`, …), in the order sent (at most
    /// [`CONNECT_ATTRS_MAX`]).
    pub attrs: Vec<(String, String)>,
    /// MariaDB extended capabilities the client sent (the last 4 filler bytes; 0 from
    /// MySQL clients).
    pub ext_capabilities: u32,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Parses Protocol::HandshakeResponse41:
///
/// ```text
/// caps u32 | max_packet u32 | collation u8 | 23 × filler | user NUL |
/// auth: lenenc (PLUGIN_AUTH_LENENC_CLIENT_DATA) / u8 len (SECURE_CONNECTION) / NUL |
/// [database NUL (CONNECT_WITH_DB)] | [plugin NUL (PLUGIN_AUTH)] |
/// [attrs: lenenc total, then (lenenc key, lenenc value)* (CONNECT_ATTRS)]
/// ```
///
/// A 32-byte packet with CLIENT_SSL is an SSLRequest: [`ProtoError::SslRequested`].
/// Pre-4.1 clients (no CLIENT_PROTOCOL_41) are refused as MySQL 8.0 does.
pub fn parse_handshake_response(payload: &[u8]) -> Result<HandshakeResponse, ProtoError> {
    use CapabilityFlags as C;
    let mut c = Cursor::new(payload);
    let caps = C::from_bits_truncate(c.u32()?);
    if !caps.contains(C::CLIENT_PROTOCOL_41) {
        return Err(ProtoError::Malformed("client does not speak protocol 4.1"));
    }
    let max_packet = c.u32()?;
    let collation_id = c.u8()?;
    c.skip(19)?;
    let ext_capabilities = c.u32()?;
    if c.is_empty() && caps.contains(C::CLIENT_SSL) {
        return Err(ProtoError::SslRequested);
    }
    let user = lossy(c.nul_str()?);
    let auth_response = if caps.contains(C::CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) {
        c.lenenc_bytes()?
    } else if caps.contains(C::CLIENT_SECURE_CONNECTION) {
        let n = c.u8()?;
        c.bytes(n as usize)?
    } else {
        c.nul_str_or_rest()
    }
    .to_vec();
    let mut database = None;
    if caps.contains(C::CLIENT_CONNECT_WITH_DB) && !c.is_empty() {
        let db = c.nul_str_or_rest();
        if !db.is_empty() {
            database = Some(lossy(db));
        }
    }
    let mut auth_plugin = None;
    if caps.contains(C::CLIENT_PLUGIN_AUTH) && !c.is_empty() {
        auth_plugin = Some(lossy(c.nul_str_or_rest()));
    }
    let attrs = if caps.contains(C::CLIENT_CONNECT_ATTRS) && !c.is_empty() {
        parse_attrs(&mut c)?
    } else {
        Vec::new()
    };
    Ok(HandshakeResponse {
        capabilities: caps,
        max_packet,
        collation_id,
        user,
        auth_response,
        database,
        auth_plugin,
        attrs,
        ext_capabilities,
    })
}

/// Connection attributes kept per connection; more are ignored (MySQL likewise truncates
/// to `performance_schema_session_connect_attrs_size` and counts the loss).
pub const CONNECT_ATTRS_MAX: usize = 64;

fn parse_attrs(c: &mut Cursor<'_>) -> Result<Vec<(String, String)>, ProtoError> {
    let mut attrs = Cursor::new(c.lenenc_bytes()?);
    let mut out = Vec::new();
    while !attrs.is_empty() && out.len() < CONNECT_ATTRS_MAX {
        let k = attrs.lenenc_bytes()?;
        let v = attrs.lenenc_bytes()?;
        out.push((lossy(k), lossy(v)));
    }
    Ok(out)
}

/// Protocol::AuthSwitchRequest: `0xFE | plugin NUL | nonce | 0x00`.
pub fn write_auth_switch(w: &mut PacketWriter, plugin: &str, nonce: &[u8; NONCE_BYTES]) {
    w.begin();
    w.put_u8(EOF_HEADER);
    w.put_nul_str(plugin.as_bytes());
    w.put_bytes(nonce);
    w.put_u8(0);
    w.end();
}

/// Protocol::AuthMoreData: `0x01 | data`.
pub fn write_auth_more_data(w: &mut PacketWriter, data: &[u8]) {
    w.begin();
    w.put_u8(0x01);
    w.put_bytes(data);
    w.end();
}

// ───────────────────────────── OK / ERR / EOF ─────────────────────────────

/// OK_Packet: `0x00 | affected lenenc | last_insert_id lenenc | status u16 | warnings u16 |
/// [info lenenc]`. The info string is written length-encoded, as MySQL and MariaDB servers
/// do (and as libmysql/libmariadb read it), and only when non-empty.
pub fn write_ok(
    w: &mut PacketWriter,
    caps: CapabilityFlags,
    affected_rows: u64,
    last_insert_id: u64,
    status: StatusFlags,
    warnings: u16,
    info: &str,
) {
    write_ok_with_header(
        w,
        OK_HEADER,
        caps,
        affected_rows,
        last_insert_id,
        status,
        warnings,
        info,
    );
}

#[allow(clippy::too_many_arguments)]
fn write_ok_with_header(
    w: &mut PacketWriter,
    header: u8,
    caps: CapabilityFlags,
    affected_rows: u64,
    last_insert_id: u64,
    status: StatusFlags,
    warnings: u16,
    info: &str,
) {
    w.begin();
    w.put_u8(header);
    w.put_lenenc_int(affected_rows);
    w.put_lenenc_int(last_insert_id);
    if caps.contains(CapabilityFlags::CLIENT_PROTOCOL_41) {
        w.put_u16_le(status.bits());
        w.put_u16_le(warnings);
    } else if caps.contains(CapabilityFlags::CLIENT_TRANSACTIONS) {
        w.put_u16_le(status.bits());
    }
    if !info.is_empty() {
        w.put_lenenc_bytes(info.as_bytes());
    }
    w.end();
}

/// EOF_Packet: `0xFE | warnings u16 | status u16` (the order is the reverse of OK's).
pub fn write_eof(w: &mut PacketWriter, caps: CapabilityFlags, warnings: u16, status: StatusFlags) {
    w.begin();
    w.put_u8(EOF_HEADER);
    if caps.contains(CapabilityFlags::CLIENT_PROTOCOL_41) {
        w.put_u16_le(warnings);
        w.put_u16_le(status.bits());
    }
    w.end();
}

/// Where the protocol has an EOF packet: an EOF, or under CLIENT_DEPRECATE_EOF an OK packet
/// with the 0xFE header (affected rows and insert id 0), as MySQL 5.7.5+ sends.
pub fn write_eof_or_ok(
    w: &mut PacketWriter,
    caps: CapabilityFlags,
    status: StatusFlags,
    warnings: u16,
) {
    if caps.contains(CapabilityFlags::CLIENT_DEPRECATE_EOF) {
        write_ok_with_header(w, EOF_HEADER, caps, 0, 0, status, warnings, "");
    } else {
        write_eof(w, caps, warnings, status);
    }
}

/// The end of a result set (after the last row): [`write_eof_or_ok`]. Set
/// `SERVER_MORE_RESULTS_EXISTS` in `status` when another result follows.
#[inline]
pub fn write_result_end(
    w: &mut PacketWriter,
    caps: CapabilityFlags,
    status: StatusFlags,
    warnings: u16,
) {
    write_eof_or_ok(w, caps, status, warnings);
}

/// ERR_Packet: `0xFF | code u16 | ['#' sqlstate(5)] | message`. The SQLSTATE marker is sent
/// under CLIENT_PROTOCOL_41 (pass `CapabilityFlags::empty()` before the handshake, e.g. for
/// "Too many connections"). The message is cut to [`ERRMSG_MAX_BYTES`] at a character
/// boundary.
pub fn write_err(
    w: &mut PacketWriter,
    caps: CapabilityFlags,
    code: u16,
    sqlstate: &str,
    message: &str,
) {
    w.begin();
    w.put_u8(ERR_HEADER);
    w.put_u16_le(code);
    if caps.contains(CapabilityFlags::CLIENT_PROTOCOL_41) {
        w.put_u8(b'#');
        let s = sqlstate.as_bytes();
        if s.len() == 5 {
            w.put_bytes(s);
        } else {
            w.put_bytes(b"HY000");
        }
    }
    let mut end = message.len().min(ERRMSG_MAX_BYTES);
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    w.put_bytes(&message.as_bytes()[..end]);
    w.end();
}

/// [`write_err`] for a [`MyError`].
pub fn write_my_error(w: &mut PacketWriter, caps: CapabilityFlags, e: &MyError) {
    write_err(w, caps, e.code, e.state, &e.message);
}

// ───────────────────────────── result sets ─────────────────────────────

/// The column-count packet that opens a result set.
pub fn write_column_count(w: &mut PacketWriter, count: u64) {
    w.begin();
    w.put_lenenc_int(count);
    w.end();
}

fn put_column_def_body(buf: &mut Vec<u8>, col: &ColumnMeta) {
    let names = [
        col.schema.as_bytes(),
        col.table.as_bytes(),
        col.org_table.as_bytes(),
        col.name.as_bytes(),
        col.org_name.as_bytes(),
    ];
    buf.reserve(4 + 13 + names.iter().map(|n| n.len() + 9).sum::<usize>());
    buf.extend_from_slice(b"\x03def");
    for n in names {
        put_lenenc_int(buf, n.len() as u64);
        buf.extend_from_slice(n);
    }
    let mut fixed = [0u8; 13];
    fixed[0] = 0x0c;
    fixed[1..3].copy_from_slice(&col.charset.to_le_bytes());
    fixed[3..7].copy_from_slice(&col.length.to_le_bytes());
    fixed[7] = col.column_type as u8;
    fixed[8..10].copy_from_slice(&col.flags.bits().to_le_bytes());
    fixed[10] = col.decimals;
    // fixed[11..13]: filler
    buf.extend_from_slice(&fixed);
}

/// Protocol::ColumnDefinition41:
///
/// ```text
/// "def" | schema | table | org_table | name | org_name   (all lenenc strings)
/// 0x0c | charset u16 | length u32 | type u8 | flags u16 | decimals u8 | 0x00 0x00
/// ```
pub fn write_column_def(w: &mut PacketWriter, col: &ColumnMeta) {
    w.begin();
    put_column_def_body(w.buf_mut(), col);
    w.end();
}

/// A column definition in the answer to COM_FIELD_LIST, which carries one more field: the
/// column default (lenenc string, or 0xFB for none). End the list with
/// [`write_eof_or_ok`].
pub fn write_field_list_column(w: &mut PacketWriter, col: &ColumnMeta, default: Option<&[u8]>) {
    w.begin();
    let buf = w.buf_mut();
    put_column_def_body(buf, col);
    match default {
        Some(d) => put_lenenc_bytes(buf, d),
        None => buf.push(NULL_MARKER),
    }
    w.end();
}

/// The head of a result set: column count, one definition per column, and — only when
/// CLIENT_DEPRECATE_EOF was not negotiated — an EOF packet. Rows follow
/// ([`write_text_row`] / [`write_binary_row`](super::binary::write_binary_row)), then
/// [`write_result_end`].
pub fn write_result_header(
    w: &mut PacketWriter,
    caps: CapabilityFlags,
    cols: &[ColumnMeta],
    status: StatusFlags,
) {
    write_result_header_meta(w, caps, Metadata::Plain, cols, status)
}

/// Whether a result set's column count carries MariaDB's "metadata follows" byte, and its
/// value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metadata {
    /// No MARIADB_CLIENT_CACHE_METADATA: count, then the definitions.
    Plain,
    /// Negotiated, and the definitions follow (marker 1).
    Send,
    /// Negotiated, and the client already has them (marker 0): count, then straight to the
    /// (EOF and) rows.
    Skip,
}

/// [`write_result_header`] with MariaDB's metadata marker.
pub fn write_result_header_meta(
    w: &mut PacketWriter,
    caps: CapabilityFlags,
    meta: Metadata,
    cols: &[ColumnMeta],
    status: StatusFlags,
) {
    w.begin();
    w.put_lenenc_int(cols.len() as u64);
    match meta {
        Metadata::Plain => {}
        Metadata::Send => w.put_u8(1),
        Metadata::Skip => w.put_u8(0),
    }
    w.end();
    if meta != Metadata::Skip {
        for col in cols {
            write_column_def(w, col);
        }
    }
    if !caps.contains(CapabilityFlags::CLIENT_DEPRECATE_EOF) {
        write_eof(w, caps, 0, status);
    }
}

/// Column definitions encoded once, for result sets whose metadata does not change from
/// one execution to the next (a prepared statement, a cached plan): writing them is then
/// one copy per column instead of re-encoding six strings. The header of a point select
/// is most of its response, so this matters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncodedColumns {
    /// The column-definition payloads, back to back.
    payloads: Vec<u8>,
    /// End offset of each payload in `payloads`.
    ends: Vec<usize>,
}

impl EncodedColumns {
    pub fn new(cols: &[ColumnMeta]) -> EncodedColumns {
        let mut e = EncodedColumns {
            payloads: Vec::new(),
            ends: Vec::with_capacity(cols.len()),
        };
        for col in cols {
            put_column_def_body(&mut e.payloads, col);
            e.ends.push(e.payloads.len());
        }
        e
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn payloads(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(self.ends.iter().copied())
            .map(|(s, e)| self.payloads.get(s..e).unwrap_or_default())
    }
}

/// [`write_result_header`] with pre-encoded column definitions.
pub fn write_result_header_encoded(
    w: &mut PacketWriter,
    caps: CapabilityFlags,
    cols: &EncodedColumns,
    status: StatusFlags,
) {
    write_column_count(w, cols.len() as u64);
    for payload in cols.payloads() {
        w.packet(payload);
    }
    if !caps.contains(CapabilityFlags::CLIENT_DEPRECATE_EOF) {
        write_eof(w, caps, 0, status);
    }
}

/// A text-protocol row: per column 0xFB for NULL or a length-encoded string formatted by
/// [`to_text`] for the column's type. Strings go straight into the output buffer; other
/// values are formatted in place (see [`put_lenenc_with`]): one copy, no allocation.
pub fn write_text_row(w: &mut PacketWriter, values: &[Value], types: &[SqlType]) {
    debug_assert_eq!(values.len(), types.len(), "text row: values vs types");
    w.begin();
    let buf = w.buf_mut();
    for (v, ty) in values.iter().zip(types) {
        match v {
            Value::Null => buf.push(NULL_MARKER),
            Value::Bytes(b) if ty.is_string() => put_lenenc_bytes(buf, b),
            v => put_lenenc_with(buf, |out| to_text(v, ty, out)),
        }
    }
    w.end();
}

// ───────────────────────────── commands ─────────────────────────────

/// The command payload after its command byte.
fn body(payload: &[u8]) -> Cursor<'_> {
    let mut c = Cursor::new(payload);
    let _ = c.u8();
    c
}

/// COM_QUERY: the statement text (the rest of the packet).
pub fn parse_com_query(payload: &[u8]) -> &[u8] {
    body(payload).rest()
}

/// COM_INIT_DB: the schema name (the rest of the packet).
pub fn parse_com_init_db(payload: &[u8]) -> &[u8] {
    body(payload).rest()
}

/// COM_FIELD_LIST: `table NUL | wildcard (rest)`.
pub fn parse_com_field_list(payload: &[u8]) -> Result<(&[u8], &[u8]), ProtoError> {
    let mut c = body(payload);
    let table = c.nul_str_or_rest();
    Ok((table, c.rest()))
}

/// COM_PROCESS_KILL: the connection id (u32).
pub fn parse_com_process_kill(payload: &[u8]) -> Result<u32, ProtoError> {
    body(payload).u32()
}

/// The statement id of COM_STMT_EXECUTE / CLOSE / RESET / SEND_LONG_DATA / FETCH.
pub fn parse_stmt_id(payload: &[u8]) -> Result<u32, ProtoError> {
    body(payload).u32()
}

/// COM_SET_OPTION: 0 = MYSQL_OPTION_MULTI_STATEMENTS_ON, 1 = OFF. Answer with
/// [`write_eof_or_ok`] (MySQL sends an EOF here).
pub fn parse_com_set_option(payload: &[u8]) -> Result<u16, ProtoError> {
    body(payload).u16()
}

/// COM_CHANGE_USER.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChangeUser {
    pub user: String,
    pub auth_response: Vec<u8>,
    pub database: Option<String>,
    pub collation_id: Option<u16>,
    pub auth_plugin: Option<String>,
    pub attrs: Vec<(String, String)>,
}

/// COM_CHANGE_USER: `user NUL | auth (u8 len under SECURE_CONNECTION, else NUL) |
/// database NUL | [collation u16] | [plugin NUL (PLUGIN_AUTH)] | [attrs (CONNECT_ATTRS)]`,
/// laid out per the connection's negotiated capabilities. The new credentials are checked
/// against the nonce of the original handshake ([`super::auth::change_user`]).
pub fn parse_change_user(payload: &[u8], caps: CapabilityFlags) -> Result<ChangeUser, ProtoError> {
    use CapabilityFlags as C;
    let mut c = body(payload);
    let user = lossy(c.nul_str()?);
    let auth_response = if caps.contains(C::CLIENT_SECURE_CONNECTION) {
        let n = c.u8()?;
        c.bytes(n as usize)?
    } else {
        c.nul_str_or_rest()
    }
    .to_vec();
    let db = c.nul_str_or_rest();
    let database = (!db.is_empty()).then(|| lossy(db));
    let mut out = ChangeUser {
        user,
        auth_response,
        database,
        ..ChangeUser::default()
    };
    if c.remaining() >= 2 {
        out.collation_id = Some(c.u16()?);
    }
    if caps.contains(C::CLIENT_PLUGIN_AUTH) && !c.is_empty() {
        out.auth_plugin = Some(lossy(c.nul_str_or_rest()));
    }
    if caps.contains(C::CLIENT_CONNECT_ATTRS) && !c.is_empty() {
        out.attrs = parse_attrs(&mut c)?;
    }
    Ok(out)
}

/// LOAD DATA LOCAL INFILE: ask the client for a file (`0xFB | filename`). The client
/// answers with the file's bytes in packets, then an empty packet (read them with the
/// reader's sequence continuing from this packet's).
pub fn write_local_infile_request(w: &mut PacketWriter, filename: &[u8]) {
    w.begin();
    w.put_u8(LOCAL_INFILE_HEADER);
    w.put_bytes(filename);
    w.end();
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::sql::types::{Collation, IntWidth};
    use crate::sql::value::DateTime;
    use mysql_common::constants::{ColumnFlags, ColumnType};
    use mysql_common::io::ParseBuf;
    use mysql_common::packets::{
        Column, CommonOkPacket, ErrPacket, HandshakePacket, OkPacketDeserializer,
        ResultSetTerminator,
    };
    use mysql_common::proto::{MyDeserialize, MySerialize};
    use std::collections::HashMap;

    /// Payloads of the packets buffered in `w`.
    pub(crate) fn payloads(w: &PacketWriter) -> Vec<Vec<u8>> {
        split(w.buffered())
    }

    /// Splits a byte stream into packet payloads (no continuation handling needed here).
    pub(crate) fn split(mut b: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        while b.len() >= 4 {
            let len = u32::from_le_bytes([b[0], b[1], b[2], 0]) as usize;
            out.push(b[4..4 + len].to_vec());
            b = &b[4 + len..];
        }
        assert!(b.is_empty());
        out
    }

    const CAPS41: CapabilityFlags = CapabilityFlags::CLIENT_PROTOCOL_41;
    const DEPRECATE: CapabilityFlags = CAPS41.union(CapabilityFlags::CLIENT_DEPRECATE_EOF);

    #[test]
    fn handshake_layout() {
        let mut w = PacketWriter::new();
        let nonce: [u8; 20] = *b"abcdefghijklmnopqrst";
        write_handshake_v10(
            &mut w,
            "8.0.36-quire",
            7,
            &nonce,
            45,
            StatusFlags::SERVER_STATUS_AUTOCOMMIT,
            "caching_sha2_password",
        );
        let p = &payloads(&w)[0];
        // mysql_common's client-side parser must read what we meant.
        let hs = HandshakePacket::deserialize((), &mut ParseBuf(p)).unwrap();
        assert_eq!(hs.protocol_version(), 10);
        assert_eq!(hs.server_version_ref(), b"8.0.36-quire");
        assert_eq!(hs.connection_id(), 7);
        assert_eq!(hs.nonce(), nonce.to_vec());
        assert_eq!(hs.capabilities(), SERVER_CAPABILITIES);
        assert_eq!(hs.default_collation(), 45);
        assert_eq!(hs.status_flags(), StatusFlags::SERVER_STATUS_AUTOCOMMIT);
        assert_eq!(
            hs.auth_plugin_name_ref(),
            Some(&b"caching_sha2_password"[..])
        );
        // And byte by byte, the parts mysql_common does not expose.
        let mut c = Cursor::new(p);
        c.skip(1 + 13 + 4 + 8 + 1 + 2 + 1 + 2 + 2).unwrap();
        assert_eq!(c.u8().unwrap(), 21);
        assert_eq!(c.bytes(6).unwrap(), &[0; 6]);
        assert_eq!(
            c.u32().unwrap(),
            SERVER_EXT_CAPABILITIES,
            "MariaDB extended capabilities"
        );
        assert_eq!(c.bytes(13).unwrap(), b"ijklmnopqrst\0");
        // Bit 0 is MariaDB's CLIENT_MYSQL: clear, so MariaDB clients read the extended bits.
        assert!(!SERVER_CAPABILITIES.contains(CapabilityFlags::CLIENT_LONG_PASSWORD));
        assert!(!SERVER_CAPABILITIES.contains(CapabilityFlags::CLIENT_SSL));
        assert!(!SERVER_CAPABILITIES.contains(CapabilityFlags::CLIENT_COMPRESS));
        assert!(!SERVER_CAPABILITIES.contains(CapabilityFlags::CLIENT_SESSION_TRACK));
    }

    fn client_response(
        caps: CapabilityFlags,
        db: Option<&str>,
        plugin: bool,
        attrs: bool,
    ) -> Vec<u8> {
        let attrs = attrs.then(|| {
            HashMap::from([
                ("_client_name".to_string(), "libmariadb".to_string()),
                ("_os".to_string(), "Linux".to_string()),
            ])
        });
        let resp = mysql_common::packets::HandshakeResponse::new(
            Some(&b"\x01\x02\x03scramble-twenty-b"[..]),
            (8, 0, 36),
            Some(&b"root"[..]),
            db.map(|d| d.as_bytes()),
            plugin.then_some(mysql_common::packets::AuthPlugin::MysqlNativePassword),
            caps,
            attrs,
            16 << 20,
        );
        let mut out = Vec::new();
        resp.serialize(&mut out);
        out
    }

    #[test]
    fn handshake_response_variants() {
        use CapabilityFlags as C;
        let base = C::CLIENT_PROTOCOL_41 | C::CLIENT_LONG_PASSWORD | C::CLIENT_TRANSACTIONS;
        for auth_kind in [
            C::CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | C::CLIENT_SECURE_CONNECTION,
            C::CLIENT_SECURE_CONNECTION,
            C::empty(),
        ] {
            for db in [None, Some("test")] {
                for plugin in [false, true] {
                    for attrs in [false, true] {
                        if auth_kind.is_empty() && (plugin || attrs) {
                            // NUL-terminated scrambles only exist in pre-plugin clients.
                            continue;
                        }
                        let bytes = client_response(base | auth_kind, db, plugin, attrs);
                        let r = parse_handshake_response(&bytes).unwrap();
                        assert_eq!(r.user, "root");
                        assert_eq!(r.auth_response, b"\x01\x02\x03scramble-twenty-b");
                        assert_eq!(r.database.as_deref(), db);
                        assert_eq!(r.max_packet, 16 << 20);
                        assert_eq!(r.collation_id, 45);
                        assert_eq!(
                            r.auth_plugin.as_deref(),
                            plugin.then_some("mysql_native_password")
                        );
                        if attrs {
                            let mut a = r.attrs.clone();
                            a.sort();
                            assert_eq!(
                                a,
                                vec![
                                    ("_client_name".into(), "libmariadb".into()),
                                    ("_os".into(), "Linux".into())
                                ]
                            );
                        } else {
                            assert!(r.attrs.is_empty());
                        }
                        // No truncation panics; cutting into the user or scramble fails.
                        for cut in 0..bytes.len() {
                            let res = parse_handshake_response(&bytes[..cut]);
                            let strict_until = if auth_kind.is_empty() {
                                32 + 5
                            } else {
                                32 + 5 + 1 + 20
                            };
                            if cut < strict_until {
                                assert!(res.is_err(), "cut {cut} parsed");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn connect_attrs_are_bounded() {
        let mut bytes = client_response(SERVER_CAPABILITIES, None, true, false);
        let mut attrs = Vec::new();
        for _ in 0..10_000 {
            attrs.extend_from_slice(b"\x01k\x01v");
        }
        bytes.extend_from_slice(&[0xFD]);
        bytes.extend_from_slice(&(attrs.len() as u32).to_le_bytes()[..3]);
        bytes.extend_from_slice(&attrs);
        let mut caps =
            CapabilityFlags::from_bits_truncate(u32::from_le_bytes(bytes[..4].try_into().unwrap()));
        caps |= CapabilityFlags::CLIENT_CONNECT_ATTRS;
        bytes[..4].copy_from_slice(&caps.bits().to_le_bytes());
        let r = parse_handshake_response(&bytes).unwrap();
        assert_eq!(r.attrs.len(), CONNECT_ATTRS_MAX);
    }

    #[test]
    fn ssl_request_and_old_clients_are_refused() {
        use CapabilityFlags as C;
        let mut ssl = Vec::new();
        let caps = C::CLIENT_PROTOCOL_41 | C::CLIENT_SSL | C::CLIENT_SECURE_CONNECTION;
        ssl.extend_from_slice(&caps.bits().to_le_bytes());
        ssl.extend_from_slice(&(16u32 << 20).to_le_bytes());
        ssl.push(45);
        ssl.extend_from_slice(&[0; 23]);
        assert_eq!(ssl.len(), 32);
        let e = parse_handshake_response(&ssl).unwrap_err();
        assert_eq!(e, ProtoError::SslRequested);
        assert_eq!(e.to_my_error().code, 1043);
        // Pre-4.1 response.
        // 2-byte capabilities without CLIENT_PROTOCOL_41, 3-byte max packet, user.
        let old = [0x85, 0x24, 0x00, 0x00, 0x00, b'r', 0];
        assert!(matches!(
            parse_handshake_response(&old),
            Err(ProtoError::Malformed(_))
        ));
    }

    #[test]
    fn ok_packet_reads_back() {
        let mut w = PacketWriter::new();
        let status = StatusFlags::SERVER_STATUS_AUTOCOMMIT | StatusFlags::SERVER_STATUS_IN_TRANS;
        write_ok(
            &mut w,
            CAPS41,
            300,
            70_000,
            status,
            2,
            "Records: 2  Duplicates: 0  Warnings: 0",
        );
        write_ok(&mut w, CAPS41, 0, 0, status, 0, "");
        let p = payloads(&w);
        let ok = OkPacketDeserializer::<CommonOkPacket>::deserialize(CAPS41, &mut ParseBuf(&p[0]))
            .unwrap()
            .into_inner();
        assert_eq!(ok.affected_rows(), 300);
        assert_eq!(ok.last_insert_id(), Some(70_000));
        assert_eq!(ok.status_flags(), status);
        assert_eq!(ok.warnings(), 2);
        assert_eq!(p[0][0], 0);
        // The info string is length-encoded, as MySQL writes it.
        assert_eq!(&p[0][1 + 3 + 4 + 4..][..1], &[38]);
        assert_eq!(
            &p[0][1 + 3 + 4 + 4 + 1..],
            b"Records: 2  Duplicates: 0  Warnings: 0"
        );
        assert_eq!(p[1], [0, 0, 0, 3, 0, 0, 0]);
    }

    #[test]
    fn eof_or_ok_by_capabilities() {
        let status =
            StatusFlags::SERVER_STATUS_AUTOCOMMIT | StatusFlags::SERVER_MORE_RESULTS_EXISTS;
        let mut w = PacketWriter::new();
        write_result_end(&mut w, CAPS41, status, 1);
        write_result_end(&mut w, DEPRECATE, status, 1);
        let p = payloads(&w);
        assert_eq!(p[0], [0xFE, 1, 0, 0x0A, 0]);
        assert_eq!(p[1], [0xFE, 0, 0, 0x0A, 0, 1, 0]);
        let ok = OkPacketDeserializer::<ResultSetTerminator>::deserialize(
            DEPRECATE,
            &mut ParseBuf(&p[1]),
        )
        .unwrap()
        .into_inner();
        assert_eq!(ok.status_flags(), status);
        assert_eq!(ok.warnings(), 1);
    }

    #[test]
    fn err_packet_and_truncation() {
        let mut w = PacketWriter::new();
        write_err(
            &mut w,
            CAPS41,
            1146,
            "42S02",
            "Table 'test.t' doesn't exist",
        );
        write_err(
            &mut w,
            CapabilityFlags::empty(),
            1040,
            "08004",
            "Too many connections",
        );
        let long = "é".repeat(400); // 800 bytes, 2-byte characters
        write_err(&mut w, CAPS41, 1064, "42000", &long);
        write_my_error(
            &mut w,
            CAPS41,
            &MyError::new(1062, "Duplicate entry '1' for key 'PRIMARY'"),
        );
        let p = payloads(&w);
        let e = ErrPacket::deserialize(CAPS41, &mut ParseBuf(&p[0])).unwrap();
        let e = e.server_error();
        assert_eq!(e.error_code(), 1146);
        assert_eq!(e.sql_state_ref().unwrap().as_str(), "42S02");
        assert_eq!(e.message_str(), "Table 'test.t' doesn't exist");
        assert_eq!(p[1], b"\xFF\x10\x04Too many connections");
        let msg = &p[2][9..];
        assert_eq!(msg.len(), 512);
        assert!(std::str::from_utf8(msg).is_ok());
        assert_eq!(&p[3][3..9], b"#23000");
    }

    fn int_col(name: &str) -> ColumnMeta {
        let mut c = ColumnMeta::for_type(&SqlType::BIGINT_UNSIGNED, false);
        c.name = name.into();
        c.org_name = "id".into();
        c.table = "t1".into();
        c.org_table = "t".into();
        c.schema = "test".into();
        c
    }

    #[test]
    fn column_definitions_read_back() {
        let cols = vec![
            int_col("a"),
            ColumnMeta::expr(
                "b",
                &SqlType::Decimal {
                    precision: 10,
                    scale: 2,
                    unsigned: false,
                },
                true,
            ),
            ColumnMeta::expr("c", &SqlType::varchar(20), true),
        ];
        for caps in [CAPS41, DEPRECATE] {
            let mut w = PacketWriter::new();
            w.set_seq(1);
            write_result_header(&mut w, caps, &cols, StatusFlags::SERVER_STATUS_AUTOCOMMIT);
            let p = payloads(&w);
            let eof = !caps.contains(CapabilityFlags::CLIENT_DEPRECATE_EOF);
            assert_eq!(p.len(), 1 + 3 + eof as usize);
            assert_eq!(p[0], [3]);
            let c0 = Column::deserialize((), &mut ParseBuf(&p[1])).unwrap();
            assert_eq!(c0.schema_ref(), b"test");
            assert_eq!(c0.table_ref(), b"t1");
            assert_eq!(c0.org_table_ref(), b"t");
            assert_eq!(c0.name_ref(), b"a");
            assert_eq!(c0.org_name_ref(), b"id");
            assert_eq!(c0.column_type(), ColumnType::MYSQL_TYPE_LONGLONG);
            assert_eq!(c0.character_set(), 63);
            assert_eq!(c0.column_length(), 20);
            assert!(
                c0.flags()
                    .contains(ColumnFlags::UNSIGNED_FLAG | ColumnFlags::NOT_NULL_FLAG)
            );
            let c1 = Column::deserialize((), &mut ParseBuf(&p[2])).unwrap();
            assert_eq!(c1.column_type(), ColumnType::MYSQL_TYPE_NEWDECIMAL);
            assert_eq!(c1.decimals(), 2);
            let c2 = Column::deserialize((), &mut ParseBuf(&p[3])).unwrap();
            assert_eq!(c2.character_set(), Collation::Utf8mb4GeneralCi.id());
            assert_eq!(c2.column_length(), 80);
            if eof {
                assert_eq!(p[4], [0xFE, 0, 0, 2, 0]);
            }
            assert_eq!(w.seq(), 1 + p.len() as u8);
        }
    }

    #[test]
    fn encoded_columns_write_the_same_bytes() {
        let cols = vec![
            int_col("a"),
            ColumnMeta::expr("b", &SqlType::varchar(300), true),
            ColumnMeta::expr("", &SqlType::Null, true),
        ];
        let enc = EncodedColumns::new(&cols);
        assert_eq!(enc.len(), 3);
        for caps in [CAPS41, DEPRECATE] {
            let mut a = PacketWriter::new();
            let mut b = PacketWriter::new();
            a.set_seq(1);
            b.set_seq(1);
            write_result_header(&mut a, caps, &cols, StatusFlags::SERVER_STATUS_AUTOCOMMIT);
            write_result_header_encoded(&mut b, caps, &enc, StatusFlags::SERVER_STATUS_AUTOCOMMIT);
            assert_eq!(a.buffered(), b.buffered());
            assert_eq!(a.seq(), b.seq());
        }
        let empty = EncodedColumns::new(&[]);
        assert!(empty.is_empty());
    }

    #[test]
    fn field_list_column_has_default() {
        let mut w = PacketWriter::new();
        write_field_list_column(&mut w, &int_col("a"), None);
        write_field_list_column(&mut w, &int_col("a"), Some(b"5"));
        let p = payloads(&w);
        assert_eq!(*p[0].last().unwrap(), 0xFB);
        assert_eq!(&p[1][p[1].len() - 2..], b"\x015");
    }

    #[test]
    fn text_rows_read_back() {
        let types = vec![
            SqlType::BIGINT,
            SqlType::varchar(300),
            SqlType::DOUBLE,
            SqlType::Int {
                width: IntWidth::Int,
                unsigned: true,
                zerofill: false,
                display: None,
            },
            SqlType::Date,
            SqlType::Blob {
                size: crate::sql::types::BlobSize::Long,
            },
        ];
        let long = "x".repeat(70_000);
        let values = vec![
            Value::Int(-42),
            Value::str("héllo"),
            Value::Double(2.5),
            Value::Null,
            Value::Date(DateTime::date(2024, 2, 29)),
            Value::str(&long),
        ];
        let mut w = PacketWriter::new();
        write_text_row(&mut w, &values, &types);
        // A non-string value needing a long prefix (formatted in place, then moved).
        write_text_row(&mut w, &[Value::from(long.clone())], &[SqlType::BIGINT]);
        let p = payloads(&w);
        let cols: std::sync::Arc<[Column]> = (0..6)
            .map(|_| Column::new(ColumnType::MYSQL_TYPE_VAR_STRING))
            .collect();
        let row: mysql_common::Row = mysql_common::row::RowDeserializer::<
            (),
            mysql_common::proto::Text,
        >::deserialize(cols, &mut ParseBuf(&p[0]))
        .unwrap()
        .into();
        use mysql_common::Value as V;
        assert_eq!(row.as_ref(0), Some(&V::Bytes(b"-42".to_vec())));
        assert_eq!(row.as_ref(1), Some(&V::Bytes("héllo".as_bytes().to_vec())));
        assert_eq!(row.as_ref(2), Some(&V::Bytes(b"2.5".to_vec())));
        assert_eq!(row.as_ref(3), Some(&V::NULL));
        assert_eq!(row.as_ref(4), Some(&V::Bytes(b"2024-02-29".to_vec())));
        assert_eq!(row.as_ref(5), Some(&V::Bytes(long.as_bytes().to_vec())));
        let mut c = Cursor::new(&p[1]);
        assert_eq!(c.lenenc_bytes().unwrap(), long.as_bytes());
    }

    #[test]
    fn command_payloads() {
        assert_eq!(parse_com_query(b"\x03select 1"), b"select 1");
        assert_eq!(parse_com_query(b""), b"");
        assert_eq!(parse_com_init_db(b"\x02test"), b"test");
        assert_eq!(
            parse_com_field_list(b"\x04t1\0a%").unwrap(),
            (&b"t1"[..], &b"a%"[..])
        );
        assert_eq!(
            parse_com_field_list(b"\x04t1").unwrap(),
            (&b"t1"[..], &b""[..])
        );
        assert_eq!(parse_com_process_kill(b"\x0c\x07\0\0\0").unwrap(), 7);
        assert_eq!(
            parse_com_process_kill(b"\x0c\x07\0"),
            Err(ProtoError::Truncated)
        );
        assert_eq!(parse_stmt_id(b"\x19\x01\x02\0\0").unwrap(), 0x201);
        assert_eq!(parse_stmt_id(b"\x19"), Err(ProtoError::Truncated));
        assert_eq!(parse_com_set_option(b"\x1b\x01\x00").unwrap(), 1);
        let mut w = PacketWriter::new();
        write_local_infile_request(&mut w, b"/tmp/data.csv");
        assert_eq!(payloads(&w)[0], b"\xFB/tmp/data.csv");
    }

    #[test]
    fn change_user_reads_back() {
        use mysql_common::packets::{ComChangeUser, ComChangeUserMoreData};
        let caps = SERVER_CAPABILITIES;
        let pkt = ComChangeUser::new()
            .with_user(Some(&b"bob"[..]))
            .with_database(Some(&b"shop"[..]))
            .with_auth_plugin_data(Some(&[9u8; 20][..]))
            .with_more_data(Some(
                ComChangeUserMoreData::new(255)
                    .with_auth_plugin(Some(mysql_common::packets::AuthPlugin::CachingSha2Password))
                    .with_connect_attributes(Some(HashMap::from([(
                        "k".to_string(),
                        "v".to_string(),
                    )]))),
            ));
        let mut bytes = Vec::new();
        pkt.serialize(&mut bytes);
        let cu = parse_change_user(&bytes, caps).unwrap();
        assert_eq!(cu.user, "bob");
        assert_eq!(cu.auth_response, [9u8; 20]);
        assert_eq!(cu.database.as_deref(), Some("shop"));
        assert_eq!(cu.collation_id, Some(255));
        assert_eq!(cu.auth_plugin.as_deref(), Some("caching_sha2_password"));
        assert_eq!(cu.attrs, vec![("k".into(), "v".into())]);
        for cut in 1..6 {
            assert!(parse_change_user(&bytes[..cut], caps).is_err(), "cut {cut}");
        }
    }
}
