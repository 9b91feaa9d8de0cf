//! DDL: databases, tables, indexes.
//!
//! Table definitions are immutable. A DDL that changes a table builds a new definition and a
//! new table object, copies the rows (at the latest snapshot) and swaps the object into the
//! catalog. Before any change it takes the table's metadata lock exclusively, which waits for
//! every transaction that wrote the table to end (`lock_wait_timeout`), so no write can land
//! in a replaced object. Every DDL commits the session's open transaction first, as MySQL's
//! implicit commit does (the session does that before calling here).

use super::bind::{char_len_of, precision_scale};
use super::convert;
use super::types::{BlobSize, Charset, Collation, IntWidth, SqlType};
use super::utility::{Outcome, eval_const};
use super::value::Value;
use crate::error::{Diagnostics, MyError, Result, code};
use crate::session::Ctx;
use crate::storage::catalog::SYSTEM_DATABASES;
use crate::storage::schema::{
    ColumnDef, ColumnDefault, IndexColumn, IndexDef, IndexKind, TableDef,
};
use crate::storage::table::{ReadView, Table};
use sqlparser::ast;
use std::ops::Bound;
use std::sync::Arc;
use std::time::Duration;

mod alter;
mod temp;

const ER_DB_CREATE_EXISTS: u16 = 1007;
const ER_DB_DROP_EXISTS: u16 = 1008;

/// Limits MySQL places on definitions.
const COLUMNS_MAX: usize = 4096;
const INDEXES_MAX: usize = 64;
const KEY_PARTS_MAX: usize = 16;

fn ident(i: &ast::Ident) -> String {
    i.value.clone()
}

pub(crate) fn check_name(kind: u16, name: &str) -> Result<()> {
    if name.is_empty() || name.len() > 64 || name.ends_with(' ') {
        let what = if kind == code::ER_WRONG_DB_NAME {
            "database"
        } else {
            "table"
        };
        return Err(MyError::new(
            kind,
            format!("Incorrect {what} name '{name}'"),
        ));
    }
    Ok(())
}

pub fn create_database(
    ctx: &mut Ctx,
    name: &str,
    if_not_exists: bool,
    charset: Option<&str>,
    collation: Option<&str>,
) -> Result<Outcome> {
    check_name(code::ER_WRONG_DB_NAME, name)?;
    let (cs, coll) =
        charset_and_collation(charset, collation, Charset::Utf8mb4, Collation::DEFAULT)?;
    if !ctx.server.storage.catalog.create_database(name, cs, coll) {
        if if_not_exists {
            ctx.diag.note(
                ER_DB_CREATE_EXISTS,
                format!("Can't create database '{name}'; database exists"),
            );
            return Ok(Outcome::ok());
        }
        return Err(MyError::new(
            ER_DB_CREATE_EXISTS,
            format!("Can't create database '{name}'; database exists"),
        ));
    }
    Ok(Outcome::Ok {
        affected: 1,
        last_insert_id: 0,
        info: None,
    })
}

fn charset_and_collation(
    charset: Option<&str>,
    collation: Option<&str>,
    dcs: Charset,
    dcoll: Collation,
) -> Result<(Charset, Collation)> {
    let cs = match charset {
        Some(c) => Some(
            Charset::from_name(c.trim_matches(['\'', '"', '`'])).ok_or_else(|| {
                MyError::new(
                    code::ER_UNKNOWN_CHARACTER_SET,
                    format!("Unknown character set: '{c}'"),
                )
            })?,
        ),
        None => None,
    };
    let coll = match collation {
        Some(c) => Some(
            Collation::from_name(c.trim_matches(['\'', '"', '`'])).ok_or_else(|| {
                MyError::new(
                    code::ER_UNKNOWN_COLLATION,
                    format!("Unknown collation: '{c}'"),
                )
            })?,
        ),
        None => None,
    };
    Ok(match (cs, coll) {
        (Some(cs), Some(coll)) => {
            if coll.charset() != cs {
                return Err(MyError::new(
                    code::ER_COLLATION_CHARSET_MISMATCH,
                    format!(
                        "COLLATION '{}' is not valid for CHARACTER SET '{}'",
                        coll.name(),
                        cs.name()
                    ),
                ));
            }
            (cs, coll)
        }
        (Some(cs), None) => (cs, cs.default_collation()),
        (None, Some(coll)) => (coll.charset(), coll),
        (None, None) => (dcs, dcoll),
    })
}

/// Take a table's metadata lock exclusively (waits for writers' transactions to end).
async fn lock_exclusive(
    ctx: &Ctx,
    table: &Arc<Table>,
) -> Result<tokio::sync::OwnedRwLockWriteGuard<()>> {
    let timeout_s = ctx
        .vars
        .get_u64(crate::config::vars::LOCK_WAIT_TIMEOUT)
        .clamp(1, 31_536_000);
    match tokio::time::timeout(
        Duration::from_secs(timeout_s),
        table.mdl.clone().write_owned(),
    )
    .await
    {
        Ok(g) => Ok(g),
        Err(_) => Err(MyError::new(
            code::ER_LOCK_WAIT_TIMEOUT,
            "Lock wait timeout exceeded; try restarting transaction",
        )),
    }
}

pub async fn drop_database(ctx: &mut Ctx, name: &str, if_exists: bool) -> Result<Outcome> {
    if SYSTEM_DATABASES
        .iter()
        .any(|s| s.eq_ignore_ascii_case(name))
    {
        return Err(MyError::new(
            code::ER_DBACCESS_DENIED_ERROR,
            format!(
                "Access denied for user '{}'@'{}' to database '{name}'",
                ctx.priv_user, ctx.priv_host
            ),
        ));
    }
    let Some(db) = ctx.server.storage.catalog.database(name) else {
        if if_exists {
            ctx.diag.note(
                ER_DB_DROP_EXISTS,
                format!("Can't drop database '{name}'; database doesn't exist"),
            );
            return Ok(Outcome::ok());
        }
        return Err(MyError::new(
            ER_DB_DROP_EXISTS,
            format!("Can't drop database '{name}'; database doesn't exist"),
        ));
    };
    let tables: Vec<Arc<Table>> = db.tables.read().values().cloned().collect();
    let mut guards = Vec::new();
    for t in &tables {
        guards.push(lock_exclusive(ctx, t).await?);
    }
    ctx.server.storage.catalog.drop_database(name);
    if ctx.db.as_deref() == Some(name) {
        ctx.db = None;
        *ctx.shared.db.lock() = None;
    }
    Ok(Outcome::Ok {
        affected: tables.len() as u64,
        last_insert_id: 0,
        info: None,
    })
}

