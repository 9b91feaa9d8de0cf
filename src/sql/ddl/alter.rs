//! ALTER TABLE's column and key changes — `MODIFY`, `CHANGE`, `RENAME COLUMN`,
//! `RENAME INDEX` — and the row copy that ends every ALTER TABLE.
//!
//! [`super::alter_table`] walks the operations of one statement over a copy of the table
//! definition and a list `sources` (for each new column: `Ok(old position)` or `Err(value to
//! fill)`). The operations here edit both; none touches a row. Then [`copy_rows`] builds the
//! new table: each row is mapped through `sources` and, where a kept column's type or
//! nullability changed, converted by the INSERT rules ([`convert::store`]). Under strict mode
//! a value that does not fit is an error (1264, 1265, 1366 …) and a NULL into a column that
//! became NOT NULL is 1138 (MySQL's "Invalid use of NULL value"); without it, a warning and the
//! clipped value or the type's implicit default. On any error the new table is dropped and
//! the old one stays as it was (MySQL 8's atomic DDL).
//!
//! Index columns are positions, so a renamed column keeps its indexes; a column moved with
//! FIRST/AFTER takes them along ([`move_column`]).
//!
//! Affected rows follow MySQL 8: an ALTER that MySQL does in place (renames, nullability,
//! index changes, VARCHAR growth) reports 0; one that needs ALGORITHM=COPY (a column's type
//! changes, the primary key is dropped without a new one; any ALTER of a temporary table)
//! reports the rows copied.

use super::{PendingIndex, column_def, ident, rebuild};
use crate::error::{Diagnostics, MyError, Result, code};
use crate::session::Ctx;
use crate::sql::convert;
use crate::sql::types::SqlType;
use crate::sql::utility::Outcome;
use crate::sql::value::Value;
use crate::storage::schema::{ColumnDef, IndexDef, TableDef};
use crate::storage::table::Table;
use sqlparser::ast;
use std::sync::Arc;

const ER_KEY_DOES_NOT_EXITS: u16 = 1176;

/// What a new column is filled from: `Ok(position in the old row)` or `Err(fixed value)`.
pub(super) type Sources = Vec<std::result::Result<usize, Value>>;

/// `MODIFY [COLUMN] c <def>` and `CHANGE [COLUMN] old new <def>`, with an optional FIRST /
/// AFTER x.
pub(super) fn change_column(
    ctx: &mut Ctx,
    def: &mut TableDef,
    sources: &mut Sources,
    pending: &mut Vec<PendingIndex>,
    op: &ast::AlterTableOperation,
) -> Result<()> {
    use ast::AlterTableOperation as O;
    let (old_name, new_name, data_type, options, position) = match op {
        O::ModifyColumn {
            col_name,
            data_type,
            options,
            column_position,
        } => (col_name, col_name, data_type, options, column_position),
        O::ChangeColumn {
            old_name,
            new_name,
            data_type,
            options,
            column_position,
        } => (old_name, new_name, data_type, options, column_position),
        other => return Err(MyError::internal(format!("not a column change: {other}"))),
    };
    let old = ident(old_name);
    let pos = def
        .column_index(&old)
        .ok_or_else(|| MyError::bad_field(&old, &def.name))?;
    let ast_col = ast::ColumnDef {
        name: new_name.clone(),
        data_type: data_type.clone(),
        options: options
            .iter()
            .map(|o| ast::ColumnOptionDef {
                name: None,
                option: o.clone(),
            })
            .collect(),
    };
    let col = column_def(ctx, &ast_col, def.collation, pending)?;
    check_free_name(def, &col.name, pos)?;
    if col.auto_increment && !def.columns[pos].auto_increment {
        // MySQL numbers the existing rows' 0/NULL values then; Quire does not yet.
        return Err(MyError::not_supported(
            "making an existing column AUTO_INCREMENT",
        ));
    }
    def.columns[pos] = col;
    if let Some(p) = position {
        let to = match p {
            ast::MySQLColumnPosition::First => 0,
            ast::MySQLColumnPosition::After(a) => {
                let a = ident(a);
                // Looked up among the other columns: `AFTER` itself is unknown (as MySQL).
                let at = def
                    .columns
                    .iter()
                    .enumerate()
                    .find(|(i, c)| *i != pos && c.name.eq_ignore_ascii_case(&a))
                    .map(|(i, _)| i)
                    .ok_or_else(|| MyError::bad_field(&a, &def.name))?;
                // Position once the column has been taken out.
                if at > pos { at } else { at + 1 }
            }
        };
        move_column(def, sources, pos, to);
    }
    Ok(())
}

/// `RENAME COLUMN a TO b`.
pub(super) fn rename_column(def: &mut TableDef, old: &ast::Ident, new: &ast::Ident) -> Result<()> {
    let (old, new) = (ident(old), ident(new));
    let pos = def
        .column_index(&old)
        .ok_or_else(|| MyError::bad_field(&old, &def.name))?;
    check_free_name(def, &new, pos)?;
    def.columns[pos].name = new;
    Ok(())
}

/// 1060 if another column than the one at `pos` has `name`.
fn check_free_name(def: &TableDef, name: &str, pos: usize) -> Result<()> {
    match def.column_index(name) {
        Some(other) if other != pos => Err(MyError::new(
            code::ER_DUP_FIELDNAME,
            format!("Duplicate column name '{name}'"),
        )),
        _ => Ok(()),
    }
}

