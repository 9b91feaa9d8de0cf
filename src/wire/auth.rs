//! Authentication: password storage, the two password plugins Quire speaks, account
//! matching by host, and the connection-phase exchange as one async function.
//!
//! ## What is stored
//!
//! For each account Quire keeps two hashes and never the password:
//!
//! - `native_stage2 = SHA1(SHA1(password))` — what `mysql_native_password` stores
//!   (`mysql.user.authentication_string` shows it as `*` + 40 hex digits);
//! - `sha2_stage2 = SHA256(SHA256(password))` — what `caching_sha2_password` keeps in its
//!   in-memory cache after a first full authentication.
//!
//! With both, either plugin's scramble can be verified, so one account serves libmariadb
//! (which starts with `mysql_native_password`) and MySQL 8 clients (which start with
//! `caching_sha2_password`) without an extra round trip. The trade-off, said plainly: a
//! stage-2 hash is password-equivalent *for these protocols* — whoever steals it can log in
//! over the wire (this is true of MySQL's `mysql_native_password` and of its
//! `caching_sha2_password` cache too), though it does not reveal the password itself. MySQL
//! protects `caching_sha2_password`'s on-disk form with a salted, iterated SHA-256 crypt
//! and needs TLS or RSA for the first login; Quire trades that for simplicity because it
//! speaks neither TLS nor RSA (see [`super`]). Keep the catalog file private.
//!
//! An empty password is stored as no hashes at all: the client must send an empty auth
//! response (libmysql sends one NUL byte for caching_sha2; both forms are accepted).
//!
//! ## The exchange ([`authenticate`])
//!
//! ```text
//! server: HandshakeV10 (seq 0): fresh 20-byte nonce, default plugin
//! client: HandshakeResponse41 (seq 1): user, scramble made with *its* plugin, db, attrs
//!         (a 32-byte SSLRequest instead → ERR 1043 "Bad handshake")
//! server: pick the account: users named as sent (plus any anonymous '' accounts the
//!         lookup returns), host pattern matching the peer, most specific first
//!   client used mysql_native_password / caching_sha2_password, the account has that
//!   hash (or no password), and the response is not empty
//!                                     → verify the scramble directly
//!   same, but an empty response       → AuthSwitchRequest (0xFE, the client's plugin,
//!     (a client whose plugin is not     same nonce), verify the reply: C clients send an
//!     the greeting's has no scramble)   empty "dummy" and wait for this switch
//!   any other plugin, or no hash for  → AuthSwitchRequest for the account's plugin (or
//!     the client's                      the one a hash exists for), verify the reply
//!   verified with caching_sha2        → AuthMoreData 0x01 0x03 ("fast auth success")
//!   wrong password / no account       → ERR 1045 28000 "Access denied for user 'u'@'h'
//!                                       (using password: YES|NO)", AuthFailure
//! caller: checks the database the client asked for (ER_BAD_DB_ERROR 1049), then writes
//!         the final OK (or ERR) and flushes — one syscall together with 0x01 0x03.
//! ```
//!
//! The caller's side, in full:
//!
//! ```text
//! let login = tokio::time::timeout(connect_timeout,
//!     authenticate(&mut reader, &mut writer, &mut sock_w, &greeting, lookup, &peer)).await;
//! let a = match login { Ok(Ok(a)) => a, _ => { aborted_connects += 1; return } };
//! if let Some(db) = &a.db && !catalog.has_db(db) {
//!     write_my_error(&mut writer, a.capabilities, &MyError::bad_db(db));
//!     let _ = writer.flush(&mut sock_w).await;
//!     aborted_connects += 1;
//!     return;
//! }
//! write_ok(&mut writer, a.capabilities, 0, 0, status, 0, "");
//! writer.flush(&mut sock_w).await?;
//! ```
//!
//! Rules and limits:
//! - caching_sha2_password's *full* authentication (0x01 0x04, then the password over TLS
//!   or RSA-encrypted) is never used: Quire always has the "cache" (the stage-2 hash), so
//!   a wrong scramble is an immediate ERR 1045, exactly as MySQL answers a wrong password
//!   for a cached account.
//! - The AuthSwitchRequest reuses the handshake's nonce, as MySQL does: clients keep that
//!   nonce for a later COM_CHANGE_USER ([`change_user`]), so it must stay the one.
//! - Packets during the handshake are capped at [`HANDSHAKE_MAX_PACKET_BYTES`] whatever
//!   `max_allowed_packet` is: an unauthenticated peer must not make the server buffer
//!   64 MiB.
//! - The whole exchange should run under `connect_timeout` (MySQL: 10 s): the caller wraps
//!   the future in `tokio::time::timeout` and closes the connection when it fires.
//! - Host names are never resolved (as with `skip_name_resolve`): an account's host
//!   pattern is matched against the peer's IP address, and `localhost` matches Unix-socket
//!   peers and loopback addresses.
//! - An unknown user is refused without an auth switch or a delay; that a user does not
//!   exist is therefore observable, as it is for MySQL's `mysql_native_password` users.

use super::packet::{PacketError, PacketReader, PacketWriter, ProtoError};
use super::proto::{
    NONCE_BYTES, SERVER_CAPABILITIES, parse_change_user, parse_handshake_response,
    write_auth_more_data, write_auth_switch, write_err, write_handshake_v10,
};
use crate::error::code;
use mysql_common::constants::{CapabilityFlags, StatusFlags};
use sha1::{Digest, Sha1};
use sha2::Sha256;
use std::fmt;
use std::net::IpAddr;
use tokio::io::{AsyncRead, AsyncWrite};

/// Largest packet accepted before authentication completes.
pub const HANDSHAKE_MAX_PACKET_BYTES: usize = 1 << 20;
/// AuthMoreData status byte: the caching_sha2 scramble matched.
pub const FAST_AUTH_SUCCESS: u8 = 0x03;

/// The password plugins Quire implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AuthPlugin {
    NativePassword,
    CachingSha2Password,
}

impl AuthPlugin {
    pub fn name(self) -> &'static str {
        match self {
            AuthPlugin::NativePassword => "mysql_native_password",
            AuthPlugin::CachingSha2Password => "caching_sha2_password",
        }
    }

    pub fn from_name(name: &str) -> Option<AuthPlugin> {
        match name {
            "mysql_native_password" => Some(AuthPlugin::NativePassword),
            "caching_sha2_password" => Some(AuthPlugin::CachingSha2Password),
            _ => None,
        }
    }
}

impl fmt::Display for AuthPlugin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ───────────────────────────── credentials ─────────────────────────────

