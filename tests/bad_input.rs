//! Hostile and broken clients on raw TCP: the server must answer with MySQL's error where
//! MySQL documents one, may close the connection where the protocol allows it, and must
//! never crash, hang or leak a lock. After every case a fresh connection must still get
//! `SELECT 1`.
//!
//! The client side is a deliberately tiny implementation of the MySQL protocol (packets,
//! HandshakeResponse41 with an empty password, COM_QUERY/COM_STMT_*), so the tests can
//! send exactly the bytes they want. Packet format: 3-byte little-endian payload length,
//! 1-byte sequence id, payload; a payload of 0xFFFFFF bytes continues in the next packet.
//!
//! Where MySQL and MariaDB both document an error (unknown command 1047, unknown statement
//! 1243, packet too large 1153), it is required. For malformed packets, bad sequence ids
//! and truncated handshakes either an ERR packet or closing the connection is accepted.

mod common;

use common::TestServer;
use mysql::prelude::Queryable;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

const MAX_PAYLOAD: usize = 0xFF_FFFF;

const COM_QUERY: u8 = 0x03;
const COM_STMT_PREPARE: u8 = 0x16;
const COM_STMT_EXECUTE: u8 = 0x17;

// Capability flags sent by the raw client.
const CLIENT_LONG_PASSWORD: u32 = 0x1;
const CLIENT_PROTOCOL_41: u32 = 0x200;
const CLIENT_TRANSACTIONS: u32 = 0x2000;
const CLIENT_SECURE_CONNECTION: u32 = 0x8000;
const CLIENT_MULTI_RESULTS: u32 = 0x20000;
const CLIENT_PLUGIN_AUTH: u32 = 0x80000;

/// What the server answered to a command.
#[derive(Debug, PartialEq)]
enum Reply {
    Ok,
    Err {
        code: u16,
        message: String,
    },
    /// Result set rows (text protocol), NULL as None.
    Rows(Vec<Vec<Option<Vec<u8>>>>),
    /// The server closed the connection (EOF or reset) instead of answering.
    Closed,
}

/// A minimal MySQL protocol client on a raw socket.
struct Raw {
    s: TcpStream,
    /// The sequence id of the last packet read.
    seq: u8,
}

fn is_closed(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::UnexpectedEof
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::BrokenPipe
    )
}

fn lenenc_int(buf: &[u8], pos: &mut usize) -> Option<u64> {
    let first = *buf.get(*pos)?;
    *pos += 1;
    let width = match first {
        0..=0xFA => return Some(u64::from(first)),
        0xFC => 2,
        0xFD => 3,
        0xFE => 8,
        _ => return None,
    };
    let bytes = buf.get(*pos..*pos + width)?;
    *pos += width;
    Some(
        bytes
            .iter()
            .rev()
            .fold(0, |acc, &b| (acc << 8) | u64::from(b)),
    )
}

