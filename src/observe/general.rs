//! The general query log: one line per command received, in MySQL 8.0's format.
//!
//! ```text
//! 2024-05-10T17:44:36.400424Z     12 Connect  root@localhost on sbtest using Socket
//! 2024-05-10T17:44:36.400587Z     12 Query  SELECT c FROM sbtest1 WHERE id=5
//! 2024-05-10T17:44:36.401002Z     12 Prepare  SELECT c FROM sbtest1 WHERE id=?
//! 2024-05-10T17:44:36.401100Z     12 Execute  SELECT c FROM sbtest1 WHERE id=7
//! 2024-05-10T17:44:36.401300Z     12 Close stmt
//! 2024-05-10T17:44:36.401400Z     12 Quit
//! ```
//!
//! (Tabs shown as two spaces.) The time the command was received (`log_timestamps`), a tab, the connection id right-
//! aligned in five columns, a space, the command's name, a tab, its argument, a newline. The
//! entry is written when the command arrives, before it runs (as MySQL does), so a statement
//! that never finishes is still in the log. A statement's text goes in as sent, newlines
//! included; a multi-statement COM_QUERY gives one `Query` line per statement. `Execute` has
//! the parameter values in place of the `?`s. `Connect` says `user@host on db using
//! TCP/IP|Socket`, or `Access denied for user …` for a failed login.

use super::write_iso_time;

/// Appends one line.
pub fn format(out: &mut Vec<u8>, time_us: i64, utc: bool, conn_id: u32, command: &str, arg: &[u8]) {
    write_iso_time(out, time_us, utc);
    out.push(b'\t');
    super::write_u64_padded(out, u64::from(conn_id), 5);
    out.push(b' ');
    out.extend_from_slice(command.as_bytes());
    out.push(b'\t');
    out.extend_from_slice(arg);
    out.push(b'\n');
}

/// The argument of a `Connect` line.
pub fn connect_arg(user: &str, host: &str, db: Option<&str>, tcp: bool) -> String {
    format!(
        "{user}@{host} on {} using {}",
        db.unwrap_or(""),
        if tcp { "TCP/IP" } else { "Socket" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_mysqls() {
        let mut out = Vec::new();
        format(
            &mut out,
            1_715_363_076_400_424,
            true,
            12,
            "Connect",
            connect_arg("root", "localhost", Some("test"), false).as_bytes(),
        );
        format(
            &mut out,
            1_715_363_076_400_500,
            true,
            12,
            "Query",
            b"select 1",
        );
        format(&mut out, 1_715_363_076_400_600, true, 12345, "Quit", b"");
        assert_eq!(
            String::from_utf8_lossy(&out),
            "2024-05-10T17:44:36.400424Z\t   12 Connect\troot@localhost on test using Socket\n\
             2024-05-10T17:44:36.400500Z\t   12 Query\tselect 1\n\
             2024-05-10T17:44:36.400600Z\t12345 Quit\t\n"
        );
    }
}
