//! Statement digests: `performance_schema.events_statements_summary_by_digest`.
//!
//! Every statement ends by adding its figures (time, lock time, rows, errors, …) to the row
//! of its *digest*: its default schema and its `DIGEST_TEXT` (MySQL 8.0's normalised text,
//! `sql::digest`, computed by the normaliser that also keys the plan cache — once per
//! statement). This is the statement record (`StmtRecord`) seen once more, like the logs.
//!
//! # Cost per statement
//!
//! The figures of a digest are kept per CPU: each row has one slot per CPU (up to 16; more
//! CPUs share them) on its own cache line, behind a spin lock, and a statement adds to the
//! slot of the CPU it runs on — so 64
//! sessions running the same statement on two cores never move a line between the cores
//! (one shared counter per digest would cost 100–250 ns a statement on this machine, as the
//! logs' shared buffer did). Reading the table sums the slots.
//!
//! A session finds a digest's row in its own small cache, keyed by a hash of the schema and
//! the text; only a miss takes the registry's lock. The session holds the row through a
//! handle of its own ([`DigestRef`]), so passing it from statement to history counts
//! references on a line no other session writes, and a statement the session repeats
//! counts none ([`Current`]). `TRUNCATE TABLE` starts a new
//! generation of rows: a cached row of an older generation is looked up again.
//!
//! # Rows, bounds and differences from MySQL
//!
//! - `DIGEST` is the SHA-256 of `DIGEST_TEXT` in 64 hex digits (MySQL 8 hashes its token
//!   array; the value differs from MySQL's, the shape and the grouping are the same).
//! - At most `performance_schema_digests_size` rows; statements of further digests go to
//!   one row with `SCHEMA_NAME`, `DIGEST` and `DIGEST_TEXT` NULL and are counted in
//!   `Performance_schema_digest_lost`, as in MySQL.
//! - Times are in picoseconds, measured with the statement record's clock (nanoseconds).
//!   `QUANTILE_95/99/999` come from MySQL's histogram: 450 buckets, bucket 0 below 10 µs,
//!   each next one 10^(1/50) wider; a quantile is the upper bound of the bucket where the
//!   count reaches it (a high estimate, as in MySQL).
//! - `QUERY_SAMPLE_TEXT` is the statement (its first `performance_schema_max_sql_text_length`
//!   bytes) that took longest, replaced when it is older than
//!   `performance_schema_max_digest_sample_age` seconds; kept per CPU and the longest one
//!   shown.
//! - `SUM_NO_INDEX_USED` counts statements that read a table without an index;
//!   `SUM_SELECT_*`, `SUM_SORT_*` and `SUM_CREATED_TMP_TABLES` are the statement's
//!   `Select_*`, `Sort_*` and `Created_tmp_tables` status figures (see `observe::status`).
//!   Counters of mechanisms Quire does not have read 0: temporary tables on disk, sort
//!   merge passes, range checks, secondary engines (`COUNT_SECONDARY`). Not measured yet,
//!   also 0: `SUM_NO_GOOD_INDEX_USED`, `SUM_CPU_TIME`, `MAX_CONTROLLED_MEMORY`,
//!   `MAX_TOTAL_MEMORY`.

use super::percpu;
use crate::config::{GlobalVars, vars};
use crate::sql::types::{BlobSize, Collation, SqlType};
use crate::sql::value::{Row, Value};
use crate::storage::schema::{ColumnDef, TableDef};
use crossbeam_utils::CachePadded;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Buckets of a digest's latency histogram (MySQL's `NUMBER_OF_BUCKETS`).
pub const BUCKETS: usize = 450;

/// The upper bound of histogram bucket `i`, in picoseconds: 10 µs × 10^(i/50).
pub fn bucket_high(i: usize) -> u64 {
    bounds()[i.min(BUCKETS - 1)]
}

