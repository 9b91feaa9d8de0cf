//! Statements that are interpreted rather than planned: SET, USE, SHOW, KILL, accounts,
//! maintenance. (Transactions and DDL, which wait, are driven by the session.)

use super::admin::{AdminStmt, Maintenance, UserSpec};
use super::bind::{Binder, Scope};
use super::exec::{ExecCx, XResult};
use super::expr::Env;
use super::planner::Planner;
use super::types::{ColumnMeta, SqlType};
use super::value::Value;
use crate::config::{VarScope, sysvars, vars};
use crate::error::{Level, MyError, Result, code};
use crate::observe::status;
use crate::server::{KILL_CONNECTION, KILL_QUERY, account};
use crate::session::Ctx;
use crate::wire::auth::{AuthPlugin, credentials_from_password};
use sqlparser::ast;
use std::sync::atomic::Ordering;

/// What a statement produced.
pub enum Outcome {
    Ok {
        affected: u64,
        last_insert_id: u64,
        info: Option<String>,
    },
    Rows {
        columns: Vec<ColumnMeta>,
        types: Vec<SqlType>,
        rows: Vec<Vec<Value>>,
    },
}

impl Outcome {
    pub fn ok() -> Outcome {
        Outcome::Ok {
            affected: 0,
            last_insert_id: 0,
            info: None,
        }
    }
}

/// Evaluate a constant expression (no tables) in the session.
pub fn eval_const(ctx: &mut Ctx, e: &ast::Expr) -> Result<Value> {
    let scope = Scope::default();
    let storage = ctx.server.storage.clone();
    let db = ctx.db.clone();
    let mut planner = Planner::new(&storage, db.as_deref(), "");
    planner.conn_coll = ctx.conn_coll;
    let mut b = Binder::new(&scope, &[]);
    b.planner = Some(&planner);
    let t = b.bind(e)?;
    let mut env = Env { params: &[], ctx };
    t.expr.eval(&[], &mut env)
}

fn is_bare_word(e: &ast::Expr) -> Option<String> {
    match e {
        ast::Expr::Identifier(i) if i.quote_style.is_none() && !i.value.starts_with('@') => {
            Some(i.value.clone())
        }
        // ON is a keyword sqlparser may parse as a boolean-ish identifier; TRUE/FALSE are values.
        _ => None,
    }
}

/// One `SET` assignment target.
enum Target {
    User(String),
    Sys { name: String, global: bool },
}

fn target_of(parts: &[String], scope: Option<&ast::ContextModifier>) -> Target {
    let scope_global = matches!(scope, Some(ast::ContextModifier::Global));
    match parts {
        [one] => {
            if let Some(v) = one.strip_prefix("@@") {
                Target::Sys {
                    name: v.to_string(),
                    global: scope_global,
                }
            } else if let Some(v) = one.strip_prefix('@') {
                Target::User(v.to_ascii_lowercase())
            } else {
                Target::Sys {
                    name: one.clone(),
                    global: scope_global,
                }
            }
        }
        [s, name] if s.starts_with("@@") => {
            let g = s[2..].eq_ignore_ascii_case("global");
            Target::Sys {
                name: name.clone(),
                global: g,
            }
        }
        [s, name]
            if s.eq_ignore_ascii_case("global")
                || s.eq_ignore_ascii_case("session")
                || s.eq_ignore_ascii_case("local") =>
        {
            Target::Sys {
                name: name.clone(),
                global: s.eq_ignore_ascii_case("global"),
            }
        }
        other => Target::User(other.join(".").trim_start_matches('@').to_ascii_lowercase()),
    }
}

