//! Listening and the per-connection command loop.
//!
//! One task per connection (on its own thread or in the shared pool: see [`threads`]):
//! authenticate, then read a command, run it, write the response into the connection's
//! buffer, flush once. Commands are MySQL's `COM_*`; the text and
//! binary protocols differ only in how rows are encoded ([`WireResponder`]).
//!
//! A connection ends on COM_QUIT, EOF, a protocol error (after an ERR when one applies),
//! `wait_timeout` of idleness, or KILL CONNECTION; its open transaction is rolled back and
//! its locks released when its [`Ctx`] is dropped.

use super::Ctx;
use super::commit::{Deferred, may_lead};
use super::logging::LogText;
use super::profile::Stage;
use super::run::Responder;
use super::threads::{self, Accepted, ConnReader, ConnWriter};
use crate::config::vars;
use crate::error::{MyError, Result, code};
use crate::journal::ack::{AckState, DirectAck, Outcome};
use crate::observe::status::Stat;
use crate::server::Server;
use crate::sql::exec::RowSink;
use crate::sql::lexer::{self, StatementKind};
use crate::sql::types::{ColumnMeta, SqlType};
use crate::sql::value::Value;
use crate::sql::{Planned, Prepared, parse};
use crate::wire::auth::{self, AuthPlugin, Greeting, PeerInfo};
use crate::wire::binary;
use crate::wire::packet::{FLUSH_HINT_BYTES, Mark, PacketReader, PacketWriter};
use crate::wire::proto;
use mysql_common::constants::{CapabilityFlags, ColumnType, StatusFlags};
use std::collections::HashMap;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Appended to the version in the greeting (see `serve`).
pub const HANDSHAKE_VERSION_MARKER: &str = "-maria-protocol";

/// How long a client may take to log in (MySQL's `connect_timeout` default).
const CONNECT_TIMEOUT_S: u64 = 10;

/// Writes responses into the connection's packet buffer, flushing to the socket when a large
/// result passes [`FLUSH_HINT_BYTES`] (memory per connection stays bounded).
struct WireResponder<'a, W> {
    w: &'a mut PacketWriter,
    out: &'a mut W,
    caps: CapabilityFlags,
    binary: bool,
    /// MARIADB_CLIENT_CACHE_METADATA negotiated.
    cache_metadata: bool,
    /// The client already has these columns' definitions (an unchanged prepared statement).
    skip_metadata: bool,
    cols: Arc<[ColumnMeta]>,
    types: Arc<[SqlType]>,
    /// Rows sent in the current result set.
    rows: u64,
    io_failed: bool,
    /// `net_write_timeout`, for a blocking flush.
    write_timeout: Duration,
}

impl<W: ConnWriter> WireResponder<'_, W> {
    fn maybe_flush(&mut self) -> Result<()> {
        if self.w.buffered_len() < FLUSH_HINT_BYTES || self.io_failed {
            return Ok(());
        }
        // Inside the synchronous executor. On a connection's own thread, write with the
        // thread blocked; on a pool worker, hand the worker over while the socket drains.
        let r = if threads::on_shared_pool() {
            let w = &mut *self.w;
            let out = &mut *self.out;
            tokio::task::block_in_place(|| tokio::runtime::Handle::current().block_on(w.flush(out)))
        } else {
            self.w
                .flush_with(|bytes| self.out.write_all_blocking(bytes, self.write_timeout))
        };
        if r.is_err() {
            self.io_failed = true;
            return Err(MyError::new(
                code::ER_NET_ERROR_ON_WRITE,
                "Got an error writing communication packets",
            ));
        }
        Ok(())
    }
}

impl<W: ConnWriter> RowSink for WireResponder<'_, W> {
    fn row(&mut self, values: &[Value]) -> Result<()> {
        if self.binary {
            binary::write_binary_row(self.w, values, &self.cols);
        } else {
            proto::write_text_row(self.w, values, &self.types);
        }
        self.rows += 1;
        self.maybe_flush()
    }
}

impl<W: ConnWriter> Responder for WireResponder<'_, W> {
    fn begin_rows(&mut self, cols: &Arc<[ColumnMeta]>, types: &Arc<[SqlType]>) -> Result<()> {
        let meta = match (self.cache_metadata, self.skip_metadata) {
            (false, _) => proto::Metadata::Plain,
            (true, false) => proto::Metadata::Send,
            (true, true) => proto::Metadata::Skip,
        };
        proto::write_result_header_meta(self.w, self.caps, meta, cols, StatusFlags::empty());
        self.cols = cols.clone();
        self.types = types.clone();
        self.rows = 0;
        Ok(())
    }

    fn end_rows(&mut self, status: StatusFlags, warnings: u16) -> Result<()> {
        proto::write_result_end(self.w, self.caps, status, warnings);
        Ok(())
    }

    fn ok(
        &mut self,
        affected: u64,
        last_insert_id: u64,
        status: StatusFlags,
        warnings: u16,
        info: &str,
    ) -> Result<()> {
        proto::write_ok(
            self.w,
            self.caps,
            affected,
            last_insert_id,
            status,
            warnings,
            info,
        );
        Ok(())
    }

    fn error(&mut self, e: &MyError) -> Result<()> {
        proto::write_my_error(self.w, self.caps, e);
        Ok(())
    }
}

/// A server-side prepared statement.
struct Stmt {
    /// Placeholder-numbered text, for re-planning after DDL.
    numbered: String,
    /// The statement text as SHOW PROCESSLIST shows it during executions.
    info: Arc<str>,
    /// Where `info`'s placeholders are (the logs show executions with their values).
    param_pos: Arc<[usize]>,
    kind: StatementKind,
    /// MySQL's DIGEST_TEXT of the prepared text (its executions' digest), and its row.
    digest_text: Arc<str>,
    digest: Option<crate::observe::digest::DigestRef>,
    prepared: Arc<Prepared>,
    param_types: Vec<(ColumnType, bool)>,
    long_data: Vec<Option<Vec<u8>>>,
    /// The plan whose column definitions the client last received for this statement (the
    /// prepare response, or an execution): while unchanged they are not sent again
    /// (MARIADB_CLIENT_CACHE_METADATA).
    meta_sent: Option<usize>,
    /// The plan for the parameter types of the last execution, when the result columns
    /// depend on them (`Prepared::param_typed_columns`).
    typed: Option<(Vec<SqlType>, Arc<Prepared>)>,
}