fn bounds() -> &'static [u64; BUCKETS] {
    static BOUNDS: std::sync::OnceLock<[u64; BUCKETS]> = std::sync::OnceLock::new();
    BOUNDS.get_or_init(|| std::array::from_fn(|i| 10f64.powf(7.0 + i as f64 / 50.0) as u64))
}

/// The bucket a statement of `ps` picoseconds falls in: the first whose upper bound is
/// above it (the last holds everything longer).
pub fn bucket_of(ps: u64) -> usize {
    bounds()
        .partition_point(|&high| high <= ps)
        .min(BUCKETS - 1)
}

/// What one statement adds to its digest's row.
#[derive(Clone, Copy, Debug, Default)]
pub struct Observed {
    /// When it ended, Unix microseconds (LAST_SEEN, the sample's time).
    pub end_us: i64,
    pub timer_ps: u64,
    pub lock_ps: u64,
    pub error: bool,
    pub warnings: u64,
    pub rows_affected: u64,
    pub rows_sent: u64,
    pub rows_examined: u64,
    pub no_index_used: bool,
    pub plan: super::status::PlanStats,
    pub sort_rows: u64,
}

#[derive(Clone, Default)]
struct Sample {
    text: Vec<u8>,
    seen_us: i64,
    timer_ps: u64,
}

/// One CPU's share of a digest's figures.
#[derive(Clone, Default)]
struct Stats {
    count: u64,
    sum_ps: u64,
    min_ps: u64,
    max_ps: u64,
    lock_ps: u64,
    errors: u64,
    warnings: u64,
    rows_affected: u64,
    rows_sent: u64,
    rows_examined: u64,
    no_index_used: u64,
    /// Sums of [`PlanStats::counts`](super::status::PlanStats::counts).
    plan: [u64; 7],
    sort_rows: u64,
    first_seen_us: i64,
    last_seen_us: i64,
    /// Allocated at the slot's first statement.
    hist: Option<Box<[u64; BUCKETS]>>,
    sample: Option<Sample>,
}

impl Stats {
    fn merge(&mut self, o: &Stats) {
        if o.count == 0 {
            return;
        }
        if self.count == 0 {
            self.min_ps = o.min_ps;
            self.first_seen_us = o.first_seen_us;
        }
        self.count += o.count;
        self.sum_ps = self.sum_ps.wrapping_add(o.sum_ps);
        self.min_ps = self.min_ps.min(o.min_ps);
        self.max_ps = self.max_ps.max(o.max_ps);
        self.lock_ps = self.lock_ps.wrapping_add(o.lock_ps);
        self.errors += o.errors;
        self.warnings += o.warnings;
        self.rows_affected += o.rows_affected;
        self.rows_sent += o.rows_sent;
        self.rows_examined += o.rows_examined;
        self.no_index_used += o.no_index_used;
        for (m, x) in self.plan.iter_mut().zip(o.plan) {
            *m += x;
        }
        self.sort_rows += o.sort_rows;
        self.first_seen_us = self.first_seen_us.min(o.first_seen_us);
        self.last_seen_us = self.last_seen_us.max(o.last_seen_us);
        if let Some(h) = &o.hist {
            let mine = self.hist.get_or_insert_with(|| Box::new([0; BUCKETS]));
            for (m, x) in mine.iter_mut().zip(h.iter()) {
                *m += x;
            }
        }
        if let Some(s) = &o.sample
            && self
                .sample
                .as_ref()
                .is_none_or(|m| (s.timer_ps, s.seen_us) > (m.timer_ps, m.seen_us))
        {
            self.sample = Some(s.clone());
        }
    }

    /// The upper bound of the bucket where the count reaches `q` of all.
    fn quantile(&self, q: f64) -> u64 {
        let Some(h) = &self.hist else { return 0 };
        let want = (self.count as f64 * q).ceil() as u64;
        let mut seen = 0;
        for (i, n) in h.iter().enumerate() {
            seen += n;
            if seen >= want.max(1) {
                return bucket_high(i);
            }
        }
        bucket_high(BUCKETS - 1)
    }
}

