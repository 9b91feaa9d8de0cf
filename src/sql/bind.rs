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

use super::builtins::TrimMode;
use super::expr::{ArithOp, BitOp, CmpOp, Expr};
use super::func::{CastTo, Func};
use super::plan::{AggFunc, AggSpec, SubqueryExpr, SubqueryKind};
use super::types::{Collation, IntWidth, SqlType};
use super::value::Value;
use crate::error::{MyError, Result, code};
use bigdecimal::BigDecimal;
use sqlparser::ast::{self, BinaryOperator, UnaryOperator};
use std::str::FromStr;
use std::sync::Arc;

/// A column visible in a scope.
#[derive(Clone, Debug)]
pub struct ScopeCol {
    pub name: String,
    pub ty: SqlType,
    pub nullable: bool,
    /// Column-definition flags for metadata (PRI_KEY etc.), from the table.
    pub flags: u16,
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
}

#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub sources: Vec<ScopeSource>,
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
            if table.is_none() && s.qualified_only {
                continue;
            }
            if let Some(t) = table {
                if s.alias != t {
                    continue;
                }
                if let Some(d) = db {
                    if s.db != d {
                        continue;
                    }
                }
            }
            if let Some(ci) = s
                .columns
                .iter()
                .position(|c| c.name.eq_ignore_ascii_case(col))
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
}

/// Whether column `ci` of source `si` has one value per group: the source's whole primary
/// key is among the GROUP BY columns (MySQL's functional dependency, keys only).
fn functionally_dependent(agg: &AggCtx, si: usize, ci: usize) -> bool {
    let pk = &agg.inner.sources[si].pk;
    let grouped = |c: usize| {
        agg.keys.iter().any(
            |k| matches!(k.expr, Expr::Col { src, col } if src as usize == si && col as usize == c),
        )
    };
    !pk.is_empty() && (pk.contains(&ci) || pk.iter().all(|&c| grouped(c)))
}