fn param_meta(n: usize) -> Vec<ColumnMeta> {
    (0..n)
        .map(|_| {
            let mut m = ColumnMeta::for_type(&SqlType::varchar(0), true);
            m.name = "?".into();
            m.column_type = ColumnType::MYSQL_TYPE_VAR_STRING;
            m.charset = 63;
            m
        })
        .collect()
}

/// COM_* command bytes.
mod com {
    pub const QUIT: u8 = 0x01;
    pub const INIT_DB: u8 = 0x02;
    pub const QUERY: u8 = 0x03;
    pub const FIELD_LIST: u8 = 0x04;
    pub const STATISTICS: u8 = 0x09;
    pub const PROCESS_KILL: u8 = 0x0c;
    pub const DEBUG: u8 = 0x0d;
    pub const PING: u8 = 0x0e;
    pub const CHANGE_USER: u8 = 0x11;
    pub const STMT_PREPARE: u8 = 0x16;
    pub const STMT_EXECUTE: u8 = 0x17;
    pub const STMT_SEND_LONG_DATA: u8 = 0x18;
    pub const STMT_CLOSE: u8 = 0x19;
    pub const STMT_RESET: u8 = 0x1a;
    pub const SET_OPTION: u8 = 0x1b;
    pub const RESET_CONNECTION: u8 = 0x1f;
}

fn command_name(cmd: u8) -> &'static str {
    match cmd {
        com::QUIT => "Quit",
        com::INIT_DB => "Init DB",
        com::QUERY => "Query",
        com::FIELD_LIST => "Field List",
        com::STATISTICS => "Statistics",
        com::PROCESS_KILL => "Processlist",
        com::PING => "Ping",
        com::CHANGE_USER => "Change user",
        com::STMT_PREPARE => "Prepare",
        com::STMT_EXECUTE => "Execute",
        com::STMT_SEND_LONG_DATA => "Long Data",
        com::STMT_CLOSE => "Close stmt",
        com::STMT_RESET => "Reset stmt",
        com::SET_OPTION => "Set option",
        com::RESET_CONNECTION => "Reset connection",
        _ => "Unknown",
    }
}

/// How long a session polls for its client's next command before it sleeps (see
/// `Conn::spin_for_command`).
const SPIN: std::time::Duration = std::time::Duration::from_micros(50);

struct Conn<R, W> {
    reader: PacketReader<R>,
    writer: PacketWriter,
    out: W,
    caps: CapabilityFlags,
    cache_metadata: bool,
    peer: PeerInfo,
    login: auth::Authenticated,
    stmts: HashMap<u32, Stmt>,
    next_stmt_id: u32,
    /// A duplicate of the socket's descriptor, made when first needed ([`Conn::socket_dup`]):
    /// for the journal writer's direct OK (see `journal::ack`) and the poll for the next
    /// command (`spin_for_command`).
    socket_fd: Option<Arc<OwnedFd>>,
    /// The thread waits for commands in recv(2) (see `threads`); KILL CONNECTION reaches
    /// it through `SessionShared::socket`.
    blocking_reads: bool,
    /// The eventfd the journal writer signals when a directly acknowledged commit needs the
    /// blocked session ([`Conn::wake_fd`]).
    wake_fd: Option<Arc<OwnedFd>>,
    /// Polls for the next command that ended without one, in a row (`spin_for_command`).
    spin_misses: u8,
    /// Commands since the connection started, counted by `spin_for_command`.
    spin_tries: u32,
    /// The last commit, if the journal writer is to send its OK, with the sequence id of
    /// that response.
    pending: Option<(Arc<AckState>, u8)>,
    /// Where the response of the command's current statement begins in `writer`.
    stmt_mark: Mark,
    multi_statements: bool,
    /// Empty column lists for a new responder (an `Arc` of nothing still allocates).
    no_cols: (Arc<[ColumnMeta]>, Arc<[SqlType]>),
}

