//! `quire bench`: the seed experiments, side by side with MariaDB, as a report with charts.
//! Its TPC-C workload is issue 6's client in `bench/tpcc/` ([`tpcc`]).
//!
//! ```text
//! quire bench [EXPERIMENT…] [--quick] [--out DIR] [--mariadb PATH-TO-mariadbd | --no-mariadb]
//!             [--threads N,N,…] [--duration SECONDS] [--reps N]
//! ```
//!
//! Experiments (all by default; [`experiments`] defines them): logging-cost, binlog-cost,
//! instrumentation-cost, insert-commit, flush-policy, slow-log-select1. Each starts its own
//! servers on fresh data directories ([`server`]), loads them, runs every configuration on
//! every product alternating (A B A B …, 3 repetitions by default), and the report
//! ([`report`], [`chart`]) gives medians, min–max and ratios to the baseline configuration:
//! `DIR/report.md`, `DIR/report.json`, and a PNG and an SVG chart per experiment.
//!
//! `--quick` shrinks the data and the runs (2-second runs, 1 TPC-C warehouse, 2 × 10,000
//! sysbench rows, 20 connections) so the whole suite takes a few minutes; the full suite
//! takes hours. Progress goes to stderr, one line per run with the elapsed and remaining
//! time. On Ctrl-C (or SIGTERM) every server the bench started is stopped and its data
//! directory removed; data directories live under `DIR/.servers/` while they run.

pub mod chart;
pub mod clients;
pub mod experiments;
pub mod report;
pub mod server;
pub mod tpcc;

use experiments::{Def, Env, NAMES, Progress, Scale, Workload};
use server::{MariaDbTools, Product};
use std::path::PathBuf;
use std::time::Instant;

const USAGE: &str = "\
usage: quire bench [EXPERIMENT...] [--quick] [--out DIR] [--mariadb PATH-TO-mariadbd | --no-mariadb]
                   [--threads N,N,...] [--duration SECONDS] [--reps N]
experiments: logging-cost binlog-cost instrumentation-cost insert-commit flush-policy slow-log-select1 (default: all)
";

/// The command line of `quire bench`.
#[derive(Debug, Default)]
struct Args {
    experiments: Vec<String>,
    quick: bool,
    out: Option<PathBuf>,
    mariadb: Option<PathBuf>,
    no_mariadb: bool,
    threads: Option<Vec<u32>>,
    duration: Option<u32>,
    reps: Option<usize>,
}

fn parse(args: &[String]) -> Result<Option<Args>, String> {
    let mut a = Args::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{what} needs a value"))
        };
        match name {
            "-h" | "--help" => return Ok(None),
            "--quick" => a.quick = true,
            "--no-mariadb" => a.no_mariadb = true,
            "--out" => a.out = Some(PathBuf::from(value("--out")?)),
            "--mariadb" => a.mariadb = Some(PathBuf::from(value("--mariadb")?)),
            "--threads" => {
                let v = value("--threads")?;
                let list: Result<Vec<u32>, _> = v.split(',').map(|t| t.trim().parse()).collect();
                match list {
                    Ok(l) if !l.is_empty() && l.iter().all(|&t| (1..=10_000).contains(&t)) => {
                        a.threads = Some(l)
                    }
                    _ => {
                        return Err(format!(
                            "--threads: expected numbers 1-10000 like 1,20,100, got '{v}'"
                        ));
                    }
                }
            }
            "--duration" => {
                let v = value("--duration")?;
                let secs = v
                    .trim_end_matches('s')
                    .parse::<u32>()
                    .ok()
                    .filter(|&s| s >= 1);
                a.duration =
                    Some(secs.ok_or_else(|| format!("--duration: expected seconds, got '{v}'"))?);
            }
            "--reps" => {
                let v = value("--reps")?;
                let n = v.parse::<usize>().ok().filter(|&n| (1..=100).contains(&n));
                a.reps = Some(n.ok_or_else(|| format!("--reps: expected 1-100, got '{v}'"))?);
            }
            n if n.starts_with('-') => return Err(format!("unknown option '{n}'")),
            n if NAMES.contains(&n) => {
                if !a.experiments.iter().any(|e| e == n) {
                    a.experiments.push(n.to_string());
                }
            }
            n => return Err(format!("unknown experiment '{n}'")),
        }
    }
    Ok(Some(a))
}

