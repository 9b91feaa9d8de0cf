//! `report.md` and `report.json`: every experiment's table (Quire and MariaDB side by side,
//! each configuration's median, spread and ratio to the baseline), the machine, the
//! versions, the servers' command lines and the exact bench command; the JSON holds every
//! run's raw figures.

use super::experiments::{Outcome, Sample, fmt_num};
use super::server::Product;
use serde_json::{Value, json};
use std::fmt::Write as _;

/// Median, min and max of a product's runs of one configuration and workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stat {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub n: usize,
}

pub fn stat(values: &[f64]) -> Option<Stat> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Some(Stat {
        median,
        min: v[0],
        max: v[n - 1],
        n,
    })
}

/// One row of an experiment's table: a workload at a concurrency, one configuration.
#[derive(Clone, Debug)]
pub struct Row {
    pub workload: String,
    pub concurrency: u32,
    pub config: String,
    pub metric: &'static str,
    pub higher_is_better: bool,
    /// Per product: the runs' statistics and the ratio of the median to the baseline's.
    pub cells: Vec<(Product, Option<Stat>, Option<f64>)>,
    /// Per product: secondary figures' medians.
    pub extra: Vec<(Product, Vec<(String, f64)>)>,
    pub is_baseline: bool,
}

fn values<'a>(samples: impl Iterator<Item = &'a Sample>) -> Vec<f64> {
    samples.filter_map(|s| s.value).collect()
}

/// The runs of one product, workload, concurrency and configuration.
fn runs_of<'a>(
    o: &'a Outcome,
    p: Product,
    workload: &'a str,
    conc: u32,
    config: &'a str,
) -> impl Iterator<Item = &'a Sample> + 'a {
    o.samples.iter().filter(move |s| {
        s.product == p && s.workload == workload && s.concurrency == conc && s.config == config
    })
}

/// The table rows of an outcome, in the order workloads and configurations were defined.
pub fn rows(o: &Outcome, products: &[Product]) -> Vec<Row> {
    let mut out = Vec::new();
    for w in &o.def.workloads {
        let (metric, higher) = w.metric();
        let (wname, conc) = (w.name(), w.concurrency());
        let baseline = &o.def.configs[0].label;
        for (i, c) in o.def.configs.iter().enumerate() {
            let mut cells = Vec::new();
            let mut extra = Vec::new();
            for &p in products {
                let st = stat(&values(runs_of(o, p, &wname, conc, &c.label)));
                let base = stat(&values(runs_of(o, p, &wname, conc, baseline)));
                let ratio = match (st, base) {
                    (Some(s), Some(b)) if b.median != 0.0 => Some(s.median / b.median),
                    _ => None,
                };
                cells.push((p, st, ratio));
                let mut names: Vec<String> = Vec::new();
                for s in runs_of(o, p, &wname, conc, &c.label) {
                    for (n, _) in &s.extra {
                        if !names.contains(n) {
                            names.push(n.clone());
                        }
                    }
                }
                let medians = names
                    .into_iter()
                    .filter_map(|n| {
                        let vs: Vec<f64> = runs_of(o, p, &wname, conc, &c.label)
                            .flat_map(|s| s.extra.iter().filter(|e| e.0 == n).map(|e| e.1))
                            .collect();
                        stat(&vs).map(|st| (n, st.median))
                    })
                    .collect();
                extra.push((p, medians));
            }
            out.push(Row {
                workload: w.name(),
                concurrency: w.concurrency(),
                config: c.label.clone(),
                metric,
                higher_is_better: higher,
                cells,
                extra,
                is_baseline: i == 0,
            });
        }
    }
    out
}

/// Facts about the run for the report's head.
pub struct Context {
    pub command: String,
    pub date: String,
    pub machine: String,
    pub quire_version: String,
    pub mariadb_version: Option<String>,
    pub quick: bool,
    pub reps: usize,
    pub secs: u32,
    pub seconds: f64,
    pub charts: Vec<(String, Vec<String>)>,
    pub chart_error: Option<String>,
}

fn cell(st: Option<Stat>) -> String {
    match st {
        Some(s) if s.n > 1 => format!(
            "{} ({}–{})",
            fmt_num(s.median),
            fmt_num(s.min),
            fmt_num(s.max)
        ),
        Some(s) => fmt_num(s.median),
        None => "n/a".into(),
    }
}