/// An account's stored password hashes (see the module doc). No hashes = no password.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    native_stage2: Option<[u8; 20]>,
    sha2_stage2: Option<[u8; 32]>,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print hashes: they are password-equivalent on the wire.
        f.debug_struct("Credentials")
            .field("native", &self.native_stage2.is_some())
            .field("sha2", &self.sha2_stage2.is_some())
            .finish()
    }
}

impl Credentials {
    /// No password.
    pub fn none() -> Credentials {
        Credentials::default()
    }

    /// From stored stage-2 hashes (e.g. loaded from the catalog). An account created from
    /// a `*HEX` native hash has no SHA-256 hash; clients that start with
    /// caching_sha2_password are then switched to mysql_native_password.
    pub fn from_stages(
        native_stage2: Option<[u8; 20]>,
        sha2_stage2: Option<[u8; 32]>,
    ) -> Credentials {
        Credentials {
            native_stage2,
            sha2_stage2,
        }
    }

    /// From MySQL's `*` + 40 hex digits form (`IDENTIFIED WITH mysql_native_password AS
    /// '*…'`); the empty string is no password. `None` if malformed.
    pub fn from_native_hash_text(text: &str) -> Option<Credentials> {
        if text.is_empty() {
            return Some(Credentials::none());
        }
        let hex = text.strip_prefix('*')?.as_bytes();
        if hex.len() != 40 {
            return None;
        }
        let mut out = [0u8; 20];
        for (o, pair) in out.iter_mut().zip(hex.chunks_exact(2)) {
            let hi = (pair[0] as char).to_digit(16)?;
            let lo = (pair[1] as char).to_digit(16)?;
            *o = (hi * 16 + lo) as u8;
        }
        Some(Credentials {
            native_stage2: Some(out),
            sha2_stage2: None,
        })
    }

    pub fn has_password(&self) -> bool {
        self.native_stage2.is_some() || self.sha2_stage2.is_some()
    }

    pub fn native_stage2(&self) -> Option<&[u8; 20]> {
        self.native_stage2.as_ref()
    }

    pub fn sha2_stage2(&self) -> Option<&[u8; 32]> {
        self.sha2_stage2.as_ref()
    }

    /// Can a scramble made by `plugin` be verified?
    pub fn supports(&self, plugin: AuthPlugin) -> bool {
        match plugin {
            AuthPlugin::NativePassword => self.native_stage2.is_some(),
            AuthPlugin::CachingSha2Password => self.sha2_stage2.is_some(),
        }
    }
}

fn sha1(parts: &[&[u8]]) -> [u8; 20] {
    let mut h = Sha1::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// Both stage-2 hashes of `password` (empty password → no hashes).
pub fn credentials_from_password(password: &[u8]) -> Credentials {
    if password.is_empty() {
        return Credentials::none();
    }
    Credentials {
        native_stage2: Some(sha1(&[&sha1(&[password])])),
        sha2_stage2: Some(sha256(&[&sha256(&[password])])),
    }
}

/// MySQL's text form of the native hash: `*` + 40 upper-case hex digits, or "" for no
/// password (for `mysql.user.authentication_string` and `SHOW CREATE USER`).
pub fn native_password_hash_text(creds: &Credentials) -> String {
    match &creds.native_stage2 {
        None => String::new(),
        Some(h) => {
            let mut s = String::with_capacity(41);
            s.push('*');
            for b in h {
                s.push_str(&format!("{b:02X}"));
            }
            s
        }
    }
}

/// Equality without an early exit (the comparison time does not depend on where the
/// first difference is).
fn same<const N: usize>(a: &[u8; N], b: &[u8; N]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// mysql_native_password: the client sends `SHA1(pw) XOR SHA1(nonce + SHA1(SHA1(pw)))`.
/// XOR with `SHA1(nonce + stage2)` recovers `SHA1(pw)`, whose SHA1 must be stage2.
pub fn verify_native(creds: &Credentials, nonce: &[u8; NONCE_BYTES], response: &[u8]) -> bool {
    let Some(stage2) = &creds.native_stage2 else {
        return false;
    };
    let Ok(response) = <&[u8; 20]>::try_from(response) else {
        return false;
    };
    let mask = sha1(&[nonce, stage2]);
    let mut stage1 = [0u8; 20];
    for ((s, r), m) in stage1.iter_mut().zip(response).zip(mask) {
        *s = r ^ m;
    }
    same(&sha1(&[&stage1]), stage2)
}

/// caching_sha2_password's fast path: the client sends
/// `SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + nonce)` (stage2 first, then the nonce — as
/// mysql_common's `scramble_sha256`). XOR with `SHA256(stage2 + nonce)` recovers
/// `SHA256(pw)`, whose SHA256 must be stage2.
pub fn verify_sha2_fast(creds: &Credentials, nonce: &[u8; NONCE_BYTES], response: &[u8]) -> bool {
    let Some(stage2) = &creds.sha2_stage2 else {
        return false;
    };
    let Ok(response) = <&[u8; 32]>::try_from(response) else {
        return false;
    };
    let mask = sha256(&[stage2, nonce]);
    let mut stage1 = [0u8; 32];
    for ((s, r), m) in stage1.iter_mut().zip(response).zip(mask) {
        *s = r ^ m;
    }
    same(&sha256(&[&stage1]), stage2)
}

/// An empty auth response: nothing, or libmysql's single NUL for "no password".
fn is_empty_response(r: &[u8]) -> bool {
    r.is_empty() || r == [0]
}

/// A fresh nonce: 20 random bytes in 1..=127, never NUL or `$` (as MySQL's
/// `generate_user_salt`: clients treat the nonce as a C string).
pub fn new_nonce() -> [u8; NONCE_BYTES] {
    let mut n = [0u8; NONCE_BYTES];
    rand::fill(&mut n[..]);
    for b in &mut n {
        *b &= 0x7f;
        if *b == 0 || *b == b'$' {
            *b += 1;
        }
    }
    n
}

// ───────────────────────────── accounts and hosts ─────────────────────────────

/// Where a connection comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerInfo {
    Tcp(IpAddr),
    Unix,
}

impl PeerInfo {
    /// The peer's IP with IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) folded to IPv4.
    fn ip(&self) -> Option<IpAddr> {
        match self {
            PeerInfo::Unix => None,
            PeerInfo::Tcp(IpAddr::V6(v6)) => Some(
                v6.to_ipv4_mapped()
                    .map(IpAddr::V4)
                    .unwrap_or(IpAddr::V6(*v6)),
            ),
            PeerInfo::Tcp(ip) => Some(*ip),
        }
    }

    /// The host as shown in errors, `USER()` and the processlist: `localhost` for a Unix
    /// socket, otherwise the IP address (names are not resolved).
    pub fn host(&self) -> String {
        match self.ip() {
            None => "localhost".to_string(),
            Some(ip) => ip.to_string(),
        }
    }

    fn is_local(&self) -> bool {
        match self.ip() {
            None => true,
            Some(ip) => ip.is_loopback(),
        }
    }
}

/// One account as the authentication step needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountAuth {
    /// The account's user name ('' = anonymous).
    pub user: String,
    /// The account's host pattern: `localhost`, an IP, `%` / `_` wildcards, `ip/netmask`.
    pub host: String,
    /// The plugin the account was created with (used when the client must be switched).
    pub plugin: AuthPlugin,
    pub credentials: Credentials,
}

