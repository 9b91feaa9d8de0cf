//! FOREIGN KEY definitions: parsing the clause, validating it as MySQL 8.0 / InnoDB do, and
//! the checks other DDL makes on account of foreign keys (DROP TABLE, TRUNCATE, DROP INDEX,
//! DROP COLUMN, RENAME). Enforcement on rows is in [`super::fk`].
//!
//! A key is stored on its child table's definition ([`ForeignKeyDef`]); the catalog derives
//! the parent side. Validation at CREATE / ALTER time:
//!
//! | problem | error |
//! |---|---|
//! | a child column is missing | 1072 |
//! | column counts differ | 1239 |
//! | SET NULL on a NOT NULL column | 1830 |
//! | SET DEFAULT | 1215 (InnoDB refuses it) |
//! | parent table missing (only with `foreign_key_checks=1`) | 1824 |
//! | parent column missing | 3734 |
//! | types not similar (integers of another size or sign, strings of another collation, …) | 3780 |
//! | no parent index whose leading columns are the parent columns | 1822 |
//! | name taken in the database (names are per database, as MySQL) | 1826 |
//!
//! An unnamed key is called `<table>_ibfk_<n>`, n one more than the highest such number on
//! the table. The child gets an index for the key's columns unless one already starts with
//! them (named after the constraint, else its index name, else its first column).
//!
//! With `foreign_key_checks=0` a key may name a parent that does not exist (the parent
//! checks are then skipped), ALTER TABLE … ADD FOREIGN KEY does not check existing rows,
//! and a referenced parent may be dropped or truncated: as MySQL. Recovery replays DDL
//! that way (tables come back in any order).

use super::fk;
use super::types::SqlType;
use crate::config::vars;
use crate::error::{MyError, Result, code};
use crate::session::Ctx;
use crate::storage::schema::{FkAction, ForeignKeyDef, IndexDef, TableDef};
use crate::storage::table::{ReadView, Table};
use sqlparser::ast;
use std::sync::Arc;

/// A FOREIGN KEY clause as written, before names and checks.
pub struct PendingFk {
    name: Option<String>,
    index_name: Option<String>,
    columns: Vec<String>,
    parent_db: String,
    parent_table: String,
    parent_columns: Vec<String>,
    on_delete: FkAction,
    on_update: FkAction,
}

fn action(a: &Option<ast::ReferentialAction>) -> Result<FkAction> {
    Ok(match a {
        None | Some(ast::ReferentialAction::NoAction) => FkAction::NoAction,
        Some(ast::ReferentialAction::Restrict) => FkAction::Restrict,
        Some(ast::ReferentialAction::Cascade) => FkAction::Cascade,
        Some(ast::ReferentialAction::SetNull) => FkAction::SetNull,
        Some(ast::ReferentialAction::SetDefault) => {
            return Err(MyError::new(
                code::ER_CANNOT_ADD_FOREIGN,
                "Cannot add foreign key constraint",
            ));
        }
    })
}

pub fn parse(ctx: &Ctx, fk: &ast::ForeignKeyConstraint) -> Result<PendingFk> {
    let (pdb, ptable) = super::planner::object_name(&fk.foreign_table)?;
    let parent_db = pdb.or_else(|| ctx.db.clone()).ok_or_else(MyError::no_db)?;
    Ok(PendingFk {
        name: fk.name.as_ref().map(|i| i.value.clone()),
        index_name: fk.index_name.as_ref().map(|i| i.value.clone()),
        columns: fk.columns.iter().map(|i| i.value.clone()).collect(),
        parent_db,
        parent_table: ptable,
        parent_columns: fk
            .referred_columns
            .iter()
            .map(|i| i.value.clone())
            .collect(),
        on_delete: action(&fk.on_delete)?,
        on_update: action(&fk.on_update)?,
    })
}

fn checks_on(ctx: &Ctx) -> bool {
    ctx.vars.get_bool(vars::FOREIGN_KEY_CHECKS)
}

/// Are two columns similar enough for a foreign key (MySQL 8.0's rule: integers and
/// decimals of the same size and sign, strings of the same collation, any length)?
fn similar(a: &SqlType, b: &SqlType) -> bool {
    use SqlType as T;
    match (a, b) {
        (
            T::Int {
                width: w1,
                unsigned: u1,
                ..
            },
            T::Int {
                width: w2,
                unsigned: u2,
                ..
            },
        ) => w1 == w2 && u1 == u2,
        (
            T::Char { collation: c1, .. } | T::VarChar { collation: c1, .. },
            T::Char { collation: c2, .. } | T::VarChar { collation: c2, .. },
        ) => c1 == c2,
        (T::Binary { .. } | T::VarBinary { .. }, T::Binary { .. } | T::VarBinary { .. }) => true,
        (T::Text { .. } | T::Blob { .. } | T::Json, _)
        | (_, T::Text { .. } | T::Blob { .. } | T::Json) => false,
        (T::DateTime { .. }, T::DateTime { .. })
        | (T::Timestamp { .. }, T::Timestamp { .. })
        | (T::Time { .. }, T::Time { .. }) => true,
        _ => a == b,
    }
}

