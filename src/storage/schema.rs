//! Table definitions: columns, indexes, table options. Immutable once built; DDL that changes
//! a table builds a new definition (and a new table object).

use crate::sql::types::{Charset, Collation, SqlType};
use crate::sql::value::Value;

#[derive(Clone, Debug)]
pub enum ColumnDefault {
    /// No DEFAULT clause on a NOT NULL column: inserting without a value is an error in
    /// strict mode (1364 "Field 'x' doesn't have a default value").
    None,
    /// DEFAULT NULL (or a nullable column without a DEFAULT clause).
    Null,
    /// A constant, already converted to the column's type.
    Value(Value),
    /// DEFAULT CURRENT_TIMESTAMP[(fsp)] / NOW().
    CurrentTimestamp(u8),
}

#[derive(Clone, Debug)]
pub struct ColumnDef {
    pub name: String,
    pub ty: SqlType,
    pub nullable: bool,
    pub default: ColumnDefault,
    pub auto_increment: bool,
    /// ON UPDATE CURRENT_TIMESTAMP.
    pub on_update_now: bool,
    pub comment: String,
}

impl ColumnDef {
    /// A plain column: no default, no attributes (the tables Quire computes when read).
    pub fn plain(name: &str, ty: SqlType, nullable: bool) -> ColumnDef {
        ColumnDef {
            name: name.to_string(),
            ty,
            nullable,
            default: ColumnDefault::None,
            auto_increment: false,
            on_update_now: false,
            comment: String::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexKind {
    Primary,
    Unique,
    Index,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexColumn {
    /// Position of the column in the table.
    pub col: usize,
    /// Key prefix length in characters (`KEY (c(10))`).
    pub prefix: Option<u32>,
    pub desc: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexDef {
    pub name: String,
    pub kind: IndexKind,
    pub columns: Vec<IndexColumn>,
    pub comment: String,
}

impl IndexDef {
    pub fn is_unique(&self) -> bool {
        matches!(self.kind, IndexKind::Primary | IndexKind::Unique)
    }

    pub fn covers_columns(&self, cols: &[usize]) -> bool {
        self.columns.len() == cols.len() && self.columns.iter().zip(cols).all(|(a, b)| a.col == *b)
    }
}

#[derive(Clone, Debug)]
pub struct TableDef {
    pub db: String,
    pub name: String,
    pub columns: Vec<ColumnDef>,
    /// The primary key; `None` means a hidden row id clusters the rows (as InnoDB's
    /// GEN_CLUST_INDEX), invisible to SQL.
    pub primary: Option<IndexDef>,
    /// Secondary indexes, in creation order.
    pub indexes: Vec<IndexDef>,
    pub engine: String,
    pub charset: Charset,
    pub collation: Collation,
    pub comment: String,
    /// AUTO_INCREMENT=n table option (the first value handed out).
    pub auto_increment_start: u64,
    /// Foreign keys of this table (the child side), in creation order. The parent side is
    /// derived by the catalog ([`super::catalog::Catalog::referencing`]).
    pub foreign_keys: Vec<ForeignKeyDef>,
}

/// What a foreign key does to the children when their parent row is deleted or its
/// referenced columns change. SET DEFAULT is refused at definition time (as InnoDB).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FkAction {
    Restrict,
    NoAction,
    Cascade,
    SetNull,
}

impl FkAction {
    /// As `information_schema.REFERENTIAL_CONSTRAINTS` and SHOW CREATE TABLE spell it.
    pub fn sql(self) -> &'static str {
        match self {
            FkAction::Restrict => "RESTRICT",
            FkAction::NoAction => "NO ACTION",
            FkAction::Cascade => "CASCADE",
            FkAction::SetNull => "SET NULL",
        }
    }
}

/// A FOREIGN KEY constraint, kept on the child table. Columns are named, not numbered: the
/// parent is another table that may change (or, with `foreign_key_checks=0`, not exist),
/// and names survive the child's own column moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForeignKeyDef {
    pub name: String,
    pub columns: Vec<String>,
    pub parent_db: String,
    pub parent_table: String,
    pub parent_columns: Vec<String>,
    /// NO ACTION when not written (as MySQL 8.0 records it; it behaves as RESTRICT).
    pub on_delete: FkAction,
    pub on_update: FkAction,
}

impl TableDef {
    pub fn column_index(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    }

    pub fn auto_increment_column(&self) -> Option<usize> {
        self.columns.iter().position(|c| c.auto_increment)
    }

    /// All indexes including the primary key, primary first.
    pub fn all_indexes(&self) -> impl Iterator<Item = &IndexDef> {
        self.primary.iter().chain(self.indexes.iter())
    }

    pub fn index_by_name(&self, name: &str) -> Option<&IndexDef> {
        self.all_indexes()
            .find(|i| i.name.eq_ignore_ascii_case(name))
    }

    /// The first index (primary first) whose leading columns are `cols`, in that order and
    /// without prefix parts: the one a foreign key uses to find rows.
    pub fn index_with_prefix(&self, cols: &[usize]) -> Option<&IndexDef> {
        self.all_indexes().find(|i| {
            i.columns.len() >= cols.len()
                && i.columns
                    .iter()
                    .zip(cols)
                    .all(|(c, want)| c.col == *want && c.prefix.is_none())
        })
    }

    /// Positions of the named columns (`None` if one is missing).
    pub fn column_positions(&self, names: &[String]) -> Option<Vec<usize>> {
        names.iter().map(|n| self.column_index(n)).collect()
    }

    /// Is column `col` the first column of some index, or part of the primary key?
    pub fn is_key_column(&self, col: usize) -> (bool, bool, bool) {
        let pri = self
            .primary
            .as_ref()
            .is_some_and(|p| p.columns.iter().any(|c| c.col == col));
        let uni = self.indexes.iter().any(|i| {
            i.kind == IndexKind::Unique && i.columns.len() == 1 && i.columns[0].col == col
        });
        let mul = self.indexes.iter().any(|i| {
            i.columns.first().is_some_and(|c| c.col == col)
                && !(i.kind == IndexKind::Unique && i.columns.len() == 1)
        });
        (pri, uni, mul)
    }
}

/// `WITH [CASCADED | LOCAL] CHECK OPTION` of a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckOption {
    None,
    Cascaded,
    Local,
}

impl CheckOption {
    /// As `information_schema.VIEWS.CHECK_OPTION` shows it.
    pub fn name(self) -> &'static str {
        match self {
            CheckOption::None => "NONE",
            CheckOption::Cascaded => "CASCADED",
            CheckOption::Local => "LOCAL",
        }
    }
}

/// A view: a stored query, expanded where it is named (see `crate::sql::view`). Immutable
/// like a table definition; `CREATE OR REPLACE` / `ALTER VIEW` swap in a new one.
#[derive(Clone, Debug)]
pub struct ViewDef {
    pub db: String,
    pub name: String,
    /// The view's column names: the column list, else the select list's names at creation.
    pub columns: Vec<String>,
    /// Whether `columns` came from an explicit column list (SHOW CREATE VIEW repeats it).
    pub column_list: bool,
    /// The SELECT as written (MySQL spellings already rewritten, see `sql::parse`); its
    /// unqualified table names are in `db`.
    pub select: String,
    /// `UNDEFINED`, `MERGE` or `TEMPTABLE`.
    pub algorithm: String,
    /// `user`@`host`, quoted as SHOW CREATE VIEW shows it.
    pub definer: String,
    /// `DEFINER` or `INVOKER`.
    pub security: String,
    pub check: CheckOption,
}