/// Assign one system variable, validating as MySQL does (`None`: DEFAULT).
pub fn set_sysvar(ctx: &mut Ctx, name: &str, global: bool, value: Option<Value>) -> Result<()> {
    let id = sysvars::find(name).ok_or_else(|| MyError::unknown_sysvar(name))?;
    if id == vars::LAST_INSERT_ID {
        let mut d = crate::error::Diagnostics::default();
        ctx.last_insert_id = value
            .as_ref()
            .and_then(|v| super::convert::to_u64(v, &mut d))
            .unwrap_or(0);
        return Ok(());
    }
    if (id == vars::TRANSACTION_ISOLATION || id == vars::TRANSACTION_READ_ONLY)
        && !global
        && ctx
            .txn
            .as_ref()
            .is_some_and(|t| t.explicit && (t.has_writes() || t.snapshot.is_some()))
    {
        return Err(MyError::new(
            1568,
            "Transaction characteristics can't be changed while a transaction is in progress",
        ));
    }
    let scope = if global {
        VarScope::Global
    } else {
        VarScope::Session
    };
    let server = ctx.server.clone();
    // Valid values Quire refuses, checked before anything is set: the value as the
    // variable's validation spells it.
    let checked_text = |v: &Value| -> Result<String> {
        let mut scratch = crate::error::Diagnostics::default();
        let checked = sysvars::check(id, v, &ctx.vars.check_ctx(), &mut scratch)?;
        Ok(String::from_utf8_lossy(checked.as_bytes().unwrap_or_default()).into_owned())
    };
    if let (true, Some(v)) = (id == vars::BINLOG_FORMAT, value.as_ref()) {
        // The journal is row-based: STATEMENT and MIXED are accepted names, not modes.
        let name = checked_text(v)?;
        if !name.eq_ignore_ascii_case("ROW") {
            return Err(MyError::not_supported(format!("binlog_format={name}")));
        }
    }
    // Percona's rule: one of the audit log's account lists at a time.
    for (this, other) in [
        (
            vars::AUDIT_LOG_INCLUDE_ACCOUNTS,
            vars::AUDIT_LOG_EXCLUDE_ACCOUNTS,
        ),
        (
            vars::AUDIT_LOG_EXCLUDE_ACCOUNTS,
            vars::AUDIT_LOG_INCLUDE_ACCOUNTS,
        ),
    ] {
        if let (true, Some(v)) = (id == this, value.as_ref()) {
            let text = checked_text(v)?;
            if !text.trim().is_empty() && !server.globals.get_string(other).trim().is_empty() {
                return Err(MyError::wrong_value_for_var(sysvars::name(id), &text));
            }
        }
    }
    sysvars::set_var(
        &server.globals,
        &mut ctx.vars,
        id,
        scope,
        value.as_ref(),
        &mut ctx.diag,
    )?;
    if global {
        // The journal's settings (sync_binlog, innodb_flush_log_at_trx_commit, …) are
        // dynamic: it keeps its own copy in atomics, read without a lock per commit. So
        // do the query logs.
        if let Some(j) = server.journal.get() {
            j.configure(&server.globals);
        }
        crate::session::threads::blocking(|| server.logs.configure(&server.globals));
        server.digests.configure(&server.globals);
    }
    ctx.refresh_cached_vars();
    Ok(())
}

pub fn run_set(ctx: &mut Ctx, set: &ast::Set) -> XResult<Outcome> {
    match set {
        ast::Set::SingleAssignment {
            scope,
            variable,
            values,
            ..
        } => {
            let parts: Vec<String> = variable
                .0
                .iter()
                .filter_map(|p| p.as_ident().map(|i| i.value.clone()))
                .collect();
            let [value] = values.as_slice() else {
                return Err(MyError::parse(&set.to_string(), 1).into());
            };
            assign(ctx, &parts, scope.as_ref(), value)?;
        }
        ast::Set::MultipleAssignments { assignments } => {
            // "The most recent GLOBAL or SESSION modifier in the statement is used for
            // following assignments that have no modifier" (MySQL's SET).
            let mut scope = None;
            for a in assignments {
                if a.scope.is_some() {
                    scope = a.scope;
                }
                let parts: Vec<String> = a
                    .name
                    .0
                    .iter()
                    .filter_map(|p| p.as_ident().map(|i| i.value.clone()))
                    .collect();
                assign(ctx, &parts, scope.as_ref(), &a.value)?;
            }
        }
        ast::Set::ParenthesizedAssignments { .. } => {
            return Err(MyError::not_supported("SET (a, b) = (…)").into());
        }
        ast::Set::SetNames {
            charset_name,
            collation_name,
        } => {
            let cs = charset_name.value.clone();
            let charset = super::types::Charset::from_name(&cs).ok_or_else(|| {
                MyError::new(
                    code::ER_UNKNOWN_CHARACTER_SET,
                    format!("Unknown character set: '{cs}'"),
                )
            })?;
            let coll = match collation_name {
                Some(c) => {
                    let c = c.trim_matches(|x| x == '\'' || x == '"' || x == '`');
                    let coll = super::types::Collation::from_name(c).ok_or_else(|| {
                        MyError::new(
                            code::ER_UNKNOWN_COLLATION,
                            format!("Unknown collation: '{c}'"),
                        )
                    })?;
                    if coll.charset() != charset {
                        return Err(MyError::new(
                            code::ER_COLLATION_CHARSET_MISMATCH,
                            format!(
                                "COLLATION '{}' is not valid for CHARACTER SET '{}'",
                                coll.name(),
                                charset.name()
                            ),
                        )
                        .into());
                    }
                    coll
                }
                None => charset.default_collation(),
            };
            for v in [
                "character_set_client",
                "character_set_connection",
                "character_set_results",
            ] {
                set_sysvar(ctx, v, false, Some(Value::str(charset.name())))?;
            }
            set_sysvar(
                ctx,
                "collation_connection",
                false,
                Some(Value::str(coll.name())),
            )?;
        }
        ast::Set::SetNamesDefault {} => {
            for v in [
                "character_set_client",
                "character_set_connection",
                "character_set_results",
                "collation_connection",
            ] {
                set_sysvar(ctx, v, false, None)?;
            }
        }
        ast::Set::SetTimeZone { value, .. } => {
            let v = eval_const(ctx, value)?;
            set_sysvar(ctx, "time_zone", false, Some(v))?;
        }
        other => return Err(MyError::not_supported(other.to_string()).into()),
    }
    Ok(Outcome::ok())
}

