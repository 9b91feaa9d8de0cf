//! `quire binlog FILE…`: print binary log files as `mysqlbinlog -v` does, read-only.
//!
//! Each event is shown with its offset (`# at N`), a header comment (time, server id,
//! end_log_pos, its CRC32 when the file has checksums, type and summary), and:
//! Query events as their statement (`SET TIMESTAMP`, `use`), Xid as `COMMIT`, row events as
//! pseudo-SQL comments (`### INSERT INTO`, `### UPDATE … WHERE … SET`, `### DELETE FROM`),
//! columns named `@1`, `@2`, … as the Table_map gives no names. Values are decoded from the
//! Table_map's type codes and metadata alone (the schema is not needed); integers whose
//! top bit is set are also shown unsigned, in parentheses. A private transaction
//! (`sql_log_bin=0`, see [`super::events`]) is shown with its wrapped events; the filler of
//! an open file as one line.
//!
//! Every checksum is verified. A bad event (checksum mismatch, truncated, malformed) is
//! reported with its file and offset; the exit status is then 1. A file still open by a
//! server ends at its filler and reads cleanly.

use super::decode::{self, Cur, Events, RawEvent, TableMapEvent};
use super::events::*;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;

/// Run `quire binlog ARGS…`; returns the process exit status.
pub fn main(args: &[String]) -> i32 {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-?") {
        println!(
            "Usage: quire binlog FILE...\n\
             Prints binary log files as `mysqlbinlog -v` does (row events as pseudo-SQL) and\n\
             verifies every event's checksum. Exit status 1 if any event is bad."
        );
        return if args.is_empty() { 2 } else { 0 };
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut status = 0;
    for path in args {
        let data = match decode::map_file(std::path::Path::new(path)) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("quire binlog: '{path}': {e}");
                status = 1;
                continue;
            }
        };
        let mut text = String::new();
        let ok = print_file(&data, &mut text);
        if out.write_all(text.as_bytes()).is_err() {
            return 1;
        }
        if let Err((at, fault)) = ok {
            let _ = out.flush();
            eprintln!("quire binlog: '{path}': bad event at offset {at}: {fault}");
            status = 1;
        }
    }
    if out.flush().is_err() {
        return 1;
    }
    status
}

/// Print one file's events into `out`; the first bad event ends it.
pub fn print_file(data: &[u8], out: &mut String) -> Result<(), (u64, decode::Fault)> {
    let mut events = Events::new(data).map_err(|f| (0, f))?;
    let mut maps = HashMap::new();
    let _ = writeln!(out, "DELIMITER /*!*/;");
    while let Some(item) = events.next() {
        let ev = item?;
        let filler = is_filler(ev.ty, ev.flags, ev.body);
        print_event(&ev, data, events.checksums(), &mut maps, "", out)
            .map_err(|f| (ev.offset, f))?;
        if filler {
            break;
        }
    }
    let _ = writeln!(out, "DELIMITER ;\n# End of log file");
    Ok(())
}

