//! Compiled expressions and their evaluation.
//!
//! The binder ([`super::bind`]) turns parsed expressions into [`Expr`] trees in which every
//! name is resolved: a column is a (source, column) position in the current row tuple, a
//! parameter is an index into the statement's parameter values, a function is an enum. What
//! remains is a small tree-walking interpreter over [`Value`]s with MySQL's semantics:
//!
//! - three-valued logic: a comparison with NULL is NULL (unknown), `AND`/`OR` follow SQL's
//!   truth tables, `WHERE` keeps a row only when the condition is true;
//! - comparisons use the collation chosen at bind time (the column's, for string columns)
//!   and MySQL's type rules for mixed operands ([`compare::compare`]);
//! - arithmetic on integers is exact and checked (overflow is error 1690, as in MySQL);
//!   DECIMAL is exact; a DOUBLE or a string operand makes the operation DOUBLE; `/` on exact
//!   operands gives a DECIMAL with `div_precision_increment` (4 by default) more digits; division by
//!   zero gives NULL with warning 1365.
//!
//! Evaluation never panics on values a client can produce; errors are [`MyError`]s.

use super::compare;
use super::convert;
use super::func::{self, Func};
use super::types::Collation;
use super::value::{Row, Value};
use crate::error::{MyError, Result, code};
use crate::session::Ctx;
use bigdecimal::{BigDecimal, Zero};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `<=>`: NULL-safe equality.
    NullSafeEq,
}

impl CmpOp {
    pub fn holds(self, o: Ordering) -> bool {
        match self {
            CmpOp::Eq | CmpOp::NullSafeEq => o == Ordering::Equal,
            CmpOp::Ne => o != Ordering::Equal,
            CmpOp::Lt => o == Ordering::Less,
            CmpOp::Le => o != Ordering::Greater,
            CmpOp::Gt => o == Ordering::Greater,
            CmpOp::Ge => o != Ordering::Less,
        }
    }

