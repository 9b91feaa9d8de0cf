//! The wire layer against real clients: the `mariadb` CLI (libmariadb 10.11), PyMySQL, and
//! libmariadb's prepared-statement API (driven from Python through ctypes). A tiny test
//! server built only from this layer answers a handful of fixed queries.
//!
//! Each test skips (with a message) when its client is not installed.

use super::auth::{
    AccountAuth, AuthPlugin, Authenticated, Credentials, Greeting, PeerInfo, authenticate,
    credentials_from_password,
};
use super::binary::{parse_execute, parse_send_long_data, write_binary_row, write_prepare_ok};
use super::packet::{FLUSH_HINT_BYTES, PacketReader, PacketWriter};
use super::proto::{
    parse_com_query, write_err, write_local_infile_request, write_ok, write_result_end,
    write_result_header, write_text_row,
};
use crate::sql::types::{ColumnMeta, IntWidth, SqlType};
use crate::sql::value::{DateTime, Time, Value};
use bigdecimal::BigDecimal;
use mysql_common::constants::{ColumnType, Command, StatusFlags};
use std::path::Path;
use std::process::Command as Process;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use tokio::net::{TcpListener, TcpStream};

const AUTOCOMMIT: StatusFlags = StatusFlags::SERVER_STATUS_AUTOCOMMIT;
const PYTHON: &str = "/usr/bin/python3";

/// How a login went: (plugin, database, user) or the failure's text.
type AuthOutcome = Result<(AuthPlugin, Option<String>, String), String>;

/// What one connection did, for the test to inspect.
#[derive(Debug, Default)]
struct ConnLog {
    auth: Option<AuthOutcome>,
    client_caps: u32,
    queries: Vec<String>,
    local_infile_bytes: Vec<u8>,
    exec_params: Vec<Vec<Value>>,
    long_data_packets: usize,
    /// Why the connection ended, if not by COM_QUIT or EOF.
    end_error: Option<String>,
}

struct TestServer {
    port: u16,
    logs: Arc<Mutex<Vec<ConnLog>>>,
}

fn have(cmd: &str) -> bool {
    Path::new(cmd).exists()
        || Process::new("sh")
            .args(["-c", &format!("command -v {cmd}")])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
}

async fn start_server(accounts: Vec<AccountAuth>, plugin: AuthPlugin) -> TestServer {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let logs = Arc::new(Mutex::new(Vec::new()));
    let logs2 = logs.clone();
    let accounts = Arc::new(accounts);
    tokio::spawn(async move {
        let mut conn_id = 1;
        while let Ok((sock, _)) = listener.accept().await {
            conn_id += 1;
            let logs = logs2.clone();
            let accounts = accounts.clone();
            tokio::spawn(async move {
                let mut log = ConnLog::default();
                if let Err(e) = serve(sock, conn_id, &accounts, plugin, &mut log).await {
                    log.end_error = Some(e);
                }
                logs.lock().unwrap().push(log);
            });
        }
    });
    TestServer { port, logs }
}

/// One prepared statement of the test server: `ECHO type,type,…` has one parameter per
/// listed type and returns them as one row of columns of those types.
struct Prepared {
    cols: Vec<ColumnMeta>,
    prev_types: Vec<(ColumnType, bool)>,
    long_data: Vec<Option<Vec<u8>>>,
}

fn echo_type(name: &str) -> SqlType {
    let int = |width, unsigned| SqlType::Int {
        width,
        unsigned,
        zerofill: false,
        display: None,
    };
    match name.trim() {
        "tiny" => int(IntWidth::Tiny, false),
        "short" => int(IntWidth::Small, false),
        "long" => int(IntWidth::Int, false),
        "ulong" => int(IntWidth::Int, true),
        "longlong" => SqlType::BIGINT,
        "ulonglong" => SqlType::BIGINT_UNSIGNED,
        "float" => SqlType::Float { unsigned: false },
        "double" => SqlType::DOUBLE,
        "decimal" => SqlType::Decimal {
            precision: 10,
            scale: 2,
            unsigned: false,
        },
        "date" => SqlType::Date,
        "datetime" => SqlType::DateTime { fsp: 6 },
        "time" => SqlType::Time { fsp: 6 },
        "blob" => SqlType::Blob {
            size: crate::sql::types::BlobSize::Long,
        },
        _ => SqlType::varchar(255),
    }
}

fn types_row() -> (Vec<ColumnMeta>, Vec<SqlType>, Vec<Value>) {
    let types = vec![
        SqlType::BIGINT,
        SqlType::BIGINT_UNSIGNED,
        SqlType::DOUBLE,
        SqlType::Decimal {
            precision: 10,
            scale: 2,
            unsigned: false,
        },
        SqlType::varchar(20),
        SqlType::Date,
        SqlType::DateTime { fsp: 0 },
        SqlType::Time { fsp: 0 },
        SqlType::Int {
            width: IntWidth::Int,
            unsigned: false,
            zerofill: false,
            display: None,
        },
    ];
    let names = ["i", "u", "d", "dec", "s", "dt", "ts", "t", "n"];
    let cols = types
        .iter()
        .zip(names)
        .map(|(t, n)| ColumnMeta::expr(n, t, true))
        .collect();
    let values = vec![
        Value::Int(-5),
        Value::UInt(u64::MAX),
        Value::Double(2.5),
        Value::decimal(BigDecimal::from_str("12.34").unwrap()),
        Value::str("héllo"),
        Value::Date(DateTime::date(2024, 2, 29)),
        Value::DateTime(DateTime {
            year: 2024,
            month: 2,
            day: 29,
            hour: 13,
            minute: 14,
            second: 15,
            micro: 0,
        }),
        Value::Time(Time {
            micros: -(26 * 3600 + 5) * 1_000_000,
        }),
        Value::Null,
    ];
    (cols, types, values)
}

