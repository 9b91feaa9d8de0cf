//! The six experiments, each named after its question and the seed it reproduces
//! (`../shared/seeds/`), and the runner that measures them.
//!
//! An experiment is a list of **configurations** (the first is the baseline the others
//! are divided by) and a list of **workloads** (a client, its concurrency). Each
//! configuration says, per product, how to get it: options at server start (configurations
//! with the same start options share one server), global statements before and after each
//! run (`SET GLOBAL slow_query_log=1` … `=0`), and session statements for the serial
//! workloads. A product that has no such setting gets `None` and shows "n/a".
//!
//! The runner starts every server an experiment needs, loads each once, then for each
//! workload runs repetition 1 of every configuration on every product, then repetition 2,
//! and so on (A B A B …), so that a drift of the machine's speed spreads over all of them.

use super::clients::{self, Tables};
use super::server::{MariaDbTools, Product, Server, Spec};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How one product gets a configuration.
#[derive(Clone, Debug, Default)]
pub struct Setting {
    /// Server start options.
    pub start: Vec<String>,
    /// Global statements before each run (`{dir}` is the server's directory)…
    pub on: Vec<String>,
    /// …and after it.
    pub off: Vec<String>,
    /// Session statements for the serial workloads.
    pub session: Vec<String>,
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

impl Setting {
    fn start(options: &[&str]) -> Setting {
        Setting {
            start: strings(options),
            ..Setting::default()
        }
    }
    fn global(on: &[&str], off: &[&str]) -> Setting {
        Setting {
            on: strings(on),
            off: strings(off),
            ..Setting::default()
        }
    }
    fn with_start(mut self, options: &[&str]) -> Setting {
        self.start = strings(options);
        self
    }
    fn with_session(mut self, sqls: &[&str]) -> Setting {
        self.session = strings(sqls);
        self
    }
}

/// One configuration of an experiment.
#[derive(Clone, Debug)]
pub struct Config {
    pub label: String,
    pub quire: Option<Setting>,
    pub mariadb: Option<Setting>,
}

impl Config {
    fn both(label: &str, s: Setting) -> Config {
        Config {
            label: label.into(),
            quire: Some(s.clone()),
            mariadb: Some(s),
        }
    }
    fn each(label: &str, quire: Option<Setting>, mariadb: Option<Setting>) -> Config {
        Config {
            label: label.into(),
            quire,
            mariadb,
        }
    }
    pub fn setting(&self, p: Product) -> Option<&Setting> {
        match p {
            Product::Quire => self.quire.as_ref(),
            Product::MariaDb => self.mariadb.as_ref(),
        }
    }
}

/// A client and its concurrency.
#[derive(Clone, Debug)]
pub enum Workload {
    /// A sysbench Lua workload at `threads`.
    Sysbench { name: &'static str, threads: u32 },
    /// The TPC-C client (`super::tpcc`) with `conns` terminals.
    Tpcc { conns: u32 },
    /// `n` serial single-row UPDATEs on one connection, then COMMIT.
    Updates { n: usize },
    /// `n` single-row INSERTs with `SET profiling=1`: the stages of SHOW PROFILE.
    Inserts { n: usize },
    /// `mariadb-slap -q QUERY --concurrency=C --number-of-queries=N`.
    Slap {
        query: &'static str,
        concurrency: u32,
        queries: u64,
    },
}

impl Workload {
    /// The figure a run yields, and whether more is better.
    pub fn metric(&self) -> (&'static str, bool) {
        match self {
            Workload::Sysbench { .. } => ("tps", true),
            Workload::Tpcc { .. } => ("NOTPM", true),
            Workload::Updates { .. } | Workload::Slap { .. } => ("seconds", false),
            Workload::Inserts { .. } => ("µs per INSERT", false),
        }
    }
    pub fn name(&self) -> String {
        match self {
            Workload::Sysbench { name, .. } => name.to_string(),
            Workload::Tpcc { .. } => "TPC-C".into(),
            Workload::Updates { n } => format!("{n} UPDATEs"),
            Workload::Inserts { n } => format!("{n} INSERTs"),
            Workload::Slap { query, queries, .. } => format!("slap '{query}' x {queries}"),
        }
    }
    pub fn concurrency(&self) -> u32 {
        match self {
            Workload::Sysbench { threads, .. } => *threads,
            Workload::Tpcc { conns } => *conns,
            Workload::Updates { .. } | Workload::Inserts { .. } => 1,
            Workload::Slap { concurrency, .. } => *concurrency,
        }
    }
}

/// Data each server of an experiment is loaded with.
#[derive(Clone, Copy, Debug, Default)]
pub struct Data {
    pub sysbench: Option<Tables>,
    pub tpcc_warehouses: Option<u32>,
    /// Table `sbtest.counters (id INT PRIMARY KEY, col1 INT, col2 INT)` with 100,000 rows.
    pub counters: bool,
}

impl Data {
    fn is_empty(&self) -> bool {
        self.sysbench.is_none() && self.tpcc_warehouses.is_none() && !self.counters
    }
}

/// An experiment before it runs.
#[derive(Clone, Debug)]
pub struct Def {
    pub name: &'static str,
    pub question: &'static str,
    pub seed: &'static str,
    pub configs: Vec<Config>,
    pub workloads: Vec<Workload>,
    pub data: Data,
    /// Record commits per fsync (binary log status counters) around each run.
    pub commits_per_fsync: bool,
}

impl Def {
    /// Runs this experiment will make.
    pub fn planned(&self, products: &[Product], reps: usize) -> usize {
        let per_rep: usize = self
            .configs
            .iter()
            .map(|c| products.iter().filter(|p| c.setting(**p).is_some()).count())
            .sum();
        per_rep * reps * self.workloads.len()
    }
}

/// Sizes and durations of a bench run.
#[derive(Clone, Debug)]
pub struct Scale {
    pub quick: bool,
    pub reps: usize,
    /// Seconds per timed run (sysbench, TPC-C).
    pub secs: u32,
    /// TPC-C warmup before the measured time.
    pub warmup: Duration,
    /// Concurrencies for logging-cost (the seed's 1, 20, 100).
    pub threads: Vec<u32>,
    pub tables: Tables,
    pub warehouses: u32,
    pub updates: usize,
    pub inserts: usize,
    pub slap_queries: u64,
}

impl Scale {
    pub fn new(quick: bool) -> Scale {
        if quick {
            Scale {
                quick,
                reps: 3,
                secs: 2,
                warmup: Duration::from_secs(1),
                threads: vec![20],
                tables: Tables {
                    tables: 2,
                    size: 10_000,
                },
                warehouses: 1,
                updates: 500,
                inserts: 100,
                slap_queries: 20_000,
            }
        } else {
            Scale {
                quick,
                reps: 3,
                secs: 20,
                warmup: Duration::from_secs(10),
                threads: vec![1, 20, 100],
                tables: Tables {
                    tables: 4,
                    size: 100_000,
                },
                warehouses: 10,
                updates: 5_000,
                inserts: 1_000,
                slap_queries: 1_000_000,
            }
        }
    }
}

/// The experiments' names, in the order.
pub const NAMES: [&str; 6] = [
    "logging-cost",
    "binlog-cost",
    "instrumentation-cost",
    "insert-commit",
    "flush-policy",
    "slow-log-select1",
];

/// The definition of experiment `name` at `scale`.
pub fn define(name: &str, scale: &Scale) -> Option<Def> {
    let sb = |name: &'static str, threads: u32| Workload::Sysbench { name, threads };
    Some(match name {
        "logging-cost" => {
            let slow_all = Setting::global(
                &[
                    "SET GLOBAL long_query_time=0",
                    "SET GLOBAL slow_query_log=1",
                ],
                &[
                    "SET GLOBAL slow_query_log=0",
                    "SET GLOBAL long_query_time=10",
                ],
            );
            // MariaDB refuses a log file that is not a regular file in SET GLOBAL (1231), so
            // the /dev/null configurations get servers of their own started with it.
            let null_start = [
                "--slow-query-log-file=/dev/null",
                "--general-log-file=/dev/null",
                "--long-query-time=10",
            ];
            let to_null = |s: &Setting| s.clone().with_start(&null_start);
            let general =
                Setting::global(&["SET GLOBAL general_log=1"], &["SET GLOBAL general_log=0"]);
            let mut workloads = Vec::new();
            for &t in &scale.threads {
                workloads.push(Workload::Tpcc { conns: t });
            }
            for &t in &scale.threads {
                workloads.push(sb("oltp_read_write", t));
            }
            let maria_audit = Setting::global(
                &[
                    "SET GLOBAL server_audit_events='CONNECT,QUERY'",
                    "SET GLOBAL server_audit_logging=ON",
                ],
                &["SET GLOBAL server_audit_logging=OFF"],
            );
            let base = [
                "--slow-query-log-file={dir}/slow.log",
                "--general-log-file={dir}/general.log",
                "--long-query-time=10",
            ];
            let mut maria_base = base.to_vec();
            maria_base.extend([
                "--plugin-load-add=server_audit",
                "--server-audit-file-path={dir}/audit.log",
            ]);
            let mut quire_base = base.to_vec();
            quire_base.push("--audit-log-file={dir}/audit.log");
            // Every other configuration shares one server per product.
            let starts = |c: Config| {
                let base = |s: Setting, base: &[&str]| match s.start.is_empty() {
                    true => s.with_start(base),
                    false => s,
                };
                Config {
                    quire: c.quire.map(|s| base(s, &quire_base)),
                    mariadb: c.mariadb.map(|s| base(s, &maria_base)),
                    ..c
                }
            };
            Def {
                name: "logging-cost",
                question: "What does logging every query cost, compared with no log and a slow log of queries over a second?",
                seed: "000 (Percona, DBT2 with the slow log off / > 1 s / every query, 1, 20 and 100 connections, and to /dev/null)",
                configs: [
                    Config::both("no log", Setting::default()),
                    Config::both(
                        "slow log > 1 s",
                        Setting::global(
                            &[
                                "SET GLOBAL long_query_time=1",
                                "SET GLOBAL slow_query_log=1",
                            ],
                            &[
                                "SET GLOBAL slow_query_log=0",
                                "SET GLOBAL long_query_time=10",
                            ],
                        ),
                    ),
                    Config::both("slow log, every query", slow_all.clone()),
                    Config::both("general log", general.clone()),
                    Config::each(
                        "audit log",
                        Some(Setting::global(
                            &["SET GLOBAL audit_log=ON"],
                            &["SET GLOBAL audit_log=OFF"],
                        )),
                        Some(maria_audit),
                    ),
                    Config::both("slow log, every query, to /dev/null", to_null(&slow_all)),
                    Config::both("general log to /dev/null", to_null(&general)),
                ]
                .into_iter()
                .map(starts)
                .collect(),
                workloads,
                data: Data {
                    sysbench: Some(scale.tables),
                    tpcc_warehouses: Some(scale.warehouses),
                    counters: false,
                },
                commits_per_fsync: false,
            }
        }
        "binlog-cost" => {
            let on_quire = Setting::default();
            let on_maria = Setting::start(&["--log-bin={dir}/binlog", "--server-id=1"]);
            let sync = |n: u32, s: &Setting| Setting {
                on: vec![format!("SET GLOBAL sync_binlog={n}")],
                off: vec!["SET GLOBAL sync_binlog=1".into()],
                ..s.clone()
            };
            Def {
                name: "binlog-cost",
                question: "What does the binary log cost, with and without an fsync per commit group?",
                seed: "001 (binary log off / on with sync_binlog=0 / on with sync_binlog=1, 32 connections)",
                configs: vec![
                    Config::each(
                        "binlog off",
                        Some(Setting::start(&["--skip-log-bin"])),
                        Some(Setting::default()),
                    ),
                    Config::each(
                        "binlog, sync_binlog=0",
                        Some(sync(0, &on_quire)),
                        Some(sync(0, &on_maria)),
                    ),
                    Config::each(
                        "binlog, sync_binlog=1",
                        Some(sync(1, &on_quire)),
                        Some(sync(1, &on_maria)),
                    ),
                ],
                workloads: vec![sb("oltp_read_write", 32), sb("oltp_write_only", 32)],
                data: Data {
                    sysbench: Some(scale.tables),
                    ..Data::default()
                },
                commits_per_fsync: true,
            }
        }
        "instrumentation-cost" => Def {
            name: "instrumentation-cost",
            question: "What does performance_schema cost?",
            seed: "001 (performance_schema off / on)",
            configs: vec![
                Config::both(
                    "performance_schema off",
                    Setting::start(&["--performance-schema=OFF"]),
                ),
                Config::both(
                    "performance_schema on",
                    Setting::start(&["--performance-schema=ON"]),
                ),
            ],
            workloads: vec![sb("oltp_point_select", 64), sb("oltp_read_write", 16)],
            data: Data {
                sysbench: Some(scale.tables),
                ..Data::default()
            },
            commits_per_fsync: false,
        },
        "insert-commit" => {
            let maria_bin = ["--log-bin={dir}/binlog", "--server-id=1"];
            Def {
                name: "insert-commit",
                question: "Where does a single-row INSERT spend its time, with the binary log off and on?",
                seed: "002 (SHOW PROFILE of INSERTs with sql_log_bin=0 and 1)",
                configs: vec![
                    Config::each(
                        "binlog off (sql_log_bin=0)",
                        Some(Setting::default().with_session(&["SET sql_log_bin=0"])),
                        Some(
                            Setting::default()
                                .with_start(&maria_bin)
                                .with_session(&["SET sql_log_bin=0"]),
                        ),
                    ),
                    Config::each(
                        "binlog on",
                        Some(Setting::default()),
                        Some(Setting::default().with_start(&maria_bin)),
                    ),
                ],
                workloads: vec![Workload::Inserts { n: scale.inserts }],
                data: Data::default(),
                commits_per_fsync: false,
            }
        }
        "flush-policy" => {
            // Every configuration names its flush method (MariaDB 10.11's default is
            // O_DIRECT, Quire's and the seed's fsync); the binary log is off on both, so the
            // policy under test is the only fsync.
            let method = |m: &str| Setting {
                start: vec![
                    "--skip-log-bin".into(),
                    format!("--innodb-flush-method={m}"),
                ],
                ..Setting::default()
            };
            let flush = |n: u32| Setting {
                on: vec![format!("SET GLOBAL innodb_flush_log_at_trx_commit={n}")],
                off: vec!["SET GLOBAL innodb_flush_log_at_trx_commit=1".into()],
                ..method("fsync")
            };
            let both = |label: &str, s: Setting| Config::both(label, s);
            Def {
                name: "flush-policy",
                question: "How long do serial single-row UPDATEs take under each flush policy and flush method?",
                seed: "003 (5,000 serial UPDATEs: innodb_flush_log_at_trx_commit, autocommit, innodb_flush_method)",
                configs: vec![
                    both("flush_log_at_trx_commit=1, fsync", method("fsync")),
                    both("flush_log_at_trx_commit=2", flush(2)),
                    both("flush_log_at_trx_commit=0", flush(0)),
                    both(
                        "autocommit=0, one COMMIT",
                        method("fsync").with_session(&["SET autocommit=0"]),
                    ),
                    both("flush method O_DSYNC", method("O_DSYNC")),
                    both("flush method O_DIRECT", method("O_DIRECT")),
                    // MariaDB 10.11 has no fdatasync method (MySQL 8.0.26's
                    // innodb_use_fdatasync is not in MariaDB either).
                    Config::each("flush method fdatasync", Some(method("fdatasync")), None),
                ],
                workloads: vec![Workload::Updates { n: scale.updates }],
                data: Data {
                    counters: true,
                    ..Data::default()
                },
                commits_per_fsync: false,
            }
        }
        "slow-log-select1" => Def {
            name: "slow-log-select1",
            question: "How much longer does `SELECT 1` take from 64 clients with the slow log logging every query?",
            seed: "004 (mariadb-slap -q 'select 1' --concurrency=64 with long_query_time=0)",
            configs: vec![
                Config::both(
                    "no log",
                    Setting::start(&["--slow-query-log-file={dir}/slow.log"]),
                ),
                Config::both(
                    "slow log, every query",
                    Setting::global(
                        &[
                            "SET GLOBAL long_query_time=0",
                            "SET GLOBAL slow_query_log=1",
                        ],
                        &[
                            "SET GLOBAL slow_query_log=0",
                            "SET GLOBAL long_query_time=10",
                        ],
                    )
                    .with_start(&["--slow-query-log-file={dir}/slow.log"]),
                ),
            ],
            workloads: vec![Workload::Slap {
                query: "select 1",
                concurrency: 64,
                queries: scale.slap_queries,
            }],
            data: Data::default(),
            commits_per_fsync: false,
        },
        _ => return None,
    })
}

/// One measured run.
#[derive(Clone, Debug)]
pub struct Sample {
    pub product: Product,
    pub config: String,
    pub workload: String,
    pub concurrency: u32,
    pub rep: usize,
    pub metric: &'static str,
    pub higher_is_better: bool,
    /// None: the run failed (`error` says why).
    pub value: Option<f64>,
    pub error: Option<String>,
    /// Secondary figures (p95 latency, commits per fsync, SHOW PROFILE stages as
    /// "stage: NAME").
    pub extra: Vec<(String, f64)>,
    /// Throughput per second over the run: (second, queries per second).
    pub series: Vec<(f64, f64)>,
}

/// What a server of the experiment was.
#[derive(Clone, Debug)]
pub struct ServerInfo {
    pub product: Product,
    pub version: String,
    pub command: String,
    pub configs: Vec<String>,
}

/// An experiment after it ran.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub def: Def,
    pub samples: Vec<Sample>,
    pub servers: Vec<ServerInfo>,
    pub notes: Vec<String>,
    pub seconds: f64,
}

/// Progress over the whole bench: one line per run with elapsed and remaining time.
pub struct Progress {
    pub total: usize,
    pub done: usize,
    pub started: Instant,
    /// Seconds spent in the runs so far (not in starting and loading servers, which the
    /// estimate of the time left does not extrapolate).
    pub run_secs: f64,
}

impl Progress {
    /// A run that took `took` seconds is done.
    fn line(&mut self, what: &str, result: &str, took: f64) {
        self.done += 1;
        self.run_secs += took;
        let elapsed = self.started.elapsed().as_secs_f64();
        let per = self.run_secs / self.done as f64;
        let left = per * (self.total.saturating_sub(self.done)) as f64;
        eprintln!(
            "[{:>3}/{} {} elapsed, ~{} left] {what}: {result}",
            self.done,
            self.total,
            clock(elapsed),
            clock(left)
        );
    }
}

/// 754.2 → "12:34"
pub fn clock(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Everything a run needs besides the definition.
pub struct Env<'a> {
    pub products: &'a [Product],
    pub maria: Option<&'a MariaDbTools>,
    pub scale: &'a Scale,
    /// Parent of the servers' directories.
    pub servers_dir: &'a Path,
    pub progress: &'a mut Progress,
}

fn fill(sql: &str, dir: &Path) -> String {
    sql.replace("{dir}", &dir.display().to_string())
}

/// Runs one experiment (see the module doc).
pub fn run(def: &Def, env: &mut Env) -> Result<Outcome, String> {
    let started = Instant::now();
    // Servers: one per product and distinct start options.
    let mut servers: BTreeMap<(Product, Vec<String>), Server> = BTreeMap::new();
    let mut infos: Vec<(Product, Vec<String>, ServerInfo)> = Vec::new();
    let mut notes = Vec::new();
    for &p in env.products {
        for c in &def.configs {
            let Some(s) = c.setting(p) else {
                notes.push(format!(
                    "{}: {} has no such setting (n/a).",
                    c.label,
                    p.name()
                ));
                continue;
            };
            let key = (p, s.start.clone());
            if let Some(info) = infos.iter_mut().find(|i| i.0 == p && i.1 == s.start) {
                info.2.configs.push(c.label.clone());
                continue;
            }
            let dir = unique_dir(env.servers_dir, def.name, p);
            let options: Vec<String> = s.start.iter().map(|o| fill(o, &dir)).collect();
            eprintln!("{}: starting {} {}", def.name, p.name(), options.join(" "));
            let server = Server::start(
                &Spec {
                    product: p,
                    options,
                },
                &dir,
                env.maria,
            )?;
            let load_started = Instant::now();
            load(&server, &def.data, env.scale)?;
            if !def.data.is_empty() {
                eprintln!(
                    "{}: {} loaded in {}",
                    def.name,
                    p.name(),
                    clock(load_started.elapsed().as_secs_f64())
                );
            }
            infos.push((
                p,
                s.start.clone(),
                ServerInfo {
                    product: p,
                    version: server.version.clone(),
                    command: server.command.clone(),
                    configs: vec![c.label.clone()],
                },
            ));
            servers.insert(key, server);
        }
    }
    let mut samples = Vec::new();
    for w in &def.workloads {
        let (metric, higher) = w.metric();
        for rep in 0..env.scale.reps {
            for c in &def.configs {
                for &p in env.products {
                    let Some(s) = c.setting(p) else { continue };
                    let Some(server) = servers.get_mut(&(p, s.start.clone())) else {
                        continue;
                    };
                    let what = format!(
                        "{} {} | {} | {} x{} | rep {}",
                        def.name,
                        p.name(),
                        c.label,
                        w.name(),
                        w.concurrency(),
                        rep + 1
                    );
                    let run_started = Instant::now();
                    let r = measure(server, s, w, def, env.scale);
                    let mut sample = Sample {
                        product: p,
                        config: c.label.clone(),
                        workload: w.name(),
                        concurrency: w.concurrency(),
                        rep,
                        metric,
                        higher_is_better: higher,
                        value: None,
                        error: None,
                        extra: Vec::new(),
                        series: Vec::new(),
                    };
                    let shown = match r {
                        Ok(m) => {
                            sample.value = Some(m.value);
                            sample.extra = m.extra;
                            sample.series = m.series;
                            format!("{} {metric}", fmt_num(m.value))
                        }
                        Err(e) => {
                            let e = if server.alive() {
                                e
                            } else {
                                format!("{e} (the server is gone)")
                            };
                            sample.error = Some(e.clone());
                            format!("FAILED: {e}")
                        }
                    };
                    env.progress
                        .line(&what, &shown, run_started.elapsed().as_secs_f64());
                    samples.push(sample);
                }
            }
        }
    }
    drop(servers);
    Ok(Outcome {
        def: def.clone(),
        samples,
        servers: infos.into_iter().map(|i| i.2).collect(),
        notes,
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn unique_dir(parent: &Path, exp: &str, p: Product) -> PathBuf {
    let mut n = 1;
    loop {
        let d = parent.join(format!("{exp}-{}-{n}", p.name().to_lowercase()));
        if !d.exists() {
            return d;
        }
        n += 1;
    }
}

/// A number for a progress line or table: 3 significant digits at least.
pub fn fmt_num(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// Loads an experiment's data into a fresh server.
fn load(server: &Server, data: &Data, scale: &Scale) -> Result<(), String> {
    if let Some(t) = data.sysbench {
        clients::sb_prepare(server, t)?;
    }
    if let Some(w) = data.tpcc_warehouses {
        super::tpcc::load(&tpcc_config(server, w, 0, scale))
            .map_err(|e| format!("TPC-C load on {}: {e}", server.product.name()))?;
    }
    if data.counters {
        let mut sqls = vec![
            "CREATE TABLE sbtest.counters (id INT PRIMARY KEY, col1 INT NOT NULL, col2 INT NOT NULL)"
                .to_string(),
        ];
        for chunk in (1..=100_000u32).collect::<Vec<_>>().chunks(5_000) {
            let values: Vec<String> = chunk.iter().map(|i| format!("({i},0,0)")).collect();
            sqls.push(format!(
                "INSERT INTO sbtest.counters VALUES {}",
                values.join(",")
            ));
        }
        clients::serial(server, &[], &sqls)?;
    }
    Ok(())
}

fn tpcc_config(server: &Server, warehouses: u32, conns: u32, scale: &Scale) -> super::tpcc::Config {
    super::tpcc::Config {
        port: server.port,
        user: "sb".into(),
        password: "sb".into(),
        warehouses,
        conns: conns.max(1),
        load_conns: 2,
        duration: Duration::from_secs(scale.secs as u64),
        warmup: scale.warmup,
        report_every: Duration::from_secs(1),
        prepared: true,
        seed: 1,
    }
}

struct Measured {
    value: f64,
    extra: Vec<(String, f64)>,
    series: Vec<(f64, f64)>,
}

/// One run: the configuration's global statements, the workload, the statements back.
fn measure(
    server: &Server,
    s: &Setting,
    w: &Workload,
    def: &Def,
    scale: &Scale,
) -> Result<Measured, String> {
    let on: Vec<String> = s.on.iter().map(|q| fill(q, server.dir())).collect();
    let off: Vec<String> = s.off.iter().map(|q| fill(q, server.dir())).collect();
    let on_refs: Vec<&str> = on.iter().map(String::as_str).collect();
    server.exec(&on_refs)?;
    let before = if def.commits_per_fsync {
        Some((
            server.status("Binlog_commits")?,
            server.status("Binlog_group_commits")?,
        ))
    } else {
        None
    };
    let r = workload(server, s, w, scale);
    let off_refs: Vec<&str> = off.iter().map(String::as_str).collect();
    let restored = server.exec(&off_refs);
    let mut m = r?;
    restored?;
    if let Some((c0, g0)) = before {
        let (c1, g1) = (
            server.status("Binlog_commits")?,
            server.status("Binlog_group_commits")?,
        );
        if g1 > g0 {
            m.extra
                .push(("commits per fsync".into(), (c1 - c0) / (g1 - g0)));
        }
    }
    Ok(m)
}

fn workload(server: &Server, s: &Setting, w: &Workload, scale: &Scale) -> Result<Measured, String> {
    match w {
        Workload::Sysbench { name, threads } => {
            let r = clients::sb_run(server, name, scale.tables, *threads, scale.secs)?;
            Ok(Measured {
                value: r.tps,
                extra: vec![("p95 ms".into(), r.p95_ms)],
                series: r.series.iter().map(|&(t, _, q)| (t, q)).collect(),
            })
        }
        Workload::Tpcc { conns } => {
            let cfg = tpcc_config(server, scale.warehouses, *conns, scale);
            let r = super::tpcc::run(&cfg).map_err(|e| format!("TPC-C: {e}"))?;
            if r.errors > 0 {
                return Err(format!("TPC-C: {} errors", r.errors));
            }
            Ok(Measured {
                value: r.notpm,
                extra: Vec::new(),
                series: r
                    .intervals
                    .iter()
                    .filter(|i| !i.warmup)
                    .map(|i| (i.elapsed.as_secs_f64(), i.tpm / 60.0))
                    .collect(),
            })
        }
        Workload::Updates { n } => {
            let sqls: Vec<String> = (0..*n)
                .map(|i| {
                    let id = 1 + (i * 7919) % 100_000;
                    if i % 2 == 0 {
                        format!("UPDATE sbtest.counters SET col1 = col1 + 1, col2 = col2 + 1 WHERE id = {id}")
                    } else {
                        format!("UPDATE sbtest.counters SET col1 = col1 - 1, col2 = col2 - 11 WHERE id = {id}")
                    }
                })
                .chain(std::iter::once("COMMIT".to_string()))
                .collect();
            let t = clients::serial(server, &s.session, &sqls)?;
            Ok(Measured {
                value: t.as_secs_f64(),
                extra: Vec::new(),
                series: Vec::new(),
            })
        }
        Workload::Inserts { n } => inserts(server, &s.session, *n),
        Workload::Slap {
            query,
            concurrency,
            queries,
        } => Ok(Measured {
            value: clients::slap(server, query, *concurrency, *queries)?,
            extra: Vec::new(),
            series: Vec::new(),
        }),
    }
}

/// `n` INSERTs under SET profiling=1, in batches of 100 (the profiling history's most):
/// the average µs per INSERT in total and per SHOW PROFILE stage.
fn inserts(server: &Server, session: &[String], n: usize) -> Result<Measured, String> {
    use mysql::prelude::Queryable;
    let mut c = server.conn()?;
    let e = |q: &str, err: mysql::Error| format!("{q}: {err}");
    for q in session {
        c.query_drop(q).map_err(|err| e(q, err))?;
    }
    for q in [
        "CREATE TABLE IF NOT EXISTS sbtest.inserts (id INT AUTO_INCREMENT PRIMARY KEY, quantity INT)",
        "SET profiling_history_size=100",
        "SET profiling=1",
    ] {
        c.query_drop(q).map_err(|err| e(q, err))?;
    }
    let mut stages: Vec<(String, f64)> = Vec::new();
    let mut total = 0.0;
    let mut done = 0usize;
    while done < n {
        let batch = (n - done).min(100);
        for _ in 0..batch {
            let q = "INSERT INTO sbtest.inserts (quantity) VALUES (FLOOR(1 + RAND() * 1000))";
            c.query_drop(q).map_err(|err| e(q, err))?;
        }
        let profiles: Vec<(u64, f64, String)> = c
            .query_map("SHOW PROFILES", |(id, d, q): (u64, f64, String)| (id, d, q))
            .map_err(|err| e("SHOW PROFILES", err))?;
        let ids: Vec<u64> = profiles
            .iter()
            .filter(|p| p.2.starts_with("INSERT INTO sbtest.inserts"))
            .map(|p| p.0)
            .collect();
        for id in ids.iter().rev().take(batch) {
            let q = format!("SHOW PROFILE FOR QUERY {id}");
            let rows: Vec<(String, f64)> = c.query(&q).map_err(|err| e(&q, err))?;
            for (stage, secs) in rows {
                total += secs;
                match stages.iter_mut().find(|s| s.0 == stage) {
                    Some(s) => s.1 += secs,
                    None => stages.push((stage, secs)),
                }
            }
        }
        done += batch;
    }
    let per = |s: f64| s * 1e6 / n as f64;
    Ok(Measured {
        value: per(total),
        extra: stages
            .into_iter()
            .map(|(name, s)| (format!("stage: {name}"), per(s)))
            .collect(),
        series: Vec::new(),
    })
}