    /// The operator with its operands swapped (`a < b` ⇔ `b > a`).
    pub fn swap(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            o => o,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    Mod,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitOp {
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

/// A compiled expression.
#[derive(Clone, Debug)]
pub enum Expr {
    Const(Value),
    /// The statement's i-th parameter (a `?`, or a literal lifted out by the normaliser).
    Param(u32),
    /// Column `col` of the row of source `src` in the current tuple. `utc`: a TIMESTAMP
    /// column of a stored table, whose UTC value is read in the session's time zone (see
    /// `temporal::Zone`).
    Col {
        src: u16,
        col: u16,
        utc: bool,
    },
    Neg(Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Bit(BitOp, Box<Expr>, Box<Expr>),
    BitNot(Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>, Collation),
    /// Row constructor comparison `(a, b) < (c, d)`: element by element, see [`row_step`].
    RowCmp(CmpOp, Vec<Expr>, Vec<Expr>, Vec<Collation>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Xor(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    IsNull(Box<Expr>, bool),
    /// `e IS [NOT] TRUE|FALSE`: (expr, TRUE?, negated?)
    IsBool(Box<Expr>, bool, bool),
    In {
        e: Box<Expr>,
        list: Vec<Expr>,
        negated: bool,
        coll: Collation,
    },
    /// `(a, b) IN ((..), (..))`
    RowIn {
        e: Vec<Expr>,
        list: Vec<Vec<Expr>>,
        negated: bool,
        colls: Vec<Collation>,
    },
    Between {
        e: Box<Expr>,
        lo: Box<Expr>,
        hi: Box<Expr>,
        negated: bool,
        coll: Collation,
    },
    Like {
        e: Box<Expr>,
        pat: Box<Expr>,
        escape: u8,
        negated: bool,
        coll: Collation,
    },
    Case {
        operand: Option<Box<Expr>>,
        whens: Vec<(Expr, Expr)>,
        else_: Option<Box<Expr>>,
        coll: Collation,
    },
    Func(Func, Vec<Expr>),
    UserVar(Arc<str>),
    SetUserVar(Arc<str>, Box<Expr>),
    /// A system variable read (`@@x`, `@@global.x`): resolved at bind time to an id.
    SysVar {
        id: crate::config::VarId,
        scope: Option<crate::config::VarScope>,
    },
    /// A scalar subquery or EXISTS, evaluated by the executor (uncorrelated: cached).
    Subquery(Arc<super::plan::SubqueryExpr>),
    /// `e op ANY|ALL (SELECT …)`, and `e op (SELECT …)` for a row `e`: `IN` is `= ANY`,
    /// `NOT IN` is `<> ALL`. `e` has one expression per subquery column (a row for
    /// `(a, b) IN (SELECT a, b …)`), `colls` one collation per column.
    InSubquery {
        e: Vec<Expr>,
        sub: Arc<super::plan::SubqueryExpr>,
        op: CmpOp,
        quant: Quant,
        colls: Vec<Collation>,
    },
    /// A column of an enclosing query block's current row (correlated subqueries):
    /// `depth` blocks out (1 = the immediately enclosing one).
    OuterCol {
        depth: u16,
        src: u16,
        col: u16,
        utc: bool,
    },
}

/// How a subquery comparison combines the comparisons with the subquery's rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    /// True if one comparison is (`op ANY`, `IN`); false for an empty subquery.
    Any,
    /// True unless one comparison is false (`op ALL`, `NOT IN`); true for an empty subquery.
    All,
    /// A row subquery compared as one row: more than one row is error 1242, none is NULL.
    One,
}

/// What evaluation needs besides the row: parameters and the session.
pub struct Env<'a> {
    pub params: &'a [Value],
    pub ctx: &'a mut Ctx,
}

impl Expr {
    pub fn col(src: usize, col: usize) -> Expr {
        Expr::Col {
            src: src as u16,
            col: col as u16,
            utc: false,
        }
    }

    /// Does this expression reference any source row at all?
    pub fn references_sources(&self) -> bool {
        let mut any = false;
        self.walk(&mut |e| {
            if matches!(e, Expr::Col { .. }) {
                any = true;
            }
        });
        any
    }

    /// The highest source index referenced, if any.
    pub fn max_source(&self) -> Option<usize> {
        let mut max = None;
        self.walk(&mut |e| {
            if let Expr::Col { src, .. } = e {
                max = Some(max.map_or(*src as usize, |m: usize| m.max(*src as usize)));
            }
            if let Expr::Subquery(s) | Expr::InSubquery { sub: s, .. } = e
                && let Some(m) = s.outer_max_source
            {
                max = Some(max.map_or(m, |x: usize| x.max(m)));
            }
        });
        max
    }

    /// Is it a constant or parameter expression with no side effects (usable as an index key)?
    pub fn is_key_constant(&self) -> bool {
        let mut ok = true;
        self.walk(&mut |e| match e {
            Expr::Col { .. }
            | Expr::SetUserVar(..)
            | Expr::Subquery(_)
            | Expr::InSubquery { .. }
            | Expr::OuterCol { .. } => ok = false,
            Expr::Func(f, _) if !f.is_deterministic_in_statement() => ok = false,
            _ => {}
        });
        ok
    }

    /// Visit this node and every descendant.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Const(_)
            | Expr::Param(_)
            | Expr::Col { .. }
            | Expr::UserVar(_)
            | Expr::SysVar { .. }
            | Expr::OuterCol { .. } => {}
            Expr::Subquery(_) => {}
            Expr::InSubquery { e, .. } => e.iter().for_each(|x| x.walk(f)),
            Expr::Neg(e)
            | Expr::BitNot(e)
            | Expr::Not(e)
            | Expr::IsNull(e, _)
            | Expr::IsBool(e, _, _) => e.walk(f),
            Expr::SetUserVar(_, e) => e.walk(f),
            Expr::Arith(_, a, b)
            | Expr::Bit(_, a, b)
            | Expr::Cmp(_, a, b, _)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Xor(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Expr::RowCmp(_, a, b, _) => {
                a.iter().for_each(|e| e.walk(f));
                b.iter().for_each(|e| e.walk(f));
            }
            Expr::In { e, list, .. } => {
                e.walk(f);
                list.iter().for_each(|x| x.walk(f));
            }
            Expr::RowIn { e, list, .. } => {
                e.iter().for_each(|x| x.walk(f));
                list.iter().flatten().for_each(|x| x.walk(f));
            }
            Expr::Between { e, lo, hi, .. } => {
                e.walk(f);
                lo.walk(f);
                hi.walk(f);
            }
            Expr::Like { e, pat, .. } => {
                e.walk(f);
                pat.walk(f);
            }
            Expr::Case {
                operand,
                whens,
                else_,
                ..
            } => {
                if let Some(o) = operand {
                    o.walk(f);
                }
                for (w, t) in whens {
                    w.walk(f);
                    t.walk(f);
                }
                if let Some(e) = else_ {
                    e.walk(f);
                }
            }
            Expr::Func(_, args) => args.iter().for_each(|a| a.walk(f)),
        }
    }

    /// Rewrite column references (used to re-target expressions onto another tuple layout).
    pub fn map_cols(&mut self, f: &mut dyn FnMut(u16, u16) -> (u16, u16)) {
        match self {
            Expr::Col { src, col, .. } => {
                let (s, c) = f(*src, *col);
                *src = s;
                *col = c;
            }
            Expr::Const(_)
            | Expr::Param(_)
            | Expr::UserVar(_)
            | Expr::SysVar { .. }
            | Expr::OuterCol { .. }
            | Expr::Subquery(_) => {}
            Expr::InSubquery { e, .. } => e.iter_mut().for_each(|x| x.map_cols(f)),
            Expr::Neg(e)
            | Expr::BitNot(e)
            | Expr::Not(e)
            | Expr::IsNull(e, _)
            | Expr::IsBool(e, _, _)
            | Expr::SetUserVar(_, e) => e.map_cols(f),
            Expr::Arith(_, a, b)
            | Expr::Bit(_, a, b)
            | Expr::Cmp(_, a, b, _)
            | Expr::And(a, b)
            | Expr::Or(a, b)
            | Expr::Xor(a, b) => {
                a.map_cols(f);
                b.map_cols(f);
            }
            Expr::RowCmp(_, a, b, _) => {
                a.iter_mut().for_each(|e| e.map_cols(f));
                b.iter_mut().for_each(|e| e.map_cols(f));
            }
            Expr::In { e, list, .. } => {
                e.map_cols(f);
                list.iter_mut().for_each(|x| x.map_cols(f));
            }
            Expr::RowIn { e, list, .. } => {
                e.iter_mut().for_each(|x| x.map_cols(f));
                list.iter_mut().flatten().for_each(|x| x.map_cols(f));
            }
            Expr::Between { e, lo, hi, .. } => {
                e.map_cols(f);
                lo.map_cols(f);
                hi.map_cols(f);
            }
            Expr::Like { e, pat, .. } => {
                e.map_cols(f);
                pat.map_cols(f);
            }
            Expr::Case {
                operand,
                whens,
                else_,
                ..
            } => {
                if let Some(o) = operand {
                    o.map_cols(f);
                }
                for (w, t) in whens {
                    w.map_cols(f);
                    t.map_cols(f);
                }
                if let Some(e) = else_ {
                    e.map_cols(f);
                }
            }
            Expr::Func(_, args) => args.iter_mut().for_each(|a| a.map_cols(f)),
        }
    }

    /// Evaluate against the current tuple (`rows[src]` is source `src`'s row).
    pub fn eval(&self, rows: &[Row], env: &mut Env) -> Result<Value> {
        Ok(match self {
            Expr::Const(v) => v.clone(),
            Expr::Param(i) => env.params.get(*i as usize).cloned().unwrap_or(Value::Null),
            Expr::Col { src, col, utc } => {
                match rows.get(*src as usize).and_then(|r| r.get(*col as usize)) {
                    Some(v) if *utc => from_utc(v, env),
                    Some(v) => v.clone(),
                    None => Value::Null,
                }
            }
            Expr::Neg(e) => negate(e.eval(rows, env)?)?,
            Expr::Arith(op, a, b) => {
                let x = a.eval(rows, env)?;
                if x.is_null() {
                    return Ok(Value::Null);
                }
                let y = b.eval(rows, env)?;
                arith(*op, x, y, env)?
            }
            Expr::Bit(op, a, b) => {
                let x = a.eval(rows, env)?;
                let y = b.eval(rows, env)?;
                let (Some(x), Some(y)) = (to_u64_bits(&x, env), to_u64_bits(&y, env)) else {
                    return Ok(Value::Null);
                };
                Value::UInt(match op {
                    BitOp::And => x & y,
                    BitOp::Or => x | y,
                    BitOp::Xor => x ^ y,
                    BitOp::Shl => {
                        if y >= 64 {
                            0
                        } else {
                            x << y
                        }
                    }
                    BitOp::Shr => {
                        if y >= 64 {
                            0
                        } else {
                            x >> y
                        }
                    }
                })
            }
            Expr::BitNot(e) => match to_u64_bits(&e.eval(rows, env)?, env) {
                Some(x) => Value::UInt(!x),
                None => Value::Null,
            },
            Expr::Cmp(op, a, b, coll) => {
                let x = a.eval_cow(rows, env)?;
                let y = b.eval_cow(rows, env)?;
                if *op == CmpOp::NullSafeEq {
                    return Ok(Value::bool(match (x.is_null(), y.is_null()) {
                        (true, true) => true,
                        (true, false) | (false, true) => false,
                        _ => compare::compare(&x, &y, *coll) == Some(Ordering::Equal),
                    }));
                }
                match compare::compare_warn(&x, &y, *coll, &mut env.ctx.diag) {
                    Some(o) => Value::bool(op.holds(o)),
                    None => Value::Null,
                }
            }
            Expr::RowCmp(op, a, b, colls) => {
                let mut unknown = false;
                for ((x, y), coll) in a.iter().zip(b).zip(colls) {
                    let x = x.eval(rows, env)?;
                    let y = y.eval(rows, env)?;
                    if let Some(v) = row_step(*op, &x, &y, *coll, &mut unknown) {
                        return Ok(truth(v));
                    }
                }
                truth(row_end(*op, unknown))
            }
            Expr::And(a, b) => {
                let x = a.eval_bool(rows, env)?;
                if x == Some(false) {
                    return Ok(Value::Int(0));
                }
                let y = b.eval_bool(rows, env)?;
                match (x, y) {
                    (_, Some(false)) => Value::Int(0),
                    (Some(true), Some(true)) => Value::Int(1),
                    _ => Value::Null,
                }
            }
            Expr::Or(a, b) => {
                let x = a.eval_bool(rows, env)?;
                if x == Some(true) {
                    return Ok(Value::Int(1));
                }
                let y = b.eval_bool(rows, env)?;
                match (x, y) {
                    (_, Some(true)) => Value::Int(1),
                    (Some(false), Some(false)) => Value::Int(0),
                    _ => Value::Null,
                }
            }
            Expr::Xor(a, b) => match (a.eval_bool(rows, env)?, b.eval_bool(rows, env)?) {
                (Some(x), Some(y)) => Value::bool(x ^ y),
                _ => Value::Null,
            },
            Expr::Not(e) => match e.eval_bool(rows, env)? {
                Some(x) => Value::bool(!x),
                None => Value::Null,
            },
            Expr::IsNull(e, negated) => Value::bool(e.eval(rows, env)?.is_null() != *negated),
            Expr::IsBool(e, truth, negated) => {
                let b = e.eval_bool(rows, env)?;
                Value::bool((b == Some(*truth)) != *negated)
            }
            Expr::In {
                e,
                list,
                negated,
                coll,
            } => {
                let x = e.eval(rows, env)?;
                if x.is_null() {
                    return Ok(Value::Null);
                }
                let mut saw_null = false;
                for item in list {
                    let y = item.eval(rows, env)?;
                    match compare::compare(&x, &y, *coll) {
                        Some(Ordering::Equal) => return Ok(Value::bool(!negated)),
                        Some(_) => {}
                        None => saw_null = true,
                    }
                }
                if saw_null {
                    Value::Null
                } else {
                    Value::bool(*negated)
                }
            }
            Expr::RowIn {
                e,
                list,
                negated,
                colls,
            } => {
                let xs = e
                    .iter()
                    .map(|x| x.eval(rows, env))
                    .collect::<Result<Vec<_>>>()?;
                let mut saw_null = false;
                'rows: for tuple in list {
                    let mut unknown = false;
                    for ((x, y), coll) in xs.iter().zip(tuple).zip(colls) {
                        let y = y.eval(rows, env)?;
                        match compare::compare(x, &y, *coll) {
                            Some(Ordering::Equal) => {}
                            Some(_) => continue 'rows,
                            None => unknown = true,
                        }
                    }
                    if unknown {
                        saw_null = true;
                    } else {
                        return Ok(Value::bool(!negated));
                    }
                }
                if saw_null {
                    Value::Null
                } else {
                    Value::bool(*negated)
                }
            }
            Expr::Between {
                e,
                lo,
                hi,
                negated,
                coll,
            } => match between(e, lo, hi, *coll, rows, env)? {
                Some(b) => Value::bool(b != *negated),
                None => Value::Null,
            },
            Expr::Like {
                e,
                pat,
                escape,
                negated,
                coll,
            } => {
                let x = e.eval(rows, env)?;
                let p = pat.eval(rows, env)?;
                if x.is_null() || p.is_null() {
                    return Ok(Value::Null);
                }
                let xs = convert::to_bytes(&x);
                let ps = convert::to_bytes(&p);
                Value::bool(super::collation::like(&xs, &ps, *escape, *coll) != *negated)
            }
            Expr::Case {
                operand,
                whens,
                else_,
                coll,
            } => {
                match operand {
                    Some(op) => {
                        let v = op.eval(rows, env)?;
                        for (w, t) in whens {
                            let wv = w.eval(rows, env)?;
                            if compare::compare(&v, &wv, *coll) == Some(Ordering::Equal) {
                                return t.eval(rows, env);
                            }
                        }
                    }
                    None => {
                        for (w, t) in whens {
                            if w.eval_bool(rows, env)? == Some(true) {
                                return t.eval(rows, env);
                            }
                        }
                    }
                }
                match else_ {
                    Some(e) => e.eval(rows, env)?,
                    None => Value::Null,
                }
            }
            Expr::Func(f, args) => func::call(*f, args, rows, env)?,
            Expr::UserVar(name) => env
                .ctx
                .user_vars
                .get(name.as_ref())
                .cloned()
                .unwrap_or(Value::Null),
            Expr::SetUserVar(name, e) => {
                let v = e.eval(rows, env)?;
                env.ctx.user_vars.insert(name.to_string(), v.clone());
                v
            }
            Expr::SysVar { id, scope } => env.ctx.sysvar_value(*id, *scope)?,
            Expr::Subquery(sq) => super::exec::eval_subquery(sq, rows, env)?,
            Expr::InSubquery {
                e,
                sub,
                op,
                quant,
                colls,
            } => {
                let xs = e
                    .iter()
                    .map(|x| x.eval(rows, env))
                    .collect::<Result<Vec<_>>>()?;
                let set = super::exec::subquery_values(sub, rows, env)?;
                quantified(*op, *quant, &xs, &set, colls)?
            }
            Expr::OuterCol {
                depth,
                src,
                col,
                utc,
            } => {
                let outer = &env.ctx.outer_rows;
                let v = outer
                    .len()
                    .checked_sub(*depth as usize)
                    .and_then(|i| outer.get(i))
                    .and_then(|t| t.get(*src as usize))
                    .and_then(|r| r.get(*col as usize))
                    .cloned()
                    .ok_or_else(|| MyError::internal("outer column out of reach"))?;
                if *utc { from_utc(&v, env) } else { v }
            }
        })
    }

    /// Evaluate as a truth value: `Some(true)`, `Some(false)`, or `None` for NULL.
    pub fn eval_bool(&self, rows: &[Row], env: &mut Env) -> Result<Option<bool>> {
        // Fast paths for the most common WHERE shapes: a comparison, BETWEEN.
        match self {
            Expr::Cmp(op, a, b, coll) if *op != CmpOp::NullSafeEq => {
                let x = a.eval_cow(rows, env)?;
                let y = b.eval_cow(rows, env)?;
                Ok(compare::compare(&x, &y, *coll).map(|o| op.holds(o)))
            }
            Expr::Between {
                e,
                lo,
                hi,
                negated,
                coll,
            } => Ok(between(e, lo, hi, *coll, rows, env)?.map(|b| b != *negated)),
            _ => {
                let v = self.eval(rows, env)?;
                Ok(convert::to_bool(&v, &mut env.ctx.diag))
            }
        }
    }

    /// Evaluates, borrowing instead of cloning when the expression is a constant, a
    /// parameter or a column.
    #[inline]
    pub fn eval_cow<'r, 'p: 'r>(
        &'r self,
        rows: &'r [Row],
        env: &mut Env<'p>,
    ) -> Result<Cow<'r, Value>> {
        static NULL: Value = Value::Null;
        Ok(Cow::Borrowed(match self {
            Expr::Const(v) => v,
            Expr::Param(i) => env.params.get(*i as usize).unwrap_or(&NULL),
            Expr::Col {
                src,
                col,
                utc: false,
            } => rows
                .get(*src as usize)
                .and_then(|r| r.get(*col as usize))
                .unwrap_or(&NULL),
            _ => return Ok(Cow::Owned(self.eval(rows, env)?)),
        }))
    }
}

