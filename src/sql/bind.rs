//! Binding: from sqlparser's expression AST to compiled [`Expr`]s with types.
//!
//! The binder resolves every name against a [`Scope`] (the sources of the query block, in
//! order), every `?N` placeholder to a parameter slot, every function name to a [`Func`],
//! and infers each expression's [`SqlType`] (for result metadata and comparison collations).
//!
//! Aggregate queries bind in two layers. The *pre-aggregation* layer (WHERE, GROUP BY keys,
//! aggregate arguments) sees the sources. The *post-aggregation* layer (select list, HAVING,
//! ORDER BY) sees one tuple `[keys…, aggregates…]`: an aggregate call becomes a reference to
//! its slot, an expression equal to a GROUP BY key becomes a reference to that key, and a bare
//! column that is neither is treated as `ANY_VALUE(col)` (MySQL without ONLY_FULL_GROUP_BY).
//!
//! Parts: this file (scopes, name resolution, [`Binder::bind`]'s dispatch over the AST),
//! `calls` (system variables, literals, operators, function calls, aggregates,
//! subqueries) and `typing` (result types, collation choice, CAST targets).

use super::builtins::TrimMode;
use super::expr::{ArithOp, BitOp, CmpOp, Expr, Quant};
use super::func::{CastTo, Func};
use super::plan::{AggFunc, AggSpec, SortKey, SubqueryExpr, SubqueryKind};
use super::types::{Collation, IntWidth, SqlType};
use super::value::Value;
use crate::error::{MyError, Result, code};
use bigdecimal::BigDecimal;
use sqlparser::ast::{self, BinaryOperator, UnaryOperator};
use std::str::FromStr;
use std::sync::Arc;

mod calls;
mod typing;
use typing::*;
pub use typing::{
    bool_type, cast_target, char_len_of, contains_aggregate, literal_type, number_literal,
    pick_collation, precision_scale,
};
pub(crate) use typing::{decimal_cast, merge_types};

/// A column visible in a scope.
#[derive(Clone, Debug)]
pub struct ScopeCol {
    pub name: String,
    pub ty: SqlType,
    pub nullable: bool,
    /// Column-definition flags for metadata (PRI_KEY etc.), from the table.
    pub flags: u16,
    /// A TIMESTAMP column of a stored table: its values are UTC (see `Expr::Col`).
    pub utc: bool,
}

impl ScopeCol {
    /// A column of a stored table.
    pub fn stored(c: &crate::storage::schema::ColumnDef, flags: u16) -> ScopeCol {
        ScopeCol {
            name: c.name.clone(),
            ty: c.ty.clone(),
            nullable: c.nullable,
            flags,
            utc: matches!(c.ty, SqlType::Timestamp { .. }),
        }
    }
}

/// One source of a query block as names see it.
#[derive(Clone, Debug)]
pub struct ScopeSource {
    pub alias: String,
    pub db: String,
    pub table: String,
    pub columns: Vec<ScopeCol>,
    /// Only reachable with a qualifier (`alias.col`): the to-be-inserted row of
    /// ON DUPLICATE KEY UPDATE, so that plain `col` means the existing row.
    pub qualified_only: bool,
    /// Primary-key column positions (empty when unknown): grouping by all of them makes
    /// every other column of the source functionally dependent (ONLY_FULL_GROUP_BY).
    pub pk: Vec<usize>,
    /// Its part in `JOIN … USING` / `NATURAL JOIN` column coalescing.
    pub using: UsingCols,
}

/// MySQL coalesces the columns named in `USING (…)` (or common to a NATURAL JOIN) into one:
/// an unqualified name means the preserved side's column (the left one, the right one of a
/// RIGHT JOIN), and `*` lists it once, before the other columns. The other side's copy is
/// still there for `t.col`.
#[derive(Clone, Debug, Default)]
pub struct UsingCols {
    /// Columns that stand for a coalesced column (listed first by `*`).
    pub first: Vec<usize>,
    /// Columns merged into another source's: reachable only qualified, not in `*`.
    pub hidden: Vec<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub sources: Vec<ScopeSource>,
    /// Sources a name cannot reach at all: for the ON clause of a join, the sources of
    /// the FROM list's earlier comma-separated items (MySQL: the comma binds looser than
    /// JOIN, so `FROM a, b JOIN c ON a.x = c.x` cannot see `a`).
    pub unreachable: Vec<usize>,
}

impl Scope {
    /// Resolve `[db.][table.]col`.
    pub fn resolve(
        &self,
        db: Option<&str>,
        table: Option<&str>,
        col: &str,
        context: &str,
    ) -> Result<(usize, usize)> {
        let mut found = None;
        for (si, s) in self.sources.iter().enumerate() {
            if (table.is_none() && s.qualified_only) || self.unreachable.contains(&si) {
                continue;
            }
            if let Some(t) = table {
                if s.alias != t {
                    continue;
                }
                if let Some(d) = db
                    && s.db != d
                {
                    continue;
                }
            }
            if let Some(ci) = s
                .columns
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(col))
                && (table.is_some() || !s.using.hidden.contains(&ci))
            {
                if found.is_some() {
                    return Err(MyError::new(
                        code::ER_NON_UNIQ_ERROR,
                        format!("Column '{col}' in {context} is ambiguous"),
                    ));
                }
                found = Some((si, ci));
            }
        }
        found.ok_or_else(|| {
            let full = match (db, table) {
                (Some(d), Some(t)) => format!("{d}.{t}.{col}"),
                (None, Some(t)) => format!("{t}.{col}"),
                _ => col.to_string(),
            };
            MyError::bad_field(&full, context)
        })
    }
}