impl Raw {
    /// Connects and reads the server's greeting (not answered yet).
    fn connect_raw(server: &TestServer) -> (Raw, Vec<u8>) {
        let s = TcpStream::connect(("127.0.0.1", server.port())).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30)))
            .expect("timeout");
        s.set_write_timeout(Some(Duration::from_secs(30)))
            .expect("timeout");
        s.set_nodelay(true).expect("nodelay");
        let mut raw = Raw { s, seq: 0 };
        let greeting = raw.read_packet().expect("server greeting");
        assert_eq!(
            greeting.first(),
            Some(&10),
            "protocol version 10 greeting, got {greeting:?}"
        );
        (raw, greeting)
    }

    /// Connects and logs in as root with an empty password.
    fn connect(server: &TestServer) -> Raw {
        let (mut raw, _) = Raw::connect_raw(server);
        let caps = CLIENT_LONG_PASSWORD
            | CLIENT_PROTOCOL_41
            | CLIENT_TRANSACTIONS
            | CLIENT_SECURE_CONNECTION
            | CLIENT_MULTI_RESULTS
            | CLIENT_PLUGIN_AUTH;
        let mut p = Vec::new();
        p.extend_from_slice(&caps.to_le_bytes());
        p.extend_from_slice(&(64_u32 << 20).to_le_bytes()); // max packet
        p.push(45); // utf8mb4_general_ci
        p.extend_from_slice(&[0; 23]);
        p.extend_from_slice(b"root\0");
        p.push(0); // empty auth response
        p.extend_from_slice(b"mysql_native_password\0");
        raw.write_packet(1, &p).expect("send handshake response");
        // OK, or an auth switch / more-data exchange that an empty password ends at once.
        let mut seq = 2_u8;
        for _ in 0..4 {
            let pkt = raw.read_packet().expect("auth reply");
            match pkt.first() {
                Some(0x00) => return raw,
                Some(0xFF) => panic!("login failed: {:?}", String::from_utf8_lossy(&pkt)),
                Some(0xFE) => {
                    raw.write_packet(seq.wrapping_add(1), &[])
                        .expect("auth switch response");
                    seq = seq.wrapping_add(2);
                }
                Some(0x01) if pkt.get(1) == Some(&0x03) => seq = seq.wrapping_add(1), // fast auth ok
                other => panic!("unexpected auth packet {other:?}: {pkt:?}"),
            }
        }
        panic!("authentication did not finish");
    }

    fn write_packet(&mut self, seq: u8, payload: &[u8]) -> io::Result<()> {
        // Split at 0xFFFFFF; a final full chunk is followed by an empty packet.
        let mut seq = seq;
        let mut rest = payload;
        loop {
            let n = rest.len().min(MAX_PAYLOAD);
            let (chunk, tail) = rest.split_at(n);
            let mut frame = Vec::with_capacity(4 + n);
            frame.extend_from_slice(&(n as u32).to_le_bytes()[..3]);
            frame.push(seq);
            frame.extend_from_slice(chunk);
            self.s.write_all(&frame)?;
            seq = seq.wrapping_add(1);
            rest = tail;
            if n < MAX_PAYLOAD {
                return Ok(());
            }
        }
    }

    fn read_packet(&mut self) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        loop {
            let mut header = [0_u8; 4];
            self.s.read_exact(&mut header)?;
            self.seq = header[3];
            let len =
                usize::from(header[0]) | usize::from(header[1]) << 8 | usize::from(header[2]) << 16;
            let start = out.len();
            out.resize(start + len, 0);
            self.s.read_exact(&mut out[start..])?;
            if len < MAX_PAYLOAD {
                return Ok(out);
            }
        }
    }

    /// Sends a command (sequence id 0) and reads its reply.
    fn command(&mut self, cmd: u8, body: &[u8]) -> Reply {
        let mut p = vec![cmd];
        p.extend_from_slice(body);
        if let Err(e) = self.write_packet(0, &p) {
            if is_closed(&e) {
                return self.read_reply();
            }
            panic!("write: {e}");
        }
        self.read_reply()
    }

    fn query(&mut self, sql: &str) -> Reply {
        self.command(COM_QUERY, sql.as_bytes())
    }

    /// Reads one reply: OK, ERR, or a text result set (classic EOF framing).
    fn read_reply(&mut self) -> Reply {
        let first = match self.read_packet() {
            Ok(p) => p,
            Err(e) if is_closed(&e) => return Reply::Closed,
            Err(e) => panic!("read: {e}"),
        };
        match first.first() {
            Some(0x00) => return Reply::Ok,
            Some(0xFF) => return parse_err(&first),
            _ => {}
        }
        let mut pos = 0;
        let ncols = lenenc_int(&first, &mut pos).expect("column count");
        // Column definitions, then EOF.
        for _ in 0..ncols {
            self.read_packet().expect("column definition");
        }
        let eof = self.read_packet().expect("EOF after columns");
        assert_eq!(eof.first(), Some(&0xFE), "EOF after column definitions");
        let mut rows = Vec::new();
        loop {
            let pkt = self.read_packet().expect("row");
            match pkt.first() {
                Some(0xFE) if pkt.len() < 9 => return Reply::Rows(rows),
                Some(0xFF) => return parse_err(&pkt),
                _ => {}
            }
            let mut pos = 0;
            let mut row = Vec::new();
            for _ in 0..ncols {
                if pkt.get(pos) == Some(&0xFB) {
                    pos += 1;
                    row.push(None);
                } else {
                    let len = lenenc_int(&pkt, &mut pos).expect("value length") as usize;
                    row.push(Some(pkt.get(pos..pos + len).expect("value").to_vec()));
                    pos += len;
                }
            }
            rows.push(row);
        }
    }

    /// COM_STMT_PREPARE; returns the statement id.
    fn prepare(&mut self, sql: &str) -> u32 {
        let mut p = vec![COM_STMT_PREPARE];
        p.extend_from_slice(sql.as_bytes());
        self.write_packet(0, &p).expect("send prepare");
        let ok = self.read_packet().expect("prepare reply");
        assert_eq!(
            ok.first(),
            Some(&0x00),
            "prepare failed: {:?}",
            parse_err(&ok)
        );
        let id = u32::from_le_bytes(ok[1..5].try_into().expect("4 bytes"));
        let ncols = u16::from_le_bytes(ok[5..7].try_into().expect("2 bytes"));
        let nparams = u16::from_le_bytes(ok[7..9].try_into().expect("2 bytes"));
        for n in [nparams, ncols] {
            if n > 0 {
                for _ in 0..n {
                    self.read_packet().expect("definition");
                }
                let eof = self.read_packet().expect("EOF");
                assert_eq!(eof.first(), Some(&0xFE));
            }
        }
        id
    }

    /// Closes the socket with a TCP reset (SO_LINGER 0), as a crashed client would.
    fn reset(self) {
        let linger = libc::linger {
            l_onoff: 1,
            l_linger: 0,
        };
        // SAFETY: setsockopt on our own open socket with a correctly sized struct.
        unsafe {
            libc::setsockopt(
                self.s.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_LINGER,
                (&linger as *const libc::linger).cast(),
                std::mem::size_of::<libc::linger>() as libc::socklen_t,
            );
        }
        drop(self);
    }
}