/// `e BETWEEN lo AND hi` (NULL as None).
fn between(
    e: &Expr,
    lo: &Expr,
    hi: &Expr,
    coll: Collation,
    rows: &[Row],
    env: &mut Env,
) -> Result<Option<bool>> {
    let x = e.eval_cow(rows, env)?;
    let l = lo.eval_cow(rows, env)?;
    let h = hi.eval_cow(rows, env)?;
    let ge = compare::compare(&x, &l, coll).map(|o| o != Ordering::Less);
    let le = compare::compare(&x, &h, coll).map(|o| o != Ordering::Greater);
    Ok(match (ge, le) {
        (Some(false), _) | (_, Some(false)) => Some(false),
        (Some(true), Some(true)) => Some(true),
        _ => None,
    })
}

fn to_u64_bits(v: &Value, env: &mut Env) -> Option<u64> {
    match v {
        Value::Null => None,
        Value::Int(i) => Some(*i as u64),
        Value::UInt(u) => Some(*u),
        other => convert::to_i64(other, &mut env.ctx.diag).map(|i| i as u64),
    }
}

fn negate(v: Value) -> Result<Value> {
    Ok(match v {
        Value::Null => Value::Null,
        Value::Int(i) => match i.checked_neg() {
            Some(n) => Value::Int(n),
            None => return Err(out_of_range("BIGINT", &format!("-({i})"))),
        },
        Value::UInt(u) => {
            if u <= i64::MAX as u64 + 1 {
                Value::Int((u as i128).wrapping_neg() as i64)
            } else {
                return Err(out_of_range("BIGINT", &format!("-({u})")));
            }
        }
        Value::Float(f) => Value::Double(-(f as f64)),
        Value::Double(f) => Value::Double(-f),
        Value::Decimal(d) => Value::decimal(-(*d)),
        other => {
            let mut d = crate::error::Diagnostics::default();
            match convert::to_f64(&other, &mut d) {
                Some(f) => Value::Double(-f),
                None => Value::Null,
            }
        }
    })
}