fn column_type(
    dt: &ast::DataType,
    charset: Option<Charset>,
    collation: Option<Collation>,
    table_coll: Collation,
) -> Result<SqlType> {
    use ast::DataType as D;
    let coll = match (charset, collation) {
        (_, Some(c)) => c,
        (Some(cs), None) => {
            if cs == table_coll.charset() {
                table_coll
            } else {
                cs.default_collation()
            }
        }
        (None, None) => table_coll,
    };
    let int = |width: IntWidth, unsigned: bool, display: &Option<u64>| SqlType::Int {
        width,
        unsigned,
        zerofill: false,
        display: display.map(|d| d.min(255) as u32),
    };
    let ty = match dt {
        D::TinyInt(d) => int(IntWidth::Tiny, false, d),
        D::TinyIntUnsigned(d) => int(IntWidth::Tiny, true, d),
        D::SmallInt(d) => int(IntWidth::Small, false, d),
        D::SmallIntUnsigned(d) => int(IntWidth::Small, true, d),
        D::MediumInt(d) => int(IntWidth::Medium, false, d),
        D::MediumIntUnsigned(d) => int(IntWidth::Medium, true, d),
        D::Int(d) | D::Integer(d) | D::Int4(d) => int(IntWidth::Int, false, d),
        D::IntUnsigned(d) | D::IntegerUnsigned(d) | D::Int4Unsigned(d) => {
            int(IntWidth::Int, true, d)
        }
        D::BigInt(d) | D::Int8(d) => int(IntWidth::Big, false, d),
        D::BigIntUnsigned(d) | D::Int8Unsigned(d) => int(IntWidth::Big, true, d),
        D::Bool | D::Boolean => SqlType::Bool,
        D::Decimal(info)
        | D::Numeric(info)
        | D::Dec(info)
        | D::DecimalUnsigned(info)
        | D::DecUnsigned(info) => {
            let (p, s) = precision_scale(info);
            if p > 65 {
                return Err(MyError::new(
                    code::ER_TOO_BIG_PRECISION,
                    format!("Too-big precision {p} specified. Maximum is 65."),
                ));
            }
            if s > 30 {
                return Err(MyError::new(
                    code::ER_TOO_BIG_SCALE,
                    format!("Too big scale {s} specified. Maximum is 30."),
                ));
            }
            if s > p {
                return Err(MyError::new(
                    code::ER_M_BIGGER_THAN_D,
                    "For float(M,D), double(M,D) or decimal(M,D), M must be >= D",
                ));
            }
            SqlType::Decimal {
                precision: p.max(1),
                scale: s,
                unsigned: matches!(dt, D::DecimalUnsigned(_) | D::DecUnsigned(_)),
            }
        }
        D::Float(info) => match info {
            ast::ExactNumberInfo::Precision(p) if *p > 24 => SqlType::Double { unsigned: false },
            _ => SqlType::Float { unsigned: false },
        },
        D::FloatUnsigned(_) => SqlType::Float { unsigned: true },
        D::Double(_) | D::DoublePrecision | D::Real | D::Float8 | D::Float64 => {
            SqlType::Double { unsigned: false }
        }
        D::DoubleUnsigned(_) | D::DoublePrecisionUnsigned | D::RealUnsigned => {
            SqlType::Double { unsigned: true }
        }
        D::Char(len) | D::Character(len) => {
            let n = char_len_of(len).unwrap_or(1);
            if n > 255 {
                return Err(MyError::new(
                    code::ER_TOO_BIG_FIELDLENGTH,
                    "Column length too big for column (max = 255); use BLOB or TEXT instead"
                        .to_string(),
                ));
            }
            if coll.is_binary() {
                SqlType::Binary { len: n }
            } else {
                SqlType::Char {
                    len: n,
                    collation: coll,
                }
            }
        }
        D::Varchar(len) | D::CharacterVarying(len) | D::CharVarying(len) | D::Nvarchar(len) => {
            let Some(n) = char_len_of(len) else {
                return Err(MyError::parse("varchar", 1));
            };
            if n > 65535 {
                return Err(MyError::new(
                    code::ER_TOO_BIG_FIELDLENGTH,
                    "Column length too big for column (max = 16383); use BLOB or TEXT instead"
                        .to_string(),
                ));
            }
            if coll.is_binary() {
                SqlType::VarBinary { len: n }
            } else {
                SqlType::VarChar {
                    len: n,
                    collation: coll,
                }
            }
        }
        D::Text => SqlType::Text {
            size: BlobSize::Normal,
            collation: coll,
        },
        D::TinyText => SqlType::Text {
            size: BlobSize::Tiny,
            collation: coll,
        },
        D::MediumText => SqlType::Text {
            size: BlobSize::Medium,
            collation: coll,
        },
        D::LongText => SqlType::Text {
            size: BlobSize::Long,
            collation: coll,
        },
        D::Binary(n) => SqlType::Binary {
            len: n.unwrap_or(1).min(255) as u32,
        },
        D::Varbinary(n) => SqlType::VarBinary {
            len: match n {
                Some(ast::BinaryLength::IntegerLength { length }) => (*length).min(65535) as u32,
                _ => 65535,
            },
        },
        D::Blob(_) => SqlType::Blob {
            size: BlobSize::Normal,
        },
        D::TinyBlob => SqlType::Blob {
            size: BlobSize::Tiny,
        },
        D::MediumBlob => SqlType::Blob {
            size: BlobSize::Medium,
        },
        D::LongBlob => SqlType::Blob {
            size: BlobSize::Long,
        },
        D::Date => SqlType::Date,
        D::Datetime(p) => SqlType::DateTime { fsp: fsp(p)? },
        D::Timestamp(p, _) => SqlType::Timestamp { fsp: fsp(p)? },
        D::Time(p, _) => SqlType::Time { fsp: fsp(p)? },
        D::JSON => SqlType::Json,
        D::Bit(n) => SqlType::Bit {
            len: n.unwrap_or(1).clamp(1, 64) as u8,
        },
        D::Enum(members, _) => SqlType::Enum {
            values: members
                .iter()
                .map(|m| match m {
                    ast::EnumMember::Name(n) => n.clone(),
                    ast::EnumMember::NamedValue(n, _) => n.clone(),
                })
                .collect(),
            collation: coll,
        },
        D::Set(values) => SqlType::Set {
            values: values.clone(),
            collation: coll,
        },
        D::Custom(name, args)
            if name.to_string().eq_ignore_ascii_case("year") && args.len() <= 1 =>
        {
            SqlType::Year
        }
        other => return Err(MyError::not_supported(format!("column type {other}"))),
    };
    // YEAR may come through as a custom type; everything else is final.
    Ok(ty)
}

fn fsp(p: &Option<u64>) -> Result<u8> {
    match p {
        None => Ok(0),
        Some(n) if *n <= 6 => Ok(*n as u8),
        Some(n) => Err(MyError::new(
            code::ER_TOO_BIG_PRECISION,
            format!("Too-big precision {n} specified. Maximum is 6."),
        )),
    }
}

fn is_now_function(e: &ast::Expr) -> Option<u8> {
    if let ast::Expr::Function(f) = e {
        let n = f.name.to_string().to_ascii_uppercase();
        if matches!(
            n.as_str(),
            "CURRENT_TIMESTAMP" | "NOW" | "LOCALTIME" | "LOCALTIMESTAMP"
        ) {
            let fsp = match &f.args {
                ast::FunctionArguments::List(l) => match l.args.first() {
                    Some(ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(
                        ast::Expr::Value(v),
                    ))) => match &v.value {
                        ast::Value::Number(n, _) => n.parse().unwrap_or(0),
                        _ => 0,
                    },
                    _ => 0,
                },
                _ => 0,
            };
            return Some(fsp);
        }
    }
    None
}

/// Index definitions gathered from a CREATE TABLE / ALTER TABLE.
struct PendingIndex {
    name: Option<String>,
    kind: IndexKind,
    columns: Vec<(String, Option<u32>, bool)>,
}

