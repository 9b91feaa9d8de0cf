//! `quire bench` (issue 7): `--quick` runs every experiment against Quire and a private
//! MariaDB and writes report.md, report.json and the charts, whose structure is checked
//! here (not the numbers); the PNGs are decoded, the SVGs parsed. An interrupted bench
//! leaves no server running and no data directory behind (Ctrl-C: nothing; `kill -9`:
//! nothing outside `--out`).

mod common;

use common::{require_tool, spawn_tied, unique_temp_dir};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn quire() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_quire"))
}

fn external_tools() -> bool {
    // go: the bench builds the TPC-C client (bench/tpcc) with it
    [
        "sysbench",
        "mariadbd",
        "mariadb-install-db",
        "mariadb-slap",
        "go",
    ]
    .iter()
    .all(|t| require_tool(t))
}

/// Processes whose command line mentions `needle`.
fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        let cmd = fs::read(e.path().join("cmdline")).unwrap_or_default();
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        if cmd.contains(needle) {
            found.push(format!("{pid}: {cmd}"));
        }
    }
    found
}

fn wait_gone(needle: &str, within: Duration) -> Vec<String> {
    let deadline = Instant::now() + within;
    loop {
        let left = processes_mentioning(needle);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn quick_bench_writes_report_json_and_charts() {
    if !external_tools() {
        return;
    }
    let dir = unique_temp_dir("bench");
    let out = dir.join("report");
    let mut cmd = Command::new(quire());
    // A relative --out, as people type it (resolved against the bench's directory).
    cmd.args(["bench", "--quick", "--out", "report"])
        .current_dir(&dir);
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = spawn_tied(cmd).expect("start quire bench");
    let output = child.wait_with_output().expect("quire bench");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "quire bench --quick failed:\n{stderr}"
    );
    // Progress: a line per run with elapsed and remaining time.
    assert!(
        stderr.contains("elapsed, ~"),
        "no progress lines:\n{stderr}"
    );

    let md = fs::read_to_string(out.join("report.md")).expect("report.md");
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("report.json")).expect("report.json"))
            .expect("report.json parses");
    let names = [
        "logging-cost",
        "binlog-cost",
        "instrumentation-cost",
        "insert-commit",
        "flush-policy",
        "slow-log-select1",
    ];
    assert!(
        md.contains("| Quire | ratio |") && md.contains("| MariaDB | ratio |"),
        "{md}"
    );
    assert!(
        md.contains("- Machine: ") && md.contains("- Command: `quire bench --quick"),
        "{md}"
    );
    for n in names {
        assert!(
            md.contains(&format!("## {n}\n")),
            "report.md lacks {n}:\n{md}"
        );
    }
    // logging-cost in the seed's shape: every configuration for TPC-C and oltp_read_write.
    for c in [
        "no log",
        "slow log > 1 s",
        "slow log, every query",
        "general log",
        "audit log",
        "slow log, every query, to /dev/null",
        "general log to /dev/null",
    ] {
        assert!(
            md.contains(&format!("| TPC-C | 20 | {c} |")),
            "no TPC-C row for {c}"
        );
        assert!(
            md.contains(&format!("| oltp_read_write | 20 | {c} |")),
            "no sysbench row for {c}"
        );
    }
    assert!(
        md.contains("SHOW PROFILE stages"),
        "insert-commit has no stage table"
    );

    let exps = json["experiments"].as_array().expect("experiments");
    assert_eq!(exps.len(), names.len());
    for (e, n) in exps.iter().zip(names) {
        assert_eq!(e["name"], n);
        let runs = e["runs"].as_array().expect("runs");
        assert!(!runs.is_empty(), "{n}: no runs");
        for r in runs {
            assert!(r["error"].is_null(), "{n}: a run failed: {r}");
            assert!(r["value"].as_f64().is_some_and(|v| v > 0.0), "{n}: {r}");
            assert!(r["product"] == "Quire" || r["product"] == "MariaDB", "{r}");
        }
        // Every configuration ran at least 3 times on Quire, alternating with the others.
        let reps: Vec<u64> = runs
            .iter()
            .filter(|r| r["product"] == "Quire")
            .filter_map(|r| r["repetition"].as_u64())
            .collect();
        assert!(reps.contains(&3), "{n}: fewer than 3 repetitions");
        let summary = e["summary"].as_array().expect("summary");
        assert!(
            summary
                .iter()
                .any(|s| s["product"] == "MariaDB" && s["median"].as_f64().is_some()),
            "{n}: no MariaDB medians"
        );
        assert!(summary.iter().all(|s| s["ratio_to_baseline"].is_null()
            || s["ratio_to_baseline"].as_f64().is_some_and(|r| r > 0.0)));
    }
    // binlog-cost: commits per fsync and a time series per run.
    let binlog = &exps[1];
    assert!(
        binlog["runs"]
            .as_array()
            .expect("runs")
            .iter()
            .all(|r| r["series"].as_array().is_some_and(|s| !s.is_empty()))
    );
    assert!(
        md.contains("commits per fsync"),
        "no commits-per-fsync column"
    );

    // Charts: a PNG and an SVG per experiment, plus binlog-cost's time series.
    let charts = json["charts"].as_array().expect("charts");
    assert_eq!(charts.len(), names.len());
    let mut pngs = 0;
    for c in charts {
        let files = c["files"].as_array().expect("files");
        assert!(files.len() >= 2, "{c}");
        for f in files {
            let f = f.as_str().expect("file name");
            let path = out.join(f);
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{f}: {e}"));
            if f.ends_with(".png") {
                let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
                let mut reader = decoder.read_info().unwrap_or_else(|e| panic!("{f}: {e}"));
                let mut buf = vec![0; reader.output_buffer_size()];
                let info = reader
                    .next_frame(&mut buf)
                    .unwrap_or_else(|e| panic!("{f}: {e}"));
                assert!(info.width >= 400 && info.height >= 200, "{f}: {info:?}");
                // Not blank: the bars and text draw more than one colour.
                let first = &buf[..3];
                assert!(buf.chunks(3).any(|px| px != first), "{f} is blank");
                pngs += 1;
                assert!(
                    md.contains(&format!("]({f})")),
                    "report.md does not show {f}"
                );
            } else {
                assert!(f.ends_with(".svg"), "{f}");
                let text = String::from_utf8(bytes).expect("SVG is UTF-8");
                let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
                assert_eq!(doc.root_element().tag_name().name(), "svg");
                assert!(
                    doc.descendants().any(|n| n.has_tag_name("text")),
                    "{f}: no text"
                );
            }
        }
    }
    // One per experiment and at least binlog-cost's time series.
    assert!(pngs > names.len(), "{pngs} PNGs");
    // No data directory left behind, no server running.
    assert!(!out.join(".servers").exists(), ".servers left behind");
    let left = wait_gone(&out.display().to_string(), Duration::from_secs(5));
    assert!(left.is_empty(), "processes left: {left:?}");
    let _ = fs::remove_dir_all(&dir);
}