/// `LIKE`-style match, ASCII case-insensitive: `%` any run, `_` one byte, `\` escapes.
pub fn wild_match(pattern: &[u8], s: &[u8]) -> bool {
    let (mut p, mut i) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while i < s.len() {
        if let Some(&c) = pattern.get(p) {
            if c == b'%' {
                star = Some((p, i));
                p += 1;
                continue;
            }
            let (lit, step) = match (c, pattern.get(p + 1)) {
                (b'\\', Some(&n)) => (Some(n), 2),
                (b'_', _) => (None, 1),
                (c, _) => (Some(c), 1),
            };
            if lit.is_none_or(|l| l.eq_ignore_ascii_case(&s[i])) {
                p += step;
                i += 1;
                continue;
            }
        }
        match star {
            Some((sp, si)) => {
                p = sp + 1;
                i = si + 1;
                star = Some((sp, si + 1));
            }
            None => return false,
        }
    }
    pattern[p.min(pattern.len())..].iter().all(|&c| c == b'%')
}

/// `a.b.c.d/m.m.m.m` (IPv4 only, as MySQL).
fn netmask_match(pattern: &str, ip: IpAddr) -> Option<bool> {
    let (net, mask) = pattern.split_once('/')?;
    let net: std::net::Ipv4Addr = net.parse().ok()?;
    let mask: std::net::Ipv4Addr = mask.parse().ok()?;
    let IpAddr::V4(ip) = ip else {
        return Some(false);
    };
    let m = u32::from(mask);
    Some(u32::from(ip) & m == u32::from(net))
}

/// Does the account host `pattern` match `peer`?
pub fn host_matches(pattern: &str, peer: &PeerInfo) -> bool {
    if pattern.eq_ignore_ascii_case("localhost") {
        return peer.is_local();
    }
    match peer.ip() {
        // A socket peer's host name is "localhost" (so '%' and 'local%' match it too).
        None => wild_match(pattern.as_bytes(), b"localhost"),
        Some(ip) => {
            if let Some(m) = netmask_match(pattern, ip) {
                return m;
            }
            if wild_match(pattern.as_bytes(), ip.to_string().as_bytes()) {
                return true;
            }
            // A loopback peer also answers to the name "localhost", as in MySQL with
            // name resolution.
            ip.is_loopback() && wild_match(pattern.as_bytes(), b"localhost")
        }
    }
}

/// MySQL's `get_sort` key for one pattern: 128 for a non-empty pattern without wildcards,
/// else the position of the first wildcard + 1 (capped at 127), 0 for empty. Higher is
/// more specific.
fn pattern_specificity(pattern: &str) -> u32 {
    let b = pattern.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => i += 2,
            b'%' | b'_' => return (i as u32 + 1).min(127),
            _ => i += 1,
        }
    }
    if b.is_empty() { 0 } else { 128 }
}

/// The account that applies to `peer`: among those whose host matches, the most specific
/// host first, then a named user before the anonymous one (MySQL's ACL sort); ties keep
/// the order the lookup returned them in.
pub fn pick_account(mut candidates: Vec<AccountAuth>, peer: &PeerInfo) -> Option<AccountAuth> {
    candidates.retain(|a| host_matches(&a.host, peer));
    candidates.sort_by_key(|a| {
        std::cmp::Reverse(pattern_specificity(&a.host) << 8 | pattern_specificity(&a.user))
    });
    candidates.into_iter().next()
}

// ───────────────────────────── the exchange ─────────────────────────────

/// What the greeting announces.
#[derive(Clone, Debug)]
pub struct Greeting<'a> {
    pub conn_id: u32,
    /// E.g. `8.0.36-Quire`; MySQL-style so MariaDB clients stay in MySQL mode.
    pub server_version: &'a str,
    pub default_plugin: AuthPlugin,
    /// The server's default collation id (`collation_server`; one byte on the wire).
    pub collation_id: u8,
    pub status: StatusFlags,
}

/// A successful login.
#[derive(Clone, Debug)]
pub struct Authenticated {
    /// The user name as the client sent it (`USER()`).
    pub user: String,
    /// The matched account's user ('' for an anonymous account) — `CURRENT_USER()`.
    pub account_user: String,
    /// The matched account's host pattern.
    pub host_matched: String,
    /// The peer as a host string (`localhost` or an IP).
    pub client_host: String,
    /// The database the client asked for; the caller checks it exists (1049 if not).
    pub db: Option<String>,
    /// Negotiated capabilities: client ∧ server.
    pub capabilities: CapabilityFlags,
    /// Negotiated MariaDB extended capabilities (see
    /// [`SERVER_EXT_CAPABILITIES`](super::proto::SERVER_EXT_CAPABILITIES)).
    pub ext_capabilities: u32,
    pub collation_id: u16,
    /// The client's own packet limit (informational).
    pub max_packet: u32,
    pub attrs: Vec<(String, String)>,
    /// The plugin the password was verified with.
    pub client_plugin: AuthPlugin,
    /// The connection's nonce (COM_CHANGE_USER scrambles with it).
    pub nonce: [u8; NONCE_BYTES],
}

/// Why a login failed. Whatever the client can still hear has been sent; the caller counts
/// `Aborted_connects` and closes the connection.
#[derive(Debug)]
pub enum AuthFailure {
    /// The client closed the connection before answering.
    Closed,
    /// The packet stream failed (I/O, out of order, too large); an ERR was sent when the
    /// error has a [`PacketError::to_my_error`].
    Packet(PacketError),
    /// The handshake response did not parse (or was an SSLRequest): ERR 1043 sent.
    BadHandshake(ProtoError),
    /// No matching account or a wrong password: ERR 1045 sent.
    AccessDenied {
        user: String,
        host: String,
        using_password: bool,
    },
}

