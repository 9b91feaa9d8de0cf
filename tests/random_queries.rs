//! Random query generator (issue 6): random SELECTs over a fixed schema, run on Quire and
//! on a private MariaDB 10.11, compared as the differential corpus compares them (results
//! as multisets unless a total ORDER BY, errors by number, warnings by (level, code); see
//! `tests/common/compare.rs`).
//!
//! The schema and its rows are fixed (their own seed); the queries come from
//! `QUIRE_RQG_SEED` (default [`DEFAULT_SEED`], so CI is reproducible). The run lasts
//! `QUIRE_RQG_SECONDS` (default 60) or `QUIRE_RQG_QUERIES` queries, whichever ends first.
//! A failure names the seed, the query number, the SQL and both outcomes; rerun one query
//! with the same seed and `QUIRE_RQG_QUERIES=<number>`. `QUIRE_RQG_DUMP=<file>` writes the
//! schema and rows as SQL, to load into a server by hand.
//!
//! What the generator makes: single-table queries and 2–4-way joins (INNER, LEFT, RIGHT,
//! comma + WHERE, self-joins, nested `(b JOIN c ON …)` groups); predicates (comparisons, BETWEEN, IN lists, IS [NOT] NULL,
//! AND/OR/NOT, LIKE); arithmetic, COALESCE/IFNULL/CASE/ABS; COUNT(*), COUNT(x),
//! COUNT(DISTINCT x), SUM, MIN, MAX, AVG with GROUP BY on 0–2 keys and HAVING; DISTINCT;
//! ORDER BY … LIMIT only with a total order; uncorrelated and correlated IN / NOT IN /
//! EXISTS / scalar subqueries, also in a grouped query's select list and HAVING
//! (correlated with a GROUP BY key).
//!
//! What it does not make, on purpose (the allow-list; each would differ for a reason that
//! is not a Quire bug):
//!
//! | construct avoided | why |
//! |---|---|
//! | FLOAT/DOUBLE columns and values | the text of a rounded float differs between MySQL 8.0 and MariaDB |
//! | a string column in GROUP BY, DISTINCT, MIN/MAX, or an ORDER BY key, bare (it is wrapped in `UPPER()` there) | the collations are case-insensitive, so which of 'abc'/'ABC' represents a group is unspecified |
//! | columns in a grouped query's SELECT/HAVING other than its keys and aggregates | ONLY_FULL_GROUP_BY: MySQL accepts functionally dependent columns that MariaDB rejects (1055) |
//! | LIMIT without ORDER BY over every output column or a unique key | which rows come first is unspecified |
//! | comparisons of strings with numbers | conversion warnings and rules differ (see `tests/differential/README.md`) |
//! | trailing spaces, punctuation, non-ASCII letters in the data | MySQL's utf8mb4_0900_ai_ci (NO PAD) and MariaDB's utf8mb4_general_ci (PAD SPACE) order and compare them differently |
//! | the same GROUP BY expression twice (`GROUP BY UPPER(b), UPPER(b)`) | MariaDB 10.11 rejects it with 1055, MySQL 8.0 accepts it |
//! | AVG of an expression rather than a column | MariaDB 10.11 sizes the result from the expression's digits and clamps it: `AVG(ABS(23))` is 9.9999 (MySQL: 23.0000) |
//! | a GROUP BY key that is a DECIMAL expression able to be NULL (it is wrapped in `COALESCE(…, 0.5)`) | MariaDB 10.11 was seen to merge the NULL group of `x.c * -2` into another group (seed 0x5eed0006, query 1778: one group of 20 rows keyed -1998.48 where MySQL's rules give a NULL group of 19 and a group of 1) |
//! | an INT column compared with a DECIMAL value, bare (it is written `(x + 0)` there) | MariaDB 10.11 looks an indexed INT column up with the DECIMAL rounded: `100.98 = t1_id` finds the row with 101 (seed 0x5eed0006, query 4164; MySQL 8.0 compares as DECIMAL and finds none) |
//! | `<=>` between bare numeric columns (both sides are written `(x + 0)`) | MariaDB 10.11 merges `x1.a = x2.w AND x2.w <=> x1.a` into one NULL-safe index lookup and joins NULL with NULL (seed 2, query 6131: 47 rows where `x1.a = x2.w` alone gives 26) |
//! | a NULL-able DECIMAL column as a GROUP BY key of a query with a subquery correlated with a key (it is wrapped in `COALESCE(…, 0.5)`) | MariaDB 10.11 splits the NULL group in two there (seed 3, query 4389: `GROUP BY x2.c, x1.id HAVING MAX(x1.c) <> (SELECT … WHERE x3.k < x1.id)` gives two rows NULL, 27) |
//! | a subquery correlated with a GROUP BY column whose name another key also has | MariaDB 10.11 refuses it with 1463 "Non-grouping field 'id' is used in HAVING clause" (`GROUP BY x1.id, x2.id HAVING … (SELECT … WHERE x3.k = x1.id)`, seed 3, query 9545); MySQL 8.0 accepts it |
//! | HAVING without GROUP BY when WHERE has an IN subquery | MariaDB 10.11 skips HAVING when the semi-join finds no rows: `SELECT MAX(x1.e), COUNT(x1.e) FROM t2 x1 WHERE 16 IN (SELECT x2.d FROM t2 x2 WHERE x2.e LIKE '_') HAVING MAX(x1.id) > 6` gives a row NULL, 0 (seed 0x5eed0006, query 39617; MySQL 8.0 and Quire: no row) |
//! | scalar subqueries without an aggregate | a second row makes error 1242 depend on the plan's row order |