fn parse_err(p: &[u8]) -> Reply {
    let code = u16::from_le_bytes([
        p.get(1).copied().unwrap_or(0),
        p.get(2).copied().unwrap_or(0),
    ]);
    // "#" + 5-byte SQLSTATE follows in protocol 4.1.
    let msg_start = if p.get(3) == Some(&b'#') { 9 } else { 3 };
    Reply::Err {
        code,
        message: String::from_utf8_lossy(p.get(msg_start..).unwrap_or_default()).into_owned(),
    }
}

fn select_1(raw: &mut Raw) -> Reply {
    raw.query("SELECT 1")
}

fn one_row(v: &str) -> Reply {
    Reply::Rows(vec![vec![Some(v.as_bytes().to_vec())]])
}

/// Accepts an ERR packet or a closed connection (the protocol allows either for garbage).
fn assert_err_or_closed(what: &str, reply: &Reply) {
    eprintln!("{what}: {reply:?}");
    assert!(
        matches!(reply, Reply::Err { .. } | Reply::Closed),
        "{what}: expected an error or a closed connection, got {reply:?}"
    );
}

/// A deterministic byte generator (xorshift); no crate needed for test noise.
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect()
}

#[test]
fn raw_client_works() {
    let mut server = TestServer::start();
    let mut raw = Raw::connect(&server);
    assert_eq!(select_1(&mut raw), one_row("1"));
    assert_eq!(
        raw.query("SELECT NULL, 'a'"),
        Reply::Rows(vec![vec![None, Some(b"a".to_vec())]])
    );
    assert!(matches!(
        raw.query("SELEC 1"),
        Reply::Err { code: 1064, .. }
    ));
    assert_eq!(raw.query("DO 1"), Reply::Ok);
    server.assert_alive("raw client");
}

#[test]
fn unknown_command_and_statement() {
    let mut server = TestServer::start();
    let mut raw = Raw::connect(&server);
    // An unknown command byte: ER_UNKNOWN_COM_ERROR, and the connection goes on.
    match raw.command(0x99, b"whatever") {
        Reply::Err { code, .. } => assert_eq!(code, 1047, "unknown command"),
        other => panic!("unknown command 0x99: expected ERR 1047, got {other:?}"),
    }
    assert_eq!(select_1(&mut raw), one_row("1"), "connection after 1047");

    // COM_STMT_EXECUTE for a statement id never prepared: ER_UNKNOWN_STMT_HANDLER.
    let mut body = Vec::new();
    body.extend_from_slice(&12345_u32.to_le_bytes());
    body.push(0); // flags
    body.extend_from_slice(&1_u32.to_le_bytes()); // iteration count
    match raw.command(COM_STMT_EXECUTE, &body) {
        Reply::Err { code, .. } => assert_eq!(code, 1243, "unknown statement id"),
        other => panic!("execute of unknown statement: expected ERR 1243, got {other:?}"),
    }
    assert_eq!(select_1(&mut raw), one_row("1"), "connection after 1243");
    server.assert_alive("unknown command/statement");
}