/// An expression with its inferred type.
#[derive(Clone, Debug)]
pub struct Typed {
    pub expr: Expr,
    pub ty: SqlType,
    pub nullable: bool,
    /// MySQL's collation derivation ("coercibility"): 0 explicit `COLLATE`, 2 a column,
    /// 4 a literal or other expression, 6 NULL. A comparison uses the collation of the
    /// operand with the lower value.
    pub derivation: u8,
}

impl Typed {
    pub fn new(expr: Expr, ty: SqlType, nullable: bool) -> Typed {
        let derivation = match &expr {
            Expr::Col { .. } => 2,
            Expr::Const(Value::Null) => 6,
            _ => 4,
        };
        Typed {
            expr,
            ty,
            nullable,
            derivation,
        }
    }
}

/// How placeholders came about (from the normaliser): a lifted literal or a client `?`.
#[derive(Clone, Debug)]
pub enum ParamInfo {
    /// A literal lifted out of the text: its value is known at plan time for typing only.
    Literal(Value),
    /// A client parameter (type unknown until execution).
    Client,
    /// A client parameter whose type an execution supplied (prepared statements whose result
    /// columns depend on parameter types are re-planned with them, as MariaDB does).
    Typed(SqlType),
}

/// The type a client parameter value stands for when planning with known types.
pub fn param_value_type(v: &Value) -> SqlType {
    match v {
        Value::Bytes(_) => SqlType::varchar(255),
        other => literal_type(other),
    }
}

/// Why planning from the parameterised text is not possible; the caller plans the original
/// text instead.
pub const NEEDS_LITERALS: u16 = 0xFFFF;

pub fn needs_literals() -> MyError {
    MyError {
        code: NEEDS_LITERALS,
        state: "HY000",
        message: "plan needs literal values".into(),
    }
}

/// Post-aggregation binding state.
pub struct AggCtx<'a> {
    /// The pre-aggregation scope (sources).
    pub inner: &'a Scope,
    /// GROUP BY expressions as written (to match select-list expressions) and bound.
    pub group_ast: Vec<ast::Expr>,
    pub keys: Vec<Typed>,
    pub aggs: Vec<AggSpec>,
    pub agg_types: Vec<(SqlType, bool)>,
}

pub struct Binder<'a> {
    pub scope: &'a Scope,
    pub params: &'a [ParamInfo],
    /// Placeholders seen (highest index + 1).
    pub param_count: usize,
    pub context: &'static str,
    /// Set while binding the select list of a parameterised plan: a lifted literal there
    /// would fix the result metadata to one literal's type and text.
    pub forbid_literal_params: bool,
    pub agg: Option<AggCtx<'a>>,
    /// Aggregates allowed here (select list, HAVING, ORDER BY)?
    pub allow_agg: bool,
    /// Catalog access for subqueries.
    pub planner: Option<&'a super::planner::Planner<'a>>,
    /// Select-list aliases usable here (HAVING/ORDER BY): name → bound expression.
    pub aliases: Vec<(String, Typed)>,
    /// sql_mode ONLY_FULL_GROUP_BY is on: ungrouped columns after aggregation are errors.
    pub only_full_group_by: bool,
    /// 1-based number of the expression being bound within its clause (error messages).
    pub item_no: usize,
    /// The table whose columns `DEFAULT(col)` names (INSERT's and UPDATE's target).
    pub default_table: Option<&'a crate::storage::schema::TableDef>,
}

/// Whether column `ci` of source `si` has one value per group: the source's whole primary
/// key is among the GROUP BY columns (MySQL's functional dependency, keys only).
fn functionally_dependent(agg: &AggCtx, si: usize, ci: usize) -> bool {
    let grouped = |c: usize| {
        agg.keys.iter().any(
            |k| matches!(k.expr, Expr::Col { src, col, .. } if src as usize == si && col as usize == c),
        )
    };
    determined(&agg.inner.sources[si].pk, ci, grouped)
}

/// Column `ci` of a source with primary key `pk` is determined by its group when grouped
/// itself or when the whole primary key is (a part of the key alone determines nothing,
/// and nothing is grouped without GROUP BY: `SELECT id, MAX(qty) FROM t` is error 1140
/// even for the key `id`).
fn determined(pk: &[usize], ci: usize, grouped: impl Fn(usize) -> bool) -> bool {
    grouped(ci) || (!pk.is_empty() && pk.iter().all(|&c| grouped(c)))
}

