//! The session's side of the query logs (see `crate::observe`): it formats its own entries,
//! in its own buffer, and hands them over finished.

use super::Ctx;
use crate::observe::slow::{self, Verdict};
use crate::observe::{general, now_us};
use crate::sql::value::Value;
use std::borrow::Cow;
use std::sync::atomic::Ordering;

/// A prepared statement's text with its parameter values in place of the `?`s at
/// `positions`, as MySQL logs an execution.
pub fn execute_text(text: &str, positions: &[usize], params: &[Value]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + params.len() * 8);
    let mut last = 0;
    for (pos, v) in positions.iter().zip(params) {
        out.extend_from_slice(text.as_bytes().get(last..*pos).unwrap_or_default());
        crate::sql::value::push_literal(v, &mut out);
        last = pos + 1;
    }
    out.extend_from_slice(text.as_bytes().get(last..).unwrap_or_default());
    out
}

impl Ctx {
    /// The general log's line for a command received now (before it runs). `sql_log_off`
    /// keeps a session's commands out.
    pub fn log_command(&mut self, command: &str, arg: &[u8]) {
        let logs = &self.server.logs;
        if !logs.general_on() || self.vars.get_bool(crate::config::vars::SQL_LOG_OFF) {
            return;
        }
        self.log_buf.clear();
        let utc = logs.utc.load(Ordering::Relaxed);
        general::format(&mut self.log_buf, now_us(), utc, self.conn_id, command, arg);
        logs.write_general(&self.log_buf);
    }

    /// A statement (a COM_QUERY statement or a COM_STMT_EXECUTE) has ended: count it if it
    /// was slow, and write it to the slow log if the log wants it (see `observe::slow`).
    /// `text` gives the statement as logged; it is only asked for when an entry is written
    /// (an execution's text with its values is built then).
    pub fn statement_done<'t>(&mut self, text: impl FnOnce() -> Cow<'t, [u8]>) {
        let end_us = now_us();
        let query_us = (end_us - self.rec.start_us).max(0) as u64;
        let killed = self.is_killed();
        // Fields borrowed one by one: no clone of the shared `Server` per statement.
        let status = &self.server.status;
        if self.slow.long_query_us == 0 || query_us > self.slow.long_query_us {
            status.slow_queries.fetch_add(1, Ordering::Relaxed);
        }
        let logs = &self.server.logs;
        if !logs.slow_on() {
            return;
        }
        let no = status.queries.load(Ordering::Relaxed);
        let g = &logs.slow_globals;
        let utc = logs.utc.load(Ordering::Relaxed);
        match slow::verdict(&self.rec, query_us, &self.slow, g, no) {
            Verdict::Skip => return,
            Verdict::Slow => {}
            Verdict::NoIndex => {
                let limit = g.throttle_per_minute.load(Ordering::Relaxed);
                if limit > 0 {
                    let (admit, suppressed) = logs.throttle.admit(end_us, limit);
                    if suppressed > 0 {
                        self.log_buf.clear();
                        slow::format_throttle_summary(&mut self.log_buf, end_us, suppressed, utc);
                        logs.write_slow(&self.log_buf);
                    }
                    if !admit {
                        return;
                    }
                }
            }
        }
        self.log_buf.clear();
        slow::format(
            &mut self.log_buf,
            &slow::Entry {
                rec: &self.rec,
                end_us,
                user_host: &self.log_user_host,
                db: self.db.as_deref(),
                text: &text(),
                conn_id: self.conn_id,
                killed,
                extra: g.extra.load(Ordering::Relaxed),
                utc,
            },
        );
        logs.write_slow(&self.log_buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn executions_are_logged_with_their_values() {
        let text = "SELECT c FROM t WHERE id=? AND s='?' AND d IN (?, ?) -- ?";
        let pos = crate::sql::parse::placeholder_positions(text);
        assert_eq!(pos.len(), 3);
        let params = [Value::Int(7), Value::str("it's"), Value::Null];
        assert_eq!(
            String::from_utf8_lossy(&execute_text(text, &pos, &params)),
            "SELECT c FROM t WHERE id=7 AND s='?' AND d IN ('it\\'s', NULL) -- ?"
        );
    }
}