#[test]
fn truncated_and_malformed_commands() {
    let mut server = TestServer::start();

    // A COM_STMT_EXECUTE cut short: a statement with a parameter, but no null bitmap,
    // no types and no values.
    let mut raw = Raw::connect(&server);
    let id = raw.prepare("SELECT ? + 1");
    let mut body = Vec::new();
    body.extend_from_slice(&id.to_le_bytes());
    body.push(0);
    body.extend_from_slice(&1_u32.to_le_bytes());
    let r = raw.command(COM_STMT_EXECUTE, &body);
    assert_err_or_closed("truncated COM_STMT_EXECUTE", &r);
    // Shorter still: only half a statement id.
    let mut raw = Raw::connect(&server);
    let r = raw.command(COM_STMT_EXECUTE, &[1, 0]);
    assert_err_or_closed("COM_STMT_EXECUTE with 2 bytes", &r);
    server.assert_alive("truncated COM_STMT_EXECUTE");

    // An empty packet (no command byte at all).
    let mut raw = Raw::connect(&server);
    let _ = raw.write_packet(0, &[]);
    assert_err_or_closed("empty packet", &raw.read_reply());
    server.assert_alive("empty packet");

    // A wrong sequence id on a new command.
    let mut raw = Raw::connect(&server);
    let mut p = vec![COM_QUERY];
    p.extend_from_slice(b"SELECT 1");
    let _ = raw.write_packet(7, &p);
    let r = raw.read_reply();
    eprintln!("bad sequence id: {r:?}");
    assert!(
        r == one_row("1") || matches!(r, Reply::Err { .. } | Reply::Closed),
        "bad sequence id: {r:?}"
    );
    server.assert_alive("bad sequence id");

    // A length header promising more than is sent, then the client closes.
    let mut raw = Raw::connect(&server);
    raw.s
        .write_all(&[0x00, 0x10, 0x00, 0x00, COM_QUERY, b'S', b'E'])
        .expect("send");
    let _ = raw.s.shutdown(Shutdown::Write);
    let r = raw.read_reply();
    assert_err_or_closed("half a packet then EOF", &r);
    server.assert_alive("client closed mid-packet");

    // The same with a header claiming a 16 MiB packet, closed with a reset.
    let mut raw = Raw::connect(&server);
    raw.s
        .write_all(&[0xFF, 0xFF, 0xFF, 0x00, COM_QUERY])
        .expect("send");
    let _ = raw.s.write_all(&noise(1000, 7));
    raw.reset();
    server.assert_alive("client reset mid-packet");
}

#[test]
fn broken_handshakes() {
    let mut server = TestServer::start();

    // Not MySQL at all: an HTTP request instead of a handshake response.
    let (mut raw, _) = Raw::connect_raw(&server);
    let _ = raw
        .s
        .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
    let _ = raw.s.shutdown(Shutdown::Write);
    assert_err_or_closed("HTTP request as handshake", &raw.read_reply());
    server.assert_alive("HTTP garbage");

    // Random bytes framed as a packet.
    let (mut raw, _) = Raw::connect_raw(&server);
    let _ = raw.write_packet(1, &noise(300, 42));
    assert_err_or_closed("random handshake response", &raw.read_reply());
    server.assert_alive("random handshake response");

    // A handshake response cut after the capability flags.
    let (mut raw, _) = Raw::connect_raw(&server);
    let caps = CLIENT_PROTOCOL_41 | CLIENT_SECURE_CONNECTION | CLIENT_PLUGIN_AUTH;
    let _ = raw.write_packet(1, &caps.to_le_bytes());
    assert_err_or_closed("truncated handshake response", &raw.read_reply());
    server.assert_alive("truncated handshake response");

    // A response whose user name is not terminated.
    let (mut raw, _) = Raw::connect_raw(&server);
    let mut p = Vec::new();
    p.extend_from_slice(&caps.to_le_bytes());
    p.extend_from_slice(&(1_u32 << 24).to_le_bytes());
    p.push(45);
    p.extend_from_slice(&[0; 23]);
    p.extend_from_slice(b"rootrootroot");
    let _ = raw.write_packet(1, &p);
    assert_err_or_closed("unterminated user name", &raw.read_reply());
    server.assert_alive("unterminated user name");

    // Connect and vanish during the handshake, many times.
    for i in 0..50 {
        let (raw, _) = Raw::connect_raw(&server);
        if i % 2 == 0 {
            raw.reset();
        } else {
            drop(raw);
        }
    }
    // Connect and send nothing at all, then go away.
    for _ in 0..20 {
        let s = TcpStream::connect(("127.0.0.1", server.port())).expect("connect");
        drop(s);
    }
    server.assert_alive("clients vanishing during the handshake");
}