fn out_of_range(ty: &str, expr: &str) -> MyError {
    MyError::new(
        code::ER_DATA_OUT_OF_RANGE,
        format!("{ty} value is out of range in '{expr}'"),
    )
}

/// Numeric class of an operand for arithmetic.
enum Num {
    Int(i128, bool /* unsigned */),
    Dec(BigDecimal),
    Dbl(f64),
}

fn num_of(v: Value, env: &mut Env) -> Option<Num> {
    Some(match v {
        Value::Null => return None,
        Value::Int(i) => Num::Int(i as i128, false),
        Value::UInt(u) => Num::Int(u as i128, true),
        Value::Decimal(d) => Num::Dec(*d),
        Value::Float(f) => Num::Dbl(f as f64),
        Value::Double(f) => Num::Dbl(f),
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => {
            let d = convert::to_decimal(&v, &mut env.ctx.diag)?;
            if d.is_integer() {
                use bigdecimal::ToPrimitive;
                Num::Int(d.to_i128()?, false)
            } else {
                Num::Dec(d)
            }
        }
        Value::Bytes(_) => Num::Dbl(convert::to_f64(&v, &mut env.ctx.diag)?),
    })
}

/// The session's `div_precision_increment`: the digits a division adds to the dividend's
/// scale (read at each execution, since a cached plan outlives a `SET`), at most 30 in all.
fn div_increment(env: &Env) -> i64 {
    env.ctx.div_precision_increment.min(30) as i64
}