mod common;

use common::compare::*;
use common::*;
use mysql::prelude::*;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// The query seed when `QUIRE_RQG_SEED` is not set.
const DEFAULT_SEED: u64 = 0x5eed_0006;
/// The data seed: the rows never change, whatever the query seed.
const DATA_SEED: u64 = 0xda7a_0006;
/// Differences reported before the run stops.
const MAX_FAILURES: usize = 5;

/// xorshift64*: small, fast, and the same sequence everywhere.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// 0..n
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
    /// true with probability pct/100.
    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------------------
// The schema
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Int,
    Dec,
    Str,
}

struct Table {
    name: &'static str,
    /// The primary key (an INT).
    key: &'static str,
    columns: &'static [(&'static str, Ty)],
}

const TABLES: &[Table] = &[
    Table {
        name: "t1",
        key: "id",
        columns: &[
            ("id", Ty::Int),
            ("a", Ty::Int),
            ("b", Ty::Str),
            ("c", Ty::Dec),
        ],
    },
    Table {
        name: "t2",
        key: "id",
        columns: &[
            ("id", Ty::Int),
            ("t1_id", Ty::Int),
            ("d", Ty::Int),
            ("e", Ty::Str),
        ],
    },
    Table {
        name: "t3",
        key: "k",
        columns: &[("k", Ty::Int), ("name", Ty::Str), ("w", Ty::Int)],
    },
];

const DDL: &[&str] = &[
    "CREATE TABLE t1 (id INT PRIMARY KEY, a INT NULL, b VARCHAR(20) NULL, \
     c DECIMAL(8,2) NULL, KEY (a))",
    "CREATE TABLE t2 (id INT PRIMARY KEY, t1_id INT NULL, d INT NULL, e VARCHAR(20) NULL, \
     KEY (t1_id))",
    "CREATE TABLE t3 (k INT PRIMARY KEY, name VARCHAR(20) NOT NULL, w INT NULL)",
];

/// Strings in the data: empty, case variants, duplicates; letters and inner spaces only.
const WORDS: &[&str] = &[
    "", "a", "A", "abc", "ABC", "Abc", "b", "B", "xyz", "foo", "Foo", "bar", "foo bar", "zz",
];

fn int_or_null(rng: &mut Rng, null_pct: u64, lo: i64, hi: i64) -> String {
    if rng.chance(null_pct) {
        "NULL".into()
    } else {
        rng.range(lo, hi).to_string()
    }
}

fn word_or_null(rng: &mut Rng, null_pct: u64) -> String {
    if rng.chance(null_pct) {
        "NULL".into()
    } else {
        format!("'{}'", rng.pick(WORDS))
    }
}