fn ratio(r: Option<f64>, baseline: bool) -> String {
    match r {
        _ if baseline => "1".into(),
        Some(r) => format!("{r:.3}"),
        None => "–".into(),
    }
}

/// The machine: CPU model and count, memory, kernel.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']).to_string())
        .unwrap_or_else(|| "unknown CPU".into());
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mem_kb: u64 = std::fs::read_to_string("/proc/meminfo")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!(
        "{cpus} × {model}, {:.1} GiB, Linux {}",
        mem_kb as f64 / 1024.0 / 1024.0,
        kernel.trim()
    )
}

/// report.md.
pub fn markdown(ctx: &Context, outcomes: &[Outcome], products: &[Product]) -> String {
    let mut m = String::new();
    let _ = writeln!(m, "# quire bench: the seed experiments, side by side\n");
    let _ = writeln!(m, "- Date: {}", ctx.date);
    let _ = writeln!(m, "- Machine: {}", ctx.machine);
    let _ = writeln!(m, "- Quire: {}", ctx.quire_version);
    match &ctx.mariadb_version {
        Some(v) => {
            let _ = writeln!(m, "- MariaDB: {v}");
        }
        None => {
            let _ = writeln!(
                m,
                "- MariaDB: not run (no mariadbd found; `--mariadb PATH`)"
            );
        }
    }
    let _ = writeln!(m, "- Command: `{}`", ctx.command);
    let _ = writeln!(
        m,
        "- {}; {} repetitions, alternating (every configuration and product once, then again); timed runs {} s; total {}",
        if ctx.quick { "quick mode" } else { "full mode" },
        ctx.reps,
        ctx.secs,
        super::experiments::clock(ctx.seconds)
    );
    let _ = writeln!(
        m,
        "\nEach cell is the median of the runs and (min–max); \"ratio\" is the median divided by the \
         baseline configuration's (the first row of each workload) on the same server. For throughput \
         (tps, NOTPM) more is better; for times (seconds, µs) less is.\n"
    );
    if let Some(e) = &ctx.chart_error {
        let _ = writeln!(m, "**Charts not drawn:** {e}\n");
    }
    for o in outcomes {
        let _ = writeln!(m, "## {}\n", o.def.name);
        let _ = writeln!(m, "{}\n", o.def.question);
        let _ = writeln!(m, "Seed {}.\n", o.def.seed);
        let rows = rows(o, products);
        // Extra columns other than SHOW PROFILE stages.
        let mut extra_names: Vec<String> = Vec::new();
        for r in &rows {
            for (_, ex) in &r.extra {
                for (n, _) in ex {
                    if !n.starts_with("stage: ") && !extra_names.contains(n) {
                        extra_names.push(n.clone());
                    }
                }
            }
        }
        let mut head = "| workload | conc. | configuration | metric |".to_string();
        let mut rule = "|---|---|---|---|".to_string();
        for p in products {
            let _ = write!(head, " {} | ratio |", p.name());
            rule.push_str("---|---|");
            for n in &extra_names {
                let _ = write!(head, " {} {n} |", p.name());
                rule.push_str("---|");
            }
        }
        let _ = writeln!(m, "{head}\n{rule}");
        for r in &rows {
            let _ = write!(
                m,
                "| {} | {} | {} | {} |",
                r.workload, r.concurrency, r.config, r.metric
            );
            for (p, st, rt) in &r.cells {
                let _ = write!(
                    m,
                    " {} | {} |",
                    cell(*st),
                    ratio(*rt, r.is_baseline && st.is_some())
                );
                let ex = r.extra.iter().find(|e| e.0 == *p).map(|e| &e.1);
                for n in &extra_names {
                    let v = ex
                        .and_then(|ex| ex.iter().find(|e| &e.0 == n))
                        .map(|e| fmt_num(e.1));
                    let _ = write!(m, " {} |", v.unwrap_or_else(|| "–".into()));
                }
            }
            m.push('\n');
        }
        stage_table(&mut m, &rows, products);
        if o.def.name == "logging-cost" {
            seed_shape(&mut m, &rows, products);
        }
        let failed: Vec<&Sample> = o.samples.iter().filter(|s| s.error.is_some()).collect();
        if !failed.is_empty() {
            let _ = writeln!(m, "\nFailed runs ({}):\n", failed.len());
            for s in failed.iter().take(10) {
                let _ = writeln!(
                    m,
                    "- {} {} {} x{} rep {}: {}",
                    s.product.name(),
                    s.config,
                    s.workload,
                    s.concurrency,
                    s.rep + 1,
                    s.error.as_deref().unwrap_or("")
                );
            }
        }
        if let Some((_, files)) = ctx.charts.iter().find(|c| c.0 == o.def.name) {
            m.push('\n');
            for f in files.iter().filter(|f| f.ends_with(".png")) {
                let _ = writeln!(m, "![{}]({f})", o.def.name);
            }
            let svgs: Vec<String> = files
                .iter()
                .filter(|f| f.ends_with(".svg"))
                .map(|f| format!("[{f}]({f})"))
                .collect();
            let _ = writeln!(m, "\nSVG: {}", svgs.join(", "));
        }
        let _ = writeln!(m, "\nServers ({}):\n", super::experiments::clock(o.seconds));
        for s in &o.servers {
            let _ = writeln!(
                m,
                "- {} {} for {}: `{}`",
                s.product.name(),
                s.version,
                s.configs.join("; "),
                s.command
            );
        }
        for n in &o.notes {
            let _ = writeln!(m, "- {n}");
        }
        let _ = writeln!(m, "\nPer configuration (what each run set):\n");
        for c in &o.def.configs {
            for &p in products {
                if let Some(s) = c.setting(p) {
                    let mut parts = Vec::new();
                    if !s.start.is_empty() {
                        parts.push(format!("start `{}`", s.start.join(" ")));
                    }
                    if !s.on.is_empty() {
                        parts.push(format!("before `{}`", s.on.join("; ")));
                    }
                    if !s.off.is_empty() {
                        parts.push(format!("after `{}`", s.off.join("; ")));
                    }
                    if !s.session.is_empty() {
                        parts.push(format!("session `{}`", s.session.join("; ")));
                    }
                    if parts.is_empty() {
                        parts.push("the server's defaults".into());
                    }
                    let _ = writeln!(m, "- {} / {}: {}", c.label, p.name(), parts.join(", "));
                }
            }
        }
        m.push('\n');
    }
    m
}