async fn serve(
    sock: TcpStream,
    conn_id: u32,
    accounts: &[AccountAuth],
    plugin: AuthPlugin,
    log: &mut ConnLog,
) -> Result<(), String> {
    let peer = PeerInfo::Tcp(sock.peer_addr().map_err(|e| e.to_string())?.ip());
    let (rd, mut wr) = sock.into_split();
    let mut reader = PacketReader::new(rd);
    let mut w = PacketWriter::new();
    let greeting = Greeting {
        conn_id,
        server_version: "8.0.36-Quire",
        default_plugin: plugin,
        collation_id: 45,
        status: AUTOCOMMIT,
    };
    let lookup = |u: &str| {
        accounts
            .iter()
            .filter(|a| a.user == u || a.user.is_empty())
            .cloned()
            .collect()
    };
    let auth: Authenticated =
        match authenticate(&mut reader, &mut w, &mut wr, &greeting, lookup, &peer).await {
            Ok(a) => a,
            Err(e) => {
                log.auth = Some(Err(e.to_string()));
                return Ok(());
            }
        };
    log.auth = Some(Ok((auth.client_plugin, auth.db.clone(), auth.user.clone())));
    log.client_caps = auth.capabilities.bits();
    let caps = auth.capabilities;
    write_ok(&mut w, caps, 0, 0, AUTOCOMMIT, 0, "");
    w.flush(&mut wr).await.map_err(|e| e.to_string())?;

    let mut stmts: Vec<Prepared> = Vec::new();
    loop {
        reader.reset_seq();
        let payload = match reader.read().await {
            Ok(Some(p)) => p.to_vec(),
            Ok(None) => return Ok(()),
            Err(e) => {
                if let Some(my) = e.to_my_error() {
                    w.set_seq(reader.seq());
                    write_err(&mut w, caps, my.code, my.state, &my.message);
                    let _ = w.flush(&mut wr).await;
                }
                return Err(e.to_string());
            }
        };
        w.set_seq(reader.seq());
        let Some(&cmd) = payload.first() else {
            return Err("empty command".into());
        };
        match cmd {
            c if c == Command::COM_QUIT as u8 => return Ok(()),
            c if c == Command::COM_PING as u8 || c == Command::COM_INIT_DB as u8 => {
                write_ok(&mut w, caps, 0, 0, AUTOCOMMIT, 0, "");
            }
            c if c == Command::COM_QUERY as u8 => {
                let text = String::from_utf8_lossy(parse_com_query(&payload)).into_owned();
                log.queries.push(text.clone());
                let parts: Vec<&str> = text
                    .split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .collect();
                for (i, q) in parts.iter().enumerate() {
                    let more = i + 1 < parts.len();
                    let status = if more {
                        AUTOCOMMIT | StatusFlags::SERVER_MORE_RESULTS_EXISTS
                    } else {
                        AUTOCOMMIT
                    };
                    answer_query(q, caps, status, &mut w, &mut wr, &mut reader, log).await?;
                }
                if parts.is_empty() {
                    write_err(&mut w, caps, 1065, "42000", "Query was empty");
                }
            }
            c if c == Command::COM_STMT_PREPARE as u8 => {
                let text = String::from_utf8_lossy(&payload[1..]).into_owned();
                let types: Vec<SqlType> = text
                    .strip_prefix("ECHO ")
                    .unwrap_or("")
                    .split(',')
                    .filter(|s| !s.trim().is_empty())
                    .map(echo_type)
                    .collect();
                let cols: Vec<ColumnMeta> = types
                    .iter()
                    .enumerate()
                    .map(|(i, t)| ColumnMeta::expr(format!("c{i}"), t, true))
                    .collect();
                let params = vec![ColumnMeta::expr("?", &SqlType::varchar(0), true); cols.len()];
                stmts.push(Prepared {
                    long_data: vec![None; cols.len()],
                    cols: cols.clone(),
                    prev_types: Vec::new(),
                });
                write_prepare_ok(
                    &mut w,
                    caps,
                    stmts.len() as u32,
                    &params,
                    &cols,
                    0,
                    AUTOCOMMIT,
                )
                .map_err(|e| e.to_string())?;
            }
            c if c == Command::COM_STMT_SEND_LONG_DATA as u8 => {
                let (id, param, data) =
                    parse_send_long_data(&payload).map_err(|e| e.to_string())?;
                log.long_data_packets += 1;
                let slot = (id as usize)
                    .checked_sub(1)
                    .and_then(|i| stmts.get_mut(i))
                    .and_then(|st| st.long_data.get_mut(param as usize));
                if let Some(slot) = slot {
                    slot.get_or_insert_with(Vec::new).extend_from_slice(data);
                }
                continue; // no response, ever
            }
            c if c == Command::COM_STMT_EXECUTE as u8 => {
                let id = super::proto::parse_stmt_id(&payload).map_err(|e| e.to_string())?;
                let Some(st) = (id as usize).checked_sub(1).and_then(|i| stmts.get_mut(i)) else {
                    write_err(
                        &mut w,
                        caps,
                        1243,
                        "HY000",
                        "Unknown prepared statement handler",
                    );
                    w.flush(&mut wr).await.map_err(|e| e.to_string())?;
                    continue;
                };
                match parse_execute(
                    &payload,
                    st.cols.len(),
                    &mut st.prev_types,
                    &mut st.long_data,
                ) {
                    Ok(ex) => {
                        write_result_header(&mut w, caps, &st.cols, AUTOCOMMIT);
                        write_binary_row(&mut w, &ex.params, &st.cols);
                        write_result_end(&mut w, caps, AUTOCOMMIT, 0);
                        log.exec_params.push(ex.params);
                    }
                    Err(e) => {
                        let my = e.to_my_error();
                        write_err(&mut w, caps, my.code, my.state, &my.message);
                    }
                }
                st.long_data.iter_mut().for_each(|d| *d = None);
            }
            c if c == Command::COM_STMT_CLOSE as u8 || c == Command::COM_STMT_RESET as u8 => {
                if c == Command::COM_STMT_RESET as u8 {
                    write_ok(&mut w, caps, 0, 0, AUTOCOMMIT, 0, "");
                } else {
                    continue;
                }
            }
            _ => write_err(&mut w, caps, 1047, "08S01", "Unknown command"),
        }
        w.flush(&mut wr).await.map_err(|e| e.to_string())?;
    }
}

