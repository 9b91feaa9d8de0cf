//! The load generators `quire bench` drives: sysbench (oltp_* Lua workloads) and
//! mariadb-slap, each as a child process (see [`super::server::spawn`]) whose report is
//! parsed here, and serial statements sent through a client connection.

use super::server::{Server, find_tool, output};
use std::process::Command;
use std::time::{Duration, Instant};

/// What one sysbench run reported.
#[derive(Clone, Debug, Default)]
pub struct SbRun {
    pub tps: f64,
    pub qps: f64,
    pub p95_ms: f64,
    pub errors: f64,
    /// Per-second figures: (second, tps, qps).
    pub series: Vec<(f64, f64, f64)>,
}

/// sysbench's table set: `tables` × `size` rows in database sbtest.
#[derive(Clone, Copy, Debug)]
pub struct Tables {
    pub tables: u32,
    pub size: u32,
}

fn sysbench(server: &Server, workload: &str, t: Tables) -> Result<Command, String> {
    let bin =
        find_tool("sysbench").ok_or("sysbench is not installed (apt-get install sysbench)")?;
    let mut cmd = Command::new(bin);
    cmd.arg(workload)
        .arg("--mysql-host=127.0.0.1")
        .arg(format!("--mysql-port={}", server.port))
        .arg("--mysql-user=sb")
        .arg("--mysql-password=sb")
        .arg("--mysql-db=sbtest")
        .arg(format!("--tables={}", t.tables))
        .arg(format!("--table-size={}", t.size));
    Ok(cmd)
}

/// `sysbench oltp_read_write prepare` (4 loader threads).
pub fn sb_prepare(server: &Server, t: Tables) -> Result<(), String> {
    let mut cmd = sysbench(server, "oltp_read_write", t)?;
    cmd.arg(format!("--threads={}", t.tables.clamp(1, 4)))
        .arg("prepare");
    let out = output(cmd).map_err(|e| format!("sysbench prepare: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "sysbench prepare on {} failed: {}",
            server.product.name(),
            last_lines(&out.stdout, &out.stderr, 3)
        ));
    }
    Ok(())
}

/// One sysbench run of `workload` at `threads` for `secs` seconds.
pub fn sb_run(
    server: &Server,
    workload: &str,
    t: Tables,
    threads: u32,
    secs: u32,
) -> Result<SbRun, String> {
    let mut cmd = sysbench(server, workload, t)?;
    cmd.arg(format!("--threads={threads}"))
        .arg(format!("--time={secs}"))
        .arg("--report-interval=1")
        .arg("--percentile=95")
        .arg("run");
    let out = output(cmd).map_err(|e| format!("sysbench: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let run = parse_sysbench(&text);
    match run {
        Some(r) if out.status.success() => Ok(r),
        _ => Err(format!(
            "sysbench {workload} on {} failed: {}",
            server.product.name(),
            last_lines(&out.stdout, &out.stderr, 3)
        )),
    }
}

/// The last `n` non-blank lines of a child's stdout then stderr, joined by " | ".
pub(super) fn last_lines(stdout: &[u8], stderr: &[u8], n: usize) -> String {
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(stdout),
        String::from_utf8_lossy(stderr)
    );
    let lines: Vec<&str> = all.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

/// The number after `key` in `line` (up to the next space or parenthesis).
fn number_after(line: &str, key: &str) -> Option<f64> {
    let rest = &line[line.find(key)? + key.len()..];
    rest.trim_start()
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .next()?
        .parse()
        .ok()
}

/// Parses sysbench 1.0's report: the totals' "(N per sec.)", the 95th percentile and the
/// `--report-interval` lines (`[ 1s ] thds: 8 tps: 1.00 qps: 2.00 …`).
pub fn parse_sysbench(text: &str) -> Option<SbRun> {
    let mut r = SbRun::default();
    let mut saw_tps = false;
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            let second = l
                .strip_prefix('[')
                .and_then(|x| x.split("s ]").next())
                .and_then(|x| x.trim().parse().ok());
            if let (Some(s), Some(tps), Some(qps)) =
                (second, number_after(l, "tps:"), number_after(l, "qps:"))
            {
                r.series.push((s, tps, qps));
            }
        } else if let Some(rest) = l.strip_prefix("transactions:") {
            r.tps = per_sec(rest)?;
            saw_tps = true;
        } else if let Some(rest) = l.strip_prefix("queries:") {
            r.qps = per_sec(rest)?;
        } else if let Some(rest) = l.strip_prefix("ignored errors:") {
            r.errors = rest.split_whitespace().next()?.parse().ok()?;
        } else if let Some(rest) = l.strip_prefix("95th percentile:") {
            r.p95_ms = rest.trim().parse().ok()?;
        }
    }
    saw_tps.then_some(r)
}