#[test]
fn big_and_nasty_queries() {
    let mut server = TestServer::start();
    let mut raw = Raw::connect(&server);

    // 1 MB of random bytes as SQL text: a syntax error, not a crash.
    let mut p = vec![COM_QUERY];
    p.extend_from_slice(&noise(1 << 20, 99));
    raw.write_packet(0, &p).expect("send");
    assert!(
        matches!(raw.read_reply(), Reply::Err { .. }),
        "random bytes as SQL must be an error"
    );
    assert_eq!(select_1(&mut raw), one_row("1"));

    // Deeply nested parentheses: an error (MySQL 8.0: 1064 "memory exhausted", its parser
    // stack is bounded), not a stack overflow. MariaDB 10.11 evaluates it; allowed there.
    let depth = 10_000;
    let sql = format!("SELECT {}1{}", "(".repeat(depth), ")".repeat(depth));
    let r = raw.query(&sql);
    let tolerated = server.target() == common::Target::MariaDb && r == one_row("1");
    assert!(
        tolerated || matches!(r, Reply::Err { .. }),
        "10,000 nested parentheses must be an error: {r:?}"
    );
    server.assert_alive("deep nesting");
    let mut raw = Raw::connect(&server);
    // A modest depth must still work.
    let sql = format!("SELECT {}1{}", "(".repeat(10), ")".repeat(10));
    assert_eq!(raw.query(&sql), one_row("1"));

    // A query larger than 16 MiB arrives in several packets.
    let len = 17 * 1024 * 1024;
    let sql = format!("SELECT LENGTH('{}')", "x".repeat(len));
    assert_eq!(raw.query(&sql), one_row(&len.to_string()));
    // Exactly 0xFFFFFF payload bytes: the sender must add an empty packet, and the server
    // must wait for it.
    let filler = MAX_PAYLOAD - 1 - "SELECT LENGTH('')".len();
    let sql = format!("SELECT LENGTH('{}')", "y".repeat(filler));
    assert_eq!(sql.len() + 1, MAX_PAYLOAD);
    assert_eq!(raw.query(&sql), one_row(&filler.to_string()));
    assert_eq!(select_1(&mut raw), one_row("1"));
    server.assert_alive("big queries");
}

#[test]
fn packet_larger_than_max_allowed_packet() {
    let mut server = TestServer::start_with(&["--max-allowed-packet=1048576"]);
    let mut raw = Raw::connect(&server);
    let max: Reply = raw.query("SELECT @@max_allowed_packet");
    assert_eq!(max, one_row("1048576"));
    let sql = format!("SELECT LENGTH('{}')", "z".repeat(2 << 20));
    match raw.query(&sql) {
        Reply::Err { code, message } => {
            assert_eq!(code, 1153, "packet too large: {message}");
            // ... and the server closes the connection afterwards.
            assert_eq!(select_1(&mut raw), Reply::Closed, "connection after 1153");
        }
        other => {
            panic!("a 2 MiB packet with max_allowed_packet=1M: expected ERR 1153, got {other:?}")
        }
    }
    server.assert_alive("packet too large");
    // Just under the limit is fine.
    let mut raw = Raw::connect(&server);
    let n = (1 << 20) - 100;
    let sql = format!("SELECT LENGTH('{}')", "z".repeat(n));
    assert_eq!(raw.query(&sql), one_row(&n.to_string()));
}