/// The INSERT statements filling the schema, the same for every query seed.
fn data() -> Vec<String> {
    let mut rng = Rng::new(DATA_SEED);
    let mut t1 = Vec::new();
    for id in 1..=120 {
        let c = if rng.chance(15) {
            "NULL".to_string()
        } else {
            let cents = rng.range(-99_999, 99_999);
            format!(
                "{}{}.{:02}",
                if cents < 0 { "-" } else { "" },
                cents.abs() / 100,
                cents.abs() % 100
            )
        };
        t1.push(format!(
            "({id}, {}, {}, {c})",
            int_or_null(&mut rng, 15, -10, 30),
            word_or_null(&mut rng, 15)
        ));
    }
    let mut t2 = Vec::new();
    for id in 1..=150 {
        t2.push(format!(
            "({id}, {}, {}, {})",
            // Some point past t1's last id: dangling references for outer joins.
            int_or_null(&mut rng, 10, 1, 130),
            int_or_null(&mut rng, 15, -5, 15),
            word_or_null(&mut rng, 15)
        ));
    }
    let mut t3 = Vec::new();
    for k in 0..12 {
        t3.push(format!(
            "({k}, '{}', {})",
            rng.pick(WORDS),
            int_or_null(&mut rng, 20, -3, 10)
        ));
    }
    vec![
        format!("INSERT INTO t1 VALUES {}", t1.join(", ")),
        format!("INSERT INTO t2 VALUES {}", t2.join(", ")),
        format!("INSERT INTO t3 VALUES {}", t3.join(", ")),
    ]
}

// ---------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------

/// A table in scope: its alias and definition.
#[derive(Clone, Copy)]
struct Source {
    alias: usize,
    table: &'static Table,
}

impl Source {
    fn name(&self) -> String {
        format!("x{}", self.alias)
    }
}

struct Gen {
    rng: Rng,
    /// Next alias number (unique within one query, so subqueries never shadow).
    aliases: usize,
}

impl Gen {
    fn source(&mut self) -> Source {
        let table = self.rng.pick(TABLES);
        self.aliases += 1;
        Source {
            alias: self.aliases,
            table,
        }
    }

    /// A column of one of `scope`'s tables with type `ty`, if any has one.
    fn column(&mut self, scope: &[Source], ty: Ty) -> Option<String> {
        let mut cols = Vec::new();
        for s in scope {
            for (c, t) in s.table.columns {
                if *t == ty {
                    cols.push(format!("{}.{c}", s.name()));
                }
            }
        }
        (!cols.is_empty()).then(|| self.rng.pick(&cols).clone())
    }

    fn int_literal(&mut self) -> String {
        self.rng.range(-5, 30).to_string()
    }