/// Move the column at `from` to `to` (a position in the list without it), with its source
/// and its index parts.
fn move_column(def: &mut TableDef, sources: &mut Sources, from: usize, to: usize) {
    if from == to {
        return;
    }
    let col = def.columns.remove(from);
    def.columns.insert(to, col);
    let src = sources.remove(from);
    sources.insert(to, src);
    let remap = |c: usize| {
        if c == from {
            return to;
        }
        let without = if c > from { c - 1 } else { c };
        if without >= to { without + 1 } else { without }
    };
    let fix = |i: &mut IndexDef| {
        for c in &mut i.columns {
            c.col = remap(c.col);
        }
    };
    if let Some(p) = &mut def.primary {
        fix(p);
    }
    def.indexes.iter_mut().for_each(fix);
}

/// `RENAME {INDEX|KEY} a TO b` (parsed as a partition rename; see `parse::rewrite`).
pub(super) fn rename_index(def: &mut TableDef, old: &ast::Expr, new: &ast::Expr) -> Result<()> {
    let (ast::Expr::Identifier(old), ast::Expr::Identifier(new)) = (old, new) else {
        return Err(MyError::not_supported("ALTER TABLE … PARTITION … RENAME"));
    };
    let (old, new) = (ident(old), ident(new));
    for n in [&old, &new] {
        if n.eq_ignore_ascii_case("PRIMARY") {
            return Err(MyError::new(
                code::ER_WRONG_NAME_FOR_INDEX,
                format!("Incorrect index name '{n}'"),
            ));
        }
    }
    let Some(pos) = def
        .indexes
        .iter()
        .position(|i| i.name.eq_ignore_ascii_case(&old))
    else {
        return Err(MyError::new(
            ER_KEY_DOES_NOT_EXITS,
            format!("Key '{old}' doesn't exist in table '{}'", def.name),
        ));
    };
    if def
        .indexes
        .iter()
        .enumerate()
        .any(|(i, x)| i != pos && x.name.eq_ignore_ascii_case(&new))
    {
        return Err(MyError::new(
            code::ER_DUP_KEYNAME,
            format!("Duplicate key name '{new}'"),
        ));
    }
    def.indexes[pos].name = new;
    Ok(())
}

/// Whether a value of `old` stored as `new` needs no conversion: the same type, or a
/// VARCHAR that only grows (MySQL does that in place).
fn same_storage(old: &SqlType, new: &SqlType) -> bool {
    match (old, new) {
        (
            SqlType::VarChar {
                len: a,
                collation: ca,
            },
            SqlType::VarChar {
                len: b,
                collation: cb,
            },
        ) => ca == cb && b >= a,
        _ => old == new,
    }
}

/// Build the altered table from the old one's rows and swap it in; the statement's OK.
pub(super) async fn copy_rows(
    ctx: &mut Ctx,
    table: &Arc<Table>,
    def: TableDef,
    sources: Sources,
    force_copy: bool,
) -> Result<Outcome> {
    let old_cols = &table.def.columns;
    // Per new column: fill from, and the definition to convert to when it changed.
    let plan: Vec<(std::result::Result<usize, Value>, Option<ColumnDef>)> = sources
        .into_iter()
        .zip(&def.columns)
        .map(|(s, new)| {
            let convert = match &s {
                Ok(i) => old_cols.get(*i).is_some_and(|old| {
                    !same_storage(&old.ty, &new.ty) || (old.nullable && !new.nullable)
                }),
                Err(_) => false,
            };
            (s, convert.then(|| new.clone()))
        })
        .collect();
    let type_changed = plan.iter().any(|(s, conv)| match (s, conv) {
        (Ok(i), Some(new)) => old_cols.get(*i).is_some_and(|o| o.ty != new.ty),
        _ => false,
    });
    // MySQL alters a temporary table by copying it, always (`is_inplace_alter_impossible`).
    // `force_copy`: a checked new foreign key (MySQL's COPY algorithm).
    let copies = force_copy
        || table.temporary
        || type_changed
        || (table.def.primary.is_some() && def.primary.is_none());
    let strict = ctx.strict();
    let mut diag = Diagnostics::default();
    let mut row_no = 0u64;
    let mut map = |r: &[Value]| -> Result<Vec<Value>> {
        row_no += 1;
        let mut out = Vec::with_capacity(plan.len());
        for (s, conv) in &plan {
            let v = match s {
                Ok(i) => r.get(*i).cloned().unwrap_or(Value::Null),
                Err(v) => v.clone(),
            };
            out.push(match conv {
                None => v,
                Some(col) => convert_value(v, col, row_no, strict, &mut diag)?,
            });
        }
        Ok(out)
    };
    let rows = rebuild(ctx, table, def, &mut map).await?;
    for w in diag.list {
        ctx.diag.push(w.level, w.code, w.message);
    }
    let affected = if copies { rows } else { 0 };
    Ok(Outcome::Ok {
        affected,
        last_insert_id: 0,
        info: Some(format!(
            "Records: {affected}  Duplicates: 0  Warnings: {}",
            ctx.diag.warning_count()
        )),
    })
}

/// One old value into a column whose type or nullability changed.
fn convert_value(
    v: Value,
    col: &ColumnDef,
    row_no: u64,
    strict: bool,
    diag: &mut Diagnostics,
) -> Result<Value> {
    if v.is_null() {
        if col.nullable {
            return Ok(v);
        }
        if strict {
            return Err(MyError::new(
                code::ER_INVALID_USE_OF_NULL,
                "Invalid use of NULL value",
            ));
        }
        diag.warn(
            code::WARN_DATA_TRUNCATED,
            format!("Data truncated for column '{}' at row {row_no}", col.name),
        );
        return Ok(crate::sql::dml::implicit_default(&col.ty));
    }
    convert::store(v, &col.ty, &col.name, row_no, strict, diag)
}
