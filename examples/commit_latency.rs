//! Commit latency of 1-row transactions while a large transaction commits (issue 3's bar;
//! run by `bench/bigtxn.sh`).
//!
//! `commit_latency HOST:PORT USER PASSWORD THREADS SECONDS [BIG_INSERTS]`
//!
//! THREADS sessions run autocommit single-row UPDATEs on `sbtest.sbtest1..4` (sysbench's
//! tables) for SECONDS, each timing every commit. With BIG_INSERTS, one more session starts
//! after 2 s: `BEGIN`, BIG_INSERTS × `INSERT INTO sbtest.big (k, c, pad) SELECT k, c, pad
//! FROM sbtest.big_src`, `COMMIT` (timed). Prints the p99 of the small commits over the run
//! (after the first second), and with the large transaction the COMMIT's duration and the p99
//! of the small commits that overlapped it.

use mysql::prelude::Queryable;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn p99(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[((v.len() as f64 * 0.99).ceil() as usize).clamp(1, v.len()) - 1]
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 6 {
        eprintln!("usage: commit_latency HOST:PORT USER PASSWORD THREADS SECONDS [BIG_INSERTS]");
        std::process::exit(2);
    }
    let (host, port) = a[1].rsplit_once(':').expect("HOST:PORT");
    let opts = mysql::OptsBuilder::new()
        .ip_or_hostname(Some(host))
        .tcp_port(port.parse().expect("port"))
        .user(Some(&a[2]))
        .pass(Some(&a[3]))
        .db_name(Some("sbtest"));
    let threads: usize = a[4].parse().expect("THREADS");
    let secs: u64 = a[5].parse().expect("SECONDS");
    let big: Option<u32> = a.get(6).map(|s| s.parse().expect("BIG_INSERTS"));

    let t0 = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let workers: Vec<_> = (0..threads)
        .map(|w| {
            let mut c = mysql::Conn::new(opts.clone()).expect("connect");
            let stop = stop.clone();
            std::thread::spawn(move || {
                // (start, end) of each commit, in seconds since t0.
                let mut times = Vec::new();
                let mut n = w as u64 * 7919;
                while !stop.load(Ordering::Relaxed) {
                    n = n
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let table = (n >> 40) % 4 + 1;
                    let id = (n >> 20) % 100_000 + 1;
                    let s = t0.elapsed().as_secs_f64();
                    c.query_drop(format!(
                        "UPDATE sbtest{table} SET c = CONCAT(LEFT(c, 100), {n}) WHERE id = {id}"
                    ))
                    .expect("update");
                    times.push((s, t0.elapsed().as_secs_f64()));
                }
                times
            })
        })
        .collect();
    let mut window = None;
    if let Some(inserts) = big {
        std::thread::sleep(Duration::from_secs(2));
        let mut c = mysql::Conn::new(opts.clone()).expect("connect");
        c.query_drop("BEGIN").expect("begin");
        for _ in 0..inserts {
            c.query_drop("INSERT INTO big (k, c, pad) SELECT k, c, pad FROM big_src")
                .expect("insert");
        }
        let s = t0.elapsed().as_secs_f64();
        c.query_drop("COMMIT").expect("commit");
        window = Some((s, t0.elapsed().as_secs_f64()));
        c.query_drop("TRUNCATE TABLE big").expect("truncate");
    }
    let left = Duration::from_secs(secs).saturating_sub(t0.elapsed());
    std::thread::sleep(left);
    stop.store(true, Ordering::Relaxed);
    let all: Vec<(f64, f64)> = workers
        .into_iter()
        .flat_map(|w| w.join().expect("worker"))
        .collect();
    let mut lat: Vec<f64> = all
        .iter()
        .filter(|(s, _)| *s >= 1.0)
        .map(|(s, e)| (e - s) * 1000.0)
        .collect();
    let n = lat.len();
    print!("p99 {:.2} ms over {n} commits", p99(&mut lat));
    if let Some((ws, we)) = window {
        let mut during: Vec<f64> = all
            .iter()
            .filter(|(s, e)| *e >= ws && *s <= we)
            .map(|(s, e)| (e - s) * 1000.0)
            .collect();
        let k = during.len();
        print!(
            "; COMMIT {:.3} s, p99 of the {k} commits overlapping it {:.2} ms",
            we - ws,
            p99(&mut during)
        );
    }
    println!();
}