fn index_columns(cols: &[ast::IndexColumn]) -> Result<Vec<(String, Option<u32>, bool)>> {
    cols.iter()
        .map(|c| {
            let desc = c.column.options.sort == Some(ast::OrderBySort::Desc);
            match &c.column.expr {
                ast::Expr::Identifier(i) => Ok((ident(i), None, desc)),
                // `c(10)`: a prefix index.
                ast::Expr::Function(f) => {
                    let name = f.name.to_string().trim_matches('`').to_string();
                    let len = match &f.args {
                        ast::FunctionArguments::List(l) => match l.args.as_slice() {
                            [
                                ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(
                                    ast::Expr::Value(v),
                                )),
                            ] => match &v.value {
                                ast::Value::Number(n, _) => n.parse::<u32>().ok(),
                                _ => None,
                            },
                            _ => None,
                        },
                        _ => None,
                    };
                    match len {
                        Some(n) if n > 0 => Ok((name, Some(n), desc)),
                        _ => Err(MyError::not_supported("functional index parts")),
                    }
                }
                other => Err(MyError::not_supported(format!("index part {other}"))),
            }
        })
        .collect()
}

fn build_index(columns: &[ColumnDef], p: &PendingIndex, existing: &[IndexDef]) -> Result<IndexDef> {
    if p.columns.len() > KEY_PARTS_MAX {
        return Err(MyError::new(
            code::ER_TOO_MANY_KEY_PARTS,
            format!("Too many key parts specified; max {KEY_PARTS_MAX} parts allowed"),
        ));
    }
    let mut parts = Vec::new();
    for (name, prefix, desc) in &p.columns {
        let Some(ci) = columns
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
        else {
            return Err(MyError::new(
                code::ER_KEY_COLUMN_DOES_NOT_EXITS,
                format!("Key column '{name}' doesn't exist in table"),
            ));
        };
        let ty = &columns[ci].ty;
        if ty.is_blob_like() && prefix.is_none() {
            return Err(MyError::new(
                code::ER_BLOB_KEY_WITHOUT_LENGTH,
                format!(
                    "BLOB/TEXT column '{}' used in key specification without a key length",
                    columns[ci].name
                ),
            ));
        }
        if prefix.is_some() && !ty.is_string() {
            return Err(MyError::new(
                code::ER_WRONG_SUB_KEY,
                "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys",
            ));
        }
        let prefix = match prefix {
            Some(n) if !ty.is_blob_like() && *n >= ty.char_len() => None,
            other => *other,
        };
        parts.push(IndexColumn {
            col: ci,
            prefix,
            desc: *desc,
        });
    }
    let name = match (&p.name, p.kind) {
        (_, IndexKind::Primary) => "PRIMARY".to_string(),
        (Some(n), _) => n.clone(),
        (None, _) => {
            let base = columns[parts[0].col].name.clone();
            let mut name = base.clone();
            let mut n = 2;
            while existing.iter().any(|i| i.name.eq_ignore_ascii_case(&name)) {
                name = format!("{base}_{n}");
                n += 1;
            }
            name
        }
    };
    if p.kind != IndexKind::Primary && name.eq_ignore_ascii_case("PRIMARY") {
        return Err(MyError::new(
            code::ER_WRONG_NAME_FOR_INDEX,
            "Incorrect index name 'PRIMARY'",
        ));
    }
    if existing.iter().any(|i| i.name.eq_ignore_ascii_case(&name)) {
        return Err(MyError::new(
            code::ER_DUP_KEYNAME,
            format!("Duplicate key name '{name}'"),
        ));
    }
    Ok(IndexDef {
        name,
        kind: p.kind,
        columns: parts,
        comment: String::new(),
    })
}

/// Assemble and validate a table definition.
fn finish_def(
    db: &str,
    name: &str,
    mut columns: Vec<ColumnDef>,
    pending: Vec<PendingIndex>,
    opts: TableOpts,
) -> Result<TableDef> {
    if columns.is_empty() {
        return Err(MyError::new(
            code::ER_TABLE_MUST_HAVE_COLUMNS,
            "A table must have at least 1 column",
        ));
    }
    if columns.len() > COLUMNS_MAX {
        return Err(MyError::new(code::ER_TOO_MANY_FIELDS, "Too many columns"));
    }
    for (i, c) in columns.iter().enumerate() {
        if columns[..i]
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case(&c.name))
        {
            return Err(MyError::new(
                code::ER_DUP_FIELDNAME,
                format!("Duplicate column name '{}'", c.name),
            ));
        }
    }
    let mut primary: Option<IndexDef> = None;
    let mut indexes: Vec<IndexDef> = Vec::new();
    for p in &pending {
        let all: Vec<IndexDef> = primary
            .iter()
            .cloned()
            .chain(indexes.iter().cloned())
            .collect();
        if p.kind == IndexKind::Primary {
            if primary.is_some() {
                return Err(MyError::new(
                    code::ER_MULTIPLE_PRI_KEY,
                    "Multiple primary key defined",
                ));
            }
            let idx = build_index(&columns, p, &all)?;
            for ic in &idx.columns {
                columns[ic.col].nullable = false;
                if matches!(columns[ic.col].default, ColumnDefault::Null) {
                    columns[ic.col].default = ColumnDefault::None;
                }
            }
            primary = Some(idx);
        } else {
            indexes.push(build_index(&columns, p, &all)?);
        }
    }
    if indexes.len() + primary.is_some() as usize > INDEXES_MAX {
        return Err(MyError::new(
            code::ER_TOO_MANY_KEYS,
            format!("Too many keys specified; max {INDEXES_MAX} keys allowed"),
        ));
    }
    let autos: Vec<usize> = columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.auto_increment)
        .map(|(i, _)| i)
        .collect();
    if autos.len() > 1
        || autos.first().is_some_and(|&a| {
            !primary
                .iter()
                .chain(indexes.iter())
                .any(|i| i.columns.first().is_some_and(|c| c.col == a))
        })
    {
        return Err(MyError::new(
            code::ER_WRONG_AUTO_KEY,
            "Incorrect table definition; there can be only one auto column and it must be defined as a key",
        ));
    }
    Ok(TableDef {
        db: db.to_string(),
        name: name.to_string(),
        columns,
        primary,
        indexes,
        engine: opts.engine,
        charset: opts.charset,
        collation: opts.collation,
        comment: opts.comment,
        auto_increment_start: opts.auto_increment.unwrap_or(1),
        foreign_keys: Vec::new(),
    })
}

struct TableOpts {
    engine: String,
    charset: Charset,
    collation: Collation,
    comment: String,
    auto_increment: Option<u64>,
}