/// logging-cost in the seed's shape: per product and workload, connections down,
/// configurations across, each cell the median and its ratio to no log.
fn seed_shape(m: &mut String, rows: &[Row], products: &[Product]) {
    let mut workloads: Vec<(&str, &str)> = Vec::new();
    let mut configs: Vec<&str> = Vec::new();
    let mut concs: Vec<u32> = Vec::new();
    for r in rows {
        if !workloads.iter().any(|w| w.0 == r.workload) {
            workloads.push((&r.workload, r.metric));
        }
        if !configs.contains(&r.config.as_str()) {
            configs.push(&r.config);
        }
        if !concs.contains(&r.concurrency) {
            concs.push(r.concurrency);
        }
    }
    for &p in products {
        for (w, metric) in &workloads {
            let _ = writeln!(
                m,
                "\n{} {w}, {metric} in the seed's shape: median (ratio to {}):\n",
                p.name(),
                configs.first().copied().unwrap_or("")
            );
            let _ = writeln!(m, "| connections | {} |", configs.join(" | "));
            let _ = writeln!(m, "|---|{}", "---|".repeat(configs.len()));
            for &c in &concs {
                let _ = write!(m, "| {c} |");
                for cfg in &configs {
                    let cell = rows
                        .iter()
                        .find(|r| r.workload == *w && r.concurrency == c && r.config == *cfg)
                        .and_then(|r| r.cells.iter().find(|x| x.0 == p))
                        .and_then(|&(_, st, rt)| Some((st?, rt)));
                    let text = match cell {
                        Some((st, _)) if *cfg == configs[0] => fmt_num(st.median),
                        Some((st, Some(rt))) => format!("{} ({rt:.3})", fmt_num(st.median)),
                        Some((st, None)) => fmt_num(st.median),
                        None => "n/a".into(),
                    };
                    let _ = write!(m, " {text} |");
                }
                m.push('\n');
            }
        }
    }
}