/// "12345  (1234.50 per sec.)" → 1234.5
fn per_sec(rest: &str) -> Option<f64> {
    let open = rest.find('(')?;
    rest[open + 1..].split_whitespace().next()?.parse().ok()
}

/// `mariadb-slap -q QUERY --concurrency=C --number-of-queries=N`: seconds it reports.
pub fn slap(server: &Server, query: &str, concurrency: u32, queries: u64) -> Result<f64, String> {
    let bin = find_tool("mariadb-slap")
        .or_else(|| find_tool("mysqlslap"))
        .ok_or("mariadb-slap is not installed (apt-get install mariadb-client)")?;
    let mut cmd = Command::new(bin);
    cmd.arg("--host=127.0.0.1")
        .arg(format!("--port={}", server.port))
        .arg("--user=sb")
        .arg("--password=sb")
        .arg("--create-schema=mysqlslap")
        .arg(format!("--query={query}"))
        .arg(format!("--concurrency={concurrency}"))
        .arg(format!("--number-of-queries={queries}"))
        .arg("--iterations=1");
    let out = output(cmd).map_err(|e| format!("mariadb-slap: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    parse_slap(&text)
        .filter(|_| out.status.success())
        .ok_or_else(|| {
            format!(
                "mariadb-slap on {} failed: {}",
                server.product.name(),
                last_lines(&out.stdout, &out.stderr, 3)
            )
        })
}

/// "Average number of seconds to run all queries: 1.234 seconds" → 1.234
pub fn parse_slap(text: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| number_after(l, "Average number of seconds to run all queries:"))
}

/// Runs `sqls` once each, serially on one connection, after `setup`; the wall time.
pub fn serial(server: &Server, setup: &[String], sqls: &[String]) -> Result<Duration, String> {
    use mysql::prelude::Queryable;
    let mut c = server.conn()?;
    for s in setup {
        c.query_drop(s).map_err(|e| format!("{s}: {e}"))?;
    }
    let start = Instant::now();
    for s in sqls {
        c.query_drop(s).map_err(|e| format!("{s}: {e}"))?;
    }
    Ok(start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysbench_report_parses() {
        let text = "\
[ 1s ] thds: 8 tps: 1021.83 qps: 20458.57 (r/w/o: 14329.99/4084.32/2044.66) lat (ms,95%): 12.30 err/s: 0.00 reconn/s: 0.00
[ 2s ] thds: 8 tps: 1100.00 qps: 22000.00 (r/w/o: 1/2/3) lat (ms,95%): 11.00 err/s: 0.00 reconn/s: 0.00
SQL statistics:
    queries performed:
    transactions:                        2121   (1060.10 per sec.)
    queries:                             42420  (21202.05 per sec.)
    ignored errors:                      3      (1.50 per sec.)
Latency (ms):
         95th percentile:                       11.65
";
        let r = parse_sysbench(text).expect("parses");
        assert_eq!(r.tps, 1060.10);
        assert_eq!(r.qps, 21202.05);
        assert_eq!(r.errors, 3.0);
        assert_eq!(r.p95_ms, 11.65);
        assert_eq!(
            r.series,
            vec![(1.0, 1021.83, 20458.57), (2.0, 1100.0, 22000.0)]
        );
        assert!(parse_sysbench("FATAL: no such table").is_none());
    }

    #[test]
    fn slap_report_parses() {
        let text = "Benchmark\n\tAverage number of seconds to run all queries: 2.345 seconds\n\tMinimum number of seconds to run all queries: 2.345 seconds\n";
        assert_eq!(parse_slap(text), Some(2.345));
        assert_eq!(parse_slap("error"), None);
    }
}