fn table_opts(
    ctx: &Ctx,
    db: &str,
    options: &ast::CreateTableOptions,
    comment: &Option<ast::CommentDef>,
) -> Result<TableOpts> {
    let (dcs, dcoll) = match ctx.server.storage.catalog.database(db) {
        Some(d) => (d.charset, d.collation),
        None => (Charset::Utf8mb4, Collation::DEFAULT),
    };
    let mut engine = "InnoDB".to_string();
    let mut charset = None;
    let mut collation = None;
    let mut comment_s = match comment {
        Some(ast::CommentDef::WithEq(s)) | Some(ast::CommentDef::WithoutEq(s)) => s.clone(),
        _ => String::new(),
    };
    let mut auto_increment = None;
    let list = match options {
        ast::CreateTableOptions::None => Vec::new(),
        ast::CreateTableOptions::With(v)
        | ast::CreateTableOptions::Options(v)
        | ast::CreateTableOptions::Plain(v)
        | ast::CreateTableOptions::TableProperties(v) => v.clone(),
    };
    for o in &list {
        match o {
            ast::SqlOption::NamedParenthesizedList(l)
                if l.key.value.eq_ignore_ascii_case("ENGINE") =>
            {
                if let Some(n) = &l.name {
                    let e = n.value.to_ascii_lowercase();
                    // Every engine is Quire's engine; the name is kept for SHOW CREATE TABLE only if InnoDB-like.
                    engine = match e.as_str() {
                        "innodb" | "memory" | "heap" | "myisam" | "aria" => "InnoDB".to_string(),
                        _ => {
                            return Err(MyError::new(
                                code::ER_UNKNOWN_STORAGE_ENGINE,
                                format!("Unknown storage engine '{}'", n.value),
                            ));
                        }
                    };
                }
            }
            ast::SqlOption::KeyValue { key, value } => {
                let k = key.value.to_ascii_uppercase();
                let v = match value {
                    ast::Expr::Identifier(i) => i.value.clone(),
                    ast::Expr::Value(v) => match &v.value {
                        ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
                            s.clone()
                        }
                        ast::Value::Number(n, _) => n.clone(),
                        other => other.to_string(),
                    },
                    other => other.to_string(),
                };
                match k.as_str() {
                    "ENGINE" => {}
                    "DEFAULT CHARSET" | "CHARSET" | "CHARACTER SET" | "DEFAULT CHARACTER SET" => {
                        charset = Some(v)
                    }
                    "COLLATE" | "DEFAULT COLLATE" => collation = Some(v),
                    "COMMENT" => comment_s = v,
                    "AUTO_INCREMENT" => auto_increment = v.parse::<u64>().ok(),
                    _ => {} // ROW_FORMAT, KEY_BLOCK_SIZE, STATS_*…: accepted, no effect in memory.
                }
            }
            ast::SqlOption::Comment(c) => {
                comment_s = match c {
                    ast::CommentDef::WithEq(s) | ast::CommentDef::WithoutEq(s) => s.clone(),
                };
            }
            _ => {}
        }
    }
    let (charset, collation) =
        charset_and_collation(charset.as_deref(), collation.as_deref(), dcs, dcoll)?;
    Ok(TableOpts {
        engine,
        charset,
        collation,
        comment: comment_s,
        auto_increment,
    })
}

/// A column definition from the AST; inline PRIMARY KEY / UNIQUE become pending indexes.
fn column_def(
    ctx: &mut Ctx,
    c: &ast::ColumnDef,
    table_coll: Collation,
    pending: &mut Vec<PendingIndex>,
) -> Result<ColumnDef> {
    let name = ident(&c.name);
    if name.is_empty() || name.len() > 64 {
        return Err(MyError::new(
            code::ER_WRONG_COLUMN_NAME,
            format!("Incorrect column name '{name}'"),
        ));
    }
    let mut charset = None;
    let mut collation = None;
    for o in &c.options {
        match &o.option {
            ast::ColumnOption::CharacterSet(cs) => charset = Some(cs.to_string()),
            ast::ColumnOption::Collation(cl) => collation = Some(cl.to_string()),
            _ => {}
        }
    }
    let (cs, coll) = if charset.is_some() || collation.is_some() {
        let (cs, coll) = charset_and_collation(
            charset.as_deref(),
            collation.as_deref(),
            table_coll.charset(),
            table_coll,
        )?;
        (Some(cs), Some(coll))
    } else {
        (None, None)
    };
    // SERIAL is BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE.
    let serial = matches!(&c.data_type, ast::DataType::Custom(n, m)
        if m.is_empty() && n.to_string().eq_ignore_ascii_case("serial"));
    let ty = if serial {
        SqlType::BIGINT_UNSIGNED
    } else {
        column_type(&c.data_type, cs, coll, table_coll)?
    };
    let mut col = ColumnDef {
        name: name.clone(),
        ty,
        nullable: !serial,
        default: ColumnDefault::Null,
        auto_increment: serial,
        on_update_now: false,
        comment: String::new(),
    };
    if serial {
        pending.push(PendingIndex {
            name: None,
            kind: IndexKind::Unique,
            columns: vec![(name.clone(), None, false)],
        });
    }
    let mut explicit_null = false;
    let mut default_expr = None;
    for o in &c.options {
        match &o.option {
            ast::ColumnOption::Null => explicit_null = true,
            ast::ColumnOption::NotNull => col.nullable = false,
            ast::ColumnOption::Default(e) => default_expr = Some(e.clone()),
            ast::ColumnOption::PrimaryKey(_) => pending.push(PendingIndex {
                name: None,
                kind: IndexKind::Primary,
                columns: vec![(name.clone(), None, false)],
            }),
            ast::ColumnOption::Unique(_) => pending.push(PendingIndex {
                name: None,
                kind: IndexKind::Unique,
                columns: vec![(name.clone(), None, false)],
            }),
            ast::ColumnOption::Comment(s) => col.comment = s.clone(),
            ast::ColumnOption::OnUpdate(e) => {
                if is_now_function(e).is_some()
                    && matches!(col.ty, SqlType::DateTime { .. } | SqlType::Timestamp { .. })
                {
                    col.on_update_now = true;
                } else {
                    return Err(MyError::new(
                        code::ER_INVALID_ON_UPDATE,
                        format!("Invalid ON UPDATE clause for '{name}' column"),
                    ));
                }
            }
            ast::ColumnOption::DialectSpecific(tokens) => {
                let words: Vec<String> = tokens
                    .iter()
                    .map(|t| t.to_string().to_ascii_uppercase())
                    .collect();
                if words.iter().any(|w| w == "AUTO_INCREMENT") {
                    if !col.ty.is_numeric() || matches!(col.ty, SqlType::Decimal { .. }) {
                        return Err(MyError::new(
                            code::ER_WRONG_FIELD_SPEC,
                            format!("Incorrect column specifier for column '{name}'"),
                        ));
                    }
                    col.auto_increment = true;
                }
            }
            ast::ColumnOption::CharacterSet(_) | ast::ColumnOption::Collation(_) => {}
            // A column's `REFERENCES p (c)` is parsed and ignored, as MySQL 8.0 does (only
            // the table-level FOREIGN KEY clause makes a constraint).
            ast::ColumnOption::ForeignKey(_) => {}
            ast::ColumnOption::Check(_) => return Err(MyError::not_supported("CHECK constraints")),
            ast::ColumnOption::Generated { .. } => {
                return Err(MyError::not_supported("generated columns"));
            }
            ast::ColumnOption::Invisible => {
                return Err(MyError::not_supported("INVISIBLE columns"));
            }
            other => return Err(MyError::not_supported(format!("column option {other}"))),
        }
    }
    if explicit_null && !col.nullable {
        return Err(MyError::parse("NULL", 1));
    }
    col.default = match default_expr {
        None => {
            if col.nullable && !col.auto_increment {
                ColumnDefault::Null
            } else {
                ColumnDefault::None
            }
        }
        Some(e) => {
            if let Some(fsp) = is_now_function(&e) {
                if !matches!(col.ty, SqlType::DateTime { .. } | SqlType::Timestamp { .. }) {
                    return Err(MyError::new(
                        code::ER_INVALID_DEFAULT,
                        format!("Invalid default value for '{name}'"),
                    ));
                }
                ColumnDefault::CurrentTimestamp(fsp)
            } else if matches!(&e, ast::Expr::Value(v) if matches!(v.value, ast::Value::Null)) {
                if !col.nullable {
                    return Err(MyError::new(
                        code::ER_INVALID_DEFAULT,
                        format!("Invalid default value for '{name}'"),
                    ));
                }
                ColumnDefault::Null
            } else {
                if matches!(e, ast::Expr::Nested(_)) {
                    return Err(MyError::not_supported("expression defaults"));
                }
                if col.ty.is_blob_like() {
                    return Err(MyError::new(
                        code::ER_BLOB_CANT_HAVE_DEFAULT,
                        format!(
                            "BLOB, TEXT, GEOMETRY or JSON column '{name}' can't have a default value"
                        ),
                    ));
                }
                let v = eval_const(ctx, &e)?;
                let mut d = Diagnostics::default();
                match convert::store(v, &col.ty, &name, 1, true, &mut d) {
                    Ok(v) if !v.is_null() => ColumnDefault::Value(v),
                    Ok(_) => ColumnDefault::Null,
                    Err(_) => {
                        return Err(MyError::new(
                            code::ER_INVALID_DEFAULT,
                            format!("Invalid default value for '{name}'"),
                        ));
                    }
                }
            }
        }
    };
    if col.auto_increment && matches!(col.default, ColumnDefault::Value(_)) {
        return Err(MyError::new(
            code::ER_INVALID_DEFAULT,
            format!("Invalid default value for '{name}'"),
        ));
    }
    Ok(col)
}

