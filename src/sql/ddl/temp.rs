//! Temporary tables: `CREATE TEMPORARY TABLE`, `DROP [TEMPORARY] TABLE`, and how DDL finds
//! and replaces a session's tables.
//!
//! A temporary table is an ordinary [`Table`] (MVCC rows, indexes, row locks: InnoDB's
//! transactional temporary tables) that lives in its session ([`Ctx::temp_tables`]) and
//! never in the catalog. So it is seen by that session only, shadows a base table of the
//! same name there (every lookup asks the session first: the planner's `resolve_table`,
//! [`find_table`] here, `show::resolve_table`), is left out of SHOW TABLES and
//! information_schema, and goes when the session ends. Nothing about it is journaled — not
//! its DDL (the session's `journal_as`), not its rows (`Table::temporary`, skipped when a
//! transaction is encoded) — and checkpoints, which walk the catalog, never see it: as in
//! MySQL 8 with binlog_format=ROW, there is nothing to recover.
//!
//! A session with temporary tables plans every statement afresh (the plan cache is
//! shared), and creating or dropping one invalidates prepared plans (`Catalog::touch`).

use super::{MyError, Result};
use crate::session::Ctx;
use crate::storage::schema::TableDef;
use crate::storage::table::Table;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The table `db`.`name` as this session sees it: its temporary table, else the base table.
pub(super) fn find_table(ctx: &Ctx, db: &str, name: &str) -> Result<Arc<Table>> {
    ctx.temp_table(db, name)
        .or_else(|| ctx.server.storage.catalog.table(db, name))
        .ok_or_else(|| MyError::no_such_table(db, name))
}

/// Add a temporary table built from `def`; 1050 if the session has one of that name.
pub(super) fn create(ctx: &mut Ctx, def: TableDef, if_not_exists: bool) -> Result<bool> {
    ctx.journal_as = Some(None);
    if ctx.temp_table(&def.db, &def.name).is_some() {
        if if_not_exists {
            ctx.diag.note(
                crate::error::code::ER_TABLE_EXISTS_ERROR,
                format!("Table '{}' already exists", def.name),
            );
            return Ok(false);
        }
        return Err(MyError::table_exists(&def.name));
    }
    let mut t = Table::new(def);
    t.temporary = true;
    ctx.temp_tables.push(Arc::new(t));
    ctx.server.storage.catalog.touch();
    Ok(true)
}

/// Put `new` in the place of the session's temporary table `old` (ALTER, TRUNCATE); `false`
/// if `old` is gone or the new name is another temporary table's.
pub(super) fn replace(ctx: &mut Ctx, old: &Arc<Table>, new: Arc<Table>) -> bool {
    let renamed = new.def.name != old.def.name || new.def.db != old.def.db;
    if renamed && ctx.temp_table(&new.def.db, &new.def.name).is_some() {
        return false;
    }
    let Some(slot) = ctx.temp_tables.iter_mut().find(|t| Arc::ptr_eq(t, old)) else {
        return false;
    };
    *slot = new;
    old.dropped.store(true, Ordering::Release);
    ctx.journal_as = Some(None);
    ctx.server.storage.catalog.touch();
    true
}

/// Remove the session's temporary table `db`.`name`; whether there was one.
pub(super) fn remove(ctx: &mut Ctx, db: &str, name: &str) -> bool {
    let Some(i) = ctx
        .temp_tables
        .iter()
        .position(|t| t.def.db == db && t.def.name == name)
    else {
        return false;
    };
    let t = ctx.temp_tables.remove(i);
    t.dropped.store(true, Ordering::Release);
    ctx.server.storage.catalog.touch();
    true
}