async fn answer_query<R, W>(
    q: &str,
    caps: mysql_common::constants::CapabilityFlags,
    status: StatusFlags,
    w: &mut PacketWriter,
    wr: &mut W,
    reader: &mut PacketReader<R>,
    log: &mut ConnLog,
) -> Result<(), String>
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    let lower = q.to_ascii_lowercase();
    if lower == "select @@version_comment limit 1" {
        let ty = SqlType::varchar(64);
        write_result_header(
            w,
            caps,
            &[ColumnMeta::expr("@@version_comment", &ty, true)],
            status,
        );
        write_text_row(w, &[Value::str("Quire test server")], &[ty]);
        write_result_end(w, caps, status, 0);
    } else if let Some(n) = lower.strip_prefix("select number ") {
        let n: i64 = n.trim().parse().unwrap_or(0);
        write_result_header(
            w,
            caps,
            &[ColumnMeta::expr("n", &SqlType::BIGINT, false)],
            status,
        );
        write_text_row(w, &[Value::Int(n)], &[SqlType::BIGINT]);
        write_result_end(w, caps, status, 0);
    } else if lower == "select types" {
        let (cols, types, values) = types_row();
        write_result_header(w, caps, &cols, status);
        write_text_row(w, &values, &types);
        write_result_end(w, caps, status, 0);
    } else if let Some(n) = lower.strip_prefix("select rows ") {
        // Many rows, flushed in the middle as a real server streams them.
        let n: i64 = n.trim().parse().unwrap_or(0);
        let types = [SqlType::BIGINT, SqlType::varchar(100)];
        let cols: Vec<ColumnMeta> = ["id", "pad"]
            .iter()
            .zip(&types)
            .map(|(n, t)| ColumnMeta::expr(*n, t, false))
            .collect();
        write_result_header(w, caps, &cols, status);
        let pad = Value::str(&"p".repeat(100));
        let mut max_buffered = 0;
        for i in 0..n {
            write_text_row(w, &[Value::Int(i), pad.clone()], &types);
            if w.buffered_len() > FLUSH_HINT_BYTES {
                max_buffered = max_buffered.max(w.buffered_len());
                w.flush(wr).await.map_err(|e| e.to_string())?;
            }
        }
        assert!(max_buffered < 2 * FLUSH_HINT_BYTES);
        write_result_end(w, caps, status, 0);
    } else if let Some(n) = lower.strip_prefix("select big ") {
        // One value larger than a packet chunk: the row is split.
        let n: usize = n.trim().parse().unwrap_or(0);
        let ty = SqlType::Blob {
            size: crate::sql::types::BlobSize::Long,
        };
        write_result_header(w, caps, &[ColumnMeta::expr("big", &ty, false)], status);
        write_text_row(w, &[Value::from_vec(vec![b'z'; n])], &[ty]);
        write_result_end(w, caps, status, 0);
    } else if lower.starts_with("select length") {
        // The length of the whole statement text (for huge queries).
        let ty = SqlType::BIGINT;
        write_result_header(w, caps, &[ColumnMeta::expr("len", &ty, false)], status);
        write_text_row(w, &[Value::Int(q.len() as i64)], &[ty]);
        write_result_end(w, caps, status, 0);
    } else if lower.starts_with("set ")
        || lower.starts_with("create ")
        || lower.starts_with("drop ")
        || lower.starts_with("use ")
    {
        write_ok(w, caps, 0, 0, status, 0, "");
    } else if lower.starts_with("insert") {
        write_ok(
            w,
            caps,
            2,
            7,
            status,
            0,
            "Records: 2  Duplicates: 0  Warnings: 0",
        );
    } else if lower.starts_with("load data local infile") {
        let file = q.split('\'').nth(1).unwrap_or("");
        write_local_infile_request(w, file.as_bytes());
        w.flush(wr).await.map_err(|e| e.to_string())?;
        reader.set_seq(w.seq());
        loop {
            let chunk = reader
                .read()
                .await
                .map_err(|e| e.to_string())?
                .unwrap_or(&[]);
            if chunk.is_empty() {
                break;
            }
            log.local_infile_bytes.extend_from_slice(chunk);
        }
        w.set_seq(reader.seq());
        let lines = log
            .local_infile_bytes
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let info = format!("Records: {lines}  Deleted: 0  Skipped: 0  Warnings: 0");
        write_ok(w, caps, lines as u64, 0, status, 0, &info);
    } else {
        write_err(w, caps, 1146, "42S02", "Table 'test.nope' doesn't exist");
    }
    Ok(())
}