/// MySQL 8.0's ONLY_FULL_GROUP_BY errors: 1140 without GROUP BY, 1055 with it.
fn ungrouped_column_error(
    scope: &Scope,
    no_group_by: bool,
    (si, ci): (usize, usize),
    context: &str,
    item_no: usize,
) -> MyError {
    let s = &scope.sources[si];
    let col = &s.columns[ci].name;
    let name = if s.db.is_empty() {
        format!("{}.{col}", s.alias)
    } else {
        format!("{}.{}.{col}", s.db, s.alias)
    };
    let clause = match context {
        "having clause" => "HAVING clause",
        "order clause" => "ORDER BY clause",
        _ => "SELECT list",
    };
    if no_group_by {
        MyError::new(
            code::ER_MIX_OF_GROUP_FUNC_AND_FIELDS,
            format!(
                "In aggregated query without GROUP BY, expression #{item_no} of {clause} \
                 contains nonaggregated column '{name}'; this is incompatible with \
                 sql_mode=only_full_group_by"
            ),
        )
    } else {
        MyError::new(
            code::ER_WRONG_FIELD_WITH_GROUP,
            format!(
                "Expression #{item_no} of {clause} is not in GROUP BY clause and contains \
                 nonaggregated column '{name}' which is not functionally dependent on columns \
                 in GROUP BY clause; this is incompatible with sql_mode=only_full_group_by"
            ),
        )
    }
}

/// An aggregated query block seen from a subquery in its select list, HAVING or ORDER BY:
/// a correlated reference reads its group's value — a GROUP BY key, or else an implicit
/// ANY_VALUE aggregate the block gains for it (see `Binder::resolve_outer`).
pub struct OuterAgg {
    /// The GROUP BY keys that are plain columns: (source, column, key slot).
    key_cols: Vec<(usize, usize, usize)>,
    no_group_by: bool,
    only_full_group_by: bool,
    /// The block's clause and item being bound (for 1055/1140).
    context: &'static str,
    item_no: usize,
    /// The block's next aggregate slot when the subquery began.
    base: usize,
    /// Aggregates the block gains for its subqueries: slots `base`, `base + 1`, …
    pub extra: Vec<OuterAggItem>,
}

/// An aggregate a subquery adds to an enclosing aggregated block.
pub enum OuterAggItem {
    /// A non-aggregated column (source, column): an implicit ANY_VALUE.
    AnyValue(usize, usize),
    /// An aggregate whose arguments are all the block's columns (`MAX(x.d)` in a subquery
    /// of the block that reads `x`): computed over the block's groups, as MySQL does.
    Agg(AggSpec, SqlType, bool),
}

impl OuterAgg {
    fn new(b: &Binder, agg: &AggCtx) -> OuterAgg {
        let key_cols = agg
            .keys
            .iter()
            .enumerate()
            .filter_map(|(ki, k)| match k.expr {
                Expr::Col { src, col, .. } => Some((src as usize, col as usize, ki)),
                _ => None,
            })
            .collect();
        OuterAgg {
            key_cols,
            no_group_by: agg.group_ast.is_empty(),
            only_full_group_by: b.only_full_group_by,
            context: b.context,
            item_no: b.item_no,
            base: agg.keys.len() + agg.aggs.len(),
            extra: Vec::new(),
        }
    }

    /// The slot of the aggregate row that column `ci` of source `si` reads.
    fn slot(&mut self, scope: &Scope, si: usize, ci: usize) -> Result<usize> {
        let key = |c: usize| {
            self.key_cols
                .iter()
                .find(|&&(s, k, _)| s == si && k == c)
                .map(|&(_, _, slot)| slot)
        };
        if let Some(slot) = key(ci) {
            return Ok(slot);
        }
        if self.only_full_group_by && !determined(&scope.sources[si].pk, ci, |c| key(c).is_some()) {
            return Err(ungrouped_column_error(
                scope,
                self.no_group_by,
                (si, ci),
                self.context,
                self.item_no,
            ));
        }
        let known = self
            .extra
            .iter()
            .position(|x| matches!(x, OuterAggItem::AnyValue(s, c) if (*s, *c) == (si, ci)));
        Ok(self.base + known.unwrap_or_else(|| self.push(OuterAggItem::AnyValue(si, ci))))
    }

    /// Add an aggregate; its index among `extra`.
    pub(super) fn push(&mut self, item: OuterAggItem) -> usize {
        self.extra.push(item);
        self.extra.len() - 1
    }

    pub(super) fn base(&self) -> usize {
        self.base
    }
}

/// Apply MySQL's prefix `BINARY` to the leftmost operand of `e` (see
/// `Binder::binary_prefix_fix`).
fn push_binary_down(e: ast::Expr) -> ast::Expr {
    use ast::Expr as A;
    let down = |x: Box<ast::Expr>| Box::new(push_binary_down(*x));
    match e {
        A::BinaryOp { left, op, right } => A::BinaryOp {
            left: down(left),
            op,
            right,
        },
        A::Like {
            negated,
            any,
            expr,
            pattern,
            escape_char,
        } => A::Like {
            negated,
            any,
            expr: down(expr),
            pattern,
            escape_char,
        },
        A::InList {
            expr,
            list,
            negated,
        } => A::InList {
            expr: down(expr),
            list,
            negated,
        },
        A::Between {
            expr,
            negated,
            low,
            high,
        } => A::Between {
            expr: down(expr),
            negated,
            low,
            high,
        },
        A::IsNull(x) => A::IsNull(down(x)),
        A::IsNotNull(x) => A::IsNotNull(down(x)),
        A::IsTrue(x) => A::IsTrue(down(x)),
        A::IsFalse(x) => A::IsFalse(down(x)),
        other => A::Cast {
            kind: ast::CastKind::Cast,
            expr: Box::new(other),
            data_type: ast::DataType::Binary(None),
            format: None,
        },
    }
}