fn constraint(
    t: &ast::TableConstraint,
    ctx: &mut Ctx,
    fks: &mut Vec<super::fk_ddl::PendingFk>,
) -> Result<Option<PendingIndex>> {
    Ok(match t {
        ast::TableConstraint::PrimaryKey(pk) => Some(PendingIndex {
            name: None,
            kind: IndexKind::Primary,
            columns: index_columns(&pk.columns)?,
        }),
        ast::TableConstraint::Unique(u) => Some(PendingIndex {
            name: u.index_name.as_ref().or(u.name.as_ref()).map(ident),
            kind: IndexKind::Unique,
            columns: index_columns(&u.columns)?,
        }),
        ast::TableConstraint::Index(i) => Some(PendingIndex {
            name: i.name.as_ref().map(ident),
            kind: IndexKind::Index,
            columns: index_columns(&i.columns)?,
        }),
        // The key (and the index it needs, if none fits) is added once the indexes are
        // built: `fk_ddl::attach`.
        ast::TableConstraint::ForeignKey(fk) => {
            fks.push(super::fk_ddl::parse(ctx, fk)?);
            None
        }
        ast::TableConstraint::Check(_) => return Err(MyError::not_supported("CHECK constraints")),
        ast::TableConstraint::FulltextOrSpatial(_) => {
            return Err(MyError::not_supported("FULLTEXT and SPATIAL indexes"));
        }
        other => return Err(MyError::not_supported(format!("constraint {other}"))),
    })
}

pub fn resolve_db_name(ctx: &Ctx, db: Option<String>) -> Result<String> {
    let d = db.or_else(|| ctx.db.clone()).ok_or_else(MyError::no_db)?;
    if ctx.server.storage.catalog.database(&d).is_none() {
        return Err(MyError::bad_db(&d));
    }
    Ok(d)
}

pub async fn create_table(ctx: &mut Ctx, ct: &ast::CreateTable) -> Result<Outcome> {
    create_table_def(ctx, ct).map(|_| Outcome::ok())
}

/// The columns a `CREATE TABLE … SELECT` takes from its SELECT: the select list's names
/// and types, NOT NULL where the value cannot be NULL.
fn select_columns(ctx: &Ctx, q: &ast::Query) -> Result<Vec<ColumnDef>> {
    let prep = ctx.plan_text(
        &q.to_string(),
        &[],
        crate::sql::lexer::StatementKind::Select,
    )?;
    let super::Planned::Select(plan) = &prep.planned else {
        return Err(MyError::internal("CREATE TABLE … SELECT: not a query"));
    };
    let mut out: Vec<ColumnDef> = Vec::new();
    for (m, ty) in plan.columns.iter().zip(&plan.types) {
        if out.iter().any(|c| c.name.eq_ignore_ascii_case(&m.name)) {
            return Err(MyError::new(
                code::ER_DUP_FIELDNAME,
                format!("Duplicate column name '{}'", m.name),
            ));
        }
        let nullable = !m
            .flags
            .contains(mysql_common::constants::ColumnFlags::NOT_NULL_FLAG);
        // An integer expression narrower than 10 digits makes an INT column, as MySQL's
        // temporary fields do (a column keeps its own type).
        let ty = match ty {
            SqlType::Int {
                width: IntWidth::Big,
                unsigned,
                ..
            } if m.length < 10 && m.org_name.is_empty() => SqlType::Int {
                width: IntWidth::Int,
                unsigned: *unsigned,
                zerofill: false,
                display: None,
            },
            other => other.clone(),
        };
        out.push(ColumnDef::plain(&m.name, ty, nullable));
    }
    Ok(out)
}

/// CREATE TABLE's work: `None` when IF NOT EXISTS found the table there, else the names of
/// the columns a `… SELECT` fills, in its select list's order (empty without one).
pub fn create_table_def(ctx: &mut Ctx, ct: &ast::CreateTable) -> Result<Option<Vec<String>>> {
    if ct.query.is_some() && ct.like.is_some() {
        return Err(MyError::parse("SELECT", 1));
    }
    if ct.or_replace {
        return Err(MyError::parse("OR REPLACE", 1));
    }
    let (db, name) = super::planner::object_name(&ct.name)?;
    let db = resolve_db_name(ctx, db)?;
    check_name(code::ER_WRONG_TABLE_NAME, &name)?;
    if SYSTEM_DATABASES.contains(&db.as_str()) && db != "mysql" {
        return Err(MyError::new(
            code::ER_DBACCESS_DENIED_ERROR,
            format!(
                "Access denied for user '{}'@'{}' to database '{db}'",
                ctx.priv_user, ctx.priv_host
            ),
        ));
    }
    // A temporary table may take a base table's name (it shadows it for this session).
    if !ct.temporary && ctx.server.storage.catalog.table(&db, &name).is_some() {
        if ct.if_not_exists {
            ctx.diag.note(
                code::ER_TABLE_EXISTS_ERROR,
                format!("Table '{name}' already exists"),
            );
            return Ok(None);
        }
        return Err(MyError::table_exists(&name));
    }
    let mut filled = Vec::new();
    let def = if let Some(like) = &ct.like {
        let src = match like {
            ast::CreateTableLikeKind::Parenthesized(l) | ast::CreateTableLikeKind::Plain(l) => {
                &l.name
            }
        };
        let (sdb, sname) = super::planner::object_name(src)?;
        let sdb = resolve_db_name(ctx, sdb)?;
        let s = temp::find_table(ctx, &sdb, &sname)?;
        let mut d = (*s.def).clone();
        d.db = db.clone();
        d.name = name.clone();
        d.auto_increment_start = 1;
        // As MySQL: LIKE copies the indexes, not the foreign keys.
        d.foreign_keys.clear();
        d
    } else {
        let opts = table_opts(ctx, &db, &ct.table_options, &ct.comment)?;
        let mut pending = Vec::new();
        let mut columns = Vec::new();
        for c in &ct.columns {
            columns.push(column_def(ctx, c, opts.collation, &mut pending)?);
        }
        // CREATE TABLE … SELECT: the select list's columns follow the declared ones; one
        // with a declared column's name fills that column.
        if let Some(q) = &ct.query {
            for c in select_columns(ctx, q)? {
                filled.push(c.name.clone());
                if !columns.iter().any(|d| d.name.eq_ignore_ascii_case(&c.name)) {
                    columns.push(c);
                }
            }
        }
        let mut fks = Vec::new();
        for t in &ct.constraints {
            if let Some(p) = constraint(t, ctx, &mut fks)? {
                pending.push(p);
            }
        }
        // The primary key first, as InnoDB orders indexes.
        pending.sort_by_key(|p| p.kind != IndexKind::Primary);
        let mut def = finish_def(&db, &name, columns, pending, opts)?;
        super::fk_ddl::attach(ctx, &mut def, fks)?;
        def
    };
    if ct.temporary {
        return Ok(temp::create(ctx, def, ct.if_not_exists)?.then_some(filled));
    }
    let table = Arc::new(Table::new(def));
    if !ctx.server.storage.catalog.add_table(&db, table) {
        if ct.if_not_exists {
            return Ok(None);
        }
        return Err(MyError::table_exists(&name));
    }
    Ok(Some(filled))
}