/// Starts `quire bench binlog-cost --quick` and waits until its servers run.
fn start_bench(out: &Path) -> std::process::Child {
    let mut cmd = Command::new(quire());
    cmd.args([
        "bench",
        "binlog-cost",
        "--quick",
        "--duration",
        "30",
        "--out",
    ])
    .arg(out)
    .stdin(Stdio::null())
    .stdout(Stdio::null())
    .stderr(Stdio::null());
    let child = spawn_tied(cmd).expect("start quire bench");
    // Mid-run: at least two of its servers (processes naming the report directory and a
    // port: not the bench itself, not mariadb-install-db), one of them MariaDB, are up.
    let needle = out.display().to_string();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let procs = processes_mentioning(&needle);
        let servers = procs
            .iter()
            .filter(|p| !p.contains(" bench ") && p.contains("--port="))
            .count();
        let mariadb = procs
            .iter()
            .any(|p| p.contains("mariadbd") && p.contains("--port="));
        if servers >= 2 && mariadb {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "servers never started: {procs:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    child
}

#[test]
fn interrupted_bench_leaves_no_server_and_no_data_directory() {
    if !external_tools() {
        return;
    }
    let dir = unique_temp_dir("bench-kill");
    // Ctrl-C (SIGINT): every server stopped, every data directory removed, status 130.
    let out = dir.join("int");
    let mut child = start_bench(&out);
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(130), "{status}");
    let left = wait_gone(&out.display().to_string(), Duration::from_secs(10));
    assert!(left.is_empty(), "after SIGINT, still running: {left:?}");
    assert!(
        !out.join(".servers").exists(),
        "after SIGINT, .servers left behind"
    );

    // kill -9: the servers die with it (parent-death signal); data only under --out.
    let out = dir.join("kill");
    let mut child = start_bench(&out);
    child.kill().expect("kill -9");
    let _ = child.wait();
    let left = wait_gone(&out.display().to_string(), Duration::from_secs(10));
    assert!(left.is_empty(), "after kill -9, still running: {left:?}");
    let _ = fs::remove_dir_all(&dir);
}