/// MySQL 8.0's ONLY_FULL_GROUP_BY errors: 1140 without GROUP BY, 1055 with it.
fn ungrouped_column_error(
    agg: &AggCtx,
    si: usize,
    ci: usize,
    context: &str,
    item_no: usize,
) -> MyError {
    let s = &agg.inner.sources[si];
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
    if agg.group_ast.is_empty() {
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
        Typed::new(Expr::col(si, ci), c.ty.clone(), c.nullable)
    }

    fn resolve_column(
        &mut self,
        db: Option<&str>,
        table: Option<&str>,
        col: &str,
    ) -> Result<Typed> {
        if let Some(agg) = &self.agg {
            // Post-aggregation: a GROUP BY key, or an implicit ANY_VALUE.
            if table.is_none() {
                if let Some((_, t)) = self
                    .aliases
                    .iter()
                    .find(|(n, _)| n.eq_ignore_ascii_case(col))
                {
                    return Ok(t.clone());
                }
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
                if let Expr::Col { src, col } = k.expr {
                    if src as usize == si && col as usize == ci {
                        return Ok(Typed::new(Expr::col(0, ki), k.ty.clone(), k.nullable));
                    }
                }
            }
            if self.only_full_group_by && !functionally_dependent(agg, si, ci) {
                return Err(ungrouped_column_error(
                    agg,
                    si,
                    ci,
                    self.context,
                    self.item_no,
                ));
            }
            let c = &agg.inner.sources[si].columns[ci];
            let (ty, nullable) = (c.ty.clone(), c.nullable);
            return Ok(self.add_agg(
                AggFunc::AnyValue,
                vec![Expr::col(si, ci)],
                false,
                Collation::Binary,
                ty.clone(),
                ty,
                nullable,
                Vec::new(),
            ));
        }
        match self.scope.resolve(db, table, col, self.context) {
            Ok((si, ci)) => Ok(self.column(si, ci)),
            Err(e) => {
                if table.is_none() {
                    if let Some((_, t)) = self
                        .aliases
                        .iter()
                        .find(|(n, _)| n.eq_ignore_ascii_case(col))
                    {
                        return Ok(t.clone());
                    }
                }
                if e.code == code::ER_BAD_FIELD_ERROR {
                    if let Some(t) = self.resolve_outer(db, table, col)? {
                        return Ok(t);
                    }
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
                    if let Some(m) = p.outer_max_src.borrow_mut().get_mut(level) {
                        *m = Some(m.map_or(si, |x| x.max(si)));
                    }
                    p.outer_min_ref.set(p.outer_min_ref.get().min(level));
                    return Ok(Some(Typed::new(
                        Expr::OuterCol {
                            depth,
                            src: si as u16,
                            col: ci as u16,
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

    #[allow(clippy::too_many_arguments)]
    fn add_agg(
        &mut self,
        func: AggFunc,
        args: Vec<Expr>,
        distinct: bool,
        coll: Collation,
        arg_type: SqlType,
        ty: SqlType,
        nullable: bool,
        separator: Vec<u8>,
    ) -> Typed {
        let agg = self
            .agg
            .as_mut()
            .expect("add_agg outside an aggregate context");
        let spec = AggSpec {
            func,
            args,
            distinct,
            coll,
            separator,
            arg_type,
        };
        let slot = agg.keys.len() + agg.aggs.len();
        agg.aggs.push(spec);
        agg.agg_types.push((ty.clone(), nullable));
        Typed::new(Expr::col(0, slot), ty, nullable)
    }

    pub fn bind(&mut self, e: &ast::Expr) -> Result<Typed> {
        // Post-aggregation: an expression equal to a GROUP BY key refers to it.
        if let Some(agg) = &self.agg {
            if !matches!(
                e,
                ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_) | ast::Expr::Value(_)
            ) {
                if let Some(ki) = agg.group_ast.iter().position(|g| g == e) {
                    let k = &agg.keys[ki];
                    return Ok(Typed::new(Expr::col(0, ki), k.ty.clone(), k.nullable));
                }
            }
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
                }
                self.resolve_column(None, None, name)?
            }
            A::CompoundIdentifier(parts) => {
                let names: Vec<&str> = parts.iter().map(ident_name).collect();
                if let Some(first) = names.first() {
                    if parts[0].quote_style.is_none() {
                        if let Some(scope) = first.strip_prefix("@@") {
                            if names.len() == 2 {
                                return self.sysvar(Some(scope), names[1]);
                            }
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
                        if let Expr::Const(v) = &t.expr {
                            if let Some(n) = fold_neg(v) {
                                return Ok(Typed::new(Expr::Const(n), ty, t.nullable));
                            }
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
                if matches!(**expr, ast::Expr::Tuple(_)) {
                    return Err(MyError::not_supported("row IN (subquery)"));
                }
                let x = self.bind(expr)?;
                let s = self.subquery(subquery, SubqueryKind::In)?;
                let coll = pick_collation(&x, &s);
                let Expr::Subquery(sub) = s.expr else {
                    return Err(MyError::internal("IN subquery did not bind to a subquery"));
                };
                Typed::new(
                    Expr::InSubquery {
                        e: Box::new(x.expr),
                        sub,
                        negated: *negated,
                        coll,
                    },
                    bool_type(),
                    true,
                )
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

    fn sysvar(&mut self, scope: Option<&str>, name: &str) -> Result<Typed> {
        use crate::config::{VarScope, sysvars};
        let id = sysvars::find(name).ok_or_else(|| MyError::unknown_sysvar(name))?;
        let scope = match scope.map(|s| s.to_ascii_lowercase()).as_deref() {
            None => None,
            Some("global") => Some(VarScope::Global),
            Some("session") | Some("local") => Some(VarScope::Session),
            Some(other) => return Err(MyError::unknown_sysvar(&format!("{other}.{name}"))),
        };
        match scope {
            Some(VarScope::Global) => sysvars::check_scope(id, sysvars::Access::ReadGlobal)?,
            Some(VarScope::Session) => sysvars::check_scope(id, sysvars::Access::ReadSession)?,
            None => {}
        }
        let ty = match sysvars::def(id).kind {
            sysvars::Kind::Bool | sysvars::Kind::Int { .. } => SqlType::BIGINT,
            sysvars::Kind::UInt { .. } => SqlType::BIGINT_UNSIGNED,
            sysvars::Kind::Double { .. } => SqlType::Decimal {
                precision: 20,
                scale: 6,
                unsigned: false,
            },
            _ => SqlType::varchar(255),
        };
        Ok(Typed::new(Expr::SysVar { id, scope }, ty, true))
    }

    fn literal(&mut self, v: &ast::Value) -> Result<Typed> {
        use ast::Value as V;
        Ok(match v {
            V::Number(n, _) => {
                let val = number_literal(n)?;
                let ty = literal_type(&val);
                Typed::new(Expr::Const(val), ty, false)
            }
            V::SingleQuotedString(s) | V::DoubleQuotedString(s) | V::NationalStringLiteral(s) => {
                let n = s.chars().count() as u32;
                let collation = self
                    .planner
                    .map(|p| p.conn_coll)
                    .unwrap_or(Collation::DEFAULT);
                let mut bytes = s.as_bytes().to_vec();
                super::lexer::unmap_raw_bytes(&mut bytes);
                Typed::new(
                    Expr::Const(Value::from_vec(bytes)),
                    SqlType::VarChar { len: n, collation },
                    false,
                )
            }
            V::HexStringLiteral(h) => {
                let bytes = decode_hex(h).ok_or_else(|| MyError::parse(&format!("x'{h}'"), 1))?;
                let n = bytes.len() as u32;
                Typed::new(
                    Expr::Const(Value::from_vec(bytes)),
                    SqlType::VarBinary { len: n },
                    false,
                )
            }
            V::SingleQuotedByteStringLiteral(bits) => {
                let mut x: u64 = 0;
                for c in bits.chars() {
                    let d = match c {
                        '0' => 0,
                        '1' => 1,
                        _ => return Err(MyError::parse(&format!("b'{bits}'"), 1)),
                    };
                    x = x
                        .checked_mul(2)
                        .and_then(|y| y.checked_add(d))
                        .ok_or_else(|| MyError::parse(&format!("b'{bits}'"), 1))?;
                }
                Typed::new(Expr::Const(Value::UInt(x)), SqlType::BIGINT_UNSIGNED, false)
            }
            V::Boolean(b) => Typed::new(Expr::Const(Value::Int(*b as i64)), bool_type(), false),
            V::Null => Typed::new(Expr::Const(Value::Null), SqlType::Null, true),
            V::Placeholder(p) => {
                let n: usize = p
                    .trim_start_matches('?')
                    .parse()
                    .map_err(|_| MyError::parse(p, 1))?;
                if n == 0 {
                    return Err(MyError::parse(p, 1));
                }
                let idx = n - 1;
                self.param_count = self.param_count.max(n);
                let (ty, nullable) = match self.params.get(idx) {
                    Some(ParamInfo::Literal(v)) => {
                        if self.forbid_literal_params {
                            return Err(needs_literals());
                        }
                        (literal_type(v), v.is_null())
                    }
                    Some(ParamInfo::Typed(t)) => (t.clone(), true),
                    _ => {
                        if self.forbid_literal_params {
                            // The result columns depend on the parameter's type.
                            if let Some(p) = self.planner {
                                p.param_typed_columns.set(true);
                            }
                        }
                        (SqlType::varchar(255), true)
                    }
                };
                // String literals and parameters take the connection's collation.
                let ty = match ty {
                    SqlType::VarChar { len, .. } => SqlType::VarChar {
                        len,
                        collation: self.planner.map_or(Collation::DEFAULT, |p| p.conn_coll),
                    },
                    other => other,
                };
                Typed::new(Expr::Param(idx as u32), ty, nullable)
            }
            other => return Err(MyError::not_supported(format!("literal {other}"))),
        })
    }

    /// An interval unit name as the constant unit code the date functions take.
    fn unit_const(&mut self, name: &str) -> Result<Typed> {
        let name = name.trim_matches(|c| c == '`' || c == '\'');
        // sqlparser spells some units in the plural or with a week-day argument.
        let base = match name.to_ascii_uppercase().as_str() {
            "YEARS" => "YEAR".to_string(),
            "MONTHS" => "MONTH".to_string(),
            "WEEKS" => "WEEK".to_string(),
            "DAYS" => "DAY".to_string(),
            "HOURS" => "HOUR".to_string(),
            "MINUTES" => "MINUTE".to_string(),
            "SECONDS" => "SECOND".to_string(),
            "MICROSECONDS" => "MICROSECOND".to_string(),
            other => other.to_string(),
        };
        let unit = super::temporal::IntervalUnit::from_name(&base)
            .ok_or_else(|| MyError::parse(name, 1))?;
        let code = super::builtins::interval_unit_code(unit);
        Ok(Typed::new(
            Expr::Const(Value::Int(code)),
            SqlType::BIGINT,
            false,
        ))
    }

    /// `INTERVAL n unit` as the (amount, unit code) argument pair.
    fn interval_args(&mut self, iv: &ast::Interval) -> Result<(Typed, Typed)> {
        if iv.last_field.is_some() || iv.leading_precision.is_some() {
            return Err(MyError::parse(&iv.to_string(), 1));
        }
        let Some(field) = &iv.leading_field else {
            return Err(MyError::parse(&iv.to_string(), 1));
        };
        let unit = self.unit_const(&field.to_string())?;
        let amount = self.bind(&iv.value)?;
        Ok((amount, unit))
    }

    fn binary(
        &mut self,
        left: &ast::Expr,
        op: &BinaryOperator,
        right: &ast::Expr,
    ) -> Result<Typed> {
        use BinaryOperator as B;
        // Date arithmetic: d + INTERVAL n unit, INTERVAL n unit + d, d - INTERVAL n unit.
        match (left, op, right) {
            (d, B::Plus, ast::Expr::Interval(iv)) | (ast::Expr::Interval(iv), B::Plus, d)
                if !matches!(d, ast::Expr::Interval(_)) =>
            {
                let d = self.bind(d)?;
                let (n, unit) = self.interval_args(iv)?;
                return self.call_named("date_add", vec![d, n, unit]);
            }
            (d, B::Minus, ast::Expr::Interval(iv)) if !matches!(d, ast::Expr::Interval(_)) => {
                let d = self.bind(d)?;
                let (n, unit) = self.interval_args(iv)?;
                return self.call_named("date_sub", vec![d, n, unit]);
            }
            _ => {}
        }
        if let B::Assignment = op {
            let ast::Expr::Identifier(id) = left else {
                return Err(MyError::parse(":=", 1));
            };
            let Some(name) = id.value.strip_prefix('@') else {
                return Err(MyError::parse(":=", 1));
            };
            let r = self.bind(right)?;
            return Ok(Typed::new(
                Expr::SetUserVar(Arc::from(name.to_ascii_lowercase()), Box::new(r.expr)),
                r.ty,
                true,
            ));
        }
        // Row constructor comparison: (a, b) = (c, d)
        if let (ast::Expr::Tuple(l), ast::Expr::Tuple(r)) = (left, right) {
            let cmp = match op {
                B::Eq => CmpOp::Eq,
                B::NotEq => CmpOp::Ne,
                B::Spaceship => CmpOp::NullSafeEq,
                _ => return Err(MyError::not_supported("row comparison other than = and <>")),
            };
            if l.len() != r.len() {
                return Err(MyError::new(
                    code::ER_OPERAND_COLUMNS,
                    format!("Operand should contain {} column(s)", l.len()),
                ));
            }
            let lt: Vec<Typed> = l.iter().map(|x| self.bind(x)).collect::<Result<_>>()?;
            let rt: Vec<Typed> = r.iter().map(|x| self.bind(x)).collect::<Result<_>>()?;
            let colls = lt
                .iter()
                .zip(&rt)
                .map(|(a, b)| pick_collation(a, b))
                .collect();
            return Ok(Typed::new(
                Expr::RowCmp(
                    cmp,
                    lt.into_iter().map(|t| t.expr).collect(),
                    rt.into_iter().map(|t| t.expr).collect(),
                    colls,
                ),
                bool_type(),
                true,
            ));
        }
        let l = self.bind(left)?;
        let r = self.bind(right)?;
        let nullable = l.nullable || r.nullable;
        let cmp = |c: CmpOp, l: Typed, r: Typed| {
            let coll = pick_collation(&l, &r);
            let nullable = if c == CmpOp::NullSafeEq {
                false
            } else {
                nullable
            };
            Typed::new(
                Expr::Cmp(c, Box::new(l.expr), Box::new(r.expr), coll),
                bool_type(),
                nullable,
            )
        };
        let arith = |o: ArithOp, l: Typed, r: Typed| {
            let ty = arith_type(o, &l.ty, &r.ty);
            let nullable = nullable || matches!(o, ArithOp::Div | ArithOp::IntDiv | ArithOp::Mod);
            Typed::new(
                Expr::Arith(o, Box::new(l.expr), Box::new(r.expr)),
                ty,
                nullable,
            )
        };
        let bit = |o: BitOp, l: Typed, r: Typed| {
            Typed::new(
                Expr::Bit(o, Box::new(l.expr), Box::new(r.expr)),
                SqlType::BIGINT_UNSIGNED,
                nullable,
            )
        };
        Ok(match op {
            B::Eq => cmp(CmpOp::Eq, l, r),
            B::NotEq => cmp(CmpOp::Ne, l, r),
            B::Lt => cmp(CmpOp::Lt, l, r),
            B::LtEq => cmp(CmpOp::Le, l, r),
            B::Gt => cmp(CmpOp::Gt, l, r),
            B::GtEq => cmp(CmpOp::Ge, l, r),
            B::Spaceship => cmp(CmpOp::NullSafeEq, l, r),
            B::And => Typed::new(
                Expr::And(Box::new(l.expr), Box::new(r.expr)),
                bool_type(),
                nullable,
            ),
            // `||` is OR in MySQL unless PIPES_AS_CONCAT.
            B::Or | B::StringConcat => Typed::new(
                Expr::Or(Box::new(l.expr), Box::new(r.expr)),
                bool_type(),
                nullable,
            ),
            B::Xor => Typed::new(
                Expr::Xor(Box::new(l.expr), Box::new(r.expr)),
                bool_type(),
                nullable,
            ),
            B::Plus => arith(ArithOp::Add, l, r),
            B::Minus => arith(ArithOp::Sub, l, r),
            B::Multiply => arith(ArithOp::Mul, l, r),
            B::Divide => arith(ArithOp::Div, l, r),
            B::Modulo => arith(ArithOp::Mod, l, r),
            B::MyIntegerDivide | B::DuckIntegerDivide => arith(ArithOp::IntDiv, l, r),
            B::BitwiseAnd => bit(BitOp::And, l, r),
            B::BitwiseOr => bit(BitOp::Or, l, r),
            B::BitwiseXor | B::PGBitwiseXor => bit(BitOp::Xor, l, r),
            B::PGBitwiseShiftLeft => bit(BitOp::Shl, l, r),
            B::PGBitwiseShiftRight => bit(BitOp::Shr, l, r),
            other => return Err(MyError::not_supported(format!("operator {other}"))),
        })
    }

    /// Call a function known to exist by name.
    fn call_named(&mut self, name: &str, args: Vec<Typed>) -> Result<Typed> {
        let f =
            Func::lookup(name).ok_or_else(|| MyError::internal(format!("no function {name}")))?;
        self.call(f, args)
    }

    fn call(&mut self, f: Func, args: Vec<Typed>) -> Result<Typed> {
        let (min, max) = f.arity();
        if args.len() < min || args.len() > max {
            return Err(MyError::new(
                code::ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT,
                format!(
                    "Incorrect parameter count in the call to native function '{}'",
                    f.name()
                ),
            ));
        }
        let types: Vec<SqlType> = args.iter().map(|a| a.ty.clone()).collect();
        // Constant arguments fix some result types (NOW(3), ROUND(d, 2), INTERVAL units).
        let consts: Vec<Option<Value>> = args
            .iter()
            .map(|a| match &a.expr {
                Expr::Const(v) => Some(v.clone()),
                _ => None,
            })
            .collect();
        let ty = f.result_type(&types, &consts);
        let nullable = match f {
            Func::Coalesce => args.iter().all(|a| a.nullable),
            Func::IfNull => args.get(1).is_some_and(|a| a.nullable),
            Func::ConnectionId
            | Func::Version
            | Func::User
            | Func::CurrentUser
            | Func::FoundRows
            | Func::RowCount
            | Func::LastInsertId => false,
            Func::Builtin(b) => !NOT_NULL_BUILTINS.contains(&b.0.name),
            _ => true,
        };
        Ok(Typed::new(
            Expr::Func(f, args.into_iter().map(|a| a.expr).collect()),
            ty,
            nullable,
        ))
    }

    fn function(&mut self, f: &ast::Function) -> Result<Typed> {
        let name = f.name.to_string().to_ascii_lowercase();
        let name = name.trim_matches('`').to_string();
        let (args, distinct, star) = match &f.args {
            ast::FunctionArguments::None => (Vec::new(), false, false),
            ast::FunctionArguments::List(l) => {
                let distinct = matches!(
                    l.duplicate_treatment,
                    Some(ast::DuplicateTreatment::Distinct)
                );
                let mut out = Vec::new();
                let mut star = false;
                for a in &l.args {
                    match a {
                        ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => {
                            out.push(e.clone())
                        }
                        ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Wildcard) => star = true,
                        other => {
                            return Err(MyError::not_supported(format!(
                                "function argument {other}"
                            )));
                        }
                    }
                }
                (out, distinct, star)
            }
            ast::FunctionArguments::Subquery(_) => {
                return Err(MyError::not_supported("subquery as function argument"));
            }
        };
        if f.over.is_some() {
            return Err(MyError::not_supported("window functions"));
        }
        if let Some(agg) = agg_func(&name) {
            return self.aggregate(agg, &name, &args, distinct, star);
        }
        if star {
            return Err(MyError::parse("*", 1));
        }
        let func = Func::lookup(&name).ok_or_else(|| {
            MyError::new(
                code::ER_SP_DOES_NOT_EXIST,
                format!("FUNCTION {name} does not exist"),
            )
        })?;
        if func == Func::Values {
            return Err(MyError::not_supported(
                "VALUES() outside ON DUPLICATE KEY UPDATE",
            ));
        }
        // Functions with a unit argument: DATE_ADD(d, INTERVAL n unit) & co. take
        // (d, n, unit code); TIMESTAMPDIFF/TIMESTAMPADD(unit, …) take the code first.
        match (name.as_str(), args.as_slice()) {
            ("date_add" | "date_sub" | "adddate" | "subdate", [d, ast::Expr::Interval(iv)]) => {
                let d = self.bind(d)?;
                let (n, unit) = self.interval_args(iv)?;
                let f = if name == "date_add" || name == "adddate" {
                    "date_add"
                } else {
                    "date_sub"
                };
                return self.call_named(f, vec![d, n, unit]);
            }
            ("timestampdiff" | "timestampadd", [ast::Expr::Identifier(u), rest @ ..]) => {
                let mut bound = vec![self.unit_const(&u.value)?];
                for a in rest {
                    bound.push(self.bind(a)?);
                }
                return self.call(func, bound);
            }
            ("get_format", [ast::Expr::Identifier(u), rest @ ..]) => {
                let mut bound = vec![Typed::new(
                    Expr::Const(Value::str(&u.value.to_ascii_uppercase())),
                    SqlType::varchar(8),
                    false,
                )];
                for a in rest {
                    bound.push(self.bind(a)?);
                }
                return self.call(func, bound);
            }
            _ => {}
        }
        let bound = args
            .iter()
            .map(|a| self.bind(a))
            .collect::<Result<Vec<_>>>()?;
        self.call(func, bound)
    }

    fn aggregate(
        &mut self,
        func: AggFunc,
        name: &str,
        args: &[ast::Expr],
        distinct: bool,
        star: bool,
    ) -> Result<Typed> {
        if !self.allow_agg || self.agg.is_none() {
            return Err(MyError::new(
                code::ER_INVALID_GROUP_FUNC_USE,
                "Invalid use of group function",
            ));
        }
        // Arguments bind against the sources, not the aggregate tuple.
        let inner_scope = self.agg.as_ref().expect("checked").inner;
        let mut inner = Binder::new(inner_scope, self.params);
        inner.context = self.context;
        inner.forbid_literal_params = self.forbid_literal_params;
        inner.planner = self.planner;
        let bound: Vec<Typed> = args.iter().map(|a| inner.bind(a)).collect::<Result<_>>()?;
        self.param_count = self.param_count.max(inner.param_count);
        let func = if star {
            if name != "count" {
                return Err(MyError::parse("*", 1));
            }
            AggFunc::CountStar
        } else {
            func
        };
        if func != AggFunc::CountStar && bound.is_empty() {
            return Err(MyError::parse(")", 1));
        }
        if bound.len() > 1 && !(func == AggFunc::Count && distinct) && func != AggFunc::GroupConcat
        {
            return Err(MyError::parse(",", 1));
        }
        let arg_ty = bound.first().map(|b| b.ty.clone()).unwrap_or(SqlType::Null);
        let coll = arg_ty.collation();
        let (ty, nullable) = match func {
            AggFunc::CountStar | AggFunc::Count => (
                SqlType::Int {
                    width: IntWidth::Big,
                    unsigned: false,
                    zerofill: false,
                    display: Some(21),
                },
                false,
            ),
            AggFunc::Sum => (sum_type(&arg_ty), true),
            AggFunc::Avg => (avg_type(&arg_ty), true),
            AggFunc::Min | AggFunc::Max | AggFunc::AnyValue => (arg_ty.clone(), true),
            AggFunc::GroupConcat => (
                SqlType::Text {
                    size: super::types::BlobSize::Normal,
                    collation: Collation::DEFAULT,
                },
                true,
            ),
            AggFunc::BitAnd | AggFunc::BitOr | AggFunc::BitXor => (SqlType::BIGINT_UNSIGNED, false),
            AggFunc::StdDevPop | AggFunc::StdDevSamp | AggFunc::VarPop | AggFunc::VarSamp => {
                (SqlType::DOUBLE, true)
            }
        };
        Ok(self.add_agg(
            func,
            bound.into_iter().map(|b| b.expr).collect(),
            distinct,
            coll,
            arg_ty,
            ty,
            nullable,
            b",".to_vec(),
        ))
    }

    fn subquery(&mut self, q: &ast::Query, kind: SubqueryKind) -> Result<Typed> {
        let planner = self
            .planner
            .ok_or_else(|| MyError::not_supported("subqueries here"))?;
        // This block's columns become visible to the subquery as outer references.
        let level = {
            let mut outer = planner.outer.borrow_mut();
            outer.push(self.scope.clone());
            planner.outer_max_src.borrow_mut().push(None);
            outer.len() - 1
        };
        let min_before = planner.outer_min_ref.replace(usize::MAX);
        let planned = planner.plan_query(q, self.params, None);
        planner.outer.borrow_mut().pop();
        let outer_max_source = planner.outer_max_src.borrow_mut().pop().flatten();
        let min_ref = planner.outer_min_ref.get();
        planner.outer_min_ref.set(min_before.min(min_ref));
        let correlated = min_ref <= level;
        let plan = planned?;
        if kind != SubqueryKind::Exists && plan.columns.len() != 1 {
            return Err(MyError::new(
                code::ER_OPERAND_COLUMNS,
                "Operand should contain 1 column(s)",
            ));
        }
        let ty = match kind {
            SubqueryKind::Scalar | SubqueryKind::In => {
                plan.types.first().cloned().unwrap_or(SqlType::Null)
            }
            SubqueryKind::Exists => bool_type(),
        };
        Ok(Typed::new(
            Expr::Subquery(Arc::new(SubqueryExpr {
                plan,
                kind,
                outer_max_source,
                correlated,
            })),
            ty,
            kind != SubqueryKind::Exists,
        ))
    }
}

fn agg_func(name: &str) -> Option<AggFunc> {
    Some(match name {
        "count" => AggFunc::Count,
        "sum" => AggFunc::Sum,
        "avg" => AggFunc::Avg,
        "min" => AggFunc::Min,
        "max" => AggFunc::Max,
        "any_value" => AggFunc::AnyValue,
        "group_concat" => AggFunc::GroupConcat,
        "bit_and" => AggFunc::BitAnd,
        "bit_or" => AggFunc::BitOr,
        "bit_xor" => AggFunc::BitXor,
        "std" | "stddev" | "stddev_pop" => AggFunc::StdDevPop,
        "stddev_samp" => AggFunc::StdDevSamp,
        "variance" | "var_pop" => AggFunc::VarPop,
        "var_samp" => AggFunc::VarSamp,
        _ => return None,
    })
}

/// Does this AST contain an aggregate call (outside subqueries)?
pub fn contains_aggregate(e: &ast::Expr) -> bool {
    use ast::Expr as A;
    match e {
        A::Function(f) => {
            let name = f.name.to_string().to_ascii_lowercase();
            if agg_func(name.trim_matches('`')).is_some() {
                return true;
            }
            match &f.args {
                ast::FunctionArguments::List(l) => l.args.iter().any(|a| match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => {
                        contains_aggregate(e)
                    }
                    _ => false,
                }),
                _ => false,
            }
        }
        A::BinaryOp { left, right, .. } => contains_aggregate(left) || contains_aggregate(right),
        A::UnaryOp { expr, .. }
        | A::Nested(expr)
        | A::Cast { expr, .. }
        | A::Collate { expr, .. } => contains_aggregate(expr),
        A::IsNull(x)
        | A::IsNotNull(x)
        | A::IsTrue(x)
        | A::IsFalse(x)
        | A::IsNotTrue(x)
        | A::IsNotFalse(x) => contains_aggregate(x),
        A::InList { expr, list, .. } => {
            contains_aggregate(expr) || list.iter().any(contains_aggregate)
        }
        A::Between {
            expr, low, high, ..
        } => contains_aggregate(expr) || contains_aggregate(low) || contains_aggregate(high),
        A::Like { expr, pattern, .. } => contains_aggregate(expr) || contains_aggregate(pattern),
        A::Case {
            operand,
            conditions,
            else_result,
            ..
        } => {
            operand.as_deref().is_some_and(contains_aggregate)
                || conditions
                    .iter()
                    .any(|c| contains_aggregate(&c.condition) || contains_aggregate(&c.result))
                || else_result.as_deref().is_some_and(contains_aggregate)
        }
        A::Tuple(items) => items.iter().any(contains_aggregate),
        _ => false,
    }
}

/// Library functions whose result is never NULL (column metadata says NOT NULL).
const NOT_NULL_BUILTINS: &[&str] = &[
    "now",
    "sysdate",
    "curdate",
    "curtime",
    "utc_date",
    "utc_time",
    "utc_timestamp",
    "uuid",
    "uuid_short",
    "rand",
    "pi",
];

pub fn bool_type() -> SqlType {
    SqlType::Int {
        width: IntWidth::Big,
        unsigned: false,
        zerofill: false,
        display: Some(1),
    }
}

fn fold_neg(v: &Value) -> Option<Value> {
    Some(match v {
        Value::Int(i) => Value::Int(i.checked_neg()?),
        Value::UInt(u) if *u == i64::MAX as u64 + 1 => Value::Int(i64::MIN),
        Value::Decimal(d) => Value::decimal(-(**d).clone()),
        Value::Double(f) => Value::Double(-f),
        _ => return None,
    })
}

/// A numeric literal's value: integers as Int (or UInt / Decimal when larger), decimals
/// exact, exponent forms as double.
pub fn number_literal(n: &str) -> Result<Value> {
    if n.contains(['e', 'E']) {
        return n
            .parse::<f64>()
            .map(Value::Double)
            .map_err(|_| MyError::parse(n, 1));
    }
    if !n.contains('.') {
        if let Ok(i) = n.parse::<i64>() {
            return Ok(Value::Int(i));
        }
        if let Ok(u) = n.parse::<u64>() {
            return Ok(Value::UInt(u));
        }
    }
    BigDecimal::from_str(n)
        .map(Value::decimal)
        .map_err(|_| MyError::parse(n, 1))
}

/// The type MySQL gives a literal value.
pub fn literal_type(v: &Value) -> SqlType {
    match v {
        Value::Null => SqlType::Null,
        Value::Int(_) | Value::UInt(_) => super::func::int_literal_type(v),
        Value::Decimal(d) => {
            let scale = d.fractional_digit_count().max(0) as u8;
            let digits = d.digits() as u8;
            SqlType::Decimal {
                precision: digits.max(scale).max(1),
                scale,
                unsigned: false,
            }
        }
        Value::Double(_) | Value::Float(_) => SqlType::DOUBLE,
        Value::Bytes(b) => SqlType::varchar(super::collation::char_len(b) as u32),
        Value::Date(_) => SqlType::Date,
        Value::DateTime(_) => SqlType::DateTime { fsp: 6 },
        Value::Time(_) => SqlType::Time { fsp: 6 },
    }
}

fn decode_hex(h: &str) -> Option<Vec<u8>> {
    let h = if h.len() % 2 == 1 {
        format!("0{h}")
    } else {
        h.to_string()
    };
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(h.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The collation a comparison of these two types uses: a binary string wins, then a column
/// collation, then the connection default.
pub fn pick_collation(a: &Typed, b: &Typed) -> Collation {
    let ca = a.ty.is_string().then(|| (a.ty.collation(), a.derivation));
    let cb = b.ty.is_string().then(|| (b.ty.collation(), b.derivation));
    match (ca, cb) {
        (Some((x, dx)), Some((y, dy))) => {
            if dx < dy {
                x
            } else if dy < dx {
                y
            } else if x == Collation::Binary || y == Collation::Binary {
                Collation::Binary
            } else {
                x
            }
        }
        (Some((x, _)), None) => x,
        (None, Some((y, _))) => y,
        _ => Collation::DEFAULT,
    }
}

fn merge_types(a: Option<SqlType>, b: &SqlType) -> SqlType {
    match a {
        None => b.clone(),
        Some(SqlType::Null) => b.clone(),
        Some(a) if *b == SqlType::Null => a,
        Some(a) if a == *b => a,
        Some(a) if a.is_integer() && b.is_integer() => SqlType::BIGINT,
        Some(a) if a.is_numeric() && b.is_numeric() => {
            if matches!(a, SqlType::Double { .. } | SqlType::Float { .. })
                || matches!(b, SqlType::Double { .. } | SqlType::Float { .. })
            {
                SqlType::DOUBLE
            } else {
                SqlType::Decimal {
                    precision: 65,
                    scale: a.decimals().max(b.decimals()).min(30),
                    unsigned: false,
                }
            }
        }
        Some(a) => SqlType::varchar(a.char_len().max(b.char_len()).clamp(1, 65535)),
    }
}

fn arith_type(op: ArithOp, a: &SqlType, b: &SqlType) -> SqlType {
    let is_dbl = |t: &SqlType| {
        matches!(t, SqlType::Double { .. } | SqlType::Float { .. })
            || t.is_string()
            || *t == SqlType::Null
    };
    if is_dbl(a) || is_dbl(b) {
        return if op == ArithOp::IntDiv {
            SqlType::BIGINT
        } else {
            SqlType::DOUBLE
        };
    }
    let is_int = |t: &SqlType| t.is_integer();
    match op {
        ArithOp::IntDiv => SqlType::BIGINT,
        ArithOp::Div => {
            let scale = (a.decimals().min(30) + 4).min(30);
            SqlType::Decimal {
                precision: 65.min(a.char_len() as u8 + 4 + b.decimals()),
                scale,
                unsigned: false,
            }
        }
        _ if is_int(a) && is_int(b) => {
            if a.is_unsigned() || b.is_unsigned() {
                SqlType::BIGINT_UNSIGNED
            } else {
                SqlType::BIGINT
            }
        }
        _ => {
            let scale = if op == ArithOp::Mul {
                a.decimals() + b.decimals()
            } else {
                a.decimals().max(b.decimals())
            };
            SqlType::Decimal {
                precision: 65,
                scale: scale.min(30),
                unsigned: false,
            }
        }
    }
}

fn sum_type(t: &SqlType) -> SqlType {
    match t {
        SqlType::Double { .. } | SqlType::Float { .. } => SqlType::DOUBLE,
        t if t.is_string() => SqlType::DOUBLE,
        SqlType::Decimal {
            precision, scale, ..
        } => SqlType::Decimal {
            precision: (*precision as u32 + 22).min(65) as u8,
            scale: *scale,
            unsigned: false,
        },
        _ => SqlType::Decimal {
            precision: 41,
            scale: 0,
            unsigned: false,
        },
    }
}

fn avg_type(t: &SqlType) -> SqlType {
    match t {
        SqlType::Double { .. } | SqlType::Float { .. } => SqlType::DOUBLE,
        t if t.is_string() => SqlType::DOUBLE,
        SqlType::Decimal {
            precision, scale, ..
        } => SqlType::Decimal {
            precision: (*precision as u32 + 4).min(65) as u8,
            scale: (*scale + 4).min(30),
            unsigned: false,
        },
        _ => SqlType::Decimal {
            precision: 14,
            scale: 4,
            unsigned: false,
        },
    }
}

/// CAST/CONVERT target types.
pub fn cast_target(dt: &ast::DataType) -> Result<CastTo> {
    use ast::DataType as D;
    Ok(match dt {
        D::Signed | D::SignedInteger | D::Int(_) | D::Integer(_) | D::BigInt(_) => CastTo::Signed,
        D::Unsigned
        | D::UnsignedInteger
        | D::IntUnsigned(_)
        | D::BigIntUnsigned(_)
        | D::IntegerUnsigned(_) => CastTo::Unsigned,
        D::Char(len) | D::Character(len) | D::Varchar(len) | D::Nvarchar(len) => {
            CastTo::Char(char_len_of(len))
        }
        D::Binary(n) => CastTo::Binary(n.map(|n| n as u32)),
        D::Decimal(info) | D::Numeric(info) | D::Dec(info) => {
            let (p, s) = precision_scale(info);
            CastTo::Decimal(p, s)
        }
        D::Double(_) | D::DoublePrecision | D::Real => CastTo::Double,
        D::Float(_) => CastTo::Float,
        D::Date => CastTo::Date,
        D::Datetime(p) => CastTo::DateTime(p.unwrap_or(0) as u8),
        D::Timestamp(p, _) => CastTo::DateTime(p.unwrap_or(0) as u8),
        D::Time(p, _) => CastTo::Time(p.unwrap_or(0) as u8),
        D::JSON => CastTo::Json,
        other => return Err(MyError::not_supported(format!("CAST to {other}"))),
    })
}

pub fn char_len_of(len: &Option<ast::CharacterLength>) -> Option<u32> {
    match len {
        Some(ast::CharacterLength::IntegerLength { length, .. }) => {
            Some((*length).min(u32::MAX as u64) as u32)
        }
        Some(ast::CharacterLength::Max) => Some(65535),
        None => None,
    }
}

pub fn precision_scale(info: &ast::ExactNumberInfo) -> (u8, u8) {
    match info {
        ast::ExactNumberInfo::None => (10, 0),
        ast::ExactNumberInfo::Precision(p) => ((*p).min(255) as u8, 0),
        ast::ExactNumberInfo::PrecisionAndScale(p, s) => {
            ((*p).min(255) as u8, (*s).clamp(0, 255) as u8)
        }
    }
}
