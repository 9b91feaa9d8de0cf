//! Charts of `quire bench`, each drawn twice with plotters, as PNG and SVG:
//!
//! - **ratios** (every experiment): one horizontal bar per product for each workload and
//!   configuration other than the baseline, its length the median divided by the
//!   baseline's, a line at 1. Readable without the report: the title names the experiment
//!   and the metric, each bar group its workload, concurrency and configuration.
//! - **time series** (binlog-cost): queries per second over each run's seconds, one line
//!   per product and configuration (the repetition whose figure is the median).
//!
//! Text is rendered with ab_glyph from a TrueType font found on the machine
//! (DejaVu Sans, Liberation Sans, FreeSans or any other `.ttf` under /usr/share/fonts;
//! Debian: fonts-dejavu-core), so no fontconfig library is needed.

use super::experiments::{Outcome, Sample};
use super::report::Row;
use super::server::Product;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

const FONT: &str = "sans-serif";

/// Registers a TrueType font for plotters' text, once.
fn font() -> Result<(), String> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        let preferred = [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
            "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
        ];
        let path = preferred
            .iter()
            .map(std::path::PathBuf::from)
            .find(|p| p.is_file())
            .or_else(|| any_ttf(Path::new("/usr/share/fonts"), 4))
            .ok_or(
                "no TrueType font found under /usr/share/fonts (apt-get install fonts-dejavu-core)",
            )?;
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        plotters::style::register_font(FONT, FontStyle::Normal, bytes)
            .map_err(|_| format!("{}: not a usable TrueType font", path.display()))
    })
    .clone()
}

fn any_ttf(dir: &Path, depth: u32) -> Option<std::path::PathBuf> {
    let mut entries: Vec<_> = std::fs::read_dir(dir).ok()?.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in &entries {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "ttf") {
            return Some(p);
        }
    }
    if depth == 0 {
        return None;
    }
    entries
        .iter()
        .filter(|e| e.path().is_dir())
        .find_map(|e| any_ttf(&e.path(), depth - 1))
}

fn color(p: Product) -> RGBColor {
    match p {
        Product::Quire => RGBColor(0x1f, 0x77, 0xb4),
        Product::MariaDb => RGBColor(0xd6, 0x6a, 0x1a),
    }
}

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing: {e:?}")
}

/// Draws both formats of one chart: `dir/name.png` and `dir/name.svg`; their file names.
/// (The drawers' types stay spelled out: a type alias would tie the backends' lifetimes to
/// the caller's instead of leaving them to each call.)
#[allow(clippy::type_complexity)]
fn both(
    dir: &Path,
    name: &str,
    size: (u32, u32),
    draw: &dyn Fn(&DrawingArea<BitMapBackend, Shift>) -> Result<(), String>,
    draw_svg: &dyn Fn(&DrawingArea<SVGBackend, Shift>) -> Result<(), String>,
) -> Result<Vec<String>, String> {
    font()?;
    let png = format!("{name}.png");
    let svg = format!("{name}.svg");
    let (png_path, svg_path) = (dir.join(&png), dir.join(&svg));
    {
        let root = BitMapBackend::new(&png_path, size).into_drawing_area();
        draw(&root)?;
        root.present().map_err(err)?;
    }
    {
        let root = SVGBackend::new(&svg_path, size).into_drawing_area();
        draw_svg(&root)?;
        root.present().map_err(err)?;
    }
    Ok(vec![png, svg])
}

/// A bar of the ratio chart.
struct Bar {
    label: String,
    product: Product,
    ratio: f64,
}

fn bars(rows: &[Row]) -> (Vec<String>, Vec<(usize, Bar)>) {
    let mut labels = Vec::new();
    let mut out = Vec::new();
    for r in rows.iter().filter(|r| !r.is_baseline) {
        let label = format!("{} x{}: {}", r.workload, r.concurrency, r.config);
        let i = labels.len();
        labels.push(label.clone());
        for (p, _, ratio) in &r.cells {
            if let Some(ratio) = ratio {
                out.push((
                    i,
                    Bar {
                        label: label.clone(),
                        product: *p,
                        ratio: *ratio,
                    },
                ));
            }
        }
    }
    (labels, out)
}

fn draw_ratios<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    labels: &[String],
    bars: &[(usize, Bar)],
    products: &[Product],
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let n = labels.len().max(1);
    let xmax = bars
        .iter()
        .map(|b| b.1.ratio)
        .fold(1.0f64, f64::max)
        .max(1.2)
        * 1.1;
    let label_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(10) as u32 * 7 + 20;
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(label_width.min(520))
        .build_cartesian_2d(0f64..xmax, -0.5f64..(n as f64 - 0.5))
        .map_err(err)?;
    let names: Vec<String> = labels.to_vec();
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(TRANSPARENT)
        .y_labels(n + 1)
        .y_label_formatter(&|y| {
            let i = y.round();
            if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                // Row 0 at the top.
                names[names.len() - 1 - i as usize].clone()
            } else {
                String::new()
            }
        })
        .x_desc("ratio to the baseline configuration (median of the runs)")
        .label_style((FONT, 13))
        .draw()
        .map_err(err)?;
    let k = products.len().max(1) as f64;
    let band = 0.8 / k;
    for (pi, &p) in products.iter().enumerate() {
        let c = color(p);
        let mine: Vec<&(usize, Bar)> = bars.iter().filter(|b| b.1.product == p).collect();
        chart
            .draw_series(mine.iter().map(|(i, b)| {
                let y = (n - 1 - i) as f64;
                let top = y + 0.4 - band * pi as f64;
                let _ = &b.label;
                Rectangle::new([(0.0, top - band * 0.9), (b.ratio, top)], c.filled())
            }))
            .map_err(err)?
            .label(p.name())
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
    }
    chart
        .draw_series(LineSeries::new(
            vec![(1.0, -0.5), (1.0, n as f64 - 0.5)],
            BLACK.stroke_width(1),
        ))
        .map_err(err)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}