pub fn arith(op: ArithOp, x: Value, y: Value, env: &mut Env) -> Result<Value> {
    let (Some(a), Some(b)) = (num_of(x, env), num_of(y, env)) else {
        return Ok(Value::Null);
    };
    use ArithOp::*;
    // Integer op integer.
    if let (Num::Int(a, ua), Num::Int(b, ub)) = (&a, &b) {
        let unsigned = *ua || *ub;
        let (a, b) = (*a, *b);
        let r = match op {
            Add => a + b,
            Sub => a - b,
            Mul => match a.checked_mul(b) {
                Some(r) => r,
                None => {
                    return Err(out_of_range(
                        if unsigned {
                            "BIGINT UNSIGNED"
                        } else {
                            "BIGINT"
                        },
                        &format!("({a} * {b})"),
                    ));
                }
            },
            IntDiv => {
                if b == 0 {
                    return div_by_zero(env);
                }
                a / b
            }
            Mod => {
                if b == 0 {
                    return div_by_zero(env);
                }
                a % b
            }
            Div => {
                if b == 0 {
                    return div_by_zero(env);
                }
                let q = BigDecimal::from(a) / BigDecimal::from(b);
                return Ok(Value::decimal(round_half_up(q, div_increment(env))));
            }
        };
        let sym = match op {
            Add => "+",
            Sub => "-",
            Mul => "*",
            IntDiv => "DIV",
            Mod => "%",
            Div => "/",
        };
        if unsigned && !matches!(op, Mod) {
            if r < 0 || r > u64::MAX as i128 {
                return Err(out_of_range("BIGINT UNSIGNED", &format!("({a} {sym} {b})")));
            }
            return Ok(Value::UInt(r as u64));
        }
        if r < i64::MIN as i128 || r > i64::MAX as i128 {
            if r >= 0 && r <= u64::MAX as i128 && unsigned {
                return Ok(Value::UInt(r as u64));
            }
            return Err(out_of_range("BIGINT", &format!("({a} {sym} {b})")));
        }
        return Ok(if unsigned && r >= 0 {
            Value::UInt(r as u64)
        } else {
            Value::Int(r as i64)
        });
    }
    // Anything with a double is double.
    if matches!(a, Num::Dbl(_)) || matches!(b, Num::Dbl(_)) {
        let f = |n: &Num| match n {
            Num::Int(i, _) => *i as f64,
            Num::Dec(d) => {
                use bigdecimal::ToPrimitive;
                d.to_f64().unwrap_or(0.0)
            }
            Num::Dbl(f) => *f,
        };
        let (x, y) = (f(&a), f(&b));
        let r = match op {
            Add => x + y,
            Sub => x - y,
            Mul => x * y,
            Div => {
                if y == 0.0 {
                    return div_by_zero(env);
                }
                x / y
            }
            IntDiv => {
                if y == 0.0 {
                    return div_by_zero(env);
                }
                let q = (x / y).trunc();
                if q.abs() > i64::MAX as f64 {
                    return Err(out_of_range("BIGINT", &format!("({x} DIV {y})")));
                }
                return Ok(Value::Int(q as i64));
            }
            Mod => {
                if y == 0.0 {
                    return div_by_zero(env);
                }
                x % y
            }
        };
        if !r.is_finite() {
            return Err(out_of_range("DOUBLE", &format!("({x} op {y})")));
        }
        return Ok(Value::Double(r));
    }
    // Exact decimal arithmetic.
    let d = |n: Num| match n {
        Num::Int(i, _) => BigDecimal::from(i),
        Num::Dec(d) => d,
        Num::Dbl(_) => unreachable!("doubles handled above"),
    };
    let (x, y) = (d(a), d(b));
    Ok(match op {
        Add => Value::decimal(x + y),
        Sub => Value::decimal(x - y),
        Mul => Value::decimal(x * y),
        Div => {
            if y.is_zero() {
                return div_by_zero(env);
            }
            let scale = (x.fractional_digit_count().max(0) + div_increment(env)).min(30);
            Value::decimal(round_half_up(x / y, scale))
        }
        IntDiv => {
            if y.is_zero() {
                return div_by_zero(env);
            }
            use bigdecimal::ToPrimitive;
            let q = (x / y).with_scale_round(0, bigdecimal::RoundingMode::Down);
            match q.to_i64() {
                Some(i) => Value::Int(i),
                None => return Err(out_of_range("BIGINT", "DIV")),
            }
        }
        Mod => {
            if y.is_zero() {
                return div_by_zero(env);
            }
            Value::decimal(x % y)
        }
    })
}

