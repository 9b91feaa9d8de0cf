//! Typing rules of the binder: literal and result types, collation choice between
//! operands, arithmetic and aggregate result types, CAST targets.

use super::*;

pub(super) fn agg_func(name: &str) -> Option<AggFunc> {
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
pub(super) const NOT_NULL_BUILTINS: &[&str] = &[
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

pub(super) fn fold_neg(v: &Value) -> Option<Value> {
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
        Value::Int(_) | Value::UInt(_) => crate::sql::func::int_literal_type(v),
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
        Value::Bytes(b) => SqlType::varchar(crate::sql::collation::char_len(b) as u32),
        Value::Date(_) => SqlType::Date,
        Value::DateTime(_) => SqlType::DateTime { fsp: 6 },
        Value::Time(_) => SqlType::Time { fsp: 6 },
    }
}

pub(super) fn decode_hex(h: &str) -> Option<Vec<u8>> {
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

/// MySQL's name of a collation derivation (error 1267's message).
fn derivation_name(d: u8) -> &'static str {
    match d {
        0 => "EXPLICIT",
        1 => "NONE",
        2 => "IMPLICIT",
        3 => "SYSCONST",
        4 => "COERCIBLE",
        5 => "NUMERIC",
        _ => "IGNORABLE",
    }
}

/// Checks that two strings compared by `op` have a collation to compare with, as MySQL's
/// collation aggregation does: of equal derivation, two different collations of one
/// character set agree only when one is that set's `_bin` (which [`pick_collation`] then
/// takes); otherwise error 1267.
pub fn comparison_collation(a: &Typed, b: &Typed, op: &str) -> Result<()> {
    if !(a.ty.is_string() && b.ty.is_string()) || a.derivation != b.derivation {
        return Ok(());
    }
    let (x, y) = (a.ty.collation(), b.ty.collation());
    if x == y
        || x.is_binary()
        || y.is_binary()
        || x.charset() != y.charset()
        || x.name().ends_with("_bin")
        || y.name().ends_with("_bin")
        || a.derivation >= 4
    {
        return Ok(());
    }
    Err(MyError::new(
        code::ER_CANT_AGGREGATE_2COLLATIONS,
        format!(
            "Illegal mix of collations ({},{}) and ({},{}) for operation '{op}'",
            x.name(),
            derivation_name(a.derivation),
            y.name(),
            derivation_name(b.derivation)
        ),
    ))
}

/// The collation a comparison of these two types uses: a binary string wins, then the one
/// with the stronger derivation (explicit COLLATE, then a column), then, between equals of
/// one character set, its `_bin` collation, then the first.
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
            } else if x.charset() == y.charset() && y.name().ends_with("_bin") {
                y
            } else {
                x
            }
        }
        (Some((x, _)), None) => x,
        (None, Some((y, _))) => y,
        _ => Collation::DEFAULT,
    }
}

pub(crate) fn merge_types(a: Option<SqlType>, b: &SqlType) -> SqlType {
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

/// `div_incr`: the session's `div_precision_increment` (digits a division adds).
pub(super) fn arith_type(op: ArithOp, a: &SqlType, b: &SqlType, div_incr: u8) -> SqlType {
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
            let scale = (a.decimals().min(30) + div_incr).min(30);
            SqlType::Decimal {
                precision: 65.min(
                    (a.char_len() as u8)
                        .saturating_add(div_incr)
                        .saturating_add(b.decimals()),
                ),
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

pub(super) fn sum_type(t: &SqlType) -> SqlType {
    exact_aggregate_type(t, 22, 0, 41)
}

pub(super) fn avg_type(t: &SqlType) -> SqlType {
    exact_aggregate_type(t, 4, 4, 14)
}

/// SUM/AVG result types as MySQL's: DOUBLE for approximate and string arguments; DECIMAL
/// widened by `digits` (and `extra_scale` decimals) for DECIMAL; DECIMAL(`int_precision`,
/// `extra_scale`) for integers.
fn exact_aggregate_type(t: &SqlType, digits: u32, extra_scale: u8, int_precision: u8) -> SqlType {
    match t {
        SqlType::Double { .. } | SqlType::Float { .. } => SqlType::DOUBLE,
        t if t.is_string() => SqlType::DOUBLE,
        SqlType::Decimal {
            precision, scale, ..
        } => SqlType::Decimal {
            precision: (*precision as u32 + digits).min(65) as u8,
            scale: (*scale + extra_scale).min(30),
            unsigned: false,
        },
        _ => SqlType::Decimal {
            precision: int_precision,
            scale: extra_scale,
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

/// An expression that returns one of several values (COALESCE, IFNULL, the branches of a
/// UNION) has their merged type, and MySQL shows every value in it: when that is a DECIMAL,
/// an integer or a decimal of another scale is converted (`COALESCE(NULL, 1, 2.50)` is
/// 1.00). The conversion for a value of type `ty`, if it needs one.
pub(crate) fn decimal_cast(merged: &SqlType, ty: &SqlType) -> Option<Func> {
    let SqlType::Decimal { scale, .. } = merged else {
        return None;
    };
    let same = matches!(ty, SqlType::Decimal { scale: s, .. } if s == scale);
    (!same && *ty != SqlType::Null).then_some(Func::Cast(CastTo::Decimal(65, *scale)))
}