impl fmt::Display for AuthFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuthFailure::Closed => f.write_str("client closed the connection during the handshake"),
            AuthFailure::Packet(e) => write!(f, "handshake failed: {e}"),
            AuthFailure::BadHandshake(e) => write!(f, "bad handshake: {e}"),
            AuthFailure::AccessDenied {
                user,
                host,
                using_password,
            } => write!(
                f,
                "Access denied for user '{user}'@'{host}' (using password: {})",
                if *using_password { "YES" } else { "NO" }
            ),
        }
    }
}

impl std::error::Error for AuthFailure {}

/// Runs the connection phase: greeting, response, account choice, password check (see the
/// module doc). On success nothing final has been sent: the caller checks `db`, then writes
/// the OK packet (`write_ok`, sequence id already set on `writer`) or an ERR, and flushes.
pub async fn authenticate<R, W, F>(
    reader: &mut PacketReader<R>,
    writer: &mut PacketWriter,
    out: &mut W,
    greeting: &Greeting<'_>,
    lookup: F,
    peer: &PeerInfo,
) -> Result<Authenticated, AuthFailure>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    F: Fn(&str) -> Vec<AccountAuth>,
{
    let saved_max = reader.max_packet_bytes();
    reader.set_max_packet_bytes(saved_max.min(HANDSHAKE_MAX_PACKET_BYTES));
    let res = run_handshake(reader, writer, out, greeting, lookup, peer).await;
    reader.set_max_packet_bytes(saved_max);
    res
}

async fn run_handshake<R, W, F>(
    reader: &mut PacketReader<R>,
    writer: &mut PacketWriter,
    out: &mut W,
    greeting: &Greeting<'_>,
    lookup: F,
    peer: &PeerInfo,
) -> Result<Authenticated, AuthFailure>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    F: Fn(&str) -> Vec<AccountAuth>,
{
    let nonce = new_nonce();
    writer.reset_seq();
    write_handshake_v10(
        writer,
        greeting.server_version,
        greeting.conn_id,
        &nonce,
        greeting.collation_id,
        greeting.status,
        greeting.default_plugin.name(),
    );
    flush(writer, out).await?;
    reader.set_seq(writer.seq());
    let payload = read_packet(reader, writer, out, SERVER_CAPABILITIES).await?;
    let parsed = parse_handshake_response(payload);
    writer.set_seq(reader.seq());
    let resp = match parsed {
        Ok(r) => r,
        Err(e) => {
            write_err(
                writer,
                SERVER_CAPABILITIES,
                code::ER_HANDSHAKE_ERROR,
                "08S01",
                "Bad handshake",
            );
            let _ = writer.flush(out).await;
            return Err(AuthFailure::BadHandshake(e));
        }
    };
    let caps = resp.capabilities & SERVER_CAPABILITIES;
    let client_plugin = match &resp.auth_plugin {
        Some(name) => AuthPlugin::from_name(name),
        // Without CLIENT_PLUGIN_AUTH the response is a native scramble.
        None => Some(AuthPlugin::NativePassword),
    };
    let verified = verify_account(
        reader,
        writer,
        out,
        caps,
        &nonce,
        &resp.user,
        &resp.auth_response,
        client_plugin,
        &lookup,
        peer,
    )
    .await?;
    Ok(Authenticated {
        user: resp.user,
        account_user: verified.account.user,
        host_matched: verified.account.host,
        client_host: peer.host(),
        db: resp.database,
        capabilities: caps,
        ext_capabilities: resp.ext_capabilities & super::proto::SERVER_EXT_CAPABILITIES,
        collation_id: resp.collation_id as u16,
        max_packet: resp.max_packet,
        attrs: resp.attrs,
        client_plugin: verified.plugin,
        nonce,
    })
}

/// COM_CHANGE_USER (`payload` is the whole command packet, just read with seq 0): verify
/// the new user against the connection's nonce, switching plugins if needed. Like
/// [`authenticate`], success leaves the final OK to the caller (after it has checked the
/// database). Failure has sent ERR 1045; as in MySQL 8.0 the user and database then stay
/// what they were. Either way the caller resets the session first (MySQL rolls back,
/// drops temporary tables and prepared statements, resets variables even when the change
/// fails).
pub async fn change_user<R, W, F>(
    reader: &mut PacketReader<R>,
    writer: &mut PacketWriter,
    out: &mut W,
    current: &Authenticated,
    payload: &[u8],
    lookup: F,
    peer: &PeerInfo,
) -> Result<Authenticated, AuthFailure>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    F: Fn(&str) -> Vec<AccountAuth>,
{
    let caps = current.capabilities;
    writer.set_seq(reader.seq());
    let req = match parse_change_user(payload, caps) {
        Ok(r) => r,
        Err(e) => {
            let my = e.to_my_error();
            write_err(writer, caps, my.code, my.state, &my.message);
            let _ = writer.flush(out).await;
            return Err(AuthFailure::BadHandshake(e));
        }
    };
    let client_plugin = match &req.auth_plugin {
        Some(name) => AuthPlugin::from_name(name),
        None => Some(AuthPlugin::NativePassword),
    };
    let saved_max = reader.max_packet_bytes();
    reader.set_max_packet_bytes(saved_max.min(HANDSHAKE_MAX_PACKET_BYTES));
    let verified = verify_account(
        reader,
        writer,
        out,
        caps,
        &current.nonce,
        &req.user,
        &req.auth_response,
        client_plugin,
        &lookup,
        peer,
    )
    .await;
    reader.set_max_packet_bytes(saved_max);
    let verified = verified?;
    Ok(Authenticated {
        user: req.user,
        account_user: verified.account.user,
        host_matched: verified.account.host,
        client_host: peer.host(),
        db: req.database,
        capabilities: caps,
        ext_capabilities: current.ext_capabilities,
        collation_id: req.collation_id.unwrap_or(current.collation_id),
        max_packet: current.max_packet,
        attrs: req.attrs,
        client_plugin: verified.plugin,
        nonce: current.nonce,
    })
}

struct Verified {
    account: AccountAuth,
    plugin: AuthPlugin,
}

