//! The TPC-C workload of `quire bench`: the TPC-C client of issue 6 (`bench/tpcc/`, Go,
//! written from the specification; its package doc says what it sends), driven as a child
//! process. It is built once per bench with `go build` next to the running executable
//! (`quire-tpcc`; Go's build cache makes a rebuild of an unchanged client take a second);
//! `QUIRE_TPCC=PATH` names a client already built instead. The client's `RESULT` line and
//! its per-interval `notpm` lines are parsed here.

use super::clients::last_lines;
use super::server::{find_tool, output};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// One TPC-C load or run against a server on 127.0.0.1.
#[derive(Clone, Debug)]
pub struct Config {
    pub port: u16,
    pub user: String,
    pub password: String,
    pub warehouses: u32,
    /// Terminals (connections) of a run.
    pub conns: u32,
    pub load_conns: u32,
    pub duration: Duration,
    pub warmup: Duration,
    /// The interval of the client's NOTPM lines (the run's time series).
    pub report_every: Duration,
    /// Server-side prepared statements (else COM_QUERY with the values written in).
    pub prepared: bool,
    /// Load: the random seed (the same seed loads the same rows).
    pub seed: u64,
}

/// One NOTPM line of a run: the figures of the interval ending at `elapsed`.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    pub elapsed: Duration,
    pub notpm: f64,
    pub tpm: f64,
    pub warmup: bool,
}

/// What a run reported: the measured interval's NOTPM and transactions per minute, and the
/// whole run's errors and deadlock/lock-wait retries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSummary {
    pub notpm: f64,
    pub tpm_total: f64,
    pub errors: u64,
    pub retries: u64,
    pub intervals: Vec<Interval>,
}

/// The client's source directory: `bench/tpcc` of the tree this executable was built from.
fn source_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/tpcc")
}

/// The client executable: `QUIRE_TPCC`, or built from [`source_dir`] (once per process).
pub fn client() -> Result<PathBuf, String> {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT.get_or_init(build).clone()
}

