//! SHOW statements and DESCRIBE: result sets built from the catalog, variables and sessions.
//!
//! Each SHOW builds its rows, then reuses the query executor for `LIKE` / `WHERE` filtering
//! (a `WHERE` is bound against the result's own column names, as MySQL does).

use super::admin::{Filter, Show};
use super::bind::{Binder, Scope, ScopeCol, ScopeSource};
use super::collation;
use super::convert;
use super::exec::{ExecCx, VecSink, XResult, run_select};
use super::expr::Env;
use super::plan::SelectPlan;
use super::types::{Charset, Collation, ColumnMeta, SqlType};
use super::utility::Outcome;
use super::value::{Row, Value};
use crate::config::sysvars;
use crate::error::{MyError, Result, code};
use crate::observe::logtable::LogTable;
use crate::session::Ctx;
use crate::storage::schema::{ColumnDefault, IndexKind, TableDef};
use crate::storage::table::Table;
use std::sync::Arc;

fn col(name: &str, ty: SqlType) -> (ColumnMeta, SqlType) {
    let mut m = ColumnMeta::for_type(&ty, true);
    m.name = name.to_string();
    m.org_name = name.to_string();
    (m, ty)
}

fn vc(name: &str, len: u32) -> (ColumnMeta, SqlType) {
    col(name, SqlType::varchar(len))
}

fn big(name: &str) -> (ColumnMeta, SqlType) {
    col(name, SqlType::BIGINT)
}

fn s(v: &str) -> Value {
    Value::str(v)
}

/// Build a result, applying a SHOW filter. `like_col`: the column LIKE matches.
fn result(
    ctx: &mut Ctx,
    cols: Vec<(ColumnMeta, SqlType)>,
    rows: Vec<Vec<Value>>,
    filter: &Filter,
    like_col: usize,
) -> XResult<Outcome> {
    result_with(
        ctx,
        cols,
        rows,
        filter,
        like_col,
        Collation::Utf8mb4GeneralCi,
    )
}

/// Like [`result`], with the collation LIKE matches under (database and table names are
/// case-sensitive: `lower_case_table_names=0`).
fn result_with(
    ctx: &mut Ctx,
    cols: Vec<(ColumnMeta, SqlType)>,
    rows: Vec<Vec<Value>>,
    filter: &Filter,
    like_col: usize,
    like_coll: Collation,
) -> XResult<Outcome> {
    let (columns, types): (Vec<ColumnMeta>, Vec<SqlType>) = cols.into_iter().unzip();
    let rows: Vec<Vec<Value>> = match filter {
        Filter::None => rows,
        Filter::Like(p) => rows
            .into_iter()
            .filter(|r| match r.get(like_col) {
                Some(v) => collation::like(&convert::to_bytes(v), p.as_bytes(), b'\\', like_coll),
                None => false,
            })
            .collect(),
        Filter::Where(e) => {
            let scope = Scope {
                sources: vec![ScopeSource {
                    qualified_only: false,
                    using: Default::default(),
                    pk: Vec::new(),
                    alias: String::new(),
                    db: String::new(),
                    table: String::new(),
                    columns: columns
                        .iter()
                        .zip(&types)
                        .map(|(m, t)| ScopeCol {
                            name: m.name.clone(),
                            ty: t.clone(),
                            nullable: true,
                            flags: 0,
                            utc: false,
                        })
                        .collect(),
                }],
                unreachable: Vec::new(),
            };
            let mut b = Binder::new(&scope, &[]);
            b.context = "where clause";
            let cond = b.bind(e)?.expr;
            let rows: Vec<Row> = rows.into_iter().map(Arc::from).collect();
            let mut plan = SelectPlan::of_rows(columns.clone(), types.clone(), rows);
            plan.filter = Some(cond);
            let view = ctx.stmt_view;
            let mut sink = VecSink::default();
            let mut cx = ExecCx {
                env: Env { params: &[], ctx },
                txn: None,
                view,
                rows_examined: 0,
            };
            run_select(&plan, &mut cx, &mut sink)?;
            sink.rows
        }
    };
    Ok(Outcome::Rows {
        columns,
        types,
        rows,
    })
}

pub fn resolve_db(ctx: &Ctx, db: Option<&str>) -> Result<String> {
    match db.map(str::to_string).or_else(|| ctx.db.clone()) {
        Some(d) => {
            if ctx.server.storage.catalog.database(&d).is_none() {
                return Err(MyError::bad_db(&d));
            }
            Ok(d)
        }
        None => Err(MyError::no_db()),
    }
}