type Slot = spin::mutex::SpinMutex<Stats, spin::relax::Yield>;

/// Slots per digest at most: beyond this many CPUs, CPUs share slots (a slot is a lock,
/// so that is correct, only less spread). 10,000 digests × 16 slots is 20 MB of slots
/// before histograms (3.6 KB per slot used).
const MAX_SLOTS: usize = 16;

/// One row of the table: a digest and its figures, one slot per CPU.
pub struct DigestEntry {
    /// None: no default schema (or the overflow row).
    schema: Option<Box<str>>,
    /// None: the overflow row.
    text: Option<Box<str>>,
    hex: Option<Box<str>>,
    generation: u64,
    slots: Box<[CachePadded<Slot>]>,
}

impl DigestEntry {
    fn new(schema: Option<&str>, text: Option<&str>, generation: u64) -> DigestEntry {
        DigestEntry {
            schema: schema.map(Box::from),
            hex: text.map(|t| Box::from(crate::sql::digest::sha256_hex(t.as_bytes()))),
            text: text.map(Box::from),
            generation,
            slots: (0..percpu::slots().min(MAX_SLOTS))
                .map(|_| CachePadded::new(Slot::new(Stats::default())))
                .collect(),
        }
    }

    /// DIGEST (None for the overflow row).
    pub fn hex(&self) -> Option<&str> {
        self.hex.as_deref()
    }

    /// DIGEST_TEXT (None for the overflow row).
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// The row of statements whose digest found no room.
    pub fn is_overflow(&self) -> bool {
        self.text.is_none()
    }

    /// Adds one statement. `sample` gives its text; asked for only when the statement
    /// becomes the row's sample (`max_age_us` 0: samples do not age).
    pub fn record(
        &self,
        o: &Observed,
        max_age_us: i64,
        max_text: usize,
        sample: impl FnOnce() -> Vec<u8>,
    ) {
        let slot = &self.slots[percpu::this_cpu(self.slots.len())];
        let mut s = slot.lock();
        if s.count == 0 {
            s.min_ps = o.timer_ps;
            s.first_seen_us = o.end_us;
        }
        s.count += 1;
        s.sum_ps = s.sum_ps.wrapping_add(o.timer_ps);
        s.min_ps = s.min_ps.min(o.timer_ps);
        s.max_ps = s.max_ps.max(o.timer_ps);
        s.lock_ps = s.lock_ps.wrapping_add(o.lock_ps);
        s.errors += u64::from(o.error);
        s.warnings += o.warnings;
        s.rows_affected += o.rows_affected;
        s.rows_sent += o.rows_sent;
        s.rows_examined += o.rows_examined;
        s.no_index_used += u64::from(o.no_index_used);
        if o.plan != super::status::PlanStats::default() {
            for (m, x) in s.plan.iter_mut().zip(o.plan.counts()) {
                *m += u64::from(x);
            }
        }
        s.sort_rows += o.sort_rows;
        s.last_seen_us = s.last_seen_us.max(o.end_us);
        s.hist.get_or_insert_with(|| Box::new([0; BUCKETS]))[bucket_of(o.timer_ps)] += 1;
        let replace = match &s.sample {
            None => true,
            Some(m) => {
                o.timer_ps > m.timer_ps || (max_age_us > 0 && o.end_us - m.seen_us > max_age_us)
            }
        };
        if replace {
            let mut text = sample();
            text.truncate(floor_char_boundary(&text, max_text));
            s.sample = Some(Sample {
                text,
                seen_us: o.end_us,
                timer_ps: o.timer_ps,
            });
        }
    }

    fn total(&self) -> Stats {
        let mut all = Stats::default();
        for slot in self.slots.iter() {
            all.merge(&slot.lock());
        }
        all
    }
}