fn assign(
    ctx: &mut Ctx,
    parts: &[String],
    scope: Option<&ast::ContextModifier>,
    value: &ast::Expr,
) -> Result<()> {
    match target_of(parts, scope) {
        Target::User(name) => {
            let v = eval_const(ctx, value)?;
            ctx.user_vars.insert(name, v);
        }
        Target::Sys { name, global } => {
            let v = if let Some(w) = is_bare_word(value) {
                if w.eq_ignore_ascii_case("DEFAULT") {
                    None
                } else {
                    Some(Value::str(&w))
                }
            } else {
                Some(eval_const(ctx, value)?)
            };
            set_sysvar(ctx, &name, global, v)?;
        }
    }
    Ok(())
}

/// `SHOW [GLOBAL|SESSION] STATUS` rows (name, value), in name order: the per-session
/// counters (`observe::status`; the session's own values unless `global`) and the global
/// ones.
pub fn status_rows(ctx: &Ctx, global: bool) -> Vec<Vec<Value>> {
    let st = &ctx.server.status;
    let (sessions, running) = {
        let all = ctx.server.sessions.lock();
        // Running: executing a command (not idle, not still logging in), as in MySQL.
        let running = all.values().filter(|s| s.activity.lock().running()).count();
        (all.len() as u64, running as u64)
    };
    let uptime = ctx.server.started.elapsed().as_secs();
    let journal = |f: fn(&crate::journal::writer::Stats) -> &std::sync::atomic::AtomicU64| {
        ctx.server
            .journal
            .get()
            .map(|j| f(&j.stats).load(Ordering::Relaxed))
            .unwrap_or(0)
    };
    let mut rows: Vec<(&str, u64)> = vec![
        ("Binlog_bytes_written", journal(|s| &s.bytes_written)),
        ("Binlog_cache_disk_use", journal(|s| &s.cache_disk_use)),
        (
            "Binlog_cache_use",
            ctx.server
                .journal
                .get()
                .map_or(0, |j| j.stats.cache_use.get()),
        ),
        ("Binlog_commits", journal(|s| &s.commits)),
        ("Binlog_group_commits", journal(|s| &s.groups)),
        (
            "Aborted_clients",
            st.aborted_clients.load(Ordering::Relaxed),
        ),
        (
            "Aborted_connects",
            st.aborted_connects.load(Ordering::Relaxed),
        ),
        ("Connections", st.connections.load(Ordering::Relaxed)),
        (
            "Innodb_purge_versions",
            ctx.server
                .storage
                .purge
                .versions_purged
                .load(Ordering::Relaxed),
        ),
        (
            "Performance_schema_digest_lost",
            ctx.server.digests.lost.get(),
        ),
        ("Threads_cached", ctx.server.conn_threads.cached() as u64),
        ("Threads_connected", sessions),
        (
            "Threads_created",
            st.threads_created.load(Ordering::Relaxed),
        ),
        ("Threads_running", running),
        ("Uptime", uptime),
        ("Quire_checkpoints", {
            ctx.server
                .checkpoints
                .get()
                .map(|c| c.taken.load(std::sync::atomic::Ordering::Relaxed))
                .unwrap_or(0)
        }),
        ("Quire_journal_fsyncs", journal(|s| &s.fsyncs)),
    ];
    let logs = ctx.server.logs.status_rows();
    rows.extend(logs.iter().map(|(n, v)| (n.as_str(), *v)));
    let totals = ctx.server.global_status();
    rows.extend(status::NAMES.iter().enumerate().map(|(i, n)| {
        let v = if global || status::Stat::global_only(i) {
            totals[i]
        } else {
            ctx.shared.status.get(i)
        };
        (*n, v)
    }));
    rows.sort_by_key(|a| a.0.to_ascii_lowercase());
    rows.into_iter()
        .map(|(n, v)| vec![Value::str(n), Value::from_string(v.to_string())])
        .collect()
}

