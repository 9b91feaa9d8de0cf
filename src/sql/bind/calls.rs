//! The binder, continued: system variables, literals, operators, function calls,
//! aggregates and subqueries (the leaves and calls that [`Binder::bind`] dispatches to).

use super::*;
use crate::sql::types::*;

impl<'a> Binder<'a> {
    pub(super) fn sysvar(&mut self, scope: Option<&str>, name: &str) -> Result<Typed> {
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

    pub(super) fn literal(&mut self, v: &ast::Value) -> Result<Typed> {
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
                crate::sql::lexer::unmap_raw_bytes(&mut bytes);
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
    pub(super) fn unit_const(&mut self, name: &str) -> Result<Typed> {
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
        let unit = crate::sql::temporal::IntervalUnit::from_name(&base)
            .ok_or_else(|| MyError::parse(name, 1))?;
        let code = crate::sql::builtins::interval_unit_code(unit);
        Ok(Typed::new(
            Expr::Const(Value::Int(code)),
            SqlType::BIGINT,
            false,
        ))
    }

    /// `INTERVAL n unit` as the (amount, unit code) argument pair.
    pub(super) fn interval_args(&mut self, iv: &ast::Interval) -> Result<(Typed, Typed)> {
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

    pub(super) fn binary(
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
        // Row constructor comparisons: (a, b) < (c, d), (a, b) = (SELECT …).
        if let Some(cmp) = cmp_op(op) {
            match (row_items(left), row_items(right)) {
                (Some(l), Some(r)) => return self.row_cmp(cmp, &l, &r),
                (Some(_), None) => {
                    if let ast::Expr::Subquery(q) = right {
                        return self.quantified(left, cmp, Quant::One, q);
                    }
                }
                (None, Some(_)) => {
                    if let ast::Expr::Subquery(q) = left {
                        return self.quantified(right, cmp.swap(), Quant::One, q);
                    }
                }
                (None, None) => {}
            }
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
        let div_incr = self
            .planner
            .and_then(|p| p.session)
            .map_or(4, |s| s.div_precision_increment.min(30) as u8);
        let arith = |o: ArithOp, l: Typed, r: Typed| {
            let ty = arith_type(o, &l.ty, &r.ty, div_incr);
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
        if let Some(c) = cmp_op(op) {
            comparison_collation(&l, &r, &op.to_string())?;
            return Ok(cmp(c, l, r));
        }
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
    pub(super) fn call_named(&mut self, name: &str, args: Vec<Typed>) -> Result<Typed> {
        let f =
            Func::lookup(name).ok_or_else(|| MyError::internal(format!("no function {name}")))?;
        self.call(f, args)
    }

    pub(super) fn call(&mut self, f: Func, args: Vec<Typed>) -> Result<Typed> {
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
        // A string function compares in its string arguments' collation (MySQL's
        // aggregation, as for a comparison).
        let f = match f {
            Func::Builtin(b) if f.reads_text() => {
                let coll = args
                    .iter()
                    .filter(|a| a.ty.is_string())
                    .fold(None::<&Typed>, |acc, a| match acc {
                        Some(x) if pick_collation(x, a) == x.ty.collation() => Some(x),
                        _ => Some(a),
                    })
                    .map_or(Collation::DEFAULT, |a| a.ty.collation());
                Func::Builtin(crate::sql::func::BuiltinRef(b.0, coll))
            }
            other => other,
        };
        let mut args: Vec<Typed> = if f.reads_text() {
            args.into_iter().map(temporal_text).collect()
        } else {
            args
        };
        let types: Vec<SqlType> = args.iter().map(|a| a.ty.clone()).collect();
        // Constant arguments fix some result types (NOW(3), ROUND(d, 2), INTERVAL units).
        let consts: Vec<Option<Value>> = args
            .iter()
            .map(|a| match &a.expr {
                Expr::Const(v) => Some(v.clone()),
                _ => None,
            })
            .collect();
        let mut ty = f.result_type(&types, &consts);
        if matches!(f, Func::Coalesce | Func::IfNull) {
            let merged = types.iter().fold(None, |m, t| Some(merge_types(m, t)));
            if let Some(merged @ SqlType::Decimal { .. }) = merged {
                for a in &mut args {
                    if let Some(cast) = decimal_cast(&merged, &a.ty) {
                        let e = std::mem::replace(&mut a.expr, Expr::Const(Value::Null));
                        a.expr = Expr::Func(cast, vec![e]);
                    }
                }
                ty = merged;
            }
        }
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

    /// `DEFAULT(col)`: the default of a column of the INSERT's or UPDATE's table.
    fn default_of(&mut self, arg: &ast::Expr) -> Result<Typed> {
        use crate::storage::schema::ColumnDefault;
        let name = match arg {
            ast::Expr::Identifier(i) => &i.value,
            ast::Expr::CompoundIdentifier(parts) if !parts.is_empty() => {
                &parts[parts.len() - 1].value
            }
            other => return Err(MyError::parse(&other.to_string(), 1)),
        };
        let Some(def) = self.default_table else {
            return Err(MyError::not_supported(
                "DEFAULT(column) outside INSERT and UPDATE",
            ));
        };
        let col = def
            .columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| MyError::bad_field(name, self.context))?;
        match &col.default {
            ColumnDefault::Value(v) => {
                Ok(Typed::new(Expr::Const(v.clone()), col.ty.clone(), false))
            }
            ColumnDefault::Null => Ok(Typed::new(Expr::Const(Value::Null), col.ty.clone(), true)),
            ColumnDefault::CurrentTimestamp(fsp) => {
                let e = crate::sql::parse::parse_expr(&format!("CURRENT_TIMESTAMP({fsp})"))?;
                self.bind(&e)
            }
            ColumnDefault::None => Err(MyError::new(
                code::ER_NO_DEFAULT_FOR_FIELD,
                format!("Field '{}' doesn't have a default value", col.name),
            )),
        }
    }

    pub(super) fn function(&mut self, f: &ast::Function) -> Result<Typed> {
        let name = f.name.to_string().to_ascii_lowercase();
        let name = name.trim_matches('`').to_string();
        let mut clauses: &[ast::FunctionArgumentClause] = &[];
        let (args, distinct, star) = match &f.args {
            ast::FunctionArguments::None => (Vec::new(), false, false),
            ast::FunctionArguments::List(l) => {
                let distinct = matches!(
                    l.duplicate_treatment,
                    Some(ast::DuplicateTreatment::Distinct)
                );
                let mut out = Vec::new();
                let mut star = false;
                clauses = &l.clauses;
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
        if name == "default" && args.len() == 1 && !star {
            return self.default_of(&args[0]);
        }
        if let Some(agg) = agg_func(&name) {
            return self.aggregate(agg, &name, &args, distinct, star, clauses);
        }
        if let ("collation" | "charset" | "coercibility", [a]) = (name.as_str(), args.as_slice()) {
            let t = self.bind(a)?;
            return Ok(collation_info(&name, &t));
        }
        if let Some(c) = clauses.first() {
            return Err(MyError::parse(&c.to_string(), 1));
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

    pub(super) fn aggregate(
        &mut self,
        func: AggFunc,
        name: &str,
        args: &[ast::Expr],
        distinct: bool,
        star: bool,
        clauses: &[ast::FunctionArgumentClause],
    ) -> Result<Typed> {
        if let Some(t) = self.outer_aggregate(func, name, args, distinct, star, clauses)? {
            return Ok(t);
        }
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
                    size: crate::sql::types::BlobSize::Normal,
                    collation: Collation::DEFAULT,
                },
                true,
            ),
            AggFunc::BitAnd | AggFunc::BitOr | AggFunc::BitXor => (SqlType::BIGINT_UNSIGNED, false),
            AggFunc::StdDevPop | AggFunc::StdDevSamp | AggFunc::VarPop | AggFunc::VarSamp => {
                (SqlType::DOUBLE, true)
            }
        };
        let (separator, order) = if func == AggFunc::GroupConcat {
            group_concat_clauses(clauses, &mut inner)?
        } else {
            if !clauses.is_empty() {
                return Err(MyError::parse(&clauses[0].to_string(), 1));
            }
            (Vec::new(), Vec::new())
        };
        self.param_count = self.param_count.max(inner.param_count);
        let spec = AggSpec {
            func,
            args: bound.into_iter().map(|b| b.expr).collect(),
            distinct,
            coll,
            separator,
            order,
            arg_type: arg_ty,
        };
        Ok(self.add_agg(spec, ty, nullable))
    }

    /// An aggregate in a subquery whose arguments are all columns of one enclosing
    /// aggregated block (`SELECT (SELECT … WHERE t1.a > MIN(x.d)) FROM t2 x GROUP BY …`)
    /// belongs to that block, as in MySQL: computed per group there and read here as an
    /// outer reference. None when the arguments read this block's columns (or none).
    fn outer_aggregate(
        &mut self,
        func: AggFunc,
        name: &str,
        args: &[ast::Expr],
        distinct: bool,
        star: bool,
        clauses: &[ast::FunctionArgumentClause],
    ) -> Result<Option<Typed>> {
        let Some(planner) = self.planner else {
            return Ok(None);
        };
        if star || args.is_empty() || planner.outer_aggs.borrow().iter().all(|a| a.is_none()) {
            return Ok(None);
        }
        // Do the arguments bind here, without enclosing blocks?
        let binds_in = |scope: &Scope| {
            let mut probe = Binder::new(scope, self.params);
            args.iter().all(|a| probe.bind(a).is_ok())
        };
        let here = self.agg.as_ref().map_or(self.scope, |a| a.inner);
        if !contains_column(args) || binds_in(here) {
            return Ok(None);
        }
        let outer = planner.outer.borrow().clone();
        for (level, scope) in outer.iter().enumerate().rev() {
            if !binds_in(scope) {
                continue;
            }
            if planner.outer_aggs.borrow()[level].is_none() {
                return Ok(None);
            }
            // Bound as that block would bind it, into a scratch aggregate context.
            let mut b = Binder::new(scope, self.params);
            b.context = self.context;
            b.forbid_literal_params = self.forbid_literal_params;
            b.allow_agg = true;
            b.agg = Some(AggCtx {
                inner: scope,
                group_ast: Vec::new(),
                keys: Vec::new(),
                aggs: Vec::new(),
                agg_types: Vec::new(),
            });
            let t = b.aggregate(func, name, args, distinct, star, clauses)?;
            self.param_count = self.param_count.max(b.param_count);
            let agg = b.agg.take().expect("set above");
            let (Some(spec), Some((ty, nullable))) = (
                agg.aggs.into_iter().next(),
                agg.agg_types.into_iter().next(),
            ) else {
                return Ok(None);
            };
            let mut aggs = planner.outer_aggs.borrow_mut();
            let Some(Some(oa)) = aggs.get_mut(level) else {
                return Ok(None);
            };
            let slot = oa.base() + oa.push(OuterAggItem::Agg(spec, ty, nullable));
            planner
                .outer_min_ref
                .set(planner.outer_min_ref.get().min(level));
            return Ok(Some(Typed::new(
                Expr::OuterCol {
                    depth: (outer.len() - level) as u16,
                    src: 0,
                    col: slot as u16,
                    utc: false,
                },
                t.ty,
                t.nullable,
            )));
        }
        Ok(None)
    }

    fn row_cmp(&mut self, cmp: CmpOp, l: &[&ast::Expr], r: &[&ast::Expr]) -> Result<Typed> {
        if l.len() != r.len() {
            return Err(operand_columns(l.len()));
        }
        let lt: Vec<Typed> = l.iter().map(|x| self.bind(x)).collect::<Result<_>>()?;
        let rt: Vec<Typed> = r.iter().map(|x| self.bind(x)).collect::<Result<_>>()?;
        let colls = lt
            .iter()
            .zip(&rt)
            .map(|(a, b)| pick_collation(a, b))
            .collect();
        Ok(Typed::new(
            Expr::RowCmp(
                cmp,
                lt.into_iter().map(|t| t.expr).collect(),
                rt.into_iter().map(|t| t.expr).collect(),
                colls,
            ),
            bool_type(),
            cmp != CmpOp::NullSafeEq,
        ))
    }

    /// `left op ANY|ALL (SELECT …)` (`IN` is `= ANY`, `NOT IN` `<> ALL`), or `left op
    /// (SELECT …)` for a row `left` ([`Quant::One`]): `left` is a value or a row with one
    /// element per subquery column.
    pub(super) fn quantified(
        &mut self,
        left: &ast::Expr,
        op: CmpOp,
        quant: Quant,
        q: &ast::Query,
    ) -> Result<Typed> {
        if quant != Quant::One && q.limit_clause.is_some() {
            return Err(MyError::new(
                code::ER_NOT_SUPPORTED_YET,
                "This version of MySQL doesn't yet support 'LIMIT & IN/ALL/ANY/SOME subquery'",
            ));
        }
        let items = row_items(left).unwrap_or_else(|| vec![left]);
        let xs: Vec<Typed> = items.iter().map(|x| self.bind(x)).collect::<Result<_>>()?;
        let s = self.subquery_of(q, SubqueryKind::In, xs.len())?;
        let Expr::Subquery(sub) = s.expr else {
            return Err(MyError::internal("subquery did not bind to a subquery"));
        };
        let colls = xs
            .iter()
            .zip(sub.plan.types.iter())
            .map(|(x, ty)| {
                pick_collation(x, &Typed::new(Expr::Const(Value::Null), ty.clone(), true))
            })
            .collect();
        Ok(Typed::new(
            Expr::InSubquery {
                e: xs.into_iter().map(|t| t.expr).collect(),
                sub,
                op,
                quant,
                colls,
            },
            bool_type(),
            true,
        ))
    }

    pub(super) fn subquery(&mut self, q: &ast::Query, kind: SubqueryKind) -> Result<Typed> {
        self.subquery_of(q, kind, 1)
    }

    /// A subquery that must have `width` columns (any number for EXISTS).
    fn subquery_of(&mut self, q: &ast::Query, kind: SubqueryKind, width: usize) -> Result<Typed> {
        let planner = self
            .planner
            .ok_or_else(|| MyError::not_supported("subqueries here"))?;
        // This block's columns become visible to the subquery as outer references.
        // (An aggregated block shows its sources; their columns read the group's values.)
        let level = {
            let mut outer = planner.outer.borrow_mut();
            match &self.agg {
                Some(agg) => {
                    outer.push(agg.inner.clone());
                    let oa = OuterAgg::new(self, agg);
                    planner.outer_aggs.borrow_mut().push(Some(oa));
                }
                None => {
                    outer.push(self.scope.clone());
                    planner.outer_aggs.borrow_mut().push(None);
                }
            }
            planner.outer_max_src.borrow_mut().push(None);
            outer.len() - 1
        };
        let min_before = planner.outer_min_ref.replace(usize::MAX);
        let planned = planner.plan_query(q, self.params, None);
        planner.outer.borrow_mut().pop();
        let outer_max_source = planner.outer_max_src.borrow_mut().pop().flatten();
        let outer_agg = planner.outer_aggs.borrow_mut().pop().flatten();
        for item in outer_agg.map(|oa| oa.extra).unwrap_or_default() {
            match item {
                OuterAggItem::AnyValue(si, ci) => self.any_value(si, ci),
                OuterAggItem::Agg(spec, ty, nullable) => self.add_agg(spec, ty, nullable),
            };
        }
        let min_ref = planner.outer_min_ref.get();
        planner.outer_min_ref.set(min_before.min(min_ref));
        let correlated = min_ref <= level;
        let plan = planned?;
        if kind != SubqueryKind::Exists && plan.columns.len() != width {
            return Err(operand_columns(width));
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

/// Does any of `args` name a column outside its subqueries? (Arguments without one are
/// never an enclosing block's aggregate.)
fn contains_column(args: &[ast::Expr]) -> bool {
    args.iter().any(has_identifier)
}

/// Does `e` contain a column reference (outside subqueries)?
fn has_identifier(e: &ast::Expr) -> bool {
    use ast::Expr as A;
    match e {
        A::Identifier(_) | A::CompoundIdentifier(_) => true,
        A::Value(_) => false,
        A::Nested(x) | A::UnaryOp { expr: x, .. } | A::IsNull(x) | A::IsNotNull(x) => {
            has_identifier(x)
        }
        A::BinaryOp { left, right, .. } => has_identifier(left) || has_identifier(right),
        A::Cast { expr, .. } => has_identifier(expr),
        A::Function(f) => match &f.args {
            ast::FunctionArguments::List(l) => l.args.iter().any(|a| match a {
                ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(x))
                | ast::FunctionArg::Named {
                    arg: ast::FunctionArgExpr::Expr(x),
                    ..
                } => has_identifier(x),
                _ => false,
            }),
            _ => false,
        },
        A::Subquery(_) | A::Exists { .. } => false,
        // Anything else: assume it may (the probe binding decides).
        _ => true,
    }
}

/// A string function's argument: DATETIME/TIMESTAMP/TIME with fractional seconds as text
/// with the type's digits (see [`Func::TemporalText`]); anything else as it is.
pub(super) fn temporal_text(a: Typed) -> Typed {
    match a.ty {
        SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } | SqlType::Time { fsp }
            if fsp > 0 =>
        {
            let f = Func::TemporalText(fsp);
            let ty = f.result_type(std::slice::from_ref(&a.ty), &[]);
            Typed::new(Expr::Func(f, vec![a.expr]), ty, a.nullable)
        }
        _ => a,
    }
}

/// The comparison a binary operator is, if it is one.
pub(super) fn cmp_op(op: &BinaryOperator) -> Option<CmpOp> {
    use BinaryOperator as B;
    Some(match op {
        B::Eq => CmpOp::Eq,
        B::NotEq => CmpOp::Ne,
        B::Lt => CmpOp::Lt,
        B::LtEq => CmpOp::Le,
        B::Gt => CmpOp::Gt,
        B::GtEq => CmpOp::Ge,
        B::Spaceship => CmpOp::NullSafeEq,
        _ => return None,
    })
}

/// The elements of a row constructor: `(a, b)` or `ROW(a, b)` (`ROW(a)` too).
pub(super) fn row_items(e: &ast::Expr) -> Option<Vec<&ast::Expr>> {
    match e {
        ast::Expr::Tuple(xs) => Some(xs.iter().collect()),
        ast::Expr::Function(f) if f.name.to_string().eq_ignore_ascii_case("row") => {
            let ast::FunctionArguments::List(list) = &f.args else {
                return None;
            };
            list.args
                .iter()
                .map(|a| match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(x)) => Some(x),
                    _ => None,
                })
                .collect()
        }
        _ => None,
    }
}

/// Error 1241: an operand with the wrong number of columns.
pub(super) fn operand_columns(n: usize) -> MyError {
    MyError::new(
        code::ER_OPERAND_COLUMNS,
        format!("Operand should contain {n} column(s)"),
    )
}

/// GROUP_CONCAT's `ORDER BY …` and `SEPARATOR '…'` (default `,`); the keys bind like its
/// arguments, against the group's rows.
fn group_concat_clauses(
    clauses: &[ast::FunctionArgumentClause],
    inner: &mut Binder,
) -> Result<(Vec<u8>, Vec<SortKey>)> {
    let mut separator = b",".to_vec();
    let mut order = Vec::new();
    for c in clauses {
        match c {
            ast::FunctionArgumentClause::Separator(v) => match &v.value {
                ast::Value::SingleQuotedString(s) | ast::Value::DoubleQuotedString(s) => {
                    separator = s.as_bytes().to_vec();
                }
                other => return Err(MyError::parse(&other.to_string(), 1)),
            },
            ast::FunctionArgumentClause::OrderBy(keys) => {
                for k in keys {
                    if matches!(k.options.sort, Some(ast::OrderBySort::Using(_))) {
                        return Err(MyError::parse("USING", 1));
                    }
                    let t = inner.bind(&k.expr)?;
                    order.push(SortKey {
                        coll: t.ty.collation(),
                        expr: t.expr,
                        desc: k.options.sort == Some(ast::OrderBySort::Desc),
                    });
                }
            }
            other => return Err(MyError::parse(&other.to_string(), 1)),
        }
    }
    Ok((separator, order))
}

/// `COLLATION(x)`, `CHARSET(x)`, `COERCIBILITY(x)`: what the binder knows of `x`'s string
/// type, as a constant (non-strings are `binary`, coercibility 5; NULL is 6).
fn collation_info(name: &str, t: &Typed) -> Typed {
    let coll = if t.ty.is_string() {
        t.ty.collation()
    } else {
        Collation::Binary
    };
    let (v, ty) = match name {
        "collation" => (Value::str(coll.name()), SqlType::varchar(64)),
        "charset" => (Value::str(coll.charset().name()), SqlType::varchar(64)),
        _ => {
            let d = match t.ty {
                SqlType::Null => 6,
                _ if !t.ty.is_string() => 5,
                _ => t.derivation,
            };
            (Value::Int(i64::from(d)), SqlType::BIGINT)
        }
    };
    Typed::new(Expr::Const(v), ty, false)
}