/// The longest prefix of `b` of at most `max` bytes that does not cut a UTF-8 character.
pub fn floor_char_boundary(b: &[u8], max: usize) -> usize {
    if b.len() <= max {
        return b.len();
    }
    let mut n = max;
    while n > 0 && (b[n] & 0xC0) == 0x80 {
        n -= 1;
    }
    n
}

/// The rows, the overflow row, the bound.
pub struct Digests {
    /// What is collected (`setup_consumers`, `setup_instruments`).
    pub setup: super::setup::Setup,
    generation: AtomicU64,
    rows: Mutex<Rows>,
    /// `performance_schema_digests_size`.
    capacity: usize,
    /// Statements counted in the overflow row (`Performance_schema_digest_lost`).
    pub lost: percpu::Counter,
    pub max_sample_age_us: AtomicU64,
    pub max_text: AtomicU64,
    /// `performance_schema_events_statements_history_size`.
    pub history_size: AtomicU64,
    /// When the server started, Unix ns (the statement tables' timers count from it).
    pub started_ns: i64,
}

/// A row's key: the default schema and the digest text.
type Key = (Option<Box<str>>, Box<str>);

struct Rows {
    by_key: HashMap<Key, Arc<DigestEntry>>,
    overflow: Arc<DigestEntry>,
}

impl Digests {
    /// As the start-up settings say (`performance_schema`, its sizes).
    pub fn new(globals: &GlobalVars) -> Digests {
        let size = globals.get_i64(vars::PERFORMANCE_SCHEMA_DIGESTS_SIZE);
        // -1: sized automatically (MySQL's default comes out at 10,000).
        let capacity = if size < 0 { 10_000 } else { size as usize };
        let d = Digests::with_capacity(globals.get_bool(vars::PERFORMANCE_SCHEMA), capacity);
        d.configure(globals);
        d
    }

    /// Copies the dynamic settings (after `SET GLOBAL`).
    pub fn configure(&self, globals: &GlobalVars) {
        let age = globals.get_u64(vars::PERFORMANCE_SCHEMA_MAX_DIGEST_SAMPLE_AGE);
        self.max_sample_age_us
            .store(age.saturating_mul(1_000_000), Ordering::Relaxed);
        self.max_text.store(
            globals.get_u64(vars::PERFORMANCE_SCHEMA_MAX_SQL_TEXT_LENGTH),
            Ordering::Relaxed,
        );
        // -1: sized automatically (10, MySQL's usual outcome).
        let history = globals.get_i64(vars::PERFORMANCE_SCHEMA_EVENTS_STATEMENTS_HISTORY_SIZE);
        self.history_size.store(
            if history < 0 { 10 } else { history as u64 },
            Ordering::Relaxed,
        );
    }