pub fn processlist_rows(ctx: &Ctx, full: bool) -> Vec<Vec<Value>> {
    let sessions: Vec<_> = ctx.server.sessions.lock().values().cloned().collect();
    let mut rows: Vec<Vec<Value>> = sessions
        .into_iter()
        .map(|s| {
            let a = s.activity.lock().clone();
            let info = a.info.map(|i| {
                let i: &str = &i;
                if full {
                    i.to_string()
                } else {
                    i.chars().take(100).collect::<String>()
                }
            });
            vec![
                Value::UInt(s.id as u64),
                Value::from_string(s.user.lock().clone()),
                Value::str(&s.host),
                s.db.lock()
                    .clone()
                    .map(Value::from_string)
                    .unwrap_or(Value::Null),
                Value::str(a.command),
                Value::UInt(a.since.elapsed().as_secs()),
                Value::str(a.state),
                info.map(Value::from_string).unwrap_or(Value::Null),
            ]
        })
        .collect();
    rows.sort_by_key(|r| match r[0] {
        Value::UInt(u) => u,
        _ => 0,
    });
    rows
}

fn account_plugin(ctx: &Ctx, spec: &UserSpec) -> Result<AuthPlugin> {
    let p = match &spec.plugin {
        Some(p) => p.to_ascii_lowercase(),
        None => ctx
            .server
            .globals
            .get_string(vars::DEFAULT_AUTHENTICATION_PLUGIN),
    };
    AuthPlugin::from_name(&p).ok_or_else(|| {
        MyError::new(
            code::ER_PLUGIN_IS_NOT_LOADED,
            format!("Plugin '{p}' is not loaded"),
        )
    })
}

/// Run an administrative statement that does not wait.
pub fn run_admin(ctx: &mut Ctx, stmt: &AdminStmt) -> XResult<Outcome> {
    let r = run_admin_now(ctx, stmt);
    if matches!(
        stmt,
        AdminStmt::CreateUser { .. }
            | AdminStmt::AlterUser { .. }
            | AdminStmt::DropUser { .. }
            | AdminStmt::SetPassword { .. }
    ) {
        // Durable before the reply, whatever part of the statement took effect.
        ctx.server.save_accounts()?;
    }
    r
}