    fn literal(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Int => self.int_literal(),
            Ty::Dec => format!("{}.{:02}", self.rng.range(-300, 300), self.rng.range(0, 99)),
            Ty::Str => format!("'{}'", self.rng.pick(WORDS)),
        }
    }

    /// A scalar expression of type `ty` over `scope`; `depth` bounds nesting.
    fn expr(&mut self, scope: &[Source], ty: Ty, depth: u32) -> String {
        let leaf = depth == 0 || self.rng.chance(45);
        if leaf {
            if !self.rng.chance(15)
                && let Some(c) = self.column(scope, ty)
            {
                return c;
            }
            return self.literal(ty);
        }
        let d = depth - 1;
        match (ty, self.rng.below(8)) {
            (Ty::Str, 0..=2) => format!(
                "COALESCE({}, {})",
                self.expr(scope, Ty::Str, d),
                self.literal(Ty::Str)
            ),
            (Ty::Str, 3) => format!("UPPER({})", self.expr(scope, Ty::Str, d)),
            (Ty::Str, 4) => format!("LOWER({})", self.expr(scope, Ty::Str, d)),
            (Ty::Str, _) => format!(
                "CASE WHEN {} THEN {} ELSE {} END",
                self.pred(scope, d),
                self.expr(scope, Ty::Str, d),
                self.expr(scope, Ty::Str, d)
            ),
            (_, 0) => format!(
                "({} + {})",
                self.expr(scope, ty, d),
                self.expr(scope, Ty::Int, d)
            ),
            (_, 1) => format!(
                "({} - {})",
                self.expr(scope, ty, d),
                self.expr(scope, ty, d)
            ),
            (_, 2) => format!("({} * {})", self.expr(scope, ty, d), self.rng.range(-3, 4)),
            (_, 3) => format!(
                "COALESCE({}, {})",
                self.expr(scope, ty, d),
                self.literal(ty)
            ),
            (_, 4) => format!(
                "IFNULL({}, {})",
                self.expr(scope, ty, d),
                self.expr(scope, ty, d)
            ),
            (_, 5) => format!("ABS({})", self.expr(scope, ty, d)),
            (Ty::Int, 6) if self.rng.chance(30) => {
                format!("LENGTH({})", self.expr(scope, Ty::Str, d))
            }
            _ => format!(
                "CASE WHEN {} THEN {} ELSE {} END",
                self.pred(scope, d),
                self.expr(scope, ty, d),
                self.expr(scope, ty, d)
            ),
        }
    }

    fn numeric_ty(&mut self) -> Ty {
        if self.rng.chance(70) {
            Ty::Int
        } else {
            Ty::Dec
        }
    }

    fn any_ty(&mut self) -> Ty {
        *self.rng.pick(&[Ty::Int, Ty::Int, Ty::Dec, Ty::Str])
    }

    /// A predicate over `scope` (outer scopes included, for correlation).
    fn pred(&mut self, scope: &[Source], depth: u32) -> String {
        let d = depth.saturating_sub(1);
        let pick = if depth == 0 {
            self.rng.below(6)
        } else {
            self.rng.below(13)
        };
        match pick {
            0..=1 => {
                let ty = self.any_ty();
                let op = self.rng.pick(&["=", "<>", "<", "<=", ">", ">=", "<=>"]);
                // Numbers compare with numbers, strings with strings (no conversions).
                let rty = if ty == Ty::Str {
                    Ty::Str
                } else {
                    self.numeric_ty()
                };
                let mut l = self.expr(scope, ty, d);
                let mut r = self.expr(scope, rty, d);
                // An INT compared with a DECIMAL is never a bare column (see the table at
                // the top).
                if ty != rty {
                    let int = if ty == Ty::Int { &mut l } else { &mut r };
                    *int = format!("({int} + 0)");
                } else if *op == "<=>" && ty != Ty::Str {
                    l = format!("({l} + 0)");
                    r = format!("({r} + 0)");
                }
                format!("{l} {op} {r}")
            }
            2 => {
                let ty = self.any_ty();
                let lo = self.literal(ty);
                let hi = self.literal(ty);
                let not = if self.rng.chance(25) { "NOT " } else { "" };
                format!("{} {not}BETWEEN {lo} AND {hi}", self.expr(scope, ty, d))
            }
            3 => {
                let ty = self.any_ty();
                let n = 1 + self.rng.below(4);
                let mut items: Vec<String> = (0..n).map(|_| self.literal(ty)).collect();
                if self.rng.chance(20) {
                    items.push("NULL".into());
                }
                let not = if self.rng.chance(30) { "NOT " } else { "" };
                format!("{} {not}IN ({})", self.expr(scope, ty, d), items.join(", "))
            }
            4 => {
                let ty = self.any_ty();
                let not = if self.rng.chance(40) { " NOT" } else { "" };
                format!("{} IS{not} NULL", self.expr(scope, ty, d))
            }
            5 => {
                let pat = self.rng.pick(&[
                    "a%", "%b%", "_", "__c", "f%", "%", "", "A%", "%o", "foo_bar", "%z",
                ]);
                let not = if self.rng.chance(25) { "NOT " } else { "" };
                format!("{} {not}LIKE '{pat}'", self.expr(scope, Ty::Str, d))
            }
            6 | 7 => format!("({} AND {})", self.pred(scope, d), self.pred(scope, d)),
            8 => format!("({} OR {})", self.pred(scope, d), self.pred(scope, d)),
            9 => format!("NOT ({})", self.pred(scope, d)),
            10 => {
                let sub = self.subquery_body(scope, d, "1");
                let not = if self.rng.chance(30) { "NOT " } else { "" };
                format!("{not}EXISTS ({sub})")
            }
            11 => {
                // IN (SELECT …): NOT IN with NULLs on either side is the interesting part.
                let ty = if self.rng.chance(80) {
                    Ty::Int
                } else {
                    Ty::Str
                };
                let inner = self.source();
                let Some(col) = self.column(&[inner], ty) else {
                    return self.pred(scope, d);
                };
                let sub = self.subquery_from(scope, inner, d, &col);
                let not = if self.rng.chance(35) { "NOT " } else { "" };
                format!("{} {not}IN ({sub})", self.expr(scope, ty, d))
            }
            _ => {
                let ty = self.numeric_ty();
                let op = self.rng.pick(&["=", "<", ">=", "<>"]);
                format!(
                    "{} {op} ({})",
                    self.expr(scope, ty, d),
                    self.scalar_subquery(scope, d)
                )
            }
        }
    }

    /// `SELECT <what> FROM <new table> [WHERE …]`, correlated with `outer` or not.
    fn subquery_body(&mut self, outer: &[Source], depth: u32, what: &str) -> String {
        let inner = self.source();
        self.subquery_from(outer, inner, depth, what)
    }

    fn subquery_from(&mut self, outer: &[Source], inner: Source, depth: u32, what: &str) -> String {
        let mut sql = format!("SELECT {what} FROM {} {}", inner.table.name, inner.name());
        let mut conds = Vec::new();
        if !outer.is_empty() && self.rng.chance(60) {
            // Correlated: an inner INT column against an outer one.
            let i = self.column(&[inner], Ty::Int).unwrap_or_default();
            if let Some(o) = self.column(outer, Ty::Int) {
                let op = self.rng.pick(&["=", "=", "<", ">="]);
                conds.push(format!("{i} {op} {o}"));
            }
        }
        if self.rng.chance(60) {
            conds.push(self.pred(&[inner], depth.min(1)));
        }
        if !conds.is_empty() {
            let _ = write!(sql, " WHERE {}", conds.join(" AND "));
        }
        sql
    }

    /// A subquery with one row and one numeric column (an aggregate, so never 1242).
    fn scalar_subquery(&mut self, outer: &[Source], depth: u32) -> String {
        let inner = self.source();
        let agg = match self.rng.below(4) {
            0 => "COUNT(*)".to_string(),
            n => {
                let col = self.column(&[inner], Ty::Int).unwrap_or_else(|| "1".into());
                format!("{}({col})", ["MAX", "MIN", "SUM"][n - 1])
            }
        };
        self.subquery_from(outer, inner, depth, &agg)
    }

    /// FROM clause over 1–4 tables; the tables in scope; WHERE conjuncts for comma joins.
    fn from(&mut self) -> (String, Vec<Source>, Vec<String>) {
        let first = self.source();
        let mut sql = format!("{} {}", first.table.name, first.name());
        let mut scope = vec![first];
        let mut wheres = Vec::new();
        let n = *self.rng.pick(&[1, 1, 2, 2, 2, 3, 3]);
        for _ in 1..n {
            let next = self.source();
            let l = self.column(&scope, Ty::Int).unwrap_or_default();
            let r = self.column(&[next], Ty::Int).unwrap_or_default();
            let mut on = format!("{l} = {r}");
            if self.rng.chance(20) {
                let both = [scope.as_slice(), &[next]].concat();
                on = format!("{on} AND {}", self.pred(&both, 1));
            }
            let mut name = format!("{} {}", next.table.name, next.name());
            let mut added = vec![next];
            // Sometimes a nested join: `LEFT JOIN (b JOIN c ON …) ON …` (4 tables at most:
            // Quire joins tables without a usable index by nested loops, no hash join, so
            // five 150-row tables joined on unindexed columns take minutes).
            if scope.len() + 2 <= 4 && self.rng.chance(15) {
                let inner = self.source();
                let kind = if self.rng.chance(50) {
                    "JOIN"
                } else {
                    "LEFT JOIN"
                };
                let il = self.column(&[next], Ty::Int).unwrap_or_default();
                let ir = self.column(&[inner], Ty::Int).unwrap_or_default();
                name = format!(
                    "({name} {kind} {} {} ON {il} = {ir})",
                    inner.table.name,
                    inner.name()
                );
                added.push(inner);
            }
            match self.rng.below(7) {
                0 | 1 => {
                    let _ = write!(sql, " JOIN {name} ON {on}");
                }
                2 | 3 => {
                    let _ = write!(sql, " LEFT JOIN {name} ON {on}");
                }
                4 => {
                    let _ = write!(sql, " RIGHT JOIN {name} ON {on}");
                }
                _ => {
                    let _ = write!(sql, ", {name}");
                    wheres.push(on);
                }
            }
            scope.extend(added);
        }
        (sql, scope, wheres)
    }

    /// An output expression safe for DISTINCT / GROUP BY / ORDER BY: strings wrapped in
    /// UPPER() (the collations are case-insensitive; see the table at the top).
    fn key_expr(&mut self, scope: &[Source]) -> String {
        let ty = self.any_ty();
        let mut e = if self.rng.chance(70) {
            self.column(scope, ty).unwrap_or_else(|| self.literal(ty))
        } else if ty == Ty::Dec {
            // MariaDB 10.11 can put the NULL group of a DECIMAL expression key into
            // another group (see the table at the top): no NULL keys from expressions.
            format!("COALESCE({}, 0.5)", self.expr(scope, ty, 1))
        } else {
            self.expr(scope, ty, 1)
        };
        if ty == Ty::Int && e.parse::<i64>().is_ok() {
            // An integer literal in GROUP BY / ORDER BY is a position, not a value.
            e = self.column(scope, Ty::Int).unwrap_or_default();
        }
        if ty == Ty::Str {
            format!("UPPER({e})")
        } else {
            e
        }
    }

    /// An aggregate; a numeric one if `numeric` (HAVING compares it with a number).
    fn aggregate(&mut self, scope: &[Source], numeric: bool) -> String {
        let ty = if numeric {
            self.numeric_ty()
        } else {
            self.any_ty()
        };
        let on_column = self.rng.chance(75);
        let arg = if on_column {
            self.column(scope, ty).unwrap_or_else(|| self.literal(ty))
        } else {
            self.expr(scope, ty, 1)
        };
        match self.rng.below(8) {
            0 => "COUNT(*)".into(),
            1 => format!("COUNT({arg})"),
            2 => format!("COUNT(DISTINCT {arg})"),
            3 | 4 if ty != Ty::Str => {
                // AVG of an expression: MariaDB 10.11 sizes the result from the expression's
                // digits and can clamp it (AVG(ABS(23)) = 9.9999); see the table at the top.
                let avg = self.rng.chance(50);
                format!("{}({arg})", if avg && on_column { "AVG" } else { "SUM" })
            }
            5 if ty != Ty::Str && self.rng.chance(30) => format!("SUM(DISTINCT {arg})"),
            _ if ty == Ty::Str => format!(
                "{}(UPPER({arg}))",
                if self.rng.chance(50) { "MIN" } else { "MAX" }
            ),
            _ => format!("{}({arg})", if self.rng.chance(50) { "MIN" } else { "MAX" }),
        }
    }

    fn query(&mut self) -> String {
        self.aliases = 0;
        let (from, scope, mut wheres) = self.from();
        if self.rng.chance(75) {
            wheres.push(self.pred(&scope, 2));
        }
        let where_sql = if wheres.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", wheres.join(" AND "))
        };
        let limit = if self.rng.chance(25) {
            format!(" LIMIT {}", self.rng.range(0, 12))
        } else {
            String::new()
        };
        if self.rng.chance(40) {
            self.grouped(&from, &scope, &where_sql, &limit)
        } else {
            self.plain(&from, &scope, &where_sql, &limit)
        }
    }

    /// GROUP BY 0–2 keys: the SELECT list holds the keys and aggregates only.
    fn grouped(&mut self, from: &str, scope: &[Source], where_sql: &str, limit: &str) -> String {
        // Subqueries correlated with a group key? Then no NULL DECIMAL keys (see the table
        // at the top).
        let correlate = self.rng.chance(35);
        let mut keys: Vec<String> = (0..self.rng.below(3))
            .map(|_| {
                let k = self.key_expr(scope);
                if correlate && self.decimal_column(scope, &k) {
                    format!("COALESCE({k}, 0.5)")
                } else {
                    k
                }
            })
            .collect();
        // MariaDB rejects a repeated key expression (1055); MySQL accepts it.
        keys.dedup();
        let mut outs: Vec<String> = keys.clone();
        for _ in 0..1 + self.rng.below(3) {
            outs.push(self.aggregate(scope, false));
        }
        // Subqueries correlated with a group key: a bare INT column whose name no other key
        // has (see the table at the top).
        let int_key = keys
            .iter()
            .find(|k| {
                let name = k.rsplit('.').next().unwrap_or_default();
                scope.iter().any(|s| {
                    s.table
                        .columns
                        .iter()
                        .any(|(c, t)| *t == Ty::Int && **k == format!("{}.{c}", s.name()))
                }) && keys
                    .iter()
                    .filter(|o| o.contains(&format!(".{name}")))
                    .count()
                    == 1
            })
            .filter(|_| correlate)
            .cloned();
        if let Some(k) = &int_key
            && self.rng.chance(50)
        {
            let sub = self.group_subquery(k);
            outs.push(sub);
        }
        let select: Vec<String> = outs
            .iter()
            .enumerate()
            .map(|(i, e)| format!("{e} AS c{i}"))
            .collect();
        let mut sql = format!("SELECT {} FROM {from}{where_sql}", select.join(", "));
        if !keys.is_empty() {
            let _ = write!(sql, " GROUP BY {}", keys.join(", "));
        }
        // (No HAVING without GROUP BY over an IN subquery: see the table at the top.)
        let having_ok = !keys.is_empty() || !where_sql.contains(" IN (SELECT");
        if self.rng.chance(35) && having_ok {
            let agg = self.aggregate(scope, true);
            let op = self.rng.pick(&[">", "<", ">=", "<>"]);
            let rhs = match &int_key {
                Some(k) if self.rng.chance(50) => self.group_subquery(k),
                _ => self.int_literal(),
            };
            let _ = write!(sql, " HAVING {agg} {op} {rhs}");
            if !keys.is_empty() && self.rng.chance(30) {
                let _ = write!(sql, " OR c0 IS NULL");
            }
        }
        // The keys make a group unique, so ordering by every output column is total.
        if !limit.is_empty() || self.rng.chance(20) {
            let _ = write!(sql, " ORDER BY {}{limit}", self.order_list(outs.len()));
        }
        sql
    }

    /// Is `e` a bare DECIMAL column of `scope`?
    fn decimal_column(&self, scope: &[Source], e: &str) -> bool {
        scope.iter().any(|s| {
            s.table
                .columns
                .iter()
                .any(|(c, t)| *t == Ty::Dec && e == format!("{}.{c}", s.name()))
        })
    }

    /// `(SELECT COUNT(*) | MAX(…) FROM t WHERE t.c op key)`: a scalar subquery correlated
    /// with GROUP BY key `key`.
    fn group_subquery(&mut self, key: &str) -> String {
        let inner = self.source();
        let i = self.column(&[inner], Ty::Int).unwrap_or_default();
        let op = self.rng.pick(&["=", "<", ">="]);
        let what = if self.rng.chance(50) {
            "COUNT(*)".to_string()
        } else {
            format!("MAX({i})")
        };
        let (t, n) = (inner.table.name, inner.name());
        format!("(SELECT {what} FROM {t} {n} WHERE {i} {op} {key})")
    }

    fn order_list(&mut self, n: usize) -> String {
        (0..n)
            .map(|i| {
                let dir = if self.rng.chance(30) { " DESC" } else { "" };
                format!("c{i}{dir}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn plain(&mut self, from: &str, scope: &[Source], where_sql: &str, limit: &str) -> String {
        let distinct = self.rng.chance(20);
        let mut outs = Vec::new();
        for _ in 0..1 + self.rng.below(4) {
            if distinct {
                outs.push(self.key_expr(scope));
            } else if self.rng.chance(12) {
                outs.push(format!("({})", self.scalar_subquery(scope, 1)));
            } else {
                let ty = self.any_ty();
                outs.push(self.expr(scope, ty, 2));
            }
        }
        let ordered = !limit.is_empty() || self.rng.chance(15);
        if ordered && !distinct {
            // Every table's key among the outputs: a total order, even with NULLs from
            // outer joins (the pair of keys is unique in the join).
            for s in scope {
                outs.push(format!("{}.{}", s.name(), s.table.key));
            }
        }
        let select: Vec<String> = outs
            .iter()
            .enumerate()
            .map(|(i, e)| format!("{e} AS c{i}"))
            .collect();
        let mut sql = format!(
            "SELECT {}{} FROM {from}{where_sql}",
            if distinct { "DISTINCT " } else { "" },
            select.join(", ")
        );
        if ordered {
            let _ = write!(sql, " ORDER BY {}{limit}", self.order_list(outs.len()));
        }
        sql
    }
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    let parsed = match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => v.parse(),
    };
    Some(parsed.unwrap_or_else(|e| panic!("{name}={v:?}: {e}")))
}

#[test]
fn random_queries_match_mariadb() {
    if !require_tool("mariadbd") {
        return;
    }
    let seed = env_u64("QUIRE_RQG_SEED").unwrap_or(DEFAULT_SEED);
    let seconds = env_u64("QUIRE_RQG_SECONDS").unwrap_or(60);
    let max_queries = env_u64("QUIRE_RQG_QUERIES").unwrap_or(u64::MAX);
    eprintln!(
        "random queries: QUIRE_RQG_SEED={seed:#x}, up to {seconds} s / {max_queries} queries"
    );

    if let Ok(path) = std::env::var("QUIRE_RQG_DUMP") {
        let sql: Vec<String> = DDL.iter().map(|s| s.to_string()).chain(data()).collect();
        std::fs::write(&path, sql.join(";\n") + ";\n").expect("QUIRE_RQG_DUMP file");
    }
    let mut quire = TestServer::start();
    let maria = TestServer::start_mariadb(&[]);
    let db = "rqg";
    let mut conns = Vec::new();
    for server in [&quire, &maria] {
        create_compare_user(server);
        fresh_database(server, db);
        let mut c = compare_session(server, db);
        for sql in DDL.iter().map(|s| s.to_string()).chain(data()) {
            c.query_drop(&sql)
                .unwrap_or_else(|e| panic!("{}: {sql}: {e}", server.url()));
        }
        conns.push(c);
    }
    let (mut q, mut m) = {
        let mut it = conns.into_iter();
        (it.next().unwrap(), it.next().unwrap())
    };

    let mut g = Gen {
        rng: Rng::new(seed),
        aliases: 0,
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut failures = Vec::new();
    let mut n = 0u64;
    let mut errors = 0u64;
    while n < max_queries && Instant::now() < deadline && failures.len() < MAX_FAILURES {
        n += 1;
        let sql = g.query();
        let started = Instant::now();
        let got = run(&mut q, &sql);
        let took = started.elapsed();
        if took > Duration::from_secs(5) {
            eprintln!("slow on Quire ({took:.1?}): query {n}: {sql}");
        }
        let want = run(&mut m, &sql);
        if let Outcome::Lost(e) = &want {
            panic!("MariaDB lost the connection at query {n} (seed {seed:#x}): {e}\n  {sql}");
        }
        if let Outcome::Lost(_) = got {
            quire.assert_alive(&format!("query {n} (seed {seed:#x}): {sql}"));
            q = compare_session(&quire, db);
        }
        if let Outcome::Error(_) = want {
            errors += 1;
        }
        if got != want {
            failures.push(format!(
                "seed {seed:#x}, query {n}: {sql}\n  Quire:\n{}\n  MariaDB:\n{}",
                describe(&got),
                describe(&want)
            ));
        }
    }
    eprintln!(
        "random queries: seed {seed:#x}: {n} queries ({errors} of them errors on MariaDB), {} differences",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} random queries differ from MariaDB (rerun: QUIRE_RQG_SEED={seed:#x} \
         QUIRE_RQG_QUERIES=<query number>):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn generator_is_deterministic() {
    let mk = || {
        let mut g = Gen {
            rng: Rng::new(42),
            aliases: 0,
        };
        (0..50).map(|_| g.query()).collect::<Vec<_>>()
    };
    let a = mk();
    assert_eq!(a, mk());
    assert!(a.iter().all(|s| s.starts_with("SELECT ")));
    assert_eq!(data(), data());
}