    pub fn with_capacity(on: bool, capacity: usize) -> Digests {
        Digests {
            setup: super::setup::Setup::new(on),
            generation: AtomicU64::new(0),
            rows: Mutex::new(Rows {
                by_key: HashMap::new(),
                overflow: Arc::new(DigestEntry::new(None, None, 0)),
            }),
            capacity,
            lost: percpu::Counter::default(),
            max_sample_age_us: AtomicU64::new(60_000_000),
            max_text: AtomicU64::new(1024),
            history_size: AtomicU64::new(10),
            started_ns: super::now_ns(),
        }
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Relaxed)
    }

    /// The row of (`schema`, `text`), made if there is room, else the overflow row.
    pub fn entry(&self, schema: Option<&str>, text: &str) -> Arc<DigestEntry> {
        let mut rows = self.rows.lock();
        let key = (schema.map(Box::from), Box::from(text));
        if let Some(e) = rows.by_key.get(&key) {
            return e.clone();
        }
        if rows.by_key.len() >= self.capacity {
            return rows.overflow.clone();
        }
        let e = Arc::new(DigestEntry::new(schema, Some(text), self.generation()));
        rows.by_key.insert(key, e.clone());
        e
    }

    /// Whether `e` is still the row of its statements under `schema` (digests on, no
    /// TRUNCATE since, the same default schema).
    pub fn fresh(&self, e: &DigestEntry, schema: Option<&str>) -> bool {
        self.setup.digests_on()
            && e.generation == self.generation()
            && e.schema.as_deref() == schema
    }

    /// None while `e` is a row of the current generation; otherwise its row in the current
    /// generation, as a TRUNCATE came since it was looked up (a statement is counted when
    /// it ends, so a TRUNCATE counts itself).
    pub fn replacement(&self, e: &DigestEntry) -> Option<Arc<DigestEntry>> {
        if e.generation == self.generation() {
            return None;
        }
        Some(match &e.text {
            Some(text) => self.entry(e.schema.as_deref(), text),
            None => self.rows.lock().overflow.clone(),
        })
    }

    /// `TRUNCATE TABLE performance_schema.events_statements_summary_by_digest`.
    pub fn truncate(&self) {
        let mut rows = self.rows.lock();
        let generation = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
        rows.by_key.clear();
        rows.overflow = Arc::new(DigestEntry::new(None, None, generation));
    }

    /// The table's rows (TIMESTAMPs in the time zone `tz_offset_s`).
    pub fn table_rows(&self, tz_offset_s: i32) -> Vec<Row> {
        let (entries, overflow) = {
            let rows = self.rows.lock();
            let v: Vec<Arc<DigestEntry>> = rows.by_key.values().cloned().collect();
            (v, rows.overflow.clone())
        };
        let mut out = Vec::with_capacity(entries.len() + 1);
        for e in entries.iter().chain(std::iter::once(&overflow)) {
            let s = e.total();
            if s.count == 0 {
                continue;
            }
            out.push(row(e, &s, tz_offset_s));
        }
        out
    }
}

fn row(e: &DigestEntry, s: &Stats, tz_offset_s: i32) -> Row {
    let text = |t: &Option<Box<str>>| match t {
        Some(t) => Value::bytes(t.as_bytes()),
        None => Value::Null,
    };
    let time = |us: i64| {
        crate::sql::temporal::datetime_from_unix_micros(us, tz_offset_s)
            .map_or(Value::Null, Value::DateTime)
    };
    let u = Value::UInt;
    let sample = s.sample.clone().unwrap_or_default();
    let avg = s.sum_ps / s.count.max(1);
    let no_index = s.no_index_used;
    // Select scan, range, full join, full range join, sort scan, sort range, tmp tables.
    let p = s.plan;
    Arc::from(vec![
        text(&e.schema),
        text(&e.hex),
        text(&e.text),
        u(s.count),
        u(s.sum_ps),
        u(s.min_ps),
        u(avg),
        u(s.max_ps),
        u(s.lock_ps),
        u(s.errors),
        u(s.warnings),
        u(s.rows_affected),
        u(s.rows_sent),
        u(s.rows_examined),
        u(0), // SUM_CREATED_TMP_DISK_TABLES (in memory, always)
        u(p[6]),
        u(p[2]),
        u(p[3]),
        u(p[1]),
        u(0), // SUM_SELECT_RANGE_CHECK (no such plans)
        u(p[0]),
        u(0), // SUM_SORT_MERGE_PASSES (sorts are in memory)
        u(p[5]),
        u(s.sort_rows),
        u(p[4]),
        u(no_index),
        u(0), // SUM_NO_GOOD_INDEX_USED
        u(0), // SUM_CPU_TIME
        u(0), // MAX_CONTROLLED_MEMORY
        u(0), // MAX_TOTAL_MEMORY
        u(0), // COUNT_SECONDARY
        time(s.first_seen_us),
        time(s.last_seen_us),
        u(s.quantile(0.95)),
        u(s.quantile(0.99)),
        u(s.quantile(0.999)),
        Value::bytes(&sample.text),
        time(sample.seen_us),
        u(sample.timer_ps),
    ])
}