fn run_admin_now(ctx: &mut Ctx, stmt: &AdminStmt) -> XResult<Outcome> {
    match stmt {
        AdminStmt::Use(db) => {
            if ctx.server.storage.catalog.database(db).is_none() {
                return Err(MyError::bad_db(db).into());
            }
            ctx.db = Some(db.clone());
            *ctx.shared.db.lock() = Some(db.clone());
            Ok(Outcome::ok())
        }
        AdminStmt::Show(s) => super::show::run(ctx, s),
        AdminStmt::Describe { table, column } => {
            let t = super::show::table_or_view(ctx, table.0.as_deref(), &table.1)?;
            let filter = match column {
                Some(c) => super::admin::Filter::Like(c.clone()),
                None => super::admin::Filter::None,
            };
            super::show::columns(ctx, &t, false, &filter)
        }
        AdminStmt::Kill { query_only, id } => {
            let v = eval_const(ctx, id)?;
            let mut d = crate::error::Diagnostics::default();
            let n = super::convert::to_u64(&v, &mut d).unwrap_or(0);
            let target = u32::try_from(n).ok().and_then(|n| ctx.server.session(n));
            let Some(s) = target else {
                return Err(MyError::new(
                    code::ER_NO_SUCH_THREAD,
                    format!("Unknown thread id: {n}"),
                )
                .into());
            };
            s.kill(if *query_only {
                KILL_QUERY
            } else {
                KILL_CONNECTION
            });
            Ok(Outcome::ok())
        }
        AdminStmt::CreateUser {
            if_not_exists,
            users,
        } => {
            for u in users {
                let plugin = account_plugin(ctx, u)?;
                let mut accounts = ctx.server.accounts.write();
                if accounts
                    .iter()
                    .any(|a| a.user == u.user && a.host == u.host)
                {
                    if *if_not_exists {
                        drop(accounts);
                        ctx.diag.note(
                            code::ER_USER_ALREADY_EXISTS,
                            format!("Authorization ID '{}'@'{}' already exists.", u.user, u.host),
                        );
                        continue;
                    }
                    return Err(MyError::new(
                        code::ER_CANNOT_USER,
                        format!("Operation CREATE USER failed for '{}'@'{}'", u.user, u.host),
                    )
                    .into());
                }
                accounts.push(account(
                    &u.user,
                    &u.host,
                    plugin,
                    u.password.as_deref().unwrap_or("").as_bytes(),
                ));
            }
            Ok(Outcome::ok())
        }
        AdminStmt::AlterUser { if_exists, users } => {
            for u in users {
                let (user, host) = if u.user == "\u{0}current" {
                    (ctx.priv_user.clone(), ctx.priv_host.clone())
                } else {
                    (u.user.clone(), u.host.clone())
                };
                let plugin = account_plugin(ctx, u)?;
                let mut accounts = ctx.server.accounts.write();
                let Some(a) = accounts
                    .iter_mut()
                    .find(|a| a.user == user && a.host == host)
                else {
                    if *if_exists {
                        drop(accounts);
                        ctx.diag.note(
                            code::ER_CANNOT_USER,
                            format!("Operation ALTER USER failed for '{user}'@'{host}'"),
                        );
                        continue;
                    }
                    return Err(MyError::new(
                        code::ER_CANNOT_USER,
                        format!("Operation ALTER USER failed for '{user}'@'{host}'"),
                    )
                    .into());
                };
                if u.plugin.is_some() {
                    a.plugin = plugin;
                }
                if let Some(pw) = &u.password {
                    a.credentials = credentials_from_password(pw.as_bytes());
                }
            }
            Ok(Outcome::ok())
        }
        AdminStmt::DropUser { if_exists, users } => {
            for (u, h) in users {
                let mut accounts = ctx.server.accounts.write();
                let before = accounts.len();
                accounts.retain(|a| !(a.user == *u && a.host == *h));
                if accounts.len() == before {
                    if *if_exists {
                        drop(accounts);
                        ctx.diag.note(
                            code::ER_CANNOT_USER,
                            format!("Operation DROP USER failed for '{u}'@'{h}'"),
                        );
                        continue;
                    }
                    return Err(MyError::new(
                        code::ER_CANNOT_USER,
                        format!("Operation DROP USER failed for '{u}'@'{h}'"),
                    )
                    .into());
                }
            }
            Ok(Outcome::ok())
        }
        AdminStmt::SetPassword { user, password } => {
            let (u, h) = match user {
                Some((u, h)) if u != "\u{0}current" => (u.clone(), h.clone()),
                _ => (ctx.priv_user.clone(), ctx.priv_host.clone()),
            };
            let mut accounts = ctx.server.accounts.write();
            let Some(a) = accounts.iter_mut().find(|a| a.user == u && a.host == h) else {
                return Err(MyError::new(
                    code::ER_PASSWORD_NO_MATCH,
                    "Can't find any matching row in the user table",
                )
                .into());
            };
            a.credentials = credentials_from_password(password.as_bytes());
            Ok(Outcome::ok())
        }
        AdminStmt::Grant => {
            ctx.diag.push(Level::Note, code::ER_NOT_SUPPORTED_YET, "Quire has no privilege system: every account has all privileges; GRANT/REVOKE change nothing");
            Ok(Outcome::ok())
        }
        AdminStmt::Flush(_) | AdminStmt::PurgeLogs(_) | AdminStmt::ResetMaster(_) => {
            Err(MyError::internal("journal statements are run by the session").into())
        }
        AdminStmt::Maintenance { op, tables } => {
            let mut rows = Vec::new();
            for (db, name) in tables {
                let d = match db.clone().or_else(|| ctx.db.clone()) {
                    Some(d) => d,
                    None => return Err(MyError::no_db().into()),
                };
                let t = ctx.server.storage.catalog.table(&d, name);
                let full = format!("{d}.{name}");
                match op {
                    Maintenance::Checksum => rows.push(vec![
                        Value::from_string(full),
                        match &t {
                            Some(t) => Value::UInt(table_checksum(ctx, t)),
                            None => Value::Null,
                        },
                    ]),
                    _ => {
                        let opname = match op {
                            Maintenance::Analyze => "analyze",
                            Maintenance::Optimize => "optimize",
                            Maintenance::Check => "check",
                            _ => "repair",
                        };
                        match &t {
                            None => {
                                rows.push(vec![
                                    Value::str(&full),
                                    Value::str(opname),
                                    Value::str("Error"),
                                    Value::from_string(format!("Table '{full}' doesn't exist")),
                                ]);
                                rows.push(vec![
                                    Value::str(&full),
                                    Value::str(opname),
                                    Value::str("status"),
                                    Value::str("Operation failed"),
                                ]);
                            }
                            Some(_) => {
                                if *op == Maintenance::Optimize {
                                    rows.push(vec![
                                        Value::str(&full),
                                        Value::str(opname),
                                        Value::str("note"),
                                        Value::str("Table does not support optimize, doing recreate + analyze instead"),
                                    ]);
                                }
                                if *op == Maintenance::Repair {
                                    rows.push(vec![Value::str(&full), Value::str(opname), Value::str("note"), Value::str("The storage engine for the table doesn't support repair")]);
                                } else {
                                    rows.push(vec![
                                        Value::str(&full),
                                        Value::str(opname),
                                        Value::str("status"),
                                        Value::str("OK"),
                                    ]);
                                }
                            }
                        }
                    }
                }
            }
            let (columns, types) = if *op == Maintenance::Checksum {
                (
                    vec![
                        ColumnMeta::expr("Table", &SqlType::varchar(64), false),
                        ColumnMeta::expr("Checksum", &SqlType::BIGINT_UNSIGNED, true),
                    ],
                    vec![SqlType::varchar(64), SqlType::BIGINT_UNSIGNED],
                )
            } else {
                let names = ["Table", "Op", "Msg_type", "Msg_text"];
                (
                    names
                        .iter()
                        .map(|n| ColumnMeta::expr(*n, &SqlType::varchar(255), false))
                        .collect(),
                    vec![SqlType::varchar(255); 4],
                )
            };
            Ok(Outcome::Rows {
                columns,
                types,
                rows,
            })
        }
        AdminStmt::LockTables => Err(MyError::not_supported("LOCK TABLES").into()),
        AdminStmt::UnlockTables => Ok(Outcome::ok()),
        AdminStmt::Do(exprs) => {
            for e in exprs {
                eval_const(ctx, e)?;
            }
            Ok(Outcome::ok())
        }
        // Transactions and DDL are the session's.
        AdminStmt::CreateView(_) => {
            Err(MyError::internal("CREATE VIEW outside the session").into())
        }
        AdminStmt::Begin { .. }
        | AdminStmt::Commit { .. }
        | AdminStmt::Rollback { .. }
        | AdminStmt::Savepoint(_)
        | AdminStmt::ReleaseSavepoint(_)
        | AdminStmt::SetTransaction { .. } => {
            Err(MyError::internal("transaction statement outside the session").into())
        }
    }
}