/// A stored TIMESTAMP value (UTC) in the session's time zone.
fn from_utc(v: &Value, env: &Env) -> Value {
    match v {
        Value::DateTime(d) => match env.ctx.zone().from_utc(d) {
            Some(local) => Value::DateTime(local),
            None => Value::DateTime(*d),
        },
        other => other.clone(),
    }
}

fn div_by_zero(env: &mut Env) -> Result<Value> {
    env.ctx
        .diag
        .warn(code::ER_DIVISION_BY_ZERO, "Division by 0");
    Ok(Value::Null)
}

/// Round half away from zero to `scale` digits (MySQL's DECIMAL rounding).
pub fn round_half_up(d: BigDecimal, scale: i64) -> BigDecimal {
    d.with_scale_round(scale, bigdecimal::RoundingMode::HalfUp)
}

/// One element of a row comparison, as MySQL's `Arg_comparator::compare_row`: the first
/// element that differs decides; a NULL element makes `<`, `<=`, `>`, `>=` NULL at once,
/// while `=` and `<>` go on (a later difference still decides) and end NULL (`unknown`).
/// `Some(result)` (`None` inside for NULL) when this element decides the comparison.
fn row_step(
    op: CmpOp,
    x: &Value,
    y: &Value,
    coll: Collation,
    unknown: &mut bool,
) -> Option<Option<bool>> {
    match compare::compare(x, y, coll) {
        Some(Ordering::Equal) => None,
        Some(o) => Some(Some(op.holds(o))),
        None => match op {
            CmpOp::NullSafeEq => (!(x.is_null() && y.is_null())).then_some(Some(false)),
            CmpOp::Eq | CmpOp::Ne => {
                *unknown = true;
                None
            }
            CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => Some(None),
        },
    }
}