/// The highest `n` of the `<table>_ibfk_<n>` names on `def`.
fn ibfk_max(def: &TableDef) -> u32 {
    let prefix = format!("{}_ibfk_", def.name);
    def.foreign_keys
        .iter()
        .filter_map(|f| f.name.strip_prefix(&prefix)?.parse::<u32>().ok())
        .max()
        .unwrap_or(0)
}

/// Is a foreign key called `name` in database `db` (other than on `except`)?
fn name_taken(ctx: &Ctx, db: &str, name: &str, except: &str) -> bool {
    let Some(d) = ctx.server.storage.catalog.database(db) else {
        return false;
    };
    d.tables.read().values().any(|t| {
        t.name() != except
            && t.def
                .foreign_keys
                .iter()
                .any(|f| f.name.eq_ignore_ascii_case(name))
    })
}

/// Name, validate and add `pending` to `def` (the child's new definition), adding the
/// index each key needs. `def` may be its own parent.
pub fn attach(ctx: &Ctx, def: &mut TableDef, pending: Vec<PendingFk>) -> Result<()> {
    let mut next = ibfk_max(def);
    for p in pending {
        let name = match &p.name {
            Some(n) => n.clone(),
            None => {
                next += 1;
                format!("{}_ibfk_{next}", def.name)
            }
        };
        if def
            .foreign_keys
            .iter()
            .any(|f| f.name.eq_ignore_ascii_case(&name))
            || name_taken(ctx, &def.db, &name, &def.name)
        {
            return Err(MyError::new(
                code::ER_FK_DUP_NAME,
                format!("Duplicate foreign key constraint name '{name}'"),
            ));
        }
        let fk = ForeignKeyDef {
            name,
            columns: p.columns,
            parent_db: p.parent_db,
            parent_table: p.parent_table,
            parent_columns: p.parent_columns,
            on_delete: p.on_delete,
            on_update: p.on_update,
        };
        validate(ctx, def, &fk)?;
        let cols = def
            .column_positions(&fk.columns)
            .ok_or_else(|| MyError::internal("validated foreign key lost a column"))?;
        if def.index_with_prefix(&cols).is_none() {
            let base = p
                .name
                .clone()
                .or(p.index_name)
                .unwrap_or_else(|| def.columns[cols[0]].name.clone());
            let mut iname = base.clone();
            let mut n = 2;
            while def.index_by_name(&iname).is_some() {
                iname = format!("{base}_{n}");
                n += 1;
            }
            def.indexes.push(IndexDef {
                name: iname,
                kind: crate::storage::schema::IndexKind::Index,
                columns: cols
                    .iter()
                    .map(|c| crate::storage::schema::IndexColumn {
                        col: *c,
                        prefix: None,
                        desc: false,
                    })
                    .collect(),
                comment: String::new(),
            });
        }
        def.foreign_keys.push(fk);
    }
    Ok(())
}