/// `quire bench …`: the exit status.
pub fn main(args: &[String]) -> i32 {
    let a = match parse(args) {
        Ok(Some(a)) => a,
        Ok(None) => {
            print!("{USAGE}");
            return 0;
        }
        Err(e) => {
            eprintln!("quire bench: {e}\n{USAGE}");
            return 2;
        }
    };
    let r = bench(a, args);
    if server::interrupted() {
        // The signal handler is stopping the servers and exits with status 130; a run that
        // failed because its server was killed must not exit first.
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
    match r {
        Ok(true) => 0,
        Ok(false) => 1,
        Err(e) => {
            eprintln!("quire bench: {e}");
            server::cleanup_all();
            1
        }
    }
}

/// Runs the selected experiments and writes the report; Ok(false) when some run or chart
/// failed (the report says which).
fn bench(a: Args, argv: &[String]) -> Result<bool, String> {
    server::install_signal_cleanup();
    let started = Instant::now();
    let now = chrono::Local::now();
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("quire-bench-{}", now.format("%Y%m%d-%H%M%S"))));
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    // Every path handed to a server is absolute: mariadb-install-db resolves a relative
    // --datadir against /usr, mariadbd a relative log file against its data directory.
    let out =
        std::path::absolute(&out).map_err(|e| format!("cannot resolve {}: {e}", out.display()))?;
    let servers_dir = out.join(".servers");
    std::fs::create_dir_all(&servers_dir)
        .map_err(|e| format!("cannot create {}: {e}", servers_dir.display()))?;
    server::register_dir(&servers_dir);
    let maria = if a.no_mariadb {
        None
    } else {
        let m = MariaDbTools::find(a.mariadb.as_deref());
        if m.is_none() {
            if let Some(p) = &a.mariadb {
                return Err(format!(
                    "{}: no mariadbd (or no mariadb-install-db beside it)",
                    p.display()
                ));
            }
            eprintln!("quire bench: no MariaDB found (mariadbd); measuring Quire alone");
        }
        m
    };
    let products: Vec<Product> = if maria.is_some() {
        vec![Product::Quire, Product::MariaDb]
    } else {
        vec![Product::Quire]
    };
    let mut scale = Scale::new(a.quick);
    if let Some(d) = a.duration {
        scale.secs = d;
    }
    if let Some(r) = a.reps {
        scale.reps = r;
    }
    if let Some(t) = &a.threads {
        scale.threads = t.clone();
    }
    let names: Vec<&str> = if a.experiments.is_empty() {
        NAMES.to_vec()
    } else {
        NAMES
            .iter()
            .copied()
            .filter(|n| a.experiments.iter().any(|e| e == n))
            .collect()
    };
    let defs: Vec<Def> = names
        .iter()
        .filter_map(|n| experiments::define(n, &scale))
        .map(|mut d| {
            // --threads also sets the concurrency of the fixed-concurrency sysbench runs.
            if let (Some(t), false) = (&a.threads, d.name == "logging-cost") {
                let mut ws = Vec::new();
                for w in &d.workloads {
                    match w {
                        Workload::Sysbench { name, .. } => {
                            let name = *name;
                            ws.extend(
                                t.iter()
                                    .map(|&threads| Workload::Sysbench { name, threads }),
                            )
                        }
                        other => ws.push(other.clone()),
                    }
                }
                d.workloads = ws;
            }
            d
        })
        .collect();
    let total = defs.iter().map(|d| d.planned(&products, scale.reps)).sum();
    let mut progress = Progress {
        total,
        done: 0,
        started,
        run_secs: 0.0,
    };
    eprintln!(
        "quire bench: {} experiment(s), {total} runs, {} into {}",
        defs.len(),
        products
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(" and "),
        out.display()
    );
    let mut outcomes = Vec::new();
    let mut ok = true;
    let mut failures = Vec::new();
    for d in &defs {
        let mut env = Env {
            products: &products,
            maria: maria.as_ref(),
            scale: &scale,
            servers_dir: &servers_dir,
            progress: &mut progress,
        };
        match experiments::run(d, &mut env) {
            Ok(o) => {
                ok &= o.samples.iter().all(|s| s.error.is_none());
                outcomes.push(o);
            }
            Err(e) => {
                eprintln!("quire bench: {}: {e}", d.name);
                failures.push(format!("{}: {e}", d.name));
                // Its runs will not happen: keep the remaining estimate honest.
                progress.total = progress
                    .total
                    .saturating_sub(d.planned(&products, scale.reps));
                ok = false;
            }
        }
    }
    let mut charts = Vec::new();
    let mut chart_error = None;
    for o in &outcomes {
        let rows = report::rows(o, &products);
        let mut files = Vec::new();
        let drawn = chart::ratios(&out, o, &rows, &products).and_then(|f| {
            files.extend(f);
            if o.samples.iter().any(|s| !s.series.is_empty()) && o.def.name == "binlog-cost" {
                files.extend(chart::series(&out, o, &products)?);
            }
            Ok(())
        });
        if let Err(e) = drawn {
            chart_error = Some(e);
            ok = false;
        }
        charts.push((o.def.name.to_string(), files));
    }
    let version = |p: Product| {
        outcomes
            .iter()
            .flat_map(|o| &o.servers)
            .find(|s| s.product == p)
            .map(|s| s.version.clone())
    };
    let ctx = report::Context {
        command: format!("quire bench {}", argv.join(" ")).trim().to_string(),
        date: now.format("%Y-%m-%d %H:%M %Z").to_string(),
        machine: report::machine(),
        quire_version: version(Product::Quire)
            .unwrap_or_else(|| env!("CARGO_PKG_VERSION").to_string()),
        mariadb_version: version(Product::MariaDb),
        quick: scale.quick,
        reps: scale.reps,
        secs: scale.secs,
        seconds: started.elapsed().as_secs_f64(),
        charts,
        chart_error,
    };
    let mut md = report::markdown(&ctx, &outcomes, &products);
    if !failures.is_empty() {
        md.push_str("## Experiments that did not run\n\n");
        for f in &failures {
            md.push_str(&format!("- {f}\n"));
        }
    }
    let json = report::json(&ctx, &outcomes, &products);
    let write = |name: &str, text: &str| {
        std::fs::write(out.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    write("report.md", &md)?;
    write(
        "report.json",
        &serde_json::to_string_pretty(&json).map_err(|e| format!("report.json: {e}"))?,
    )?;
    server::cleanup_all();
    let _ = std::fs::remove_dir_all(&servers_dir);
    eprintln!(
        "quire bench: {} in {}: {}/report.md",
        if ok { "done" } else { "done with failures" },
        experiments::clock(started.elapsed().as_secs_f64()),
        out.display()
    );
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn command_line() {
        let a = parse(&args(&[
            "binlog-cost",
            "--quick",
            "--out=/tmp/x",
            "--threads",
            "1,8",
        ]))
        .expect("parses")
        .expect("not help");
        assert_eq!(a.experiments, vec!["binlog-cost"]);
        assert!(a.quick);
        assert_eq!(a.out, Some(PathBuf::from("/tmp/x")));
        assert_eq!(a.threads, Some(vec![1, 8]));
        assert!(parse(&args(&["--help"])).expect("parses").is_none());
        assert!(parse(&args(&["nonsense"])).is_err());
        assert!(parse(&args(&["--threads", "0"])).is_err());
        assert!(parse(&args(&["--duration"])).is_err());
        assert!(parse(&args(&["--reps", "x"])).is_err());
    }

    #[test]
    fn every_experiment_is_defined() {
        for quick in [true, false] {
            let scale = Scale::new(quick);
            for n in NAMES {
                let d = experiments::define(n, &scale).expect("defined");
                assert!(d.configs.len() >= 2, "{n}");
                assert!(d.planned(&[Product::Quire, Product::MariaDb], 3) > 0, "{n}");
            }
        }
    }
}