/// DROP TABLE/VIEW of names not found: error 1051 naming them all, or with IF EXISTS a
/// note for each.
pub fn unknown_tables(ctx: &mut Ctx, missing: Vec<String>, if_exists: bool) -> Result<()> {
    if !missing.is_empty() && !if_exists {
        return Err(MyError::new(
            code::ER_BAD_TABLE_ERROR,
            format!("Unknown table '{}'", missing.join(",")),
        ));
    }
    for m in missing {
        ctx.diag
            .note(code::ER_BAD_TABLE_ERROR, format!("Unknown table '{m}'"));
    }
    Ok(())
}

/// `DROP [TEMPORARY] TABLE`: a name is the session's temporary table first; with
/// TEMPORARY, only that. Only base tables are journaled (as MySQL's row-based log does, a
/// statement that also dropped temporary tables is logged naming the base ones alone).
pub async fn drop_tables(
    ctx: &mut Ctx,
    names: &[ast::ObjectName],
    if_exists: bool,
    temporary: bool,
) -> Result<Outcome> {
    let mut missing = Vec::new();
    let mut found = Vec::new();
    let mut temps = Vec::new();
    for n in names {
        let (db, t) = super::planner::object_name(n)?;
        let db = match db.or_else(|| ctx.db.clone()) {
            Some(d) => d,
            None => return Err(MyError::no_db()),
        };
        if ctx.temp_table(&db, &t).is_some() {
            temps.push((db, t));
            continue;
        }
        match ctx.server.storage.catalog.table(&db, &t) {
            Some(table) if !temporary => found.push((db, t, table)),
            _ => missing.push(format!("{db}.{t}")),
        }
    }
    unknown_tables(ctx, missing, if_exists)?;
    let dropping: Vec<(String, String)> = found
        .iter()
        .map(|(d, t, _)| (d.clone(), t.clone()))
        .collect();
    for (db, t, _) in &found {
        if let Some((_, child, fk)) = super::fk_ddl::referenced_by_other(ctx, db, t, &dropping) {
            return Err(super::fk_ddl::drop_parent_error(t, &child, &fk));
        }
    }
    // Only this session can use its temporary tables: no metadata lock to wait for.
    for (db, t) in &temps {
        temp::remove(ctx, db, t);
    }
    if !temps.is_empty() {
        let quote = super::show::quote_ident;
        let base: Vec<String> = found
            .iter()
            .map(|(db, t, _)| format!("{}.{}", quote(db), quote(t)))
            .collect();
        ctx.journal_as = Some((!base.is_empty()).then(|| {
            let exists = if if_exists { "IF EXISTS " } else { "" };
            format!("DROP TABLE {exists}{}", base.join(","))
        }));
    }
    for (db, t, table) in found {
        let _g = lock_exclusive(ctx, &table).await?;
        ctx.server.storage.catalog.remove_table(&db, &t);
    }
    Ok(Outcome::ok())
}

pub async fn truncate(ctx: &mut Ctx, names: &[ast::ObjectName]) -> Result<Outcome> {
    for n in names {
        let (db, t) = super::planner::object_name(n)?;
        let db = resolve_db_name(ctx, db)?;
        if crate::observe::digest::is_summary(&db, &t) {
            ctx.server.digests.truncate();
            continue;
        }
        if let Some(log) = crate::observe::logtable::LogTable::named(&db, &t) {
            ctx.server
                .logs
                .truncate_table(log)
                .map_err(|e| MyError::storage_io(&e))?;
            continue;
        }
        let table = temp::find_table(ctx, &db, &t)?;
        if let Some((cdb, child, fk)) = super::fk_ddl::referenced_by_other(ctx, &db, &t, &[]) {
            return Err(super::fk_ddl::truncate_error(&cdb, &child, &fk));
        }
        let _g = lock_exclusive(ctx, &table).await?;
        let mut def = (*table.def).clone();
        def.auto_increment_start = 1;
        let mut fresh = Table::new(def);
        fresh.temporary = table.temporary;
        if table.temporary {
            temp::replace(ctx, &table, Arc::new(fresh));
        } else {
            ctx.server
                .storage
                .catalog
                .replace_table(&db, &table, Arc::new(fresh));
        }
    }
    Ok(Outcome::ok())
}