/// A checksum of a table's committed rows (order-independent), for CHECKSUM TABLE.
fn table_checksum(ctx: &mut Ctx, table: &crate::storage::table::Table) -> u64 {
    let view = crate::storage::table::ReadView {
        me: 0,
        snapshot: ctx.server.storage.txns.take_snapshot(&ctx.snapshot_slot),
    };
    let mut sum: u64 = 0;
    let mut buf = Vec::new();
    for slot in table.scan_primary(
        std::ops::Bound::Unbounded,
        std::ops::Bound::Unbounded,
        false,
    ) {
        if let Some(row) = table.read(&slot, view) {
            buf.clear();
            for (v, c) in row.iter().zip(&table.def.columns) {
                if v.is_null() {
                    buf.push(0xfb);
                } else {
                    super::convert::to_text(v, &c.ty, &mut buf);
                }
                buf.push(0);
            }
            sum = sum.wrapping_add(crc32(&buf) as u64);
        }
    }
    ctx.snapshot_slot.clear();
    sum
}

fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// For statements needing an execution context without tables.
pub fn exec_cx<'a>(ctx: &'a mut Ctx) -> ExecCx<'a> {
    let view = ctx.stmt_view;
    ExecCx {
        env: Env { params: &[], ctx },
        txn: None,
        view,
        rows_examined: 0,
    }
}