/// The table's definition (MySQL 8.0.3x's columns, in its order).
pub fn summary_def() -> TableDef {
    let utf8 = Collation::Utf8mb4GeneralCi;
    let col = |name: &str, ty: SqlType, nullable: bool| ColumnDef::plain(name, ty, nullable);
    let varchar = |name: &str| {
        col(
            name,
            SqlType::VarChar {
                len: 64,
                collation: utf8,
            },
            true,
        )
    };
    let longtext = |name: &str| {
        col(
            name,
            SqlType::Text {
                size: BlobSize::Long,
                collation: utf8,
            },
            true,
        )
    };
    let big = |name: &str| col(name, SqlType::BIGINT_UNSIGNED, false);
    let stamp = |name: &str| col(name, SqlType::Timestamp { fsp: 6 }, false);
    let mut columns = vec![
        varchar("SCHEMA_NAME"),
        varchar("DIGEST"),
        longtext("DIGEST_TEXT"),
    ];
    for name in [
        "COUNT_STAR",
        "SUM_TIMER_WAIT",
        "MIN_TIMER_WAIT",
        "AVG_TIMER_WAIT",
        "MAX_TIMER_WAIT",
        "SUM_LOCK_TIME",
        "SUM_ERRORS",
        "SUM_WARNINGS",
        "SUM_ROWS_AFFECTED",
        "SUM_ROWS_SENT",
        "SUM_ROWS_EXAMINED",
        "SUM_CREATED_TMP_DISK_TABLES",
        "SUM_CREATED_TMP_TABLES",
        "SUM_SELECT_FULL_JOIN",
        "SUM_SELECT_FULL_RANGE_JOIN",
        "SUM_SELECT_RANGE",
        "SUM_SELECT_RANGE_CHECK",
        "SUM_SELECT_SCAN",
        "SUM_SORT_MERGE_PASSES",
        "SUM_SORT_RANGE",
        "SUM_SORT_ROWS",
        "SUM_SORT_SCAN",
        "SUM_NO_INDEX_USED",
        "SUM_NO_GOOD_INDEX_USED",
        "SUM_CPU_TIME",
        "MAX_CONTROLLED_MEMORY",
        "MAX_TOTAL_MEMORY",
        "COUNT_SECONDARY",
    ] {
        columns.push(big(name));
    }
    columns.push(stamp("FIRST_SEEN"));
    columns.push(stamp("LAST_SEEN"));
    for name in ["QUANTILE_95", "QUANTILE_99", "QUANTILE_999"] {
        columns.push(big(name));
    }
    columns.push(longtext("QUERY_SAMPLE_TEXT"));
    columns.push(stamp("QUERY_SAMPLE_SEEN"));
    columns.push(big("QUERY_SAMPLE_TIMER_WAIT"));
    super::history::ps_table(SUMMARY_BY_DIGEST, columns)
}

pub const SUMMARY_BY_DIGEST: &str = "events_statements_summary_by_digest";

/// Is `db.name` the digest summary table? (Names compare as MySQL's: case-insensitive
/// for these schemas.)
pub fn is_summary(db: &str, name: &str) -> bool {
    db.eq_ignore_ascii_case("performance_schema") && name.eq_ignore_ascii_case(SUMMARY_BY_DIGEST)
}

/// A session's handle on a digest row. Every session running a statement shares its row,
/// so the row's own reference count is a cache line all cores write: cloning and dropping
/// it per statement (statement → prepared statement → history) moved that line, which also
/// holds the fields each statement reads, between the cores. The handle is an `Arc` of the
/// session's own around the row's: the session cache, its prepared statements and its
/// history count on it, and the shared count changes only when a session first meets a
/// digest or lets it go.
pub type DigestRef = Arc<Arc<DigestEntry>>;

