//! The journal as SQL shows it: SHOW BINARY LOGS, SHOW MASTER STATUS, SHOW BINLOG EVENTS,
//! and the checks of PURGE BINARY LOGS.

use super::decode::{self, Events, RawEvent};
use super::events::*;
use super::writer::Journal;
use crate::error::{MyError, code};
use crate::sql::value::Value;

pub fn not_logging() -> MyError {
    MyError::new(
        code::ER_NO_BINARY_LOGGING,
        "You are not using binary logging",
    )
}

/// The exposed journal, or error 1381.
pub fn exposed(j: Option<&std::sync::Arc<Journal>>) -> Result<&Journal, MyError> {
    match j {
        Some(j) if j.exposed => Ok(j),
        _ => Err(not_logging()),
    }
}

/// SHOW BINARY LOGS rows: Log_name, File_size, Encrypted.
pub fn binary_logs(j: &Journal) -> Vec<Vec<Value>> {
    j.files()
        .into_iter()
        .map(|(name, size)| {
            vec![
                Value::from_string(name),
                Value::UInt(size),
                Value::str("No"),
            ]
        })
        .collect()
}

/// SHOW MASTER STATUS row: File, Position, Binlog_Do_DB, Binlog_Ignore_DB, Executed_Gtid_Set.
pub fn master_status(j: &Journal) -> Vec<Value> {
    let pos = j.position();
    vec![
        Value::from_string(j.file_name(pos.file)),
        Value::UInt(pos.offset),
        Value::str(""),
        Value::str(""),
        Value::str(""),
    ]
}

/// MySQL's name of an event type (SHOW BINLOG EVENTS' Event_type).
pub fn type_name(ty: u8) -> String {
    match ty {
        QUERY_EVENT => "Query".into(),
        STOP_EVENT => "Stop".into(),
        ROTATE_EVENT => "Rotate".into(),
        FORMAT_DESCRIPTION_EVENT => "Format_desc".into(),
        XID_EVENT => "Xid".into(),
        TABLE_MAP_EVENT => "Table_map".into(),
        WRITE_ROWS_EVENT_V1 => "Write_rows_v1".into(),
        UPDATE_ROWS_EVENT_V1 => "Update_rows_v1".into(),
        DELETE_ROWS_EVENT_V1 => "Delete_rows_v1".into(),
        IGNORABLE_EVENT => "Ignorable".into(),
        other => format!("Unknown({other})"),
    }
}

/// SHOW BINLOG EVENTS' Info column.
pub fn info(ev: &RawEvent) -> String {
    match ev.ty {
        FORMAT_DESCRIPTION_EVENT => format!(
            "Server ver: {}, Binlog ver: 4",
            decode::format_description(ev.body).unwrap_or_default()
        ),
        QUERY_EVENT => match decode::query(ev.body) {
            Ok(q) if q.db.is_empty() || q.query == "BEGIN" => q.query.to_string(),
            Ok(q) => format!("use `{}`; {}", q.db, q.query),
            Err(e) => e.to_string(),
        },
        XID_EVENT => format!("COMMIT /* xid={} */", decode::xid(ev.body).unwrap_or(0)),
        ROTATE_EVENT => match decode::rotate(ev.body) {
            Ok((pos, name)) => format!("{name};pos={pos}"),
            Err(e) => e.to_string(),
        },
        TABLE_MAP_EVENT => match decode::table_map(ev.body) {
            Ok(m) => format!("table_id: {} ({}.{})", m.table_id, m.db, m.table),
            Err(e) => e.to_string(),
        },
        t if decode::is_rows_event(t) => match decode::rows_event(t, ev.body) {
            Ok(r) if r.flags & STMT_END_F != 0 => {
                format!("table_id: {} flags: STMT_END_F", r.table_id)
            }
            Ok(r) => format!("table_id: {}", r.table_id),
            Err(e) => e.to_string(),
        },
        _ => String::new(),
    }
}

/// SHOW BINLOG EVENTS rows: Log_name, Pos, Event_type, Server_id, End_log_pos, Info.
pub fn binlog_events(
    j: &Journal,
    file: Option<&str>,
    from: u64,
    limit: Option<(u64, u64)>,
) -> Result<Vec<Vec<Value>>, MyError> {
    let seqs = j.index_seqs();
    let seq = match file {
        None => seqs.first().copied(),
        Some(name) => seqs.iter().copied().find(|s| j.file_name(*s) == name),
    }
    .ok_or_else(|| {
        MyError::new(
            code::ER_ERROR_WHEN_EXECUTING_COMMAND,
            "Error when executing command SHOW BINLOG EVENTS: Could not find target log",
        )
    })?;
    let name = j.file_name(seq);
    let mut data = std::fs::read(j.path_of(seq)).map_err(|e| {
        MyError::new(
            code::ER_ERROR_WHEN_EXECUTING_COMMAND,
            format!("Error when executing command SHOW BINLOG EVENTS: {e}"),
        )
    })?;
    // The active file: only what the writer has finished.
    let written = j.position();
    if written.file == seq {
        data.truncate(written.offset as usize);
    }
    let (skip, count) = limit.unwrap_or((0, u64::MAX));
    let mut rows = Vec::new();
    let events = Events::new(&data).map_err(|f| {
        MyError::new(
            code::ER_ERROR_WHEN_EXECUTING_COMMAND,
            format!("Error when executing command SHOW BINLOG EVENTS: {f}"),
        )
    })?;
    let mut found_start = from <= 4;
    for item in events {
        let ev = item.map_err(|(at, f)| {
            MyError::new(
                code::ER_ERROR_WHEN_EXECUTING_COMMAND,
                format!("Error when executing command SHOW BINLOG EVENTS: {f} at {at}"),
            )
        })?;
        if ev.offset < from {
            continue;
        }
        if !found_start && ev.offset != from {
            return Err(MyError::new(
                code::ER_ERROR_WHEN_EXECUTING_COMMAND,
                "Error when executing command SHOW BINLOG EVENTS: Wrong offset or I/O error",
            ));
        }
        found_start = true;
        rows.push(vec![
            Value::from_string(name.clone()),
            Value::UInt(ev.offset),
            Value::from_string(type_name(ev.ty)),
            Value::UInt(ev.server_id as u64),
            Value::UInt(ev.log_pos as u64),
            Value::from_string(info(&ev)),
        ]);
    }
    Ok(rows
        .into_iter()
        .skip(skip as usize)
        .take(count.min(usize::MAX as u64) as usize)
        .collect())
}