pub fn resolve_table(ctx: &Ctx, db: Option<&str>, name: &str) -> Result<Arc<Table>> {
    let d = match db.map(str::to_string).or_else(|| ctx.db.clone()) {
        Some(d) => d,
        None => return Err(MyError::no_db()),
    };
    if let Some(log) = crate::observe::logtable::LogTable::named(&d, name) {
        // The definition only (SHOW CREATE TABLE, DESCRIBE): reads go through the planner.
        return Ok(Arc::new(Table::new(log.def())));
    }
    if let Some(t) = ctx.temp_table(&d, name) {
        return Ok(t);
    }
    ctx.server
        .storage
        .catalog
        .table(&d, name)
        .ok_or_else(|| MyError::no_such_table(&d, name))
}

/// The table, or the view as a table of its columns (DESCRIBE, SHOW COLUMNS).
pub fn table_or_view(ctx: &Ctx, db: Option<&str>, name: &str) -> Result<Arc<Table>> {
    let view = resolve_db(ctx, db)
        .ok()
        .and_then(|d| ctx.server.storage.catalog.view(&d, name));
    match view {
        Some(v) => super::view::as_table(ctx, &v),
        None => resolve_table(ctx, db, name),
    }
}

/// `int NOT NULL DEFAULT '0'` as SHOW CREATE TABLE prints a column (MySQL 8 style).
fn default_text(d: &ColumnDefault, ty: &SqlType) -> Option<String> {
    match d {
        ColumnDefault::None => None,
        ColumnDefault::Null => Some("NULL".into()),
        ColumnDefault::CurrentTimestamp(fsp) => Some(if *fsp > 0 {
            format!("CURRENT_TIMESTAMP({fsp})")
        } else {
            "CURRENT_TIMESTAMP".into()
        }),
        ColumnDefault::Value(v) => {
            let mut out = Vec::new();
            convert::to_text(v, ty, &mut out);
            Some(format!(
                "'{}'",
                String::from_utf8_lossy(&out).replace('\'', "''")
            ))
        }
    }
}

/// information_schema.COLUMNS' COLUMN_DEFAULT.
pub(crate) fn default_text_value(d: &ColumnDefault, ty: &SqlType) -> Value {
    default_text(d, ty).map_or(Value::Null, Value::from_string)
}

fn default_value_cell(d: &ColumnDefault, ty: &SqlType) -> Value {
    match d {
        ColumnDefault::None | ColumnDefault::Null => Value::Null,
        ColumnDefault::CurrentTimestamp(fsp) => s(&if *fsp > 0 {
            format!("CURRENT_TIMESTAMP({fsp})")
        } else {
            "CURRENT_TIMESTAMP".into()
        }),
        ColumnDefault::Value(v) => {
            let mut out = Vec::new();
            convert::to_text(v, ty, &mut out);
            Value::from_vec(out)
        }
    }
}

pub fn quote_ident(s: &str) -> String {
    format!("`{}`", s.replace('`', "``"))
}