/// Accept connections on TCP and the Unix socket until SIGINT/SIGTERM.
pub async fn listen(server: Arc<Server>, socket: PathBuf) -> std::result::Result<(), String> {
    let bind = server.globals.get_string(vars::BIND_ADDRESS);
    let port = server.globals.get_u64(vars::PORT) as u16;
    let bind_host = if bind == "*" || bind.is_empty() {
        "0.0.0.0".to_string()
    } else {
        bind.clone()
    };
    let tcp = tokio::net::TcpListener::bind((bind_host.as_str(), port))
        .await
        .map_err(|e| format!("Can't start server: Bind on TCP/IP port {port} ({bind}): {e}"))?;
    let port = tcp.local_addr().map(|a| a.port()).unwrap_or(port);
    server.globals.set(vars::PORT, Value::UInt(port as u64));
    // A socket file left by a server that died is removed; a live one is not stolen.
    if socket.exists() {
        if std::os::unix::net::UnixStream::connect(&socket).is_ok() {
            return Err(format!(
                "Another process is listening on socket '{}'",
                socket.display()
            ));
        }
        let _ = std::fs::remove_file(&socket);
    }
    server.spawn_idle_reaper();
    let pooled = threads::pooled(&server.globals);
    let unix = tokio::net::UnixListener::bind(&socket).map_err(|e| {
        format!(
            "Can't start server: Bind on unix socket '{}': {e}",
            socket.display()
        )
    })?;
    eprintln!(
        "quire: ready for connections. Version: '{}'  socket: '{}'  port: {}  Quire {}",
        server.version,
        socket.display(),
        port,
        env!("CARGO_PKG_VERSION")
    );
    let mut sigterm = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .map_err(|e| e.to_string())?;
    // SIGHUP reopens the query logs (logrotate: rename, then signal).
    let mut sighup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
        .map_err(|e| e.to_string())?;
    server.logs.set_header(
        &std::env::args().next().unwrap_or_else(|| "quire".into()),
        &server.version,
        &server.globals.get_string(vars::VERSION_COMMENT),
        port as u64,
        &socket.display().to_string(),
    );
    loop {
        tokio::select! {
            r = tcp.accept() => match r {
                Ok((stream, addr)) => {
                    let _ = stream.set_nodelay(true);
                    match stream.into_std() {
                        Ok(s) => threads::start(&server, pooled, Accepted::Tcp(s, addr.ip())),
                        Err(e) => eprintln!("quire: [Warning] accept failed: {e}"),
                    }
                }
                Err(e) => {
                    eprintln!("quire: [Warning] accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            },
            r = unix.accept() => match r {
                Ok((stream, _)) => match stream.into_std() {
                    Ok(s) => threads::start(&server, pooled, Accepted::Unix(s)),
                    Err(e) => eprintln!("quire: [Warning] accept failed: {e}"),
                },
                Err(e) => {
                    eprintln!("quire: [Warning] accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            },
            _ = tokio::signal::ctrl_c() => break,
            _ = sigterm.recv() => break,
            _ = sighup.recv() => server.logs.reopen(&[], false),
        }
    }
    let _ = std::fs::remove_file(&socket);
    eprintln!("quire: Shutdown complete");
    Ok(())
}

/// Serve one connection.
pub async fn serve<R, W>(rd: R, wr: W, peer: PeerInfo, server: Arc<Server>)
where
    R: ConnReader,
    W: ConnWriter,
{
    server.status.connections.fetch_add(1, Ordering::Relaxed);
    let mut reader = PacketReader::new(rd);
    let mut writer = PacketWriter::new();
    let mut out = wr;
    let max_conns = server.globals.get_u64(vars::MAX_CONNECTIONS) as usize;
    if server.sessions.lock().len() > max_conns {
        proto::write_err(
            &mut writer,
            CapabilityFlags::empty(),
            code::ER_CON_COUNT_ERROR,
            "08004",
            "Too many connections",
        );
        let _ = writer.flush(&mut out).await;
        return;
    }
    let shared = server.register_session(peer.host());
    let default_plugin = AuthPlugin::from_name(
        &server
            .globals
            .get_string(vars::DEFAULT_AUTHENTICATION_PLUGIN),
    )
    .unwrap_or(AuthPlugin::NativePassword);
    let collation_id =
        crate::sql::types::Collation::from_name(&server.globals.get_string(vars::COLLATION_SERVER))
            .map(|c| c.id().min(255) as u8)
            .unwrap_or(45);
    // libmariadb (the mariadb CLI, sysbench, mariadb-slap…) reads MariaDB's extended
    // capabilities — and so caches prepared-statement metadata — only when the greeting's
    // version carries MariaDB's marker. `@@version` and VERSION() stay unmarked. See the README.
    let handshake_version = format!("{}{HANDSHAKE_VERSION_MARKER}", server.version);
    let greeting = Greeting {
        conn_id: shared.id,
        server_version: &handshake_version,
        default_plugin,
        collation_id,
        status: StatusFlags::SERVER_STATUS_AUTOCOMMIT,
    };
    let lookup = |user: &str| server.accounts_named(user);
    let login = tokio::time::timeout(
        Duration::from_secs(CONNECT_TIMEOUT_S),
        auth::authenticate(&mut reader, &mut writer, &mut out, &greeting, lookup, &peer),
    )
    .await;
    let login = match login {
        Ok(Ok(a)) => a,
        Ok(Err(failure @ auth::AuthFailure::AccessDenied { .. })) => {
            if let auth::AuthFailure::AccessDenied { user, host, .. } = &failure {
                let ip = if matches!(peer, PeerInfo::Tcp(_)) {
                    host.as_str()
                } else {
                    ""
                };
                super::logging::log_failed_login(
                    &server,
                    shared.id,
                    user,
                    host,
                    ip,
                    &failure.to_string(),
                );
            }
            aborted_connect(&server, shared.id);
            return;
        }
        _ => {
            aborted_connect(&server, shared.id);
            return;
        }
    };
    let caps = login.capabilities;
    if let Some(db) = &login.db
        && server.storage.catalog.database(db).is_none()
    {
        proto::write_my_error(&mut writer, caps, &MyError::bad_db(db));
        let _ = writer.flush(&mut out).await;
        aborted_connect(&server, shared.id);
        return;
    }
    let mut ctx = Ctx::new(server.clone(), shared.clone());
    ctx.user = login.user.clone();
    ctx.host = login.client_host.clone();
    ctx.priv_user = login.account_user.clone();
    ctx.priv_host = login.host_matched.clone();
    ctx.db = login.db.clone();
    ctx.client_found_rows = caps.contains(CapabilityFlags::CLIENT_FOUND_ROWS);
    ctx.ip = match peer {
        PeerInfo::Tcp(_) => peer.host(),
        PeerInfo::Unix => String::new(),
    };
    set_log_identity(&mut ctx);
    let connect = crate::observe::general::connect_arg(
        &ctx.user,
        &ctx.host,
        ctx.db.as_deref(),
        !ctx.ip.is_empty(),
    );
    ctx.log_command("Connect", connect.as_bytes());
    ctx.audit_connection("Connect");
    *shared.user.lock() = login.user.clone();
    *shared.db.lock() = login.db.clone();
    shared.activity.lock().enter("Sleep");
    if caps.contains(CapabilityFlags::CLIENT_INTERACTIVE) {
        let it = ctx.vars.get(vars::INTERACTIVE_TIMEOUT).cloned();
        if let Some(v) = it {
            ctx.vars.set(vars::WAIT_TIMEOUT, v);
        }
    }
    let status = ctx.status_flags(false);
    proto::write_ok(&mut writer, caps, 0, 0, status, 0, "");
    if writer.flush(&mut out).await.is_err() {
        return;
    }
    let max_packet = ctx
        .vars
        .get_u64(vars::MAX_ALLOWED_PACKET)
        .clamp(1024, 1 << 30) as usize;
    reader.set_max_packet_bytes(max_packet);
    let mut conn = Conn {
        reader,
        writer,
        out,
        caps,
        cache_metadata: login.ext_capabilities & proto::MARIADB_CLIENT_CACHE_METADATA != 0,
        peer,
        multi_statements: caps.contains(CapabilityFlags::CLIENT_MULTI_STATEMENTS),
        login,
        stmts: HashMap::new(),
        next_stmt_id: 1,
        socket_fd: None,
        blocking_reads: false,
        wake_fd: None,
        spin_misses: 0,
        spin_tries: 0,
        pending: None,
        stmt_mark: Mark::default(),
        no_cols: (Arc::from(Vec::new()), Arc::from(Vec::new())),
    };
    // Between commands the thread waits in recv(2) (see `threads`): a KILL CONNECTION
    // wakes it by shutting the socket's reading side down.
    if conn.reader.get_mut().set_blocking(true) {
        match conn.socket_dup() {
            Some(fd) => {
                *shared.socket.lock() = Some(fd);
                conn.blocking_reads = true;
            }
            None => {
                conn.reader.get_mut().set_blocking(false);
            }
        }
    }
    let clean = conn.run(&mut ctx).await;
    *shared.socket.lock() = None;
    ctx.audit_connection("Quit");
    if !clean {
        server
            .status
            .aborted_clients
            .fetch_add(1, Ordering::Relaxed);
    }
    drop(ctx);
}

impl<R, W> Conn<R, W>
where
    R: ConnReader,
    W: ConnWriter,
{
    fn responder(&mut self, ctx: &Ctx, binary: bool, skip_metadata: bool) -> WireResponder<'_, W> {
        WireResponder {
            write_timeout: Duration::from_secs(ctx.vars.get_u64(vars::NET_WRITE_TIMEOUT)),
            w: &mut self.writer,
            out: &mut self.out,
            caps: self.caps,
            binary,
            cache_metadata: self.cache_metadata,
            skip_metadata,
            cols: self.no_cols.0.clone(),
            types: self.no_cols.1.clone(),
            rows: 0,
            io_failed: false,
        }
    }

    /// The command loop. Returns whether the client ended the connection properly.
    async fn run(&mut self, ctx: &mut Ctx) -> bool {
        let mut payload = Vec::with_capacity(1024);
        loop {
            self.reader.reset_seq();
            let shared = ctx.shared.clone();
            let killed = shared.kill_conn_notify.notified();
            tokio::pin!(killed);
            killed.as_mut().enable();
            if ctx.connection_killed() {
                return false;
            }
            if let Some((ack, seq)) = self.pending.take() {
                // The last commit's OK is the journal writer's to send (see `journal::ack`):
                // wait for the next command, or for the writer to need this session.
                // (A pipelining client's next command may be read already: then only the
                // outcome is waited for.)
                let waited = self.reader.buffered_bytes() > 0
                    || self.blocking_reads
                        && self
                            .socket_fd
                            .as_ref()
                            .is_some_and(|fd| ack.wait_blocking(fd.as_raw_fd()));
                if !waited {
                    // In the runtime, whose readiness a blocking read would not wait for.
                    self.reader.get_mut().set_blocking(false);
                    tokio::select! {
                        _ = self.reader.wait_readable() => {}
                        _ = ack.needs_session() => {}
                        _ = killed.as_mut() => return false,
                    }
                    if self.blocking_reads {
                        self.reader.get_mut().set_blocking(true);
                    }
                }
                match ack.settle().await {
                    Outcome::Sent | Outcome::Pending => {}
                    Outcome::Partial(rest) => self.writer.push_framed(&rest),
                    Outcome::Failed(e) => {
                        self.writer.set_seq(seq);
                        proto::write_my_error(&mut self.writer, self.caps, &e);
                    }
                }
                if self.writer.flush(&mut self.out).await.is_err() {
                    return false;
                }
            }
            if self.reader.buffered_bytes() == 0 {
                self.spin_for_command(ctx);
            }
            // Idle sessions past wait_timeout are closed by the server's reaper (a KILL
            // CONNECTION), not by a timer per read.
            let read = tokio::select! {
                r = self.reader.read_into(&mut payload) => r,
                _ = killed => return false,
            };
            match read {
                Ok(true) => {}
                Ok(false) => return false,
                Err(e) => {
                    if let Some(me) = e.to_my_error() {
                        self.writer.set_seq(self.reader.seq());
                        proto::write_my_error(&mut self.writer, self.caps, &me);
                        let _ = self.writer.flush(&mut self.out).await;
                    }
                    return false;
                }
            }
            if ctx.connection_killed() {
                return false;
            }
            self.writer.set_seq(self.reader.seq());
            self.stmt_mark = self.writer.mark();
            let Some(&cmd) = payload.first() else {
                proto::write_my_error(
                    &mut self.writer,
                    self.caps,
                    &MyError::new(code::ER_MALFORMED_PACKET, "Malformed communication packet."),
                );
                let _ = self.writer.flush(&mut self.out).await;
                continue;
            };
            if !matches!(
                cmd,
                com::QUERY
                    | com::STMT_PREPARE
                    | com::STMT_EXECUTE
                    | com::STMT_CLOSE
                    | com::STMT_SEND_LONG_DATA
            ) {
                let arg = match cmd {
                    com::INIT_DB | com::FIELD_LIST => {
                        let rest = payload.get(1..).unwrap_or_default();
                        rest.split(|&b| b == 0).next().unwrap_or_default()
                    }
                    _ => b"",
                };
                ctx.log_command(command_name(cmd), arg);
            }
            if cmd == com::QUIT {
                return true;
            }
            ctx.shared.activity.lock().enter(command_name(cmd));
            ctx.shared
                .status
                .add(Stat::BytesReceived, payload.len() as u64 + 4);
            if let Some(c) = command_counter(cmd) {
                ctx.shared.status.add(c, 1);
            }
            let keep = self.dispatch(ctx, cmd, &payload).await;
            ctx.clear_kill_query();
            let info = {
                let mut a = ctx.shared.activity.lock();
                a.enter("Sleep");
                a.state = "";
                a.info.take()
            };
            drop(info); // outside the lock
            if let Some(d) = ctx.deferred.take()
                && !self.hand_off_commit(ctx, d).await
            {
                return false;
            }
            let n = self.writer.buffered_len() as u64;
            ctx.shared.status.add(Stat::BytesSent, n);
            if self.writer.flush(&mut self.out).await.is_err() {
                return false;
            }
            if payload.capacity() > 1 << 20 {
                payload = Vec::with_capacity(1024);
            }
            if !keep || ctx.connection_killed() {
                return !ctx.connection_killed() && keep;
            }
        }
    }

    /// The connection's duplicate of its socket's descriptor, made at the first call (None
    /// if `dup` failed; tried again at the next call).
    fn socket_dup(&mut self) -> Option<Arc<OwnedFd>> {
        if self.socket_fd.is_none() {
            self.socket_fd = self.out.dup_fd().ok().map(Arc::new);
        }
        self.socket_fd.clone()
    }

    /// The connection's eventfd for the journal writer to wake its blocked thread (see
    /// `journal::ack`), made at the first call (None if that failed; tried again).
    fn wake_fd(&mut self) -> Option<Arc<OwnedFd>> {
        if self.wake_fd.is_none() {
            // SAFETY: eventfd(2) returns a new descriptor we own, or -1.
            let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
            if fd >= 0 {
                // SAFETY: `fd` is open and owned by nothing else.
                self.wake_fd = Some(Arc::new(unsafe { OwnedFd::from_raw_fd(fd) }));
            }
        }
        self.wake_fd.clone()
    }

    /// With fewer sessions than CPUs, waits for the client's next command by polling the
    /// socket for up to [`SPIN`] before the thread sleeps: a thread that sleeps leaves its
    /// CPU halted, and on a virtual machine the client's next send then pays for waking it
    /// (an inter-processor interrupt, a VM exit) and the command waits for the wake-up. A
    /// CPU that has nobody else to run loses nothing to the poll. Not on the shared pool,
    /// whose worker must not block.
    fn spin_for_command(&mut self, ctx: &Ctx) {
        // A client that keeps the session waiting longer than the poll (a person at a
        // prompt, an application thinking between statements) is polled for again only
        // every 16th command after four misses in a row, so that its waits cost no CPU.
        self.spin_tries = self.spin_tries.wrapping_add(1);
        if self.spin_misses >= 4 && !self.spin_tries.is_multiple_of(16) {
            return;
        }
        static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
        let cpus =
            *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if ctx.server.connected.load(Ordering::Relaxed) >= cpus || super::threads::on_shared_pool()
        {
            return;
        }
        let Some(fd) = self.socket_dup() else {
            return;
        };
        let fd = fd.as_raw_fd();
        let start = std::time::Instant::now();
        loop {
            let mut byte = 0u8;
            // SAFETY: a one-byte buffer on the stack; MSG_PEEK consumes nothing, MSG_DONTWAIT
            // never blocks; the descriptor is this connection's (a duplicate we own).
            let n = unsafe {
                libc::recv(
                    fd,
                    (&mut byte as *mut u8).cast(),
                    1,
                    libc::MSG_PEEK | libc::MSG_DONTWAIT,
                )
            };
            if n >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::WouldBlock {
                self.spin_misses = 0;
                return;
            }
            if start.elapsed() >= SPIN {
                self.spin_misses = self.spin_misses.saturating_add(1);
                return;
            }
            std::hint::spin_loop();
        }
    }

    /// The command ended with a deferred commit (see `Ctx::commit_last`): hand it to the
    /// journal writer with its statement's response (the OK), which the writer sends once
    /// the commit is as durable as the settings ask; what earlier statements of the command
    /// answered is sent first, here. If the writer cannot take it, commit here and answer
    /// with the error instead of the OK if that fails.
    async fn hand_off_commit(&mut self, ctx: &mut Ctx, d: Deferred) -> bool {
        let mark = self.stmt_mark;
        let journal = ctx.server.journal.get().cloned();
        let err = match (journal, self.socket_dup(), self.writer.split_off(mark)) {
            (Some(journal), Some(fd), Some(ok)) => {
                if self.writer.flush(&mut self.out).await.is_err() {
                    // The client is gone: the commit goes on, as after a COMMIT and a quit.
                    let _ = ctx.commit_deferred(d).await;
                    return false;
                }
                let len = ok.len() as u64;
                let lead = may_lead(d.txn.explicit);
                let wake = if self.blocking_reads {
                    self.wake_fd()
                } else {
                    None
                };
                let (direct, ack) = DirectAck::new(d.txn, ctx.server.storage.clone(), fd, ok, wake);
                match journal.submit_direct(d.what, direct, journal.ack_mode(), lead) {
                    Ok(()) => {
                        ctx.shared.status.add(Stat::BytesSent, len);
                        self.pending = Some((ack, mark.seq()));
                        return true;
                    }
                    Err(e) => {
                        self.writer.set_seq(mark.seq());
                        e
                    }
                }
            }
            (_, _, ok) => {
                if let Some(ok) = ok {
                    self.writer.push_framed(&ok);
                }
                match ctx.commit_deferred(d).await {
                    Ok(()) => return true,
                    Err(e) => {
                        // If the response was flushed in part, the error follows it.
                        self.writer.rollback(mark);
                        e
                    }
                }
            }
        };
        proto::write_my_error(&mut self.writer, self.caps, &err);
        true
    }

    /// Run one command; `false` ends the connection.
    async fn dispatch(&mut self, ctx: &mut Ctx, cmd: u8, payload: &[u8]) -> bool {
        let caps = self.caps;
        match cmd {
            com::QUERY => {
                ctx.shared.status.add(Stat::Questions, 1);
                let raw = proto::parse_com_query(payload);
                let text = lexer::decode_wire_text(raw);
                // A NUL ends the query text (mysqlslap sends one).
                let text: &str = match text.find('\0') {
                    Some(p) => &text[..p],
                    None => &text,
                };
                ctx.shared.activity.lock().info = Some(Arc::from(text));
                let pieces = if self.multi_statements {
                    lexer::split_statements(text, &ctx.lex_options())
                } else {
                    vec![(0, text.len())]
                };
                if pieces.is_empty() {
                    proto::write_my_error(
                        &mut self.writer,
                        caps,
                        &MyError::new(code::ER_EMPTY_QUERY, "Query was empty"),
                    );
                    return true;
                }
                let n = pieces.len();
                for (i, (s, e)) in pieces.into_iter().enumerate() {
                    let stmt = text.get(s..e).unwrap_or("");
                    ctx.shared.status.add(Stat::Queries, 1);
                    ctx.begin_record(if i == 0 { payload.len() as u64 + 4 } else { 0 });
                    ctx.log_statement("Query", stmt.as_bytes());
                    let more = i + 1 < n;
                    self.stmt_mark = self.writer.mark();
                    let sent_before = self.writer.total_bytes();
                    let mut resp = self.responder(ctx, false, false);
                    let r = ctx.run_text(stmt, &mut resp, more).await;
                    let (io_failed, rows_sent) = (resp.io_failed, resp.rows);
                    if let Err(e) = &r {
                        ctx.diag
                            .push(crate::error::Level::Error, e.code, e.message.clone());
                        proto::write_my_error(&mut self.writer, caps, e);
                    }
                    let text = LogText::Plain(stmt.as_bytes());
                    let r = self
                        .end_statement(ctx, stmt, text, r, rows_sent, sent_before)
                        .await;
                    if r.is_err() {
                        break;
                    }
                    if io_failed {
                        return false;
                    }
                }
                true
            }
            com::INIT_DB => {
                let db = String::from_utf8_lossy(proto::parse_com_init_db(payload)).into_owned();
                ctx.diag.clear();
                let r = crate::sql::utility::run_admin(ctx, &crate::sql::admin::AdminStmt::Use(db));
                match r {
                    Ok(_) => {
                        let st = ctx.status_flags(false);
                        proto::write_ok(&mut self.writer, caps, 0, 0, st, 0, "");
                    }
                    Err(crate::sql::exec::ExecError::Sql(e)) => {
                        proto::write_my_error(&mut self.writer, caps, &e)
                    }
                    Err(_) => proto::write_my_error(
                        &mut self.writer,
                        caps,
                        &MyError::internal("unexpected wait"),
                    ),
                }
                true
            }
            com::PING => {
                let st = ctx.status_flags(false);
                proto::write_ok(&mut self.writer, caps, 0, 0, st, 0, "");
                true
            }
            com::DEBUG => {
                let st = ctx.status_flags(false);
                proto::write_eof(&mut self.writer, caps, 0, st);
                true
            }
            com::STATISTICS => {
                let s = ctx.server.global_status();
                let uptime = ctx.server.started.elapsed().as_secs().max(1);
                let q = s[Stat::Questions as usize];
                let text = format!(
                    "Uptime: {uptime}  Threads: {}  Questions: {q}  Slow queries: {}  Opens: 0  Flush tables: 1  Open tables: 0  Queries per second avg: {:.3}",
                    ctx.server.sessions.lock().len(),
                    s[Stat::SlowQueries as usize],
                    q as f64 / uptime as f64
                );
                self.writer.packet(text.as_bytes());
                true
            }
            com::PROCESS_KILL => {
                match proto::parse_com_process_kill(payload) {
                    Ok(id) => {
                        let stmt = crate::sql::admin::AdminStmt::Kill {
                            query_only: false,
                            id: Box::new(sqlparser::ast::Expr::value(
                                sqlparser::ast::Value::Number(id.to_string(), false),
                            )),
                        };
                        match crate::sql::utility::run_admin(ctx, &stmt) {
                            Ok(_) => {
                                let st = ctx.status_flags(false);
                                proto::write_ok(&mut self.writer, caps, 0, 0, st, 0, "");
                            }
                            Err(crate::sql::exec::ExecError::Sql(e)) => {
                                proto::write_my_error(&mut self.writer, caps, &e)
                            }
                            Err(_) => {}
                        }
                    }
                    Err(e) => proto::write_my_error(&mut self.writer, caps, &e.to_my_error()),
                }
                true
            }
            com::FIELD_LIST => {
                match proto::parse_com_field_list(payload) {
                    Ok((table, _wild)) => {
                        let t = String::from_utf8_lossy(table).into_owned();
                        match crate::sql::show::resolve_table(ctx, None, &t) {
                            Ok(table) => {
                                let db = table.def.db.clone();
                                for (i, c) in table.def.columns.iter().enumerate() {
                                    let mut m = ColumnMeta::for_type(&c.ty, c.nullable);
                                    m.schema = db.clone();
                                    m.table = t.clone();
                                    m.org_table = t.clone();
                                    m.name = c.name.clone();
                                    m.org_name = c.name.clone();
                                    m.flags =
                                        mysql_common::constants::ColumnFlags::from_bits_truncate(
                                            crate::sql::planner::column_flags(&table, i),
                                        );
                                    proto::write_field_list_column(&mut self.writer, &m, None);
                                }
                                let st = ctx.status_flags(false);
                                proto::write_eof_or_ok(&mut self.writer, caps, st, 0);
                            }
                            Err(e) => proto::write_my_error(&mut self.writer, caps, &e),
                        }
                    }
                    Err(e) => proto::write_my_error(&mut self.writer, caps, &e.to_my_error()),
                }
                true
            }
            com::SET_OPTION => {
                match proto::parse_com_set_option(payload) {
                    Ok(0) => {
                        self.multi_statements = true;
                        let st = ctx.status_flags(false);
                        proto::write_eof(&mut self.writer, caps, 0, st);
                    }
                    Ok(1) => {
                        self.multi_statements = false;
                        let st = ctx.status_flags(false);
                        proto::write_eof(&mut self.writer, caps, 0, st);
                    }
                    Ok(_) => proto::write_my_error(
                        &mut self.writer,
                        caps,
                        &MyError::new(code::ER_UNKNOWN_COM_ERROR, "Unknown command"),
                    ),
                    Err(e) => proto::write_my_error(&mut self.writer, caps, &e.to_my_error()),
                }
                true
            }
            com::RESET_CONNECTION => {
                self.reset_session(ctx);
                let st = ctx.status_flags(false);
                proto::write_ok(&mut self.writer, caps, 0, 0, st, 0, "");
                true
            }
            com::CHANGE_USER => {
                let server = ctx.server.clone();
                let lookup = |user: &str| server.accounts_named(user);
                match auth::change_user(
                    &mut self.reader,
                    &mut self.writer,
                    &mut self.out,
                    &self.login,
                    payload,
                    lookup,
                    &self.peer,
                )
                .await
                {
                    Ok(a) => {
                        if let Some(db) = &a.db
                            && ctx.server.storage.catalog.database(db).is_none()
                        {
                            proto::write_my_error(&mut self.writer, caps, &MyError::bad_db(db));
                            return false;
                        }
                        self.reset_session(ctx);
                        ctx.user = a.user.clone();
                        ctx.priv_user = a.account_user.clone();
                        ctx.priv_host = a.host_matched.clone();
                        ctx.db = a.db.clone();
                        *ctx.shared.user.lock() = a.user.clone();
                        *ctx.shared.db.lock() = a.db.clone();
                        set_log_identity(ctx);
                        ctx.audit_connection("Change user");
                        self.login = a;
                        let st = ctx.status_flags(false);
                        proto::write_ok(&mut self.writer, caps, 0, 0, st, 0, "");
                        true
                    }
                    Err(_) => false,
                }
            }
            com::STMT_PREPARE => {
                self.prepare(ctx, payload);
                true
            }
            com::STMT_EXECUTE => self.execute(ctx, payload).await,
            com::STMT_SEND_LONG_DATA => {
                if let Ok((id, param, data)) = binary::parse_send_long_data(payload)
                    && let Some(s) = self.stmts.get_mut(&id)
                    && let Some(slot) = s.long_data.get_mut(param as usize)
                {
                    let buf = slot.get_or_insert_with(Vec::new);
                    if buf.len() + data.len() <= self.reader.max_packet_bytes() {
                        buf.extend_from_slice(data);
                    }
                }
                true
            }
            com::STMT_CLOSE => {
                ctx.log_command("Close stmt", b"");
                if let Ok(id) = proto::parse_stmt_id(payload) {
                    self.stmts.remove(&id);
                }
                true
            }
            com::STMT_RESET => {
                match proto::parse_stmt_id(payload)
                    .ok()
                    .and_then(|id| self.stmts.get_mut(&id))
                {
                    Some(s) => {
                        s.long_data.iter_mut().for_each(|d| *d = None);
                        let st = ctx.status_flags(false);
                        proto::write_ok(&mut self.writer, caps, 0, 0, st, 0, "");
                    }
                    None => proto::write_my_error(
                        &mut self.writer,
                        caps,
                        &unknown_stmt("mysqld_stmt_reset"),
                    ),
                }
                true
            }
            _ => {
                proto::write_my_error(
                    &mut self.writer,
                    caps,
                    &MyError::new(code::ER_UNKNOWN_COM_ERROR, "Unknown command"),
                );
                true
            }
        }
    }

    fn reset_session(&mut self, ctx: &mut Ctx) {
        ctx.rollback();
        ctx.drop_temp_tables();
        ctx.user_vars.clear();
        ctx.vars = crate::config::SessionVars::new(&ctx.server.globals);
        ctx.refresh_cached_vars();
        ctx.diag.clear();
        ctx.last_insert_id = 0;
        ctx.next_isolation = None;
        ctx.next_read_only = None;
        self.stmts.clear();
    }

    fn prepare(&mut self, ctx: &mut Ctx, payload: &[u8]) {
        let caps = self.caps;
        let raw = proto::parse_com_query(payload);
        let text = lexer::decode_wire_text(raw);
        let text = match text.find('\0') {
            Some(p) => &text[..p],
            None => &text,
        };
        ctx.log_command("Prepare", text.as_bytes());
        ctx.diag.clear();
        let max = ctx.server.globals.get_u64(vars::MAX_PREPARED_STMT_COUNT) as usize;
        if self.stmts.len() >= max {
            proto::write_my_error(
                &mut self.writer,
                caps,
                &MyError::new(
                    code::ER_MAX_PREPARED_STMT_COUNT_REACHED,
                    format!(
                        "Can't create more than max_prepared_stmt_count statements (current value: {max})"
                    ),
                ),
            );
            return;
        }
        let pieces = lexer::split_statements(text, &ctx.lex_options());
        if pieces.len() > 1 {
            proto::write_my_error(
                &mut self.writer,
                caps,
                &MyError::parse(text.get(pieces[1].0..).unwrap_or(""), 1),
            );
            return;
        }
        let (numbered, n) = parse::number_placeholders(text.trim());
        let kind = lexer::statement_kind(text, &ctx.lex_options());
        let digest_text: Arc<str> = lexer::normalize(text.trim(), &ctx.lex_options())
            .map_or_else(|_| Arc::from(""), |n| Arc::from(n.digest_text));
        let params = vec![crate::sql::bind::ParamInfo::Client; n];
        ctx.start_statement_clock();
        match ctx.plan_text(&numbered, &params, kind) {
            Ok(p) => {
                let id = self.next_stmt_id;
                self.next_stmt_id = self.next_stmt_id.wrapping_add(1).max(1);
                let param_count = n.max(p.param_count);
                let st = ctx.status_flags(false);
                if let Err(e) = binary::write_prepare_ok(
                    &mut self.writer,
                    caps,
                    id,
                    &param_meta(param_count),
                    &p.columns,
                    ctx.diag.own_count(),
                    st,
                ) {
                    proto::write_my_error(&mut self.writer, caps, &e);
                    return;
                }
                let prepared = Arc::new(p);
                self.stmts.insert(
                    id,
                    Stmt {
                        info: Arc::from(text.trim()),
                        param_pos: parse::placeholder_positions(text.trim()).into(),
                        numbered,
                        kind,
                        digest_text,
                        digest: None,
                        prepared,
                        param_types: Vec::new(),
                        long_data: vec![None; param_count],
                        meta_sent: None,
                        typed: None,
                    },
                );
            }
            Err(e) => proto::write_my_error(&mut self.writer, caps, &e),
        }
    }

    async fn execute(&mut self, ctx: &mut Ctx, payload: &[u8]) -> bool {
        let caps = self.caps;
        ctx.begin_record(payload.len() as u64 + 4);
        ctx.rec.prepared = true;
        ctx.shared.status.add(Stat::Questions, 1);
        ctx.shared.status.add(Stat::Queries, 1);
        let Ok(id) = proto::parse_stmt_id(payload) else {
            proto::write_my_error(
                &mut self.writer,
                caps,
                &MyError::new(code::ER_MALFORMED_PACKET, "Malformed communication packet."),
            );
            return true;
        };
        let Some(stmt) = self.stmts.get_mut(&id) else {
            proto::write_my_error(&mut self.writer, caps, &unknown_stmt("mysqld_stmt_execute"));
            return true;
        };
        let n = stmt.long_data.len();
        let exec =
            match binary::parse_execute(payload, n, &mut stmt.param_types, &mut stmt.long_data) {
                Ok(e) => e,
                Err(e) => {
                    proto::write_my_error(&mut self.writer, caps, &e.to_my_error());
                    return true;
                }
            };
        // Re-plan after DDL changed the catalog.
        if !stmt.prepared.current(ctx.server.storage.catalog.version())
            && !matches!(stmt.prepared.planned, Planned::Other(_))
        {
            let params = vec![crate::sql::bind::ParamInfo::Client; n];
            match ctx.plan_text(&stmt.numbered, &params, stmt.kind) {
                Ok(p) => stmt.prepared = Arc::new(p),
                Err(e) => {
                    proto::write_my_error(&mut self.writer, caps, &e);
                    return true;
                }
            }
        }
        let mut prepared = stmt.prepared.clone();
        if prepared.param_typed_columns {
            let sig: Vec<SqlType> = exec
                .params
                .iter()
                .map(crate::sql::bind::param_value_type)
                .collect();
            match &stmt.typed {
                Some((s, p)) if *s == sig && p.current(prepared.catalog_version) => {
                    prepared = p.clone();
                }
                _ => {
                    let params: Vec<_> = sig
                        .iter()
                        .map(|t| crate::sql::bind::ParamInfo::Typed(t.clone()))
                        .collect();
                    match ctx.plan_text(&stmt.numbered, &params, stmt.kind) {
                        Ok(p) => {
                            let p = Arc::new(p);
                            stmt.typed = Some((sig, p.clone()));
                            prepared = p;
                        }
                        Err(e) => {
                            proto::write_my_error(&mut self.writer, caps, &e);
                            return true;
                        }
                    }
                }
            }
        }
        let ptr = Arc::as_ptr(&prepared) as usize;
        let skip_metadata = prepared.is_select() && stmt.meta_sent == Some(ptr);
        stmt.meta_sent = prepared.is_select().then_some(ptr);
        ctx.shared.activity.lock().info = Some(stmt.info.clone());
        if matches!(prepared.planned, crate::sql::Planned::Other(_)) {
            ctx.stmt_text.clear();
            ctx.stmt_text.push_str(&stmt.info);
        }
        ctx.diag.clear();
        ctx.begin_statement();
        // The statement keeps its digest row while it is current (no lookup per execution).
        let digests = &ctx.server.digests;
        match &stmt.digest {
            Some(e) if digests.fresh(e, ctx.db.as_deref()) => ctx.stmt_digest.set(Some(e)),
            _ if stmt.digest_text.is_empty() => ctx.stmt_digest.set(None),
            _ => {
                let e = ctx
                    .digest_cache
                    .get(digests, ctx.db.as_deref(), &stmt.digest_text);
                stmt.digest = e.cloned();
                ctx.stmt_digest.set(e);
            }
        }
        // The general log needs the text with its values now (and leaves it in `text_buf`
        // for the other logs); the slow log only if it takes the entry.
        let (info, param_pos) = (stmt.info.clone(), stmt.param_pos.clone());
        let general = ctx.server.logs.general_any();
        if general {
            let mut buf = std::mem::take(&mut ctx.text_buf);
            buf.clear();
            super::logging::push_execute_text(&mut buf, &info, &param_pos, &exec.params);
            ctx.log_statement("Execute", &buf);
            ctx.text_buf = buf;
        }
        let sent_before = self.writer.total_bytes();
        let mut resp = self.responder(ctx, true, skip_metadata);
        let r = ctx
            .execute_prepared(&prepared, &exec.params, &mut resp, false)
            .await;
        let (io_failed, rows_sent) = (resp.io_failed, resp.rows);
        if let Err(e) = &r {
            ctx.diag
                .push(crate::error::Level::Error, e.code, e.message.clone());
            proto::write_my_error(&mut self.writer, caps, e);
        }
        let text = if general {
            LogText::Built
        } else {
            LogText::Execute {
                text: &info,
                positions: &param_pos,
                params: &exec.params,
            }
        };
        // An error (the statement's or its commit's) has been answered already.
        let _ = self
            .end_statement(ctx, &info, text, r, rows_sent, sent_before)
            .await;
        !io_failed
    }

    /// Completes the statement record of a statement that has run, and hands it to the logs,
    /// the digests, the session's history and its profile (`sql`: the statement's text,
    /// `text`: as the logs show it). A profiled statement's deferred commit is made here, so
    /// that its wait is a stage of the statement (see `profile`); returns the statement's
    /// result with the commit's.
    async fn end_statement(
        &mut self,
        ctx: &mut Ctx,
        sql: &str,
        text: LogText<'_>,
        mut r: Result<()>,
        rows_sent: u64,
        sent_before: u64,
    ) -> Result<()> {
        if ctx.profiler.current.is_some()
            && let Some(d) = ctx.deferred.take()
        {
            ctx.stage(Stage::WaitingForHandlerCommit);
            if let Err(e) = ctx.commit_deferred(d).await {
                // The statement's OK is replaced by the commit's error.
                self.writer.rollback(self.stmt_mark);
                proto::write_my_error(&mut self.writer, self.caps, &e);
                r = Err(e);
            }
        }
        ctx.stage(Stage::QueryEnd);
        let rec = &mut ctx.rec;
        rec.rows_sent = rows_sent;
        rec.rows_affected = ctx.prev_row_count.max(0) as u64;
        rec.errno = r.as_ref().err().map_or(0, |e| e.code);
        rec.bytes_sent = self.writer.total_bytes() - sent_before;
        ctx.statement_done(text);
        ctx.record_history(sql);
        ctx.end_profile(sql);
        r
    }
}

/// The session's `# User@Host:` line for the slow log: `localhost []` over the Unix socket,
/// an empty host name and the IP over TCP (names are not resolved).
fn set_log_identity(ctx: &mut Ctx) {
    let host = if ctx.ip.is_empty() { "localhost" } else { "" };
    ctx.log_user_host =
        crate::observe::slow::user_host_line(&ctx.priv_user, &ctx.user, host, &ctx.ip, ctx.conn_id);
}

fn unknown_stmt(what: &str) -> MyError {
    MyError::new(
        code::ER_UNKNOWN_STMT_HANDLER,
        format!("Unknown prepared statement handler (0) given to {what}"),
    )
}

/// The `Com_*` counter of a protocol command other than COM_QUERY (whose statements count
/// as what they are), as MySQL counts them.
fn command_counter(cmd: u8) -> Option<Stat> {
    Some(match cmd {
        com::STMT_PREPARE => Stat::ComStmtPrepare,
        com::STMT_EXECUTE => Stat::ComStmtExecute,
        com::STMT_CLOSE => Stat::ComStmtClose,
        com::STMT_RESET => Stat::ComStmtReset,
        com::STMT_SEND_LONG_DATA => Stat::ComStmtSendLongData,
        com::INIT_DB => Stat::ComChangeDb,
        com::FIELD_LIST => Stat::ComShowFields,
        com::STATISTICS => Stat::ComShowStatus,
        com::PROCESS_KILL => Stat::ComKill,
        com::SET_OPTION => Stat::ComSetOption,
        com::PING | com::DEBUG | com::CHANGE_USER | com::RESET_CONNECTION => Stat::ComAdminCommands,
        _ => return None,
    })
}

/// A login that failed or was refused: counted in `Aborted_connects`, the session dropped.
fn aborted_connect(server: &Server, id: u32) {
    server
        .status
        .aborted_connects
        .fetch_add(1, Ordering::Relaxed);
    server.unregister_session(id);
}
