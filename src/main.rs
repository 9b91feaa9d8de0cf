//! The `quire` binary: the server (default), `quire binlog FILE…` (see
//! `quire::journal::reader`), `quire audit-verify FILE…` (see `quire::observe::audit`) and
//! `quire bench …` (see `quire::bench`).

use quire::config::options::{self, Startup};
use quire::config::{GlobalVars, vars};
use quire::server::Server;
use quire::storage::Storage;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("binlog") {
        std::process::exit(quire::journal::reader::main(&args[1..]));
    }
    if args.first().map(String::as_str) == Some("audit-verify") {
        std::process::exit(quire::observe::audit::verify_main(&args[1..]));
    }
    if args.first().map(String::as_str) == Some("bench") {
        std::process::exit(quire::bench::main(&args[1..]));
    }
    match options::parse(&args) {
        Err(e) => {
            eprintln!("quire: [ERROR] {e}");
            eprintln!("quire: [ERROR] Aborting (see `quire --help`)");
            std::process::exit(1);
        }
        Ok(Startup::Help) => print!("{}", options::help_text()),
        Ok(Startup::Version) => println!("{}", options::version_text()),
        Ok(Startup::Run(opts)) => {
            // A write past the file size limit (RLIMIT_FSIZE) must fail with EFBIG, which the
            // journal reports (commits refused, reads go on), not kill the server.
            // SAFETY: installing SIG_IGN for one signal before any thread starts.
            unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
            // No transparent huge pages for the heap (as database vendors advise). The
            // allocator asks for them, and a huge page is taken from the free blocks the
            // kernel has already handed back to a VM's host, so each first touch waits on
            // the host: loading 400,000 rows at start-up took 3.1 s with them, 0.85 s
            // without, and 64-thread throughput did not drop (README: the journal's
            // restart figures).
            // SAFETY: a process attribute; no memory is touched.
            unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
            for w in &opts.warnings {
                eprintln!("quire: [Warning] {w}");
            }
            let globals = GlobalVars::new();
            if let Err(e) = opts.apply(&globals) {
                eprintln!("quire: [ERROR] {e}");
                std::process::exit(1);
            }
            if let Err(e) = run(globals) {
                eprintln!("quire: [ERROR] {e}");
                std::process::exit(1);
            }
        }
    }
}

/// Resolve a path option relative to the data directory (as mysqld does for the socket).
fn in_datadir(datadir: &Path, value: &str, default_name: &str) -> PathBuf {
    let name = if value.is_empty() {
        default_name
    } else {
        value
    };
    quire::config::in_datadir(datadir, name)
}

fn run(globals: GlobalVars) -> Result<(), String> {
    let datadir = PathBuf::from(globals.get_string(vars::DATADIR));
    std::fs::create_dir_all(&datadir)
        .map_err(|e| format!("cannot create data directory '{}': {e}", datadir.display()))?;
    let datadir = datadir
        .canonicalize()
        .map_err(|e| format!("data directory '{}': {e}", datadir.display()))?;
    globals.set(
        vars::DATADIR,
        quire::sql::value::Value::from_string(format!("{}/", datadir.display())),
    );
    let socket = in_datadir(&datadir, &globals.get_string(vars::SOCKET), "mysql.sock");
    globals.set(
        vars::SOCKET,
        quire::sql::value::Value::from_string(socket.display().to_string()),
    );
    // The query and audit logs' files, as absolute paths (SHOW VARIABLES shows what is used).
    for id in [
        vars::SLOW_QUERY_LOG_FILE,
        vars::GENERAL_LOG_FILE,
        vars::AUDIT_LOG_FILE,
    ] {
        let p = quire::config::in_datadir(&datadir, &globals.get_string(id));
        globals.set(
            id,
            quire::sql::value::Value::from_string(p.display().to_string()),
        );
    }
    let version = globals.get_string(vars::VERSION);

    let format = globals.get_string(vars::BINLOG_FORMAT);
    if !format.eq_ignore_ascii_case("ROW") {
        return Err(format!(
            "binlog_format={format} is not supported: Quire's binary log is row-based (ROW)"
        ));
    }
    let storage = Arc::new(Storage::new());
    quire::storage::purge::Purge::spawn(storage.clone());
    let server = Arc::new(Server::new(storage, globals, version));
    if let Some(accounts) = quire::journal::accounts::load(&datadir)? {
        *server.accounts.write() = accounts;
    }
    let _ = server.accounts_dir.set(datadir.clone());
    server.logs.configure(&server.globals);

    // With a thread per connection the shared runtime only accepts and runs housekeeping.
    let workers = if quire::session::threads::pooled(&server.globals) {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(2)
    } else {
        1
    };
    let stack = server.globals.get_u64(quire::config::vars::THREAD_STACK) as usize;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .thread_name("quire-worker")
        .thread_stack_size(stack)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    rt.block_on(open_journal(&server, &datadir))?;
    let r = rt.block_on(quire::session::conn::listen(server.clone(), socket));
    if let Some(cp) = server.checkpoints.get() {
        // A clean shutdown leaves a checkpoint at the end of the journal: the next start
        // loads it and replays nothing.
        if let Err(e) = rt.block_on(cp.take_if_changed(&server)) {
            eprintln!("quire: [ERROR] checkpoint at shutdown: {e}");
        }
    }
    if let Some(j) = server.journal.get() {
        j.shutdown();
    }
    server.logs.shutdown();
    r
}

/// Replay the journal (recovery) and start its writer.
async fn open_journal(server: &Arc<Server>, datadir: &Path) -> Result<(), String> {
    use quire::journal::{recover, writer};
    let g = &server.globals;
    let basename = g.get_string(vars::LOG_BIN_BASENAME);
    let method = g.get_string(vars::INNODB_FLUSH_METHOD);
    let method = writer::FlushMethod::from_name(&method).ok_or_else(|| {
        format!(
            "innodb_flush_method '{method}' is not supported (fsync, fdatasync, O_DSYNC, O_DIRECT)"
        )
    })?;
    let on_corruption = if g
        .get_string(vars::JOURNAL_RECOVERY)
        .eq_ignore_ascii_case("truncate")
    {
        recover::OnCorruption::Truncate
    } else {
        recover::OnCorruption::Stop
    };
    let started = std::time::Instant::now();
    let (start, found) = recover::recover(server, datadir, &basename, on_corruption).await?;
    if found.files > 0 {
        let cp = match found.checkpoint {
            Some((no, rows)) => format!(
                "loaded {} ({rows} rows), ",
                quire::journal::checkpoint::file_name(no)
            ),
            None => String::new(),
        };
        eprintln!(
            "quire: [Note] journal: {cp}replayed {} transactions and {} statements from {} files in {} ms",
            found.transactions,
            found.statements,
            found.files,
            started.elapsed().as_millis()
        );
    }
    let replayed = found.transactions + found.statements > 0;
    let checkpoints = quire::journal::checkpoint::Checkpoints::new(
        datadir.to_path_buf(),
        found.checkpoints,
        replayed,
    );
    let journal = writer::Journal::start(
        datadir.to_path_buf(),
        basename,
        g.get_bool(vars::LOG_BIN),
        g.get_u64(vars::SERVER_ID) as u32,
        server.version.clone(),
        method,
        server.storage.clone(),
        start,
        g,
    )?;
    checkpoints.publish_needed(&journal);
    let _ = server.journal.set(journal);
    checkpoints.spawn(server.clone());
    let _ = server.checkpoints.set(checkpoints);
    Ok(())
}