/// Account choice and password check, shared by the handshake and COM_CHANGE_USER.
/// Entered with `writer`'s sequence id set for the server's next packet.
#[allow(clippy::too_many_arguments)]
async fn verify_account<R, W, F>(
    reader: &mut PacketReader<R>,
    writer: &mut PacketWriter,
    out: &mut W,
    caps: CapabilityFlags,
    nonce: &[u8; NONCE_BYTES],
    user: &str,
    response: &[u8],
    client_plugin: Option<AuthPlugin>,
    lookup: &F,
    peer: &PeerInfo,
) -> Result<Verified, AuthFailure>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    F: Fn(&str) -> Vec<AccountAuth>,
{
    let Some(account) = pick_account(lookup(user), peer) else {
        return Err(deny(writer, out, caps, user, peer, !is_empty_response(response)).await);
    };
    let creds = &account.credentials;
    // Verify what the client sent, or switch plugins first:
    // - a client whose plugin differs from the greeting's has no scramble for it and sends
    //   an empty "dummy" response, expecting a switch (libmysql and libmariadb both do);
    // - a plugin Quire does not speak, or one the stored hashes cannot verify, must be
    //   switched to one they can.
    let known = client_plugin.filter(|&p| !creds.has_password() || creds.supports(p));
    let (plugin, switch) = match known {
        Some(p) => (p, is_empty_response(response) && creds.has_password()),
        None if creds.supports(account.plugin) || !creds.has_password() => (account.plugin, true),
        None if creds.supports(AuthPlugin::NativePassword) => (AuthPlugin::NativePassword, true),
        None => (AuthPlugin::CachingSha2Password, true),
    };
    let switched_reply;
    let response = if switch {
        write_auth_switch(writer, plugin.name(), nonce);
        flush(writer, out).await?;
        reader.set_seq(writer.seq());
        switched_reply = read_packet(reader, writer, out, caps).await?.to_vec();
        writer.set_seq(reader.seq());
        &switched_reply[..]
    } else {
        response
    };
    let ok = if !creds.has_password() {
        is_empty_response(response)
    } else {
        match plugin {
            AuthPlugin::NativePassword => verify_native(creds, nonce, response),
            AuthPlugin::CachingSha2Password => verify_sha2_fast(creds, nonce, response),
        }
    };
    if !ok {
        return Err(deny(writer, out, caps, user, peer, !is_empty_response(response)).await);
    }
    if plugin == AuthPlugin::CachingSha2Password && creds.has_password() {
        // Buffered: goes out with the caller's OK in one write.
        write_auth_more_data(writer, &[FAST_AUTH_SUCCESS]);
    }
    Ok(Verified { account, plugin })
}

async fn deny<W: AsyncWrite + Unpin>(
    writer: &mut PacketWriter,
    out: &mut W,
    caps: CapabilityFlags,
    user: &str,
    peer: &PeerInfo,
    using_password: bool,
) -> AuthFailure {
    let host = peer.host();
    let failure = AuthFailure::AccessDenied {
        user: user.to_string(),
        host,
        using_password,
    };
    write_err(
        writer,
        caps,
        code::ER_ACCESS_DENIED_ERROR,
        "28000",
        &failure.to_string(),
    );
    let _ = writer.flush(out).await;
    failure
}

async fn flush<W: AsyncWrite + Unpin>(
    writer: &mut PacketWriter,
    out: &mut W,
) -> Result<(), AuthFailure> {
    writer
        .flush(out)
        .await
        .map_err(|e| AuthFailure::Packet(PacketError::Io(e)))
}

