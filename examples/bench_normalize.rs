//! Micro benchmark of the statement normaliser (the first step of every text statement):
//! prints the time per statement for a few typical shapes. A benchmark, not a test.
//!
//! `cargo run --release --example bench_normalize`

use quire::sql::lexer::LexOptions;
use quire::sql::normalize::{Normalized, normalize_into};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn main() {
    let statements = [
        "SELECT c FROM sbtest1 WHERE id=5012",
        "UPDATE sbtest1 SET k=k+1 WHERE id=5012",
        "SELECT d_next_o_id, d_tax FROM district WHERE d_id = 5 AND d_w_id = 1 FOR UPDATE",
        "SELECT c FROM sbtest1 WHERE id BETWEEN 5012 AND 5111 ORDER BY c /* ~100 bytes padding */",
        "INSERT INTO sbtest1 (id, k, c, pad) VALUES (5012, 4993, '68487932199-96439406143-93774651418-41631865787-96406072701', '22195207048-70116052123-74140395089')",
    ];
    let opts = LexOptions::default();
    let mut out = Normalized::default();
    for sql in statements {
        // The minimum over batches: on a shared machine a batch's wall time includes
        // preemption by other processes.
        let per_statement = (0..30)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..10_000 {
                    if normalize_into(&mut out, black_box(sql), &opts).is_err() {
                        eprintln!("does not lex: {sql}");
                        return Duration::ZERO;
                    }
                    black_box(&out);
                }
                start.elapsed() / 10_000
            })
            .min()
            .unwrap_or(Duration::ZERO);
        println!(
            "{:>4} bytes  {:>7.0?}  {}",
            sql.len(),
            per_statement,
            &sql[..sql.len().min(60)]
        );
    }
}