fn validate(ctx: &Ctx, child: &TableDef, fk: &ForeignKeyDef) -> Result<()> {
    let mut child_cols = Vec::new();
    for c in &fk.columns {
        let Some(i) = child.column_index(c) else {
            return Err(MyError::new(
                code::ER_KEY_COLUMN_DOES_NOT_EXITS,
                format!("Key column '{c}' doesn't exist in table"),
            ));
        };
        child_cols.push(i);
    }
    if fk.columns.len() != fk.parent_columns.len() {
        return Err(MyError::new(
            code::ER_WRONG_FK_DEF,
            format!(
                "Incorrect foreign key definition for '{}': Key reference and table reference don't match",
                fk.name
            ),
        ));
    }
    if (fk.on_delete == FkAction::SetNull || fk.on_update == FkAction::SetNull)
        && let Some(&c) = child_cols.iter().find(|&&c| !child.columns[c].nullable)
    {
        return Err(MyError::new(
            code::ER_FK_COLUMN_NOT_NULL,
            format!(
                "Column '{}' cannot be NOT NULL: needed in a foreign key constraint '{}' SET NULL",
                child.columns[c].name, fk.name
            ),
        ));
    }
    let self_ref = fk.parent_db == child.db && fk.parent_table == child.name;
    let parent_table = if self_ref {
        None
    } else {
        match ctx
            .server
            .storage
            .catalog
            .table(&fk.parent_db, &fk.parent_table)
        {
            Some(t) => Some(t),
            None if !checks_on(ctx) => return Ok(()),
            None => {
                return Err(MyError::new(
                    code::ER_FK_CANNOT_OPEN_PARENT,
                    format!("Failed to open the referenced table '{}'", fk.parent_table),
                ));
            }
        }
    };
    let parent: &TableDef = match &parent_table {
        Some(t) => &t.def,
        None => child,
    };
    let mut parent_cols = Vec::new();
    for (k, c) in fk.parent_columns.iter().enumerate() {
        let Some(i) = parent.column_index(c) else {
            return Err(MyError::new(
                code::ER_FK_NO_COLUMN_PARENT,
                format!(
                    "Failed to add the foreign key constraint. Missing column '{c}' for constraint '{}' in the referenced table '{}'",
                    fk.name, fk.parent_table
                ),
            ));
        };
        if !similar(&child.columns[child_cols[k]].ty, &parent.columns[i].ty) {
            return Err(MyError::new(
                code::ER_FK_INCOMPATIBLE_COLUMNS,
                format!(
                    "Referencing column '{}' and referenced column '{}' in foreign key constraint '{}' are incompatible.",
                    child.columns[child_cols[k]].name, parent.columns[i].name, fk.name
                ),
            ));
        }
        parent_cols.push(i);
    }
    if parent.index_with_prefix(&parent_cols).is_none() {
        return Err(MyError::new(
            code::ER_FK_NO_INDEX_PARENT,
            format!(
                "Failed to add the foreign key constraint. Missing index for constraint '{}' in the referenced table '{}'",
                fk.name, fk.parent_table
            ),
        ));
    }
    Ok(())
}

/// ALTER TABLE … ADD FOREIGN KEY: every existing row of `table` (as `def`, the new
/// definition, names its columns) must have its parent (1452), unless checks are off.
pub fn check_existing_rows(
    ctx: &Ctx,
    table: &Arc<Table>,
    def: &TableDef,
    added: &[ForeignKeyDef],
) -> Result<()> {
    if !checks_on(ctx) || added.is_empty() {
        return Ok(());
    }
    let storage = &ctx.server.storage;
    let snapshot = storage.txns.take_snapshot(&ctx.snapshot_slot);
    let view = ReadView { me: 0, snapshot };
    let mut result = Ok(());
    'keys: for f in added {
        let Some(cols) = table.def.column_positions(&f.columns) else {
            continue;
        };
        let parent = storage.catalog.table(&f.parent_db, &f.parent_table);
        for slot in table.scan_primary(
            std::ops::Bound::Unbounded,
            std::ops::Bound::Unbounded,
            false,
        ) {
            let Some(row) = table.read(&slot, view) else {
                continue;
            };
            let values: Vec<_> = cols.iter().map(|c| row[*c].clone()).collect();
            if values.iter().any(|v| v.is_null()) {
                continue;
            }
            let found = match &parent {
                // A self reference: the parent rows are these rows.
                None if f.parent_table == def.name && f.parent_db == def.db => {
                    fk::exists_unlocked(table, &f.parent_columns, &values, view)
                }
                None => false,
                Some(p) => fk::exists_unlocked(p, &f.parent_columns, &values, view),
            };
            if !found {
                result = Err(fk::no_parent_error(&def.db, &def.name, f));
                break 'keys;
            }
        }
    }
    ctx.snapshot_slot.clear();
    result
}

/// DROP FOREIGN KEY `name` from `def` (1091 if it has none by that name).
pub fn drop(def: &mut TableDef, name: &str) -> Result<()> {
    let before = def.foreign_keys.len();
    def.foreign_keys
        .retain(|f| !f.name.eq_ignore_ascii_case(name));
    if def.foreign_keys.len() == before {
        return Err(MyError::new(
            code::ER_CANT_DROP_FIELD_OR_KEY,
            format!("Can't DROP '{name}'; check that column/key exists"),
        ));
    }
    Ok(())
}