fn print_event(
    ev: &RawEvent,
    data: &[u8],
    checksums: bool,
    maps: &mut HashMap<u64, TableMapEvent>,
    indent: &str,
    out: &mut String,
) -> Result<(), decode::Fault> {
    let _ = writeln!(out, "{indent}# at {}", ev.offset);
    let crc = if checksums {
        let end = ev.offset as usize + ev.size as usize;
        match data.get(end.saturating_sub(4)..end) {
            Some(b) => format!(
                " CRC32 0x{:08x}",
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            ),
            None => String::new(),
        }
    } else {
        String::new()
    };
    let when = chrono::DateTime::from_timestamp(ev.timestamp as i64, 0)
        .map(|t| t.format("%y%m%d %H:%M:%S").to_string())
        .unwrap_or_default();
    let head = format!(
        "{indent}#{when} server id {}  end_log_pos {}{crc} \t",
        ev.server_id, ev.log_pos
    );
    match ev.ty {
        FORMAT_DESCRIPTION_EVENT => {
            let v = decode::format_description(ev.body)?;
            let _ = writeln!(out, "{head}Start: binlog v 4, server v {v}");
        }
        QUERY_EVENT => {
            let q = decode::query(ev.body)?;
            let _ = writeln!(
                out,
                "{head}Query\tthread_id={}\texec_time={}\terror_code={}",
                q.thread_id, q.exec_time, q.error_code
            );
            if !q.db.is_empty() && q.query != "BEGIN" {
                let _ = writeln!(out, "{indent}use `{}`/*!*/;", q.db);
            }
            let _ = writeln!(out, "{indent}SET TIMESTAMP={}/*!*/;", ev.timestamp);
            let _ = writeln!(out, "{indent}{}\n{indent}/*!*/;", q.query);
        }
        XID_EVENT => {
            let _ = writeln!(out, "{head}Xid = {}", decode::xid(ev.body)?);
            let _ = writeln!(out, "{indent}COMMIT/*!*/;");
        }
        ROTATE_EVENT => {
            let (pos, name) = decode::rotate(ev.body)?;
            let _ = writeln!(out, "{head}Rotate to {name}  pos: {pos}");
        }
        STOP_EVENT => {
            let _ = writeln!(out, "{head}Stop");
        }
        TABLE_MAP_EVENT => {
            let m = decode::table_map(ev.body)?;
            let _ = writeln!(
                out,
                "{head}Table_map: `{}`.`{}` mapped to number {}",
                m.db, m.table, m.table_id
            );
            maps.insert(m.table_id, m);
        }
        t if decode::is_rows_event(t) => {
            let r = decode::rows_event(t, ev.body)?;
            let name = match t {
                WRITE_ROWS_EVENT_V1 => "Write_rows",
                UPDATE_ROWS_EVENT_V1 => "Update_rows",
                _ => "Delete_rows",
            };
            let flags = if r.flags & STMT_END_F != 0 {
                " flags: STMT_END_F"
            } else {
                ""
            };
            let _ = writeln!(out, "{head}{name}: table id {}{flags}", r.table_id);
            let map = maps.get(&r.table_id).ok_or_else(|| {
                decode::Fault::Malformed(format!("no Table_map for table id {}", r.table_id))
            })?;
            print_rows(t, &r, map, indent, out)?;
            if r.flags & STMT_END_F != 0 {
                maps.clear();
            }
        }
        IGNORABLE_EVENT if is_private(ev.ty, ev.flags, ev.body) => {
            let _ = writeln!(
                out,
                "{head}Ignorable: a transaction run with sql_log_bin=0 (replicas skip it), holding:"
            );
            let inner = &ev.body[PRIVATE_MARK.len()..];
            let mut inner_maps = HashMap::new();
            for item in Events::embedded(inner, checksums) {
                let e = item.map_err(|(at, f)| {
                    decode::Fault::Malformed(format!("inside the private event, at {at}: {f}"))
                })?;
                let sub = format!("{indent}#   ");
                print_event(&e, inner, checksums, &mut inner_maps, &sub, out)?;
            }
        }
        IGNORABLE_EVENT => {
            let _ = writeln!(
                out,
                "{head}Ignorable: free space of the open file ({} bytes)",
                ev.size
            );
        }
        other => {
            let _ = writeln!(out, "{head}Unknown event type {other}");
        }
    }
    Ok(())
}

fn print_rows(
    ty: u8,
    r: &decode::RowsEvent,
    map: &TableMapEvent,
    indent: &str,
    out: &mut String,
) -> Result<(), decode::Fault> {
    if r.column_count != map.columns.len() {
        return Err(decode::Fault::Malformed(format!(
            "{} columns, the Table_map has {}",
            r.column_count,
            map.columns.len()
        )));
    }
    let table = format!("`{}`.`{}`", map.db, map.table);
    let mut c = Cur::new(r.rows);
    let mut count = 0;
    while !c.rest().is_empty() {
        count += 1;
        let (verb, images): (&str, &[(&[bool], &str)]) = match ty {
            WRITE_ROWS_EVENT_V1 => ("INSERT INTO", &[(&r.present, "SET")]),
            UPDATE_ROWS_EVENT_V1 => (
                "UPDATE",
                &[(&r.present, "WHERE"), (&r.present_after, "SET")],
            ),
            _ => ("DELETE FROM", &[(&r.present, "WHERE")]),
        };
        let _ = writeln!(out, "{indent}### {verb} {table}");
        for (present, title) in images {
            let _ = writeln!(out, "{indent}### {title}");
            for line in row_image(&mut c, present, map)? {
                let _ = writeln!(out, "{indent}###   {line}");
            }
        }
    }
    let _ = writeln!(out, "{indent}# Number of rows: {count}");
    Ok(())
}

/// One row image as `@n=value` lines.
fn row_image(
    c: &mut Cur,
    present: &[bool],
    map: &TableMapEvent,
) -> Result<Vec<String>, decode::Fault> {
    let n = present.iter().filter(|p| **p).count();
    let nulls = c.take(n.div_ceil(8))?.to_vec();
    let mut lines = Vec::with_capacity(n);
    let mut k = 0;
    for (i, (code, meta)) in map.columns.iter().enumerate() {
        if !present.get(i).copied().unwrap_or(false) {
            continue;
        }
        let is_null = nulls[k / 8] & (1 << (k % 8)) != 0;
        k += 1;
        let v = if is_null {
            "NULL".to_string()
        } else {
            value(c, *code, meta)?
        };
        lines.push(format!("@{}={v}", i + 1));
    }
    Ok(lines)
}