/// insert-commit: the SHOW PROFILE stages, µs per INSERT, one column per product and
/// configuration.
fn stage_table(m: &mut String, rows: &[Row], products: &[Product]) {
    let mut stages: Vec<String> = Vec::new();
    for r in rows {
        for (_, ex) in &r.extra {
            for (n, _) in ex {
                if let Some(s) = n.strip_prefix("stage: ")
                    && !stages.iter().any(|x| x == s)
                {
                    stages.push(s.to_string());
                }
            }
        }
    }
    if stages.is_empty() {
        return;
    }
    let _ = writeln!(m, "\nSHOW PROFILE stages, µs per statement (medians):\n");
    let mut head = "| stage |".to_string();
    let mut rule = "|---|".to_string();
    let mut cols = Vec::new();
    for &p in products {
        for r in rows {
            let _ = write!(head, " {} {} |", p.name(), r.config);
            rule.push_str("---|");
            cols.push((p, r));
        }
    }
    let _ = writeln!(m, "{head}\n{rule}");
    for s in &stages {
        let _ = write!(m, "| {s} |");
        for (p, r) in &cols {
            let v = r
                .extra
                .iter()
                .find(|e| e.0 == *p)
                .and_then(|e| e.1.iter().find(|x| x.0 == format!("stage: {s}")))
                .map(|x| format!("{:.1}", x.1));
            let _ = write!(m, " {} |", v.unwrap_or_else(|| "–".into()));
        }
        m.push('\n');
    }
}

/// report.json: the context, every run, and the table rows.
pub fn json(ctx: &Context, outcomes: &[Outcome], products: &[Product]) -> Value {
    let experiments: Vec<Value> = outcomes
        .iter()
        .map(|o| {
            let runs: Vec<Value> = o
                .samples
                .iter()
                .map(|s| {
                    json!({
                        "product": s.product.name(),
                        "configuration": s.config,
                        "workload": s.workload,
                        "concurrency": s.concurrency,
                        "repetition": s.rep + 1,
                        "metric": s.metric,
                        "higher_is_better": s.higher_is_better,
                        "value": s.value,
                        "error": s.error,
                        "extra": s.extra.iter().map(|(n, v)| json!({"name": n, "value": v})).collect::<Vec<_>>(),
                        "series": s.series.iter().map(|(t, q)| json!([t, q])).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let summary: Vec<Value> = rows(o, products)
                .iter()
                .flat_map(|r| {
                    r.cells.iter().map(move |(p, st, rt)| {
                        json!({
                            "product": p.name(),
                            "workload": r.workload,
                            "concurrency": r.concurrency,
                            "configuration": r.config,
                            "metric": r.metric,
                            "median": st.map(|s| s.median),
                            "min": st.map(|s| s.min),
                            "max": st.map(|s| s.max),
                            "runs": st.map(|s| s.n).unwrap_or(0),
                            "ratio_to_baseline": rt,
                        })
                    })
                })
                .collect();
            json!({
                "name": o.def.name,
                "question": o.def.question,
                "seed": o.def.seed,
                "seconds": o.seconds,
                "configurations": o.def.configs.iter().map(|c| c.label.clone()).collect::<Vec<_>>(),
                "servers": o.servers.iter().map(|s| json!({
                    "product": s.product.name(), "version": s.version,
                    "command": s.command, "configurations": s.configs,
                })).collect::<Vec<_>>(),
                "notes": o.notes,
                "summary": summary,
                "runs": runs,
            })
        })
        .collect();
    json!({
        "command": ctx.command,
        "date": ctx.date,
        "machine": ctx.machine,
        "quire_version": ctx.quire_version,
        "mariadb_version": ctx.mariadb_version,
        "quick": ctx.quick,
        "repetitions": ctx.reps,
        "run_seconds": ctx.secs,
        "total_seconds": ctx.seconds,
        "charts": ctx.charts.iter().map(|(e, f)| json!({"experiment": e, "files": f})).collect::<Vec<_>>(),
        "chart_error": ctx.chart_error,
        "experiments": experiments,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_and_spread() {
        assert_eq!(stat(&[]), None);
        let s = stat(&[3.0, 1.0, 2.0]).expect("three");
        assert_eq!((s.median, s.min, s.max, s.n), (2.0, 1.0, 3.0, 3));
        let s = stat(&[4.0, 1.0, 2.0, 3.0]).expect("four");
        assert_eq!(s.median, 2.5);
    }
}