/// The digest row of a session's current statement. The handle of its last statement stays
/// here after it ends, and a history slot that already holds the row keeps its own: a
/// session that runs one statement over and over (as sysbench's sessions do) changes no
/// reference count at all, where taking a handle per statement and dropping the slot's old
/// one cost two locked instructions a statement.
#[derive(Default)]
pub struct Current {
    kept: Option<DigestRef>,
    /// Whether `kept` is the current statement's row (false: it has none, or not yet).
    set: bool,
}

impl Current {
    /// A new statement: no row yet.
    pub fn clear(&mut self) {
        self.set = false;
    }

    /// The statement adds to `e`'s row (None: to no row).
    pub fn set(&mut self, e: Option<&DigestRef>) {
        self.set = e.is_some();
        if let Some(e) = e
            && !self.kept.as_ref().is_some_and(|k| Arc::ptr_eq(k, e))
        {
            self.kept = Some(e.clone());
        }
    }

    /// The current statement's row.
    pub fn get(&self) -> Option<&DigestRef> {
        if self.set { self.kept.as_ref() } else { None }
    }

    /// Hands the statement's row to its history slot, whose old handle it replaces (a slot
    /// already holding the row keeps its handle); the statement has no row after this.
    pub fn store_into(&mut self, slot: &mut Option<DigestRef>) {
        let held = matches!((slot.as_ref(), self.get()), (Some(s), Some(m)) if Arc::ptr_eq(s, m));
        if !held {
            *slot = if self.set { self.kept.take() } else { None };
        }
        self.set = false;
    }
}

/// A session's own map from (schema, digest text) to its row, so that a statement takes no
/// shared lock to find it.
#[derive(Default)]
pub struct SessionCache {
    map: HashMap<u64, DigestRef>,
    /// The overflow row's handle (not in `map`, see [`SessionCache::get`]).
    overflow: Option<DigestRef>,
}

/// How many digests a session keeps at most before it starts its map over.
const SESSION_CACHE_MAX: usize = 512;