/// The ratio chart of an experiment; its files.
pub fn ratios(
    dir: &Path,
    o: &Outcome,
    rows: &[Row],
    products: &[Product],
) -> Result<Vec<String>, String> {
    let (labels, bars) = bars(rows);
    // One metric, or "throughput" when the workloads measure in different units.
    let mut metric = rows.first().map(|r| r.metric).unwrap_or("");
    if rows.iter().any(|r| r.metric != metric) {
        metric = "throughput";
    }
    let title = format!(
        "{}: {} relative to {} ({})",
        o.def.name,
        metric,
        o.def.configs[0].label,
        if rows.first().is_some_and(|r| r.higher_is_better) {
            "more is better"
        } else {
            "less is better"
        }
    );
    let height = 110 + 26 * labels.len().max(1) as u32 * products.len().max(1) as u32;
    both(
        dir,
        &format!("{}-ratios", o.def.name),
        (1100, height.max(260)),
        &|root| draw_ratios(root, &title, &labels, &bars, products),
        &|root| draw_ratios(root, &title, &labels, &bars, products),
    )
}

/// The run of a group whose figure is the median (the lower middle one).
fn median_run<'a>(runs: &[&'a Sample]) -> Option<&'a Sample> {
    let mut v: Vec<&Sample> = runs.iter().copied().filter(|s| s.value.is_some()).collect();
    v.sort_by(|a, b| a.value.unwrap_or(0.0).total_cmp(&b.value.unwrap_or(0.0)));
    v.get(v.len().saturating_sub(1) / 2).copied()
}

type Line = (String, RGBColor, Vec<(f64, f64)>);

fn draw_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    lines: &[Line],
) -> Result<(), String> {
    root.fill(&WHITE).map_err(err)?;
    let xmax = lines
        .iter()
        .flat_map(|l| l.2.iter().map(|p| p.0))
        .fold(1.0f64, f64::max);
    let ymax = lines
        .iter()
        .flat_map(|l| l.2.iter().map(|p| p.1))
        .fold(1.0f64, f64::max)
        * 1.15;
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FONT, 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)
        .map_err(err)?;
    chart
        .configure_mesh()
        // The fine mesh lines would make the PNG several times larger.
        .light_line_style(TRANSPARENT)
        .x_desc("seconds into the run")
        .y_desc("queries per second")
        .y_label_formatter(&|y| format!("{y:.0}"))
        .label_style((FONT, 13))
        .draw()
        .map_err(err)?;
    for (label, c, pts) in lines {
        let c = *c;
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), c.stroke_width(2)))
            .map_err(err)?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .label_font((FONT, 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)?;
    Ok(())
}

/// Time-series charts, one per workload with per-second figures; their files.
pub fn series(dir: &Path, o: &Outcome, products: &[Product]) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    let shades = [
        [
            RGBColor(0x1f, 0x77, 0xb4),
            RGBColor(0x17, 0xbe, 0xcf),
            RGBColor(0x2c, 0xa0, 0x2c),
        ],
        [
            RGBColor(0xd6, 0x6a, 0x1a),
            RGBColor(0xd6, 0x27, 0x28),
            RGBColor(0x94, 0x67, 0xbd),
        ],
    ];
    for w in &o.def.workloads {
        let (wname, conc) = (w.name(), w.concurrency());
        let mut lines: Vec<Line> = Vec::new();
        for (pi, &p) in products.iter().enumerate() {
            for (ci, c) in o.def.configs.iter().enumerate() {
                let runs: Vec<&Sample> = o
                    .samples
                    .iter()
                    .filter(|s| {
                        s.product == p
                            && s.config == c.label
                            && s.workload == wname
                            && s.concurrency == conc
                    })
                    .collect();
                if let Some(s) = median_run(&runs).filter(|s| !s.series.is_empty()) {
                    let shade = shades[pi.min(1)][ci % 3];
                    lines.push((
                        format!("{}: {}", p.name(), c.label),
                        shade,
                        s.series.clone(),
                    ));
                }
            }
        }
        if lines.is_empty() {
            continue;
        }
        let title = format!(
            "{}: {wname} x{conc}, queries per second over time",
            o.def.name
        );
        let name = format!("{}-{}-series", o.def.name, wname.replace([' ', '\''], "_"));
        files.extend(both(
            dir,
            &name,
            (1100, 560),
            &|root| draw_series(root, &title, &lines),
            &|root| draw_series(root, &title, &lines),
        )?);
    }
    Ok(files)
}