#[test]
fn vanished_client_releases_row_lock() {
    let mut server = TestServer::start();
    let mut admin = server.mysql_conn();
    admin.query_drop("CREATE DATABASE v").expect("db");
    admin
        .query_drop("CREATE TABLE v.t (id INT PRIMARY KEY, n INT)")
        .expect("table");
    admin
        .query_drop("INSERT INTO v.t VALUES (1, 0), (2, 0)")
        .expect("rows");
    admin
        .query_drop("SET SESSION innodb_lock_wait_timeout = 20")
        .expect("lwt");

    for (row, how) in [(1, "FIN"), (2, "RST")] {
        let mut raw = Raw::connect(&server);
        assert_eq!(raw.query("BEGIN"), Reply::Ok);
        assert_eq!(
            raw.query(&format!("UPDATE v.t SET n = 100 WHERE id = {row}")),
            Reply::Ok
        );
        // Another session starts waiting for the row while the owner is still there.
        let opts = server.opts();
        let waiter = std::thread::spawn(move || {
            let mut c = mysql::Conn::new(opts).expect("connect");
            c.query_drop("SET SESSION innodb_lock_wait_timeout = 20")
                .expect("lwt");
            let started = Instant::now();
            c.query_drop(format!("UPDATE v.t SET n = n + 1 WHERE id = {row}"))
                .map(|_| started.elapsed())
        });
        std::thread::sleep(Duration::from_millis(300));
        assert!(!waiter.is_finished(), "the row lock did not block ({how})");
        // The owner vanishes mid-transaction.
        if how == "RST" {
            raw.reset();
        } else {
            raw.s.shutdown(Shutdown::Both).expect("shutdown");
            drop(raw);
        }
        let waited = waiter.join().expect("waiter").expect("waiter's update");
        assert!(
            waited < Duration::from_secs(10),
            "lock released only after {waited:?} ({how})"
        );
        let n: Option<i32> = admin
            .query_first(format!("SELECT n FROM v.t WHERE id = {row}"))
            .expect("select");
        assert_eq!(
            n,
            Some(1),
            "the vanished client's update was not rolled back ({how})"
        );
    }
    server.assert_alive("vanished clients");
}

/// A client that sends its next commands before reading the answers (pipelining): each
/// commit's OK — sent by the journal writer once durable (`journal::ack`) — arrives in
/// order, with sequence id 1, before the answer to the command after it, and that command
/// sees the commit. A client that sends a COMMIT and leaves at once still has it committed.
#[test]
fn pipelined_commands_after_commits() {
    let mut server = TestServer::start();
    let mut admin = server.mysql_conn();
    admin.query_drop("CREATE DATABASE p").expect("db");
    admin
        .query_drop("CREATE TABLE p.t (id INT PRIMARY KEY, n INT)")
        .expect("table");

    let mut raw = Raw::connect(&server);
    let mut queries: Vec<String> = (1..=50)
        .map(|i| format!("INSERT INTO p.t VALUES ({i}, {i})"))
        .collect();
    queries.push("INSERT INTO p.t VALUES (1, 0)".into());
    queries.extend(
        [
            "BEGIN",
            "UPDATE p.t SET n = n + 1000 WHERE id = 1",
            "COMMIT",
        ]
        .map(String::from),
    );
    queries.push("SELECT COUNT(*), SUM(n) FROM p.t".into());
    let mut bytes = Vec::new();
    for q in &queries {
        let len = (q.len() + 1) as u32;
        bytes.extend_from_slice(&len.to_le_bytes()[..3]);
        bytes.push(0);
        bytes.push(COM_QUERY);
        bytes.extend_from_slice(q.as_bytes());
    }
    raw.s.write_all(&bytes).expect("send all commands at once");
    for q in &queries[..50] {
        assert_eq!(raw.read_reply(), Reply::Ok, "{q}");
        assert_eq!(raw.seq, 1, "sequence id of the OK to {q}");
    }
    assert!(matches!(raw.read_reply(), Reply::Err { code: 1062, .. }));
    for q in &queries[51..54] {
        assert_eq!(raw.read_reply(), Reply::Ok, "{q}");
        assert_eq!(raw.seq, 1, "sequence id of the OK to {q}");
    }
    let sum = (1..=50).sum::<u32>() + 1000;
    assert_eq!(
        raw.read_reply(),
        Reply::Rows(vec![vec![
            Some(b"50".to_vec()),
            Some(sum.to_string().into_bytes())
        ]])
    );

    // COMMIT, then QUIT and close without reading the OK.
    assert_eq!(raw.query("BEGIN"), Reply::Ok);
    assert_eq!(raw.query("INSERT INTO p.t VALUES (100, 100)"), Reply::Ok);
    let mut bytes = vec![7, 0, 0, 0, COM_QUERY];
    bytes.extend_from_slice(b"COMMIT");
    bytes.extend_from_slice(&[1, 0, 0, 0, 0x01]);
    raw.s.write_all(&bytes).expect("COMMIT and QUIT");
    raw.s.shutdown(Shutdown::Both).expect("shutdown");
    drop(raw);
    // The commit becomes visible once durable; the session is gone by then or soon after.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let n: Option<i32> = admin
            .query_first("SELECT n FROM p.t WHERE id = 100")
            .expect("select");
        if n == Some(100) {
            break;
        }
        assert!(Instant::now() < deadline, "the COMMIT before QUIT was lost");
        std::thread::sleep(Duration::from_millis(50));
    }
    server.assert_alive("pipelined commands");
}