/// Reads the client's next packet; on a stream error, tells the client (when it can still
/// hear) and fails.
async fn read_packet<'r, R, W>(
    reader: &'r mut PacketReader<R>,
    writer: &mut PacketWriter,
    out: &mut W,
    caps: CapabilityFlags,
) -> Result<&'r [u8], AuthFailure>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    // The reply to a bad packet continues the client's sequence.
    let reply_seq = reader.seq().wrapping_add(1);
    match reader.read().await {
        Ok(Some(p)) => Ok(p),
        Ok(None) => Err(AuthFailure::Closed),
        Err(e) => {
            if let Some(my) = e.to_my_error() {
                writer.set_seq(reply_seq);
                write_err(writer, caps, my.code, my.state, &my.message);
                let _ = writer.flush(out).await;
            }
            Err(AuthFailure::Packet(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::proto::{SERVER_CAPABILITIES, write_ok};
    use mysql_common::auth::plugins::caching_sha2_password::scramble_sha256;
    use mysql_common::auth::plugins::mysql_native_password::scramble_native;
    use mysql_common::io::ParseBuf;
    use mysql_common::packets::{ErrPacket, HandshakePacket};
    use mysql_common::proto::{MyDeserialize, MySerialize};
    use std::net::Ipv4Addr;
    use tokio::io::{DuplexStream, ReadHalf, WriteHalf};

    #[test]
    fn hashes_match_mysql() {
        let c = credentials_from_password(b"password");
        // SELECT PASSWORD('password') in MySQL 5.7 / MariaDB.
        assert_eq!(
            native_password_hash_text(&c),
            "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19"
        );
        assert_eq!(
            Credentials::from_native_hash_text("*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19")
                .unwrap()
                .native_stage2(),
            c.native_stage2()
        );
        assert_eq!(
            Credentials::from_native_hash_text("").unwrap(),
            Credentials::none()
        );
        assert!(Credentials::from_native_hash_text("*12").is_none());
        assert!(
            Credentials::from_native_hash_text("2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19")
                .is_none()
        );
        assert!(Credentials::from_native_hash_text(&format!("*{}", "Z".repeat(40))).is_none());
        assert_eq!(native_password_hash_text(&Credentials::none()), "");
        assert!(!credentials_from_password(b"").has_password());
        assert!(
            !format!("{c:?}").contains("24"),
            "Debug must not show hashes"
        );
    }

    #[test]
    fn scrambles_verify_against_mysql_common() {
        let creds = credentials_from_password(b"s3cr3t pass");
        for _ in 0..20 {
            let nonce = new_nonce();
            assert!(nonce.iter().all(|&b| (1..=127).contains(&b) && b != b'$'));
            let native = scramble_native(&nonce, b"s3cr3t pass").unwrap();
            assert!(verify_native(&creds, &nonce, &native));
            assert!(!verify_native(
                &creds,
                &nonce,
                &scramble_native(&nonce, b"wrong").unwrap()
            ));
            let sha = scramble_sha256(&nonce, b"s3cr3t pass").unwrap();
            assert!(verify_sha2_fast(&creds, &nonce, &sha));
            assert!(!verify_sha2_fast(
                &creds,
                &nonce,
                &scramble_sha256(&nonce, b"wrong").unwrap()
            ));
            // Wrong plugin's scramble, wrong lengths, another nonce.
            assert!(!verify_native(&creds, &nonce, &sha));
            assert!(!verify_sha2_fast(&creds, &nonce, &native));
            assert!(!verify_native(&creds, &nonce, &native[..19]));
            assert!(!verify_native(&creds, &nonce, b""));
            assert!(!verify_native(&creds, &new_nonce(), &native));
        }
        let none = Credentials::none();
        assert!(!verify_native(&none, &[1; 20], &[0; 20]));
    }

    fn acct(user: &str, host: &str) -> AccountAuth {
        AccountAuth {
            user: user.into(),
            host: host.into(),
            plugin: AuthPlugin::NativePassword,
            credentials: Credentials::none(),
        }
    }

    #[test]
    fn host_patterns() {
        let lo = PeerInfo::Tcp(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let lo6 = PeerInfo::Tcp("::1".parse().unwrap());
        let mapped = PeerInfo::Tcp("::ffff:10.1.2.3".parse().unwrap());
        let lan = PeerInfo::Tcp("10.1.2.3".parse().unwrap());
        let sock = PeerInfo::Unix;
        for p in [&lo, &lo6, &sock] {
            assert!(host_matches("localhost", p));
            assert!(host_matches("LocalHost", p));
        }
        assert!(!host_matches("localhost", &lan));
        for p in [&lo, &lo6, &sock, &lan, &mapped] {
            assert!(host_matches("%", p));
        }
        assert!(host_matches("10.1.2.3", &lan));
        assert!(host_matches("10.1.2.3", &mapped));
        assert_eq!(mapped.host(), "10.1.2.3");
        assert_eq!(sock.host(), "localhost");
        assert!(host_matches("10.1.%", &lan));
        assert!(host_matches("10.1.2._", &lan));
        assert!(!host_matches(
            "10.1.2._",
            &PeerInfo::Tcp("10.1.2.33".parse().unwrap())
        ));
        assert!(!host_matches("10.2.%", &lan));
        assert!(host_matches("10.1.0.0/255.255.0.0", &lan));
        assert!(!host_matches("10.2.0.0/255.255.0.0", &lan));
        assert!(host_matches("127.0.0.1", &lo));
        assert!(!host_matches("127.0.0.1", &sock));
        assert!(host_matches("local%", &sock));
        assert!(wild_match(b"a%b%c", b"aXXbYYc"));
        assert!(!wild_match(b"a%b%c", b"aXXbYY"));
        assert!(wild_match(b"%%", b""));
        assert!(wild_match(b"a\\%", b"a%"));
        assert!(!wild_match(b"a\\%", b"ab"));
    }

    #[test]
    fn most_specific_account_wins() {
        let lan = PeerInfo::Tcp("10.1.2.3".parse().unwrap());
        let cands = vec![
            acct("bob", "%"),
            acct("bob", "10.1.%"),
            acct("", "10.1.2.3"),
            acct("bob", "10.%"),
        ];
        // MySQL sorts by host first: the anonymous account on the exact IP wins.
        assert_eq!(
            pick_account(cands.clone(), &lan).unwrap(),
            acct("", "10.1.2.3")
        );
        let cands = vec![
            acct("bob", "%"),
            acct("bob", "10.%"),
            acct("bob", "10.1.%"),
            acct("", "%"),
        ];
        assert_eq!(pick_account(cands, &lan).unwrap().host, "10.1.%");
        let cands = vec![acct("", "%"), acct("bob", "%")];
        assert_eq!(pick_account(cands, &lan).unwrap().user, "bob");
        assert!(pick_account(vec![acct("bob", "localhost")], &lan).is_none());
        assert!(pick_account(vec![], &lan).is_none());
    }

    // ── the exchange over an in-memory pipe, with a hand-driven client ──

    struct Client {
        r: PacketReader<ReadHalf<DuplexStream>>,
        w: PacketWriter,
        out: WriteHalf<DuplexStream>,
    }

    impl Client {
        async fn read(&mut self) -> Vec<u8> {
            self.r.read().await.unwrap().unwrap().to_vec()
        }
        async fn send(&mut self, payload: &[u8]) {
            self.w.set_seq(self.r.seq());
            self.w.packet(payload);
            self.w.flush(&mut self.out).await.unwrap();
            self.r.set_seq(self.w.seq());
        }
    }

    type ServerResult = (Result<Authenticated, AuthFailure>, Vec<u8>);

    /// Starts `authenticate` on one end of a pipe; the server writes its OK (or nothing)
    /// and returns the result and the bytes it had buffered.
    fn start(
        accounts: Vec<AccountAuth>,
        default_plugin: AuthPlugin,
    ) -> (Client, tokio::task::JoinHandle<ServerResult>) {
        let (a, b) = tokio::io::duplex(1 << 16);
        let (sr, mut sw) = tokio::io::split(a);
        let (cr, cw) = tokio::io::split(b);
        let server = tokio::spawn(async move {
            let mut reader = PacketReader::new(sr);
            let mut writer = PacketWriter::new();
            let greeting = Greeting {
                conn_id: 5,
                server_version: "8.0.36-quire",
                default_plugin,
                collation_id: 255,
                status: StatusFlags::SERVER_STATUS_AUTOCOMMIT,
            };
            let lookup = |u: &str| accounts.iter().filter(|a| a.user == u).cloned().collect();
            let peer = PeerInfo::Tcp("127.0.0.1".parse().unwrap());
            let res =
                authenticate(&mut reader, &mut writer, &mut sw, &greeting, lookup, &peer).await;
            if let Ok(a) = &res {
                write_ok(
                    &mut writer,
                    a.capabilities,
                    0,
                    0,
                    StatusFlags::SERVER_STATUS_AUTOCOMMIT,
                    0,
                    "",
                );
                writer.flush(&mut sw).await.unwrap();
            }
            (res, Vec::new())
        });
        let client = Client {
            r: PacketReader::new(cr),
            w: PacketWriter::new(),
            out: cw,
        };
        (client, server)
    }

    fn response(user: &str, plugin: Option<&str>, auth: &[u8], db: Option<&str>) -> Vec<u8> {
        let mut caps = SERVER_CAPABILITIES;
        caps.remove(CapabilityFlags::CLIENT_CONNECT_WITH_DB);
        let resp = mysql_common::packets::HandshakeResponse::new(
            Some(auth),
            (8, 0, 36),
            Some(user.as_bytes()),
            db.map(|d| d.as_bytes()),
            plugin.map(|p| mysql_common::packets::AuthPlugin::from_bytes(p.as_bytes())),
            caps,
            None,
            1 << 24,
        );
        let mut out = Vec::new();
        resp.serialize(&mut out);
        out
    }

    fn root(plugin: AuthPlugin, creds: Credentials) -> Vec<AccountAuth> {
        vec![AccountAuth {
            user: "root".into(),
            host: "localhost".into(),
            plugin,
            credentials: creds,
        }]
    }

    async fn greeting_nonce(c: &mut Client) -> ([u8; 20], String) {
        let hs = c.read().await;
        let hs = HandshakePacket::deserialize((), &mut ParseBuf(&hs)).unwrap();
        let nonce: [u8; 20] = hs.nonce().try_into().unwrap();
        (nonce, hs.auth_plugin_name_str().unwrap().into_owned())
    }

    fn err_of(p: &[u8]) -> (u16, String) {
        let e = ErrPacket::deserialize(SERVER_CAPABILITIES, &mut ParseBuf(p)).unwrap();
        let e = e.server_error();
        (e.error_code(), e.message_str().into_owned())
    }

    #[tokio::test]
    async fn native_client_direct() {
        let (mut c, server) = start(
            root(
                AuthPlugin::CachingSha2Password,
                credentials_from_password(b"pw"),
            ),
            AuthPlugin::CachingSha2Password,
        );
        let (nonce, plugin) = greeting_nonce(&mut c).await;
        assert_eq!(plugin, "caching_sha2_password");
        let s = scramble_native(&nonce, b"pw").unwrap();
        c.send(&response(
            "root",
            Some("mysql_native_password"),
            &s,
            Some("test"),
        ))
        .await;
        assert_eq!(c.read().await[0], 0x00, "OK directly, no switch");
        let a = server.await.unwrap().0.unwrap();
        assert_eq!(a.client_plugin, AuthPlugin::NativePassword);
        assert_eq!(a.db.as_deref(), Some("test"));
        assert_eq!(a.host_matched, "localhost");
        assert_eq!(a.client_host, "127.0.0.1");
        assert_eq!(a.nonce, nonce);
        assert!(
            a.capabilities
                .contains(CapabilityFlags::CLIENT_DEPRECATE_EOF)
        );
    }

    #[tokio::test]
    async fn sha2_client_fast_auth() {
        let (mut c, server) = start(
            root(AuthPlugin::NativePassword, credentials_from_password(b"pw")),
            AuthPlugin::NativePassword,
        );
        let (nonce, _) = greeting_nonce(&mut c).await;
        let s = scramble_sha256(&nonce, b"pw").unwrap();
        c.send(&response("root", Some("caching_sha2_password"), &s, None))
            .await;
        assert_eq!(c.read().await, [0x01, 0x03]);
        assert_eq!(c.read().await[0], 0x00);
        assert_eq!(c.r.seq(), 4, "handshake 0, response 1, more data 2, OK 3");
        assert_eq!(
            server.await.unwrap().0.unwrap().client_plugin,
            AuthPlugin::CachingSha2Password
        );
    }

    #[tokio::test]
    async fn unknown_plugin_is_switched_with_the_same_nonce() {
        let (mut c, server) = start(
            root(
                AuthPlugin::CachingSha2Password,
                credentials_from_password(b"pw"),
            ),
            AuthPlugin::NativePassword,
        );
        let (nonce, _) = greeting_nonce(&mut c).await;
        c.send(&response("root", Some("client_ed25519"), &[7; 64], None))
            .await;
        let sw = c.read().await;
        assert_eq!(sw[0], 0xFE);
        let mut expect = b"\xFEcaching_sha2_password\0".to_vec();
        expect.extend_from_slice(&nonce);
        expect.push(0);
        assert_eq!(sw, expect);
        c.send(&scramble_sha256(&nonce, b"pw").unwrap()).await;
        assert_eq!(c.read().await, [0x01, 0x03]);
        assert_eq!(c.read().await[0], 0x00);
        assert_eq!(c.r.seq(), 6);
        server.await.unwrap().0.unwrap();
    }

    #[tokio::test]
    async fn sha2_client_switched_to_native_when_only_native_hash() {
        let creds = Credentials::from_native_hash_text(&native_password_hash_text(
            &credentials_from_password(b"pw"),
        ))
        .unwrap();
        let (mut c, server) = start(
            root(AuthPlugin::NativePassword, creds),
            AuthPlugin::CachingSha2Password,
        );
        let (nonce, _) = greeting_nonce(&mut c).await;
        c.send(&response(
            "root",
            Some("caching_sha2_password"),
            &scramble_sha256(&nonce, b"pw").unwrap(),
            None,
        ))
        .await;
        let sw = c.read().await;
        assert!(sw.starts_with(b"\xFEmysql_native_password\0"));
        c.send(&scramble_native(&nonce, b"pw").unwrap()).await;
        assert_eq!(c.read().await[0], 0x00);
        assert_eq!(
            server.await.unwrap().0.unwrap().client_plugin,
            AuthPlugin::NativePassword
        );
    }

    #[tokio::test]
    async fn wrong_password_and_unknown_user_are_denied() {
        for (user, pw, using) in [
            ("root", &b"nope"[..], "YES"),
            ("ghost", &b"pw"[..], "YES"),
            ("root", &b""[..], "NO"),
        ] {
            let (mut c, server) = start(
                root(
                    AuthPlugin::CachingSha2Password,
                    credentials_from_password(b"pw"),
                ),
                AuthPlugin::CachingSha2Password,
            );
            let (nonce, _) = greeting_nonce(&mut c).await;
            let s = scramble_sha256(&nonce, pw)
                .map(|s| s.to_vec())
                .unwrap_or_default();
            c.send(&response(user, Some("caching_sha2_password"), &s, None))
                .await;
            let mut reply = c.read().await;
            if pw.is_empty() {
                // An empty response may be a client's "dummy" (its plugin differed from
                // the greeting's): it gets a switch first, and is refused only when it
                // answers empty again.
                assert!(reply.starts_with(b"\xFEcaching_sha2_password\0"));
                c.send(b"").await;
                reply = c.read().await;
            }
            let (code, msg) = err_of(&reply);
            assert_eq!(code, 1045);
            assert_eq!(
                msg,
                format!("Access denied for user '{user}'@'127.0.0.1' (using password: {using})")
            );
            assert!(matches!(
                server.await.unwrap().0,
                Err(AuthFailure::AccessDenied { .. })
            ));
        }
    }

    #[tokio::test]
    async fn empty_password_accounts() {
        for (resp, ok) in [
            (&b""[..], true),
            (&b"\0"[..], true),
            (&[1u8; 20][..], false),
        ] {
            let (mut c, server) = start(
                root(AuthPlugin::NativePassword, Credentials::none()),
                AuthPlugin::NativePassword,
            );
            greeting_nonce(&mut c).await;
            c.send(&response("root", Some("caching_sha2_password"), resp, None))
                .await;
            let p = c.read().await;
            if ok {
                assert_eq!(p[0], 0x00, "no fast-auth byte for an empty password");
                server.await.unwrap().0.unwrap();
            } else {
                assert_eq!(err_of(&p).0, 1045);
            }
        }
    }

    #[tokio::test]
    async fn bad_handshakes() {
        // SSLRequest.
        let (mut c, server) = start(
            root(AuthPlugin::NativePassword, Credentials::none()),
            AuthPlugin::NativePassword,
        );
        greeting_nonce(&mut c).await;
        let mut ssl = (SERVER_CAPABILITIES | CapabilityFlags::CLIENT_SSL)
            .bits()
            .to_le_bytes()
            .to_vec();
        ssl.extend_from_slice(&[0; 28]);
        c.send(&ssl).await;
        assert_eq!(err_of(&c.read().await), (1043, "Bad handshake".to_string()));
        assert!(matches!(
            server.await.unwrap().0,
            Err(AuthFailure::BadHandshake(ProtoError::SslRequested))
        ));
        // Truncated response.
        let (mut c, server) = start(
            root(AuthPlugin::NativePassword, Credentials::none()),
            AuthPlugin::NativePassword,
        );
        greeting_nonce(&mut c).await;
        c.send(&response("root", None, b"", None)[..20]).await;
        assert_eq!(err_of(&c.read().await).0, 1043);
        assert!(matches!(
            server.await.unwrap().0,
            Err(AuthFailure::BadHandshake(ProtoError::Truncated))
        ));
        // Wrong sequence id.
        let (mut c, server) = start(
            root(AuthPlugin::NativePassword, Credentials::none()),
            AuthPlugin::NativePassword,
        );
        greeting_nonce(&mut c).await;
        c.w.set_seq(9);
        c.w.packet(b"whatever");
        c.w.flush(&mut c.out).await.unwrap();
        c.r.set_seq(2);
        assert_eq!(err_of(&c.read().await).0, 1156);
        assert!(matches!(
            server.await.unwrap().0,
            Err(AuthFailure::Packet(PacketError::OutOfOrder {
                expected: 1,
                got: 9
            }))
        ));
        // Oversized response: refused from its header.
        let (mut c, server) = start(
            root(AuthPlugin::NativePassword, Credentials::none()),
            AuthPlugin::NativePassword,
        );
        greeting_nonce(&mut c).await;
        let mut header = vec![0xFF, 0xFF, 0x7F, 1];
        header.extend_from_slice(&[0; 100]);
        use tokio::io::AsyncWriteExt;
        c.out.write_all(&header).await.unwrap();
        c.r.set_seq(2);
        assert_eq!(err_of(&c.read().await).0, 1153);
        assert!(matches!(
            server.await.unwrap().0,
            Err(AuthFailure::Packet(PacketError::TooLarge { .. }))
        ));
        // Client hangs up.
        let (mut c, server) = start(
            root(AuthPlugin::NativePassword, Credentials::none()),
            AuthPlugin::NativePassword,
        );
        greeting_nonce(&mut c).await;
        drop(c);
        assert!(matches!(server.await.unwrap().0, Err(AuthFailure::Closed)));
    }

    #[tokio::test]
    async fn change_user_uses_the_connection_nonce() {
        let accounts = [
            AccountAuth {
                user: "root".into(),
                host: "%".into(),
                plugin: AuthPlugin::NativePassword,
                credentials: Credentials::none(),
            },
            AccountAuth {
                user: "bob".into(),
                host: "%".into(),
                plugin: AuthPlugin::CachingSha2Password,
                credentials: credentials_from_password(b"bobpw"),
            },
        ];
        let (a, b) = tokio::io::duplex(1 << 16);
        let (sr, mut sw) = tokio::io::split(a);
        let (cr, cw) = tokio::io::split(b);
        let mut c = Client {
            r: PacketReader::new(cr),
            w: PacketWriter::new(),
            out: cw,
        };
        let nonce = [b'n'; 20];
        let current = Authenticated {
            user: "root".into(),
            account_user: "root".into(),
            host_matched: "%".into(),
            client_host: "127.0.0.1".into(),
            db: None,
            capabilities: SERVER_CAPABILITIES,
            ext_capabilities: 0,
            collation_id: 45,
            max_packet: 1 << 24,
            attrs: vec![],
            client_plugin: AuthPlugin::NativePassword,
            nonce,
        };
        let server = tokio::spawn(async move {
            let mut reader = PacketReader::new(sr);
            let mut writer = PacketWriter::new();
            reader.reset_seq();
            let payload = reader.read().await.unwrap().unwrap().to_vec();
            let peer = PeerInfo::Tcp("127.0.0.1".parse().unwrap());
            let lookup = |u: &str| accounts.iter().filter(|a| a.user == u).cloned().collect();
            let res = change_user(
                &mut reader,
                &mut writer,
                &mut sw,
                &current,
                &payload,
                lookup,
                &peer,
            )
            .await;
            if let Ok(a) = &res {
                write_ok(
                    &mut writer,
                    a.capabilities,
                    0,
                    0,
                    StatusFlags::empty(),
                    0,
                    "",
                );
                writer.flush(&mut sw).await.unwrap();
            }
            res
        });
        let scramble = scramble_native(&nonce, b"bobpw").unwrap();
        let pkt = mysql_common::packets::ComChangeUser::new()
            .with_user(Some(&b"bob"[..]))
            .with_database(Some(&b"shop"[..]))
            .with_auth_plugin_data(Some(&scramble[..]))
            .with_more_data(Some(
                mysql_common::packets::ComChangeUserMoreData::new(45)
                    .with_auth_plugin(Some(mysql_common::packets::AuthPlugin::MysqlNativePassword)),
            ));
        let mut bytes = Vec::new();
        pkt.serialize(&mut bytes);
        c.r.reset_seq();
        c.w.reset_seq();
        c.w.packet(&bytes);
        c.w.flush(&mut c.out).await.unwrap();
        c.r.set_seq(1);
        assert_eq!(c.read().await[0], 0x00);
        let a = server.await.unwrap().unwrap();
        assert_eq!(a.user, "bob");
        assert_eq!(a.db.as_deref(), Some("shop"));
        assert_eq!(a.nonce, nonce);
    }
}