fn build() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("QUIRE_TPCC") {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("QUIRE_TPCC={} is not a file", p.display()))
        };
    }
    let src = source_dir();
    if !src.join("main.go").is_file() {
        return Err(format!(
            "the TPC-C client's source is not at {} (set QUIRE_TPCC to a built bench/tpcc client)",
            src.display()
        ));
    }
    let go = find_tool("go")
        .ok_or("the TPC-C client needs Go to build (go on PATH or in /usr/local/go/bin; or set QUIRE_TPCC)")?;
    let exe = std::env::current_exe().map_err(|e| format!("current executable: {e}"))?;
    let dest = exe
        .parent()
        .ok_or("the current executable has no directory")?
        .join("quire-tpcc");
    // Built under a name of this process's and renamed: benches running side by side each
    // run a whole client.
    let tmp = dest.with_extension(format!("{}.tmp", std::process::id()));
    let mut cmd = Command::new(go);
    cmd.current_dir(&src)
        .arg("build")
        .arg("-o")
        .arg(&tmp)
        .arg(".");
    let out = output(cmd).map_err(|e| format!("go build: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "go build of the TPC-C client in {} failed: {}",
            src.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    std::fs::rename(&tmp, &dest)
        .map_err(|e| format!("{} → {}: {e}", tmp.display(), dest.display()))?;
    Ok(dest)
}

/// The client with the connection flags and `-warehouses`.
fn command(cfg: &Config, sub: &str) -> Result<Command, String> {
    let mut cmd = Command::new(client()?);
    cmd.arg(sub)
        .arg("-host=127.0.0.1")
        .arg(format!("-port={}", cfg.port))
        .arg(format!("-user={}", cfg.user))
        .arg(format!("-password={}", cfg.password))
        .arg(format!("-warehouses={}", cfg.warehouses));
    Ok(cmd)
}

fn go_duration(d: Duration) -> String {
    format!("{}ms", d.as_millis().max(1))
}

/// Runs the client to completion: its stdout, or an error with its last lines.
fn run_client(cmd: Command, what: &str) -> Result<String, String> {
    let out = output(cmd).map_err(|e| format!("tpcc {what}: {e}"))?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    Err(format!(
        "tpcc {what} failed: {}",
        last_lines(&out.stdout, &out.stderr, 4)
    ))
}

/// `tpcc load`: the schema and the population of `warehouses` warehouses.
pub fn load(cfg: &Config) -> Result<(), String> {
    let mut cmd = command(cfg, "load")?;
    cmd.arg(format!("-load-conns={}", cfg.load_conns.max(1)))
        .arg(format!("-seed={}", cfg.seed));
    run_client(cmd, "load").map(drop)
}

/// `tpcc run`: `conns` terminals for the warmup plus the duration.
pub fn run(cfg: &Config) -> Result<RunSummary, String> {
    let mut cmd = command(cfg, "run")?;
    cmd.arg(format!("-conns={}", cfg.conns.max(1)))
        .arg(format!("-duration={}", go_duration(cfg.duration)))
        .arg(format!("-warmup={}", go_duration(cfg.warmup)))
        .arg(format!(
            "-report={}",
            go_duration(cfg.report_every.max(Duration::from_millis(100)))
        ))
        .arg(if cfg.prepared {
            "-mode=prepared"
        } else {
            "-mode=text"
        });
    let text = run_client(cmd, "run")?;
    parse_run(&text).ok_or_else(|| {
        let tail: Vec<&str> = text.lines().rev().take(4).collect();
        format!("tpcc run printed no RESULT line: {}", tail.join(" | "))
    })
}

/// Parses `tpcc run`'s output: `  12.0s notpm     1234  tpm     2740  retries 0  errors 0
/// (warmup)` lines and `RESULT notpm=… tpm_total=… errors=… retries=…`.
pub fn parse_run(text: &str) -> Option<RunSummary> {
    let mut r = RunSummary::default();
    let mut result = false;
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { continue };
        if first == "RESULT" {
            for kv in words {
                let (k, v) = kv.split_once('=')?;
                match k {
                    "notpm" => r.notpm = v.parse().ok()?,
                    "tpm_total" => r.tpm_total = v.parse().ok()?,
                    "errors" => r.errors = v.parse().ok()?,
                    "retries" => r.retries = v.parse().ok()?,
                    _ => {}
                }
            }
            result = true;
        } else if let Some(secs) = first.strip_suffix('s').and_then(|s| s.parse::<f64>().ok()) {
            let rest: Vec<&str> = words.collect();
            if let ["notpm", notpm, "tpm", tpm, ..] = rest.as_slice()
                && let (Ok(notpm), Ok(tpm)) = (notpm.parse(), tpm.parse())
            {
                r.intervals.push(Interval {
                    elapsed: Duration::from_secs_f64(secs.max(0.0)),
                    notpm,
                    tpm,
                    warmup: rest.last() == Some(&"(warmup)"),
                });
            }
        }
    }
    result.then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_output_parses() {
        let text = "\
tpcc run: 127.0.0.1:3306/tpcc (10.11.6-MariaDB), 1 warehouses, 20 connections, mode prepared, warmup 1s, duration 2s
  1.0s notpm     1200  tpm     2700  retries 0  errors 0 (warmup)
  2.0s notpm   1500.5  tpm     3300  retries 1  errors 0

measured 2.0 s (after 1s warmup)
ERROR in payment (error 1062): whatever
NOTPM 1450 (New-Order commits per minute), tpm total 3200
RESULT notpm=1450 tpm_total=3200 errors=2 retries=1
";
        let r = parse_run(text).expect("parses");
        assert_eq!(r.notpm, 1450.0);
        assert_eq!(r.tpm_total, 3200.0);
        assert_eq!((r.errors, r.retries), (2, 1));
        assert_eq!(r.intervals.len(), 2);
        assert!(r.intervals[0].warmup && !r.intervals[1].warmup);
        assert_eq!(r.intervals[1].elapsed, Duration::from_secs(2));
        assert_eq!(r.intervals[1].notpm, 1500.5);
        assert_eq!(r.intervals[1].tpm, 3300.0);
        assert!(parse_run("tpcc run: connection refused").is_none());
        assert!(parse_run("RESULT notpm=x").is_none());
    }

    #[test]
    fn durations_are_go_durations() {
        assert_eq!(go_duration(Duration::from_secs(2)), "2000ms");
        assert_eq!(go_duration(Duration::ZERO), "1ms");
    }
}