/// A quoted string: UTF-8 text as is (control characters, `'` and `\` escaped), other
/// bytes as `\xHH`.
fn quoted(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() + 2);
    s.push('\'');
    match std::str::from_utf8(b) {
        Ok(text) => {
            for ch in text.chars() {
                match ch {
                    '\'' => s.push_str("\\'"),
                    '\\' => s.push_str("\\\\"),
                    c if c.is_control() => {
                        let _ = write!(s, "\\x{:02x}", c as u32);
                    }
                    c => s.push(c),
                }
            }
        }
        Err(_) => {
            for &x in b {
                let _ = write!(s, "\\x{x:02x}");
            }
        }
    }
    s.push('\'');
    s
}

/// A float as C's `%g` with 17 significant digits would show it, without padding.
fn float(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e15).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        x.to_string()
    }
}

fn int(c: &mut Cur, bytes: usize) -> Result<String, decode::Fault> {
    let x = c.le(bytes)?;
    let signed = decode::sign_extend(x, bytes);
    Ok(if signed < 0 {
        format!("{signed} ({x})")
    } else {
        signed.to_string()
    })
}

/// The low `n` bits of `x` as `b'0101'`.
fn bits(x: u64, n: usize) -> String {
    let mut s = String::from("b'");
    for i in (0..n).rev() {
        s.push(if x >> i & 1 == 1 { '1' } else { '0' });
    }
    s.push('\'');
    s
}

fn time_text(micros: i64, fsp: u8) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let a = micros.unsigned_abs();
    let secs = a / 1_000_000;
    let mut s = format!(
        "{sign}{:02}:{:02}:{:02}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    );
    push_fraction(&mut s, (a % 1_000_000) as u32, fsp);
    s
}

fn push_fraction(s: &mut String, micro: u32, fsp: u8) {
    if fsp > 0 {
        let digits = format!("{micro:06}");
        s.push('.');
        s.push_str(&digits[..(fsp as usize).min(6)]);
    }
}

/// A value of binlog type `code` with Table_map metadata `meta`, as mysqlbinlog prints it.
fn value(c: &mut Cur, code: u8, meta: &[u8]) -> Result<String, decode::Fault> {
    let m = |i: usize| meta.get(i).copied().unwrap_or(0);
    Ok(match code {
        1 => int(c, 1)?,
        2 => int(c, 2)?,
        9 => int(c, 3)?,
        3 => int(c, 4)?,
        8 => int(c, 8)?,
        4 => float(f32::from_le_bytes(c.take(4)?.try_into().unwrap_or([0; 4])) as f64),
        5 => float(f64::from_le_bytes(c.take(8)?.try_into().unwrap_or([0; 8]))),
        246 => decode::get_decimal(c, m(0), m(1))?.to_string(),
        // ENUM: the 1-based index.
        254 if m(0) == 247 => c.le(m(1).clamp(1, 2) as usize)?.to_string(),
        // SET: the member bitmap.
        254 if m(0) == 248 => {
            let n = m(1).clamp(1, 8) as usize;
            bits(c.le(n)?, 8 * n)
        }
        254 => {
            let (b0, b1) = (m(0) as usize, m(1) as usize);
            let len = if b0 & 0x30 != 0x30 {
                b1 | (((b0 & 0x30) ^ 0x30) << 4)
            } else {
                b1
            };
            quoted(decode::get_string(c, len as u32)?)
        }
        15 => quoted(decode::get_string(
            c,
            u16::from_le_bytes([m(0), m(1)]) as u32,
        )?),
        252 => {
            let n = c.le(m(0).clamp(1, 4) as usize)? as usize;
            quoted(c.take(n)?)
        }
        10 => {
            let d = decode::get_date(c)?;
            format!("'{:04}:{:02}:{:02}'", d.year, d.month, d.day)
        }
        18 => {
            let d = decode::get_datetime2(c, m(0))?;
            let mut s = format!(
                "'{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
                d.year, d.month, d.day, d.hour, d.minute, d.second
            );
            push_fraction(&mut s, d.micro, m(0));
            s.push('\'');
            s
        }
        17 => {
            let mut s = c.be(4)?.to_string();
            push_fraction(&mut s, decode::get_fraction(c, m(0))?, m(0));
            s
        }
        19 => format!("'{}'", time_text(decode::get_time2(c, m(0))?, m(0))),
        13 => {
            let y = c.u8()?;
            (if y == 0 { 0 } else { 1900 + y as u32 }).to_string()
        }
        16 => {
            let n = (m(0) as usize + 8 * m(1) as usize).clamp(1, 64);
            bits(c.be(n.div_ceil(8))?, n)
        }
        other => {
            return Err(decode::Fault::Malformed(format!(
                "column type {other} is not one Quire writes"
            )));
        }
    })
}