fn ident_name(i: &ast::Ident) -> &str {
    &i.value
}

impl<'a> Binder<'a> {
    pub fn new(scope: &'a Scope, params: &'a [ParamInfo]) -> Binder<'a> {
        Binder {
            scope,
            params,
            param_count: 0,
            context: "field list",
            forbid_literal_params: false,
            agg: None,
            allow_agg: false,
            planner: None,
            aliases: Vec::new(),
            only_full_group_by: false,
            item_no: 1,
            default_table: None,
        }
    }

    /// sqlparser parses MySQL's prefix `BINARY x = y` as `BINARY (x = y)`; in MySQL the
    /// prefix binds tighter than any binary operator. When the cast came from the prefix
    /// form (the statement text has `BINARY` just before the operand), re-apply it to the
    /// leftmost operand.
    fn binary_prefix_fix(&self, inner: &ast::Expr, ty: &ast::DataType) -> Option<ast::Expr> {
        use sqlparser::ast::Spanned;
        if !matches!(ty, ast::DataType::Binary(None))
            || !matches!(
                inner,
                ast::Expr::BinaryOp { .. }
                    | ast::Expr::Like { .. }
                    | ast::Expr::InList { .. }
                    | ast::Expr::Between { .. }
                    | ast::Expr::IsNull(_)
                    | ast::Expr::IsNotNull(_)
                    | ast::Expr::IsTrue(_)
                    | ast::Expr::IsFalse(_)
            )
        {
            return None;
        }
        let text = self.planner?.text;
        let start = inner.span().start;
        if start.line == 0 {
            return None;
        }
        let off = super::parse::offset_of(text, start.line, start.column);
        let before = text
            .get(..off)?
            .trim_end_matches(|c: char| c.is_whitespace() || c == '(');
        let word = before.get(before.len().checked_sub(6)?..)?;
        if !word.eq_ignore_ascii_case("BINARY") {
            return None;
        }
        Some(push_binary_down(inner.clone()))
    }

    fn column(&self, si: usize, ci: usize) -> Typed {
        let c = &self.scope.sources[si].columns[ci];
        let e = Expr::Col {
            src: si as u16,
            col: ci as u16,
            utc: c.utc,
        };
        Typed::new(e, c.ty.clone(), c.nullable)
    }

    fn resolve_column(
        &mut self,
        db: Option<&str>,
        table: Option<&str>,
        col: &str,
    ) -> Result<Typed> {
        if let Some(agg) = &self.agg {
            // Post-aggregation: a GROUP BY key, or an implicit ANY_VALUE.
            if table.is_none()
                && let Some((_, t)) = self
                    .aliases
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(col))
            {
                return Ok(t.clone());
            }
            let (si, ci) = match agg.inner.resolve(db, table, col, self.context) {
                Ok(x) => x,
                Err(e) if e.code == code::ER_BAD_FIELD_ERROR => {
                    // A correlated reference is constant within each group.
                    return match self.resolve_outer(db, table, col)? {
                        Some(t) => Ok(t),
                        None => Err(e),
                    };
                }
                Err(e) => return Err(e),
            };
            for (ki, k) in agg.keys.iter().enumerate() {
                if let Expr::Col { src, col, .. } = k.expr
                    && src as usize == si
                    && col as usize == ci
                {
                    return Ok(Typed::new(Expr::col(0, ki), k.ty.clone(), k.nullable));
                }
            }
            if self.only_full_group_by && !functionally_dependent(agg, si, ci) {
                return Err(ungrouped_column_error(
                    agg.inner,
                    agg.group_ast.is_empty(),
                    (si, ci),
                    self.context,
                    self.item_no,
                ));
            }
            return Ok(self.any_value(si, ci));
        }
        match self.scope.resolve(db, table, col, self.context) {
            Ok((si, ci)) => Ok(self.column(si, ci)),
            Err(e) => {
                if table.is_none()
                    && let Some((_, t)) = self
                        .aliases
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(col))
                {
                    return Ok(t.clone());
                }
                if e.code == code::ER_BAD_FIELD_ERROR
                    && let Some(t) = self.resolve_outer(db, table, col)?
                {
                    return Ok(t);
                }
                Err(e)
            }
        }
    }

    /// A column of an enclosing query block (a correlated reference), innermost first.
    fn resolve_outer(
        &mut self,
        db: Option<&str>,
        table: Option<&str>,
        col: &str,
    ) -> Result<Option<Typed>> {
        let Some(p) = self.planner else {
            return Ok(None);
        };
        let outer = p.outer.borrow();
        for (level, scope) in outer.iter().enumerate().rev() {
            match scope.resolve(db, table, col, self.context) {
                Ok((si, ci)) => {
                    let c = &scope.sources[si].columns[ci];
                    let depth = (outer.len() - level) as u16;
                    // An aggregated block: the group's value, from its aggregate row.
                    if let Some(Some(oa)) = p.outer_aggs.borrow_mut().get_mut(level) {
                        let slot = oa.slot(scope, si, ci)?;
                        p.outer_min_ref.set(p.outer_min_ref.get().min(level));
                        return Ok(Some(Typed::new(
                            Expr::OuterCol {
                                depth,
                                src: 0,
                                col: slot as u16,
                                utc: false,
                            },
                            c.ty.clone(),
                            c.nullable,
                        )));
                    }
                    if let Some(m) = p.outer_max_src.borrow_mut().get_mut(level) {
                        *m = Some(m.map_or(si, |x| x.max(si)));
                    }
                    p.outer_min_ref.set(p.outer_min_ref.get().min(level));
                    return Ok(Some(Typed::new(
                        Expr::OuterCol {
                            depth,
                            src: si as u16,
                            col: ci as u16,
                            utc: c.utc,
                        },
                        c.ty.clone(),
                        c.nullable,
                    )));
                }
                Err(e) if e.code == code::ER_BAD_FIELD_ERROR => continue,
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }

    /// An implicit ANY_VALUE of column `ci` of source `si` (a non-aggregated column of an
    /// aggregated block).
    pub(super) fn any_value(&mut self, si: usize, ci: usize) -> Typed {
        let inner = self
            .agg
            .as_ref()
            .expect("any_value outside an aggregate context")
            .inner;
        let c = &inner.sources[si].columns[ci];
        let (ty, nullable) = (c.ty.clone(), c.nullable);
        let spec = AggSpec {
            func: AggFunc::AnyValue,
            args: vec![Expr::Col {
                src: si as u16,
                col: ci as u16,
                utc: c.utc,
            }],
            distinct: false,
            coll: Collation::Binary,
            separator: Vec::new(),
            order: Vec::new(),
            arg_type: ty.clone(),
        };
        self.add_agg(spec, ty, nullable)
    }

    fn add_agg(&mut self, spec: AggSpec, ty: SqlType, nullable: bool) -> Typed {
        let agg = self
            .agg
            .as_mut()
            .expect("add_agg outside an aggregate context");
        let slot = agg.keys.len() + agg.aggs.len();
        agg.aggs.push(spec);
        agg.agg_types.push((ty.clone(), nullable));
        Typed::new(Expr::col(0, slot), ty, nullable)
    }

    pub fn bind(&mut self, e: &ast::Expr) -> Result<Typed> {
        // Post-aggregation: an expression equal to a GROUP BY key refers to it.
        if let Some(agg) = &self.agg
            && !matches!(
                e,
                ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_) | ast::Expr::Value(_)
            )
            && let Some(ki) = agg.group_ast.iter().position(|g| g == e)
        {
            let k = &agg.keys[ki];
            return Ok(Typed::new(Expr::col(0, ki), k.ty.clone(), k.nullable));
        }
        use ast::Expr as A;
        Ok(match e {
            A::Identifier(id) => {
                let name = ident_name(id);
                if id.quote_style.is_none() {
                    if let Some(v) = name.strip_prefix("@@") {
                        return self.sysvar(None, v);
                    }
                    if let Some(v) = name.strip_prefix('@') {
                        return Ok(Typed::new(
                            Expr::UserVar(Arc::from(v.to_ascii_lowercase())),
                            SqlType::varchar(255),
                            true,
                        ));
                    }
                    // A reserved word in MySQL: the function, also without parentheses.
                    if name.eq_ignore_ascii_case("current_user") {
                        return self.call(Func::CurrentUser, Vec::new());
                    }
                }
                self.resolve_column(None, None, name)?
            }
            A::CompoundIdentifier(parts) => {
                let names: Vec<&str> = parts.iter().map(ident_name).collect();
                if let Some(first) = names.first()
                    && parts[0].quote_style.is_none()
                {
                    if let Some(scope) = first.strip_prefix("@@")
                        && names.len() == 2
                    {
                        return self.sysvar(Some(scope), names[1]);
                    }
                    if first.starts_with('@') && names.len() >= 2 {
                        // `@'a'.b` isn't a thing; `@a.b` is a user variable named "a.b".
                        let name = names.join(".");
                        return Ok(Typed::new(
                            Expr::UserVar(Arc::from(name[1..].to_ascii_lowercase())),
                            SqlType::varchar(255),
                            true,
                        ));
                    }
                }
                match names.as_slice() {
                    [t, c] => self.resolve_column(None, Some(t), c)?,
                    [d, t, c] => self.resolve_column(Some(d), Some(t), c)?,
                    _ => return Err(MyError::bad_field(&names.join("."), self.context)),
                }
            }
            A::Value(v) => self.literal(&v.value)?,
            A::Nested(inner) => self.bind(inner)?,
            A::UnaryOp { op, expr } => {
                let t = self.bind(expr)?;
                match op {
                    UnaryOperator::Minus => {
                        let ty = match &t.ty {
                            SqlType::Int {
                                unsigned: true,
                                width,
                                ..
                            } => SqlType::Int {
                                width: *width,
                                unsigned: false,
                                zerofill: false,
                                display: None,
                            },
                            SqlType::Bool | SqlType::Null => SqlType::BIGINT,
                            s if s.is_string() => SqlType::DOUBLE,
                            other => other.clone(),
                        };
                        // Fold negative literals so that `-5` is the constant -5.
                        if let Expr::Const(v) = &t.expr
                            && let Some(n) = fold_neg(v)
                        {
                            return Ok(Typed::new(Expr::Const(n), ty, t.nullable));
                        }
                        Typed::new(Expr::Neg(Box::new(t.expr)), ty, t.nullable)
                    }
                    UnaryOperator::Plus => t,
                    UnaryOperator::Not | UnaryOperator::BangNot => {
                        Typed::new(Expr::Not(Box::new(t.expr)), bool_type(), t.nullable)
                    }
                    UnaryOperator::BitwiseNot => Typed::new(
                        Expr::BitNot(Box::new(t.expr)),
                        SqlType::BIGINT_UNSIGNED,
                        t.nullable,
                    ),
                    other => return Err(MyError::not_supported(format!("operator {other}"))),
                }
            }
            A::BinaryOp { left, op, right } => self.binary(left, op, right)?,
            A::IsNull(x) => Typed::new(
                Expr::IsNull(Box::new(self.bind(x)?.expr), false),
                bool_type(),
                false,
            ),
            A::IsNotNull(x) => Typed::new(
                Expr::IsNull(Box::new(self.bind(x)?.expr), true),
                bool_type(),
                false,
            ),
            A::IsTrue(x) => Typed::new(
                Expr::IsBool(Box::new(self.bind(x)?.expr), true, false),
                bool_type(),
                false,
            ),
            A::IsNotTrue(x) => Typed::new(
                Expr::IsBool(Box::new(self.bind(x)?.expr), true, true),
                bool_type(),
                false,
            ),
            A::IsFalse(x) => Typed::new(
                Expr::IsBool(Box::new(self.bind(x)?.expr), false, false),
                bool_type(),
                false,
            ),
            A::IsNotFalse(x) => Typed::new(
                Expr::IsBool(Box::new(self.bind(x)?.expr), false, true),
                bool_type(),
                false,
            ),
            A::IsUnknown(x) => Typed::new(
                Expr::IsNull(Box::new(self.bind(x)?.expr), false),
                bool_type(),
                false,
            ),
            A::IsNotUnknown(x) => Typed::new(
                Expr::IsNull(Box::new(self.bind(x)?.expr), true),
                bool_type(),
                false,
            ),
            A::InList {
                expr,
                list,
                negated,
            } => {
                if let A::Tuple(items) = expr.as_ref() {
                    let e: Vec<Typed> =
                        items.iter().map(|x| self.bind(x)).collect::<Result<_>>()?;
                    let mut rows = Vec::with_capacity(list.len());
                    for l in list {
                        let A::Tuple(vals) = l else {
                            return Err(MyError::new(
                                code::ER_OPERAND_COLUMNS,
                                format!("Operand should contain {} column(s)", e.len()),
                            ));
                        };
                        if vals.len() != e.len() {
                            return Err(MyError::new(
                                code::ER_OPERAND_COLUMNS,
                                format!("Operand should contain {} column(s)", e.len()),
                            ));
                        }
                        rows.push(
                            vals.iter()
                                .map(|x| self.bind(x).map(|t| t.expr))
                                .collect::<Result<Vec<_>>>()?,
                        );
                    }
                    let colls = e.iter().map(|t| pick_collation(t, t)).collect();
                    return Ok(Typed::new(
                        Expr::RowIn {
                            e: e.into_iter().map(|t| t.expr).collect(),
                            list: rows,
                            negated: *negated,
                            colls,
                        },
                        bool_type(),
                        true,
                    ));
                }
                let x = self.bind(expr)?;
                let mut items = Vec::with_capacity(list.len());
                let mut coll = x.ty.collation();
                let mut nullable = x.nullable;
                for l in list {
                    let t = self.bind(l)?;
                    coll = pick_collation(&x, &t);
                    nullable |= t.nullable;
                    items.push(t.expr);
                }
                Typed::new(
                    Expr::In {
                        e: Box::new(x.expr),
                        list: items,
                        negated: *negated,
                        coll,
                    },
                    bool_type(),
                    nullable,
                )
            }
            A::Between {
                expr,
                negated,
                low,
                high,
            } => {
                let x = self.bind(expr)?;
                let lo = self.bind(low)?;
                let hi = self.bind(high)?;
                let coll = pick_collation(&x, &lo);
                let nullable = x.nullable || lo.nullable || hi.nullable;
                Typed::new(
                    Expr::Between {
                        e: Box::new(x.expr),
                        lo: Box::new(lo.expr),
                        hi: Box::new(hi.expr),
                        negated: *negated,
                        coll,
                    },
                    bool_type(),
                    nullable,
                )
            }
            A::Like {
                negated,
                expr,
                pattern,
                escape_char,
                any,
            } => {
                if *any {
                    return Err(MyError::not_supported("LIKE ANY"));
                }
                let x = self.bind(expr)?;
                let p = self.bind(pattern)?;
                let escape = match escape_char {
                    None => b'\\',
                    Some(e) => match e.as_ref() {
                        A::Value(v) => match &v.value {
                            ast::Value::SingleQuotedString(s)
                            | ast::Value::DoubleQuotedString(s) => {
                                s.as_bytes().first().copied().unwrap_or(b'\\')
                            }
                            _ => {
                                return Err(MyError::new(
                                    code::ER_WRONG_ARGUMENTS,
                                    "Incorrect arguments to ESCAPE",
                                ));
                            }
                        },
                        _ => {
                            return Err(MyError::new(
                                code::ER_WRONG_ARGUMENTS,
                                "Incorrect arguments to ESCAPE",
                            ));
                        }
                    },
                };
                let coll = pick_collation(&x, &p);
                let nullable = x.nullable || p.nullable;
                Typed::new(
                    Expr::Like {
                        e: Box::new(x.expr),
                        pat: Box::new(p.expr),
                        escape,
                        negated: *negated,
                        coll,
                    },
                    bool_type(),
                    nullable,
                )
            }
            A::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                let op = operand.as_ref().map(|o| self.bind(o)).transpose()?;
                let mut whens = Vec::new();
                let mut ty: Option<SqlType> = None;
                let mut coll = Collation::DEFAULT;
                for c in conditions {
                    let w = self.bind(&c.condition)?;
                    if let Some(o) = &op {
                        coll = pick_collation(o, &w);
                    }
                    let r = self.bind(&c.result)?;
                    ty = Some(merge_types(ty, &r.ty));
                    whens.push((w.expr, r.expr));
                }
                let else_ = match else_result {
                    Some(e) => {
                        let t = self.bind(e)?;
                        ty = Some(merge_types(ty, &t.ty));
                        Some(Box::new(t.expr))
                    }
                    None => None,
                };
                Typed::new(
                    Expr::Case {
                        operand: op.map(|o| Box::new(o.expr)),
                        whens,
                        else_,
                        coll,
                    },
                    ty.unwrap_or(SqlType::Null),
                    true,
                )
            }
            A::Function(f) => self.function(f)?,
            A::Cast {
                expr, data_type, ..
            } => {
                if let Some(fixed) = self.binary_prefix_fix(expr, data_type) {
                    return self.bind(&fixed);
                }
                let x = self.bind(expr)?;
                let to = cast_target(data_type)?;
                let f = Func::Cast(to);
                let x = if f.reads_text() {
                    calls::temporal_text(x)
                } else {
                    x
                };
                let ty = f.result_type(std::slice::from_ref(&x.ty), &[]);
                Typed::new(Expr::Func(f, vec![x.expr]), ty, x.nullable)
            }
            A::Convert {
                expr,
                data_type,
                charset,
                ..
            } => {
                let x = self.bind(expr)?;
                match (data_type, charset) {
                    (Some(dt), _) => {
                        let f = Func::Cast(cast_target(dt)?);
                        let x = if f.reads_text() {
                            calls::temporal_text(x)
                        } else {
                            x
                        };
                        let ty = f.result_type(std::slice::from_ref(&x.ty), &[]);
                        Typed::new(Expr::Func(f, vec![x.expr]), ty, x.nullable)
                    }
                    (None, Some(_)) => x,
                    (None, None) => x,
                }
            }
            A::Collate { expr, collation } => {
                let x = self.bind(expr)?;
                let name = collation.to_string();
                let c = Collation::from_name(name.trim_matches('`')).ok_or_else(|| {
                    MyError::new(
                        code::ER_UNKNOWN_COLLATION,
                        format!("Unknown collation: '{name}'"),
                    )
                })?;
                if x.ty.is_string()
                    && !x.ty.collation().is_binary()
                    && x.ty.collation().charset() != c.charset()
                {
                    return Err(MyError::new(
                        code::ER_COLLATION_CHARSET_MISMATCH,
                        format!(
                            "COLLATION '{}' is not valid for CHARACTER SET '{}'",
                            c.name(),
                            x.ty.collation().charset().name()
                        ),
                    ));
                }
                let ty = match x.ty {
                    SqlType::Char { len, .. } => SqlType::Char { len, collation: c },
                    SqlType::VarChar { len, .. } => SqlType::VarChar { len, collation: c },
                    SqlType::Text { size, .. } => SqlType::Text { size, collation: c },
                    _ => SqlType::VarChar {
                        len: 255,
                        collation: c,
                    },
                };
                let mut t = Typed::new(x.expr, ty, x.nullable);
                t.derivation = 0;
                t
            }
            A::Tuple(items) if items.len() == 1 => self.bind(&items[0])?,
            A::Tuple(_) => {
                return Err(MyError::new(
                    code::ER_OPERAND_COLUMNS,
                    "Operand should contain 1 column(s)",
                ));
            }
            A::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                let mut args = vec![self.bind(expr)?];
                if let Some(f) = substring_from {
                    args.push(self.bind(f)?);
                } else {
                    args.push(Typed::new(
                        Expr::Const(Value::Int(1)),
                        SqlType::BIGINT,
                        false,
                    ));
                }
                if let Some(f) = substring_for {
                    args.push(self.bind(f)?);
                }
                self.call_named("substring", args)?
            }
            A::Trim {
                expr,
                trim_where,
                trim_what,
                trim_characters,
            } => {
                if trim_characters.is_some() {
                    return Err(MyError::not_supported("TRIM with a character list"));
                }
                let mode = match trim_where {
                    Some(ast::TrimWhereField::Leading) => TrimMode::Leading,
                    Some(ast::TrimWhereField::Trailing) => TrimMode::Trailing,
                    _ => TrimMode::Both,
                };
                let a = self.bind(expr)?;
                match trim_what {
                    Some(r) => {
                        let r = self.bind(r)?;
                        self.call(Func::TrimWith(mode), vec![a, r])?
                    }
                    None => {
                        let name = match mode {
                            TrimMode::Leading => "ltrim",
                            TrimMode::Trailing => "rtrim",
                            TrimMode::Both => "trim",
                        };
                        self.call_named(name, vec![a])?
                    }
                }
            }
            A::Position { expr, r#in } => {
                let a = self.bind(expr)?;
                let b = self.bind(r#in)?;
                self.call_named("position", vec![a, b])?
            }
            A::Ceil { expr, field } => {
                if !matches!(
                    field,
                    ast::CeilFloorKind::DateTimeField(ast::DateTimeField::NoDateTime)
                ) {
                    return Err(MyError::parse("TO", 1));
                }
                let a = self.bind(expr)?;
                self.call_named("ceil", vec![a])?
            }
            A::Floor { expr, field } => {
                if !matches!(
                    field,
                    ast::CeilFloorKind::DateTimeField(ast::DateTimeField::NoDateTime)
                ) {
                    return Err(MyError::parse("TO", 1));
                }
                let a = self.bind(expr)?;
                self.call_named("floor", vec![a])?
            }
            A::Subquery(q) => self.subquery(q, SubqueryKind::Scalar)?,
            A::Exists { subquery, negated } => {
                let t = self.subquery(subquery, SubqueryKind::Exists)?;
                if *negated {
                    Typed::new(Expr::Not(Box::new(t.expr)), bool_type(), false)
                } else {
                    t
                }
            }
            A::InSubquery {
                expr,
                subquery,
                negated,
            } => {
                // MySQL: `IN` is `= ANY`, `NOT IN` is `<> ALL`.
                let (op, quant) = if *negated {
                    (CmpOp::Ne, Quant::All)
                } else {
                    (CmpOp::Eq, Quant::Any)
                };
                self.quantified(expr, op, quant, subquery)?
            }
            A::AnyOp {
                left,
                compare_op,
                right,
                ..
            }
            | A::AllOp {
                left,
                compare_op,
                right,
            } => {
                let all = matches!(e, A::AllOp { .. });
                let (Some(op), A::Subquery(q)) = (calls::cmp_op(compare_op), right.as_ref()) else {
                    return Err(MyError::parse(if all { "ALL" } else { "ANY" }, 1));
                };
                let quant = if all { Quant::All } else { Quant::Any };
                self.quantified(left, op, quant, q)?
            }
            A::TypedString(ts) => {
                let text = match &ts.value.value {
                    ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
                        s.clone()
                    }
                    other => other.to_string(),
                };
                let to = match ts.data_type {
                    ast::DataType::Date => CastTo::Date,
                    ast::DataType::Time(..) => CastTo::Time(6),
                    ast::DataType::Timestamp(..) | ast::DataType::Datetime(_) => {
                        CastTo::DateTime(6)
                    }
                    _ => {
                        return Err(MyError::not_supported(format!(
                            "typed literal {}",
                            ts.data_type
                        )));
                    }
                };
                let f = Func::Cast(to);
                let ty = f.result_type(&[], &[]);
                Typed::new(
                    Expr::Func(f, vec![Expr::Const(Value::str(&text))]),
                    ty,
                    false,
                )
            }
            // INTERVAL only means something as an operand of + and - or of DATE_ADD & co.
            A::Interval(_) => return Err(MyError::parse("INTERVAL", 1)),
            A::Extract { field, expr, .. } => {
                let unit = self.unit_const(&field.to_string())?;
                let d = self.bind(expr)?;
                self.call_named("extract", vec![unit, d])?
            }
            A::RLike { .. } => return Err(MyError::not_supported("REGEXP")),
            A::Wildcard(_) | A::QualifiedWildcard(..) => {
                return Err(MyError::parse("*", 1));
            }
            other => return Err(MyError::not_supported(format!("expression {other}"))),
        })
    }
}