/// Rebuild `table` with `def` (copying the rows through `map_row`) and swap it in; the
/// number of rows copied. An error from `map_row` leaves the old table in place.
async fn rebuild(
    ctx: &mut Ctx,
    table: &Arc<Table>,
    def: TableDef,
    map_row: &mut (dyn FnMut(&[Value]) -> Result<Vec<Value>> + Send),
) -> Result<u64> {
    let _g = lock_exclusive(ctx, table).await?;
    if table.dropped.load(std::sync::atomic::Ordering::Acquire) {
        return Err(MyError::no_such_table(&def.db, &def.name));
    }
    let storage = ctx.server.storage.clone();
    let snapshot = storage.txns.take_snapshot(&ctx.snapshot_slot);
    let view = ReadView { me: 0, snapshot };
    let auto = table.peek_auto_inc();
    let mut new = Table::new(def);
    new.temporary = table.temporary;
    let new = Arc::new(new);
    new.set_auto_inc(auto.max(new.peek_auto_inc()));
    let mut result = Ok(());
    let mut rows = 0u64;
    for slot in table.scan_primary(Bound::Unbounded, Bound::Unbounded, false) {
        if let Some(row) = table.read(&slot, view) {
            let r: Arc<[Value]> = match map_row(&row) {
                Ok(r) => Arc::from(r),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            rows += 1;
            if let Err(e) = new.load_committed(r, snapshot) {
                result = Err(match super::exec::storage_err(e) {
                    super::exec::ExecError::Sql(e) => e,
                    _ => MyError::internal("unexpected wait during table copy"),
                });
                break;
            }
        }
    }
    ctx.snapshot_slot.clear();
    result?;
    let (db, name) = (new.def.db.clone(), new.def.name.clone());
    if table.temporary {
        if !temp::replace(ctx, table, new) {
            return Err(MyError::table_exists(&name));
        }
        return Ok(rows);
    }
    let catalog = &ctx.server.storage.catalog;
    if !catalog.replace_table(&table.def.db, table, new) {
        return Err(if catalog.table(&db, &name).is_some() {
            MyError::table_exists(&name)
        } else {
            MyError::no_such_table(&table.def.db, table.name())
        });
    }
    Ok(rows)
}

/// Rebuild `table` with `def`, rows unchanged.
pub(super) async fn rebuild_same(ctx: &mut Ctx, table: &Arc<Table>, def: TableDef) -> Result<()> {
    rebuild(ctx, table, def, &mut |r: &[Value]| Ok(r.to_vec()))
        .await
        .map(|_| ())
}

/// A table's own keys that reference it follow a rename of it.
fn repoint_self(def: &mut TableDef, db: &str, name: &str) {
    let (new_db, new_name) = (def.db.clone(), def.name.clone());
    for f in &mut def.foreign_keys {
        if f.parent_db == db && f.parent_table == name {
            f.parent_db = new_db.clone();
            f.parent_table = new_name.clone();
        }
    }
}

/// `RENAME TABLE a TO b [, c TO d …]`: in order, all or none (each rename is checked
/// against the names as the earlier ones leave them before any is done). A table moves
/// to another database with `db.name`.
pub async fn rename_tables(
    ctx: &mut Ctx,
    pairs: &[(ast::ObjectName, ast::ObjectName)],
) -> Result<Outcome> {
    use std::collections::BTreeMap;
    let storage = ctx.server.storage.clone();
    let catalog = &storage.catalog;
    let mut resolved = Vec::new();
    // Whether (db, name) exists once the earlier renames are done.
    let mut exists: BTreeMap<(String, String), bool> = BTreeMap::new();
    for (from, to) in pairs {
        let (fdb, fname) = super::planner::object_name(from)?;
        let fdb = resolve_db_name(ctx, fdb)?;
        let (tdb, tname) = super::planner::object_name(to)?;
        let tdb = resolve_db_name(ctx, tdb)?;
        check_name(code::ER_WRONG_TABLE_NAME, &tname)?;
        let mut there = |db: &str, n: &str| {
            *exists
                .entry((db.to_string(), n.to_string()))
                .or_insert_with(|| catalog.table(db, n).is_some() || catalog.view(db, n).is_some())
        };
        if !there(&fdb, &fname) {
            return Err(MyError::no_such_table(&fdb, &fname));
        }
        if there(&tdb, &tname) {
            return Err(MyError::table_exists(&tname));
        }
        if catalog.database(&tdb).is_none() || SYSTEM_DATABASES.contains(&tdb.as_str()) {
            return Err(MyError::new(
                code::ER_ERROR_ON_RENAME,
                format!(
                    "Error on rename of './{fdb}/{fname}' to './{tdb}/{tname}' (errno: 2 \"No such file or directory\")"
                ),
            ));
        }
        if fdb != tdb && catalog.view(&fdb, &fname).is_some() {
            return Err(MyError::new(
                code::ER_FORBID_SCHEMA_CHANGE,
                format!("Changing schema from '{fdb}' to '{tdb}' is not allowed."),
            ));
        }
        exists.insert((fdb.clone(), fname.clone()), false);
        exists.insert((tdb.clone(), tname.clone()), true);
        resolved.push((fdb, fname, tdb, tname));
    }
    for (fdb, fname, tdb, tname) in resolved {
        // A view is renamed in place (its SELECT names its tables, not itself).
        if let Some(v) = catalog.view(&fdb, &fname) {
            if !catalog.rename_view(&v, &tname) {
                return Err(MyError::table_exists(&tname));
            }
            continue;
        }
        let table = catalog
            .table(&fdb, &fname)
            .ok_or_else(|| MyError::no_such_table(&fdb, &fname))?;
        let mut def = (*table.def).clone();
        def.db = tdb.clone();
        def.name = tname.clone();
        repoint_self(&mut def, &fdb, &fname);
        rebuild(ctx, &table, def, &mut |r: &[Value]| Ok(r.to_vec())).await?;
        super::fk_ddl::repoint_children(ctx, &fdb, &fname, &tdb, &tname).await?;
    }
    Ok(Outcome::ok())
}

pub async fn create_index(ctx: &mut Ctx, ci: &ast::CreateIndex) -> Result<Outcome> {
    let (db, t) = super::planner::object_name(&ci.table_name)?;
    let db = resolve_db_name(ctx, db)?;
    let table = temp::find_table(ctx, &db, &t)?;
    let name = match &ci.name {
        Some(n) => Some(super::planner::object_name(n)?.1),
        None => None,
    };
    let p = PendingIndex {
        name,
        kind: if ci.unique {
            IndexKind::Unique
        } else {
            IndexKind::Index
        },
        columns: index_columns(&ci.columns)?,
    };
    add_indexes(ctx, &table, vec![p]).await?;
    Ok(ddl_info())
}

async fn add_indexes(ctx: &mut Ctx, table: &Arc<Table>, pending: Vec<PendingIndex>) -> Result<()> {
    let mut def = (*table.def).clone();
    for p in pending {
        let all: Vec<IndexDef> = def.all_indexes().cloned().collect();
        let idx = build_index(&def.columns, &p, &all)?;
        if idx.kind == IndexKind::Primary {
            if def.primary.is_some() {
                return Err(MyError::new(
                    code::ER_MULTIPLE_PRI_KEY,
                    "Multiple primary key defined",
                ));
            }
            for ic in &idx.columns {
                if def.columns[ic.col].nullable {
                    def.columns[ic.col].nullable = false;
                }
            }
            def.primary = Some(idx);
        } else {
            def.indexes.push(idx);
        }
    }
    rebuild(ctx, table, def, &mut |r| Ok(r.to_vec()))
        .await
        .map(|_| ())
}

pub async fn alter_table(ctx: &mut Ctx, at: &ast::AlterTable) -> Result<Outcome> {
    let (db, t) = super::planner::object_name(&at.name)?;
    let db = resolve_db_name(ctx, db)?;
    let table = temp::find_table(ctx, &db, &t)?;
    let mut def = (*table.def).clone();
    // Column mapping from the old row to the new one: Some(old position) or a default value.
    let mut sources: alter::Sources = (0..def.columns.len()).map(Ok).collect();
    let mut pending = Vec::new();
    let mut fks = Vec::new();
    for op in &at.operations {
        use ast::AlterTableOperation as O;
        match op {
            O::AddConstraint { constraint: c, .. } => {
                if let Some(p) = constraint(c, ctx, &mut fks)? {
                    pending.push(p);
                }
            }
            O::DropForeignKey { name, .. } => super::fk_ddl::drop(&mut def, &ident(name))?,
            O::DropIndex { name } => {
                let n = ident(name);
                let before = def.indexes.len();
                def.indexes.retain(|i| !i.name.eq_ignore_ascii_case(&n));
                if def.indexes.len() == before {
                    return Err(MyError::new(
                        code::ER_CANT_DROP_FIELD_OR_KEY,
                        format!("Can't DROP '{n}'; check that column/key exists"),
                    ));
                }
            }
            O::DropPrimaryKey { .. } => {
                if def.primary.take().is_none() {
                    return Err(MyError::new(
                        code::ER_CANT_DROP_FIELD_OR_KEY,
                        "Can't DROP 'PRIMARY'; check that column/key exists",
                    ));
                }
            }
            O::AddColumn {
                column_def: c,
                if_not_exists,
                column_position,
                ..
            } => {
                let name = ident(&c.name);
                if def.column_index(&name).is_some() {
                    if *if_not_exists {
                        continue;
                    }
                    return Err(MyError::new(
                        code::ER_DUP_FIELDNAME,
                        format!("Duplicate column name '{name}'"),
                    ));
                }
                let col = column_def(ctx, c, def.collation, &mut pending)?;
                let fill = match &col.default {
                    ColumnDefault::Value(v) => v.clone(),
                    ColumnDefault::Null => Value::Null,
                    ColumnDefault::CurrentTimestamp(_) => Value::DateTime(ctx.stmt_time()),
                    ColumnDefault::None => {
                        if col.auto_increment {
                            return Err(MyError::not_supported("adding an AUTO_INCREMENT column"));
                        }
                        super::dml::implicit_default(&col.ty)
                    }
                };
                let pos = match column_position {
                    None => def.columns.len(),
                    Some(ast::MySQLColumnPosition::First) => 0,
                    Some(ast::MySQLColumnPosition::After(a)) => {
                        def.column_index(&ident(a))
                            .ok_or_else(|| MyError::bad_field(&ident(a), &def.name))?
                            + 1
                    }
                };
                shift_indexes(&mut def, pos, 1);
                def.columns.insert(pos, col);
                sources.insert(pos, Err(fill));
            }
            O::DropColumn {
                column_names,
                if_exists,
                ..
            } => {
                for cn in column_names {
                    let n = ident(cn);
                    let Some(pos) = def.column_index(&n) else {
                        if *if_exists {
                            continue;
                        }
                        return Err(MyError::new(
                            code::ER_CANT_DROP_FIELD_OR_KEY,
                            format!("Can't DROP '{n}'; check that column/key exists"),
                        ));
                    };
                    if def.columns.len() == 1 {
                        return Err(MyError::new(
                            code::ER_CANT_REMOVE_ALL_FIELDS,
                            "You can't delete all columns with ALTER TABLE; use DROP TABLE instead",
                        ));
                    }
                    def.columns.remove(pos);
                    let _ = sources.remove(pos);
                    // Indexes lose the column (and vanish if it was their only one).
                    let fix = |i: &mut IndexDef| {
                        i.columns.retain(|c| c.col != pos);
                        for c in &mut i.columns {
                            if c.col > pos {
                                c.col -= 1;
                            }
                        }
                    };
                    if let Some(p) = &mut def.primary {
                        fix(p);
                        if p.columns.is_empty() {
                            def.primary = None;
                        }
                    }
                    for i in &mut def.indexes {
                        fix(i);
                    }
                    def.indexes.retain(|i| !i.columns.is_empty());
                }
            }
            O::RenameTable { table_name } => {
                let n = match table_name {
                    ast::RenameTableNameKind::As(n) | ast::RenameTableNameKind::To(n) => n,
                };
                let (ndb, nname) = super::planner::object_name(n)?;
                if ndb.is_some_and(|d| d != table.def.db) {
                    return Err(MyError::not_supported(
                        "ALTER TABLE … RENAME to another database",
                    ));
                }
                check_name(code::ER_WRONG_TABLE_NAME, &nname)?;
                if nname != def.name && ctx.server.storage.catalog.table(&def.db, &nname).is_some()
                {
                    return Err(MyError::table_exists(&nname));
                }
                def.name = nname;
            }
            O::ModifyColumn { .. } | O::ChangeColumn { .. } => {
                alter::change_column(ctx, &mut def, &mut sources, &mut pending, op)?
            }
            O::RenameColumn {
                old_column_name,
                new_column_name,
            } => alter::rename_column(&mut def, old_column_name, new_column_name)?,
            O::RenamePartitions {
                old_partitions,
                new_partitions,
            } => match (old_partitions.as_slice(), new_partitions.as_slice()) {
                ([old], [new]) => alter::rename_index(&mut def, old, new)?,
                _ => return Err(MyError::not_supported("ALTER TABLE … RENAME TO PARTITION")),
            },
            O::AutoIncrement { value, .. } => {
                if let ast::Value::Number(n, _) = &value.value {
                    def.auto_increment_start = n.parse().unwrap_or(1);
                }
            }
            O::Algorithm { .. } | O::Lock { .. } => {}
            other => return Err(MyError::not_supported(format!("ALTER TABLE {other}"))),
        }
    }
    // Rebuild the index list against the new column positions, then add new indexes.
    let mut def = finish_with_pending(def, pending)?;
    def.auto_increment_start = def.auto_increment_start.max(table.peek_auto_inc());
    if def.name != table.def.name {
        repoint_self(&mut def, &table.def.db, table.name());
    }
    let keys_before = def.foreign_keys.len();
    super::fk_ddl::attach(ctx, &mut def, fks)?;
    super::fk_ddl::check_still_indexed(ctx, &table.def, &def)?;
    super::fk_ddl::check_existing_rows(ctx, &table, &def, &def.foreign_keys[keys_before..])?;
    let renamed = (def.name != table.def.name).then(|| def.name.clone());
    // MySQL 8.0 adds a checked foreign key with the COPY algorithm: the OK counts the rows.
    let copy = def.foreign_keys.len() > keys_before
        && ctx.vars.get_bool(crate::config::vars::FOREIGN_KEY_CHECKS);
    let out = alter::copy_rows(ctx, &table, def, sources, copy).await?;
    if let Some(new) = renamed {
        super::fk_ddl::repoint_children(ctx, &db, &t, &db, &new).await?;
    }
    Ok(out)
}

fn shift_indexes(def: &mut TableDef, from: usize, by: usize) {
    let shift = |i: &mut IndexDef| {
        for c in &mut i.columns {
            if c.col >= from {
                c.col += by;
            }
        }
    };
    if let Some(p) = &mut def.primary {
        shift(p);
    }
    for i in &mut def.indexes {
        shift(i);
    }
}

fn finish_with_pending(mut def: TableDef, pending: Vec<PendingIndex>) -> Result<TableDef> {
    for p in pending {
        // A second primary key is 1068, before its name ('PRIMARY') is found taken.
        if p.kind == IndexKind::Primary && def.primary.is_some() {
            return Err(MyError::new(
                code::ER_MULTIPLE_PRI_KEY,
                "Multiple primary key defined",
            ));
        }
        let all: Vec<IndexDef> = def.all_indexes().cloned().collect();
        let idx = build_index(&def.columns, &p, &all)?;
        if idx.kind == IndexKind::Primary {
            if def.primary.is_some() {
                return Err(MyError::new(
                    code::ER_MULTIPLE_PRI_KEY,
                    "Multiple primary key defined",
                ));
            }
            for ic in &idx.columns {
                def.columns[ic.col].nullable = false;
            }
            def.primary = Some(idx);
        } else {
            def.indexes.push(idx);
        }
    }
    Ok(def)
}

pub async fn drop_index(
    ctx: &mut Ctx,
    name: &str,
    table_name: &ast::ObjectName,
) -> Result<Outcome> {
    let (db, t) = super::planner::object_name(table_name)?;
    let db = resolve_db_name(ctx, db)?;
    let table = temp::find_table(ctx, &db, &t)?;
    let mut def = (*table.def).clone();
    if name.eq_ignore_ascii_case("PRIMARY") {
        if def.primary.take().is_none() {
            return Err(MyError::new(
                code::ER_CANT_DROP_FIELD_OR_KEY,
                "Can't DROP 'PRIMARY'; check that column/key exists",
            ));
        }
    } else {
        let before = def.indexes.len();
        def.indexes.retain(|i| !i.name.eq_ignore_ascii_case(name));
        if def.indexes.len() == before {
            return Err(MyError::new(
                code::ER_CANT_DROP_FIELD_OR_KEY,
                format!("Can't DROP '{name}'; check that column/key exists"),
            ));
        }
    }
    super::fk_ddl::check_still_indexed(ctx, &table.def, &def)?;
    rebuild(ctx, &table, def, &mut |r| Ok(r.to_vec())).await?;
    Ok(ddl_info())
}

/// The OK of ALTER TABLE / CREATE INDEX / DROP INDEX, as MySQL reports an in-place change.
fn ddl_info() -> Outcome {
    Outcome::Ok {
        affected: 0,
        last_insert_id: 0,
        info: Some("Records: 0  Duplicates: 0  Warnings: 0".into()),
    }
}