/// The CREATE TABLE statement that recreates `def` (MySQL 8.0's SHOW CREATE TABLE format).
/// `CONSTRAINT `n` FOREIGN KEY (…) REFERENCES [`db`.]`p` (…) [ON DELETE …] [ON UPDATE …]`
/// as MySQL 8.0 prints it (NO ACTION, the default, is left out).
pub fn foreign_key_sql(db: &str, fk: &crate::storage::schema::ForeignKeyDef) -> String {
    use crate::storage::schema::FkAction;
    let cols = |c: &[String]| {
        c.iter()
            .map(|n| quote_ident(n))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let parent = if fk.parent_db == db {
        quote_ident(&fk.parent_table)
    } else {
        format!(
            "{}.{}",
            quote_ident(&fk.parent_db),
            quote_ident(&fk.parent_table)
        )
    };
    let mut s = format!(
        "CONSTRAINT {} FOREIGN KEY ({}) REFERENCES {parent} ({})",
        quote_ident(&fk.name),
        cols(&fk.columns),
        cols(&fk.parent_columns)
    );
    if fk.on_delete != FkAction::NoAction {
        s.push_str(&format!(" ON DELETE {}", fk.on_delete.sql()));
    }
    if fk.on_update != FkAction::NoAction {
        s.push_str(&format!(" ON UPDATE {}", fk.on_update.sql()));
    }
    s
}

pub fn create_table_sql(def: &TableDef, auto_inc_next: u64) -> String {
    let mut lines = Vec::new();
    for c in &def.columns {
        let mut l = format!("  {} {}", quote_ident(&c.name), c.ty.sql_name());
        if c.ty.is_string() && !c.ty.collation().is_binary() && !matches!(c.ty, SqlType::Json) {
            let coll = c.ty.collation();
            if coll != def.collation {
                if coll.charset() != def.charset {
                    l.push_str(&format!(" CHARACTER SET {}", coll.charset().name()));
                }
                l.push_str(&format!(" COLLATE {}", coll.name()));
            }
        }
        if !c.nullable {
            l.push_str(" NOT NULL");
        } else if matches!(c.ty, SqlType::Timestamp { .. }) {
            l.push_str(" NULL");
        }
        if let Some(d) = default_text(&c.default, &c.ty)
            && !(c.nullable && matches!(c.default, ColumnDefault::Null) && c.ty.is_blob_like())
        {
            l.push_str(&format!(" DEFAULT {d}"));
        }
        if c.on_update_now {
            let fsp = c.ty.decimals();
            l.push_str(&if fsp > 0 {
                format!(" ON UPDATE CURRENT_TIMESTAMP({fsp})")
            } else {
                " ON UPDATE CURRENT_TIMESTAMP".into()
            });
        }
        if c.auto_increment {
            l.push_str(" AUTO_INCREMENT");
        }
        if !c.comment.is_empty() {
            l.push_str(&format!(" COMMENT '{}'", c.comment.replace('\'', "''")));
        }
        lines.push(l);
    }
    let key_cols = |idx: &crate::storage::schema::IndexDef| {
        idx.columns
            .iter()
            .map(|ic| {
                let mut s = quote_ident(&def.columns[ic.col].name);
                if let Some(p) = ic.prefix {
                    s.push_str(&format!("({p})"));
                }
                if ic.desc {
                    s.push_str(" DESC");
                }
                s
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    if let Some(pk) = &def.primary {
        lines.push(format!("  PRIMARY KEY ({})", key_cols(pk)));
    }
    for idx in &def.indexes {
        let kind = if idx.kind == IndexKind::Unique {
            "UNIQUE KEY"
        } else {
            "KEY"
        };
        let mut l = format!("  {kind} {} ({})", quote_ident(&idx.name), key_cols(idx));
        if !idx.comment.is_empty() {
            l.push_str(&format!(" COMMENT '{}'", idx.comment.replace('\'', "''")));
        }
        lines.push(l);
    }
    for fk in &def.foreign_keys {
        lines.push(format!("  {}", foreign_key_sql(&def.db, fk)));
    }
    let mut s = format!(
        "CREATE TABLE {} (\n{}\n) ENGINE={}",
        quote_ident(&def.name),
        lines.join(",\n"),
        def.engine
    );
    if def.auto_increment_column().is_some() && auto_inc_next > 1 {
        s.push_str(&format!(" AUTO_INCREMENT={auto_inc_next}"));
    }
    s.push_str(&format!(
        " DEFAULT CHARSET={} COLLATE={}",
        def.charset.name(),
        def.collation.name()
    ));
    if !def.comment.is_empty() {
        s.push_str(&format!(" COMMENT='{}'", def.comment.replace('\'', "''")));
    }
    s
}

/// SHOW TABLE STATUS' columns from Engine to Comment (also information_schema.TABLES'):
/// rows and lengths are estimates (100 bytes a row), times unknown.
pub(crate) fn table_status(t: &Table) -> Vec<Value> {
    let rows = t.row_count();
    vec![
        s(&t.def.engine),
        Value::Int(10),
        s("Dynamic"),
        Value::UInt(rows),
        Value::UInt(if rows > 0 { 100 } else { 0 }),
        Value::UInt(rows * 100),
        Value::UInt(0),
        Value::UInt(0),
        Value::UInt(0),
        if t.def.auto_increment_column().is_some() {
            Value::UInt(t.peek_auto_inc())
        } else {
            Value::Null
        },
        Value::Null,
        Value::Null,
        Value::Null,
        s(t.def.collation.name()),
        Value::Null,
        s(""),
        s(&t.def.comment),
    ]
}

/// SHOW INDEX's rows (also information_schema.STATISTICS'): one per index column.
pub(crate) fn index_rows(t: &Table) -> Vec<Vec<Value>> {
    let def = &t.def;
    let mut rows = Vec::new();
    for idx in def.all_indexes() {
        for (i, ic) in idx.columns.iter().enumerate() {
            let Some(c) = def.columns.get(ic.col) else {
                continue;
            };
            rows.push(vec![
                s(&def.name),
                Value::Int(!idx.is_unique() as i64),
                s(&idx.name),
                Value::Int(i as i64 + 1),
                s(&c.name),
                s(if ic.desc { "D" } else { "A" }),
                Value::UInt(t.row_count()),
                ic.prefix
                    .map(|p| Value::Int(p as i64))
                    .unwrap_or(Value::Null),
                Value::Null,
                s(if c.nullable { "YES" } else { "" }),
                s("BTREE"),
                s(""),
                s(&idx.comment),
                s("YES"),
                Value::Null,
            ]);
        }
    }
    rows
}

pub(crate) fn key_of(def: &TableDef, ci: usize) -> &'static str {
    let (pri, uni, mul) = def.is_key_column(ci);
    if pri {
        "PRI"
    } else if uni {
        "UNI"
    } else if mul {
        "MUL"
    } else {
        ""
    }
}

pub(crate) fn extra_of(c: &crate::storage::schema::ColumnDef) -> String {
    let mut e = Vec::new();
    if c.auto_increment {
        e.push("auto_increment".to_string());
    }
    if matches!(c.default, ColumnDefault::CurrentTimestamp(_)) {
        e.push("DEFAULT_GENERATED".to_string());
    }
    if c.on_update_now {
        e.push("on update CURRENT_TIMESTAMP".to_string());
    }
    e.join(" ")
}

pub fn columns(ctx: &mut Ctx, table: &Table, full: bool, filter: &Filter) -> XResult<Outcome> {
    let def = &table.def;
    let mut cols = vec![vc("Field", 64), vc("Type", 64)];
    if full {
        cols.push(vc("Collation", 64));
    }
    cols.extend([
        vc("Null", 3),
        vc("Key", 3),
        vc("Default", 64),
        vc("Extra", 64),
    ]);
    if full {
        cols.extend([vc("Privileges", 80), vc("Comment", 1024)]);
    }
    let rows = def
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut r = vec![s(&c.name), s(&c.ty.sql_name())];
            if full {
                r.push(if c.ty.is_string() && !c.ty.collation().is_binary() {
                    s(c.ty.collation().name())
                } else {
                    Value::Null
                });
            }
            r.extend([
                s(if c.nullable { "YES" } else { "NO" }),
                s(key_of(def, i)),
                default_value_cell(&c.default, &c.ty),
                s(&extra_of(c)),
            ]);
            if full {
                r.extend([s("select,insert,update,references"), s(&c.comment)]);
            }
            r
        })
        .collect();
    result(ctx, cols, rows, filter, 0)
}

fn decimal(precision: u8, scale: u8) -> SqlType {
    SqlType::Decimal {
        precision,
        scale,
        unsigned: false,
    }
}

/// `ns` nanoseconds as seconds with `scale` decimals (truncated, as MySQL shows them).
pub(crate) fn seconds(ns: i64, scale: u32) -> Value {
    let unit = 10i64.pow(9u32.saturating_sub(scale));
    Value::Decimal(Box::new(bigdecimal::BigDecimal::new(
        (ns / unit).into(),
        i64::from(scale),
    )))
}

/// SHOW PROFILE: the stages of one profiled statement (the latest by default), with the
/// column groups asked for (see `session::profile`).
fn profile(
    ctx: &mut Ctx,
    types: u32,
    query: Option<u64>,
    limit: Option<u64>,
    offset: u64,
) -> XResult<Outcome> {
    use crate::sql::admin::profile_type::*;
    let mut cols = vec![vc("Status", 30), col("Duration", decimal(9, 6))];
    let on = |t: u32| types & t != 0;
    let ints = |cols: &mut Vec<_>, names: &[&str]| {
        for n in names {
            cols.push(big(n));
        }
    };
    if on(CPU) {
        cols.push(col("CPU_user", decimal(9, 6)));
        cols.push(col("CPU_system", decimal(9, 6)));
    }
    if on(CONTEXT_SWITCHES) {
        ints(&mut cols, &["Context_voluntary", "Context_involuntary"]);
    }
    if on(BLOCK_IO) {
        ints(&mut cols, &["Block_ops_in", "Block_ops_out"]);
    }
    if on(IPC) {
        ints(&mut cols, &["Messages_sent", "Messages_received"]);
    }
    if on(PAGE_FAULTS) {
        ints(&mut cols, &["Page_faults_major", "Page_faults_minor"]);
    }
    if on(SWAPS) {
        ints(&mut cols, &["Swaps"]);
    }
    if on(SOURCE) {
        cols.push(vc("Source_function", 30));
        cols.push(vc("Source_file", 20));
        cols.push(big("Source_line"));
    }
    let history = &ctx.profiler.history;
    let chosen = match query {
        Some(id) => history.iter().find(|p| p.id == id),
        None => history.back(),
    };
    let mut rows = Vec::new();
    if let Some(p) = chosen {
        for (mark, us, used) in p.stage_micros() {
            let mut row = vec![s(mark.stage.name()), seconds(us * 1000, 6)];
            if on(CPU) {
                row.push(seconds(used.user_us * 1000, 6));
                row.push(seconds(used.system_us * 1000, 6));
            }
            let mut int = |v: i64| row.push(Value::Int(v));
            if on(CONTEXT_SWITCHES) {
                int(used.voluntary);
                int(used.involuntary);
            }
            if on(BLOCK_IO) {
                int(used.block_in);
                int(used.block_out);
            }
            if on(IPC) {
                int(used.msg_sent);
                int(used.msg_received);
            }
            if on(PAGE_FAULTS) {
                int(used.faults_major);
                int(used.faults_minor);
            }
            if on(SWAPS) {
                int(used.swaps);
            }
            if on(SOURCE) {
                let file = mark.source.file();
                let base = file.rsplit('/').next().unwrap_or(file);
                row.push(s("<unknown>"));
                row.push(s(base));
                row.push(Value::UInt(u64::from(mark.source.line())));
            }
            rows.push(row);
        }
    }
    let rows: Vec<Vec<Value>> = rows
        .into_iter()
        .skip(offset as usize)
        .take(limit.map_or(usize::MAX, |l| l as usize))
        .collect();
    result(ctx, cols, rows, &Filter::None, 0)
}

/// `SHOW [GLOBAL|SESSION] VARIABLES` rows (name, value): the session's values unless
/// `global`.
pub fn variable_rows(ctx: &Ctx, global: bool) -> Vec<Vec<Value>> {
    sysvars::names()
        .map(|(name, id)| {
            let v = match (global, ctx.vars.get(id)) {
                (false, Some(v)) => v.clone(),
                _ => ctx.server.globals.get(id),
            };
            vec![s(name), s(&sysvars::display(id, &v))]
        })
        .collect()
}

/// SHOW CREATE VIEW's row: the view, its CREATE statement, the character set and collation
/// it was made under (Quire's connection defaults).
fn show_create_view(ctx: &mut Ctx, v: &crate::storage::schema::ViewDef) -> XResult<Outcome> {
    let sql = super::view::create_sql(v, false);
    let rows = vec![vec![
        s(&v.name),
        Value::from_string(sql),
        s("utf8mb4"),
        s("utf8mb4_0900_ai_ci"),
    ]];
    result(
        ctx,
        vec![
            vc("View", 64),
            vc("Create View", 1024),
            vc("character_set_client", 32),
            vc("collation_connection", 32),
        ],
        rows,
        &Filter::None,
        0,
    )
}

pub fn run(ctx: &mut Ctx, show: &Show) -> XResult<Outcome> {
    match show {
        Show::Variables { global, filter } => {
            let rows = variable_rows(ctx, *global);
            result(
                ctx,
                vec![vc("Variable_name", 64), vc("Value", 1024)],
                rows,
                filter,
                0,
            )
        }
        Show::Status { global, filter } => {
            let rows = super::utility::status_rows(ctx, *global);
            result(
                ctx,
                vec![vc("Variable_name", 64), vc("Value", 1024)],
                rows,
                filter,
                0,
            )
        }
        Show::Databases { filter } => {
            let rows = ctx
                .server
                .storage
                .catalog
                .database_names()
                .into_iter()
                .map(|d| vec![Value::from_string(d)])
                .collect();
            let header = match filter {
                Filter::Like(p) => format!("Database ({p})"),
                _ => "Database".to_string(),
            };
            result_with(
                ctx,
                vec![vc(&header, 64)],
                rows,
                filter,
                0,
                Collation::Binary,
            )
        }
        Show::Tables { full, db, filter } => {
            let d = resolve_db(ctx, db.as_deref())?;
            let names: Vec<(String, &str)> = match super::sysschema::table_names(&d) {
                Some((names, kind)) => names.iter().map(|n| (n.to_string(), kind)).collect(),
                None => {
                    let db = ctx.server.storage.catalog.database(&d);
                    let mut names: Vec<(String, &str)> = db
                        .as_ref()
                        .map(|x| x.table_names())
                        .unwrap_or_default()
                        .into_iter()
                        .map(|n| (n, "BASE TABLE"))
                        .collect();
                    if let Some(db) = &db {
                        names.extend(db.view_names().into_iter().map(|n| (n, "VIEW")));
                    }
                    if d.eq_ignore_ascii_case("mysql") {
                        names.extend(
                            LogTable::ALL
                                .iter()
                                .map(|t| (t.name().to_string(), "BASE TABLE")),
                        );
                    }
                    names.sort();
                    names
                }
            };
            let header = match filter {
                Filter::Like(p) => format!("Tables_in_{d} ({p})"),
                _ => format!("Tables_in_{d}"),
            };
            let mut cols = vec![vc(&header, 64)];
            if *full {
                cols.push(vc("Table_type", 64));
            }
            let rows = names
                .into_iter()
                .map(|(n, kind)| {
                    let mut r = vec![Value::from_string(n)];
                    if *full {
                        r.push(s(kind));
                    }
                    r
                })
                .collect();
            result_with(ctx, cols, rows, filter, 0, Collation::Binary)
        }
        Show::TableStatus { db, filter } => {
            let d = resolve_db(ctx, db.as_deref())?;
            let tables: Vec<Arc<Table>> = ctx
                .server
                .storage
                .catalog
                .database(&d)
                .map(|x| x.tables.read().values().cloned().collect())
                .unwrap_or_default();
            let cols = vec![
                vc("Name", 64),
                vc("Engine", 64),
                big("Version"),
                vc("Row_format", 10),
                big("Rows"),
                big("Avg_row_length"),
                big("Data_length"),
                big("Max_data_length"),
                big("Index_length"),
                big("Data_free"),
                big("Auto_increment"),
                col("Create_time", SqlType::DateTime { fsp: 0 }),
                col("Update_time", SqlType::DateTime { fsp: 0 }),
                col("Check_time", SqlType::DateTime { fsp: 0 }),
                vc("Collation", 64),
                big("Checksum"),
                vc("Create_options", 256),
                vc("Comment", 2048),
            ];
            let rows = tables
                .iter()
                .map(|t| {
                    let mut r = vec![s(t.name())];
                    r.extend(table_status(t));
                    r
                })
                .collect();
            result(ctx, cols, rows, filter, 0)
        }
        Show::Columns {
            full,
            table,
            filter,
        } => {
            let t = table_or_view(ctx, table.0.as_deref(), &table.1)?;
            columns(ctx, &t, *full, filter)
        }
        Show::Index { table, filter } => {
            let t = resolve_table(ctx, table.0.as_deref(), &table.1)?;
            let cols = vec![
                vc("Table", 64),
                big("Non_unique"),
                vc("Key_name", 64),
                big("Seq_in_index"),
                vc("Column_name", 64),
                vc("Collation", 1),
                big("Cardinality"),
                big("Sub_part"),
                vc("Packed", 10),
                vc("Null", 3),
                vc("Index_type", 16),
                vc("Comment", 16),
                vc("Index_comment", 1024),
                vc("Visible", 3),
                vc("Expression", 64),
            ];
            let rows = index_rows(&t);
            result(ctx, cols, rows, filter, 2)
        }
        Show::CreateView((db, name)) => {
            let d = resolve_db(ctx, db.as_deref())?;
            match ctx.server.storage.catalog.view(&d, name) {
                Some(v) => show_create_view(ctx, &v),
                None => {
                    resolve_table(ctx, db.as_deref(), name)?;
                    Err(
                        MyError::new(code::ER_WRONG_OBJECT, format!("'{d}.{name}' is not VIEW"))
                            .into(),
                    )
                }
            }
        }
        Show::CreateTable((db, name)) => {
            // SHOW CREATE TABLE of a view shows the view (as MySQL).
            if let Ok(d) = resolve_db(ctx, db.as_deref())
                && let Some(v) = ctx.server.storage.catalog.view(&d, name)
            {
                return show_create_view(ctx, &v);
            }
            let t = resolve_table(ctx, db.as_deref(), name)?;
            let mut sql = create_table_sql(&t.def, t.peek_auto_inc());
            if t.temporary {
                sql.replace_range(.."CREATE".len(), "CREATE TEMPORARY");
            }
            let rows = vec![vec![s(t.name()), Value::from_string(sql)]];
            result(
                ctx,
                vec![vc("Table", 64), vc("Create Table", 1024)],
                rows,
                &Filter::None,
                0,
            )
        }
        Show::CreateDatabase { if_not_exists, db } => {
            let Some(d) = ctx.server.storage.catalog.database(db) else {
                return Err(MyError::bad_db(db).into());
            };
            let ine = if *if_not_exists {
                "/*!32312 IF NOT EXISTS*/ "
            } else {
                ""
            };
            let sql = format!(
                "CREATE DATABASE {ine}{} /*!40100 DEFAULT CHARACTER SET {} COLLATE {} */ /*!80016 DEFAULT ENCRYPTION='N' */",
                quote_ident(db),
                d.charset.name(),
                d.collation.name()
            );
            result(
                ctx,
                vec![vc("Database", 64), vc("Create Database", 1024)],
                vec![vec![s(db), Value::from_string(sql)]],
                &Filter::None,
                0,
            )
        }
        Show::CreateUser { user, host } => {
            let acct = ctx
                .server
                .accounts
                .read()
                .iter()
                .find(|a| a.user == *user && a.host == *host)
                .cloned();
            let Some(a) = acct else {
                return Err(MyError::new(
                    code::ER_CANNOT_USER,
                    format!("Operation SHOW CREATE USER failed for '{user}'@'{host}'"),
                )
                .into());
            };
            let sql = format!(
                "CREATE USER '{}'@'{}' IDENTIFIED WITH '{}'",
                a.user,
                a.host,
                a.plugin.name()
            );
            result(
                ctx,
                vec![vc(&format!("CREATE USER for {user}@{host}"), 1024)],
                vec![vec![Value::from_string(sql)]],
                &Filter::None,
                0,
            )
        }
        Show::Warnings {
            errors_only,
            count,
            limit,
        } => {
            let list: Vec<&crate::error::Warning> = ctx
                .diag
                .list
                .iter()
                .filter(|w| !*errors_only || w.level == crate::error::Level::Error)
                .collect();
            if *count {
                let n = if *errors_only {
                    list.len() as i64
                } else {
                    ctx.diag.total as i64
                };
                let name = if *errors_only {
                    "@@session.error_count"
                } else {
                    "@@session.warning_count"
                };
                return Ok(Outcome::Rows {
                    columns: vec![ColumnMeta::expr(name, &SqlType::BIGINT, false)],
                    types: vec![SqlType::BIGINT],
                    rows: vec![vec![Value::Int(n)]],
                });
            }
            let (off, lim) = limit.unwrap_or((0, u64::MAX));
            let rows = list
                .into_iter()
                .skip(off as usize)
                .take(lim.min(usize::MAX as u64) as usize)
                .map(|w| vec![s(w.level.name()), Value::UInt(w.code as u64), s(&w.message)])
                .collect();
            result(
                ctx,
                vec![
                    vc("Level", 7),
                    col(
                        "Code",
                        SqlType::Int {
                            width: crate::sql::types::IntWidth::Int,
                            unsigned: true,
                            zerofill: false,
                            display: Some(4),
                        },
                    ),
                    vc("Message", 512),
                ],
                rows,
                &Filter::None,
                0,
            )
        }
        Show::Engines => {
            let rows = engine_rows();
            result(
                ctx,
                vec![
                    vc("Engine", 64),
                    vc("Support", 8),
                    vc("Comment", 80),
                    vc("Transactions", 3),
                    vc("XA", 3),
                    vc("Savepoints", 3),
                ],
                rows,
                &Filter::None,
                0,
            )
        }
        Show::Charset { filter } => {
            let rows = Charset::ALL
                .iter()
                .map(|c| {
                    vec![
                        s(c.name()),
                        s(c.description()),
                        s(c.default_collation().name()),
                        Value::UInt(c.max_len() as u64),
                    ]
                })
                .collect();
            result(
                ctx,
                vec![
                    vc("Charset", 64),
                    vc("Description", 2048),
                    vc("Default collation", 64),
                    big("Maxlen"),
                ],
                rows,
                filter,
                0,
            )
        }
        Show::Collation { filter } => {
            let rows = collation_rows();
            result(
                ctx,
                vec![
                    vc("Collation", 64),
                    vc("Charset", 64),
                    big("Id"),
                    vc("Default", 3),
                    vc("Compiled", 3),
                    big("Sortlen"),
                    vc("Pad_attribute", 9),
                ],
                rows,
                filter,
                0,
            )
        }
        Show::Processlist { full } => {
            let rows = super::utility::processlist_rows(ctx, *full);
            result(
                ctx,
                vec![
                    big("Id"),
                    vc("User", 32),
                    vc("Host", 261),
                    vc("db", 64),
                    vc("Command", 16),
                    big("Time"),
                    vc("State", 64),
                    vc("Info", 65535),
                ],
                rows,
                &Filter::None,
                0,
            )
        }
        Show::Grants { user } => {
            let (u, h) = match user {
                Some((u, h)) if u != "\u{0}current" => (u.clone(), h.clone()),
                _ => (ctx.priv_user.clone(), ctx.priv_host.clone()),
            };
            let g = format!("GRANT ALL PRIVILEGES ON *.* TO `{u}`@`{h}` WITH GRANT OPTION");
            result(
                ctx,
                vec![vc(&format!("Grants for {u}@{h}"), 1024)],
                vec![vec![Value::from_string(g)]],
                &Filter::None,
                0,
            )
        }
        Show::Privileges => result(
            ctx,
            vec![vc("Privilege", 64), vc("Context", 64), vc("Comment", 64)],
            vec![vec![
                s("All"),
                s("Server Admin"),
                s("Quire has no privilege system: every account has every privilege"),
            ]],
            &Filter::None,
            0,
        ),
        Show::Plugins => result(
            ctx,
            vec![
                vc("Name", 64),
                vc("Status", 10),
                vc("Type", 80),
                vc("Library", 64),
                vc("License", 80),
            ],
            vec![
                vec![
                    s("mysql_native_password"),
                    s("ACTIVE"),
                    s("AUTHENTICATION"),
                    Value::Null,
                    s("GPL"),
                ],
                vec![
                    s("caching_sha2_password"),
                    s("ACTIVE"),
                    s("AUTHENTICATION"),
                    Value::Null,
                    s("GPL"),
                ],
                vec![
                    s("InnoDB"),
                    s("ACTIVE"),
                    s("STORAGE ENGINE"),
                    Value::Null,
                    s("GPL"),
                ],
            ],
            &Filter::None,
            0,
        ),
        Show::OpenTables
        | Show::Triggers
        | Show::Events
        | Show::ProcedureStatus
        | Show::FunctionStatus => {
            let cols = match show {
                Show::OpenTables => vec![
                    vc("Database", 64),
                    vc("Table", 64),
                    big("In_use"),
                    big("Name_locked"),
                ],
                _ => vec![vc("Db", 64), vc("Name", 64), vc("Type", 9)],
            };
            result(ctx, cols, Vec::new(), &Filter::None, 0)
        }
        Show::Profiles => {
            let cols = vec![
                big("Query_ID"),
                col("Duration", decimal(9, 8)),
                vc("Query", 1024),
            ];
            let rows = ctx
                .profiler
                .history
                .iter()
                .map(|p| {
                    vec![
                        Value::UInt(p.id),
                        seconds(p.duration_ns(), 8),
                        Value::str(&p.query),
                    ]
                })
                .collect();
            result(ctx, cols, rows, &Filter::None, 0)
        }
        Show::Profile {
            types,
            query,
            limit,
            offset,
        } => profile(ctx, *types, *query, *limit, *offset),
        Show::MasterStatus => {
            let cols = vec![
                vc("File", 512),
                big("Position"),
                vc("Binlog_Do_DB", 255),
                vc("Binlog_Ignore_DB", 255),
                vc("Executed_Gtid_Set", 255),
            ];
            let rows = match ctx.server.journal.get() {
                Some(j) if j.exposed => vec![crate::journal::sqlview::master_status(j)],
                _ => Vec::new(),
            };
            result(ctx, cols, rows, &Filter::None, 0)
        }
        Show::BinaryLogs => {
            let server = ctx.server.clone();
            let j = crate::journal::sqlview::exposed(server.journal.get())?;
            let cols = vec![vc("Log_name", 512), big("File_size"), vc("Encrypted", 3)];
            let rows = crate::journal::sqlview::binary_logs(j);
            result(ctx, cols, rows, &Filter::None, 0)
        }
        Show::BinlogEvents { file, from, limit } => {
            let server = ctx.server.clone();
            let j = crate::journal::sqlview::exposed(server.journal.get())?;
            let cols = vec![
                vc("Log_name", 512),
                big("Pos"),
                vc("Event_type", 64),
                big("Server_id"),
                big("End_log_pos"),
                vc("Info", 1024),
            ];
            let rows = crate::journal::sqlview::binlog_events(j, file.as_deref(), *from, *limit)?;
            result(ctx, cols, rows, &Filter::None, 0)
        }
        Show::EngineStatus(_) => Err(MyError::not_supported("SHOW ENGINE … STATUS").into()),
    }
}

/// SHOW ENGINES' rows (also information_schema.ENGINES').
pub(crate) fn engine_rows() -> Vec<Vec<Value>> {
    vec![
        vec![
            s("InnoDB"),
            s("DEFAULT"),
            s("Quire's in-memory MVCC engine (all tables)"),
            s("YES"),
            s("NO"),
            s("YES"),
        ],
        vec![
            s("MEMORY"),
            s("YES"),
            s("Accepted as a synonym of InnoDB"),
            s("NO"),
            s("NO"),
            s("NO"),
        ],
    ]
}

/// SHOW COLLATION's rows (also information_schema.COLLATIONS').
pub(crate) fn collation_rows() -> Vec<Vec<Value>> {
    Collation::ALL
        .iter()
        .map(|c| {
            vec![
                s(c.name()),
                s(c.charset().name()),
                Value::UInt(c.id() as u64),
                s(if c.charset().default_collation() == *c {
                    "Yes"
                } else {
                    ""
                }),
                s("Yes"),
                Value::UInt(1),
                s(if c.pad_space() { "PAD SPACE" } else { "NO PAD" }),
            ]
        })
        .collect()
}