impl SessionCache {
    /// The row for a statement of `text` under `schema`; None when digests are off.
    pub fn get(
        &mut self,
        digests: &Digests,
        schema: Option<&str>,
        text: &str,
    ) -> Option<&DigestRef> {
        if !digests.setup.digests_on() {
            return None;
        }
        let h = {
            static SEED: std::sync::OnceLock<ahash::RandomState> = std::sync::OnceLock::new();
            SEED.get_or_init(ahash::RandomState::new)
                .hash_one((schema, text))
        };
        let generation = digests.generation();
        let fresh = |e: &DigestRef| {
            e.generation == generation
                && e.text.as_deref() == Some(text)
                && e.schema.as_deref() == schema
        };
        if self.map.len() >= SESSION_CACHE_MAX && !self.map.contains_key(&h) {
            self.map.clear();
        }
        match self.map.entry(h) {
            Entry::Occupied(o) if fresh(o.get()) => Some(o.into_mut()),
            stale_or_new => {
                let e = Arc::new(digests.entry(schema, text));
                if e.text.is_none() {
                    // The overflow row: not cached by its key (a truncate makes room).
                    return Some(self.overflow.insert(e));
                }
                Some(stale_or_new.insert_entry(e).into_mut())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_mysqls() {
        // From MySQL's manual (events_statements_histogram_by_digest): bucket 42 is
        // [66069344, 69183097) ps.
        assert_eq!(bucket_high(41), 66_069_344);
        assert_eq!(bucket_high(42), 69_183_097);
        assert_eq!(bucket_of(66_069_344), 42);
        assert_eq!(bucket_of(69_183_096), 42);
        assert_eq!(bucket_of(69_183_097), 43);
        assert_eq!(bucket_of(0), 0);
        assert_eq!(bucket_of(9_999_999), 0);
        assert_eq!(bucket_of(10_000_000), 1);
        assert_eq!(bucket_of(u64::MAX), BUCKETS - 1);
    }

    #[test]
    fn the_current_row_moves_to_history_without_taking_a_handle_per_statement() {
        let d = Digests::with_capacity(true, 10);
        let mut cache = SessionCache::default();
        let a = cache.get(&d, None, "SELECT ?").unwrap().clone();
        let b = cache.get(&d, None, "DO ?").unwrap().clone();
        let mut cur = Current::default();
        let mut slots: [Option<DigestRef>; 2] = [None, None];
        // Statement 1 (a) goes to slot 0, 2 (a) to slot 1, then 3 (a) to slot 0 again.
        for i in 0..3 {
            cur.clear();
            assert!(cur.get().is_none());
            cur.set(Some(&a));
            assert!(Arc::ptr_eq(cur.get().unwrap(), &a));
            cur.store_into(&mut slots[i % 2]);
            assert!(cur.get().is_none(), "stored: the statement is done");
            assert!(Arc::ptr_eq(slots[i % 2].as_ref().unwrap(), &a));
        }
        // The cache's, the test's, the two slots' and the session's: statement 3 found its
        // row in slot 0 already, so the session kept its handle.
        assert_eq!(Arc::strong_count(&a), 5);
        // The same row again, to a slot holding it: no handle taken or dropped.
        cur.set(Some(&a));
        cur.store_into(&mut slots[1]);
        assert_eq!(Arc::strong_count(&a), 5);
        // Another row replaces the slot's; a statement without a row empties its slot.
        cur.set(Some(&b));
        cur.store_into(&mut slots[0]);
        assert!(Arc::ptr_eq(slots[0].as_ref().unwrap(), &b));
        cur.set(None);
        assert!(cur.get().is_none());
        cur.store_into(&mut slots[1]);
        assert!(slots[1].is_none());
        assert_eq!(Arc::strong_count(&a), 2, "the cache's and the test's");
    }

    #[test]
    fn figures_from_many_threads_add_up_and_overflow_is_one_row() {
        let d = Digests::with_capacity(true, 2);
        let obs = |ps| Observed {
            end_us: 1_000,
            timer_ps: ps,
            rows_sent: 1,
            rows_examined: 2,
            ..Observed::default()
        };
        std::thread::scope(|s| {
            for t in 0..4 {
                let d = &d;
                s.spawn(move || {
                    let mut cache = SessionCache::default();
                    for i in 0..1000u64 {
                        let e = cache.get(d, Some("db"), "SELECT ?").unwrap();
                        e.record(&obs(20_000_000 + i), 0, 1024, || b"SELECT 1".to_vec());
                        let e = cache.get(d, None, &format!("SELECT {t}")).unwrap();
                        if e.is_overflow() {
                            d.lost.add(1);
                        }
                        e.record(&obs(1), 0, 1024, || b"x".to_vec());
                    }
                });
            }
        });
        let rows = d.table_rows(0);
        // "SELECT ?", one of the four others, and the overflow row with the other three.
        assert_eq!(rows.len(), 3);
        let by_text = |t: Option<&str>| {
            rows.iter()
                .find(|r| match (&r[2], t) {
                    (Value::Null, None) => true,
                    (Value::Bytes(b), Some(t)) => b.as_ref() == t.as_bytes(),
                    _ => false,
                })
                .unwrap()
                .clone()
        };
        let main = by_text(Some("SELECT ?"));
        assert!(matches!(main[3], Value::UInt(4000)));
        assert!(matches!(main[12], Value::UInt(4000)));
        assert!(matches!(main[13], Value::UInt(8000)));
        assert!(matches!(main[5], Value::UInt(20_000_000)));
        assert!(matches!(main[7], Value::UInt(20_000_999)));
        let overflow = by_text(None);
        assert!(matches!(overflow[3], Value::UInt(3000)));
        assert!(matches!(overflow[0], Value::Null));
        assert_eq!(d.lost.get(), 3000);
        d.truncate();
        assert!(d.table_rows(0).is_empty());
    }
}
