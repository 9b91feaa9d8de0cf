//! `performance_schema.setup_consumers` and `setup_instruments`: what is collected,
//! switched at run time with `UPDATE`, as in MySQL.
//!
//! Consumers form MySQL's hierarchy: `global_instrumentation` gates everything;
//! `statements_digest` (the digest summary) hangs off it alone; `thread_instrumentation`
//! gates the per-thread tables, `events_statements_current` then `events_statements_history`
//! below it. Instruments are MySQL's `statement/sql/<command>` names, one per `Com_*`
//! counter (a prepared statement's execution is the instrument of what it runs, as in
//! MySQL). A statement whose instrument is off goes neither to the digest summary nor to the
//! history. Quire's statement instruments are always timed: `TIMED` stays `YES`.
//!
//! Every switch is an atomic; each change recomputes the two effective switches a statement
//! reads ([`Setup::digests_on`], [`Setup::history_on`]), so a statement pays two loads and
//! one for its instrument. `performance_schema=OFF` at start-up leaves all of them off.

use super::status::{NAMES, Stat};
use std::sync::atomic::{AtomicBool, Ordering};

/// The consumers Quire has, in MySQL's row order.
pub const CONSUMERS: [&str; 5] = [
    "events_statements_current",
    "events_statements_history",
    "global_instrumentation",
    "thread_instrumentation",
    "statements_digest",
];

const CURRENT: usize = 0;
const HISTORY: usize = 1;
const GLOBAL: usize = 2;
const THREAD: usize = 3;
const DIGEST: usize = 4;

pub struct Setup {
    /// `performance_schema` at start-up.
    ps: bool,
    consumers: [AtomicBool; CONSUMERS.len()],
    /// By [`Stat`] index; only the `Com_*` ones that are instruments are used.
    instruments: Box<[AtomicBool]>,
    digests: AtomicBool,
    history: AtomicBool,
    current: AtomicBool,
}

/// The instrument of a `Com_*` counter, if it is one (`Com_stmt_*` and
/// `Com_admin_commands` count protocol commands, not statements).
pub fn instrument_name(i: usize) -> Option<String> {
    let com = NAMES.get(i)?.strip_prefix("Com_")?;
    if com.starts_with("stmt_") || com == "admin_commands" {
        return None;
    }
    Some(format!("statement/sql/{com}"))
}

impl Setup {
    pub fn new(performance_schema: bool) -> Setup {
        let s = Setup {
            ps: performance_schema,
            consumers: std::array::from_fn(|_| AtomicBool::new(true)),
            instruments: (0..NAMES.len()).map(|_| AtomicBool::new(true)).collect(),
            digests: AtomicBool::new(false),
            history: AtomicBool::new(false),
            current: AtomicBool::new(false),
        };
        s.derive();
        s
    }

    fn consumer(&self, i: usize) -> bool {
        self.consumers[i].load(Ordering::Relaxed)
    }

    fn derive(&self) {
        let global = self.ps && self.consumer(GLOBAL);
        let current = global && self.consumer(THREAD) && self.consumer(CURRENT);
        self.digests
            .store(global && self.consumer(DIGEST), Ordering::Relaxed);
        self.current.store(current, Ordering::Relaxed);
        self.history
            .store(current && self.consumer(HISTORY), Ordering::Relaxed);
    }

    /// Digests are collected (`events_statements_summary_by_digest`).
    #[inline]
    pub fn digests_on(&self) -> bool {
        self.digests.load(Ordering::Relaxed)
    }

    /// Statements go to `events_statements_history`.
    #[inline]
    pub fn history_on(&self) -> bool {
        self.history.load(Ordering::Relaxed)
    }

    /// `events_statements_current` shows what runs.
    pub fn current_on(&self) -> bool {
        self.current.load(Ordering::Relaxed)
    }

    /// Is a statement counted under `com` collected? (`None`: a statement that never got
    /// as far as being classified, e.g. a syntax error: always.)
    #[inline]
    pub fn instrumented(&self, com: Option<Stat>) -> bool {
        com.is_none_or(|c| self.instruments[c as usize].load(Ordering::Relaxed))
    }

    /// `setup_consumers` rows: (NAME, ENABLED).
    pub fn consumer_rows(&self) -> Vec<(&'static str, bool)> {
        CONSUMERS
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, self.consumer(i)))
            .collect()
    }

    /// `setup_instruments` rows: (NAME, ENABLED).
    pub fn instrument_rows(&self) -> Vec<(String, bool)> {
        (0..NAMES.len())
            .filter_map(|i| {
                instrument_name(i).map(|n| (n, self.instruments[i].load(Ordering::Relaxed)))
            })
            .collect()
    }

    /// Switches the consumer or instrument `name`; whether it changed. `false` too for a
    /// name that is not one (the caller only passes names it read from the table).
    pub fn set(&self, instruments: bool, name: &str, on: bool) -> bool {
        let cell = if instruments {
            (0..NAMES.len())
                .find(|&i| instrument_name(i).is_some_and(|n| n.eq_ignore_ascii_case(name)))
                .map(|i| &self.instruments[i])
        } else {
            CONSUMERS
                .iter()
                .position(|c| c.eq_ignore_ascii_case(name))
                .map(|i| &self.consumers[i])
        };
        let Some(cell) = cell else {
            return false;
        };
        let was = cell.swap(on, Ordering::Relaxed);
        self.derive();
        was != on
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consumers_follow_mysqls_hierarchy() {
        let s = Setup::new(true);
        assert!(s.digests_on() && s.history_on() && s.current_on());
        s.set(false, "thread_instrumentation", false);
        assert!(s.digests_on() && !s.history_on() && !s.current_on());
        s.set(false, "thread_instrumentation", true);
        s.set(false, "global_instrumentation", false);
        assert!(!s.digests_on() && !s.history_on());
        s.set(false, "global_instrumentation", true);
        assert!(!s.set(false, "statements_digest", true));
        assert!(s.set(false, "events_statements_history", false));
        assert!(s.current_on() && !s.history_on());
        assert!(!Setup::new(false).digests_on());
    }

    #[test]
    fn instruments_are_mysqls_statement_names() {
        let s = Setup::new(true);
        let names: Vec<String> = s.instrument_rows().into_iter().map(|r| r.0).collect();
        assert!(names.contains(&"statement/sql/select".to_string()));
        assert!(names.contains(&"statement/sql/show_status".to_string()));
        assert!(!names.iter().any(|n| n.contains("stmt_")));
        assert!(s.set(true, "statement/sql/select", false));
        assert!(!s.instrumented(Some(Stat::ComSelect)));
        assert!(s.instrumented(Some(Stat::ComUpdate)));
        assert!(s.instrumented(None));
    }
}