/// A row comparison whose elements were all equal or NULL.
fn row_end(op: CmpOp, unknown: bool) -> Option<bool> {
    (!unknown).then(|| op.holds(Ordering::Equal))
}

fn truth(b: Option<bool>) -> Value {
    b.map_or(Value::Null, Value::bool)
}

/// `xs op ANY|ALL set` (or `op` one row): `set` holds the subquery's rows one after another,
/// `xs.len()` values each.
fn quantified(
    op: CmpOp,
    quant: Quant,
    xs: &[Value],
    set: &[Value],
    colls: &[Collation],
) -> Result<Value> {
    let width = xs.len().max(1);
    let rows = set.len() / width;
    if quant == Quant::One && rows > 1 {
        return Err(MyError::new(
            crate::error::code::ER_SUBQUERY_NO_1_ROW,
            "Subquery returns more than 1 row",
        ));
    }
    // MySQL: `x op ANY` of an empty set is false and `x op ALL` true, even for a NULL x.
    if rows == 0 {
        return Ok(match quant {
            Quant::Any => Value::bool(false),
            Quant::All => Value::bool(true),
            Quant::One => Value::Null,
        });
    }
    let mut saw_null = false;
    for ys in set.chunks(width) {
        let mut unknown = false;
        let mut decided = None;
        for ((x, y), coll) in xs.iter().zip(ys).zip(colls) {
            decided = row_step(op, x, y, *coll, &mut unknown);
            if decided.is_some() {
                break;
            }
        }
        let v = decided.unwrap_or_else(|| row_end(op, unknown));
        match (quant, v) {
            (Quant::One, _) => return Ok(truth(v)),
            (_, None) => saw_null = true,
            // ANY ends at the first true comparison, ALL at the first false one.
            (Quant::Any, Some(true)) => return Ok(Value::bool(true)),
            (Quant::All, Some(false)) => return Ok(Value::bool(false)),
            _ => {}
        }
    }
    Ok(if saw_null {
        Value::Null
    } else {
        Value::bool(quant == Quant::All)
    })
}