/// The new definition `def` of a table (after DROP INDEX / DROP COLUMN) must still have an
/// index for each of its keys and for each key that references it (1553); a dropped
/// column may not be in a key (1828, 1829).
pub fn check_still_indexed(ctx: &Ctx, old: &TableDef, def: &TableDef) -> Result<()> {
    let missing_index = |old_index: Option<&IndexDef>| {
        let name = old_index.map(|i| i.name.clone()).unwrap_or_default();
        MyError::new(
            code::ER_DROP_INDEX_FK,
            format!("Cannot drop index '{name}': needed in a foreign key constraint"),
        )
    };
    for f in &def.foreign_keys {
        let Some(cols) = def.column_positions(&f.columns) else {
            return Err(MyError::new(
                code::ER_FK_COLUMN_CANNOT_DROP,
                format!(
                    "Cannot drop column '{}': needed in a foreign key constraint '{}'",
                    f.columns
                        .iter()
                        .find(|c| def.column_index(c).is_none())
                        .cloned()
                        .unwrap_or_default(),
                    f.name
                ),
            ));
        };
        if def.index_with_prefix(&cols).is_none() {
            let old_cols = old.column_positions(&f.columns).unwrap_or_default();
            return Err(missing_index(old.index_with_prefix(&old_cols)));
        }
    }
    for r in ctx
        .server
        .storage
        .catalog
        .referencing(&old.db, &old.name)
        .iter()
    {
        let child = if r.db == old.db && r.table == old.name {
            continue; // its own keys were checked above
        } else {
            match ctx.server.storage.catalog.table(&r.db, &r.table) {
                Some(t) => t,
                None => continue,
            }
        };
        let Some(f) = child.def.foreign_keys.get(r.fk) else {
            continue;
        };
        let Some(cols) = def.column_positions(&f.parent_columns) else {
            let gone = f
                .parent_columns
                .iter()
                .find(|c| def.column_index(c).is_none())
                .cloned()
                .unwrap_or_default();
            return Err(MyError::new(
                code::ER_FK_COLUMN_CANNOT_DROP_CHILD,
                format!(
                    "Cannot drop column '{gone}': needed in a foreign key constraint '{}' of table '{}'",
                    f.name, r.table
                ),
            ));
        };
        if def.index_with_prefix(&cols).is_none() {
            let old_cols = old.column_positions(&f.parent_columns).unwrap_or_default();
            return Err(missing_index(old.index_with_prefix(&old_cols)));
        }
    }
    Ok(())
}

/// DROP TABLE / TRUNCATE of `db`.`name`: the first key of another table (not among
/// `dropping`) that references it, when checks are on.
pub fn referenced_by_other(
    ctx: &Ctx,
    db: &str,
    name: &str,
    dropping: &[(String, String)],
) -> Option<(String, String, String)> {
    if !checks_on(ctx) {
        return None;
    }
    let catalog = &ctx.server.storage.catalog;
    catalog.referencing(db, name).iter().find_map(|r| {
        if (r.db == db && r.table == name)
            || dropping.iter().any(|(d, t)| *d == r.db && *t == r.table)
        {
            return None;
        }
        let child = catalog.table(&r.db, &r.table)?;
        let f = child.def.foreign_keys.get(r.fk)?;
        Some((r.db.clone(), r.table.clone(), f.name.clone()))
    })
}

pub fn drop_parent_error(name: &str, child: &str, fk: &str) -> MyError {
    MyError::new(
        code::ER_FK_CANNOT_DROP_PARENT,
        format!(
            "Cannot drop table '{name}' referenced by a foreign key constraint '{fk}' on table '{child}'."
        ),
    )
}

pub fn truncate_error(db: &str, child: &str, fk: &str) -> MyError {
    MyError::new(
        code::ER_TRUNCATE_ILLEGAL_FK,
        format!(
            "Cannot truncate a table referenced in a foreign key constraint (`{db}`.`{child}`, CONSTRAINT `{fk}`)"
        ),
    )
}

/// After `db`.`old` became `new_db`.`new`: the keys of other tables that referenced it are
/// pointed at the new name (each such child gets a new definition, rows copied as any
/// ALTER does).
pub async fn repoint_children(
    ctx: &mut Ctx,
    db: &str,
    old: &str,
    new_db: &str,
    new: &str,
) -> Result<()> {
    let refs = ctx.server.storage.catalog.referencing(db, old);
    let mut children: Vec<(String, String)> = refs
        .iter()
        .map(|r| (r.db.clone(), r.table.clone()))
        .collect();
    children.dedup();
    for (cdb, cname) in children {
        let Some(child) = ctx.server.storage.catalog.table(&cdb, &cname) else {
            continue;
        };
        let mut def = (*child.def).clone();
        for f in &mut def.foreign_keys {
            if f.parent_db == db && f.parent_table == old {
                f.parent_db = new_db.to_string();
                f.parent_table = new.to_string();
            }
        }
        super::ddl::rebuild_same(ctx, &child, def).await?;
    }
    Ok(())
}