fn account(user: &str, plugin: AuthPlugin, creds: Credentials) -> AccountAuth {
    AccountAuth {
        user: user.into(),
        host: "localhost".into(),
        plugin,
        credentials: creds,
    }
}

async fn run(cmd: &str, args: Vec<String>) -> (bool, String, String) {
    let cmd = cmd.to_string();
    tokio::task::spawn_blocking(move || {
        let out = Process::new(&cmd).args(&args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    })
    .await
    .unwrap()
}

async fn mariadb(port: u16, extra: &[&str], sql: &str) -> (bool, String, String) {
    let mut args = vec![
        "--no-defaults".to_string(),
        "-h127.0.0.1".to_string(),
        format!("-P{port}"),
        "--connect-timeout=10".to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(["-e".to_string(), sql.to_string()]);
    run("mariadb", args).await
}

async fn logs(s: &TestServer, n: usize) -> Vec<ConnLog> {
    for _ in 0..200 {
        if s.logs.lock().unwrap().len() >= n {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    std::mem::take(&mut *s.logs.lock().unwrap())
}

fn plugin_of(log: &ConnLog) -> AuthPlugin {
    match &log.auth {
        Some(Ok((p, _, _))) => *p,
        other => panic!("not authenticated: {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mariadb_cli_logs_in_with_either_plugin() {
    if !have("mariadb") {
        eprintln!("skipped: no mariadb client");
        return;
    }
    let creds = credentials_from_password(b"s3cret");
    for greeting_plugin in [AuthPlugin::NativePassword, AuthPlugin::CachingSha2Password] {
        for account_plugin in [AuthPlugin::NativePassword, AuthPlugin::CachingSha2Password] {
            let s = start_server(
                vec![account("root", account_plugin, creds.clone())],
                greeting_plugin,
            )
            .await;
            // libmariadb 3.3 starts with the greeting's plugin unless told otherwise; a
            // different one sends an empty response and is switched (to its own plugin).
            for (extra, want) in [
                (vec![], greeting_plugin),
                (
                    vec!["--default-auth=mysql_native_password"],
                    AuthPlugin::NativePassword,
                ),
                (
                    vec!["--default-auth=caching_sha2_password"],
                    AuthPlugin::CachingSha2Password,
                ),
            ] {
                let mut args = vec!["-uroot", "-ps3cret"];
                args.extend(extra);
                let (ok, out, err) =
                    mariadb(s.port, &args, "select @@version_comment limit 1").await;
                assert!(
                    ok,
                    "greeting {greeting_plugin} account {account_plugin}: {err}"
                );
                assert_eq!(out, "@@version_comment\nQuire test server\n");
                let l = logs(&s, 1).await;
                assert_eq!(plugin_of(&l[0]), want);
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mariadb_cli_auth_switches() {
    if !have("mariadb") {
        eprintln!("skipped: no mariadb client");
        return;
    }
    // Only a SHA-256 hash: libmariadb starts with native and is switched.
    let sha_only = Credentials::from_stages(
        None,
        credentials_from_password(b"pw").sha2_stage2().copied(),
    );
    let s = start_server(
        vec![account("root", AuthPlugin::CachingSha2Password, sha_only)],
        AuthPlugin::NativePassword,
    )
    .await;
    let (ok, out, err) = mariadb(s.port, &["-uroot", "-ppw"], "select number 41").await;
    assert!(ok, "{err}");
    assert_eq!(out, "n\n41\n");
    assert_eq!(
        plugin_of(&logs(&s, 1).await[0]),
        AuthPlugin::CachingSha2Password
    );
    // Only a native hash: a caching_sha2 client is switched to native.
    let native_only = Credentials::from_native_hash_text(&super::auth::native_password_hash_text(
        &credentials_from_password(b"pw"),
    ))
    .unwrap();
    let s = start_server(
        vec![account("root", AuthPlugin::NativePassword, native_only)],
        AuthPlugin::CachingSha2Password,
    )
    .await;
    let (ok, _, err) = mariadb(
        s.port,
        &["-uroot", "-ppw", "--default-auth=caching_sha2_password"],
        "select number 1",
    )
    .await;
    assert!(ok, "{err}");
    assert_eq!(plugin_of(&logs(&s, 1).await[0]), AuthPlugin::NativePassword);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mariadb_cli_denied_and_empty_password() {
    if !have("mariadb") {
        eprintln!("skipped: no mariadb client");
        return;
    }
    let s = start_server(
        vec![
            account(
                "root",
                AuthPlugin::CachingSha2Password,
                credentials_from_password(b"pw"),
            ),
            account("nopw", AuthPlugin::NativePassword, Credentials::none()),
        ],
        AuthPlugin::CachingSha2Password,
    )
    .await;
    for extra in [
        vec!["-uroot", "-pbad"],
        vec!["-uroot", "-pbad", "--default-auth=caching_sha2_password"],
    ] {
        let (ok, _, err) = mariadb(s.port, &extra, "select number 1").await;
        assert!(!ok);
        assert!(
            err.contains("ERROR 1045 (28000): Access denied for user 'root'@'127.0.0.1' (using password: YES)"),
            "{err}"
        );
    }
    let (ok, _, err) = mariadb(s.port, &["-uroot"], "select number 1").await;
    assert!(!ok);
    assert!(err.contains("(using password: NO)"), "{err}");
    let (ok, out, err) = mariadb(s.port, &["-unopw"], "select number 3").await;
    assert!(ok, "{err}");
    assert_eq!(out, "n\n3\n");
    let (ok, out, err) = mariadb(
        s.port,
        &["-unopw", "--default-auth=caching_sha2_password"],
        "select number 4",
    )
    .await;
    assert!(ok, "{err}");
    assert_eq!(out, "n\n4\n");
    let (ok, _, _) = mariadb(s.port, &["-unopw", "-px"], "select number 5").await;
    assert!(!ok, "a password for a password-less account is refused");
    let (ok, _, err) = mariadb(s.port, &["-ughost", "-ppw"], "select number 1").await;
    assert!(!ok);
    assert!(
        err.contains("Access denied for user 'ghost'@'127.0.0.1'"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mariadb_cli_results_errors_multi_statements_local_infile() {
    if !have("mariadb") {
        eprintln!("skipped: no mariadb client");
        return;
    }
    let s = start_server(
        vec![account(
            "root",
            AuthPlugin::NativePassword,
            Credentials::none(),
        )],
        AuthPlugin::NativePassword,
    )
    .await;
    // Text result with every common type, in batch (tab-separated) mode.
    let (ok, out, err) = mariadb(s.port, &["-uroot", "-D", "test"], "select types").await;
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "i\tu\td\tdec\ts\tdt\tts\tt\tn\n-5\t18446744073709551615\t2.5\t12.34\théllo\t2024-02-29\t2024-02-29 13:14:15\t-26:00:05\tNULL\n"
    );
    let l = logs(&s, 1).await;
    assert!(matches!(&l[0].auth, Some(Ok((_, Some(db), _))) if db == "test"));
    // Multi-statements: two result sets in one response, then an error.
    let (ok, out, err) = mariadb(
        s.port,
        &["-uroot"],
        "select number 1; select number 2; select nope",
    )
    .await;
    assert!(!ok);
    assert_eq!(out, "n\n1\nn\n2\n");
    assert!(err.contains("ERROR 1146 (42S02)"), "{err}");
    // (The CLI splits on its delimiter: three COM_QUERYs. PyMySQL tests one COM_QUERY
    // with several statements.)
    assert_eq!(logs(&s, 1).await[0].queries.len(), 3);
    // OK with info: the CLI prints it in verbose mode.
    let (ok, out, err) = mariadb(s.port, &["-uroot", "-vvv"], "insert into t values (1),(2)").await;
    assert!(ok, "{err}");
    assert!(out.contains("Query OK, 2 rows affected"), "{out}");
    assert!(
        out.contains("Records: 2  Duplicates: 0  Warnings: 0"),
        "{out}"
    );
    logs(&s, 1).await;
    // LOAD DATA LOCAL INFILE: a multi-round exchange inside one command.
    let path = std::env::temp_dir().join(format!("quire-wire-infile-{}.csv", std::process::id()));
    let data: String = (0..5000).map(|i| format!("{i},row {i}\n")).collect();
    std::fs::write(&path, &data).unwrap();
    let sql = format!("load data local infile '{}' into table t", path.display());
    let (ok, out, err) = mariadb(s.port, &["-uroot", "--local-infile=1", "-vvv"], &sql).await;
    std::fs::remove_file(&path).ok();
    assert!(ok, "{err}");
    assert!(
        out.contains("Records: 5000  Deleted: 0  Skipped: 0  Warnings: 0"),
        "{out}"
    );
    let l = logs(&s, 1).await;
    assert_eq!(l[0].local_infile_bytes, data.as_bytes());
    // Large results: many rows (flushed mid-way) and one 20 MB value (split packets).
    let (ok, out, err) = mariadb(s.port, &["-uroot"], "select rows 30000").await;
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 30001);
    let (ok, out, err) = mariadb(
        s.port,
        &["-uroot", "--max-allowed-packet=64M"],
        "select big 20000000",
    )
    .await;
    assert!(ok, "{err}");
    assert_eq!(out.len(), "big\n".len() + 20_000_000 + 1);
}

fn pymysql(port: u16, script: &str) -> Vec<String> {
    vec![
        "-c".to_string(),
        format!("import pymysql, sys\nPORT={port}\n{script}"),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pymysql_with_both_plugins() {
    if !have(PYTHON)
        || !run(PYTHON, vec!["-c".into(), "import pymysql".into()])
            .await
            .0
    {
        eprintln!("skipped: no PyMySQL");
        return;
    }
    let creds = credentials_from_password(b"pypw");
    for plugin in [AuthPlugin::NativePassword, AuthPlugin::CachingSha2Password] {
        let s = start_server(vec![account("py", plugin, creds.clone())], plugin).await;
        let script = r#"
c = pymysql.connect(host='127.0.0.1', port=PORT, user='py', password='pypw', database='test')
cur = c.cursor()
cur.execute('select types')
print(repr(cur.fetchall()))
print([d[0] for d in cur.description])
n = cur.execute('insert into t values (1),(2)')
print(n, cur.lastrowid)
try:
    cur.execute('select nope')
except pymysql.err.ProgrammingError as e:
    print('error', e.args[0])
cur.execute('select rows 20000')
print(len(cur.fetchall()))
cur.execute('select big 17000000')
print(len(cur.fetchone()[0]))
cur.execute("select length('" + 'q' * 17000000 + "')")
print(cur.fetchone()[0])
c.ping()
c.close()
from pymysql.constants import CLIENT
c = pymysql.connect(host='127.0.0.1', port=PORT, user='py', password='pypw', client_flag=CLIENT.MULTI_STATEMENTS)
cur = c.cursor()
cur.execute('select number 1; select number 2; insert into t values (1),(2)')
sets = [cur.fetchall()]
while cur.nextset():
    sets.append(cur.fetchall())
print(sets, cur.rowcount)
c.close()
try:
    pymysql.connect(host='127.0.0.1', port=PORT, user='py', password='wrong')
except pymysql.err.OperationalError as e:
    print('denied', e.args[0], e.args[1])
"#;
        let (ok, out, err) = run(PYTHON, pymysql(s.port, script)).await;
        assert!(ok, "{plugin}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "((-5, 18446744073709551615, 2.5, Decimal('12.34'), 'héllo', datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 13, 14, 15), datetime.timedelta(days=-2, seconds=79195), None),)"
        );
        assert_eq!(
            lines[1],
            "['i', 'u', 'd', 'dec', 's', 'dt', 'ts', 't', 'n']"
        );
        assert_eq!(lines[2], "2 7");
        assert_eq!(lines[3], "error 1146");
        assert_eq!(lines[4], "20000");
        assert_eq!(lines[5], "17000000");
        assert_eq!(
            lines[6],
            format!("{}", "select length('')".len() + 17_000_000)
        );
        assert_eq!(lines[7], "[((1,),), ((2,),), ()] 2");
        assert_eq!(
            lines[8],
            "denied 1045 Access denied for user 'py'@'127.0.0.1' (using password: YES)"
        );
        let l = logs(&s, 3).await;
        assert!(
            l.iter()
                .any(|c| c.queries.iter().any(|q| q.contains("; select number 2")))
        );
        let ok_log = l.iter().find(|l| matches!(l.auth, Some(Ok(_)))).unwrap();
        assert_eq!(
            plugin_of(ok_log),
            plugin,
            "PyMySQL answers with the greeting's plugin"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_packet_gets_1153() {
    if !have(PYTHON)
        || !run(PYTHON, vec!["-c".into(), "import pymysql".into()])
            .await
            .0
    {
        eprintln!("skipped: no PyMySQL");
        return;
    }
    // The test server keeps the default 64 MiB limit; a 70 MB query exceeds it.
    let s = start_server(
        vec![account(
            "py",
            AuthPlugin::NativePassword,
            Credentials::none(),
        )],
        AuthPlugin::NativePassword,
    )
    .await;
    let script = r#"
c = pymysql.connect(host='127.0.0.1', port=PORT, user='py', password='')
cur = c.cursor()
try:
    cur.execute("select length('" + 'q' * 70000000 + "')")
    print('no error')
except pymysql.err.MySQLError as e:
    print('error', e.args[0])
"#;
    let (ok, out, err) = run(PYTHON, pymysql(s.port, script)).await;
    assert!(ok, "{err}");
    // PyMySQL either reads the ERR (1153), or sees the closed connection while reading
    // (2013) or while still writing the rest of the packet (2006), depending on timing.
    assert!(
        out.starts_with("error 1153")
            || out.starts_with("error 2013")
            || out.starts_with("error 2006"),
        "{out}"
    );
    let l = logs(&s, 1).await;
    assert!(l[0].queries.iter().all(|q| !q.starts_with("select length")));
}

/// libmariadb's prepared-statement API through ctypes: COM_STMT_PREPARE/EXECUTE with typed
/// binds, binary rows decoded by the C library, re-execution without rebinding (remembered
/// types) and COM_STMT_SEND_LONG_DATA.
const CTYPES_SCRIPT: &str = r#"
import ctypes, ctypes.util, sys
lib = ctypes.CDLL('libmariadb.so.3')
class BIND(ctypes.Structure):
    _fields_ = [('length', ctypes.POINTER(ctypes.c_ulong)), ('is_null', ctypes.POINTER(ctypes.c_char)),
        ('buffer', ctypes.c_void_p), ('error', ctypes.POINTER(ctypes.c_char)), ('u', ctypes.c_void_p),
        ('store_param_func', ctypes.c_void_p), ('fetch_result', ctypes.c_void_p), ('skip_result', ctypes.c_void_p),
        ('buffer_length', ctypes.c_ulong), ('offset', ctypes.c_ulong), ('length_value', ctypes.c_ulong),
        ('flags', ctypes.c_uint), ('pack_length', ctypes.c_uint), ('buffer_type', ctypes.c_int),
        ('error_value', ctypes.c_char), ('is_unsigned', ctypes.c_char), ('long_data_used', ctypes.c_char),
        ('is_null_value', ctypes.c_char), ('extension', ctypes.c_void_p)]
assert ctypes.sizeof(BIND) == 112
class TIME(ctypes.Structure):
    _fields_ = [('year', ctypes.c_uint), ('month', ctypes.c_uint), ('day', ctypes.c_uint), ('hour', ctypes.c_uint),
        ('minute', ctypes.c_uint), ('second', ctypes.c_uint), ('second_part', ctypes.c_ulong),
        ('neg', ctypes.c_char), ('time_type', ctypes.c_int)]
lib.mysql_init.restype = ctypes.c_void_p
lib.mysql_real_connect.restype = ctypes.c_void_p
lib.mysql_real_connect.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint, ctypes.c_char_p, ctypes.c_ulong]
lib.mysql_error.restype = ctypes.c_char_p
lib.mysql_error.argtypes = [ctypes.c_void_p]
lib.mysql_stmt_init.restype = ctypes.c_void_p
lib.mysql_stmt_init.argtypes = [ctypes.c_void_p]
lib.mysql_stmt_error.restype = ctypes.c_char_p
lib.mysql_stmt_error.argtypes = [ctypes.c_void_p]
for f in ['mysql_stmt_prepare']:
    getattr(lib, f).argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_ulong]
for f in ['mysql_stmt_bind_param', 'mysql_stmt_bind_result']:
    getattr(lib, f).argtypes = [ctypes.c_void_p, ctypes.POINTER(BIND)]
    getattr(lib, f).restype = ctypes.c_char
for f in ['mysql_stmt_execute', 'mysql_stmt_fetch', 'mysql_stmt_store_result']:
    getattr(lib, f).argtypes = [ctypes.c_void_p]
lib.mysql_stmt_close.argtypes = [ctypes.c_void_p]
lib.mysql_stmt_send_long_data.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_char_p, ctypes.c_ulong]
lib.mysql_stmt_send_long_data.restype = ctypes.c_char
lib.mysql_close.argtypes = [ctypes.c_void_p]

m = lib.mysql_init(None)
if not lib.mysql_real_connect(m, b'127.0.0.1', b'root', b'pw', None, PORT, None, 0):
    sys.exit('connect: ' + lib.mysql_error(m).decode())
st = lib.mysql_stmt_init(m)
q = b'ECHO tiny,short,long,ulong,longlong,ulonglong,float,double,decimal,date,datetime,time,string,blob,longlong'
if lib.mysql_stmt_prepare(st, q, len(q)):
    sys.exit('prepare: ' + lib.mysql_stmt_error(st).decode())
T = dict(tiny=1, short=2, long=3, float=4, double=5, longlong=8, date=10, time=11, datetime=12, newdecimal=246, string=254, blob=252)
def tm(y, mo, d, h, mi, s, us, neg, kind):
    t = TIME(); t.year, t.month, t.day, t.hour, t.minute, t.second, t.second_part, t.neg, t.time_type = y, mo, d, h, mi, s, us, neg, kind
    return t
vals = [(T['tiny'], ctypes.c_byte(-7), 0), (T['short'], ctypes.c_short(-30000), 0), (T['long'], ctypes.c_int(-2000000000), 0),
    (T['long'], ctypes.c_uint(4000000000), 1), (T['longlong'], ctypes.c_longlong(-9000000000000000000), 0),
    (T['longlong'], ctypes.c_ulonglong(18000000000000000000), 1), (T['float'], ctypes.c_float(1.5), 0),
    (T['double'], ctypes.c_double(-2.25), 0), (T['newdecimal'], ctypes.create_string_buffer(b'123.45', 6), 0),
    (T['date'], tm(2024, 2, 29, 0, 0, 0, 0, b'\0', 0), 0), (T['datetime'], tm(2024, 2, 29, 13, 14, 15, 123456, b'\0', 1), 0),
    (T['time'], tm(0, 0, 1, 2, 3, 4, 5, b'\1', 2), 0), (T['string'], ctypes.create_string_buffer('héllo'.encode(), 6), 0),
    (T['blob'], None, 0), (T['longlong'], None, 0)]
params = (BIND * len(vals))()
lengths = (ctypes.c_ulong * len(vals))()
nulls = (ctypes.c_char * len(vals))()
for i, (ty, v, uns) in enumerate(vals):
    params[i].buffer_type = ty
    params[i].is_unsigned = bytes([uns])
    if v is None:
        if i == len(vals) - 1:
            nulls[i] = b'\1'
            params[i].is_null = ctypes.cast(ctypes.byref(nulls, i), ctypes.POINTER(ctypes.c_char))
        continue
    params[i].buffer = ctypes.cast(ctypes.pointer(v), ctypes.c_void_p)
    if ty in (T['newdecimal'], T['string']):
        lengths[i] = len(v.raw)
        params[i].buffer_length = len(v.raw)
        params[i].length = ctypes.cast(ctypes.byref(lengths, i * ctypes.sizeof(ctypes.c_ulong)), ctypes.POINTER(ctypes.c_ulong))
if lib.mysql_stmt_bind_param(st, params) != b'\0':
    sys.exit('bind: ' + lib.mysql_stmt_error(st).decode())

def run_once(tag):
    if lib.mysql_stmt_send_long_data(st, 13, b'long ', 5) != b'\0' or lib.mysql_stmt_send_long_data(st, 13, b'data ' + tag, 5 + len(tag)) != b'\0':
        sys.exit('long data: ' + lib.mysql_stmt_error(st).decode())
    if lib.mysql_stmt_execute(st):
        sys.exit('execute: ' + lib.mysql_stmt_error(st).decode())
    out = []
    res = (BIND * len(vals))()
    bufs = []
    rl = (ctypes.c_ulong * len(vals))()
    rn = (ctypes.c_char * len(vals))()
    for i, (ty, v, uns) in enumerate(vals):
        if ty in (T['date'], T['datetime'], T['time']):
            b = TIME()
        elif ty in (T['newdecimal'], T['string'], T['blob']):
            b = ctypes.create_string_buffer(64)
        elif ty == T['float']:
            b = ctypes.c_float()
        elif ty == T['double']:
            b = ctypes.c_double()
        else:
            b = (ctypes.c_ulonglong if uns else ctypes.c_longlong)()
            ty = T['longlong']
        bufs.append(b)
        res[i].buffer_type = ty
        res[i].is_unsigned = bytes([uns])
        res[i].buffer = ctypes.cast(ctypes.pointer(b), ctypes.c_void_p)
        res[i].buffer_length = ctypes.sizeof(b)
        res[i].length = ctypes.cast(ctypes.byref(rl, i * ctypes.sizeof(ctypes.c_ulong)), ctypes.POINTER(ctypes.c_ulong))
        res[i].is_null = ctypes.cast(ctypes.byref(rn, i), ctypes.POINTER(ctypes.c_char))
    lib.mysql_stmt_bind_result(st, res)
    rc = lib.mysql_stmt_fetch(st)
    if rc != 0:
        sys.exit('fetch rc %d: %s' % (rc, lib.mysql_stmt_error(st).decode()))
    for i, b in enumerate(bufs):
        if rn[i] == b'\1':
            out.append('NULL')
        elif isinstance(b, TIME):
            out.append('%d-%d-%d %d:%d:%d.%d neg=%d' % (b.year, b.month, b.day, b.hour, b.minute, b.second, b.second_part, ord(b.neg)))
        elif isinstance(b, ctypes.Array):
            out.append(b.raw[:rl[i]].decode())
        else:
            out.append(repr(b.value))
    print('|'.join(out))
    if lib.mysql_stmt_fetch(st) != 100:
        sys.exit('expected MYSQL_NO_DATA')

run_once(b'1')
run_once(b'2')
lib.mysql_stmt_close(st)
lib.mysql_close(m)
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn libmariadb_prepared_statements() {
    let probe = run(
        PYTHON,
        vec![
            "-c".into(),
            "import ctypes; ctypes.CDLL('libmariadb.so.3')".into(),
        ],
    )
    .await;
    if !probe.0 {
        eprintln!("skipped: no libmariadb.so.3");
        return;
    }
    let s = start_server(
        vec![account(
            "root",
            AuthPlugin::NativePassword,
            credentials_from_password(b"pw"),
        )],
        AuthPlugin::NativePassword,
    )
    .await;
    let script = format!("PORT={}\n{}", s.port, CTYPES_SCRIPT);
    let (ok, out, err) = run(PYTHON, vec!["-c".into(), script]).await;
    assert!(ok, "{err}\n{out}");
    let expect = |tag: &str| {
        format!(
            "-7|-30000|-2000000000|4000000000|-9000000000000000000|18000000000000000000|1.5|-2.25|123.45|2024-2-29 0:0:0.0 neg=0|2024-2-29 13:14:15.123456 neg=0|0-0-0 26:3:4.5 neg=1|héllo|long data {tag}|NULL"
        )
    };
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, [expect("1"), expect("2")]);
    let l = logs(&s, 1).await;
    assert_eq!(l[0].exec_params.len(), 2);
    assert_eq!(l[0].long_data_packets, 4);
}

/// sysbench (libmariadb, server-side prepared statements) from several threads at once.
const SYSBENCH_LUA: &str = r#"
function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
  stmt = con:prepare("ECHO longlong,string")
  p = { stmt:bind_create(sysbench.sql.type.BIGINT), stmt:bind_create(sysbench.sql.type.VARCHAR, 32) }
  stmt:bind_param(unpack(p))
end
function event()
  p[1]:set(sysbench.rand.default(1, 1000000))
  p[2]:set("value-" .. sysbench.rand.default(1, 1000))
  rs = stmt:execute()
  rs:free()
  con:query("select number 5")
end
function thread_done()
  stmt:close()
  con:disconnect()
end
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sysbench_prepared_and_text_queries_concurrently() {
    if !have("sysbench") {
        eprintln!("skipped: no sysbench");
        return;
    }
    let s = start_server(
        vec![account(
            "sb",
            AuthPlugin::NativePassword,
            credentials_from_password(b"sbpw"),
        )],
        AuthPlugin::CachingSha2Password,
    )
    .await;
    let path = std::env::temp_dir().join(format!("quire-wire-sysbench-{}.lua", std::process::id()));
    std::fs::write(&path, SYSBENCH_LUA).unwrap();
    let args = vec![
        "--db-driver=mysql".to_string(),
        "--mysql-host=127.0.0.1".to_string(),
        format!("--mysql-port={}", s.port),
        "--mysql-user=sb".to_string(),
        "--mysql-password=sbpw".to_string(),
        "--mysql-db=test".to_string(),
        "--threads=4".to_string(),
        "--events=2000".to_string(),
        "--time=0".to_string(),
        path.display().to_string(),
        "run".to_string(),
    ];
    let (ok, out, err) = run("sysbench", args).await;
    std::fs::remove_file(&path).ok();
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("total number of events:              2000"),
        "{out}"
    );
    let l = logs(&s, 4).await;
    assert_eq!(l.len(), 4);
    let executed: usize = l.iter().map(|c| c.exec_params.len()).sum();
    assert_eq!(executed, 2000);
    for c in &l {
        for p in &c.exec_params {
            assert!(matches!(p[0], Value::Int(1..=1_000_000)), "{p:?}");
            assert!(
                p[1].as_bytes().is_some_and(|b| b.starts_with(b"value-")),
                "{p:?}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mariadb_slap_concurrent_connections() {
    if !have("mariadb-slap") {
        eprintln!("skipped: no mariadb-slap");
        return;
    }
    let s = start_server(
        vec![account(
            "root",
            AuthPlugin::NativePassword,
            credentials_from_password(b"pw"),
        )],
        AuthPlugin::NativePassword,
    )
    .await;
    let args = vec![
        "--no-defaults".to_string(),
        "-h127.0.0.1".to_string(),
        format!("-P{}", s.port),
        "-uroot".to_string(),
        "-ppw".to_string(),
        "--concurrency=8".to_string(),
        "--number-of-queries=800".to_string(),
        "--iterations=2".to_string(),
        "--query=select number 9".to_string(),
        "--create-schema=slap".to_string(),
    ];
    let (ok, out, err) = run("mariadb-slap", args).await;
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("Number of clients running queries: 8"),
        "{out}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let l = std::mem::take(&mut *s.logs.lock().unwrap());
    let selects = l
        .iter()
        .flat_map(|c| &c.queries)
        .filter(|q| *q == "select number 9")
        .count();
    assert_eq!(selects, 1600);
}
