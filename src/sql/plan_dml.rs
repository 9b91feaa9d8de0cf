//! Planning INSERT, REPLACE, UPDATE and DELETE.

use super::Planned;
use super::access;
use super::bind::{Binder, ParamInfo, Scope};
use super::plan::*;
use super::planner::{Planner, object_name};
use crate::error::{MyError, Result, code};
use sqlparser::ast;

/// Rewrite `VALUES(col)` inside ON DUPLICATE KEY UPDATE into a reference to the row being
/// inserted (`<alias>.col`).
fn rewrite_values(e: &ast::Expr, new_alias: &str) -> ast::Expr {
    use ast::Expr as A;
    match e {
        A::Function(f) if f.name.to_string().eq_ignore_ascii_case("values") => {
            if let ast::FunctionArguments::List(l) = &f.args
                && let [ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(A::Identifier(col)))] =
                    l.args.as_slice()
            {
                return A::CompoundIdentifier(vec![ast::Ident::new(new_alias), col.clone()]);
            }
            e.clone()
        }
        A::Function(f) => {
            let mut f = f.clone();
            if let ast::FunctionArguments::List(l) = &mut f.args {
                for a in &mut l.args {
                    if let ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(x)) = a {
                        *x = rewrite_values(x, new_alias);
                    }
                }
            }
            A::Function(f)
        }
        A::BinaryOp { left, op, right } => A::BinaryOp {
            left: Box::new(rewrite_values(left, new_alias)),
            op: op.clone(),
            right: Box::new(rewrite_values(right, new_alias)),
        },
        A::UnaryOp { op, expr } => A::UnaryOp {
            op: *op,
            expr: Box::new(rewrite_values(expr, new_alias)),
        },
        A::Nested(x) => A::Nested(Box::new(rewrite_values(x, new_alias))),
        A::Case {
            case_token,
            end_token,
            operand,
            conditions,
            else_result,
        } => A::Case {
            case_token: case_token.clone(),
            end_token: end_token.clone(),
            operand: operand
                .as_ref()
                .map(|o| Box::new(rewrite_values(o, new_alias))),
            conditions: conditions
                .iter()
                .map(|c| ast::CaseWhen {
                    condition: rewrite_values(&c.condition, new_alias),
                    result: rewrite_values(&c.result, new_alias),
                })
                .collect(),
            else_result: else_result
                .as_ref()
                .map(|o| Box::new(rewrite_values(o, new_alias))),
        },
        other => other.clone(),
    }
}

/// The column an assignment sets: `col`, `t.col` or `db.t.col` (the table qualifier and
/// the column; a database qualifier is not checked against the table's).
fn column_target(name: &ast::ObjectName) -> Result<(Option<String>, String)> {
    let parts: Vec<String> = name
        .0
        .iter()
        .map(|p| {
            p.as_ident()
                .map(|i| i.value.clone())
                .ok_or_else(|| MyError::parse(&name.to_string(), 1))
        })
        .collect::<Result<_>>()?;
    match parts.as_slice() {
        [c] => Ok((None, c.clone())),
        [t, c] | [_, t, c] => Ok((Some(t.clone()), c.clone())),
        _ => Err(MyError::parse(&name.to_string(), 1)),
    }
}

/// A multi-table UPDATE or DELETE has no ORDER BY or LIMIT (1221, as MySQL).
fn multi_table_order_limit(
    stmt: &str,
    order_by: &[ast::OrderByExpr],
    limit: Option<&ast::Expr>,
) -> Result<()> {
    let what = match (order_by.is_empty(), limit) {
        (_, Some(_)) => "LIMIT",
        (false, None) => "ORDER BY",
        (true, None) => return Ok(()),
    };
    Err(MyError::new(
        code::ER_WRONG_USAGE,
        format!("Incorrect usage of {stmt} and {what}"),
    ))
}

fn is_default_keyword(e: &ast::Expr) -> bool {
    matches!(e, ast::Expr::Identifier(i) if i.quote_style.is_none() && i.value.eq_ignore_ascii_case("DEFAULT"))
}

/// Name used for the to-be-inserted row in ON DUPLICATE KEY UPDATE.
const NEW_ROW_ALIAS: &str = "\u{1}new";

impl Planner<'_> {
    pub fn plan_insert(&self, ins: &ast::Insert, params: &[ParamInfo]) -> Result<InsertPlan> {
        let name = match &ins.table {
            ast::TableObject::TableName(n) => n,
            _ => return Err(MyError::not_supported("INSERT into a table function")),
        };
        if ins.returning.is_some() || ins.partitioned.is_some() || !ins.after_columns.is_empty() {
            return Err(MyError::not_supported("this INSERT syntax"));
        }
        if let Some(v) = self.view_named(name)? {
            let base = self.view_insert(&v, ins)?;
            return self.through_view(|| self.plan_insert(&base, params));
        }
        let (_db, table) = self.resolve_table(name)?;
        let checks = self.view_checks_for(&table, params)?;
        let def = &table.def;
        let mut columns: Vec<usize> = Vec::new();
        let col_names: Vec<String> = if !ins.assignments.is_empty() {
            ins.assignments
                .iter()
                .map(|a| match &a.target {
                    ast::AssignmentTarget::ColumnName(n) => Ok(object_name(n)?.1),
                    _ => Err(MyError::not_supported("tuple assignment")),
                })
                .collect::<Result<_>>()?
        } else {
            ins.columns
                .iter()
                .map(|c| c.to_string().trim_matches('`').to_string())
                .collect()
        };
        if col_names.is_empty() {
            columns = (0..def.columns.len()).collect();
        } else {
            for n in &col_names {
                let i = def
                    .column_index(n)
                    .ok_or_else(|| MyError::bad_field(n, "field list"))?;
                if columns.contains(&i) {
                    return Err(MyError::new(
                        code::ER_FIELD_SPECIFIED_TWICE,
                        format!("Column '{n}' specified twice"),
                    ));
                }
                columns.push(i);
            }
        }
        let empty = Scope::default();
        let mut b = Binder::new(&empty, params);
        b.planner = Some(self);
        b.default_table = Some(def);
        let bind_row = |row: &[ast::Expr], b: &mut Binder, n: usize| -> Result<Vec<InsertValue>> {
            if row.len() != columns.len() {
                return Err(MyError::new(
                    code::ER_WRONG_VALUE_COUNT_ON_ROW,
                    format!("Column count doesn't match value count at row {n}"),
                ));
            }
            row.iter()
                .map(|e| {
                    if is_default_keyword(e) {
                        Ok(InsertValue::Default)
                    } else {
                        Ok(InsertValue::Expr(b.bind(e)?.expr))
                    }
                })
                .collect()
        };
        let source = if !ins.assignments.is_empty() {
            let row: Vec<ast::Expr> = ins.assignments.iter().map(|a| a.value.clone()).collect();
            InsertSource::Values(vec![bind_row(&row, &mut b, 1)?])
        } else {
            let Some(q) = &ins.source else {
                return Err(MyError::parse("INSERT without values", 1));
            };
            match q.body.as_ref() {
                ast::SetExpr::Values(v) if q.order_by.is_none() && q.limit_clause.is_none() => {
                    let mut rows = Vec::with_capacity(v.rows.len());
                    for (i, r) in v.rows.iter().enumerate() {
                        if r.is_empty() && columns.len() == def.columns.len() {
                            // INSERT INTO t VALUES () — all defaults.
                            rows.push(vec![InsertValue::Default; columns.len()]);
                            continue;
                        }
                        rows.push(bind_row(r, &mut b, i + 1)?);
                    }
                    InsertSource::Values(rows)
                }
                _ => {
                    let p = self.plan_query(q, params, None)?;
                    if p.columns.len() != columns.len() {
                        return Err(MyError::new(
                            code::ER_WRONG_VALUE_COUNT_ON_ROW,
                            "Column count doesn't match value count at row 1",
                        ));
                    }
                    InsertSource::Select(Box::new(p))
                }
            }
        };
        self.param_count
            .set(self.param_count.get().max(b.param_count));

        let mut on_dup = Vec::new();
        if let Some(on) = &ins.on {
            let ast::OnInsert::DuplicateKeyUpdate(assignments) = on else {
                return Err(MyError::not_supported("ON CONFLICT"));
            };
            let new_alias = ins
                .insert_alias
                .as_ref()
                .map(|a| a.row_alias.to_string())
                .unwrap_or_else(|| NEW_ROW_ALIAS.to_string());
            let mut existing = Self::scope_of(&table, def.name.as_str());
            let mut new_row = Self::scope_of(&table, &new_alias)
                .sources
                .into_iter()
                .next()
                .expect("one source");
            new_row.qualified_only = true;
            existing.sources.push(new_row);
            let mut b = Binder::new(&existing, params);
            b.planner = Some(self);
            for a in assignments {
                let ast::AssignmentTarget::ColumnName(n) = &a.target else {
                    return Err(MyError::not_supported("tuple assignment"));
                };
                let cname = object_name(n)?.1;
                let ci = def
                    .column_index(&cname)
                    .ok_or_else(|| MyError::bad_field(&cname, "field list"))?;
                let v = rewrite_values(&a.value, &new_alias);
                on_dup.push((ci, b.bind(&v)?.expr));
            }
            self.param_count
                .set(self.param_count.get().max(b.param_count));
        }
        Ok(InsertPlan {
            table,
            columns,
            source,
            on_dup,
            ignore: ins.ignore,
            replace: ins.replace_into,
            checks,
        })
    }

    fn scope_of(table: &crate::storage::table::Table, alias: &str) -> Scope {
        let db = table.def.db.clone();
        let mut s = Scope::default();
        s.sources.push(super::bind::ScopeSource {
            qualified_only: false,
            using: Default::default(),
            pk: Vec::new(),
            alias: alias.to_string(),
            db,
            table: table.name().to_string(),
            columns: table
                .def
                .columns
                .iter()
                .map(|c| super::bind::ScopeCol::stored(c, 0))
                .collect(),
        });
        s
    }

    fn single_table(
        &self,
        twj: &ast::TableWithJoins,
    ) -> Result<(std::sync::Arc<crate::storage::table::Table>, String)> {
        if !twj.joins.is_empty() {
            return Err(MyError::not_supported("multi-table UPDATE/DELETE"));
        }
        match &twj.relation {
            ast::TableFactor::Table { name, alias, .. } => {
                let (_, table) = self.resolve_table(name)?;
                let alias = alias
                    .as_ref()
                    .map(|a| a.name.value.clone())
                    .unwrap_or_else(|| table.name().to_string());
                Ok((table, alias))
            }
            _ => Err(MyError::not_supported("UPDATE/DELETE of a derived table")),
        }
    }

    fn where_and_order(
        &self,
        table: &crate::storage::table::Table,
        scope: &Scope,
        selection: Option<&ast::Expr>,
        order_by: &[ast::OrderByExpr],
        params: &[ParamInfo],
    ) -> Result<(Access, Option<super::expr::Expr>, Vec<SortKey>)> {
        let mut b = Binder::new(scope, params);
        b.planner = Some(self);
        b.context = "where clause";
        let mut conj = Vec::new();
        if let Some(w) = selection {
            access::conjuncts(b.bind(w)?.expr, &mut conj);
        }
        let access = access::choose(table, 0, &conj.iter().collect::<Vec<_>>(), None);
        b.context = "order clause";
        let mut order = Vec::new();
        for o in order_by {
            let t = b.bind(&o.expr)?;
            order.push(SortKey {
                expr: t.expr,
                desc: o.options.sort == Some(ast::OrderBySort::Desc),
                coll: t.ty.collation(),
            });
        }
        self.param_count
            .set(self.param_count.get().max(b.param_count));
        Ok((access, access::and_all(conj), order))
    }

    fn bind_limit(
        &self,
        limit: Option<&ast::Expr>,
        params: &[ParamInfo],
    ) -> Result<Option<super::expr::Expr>> {
        let Some(l) = limit else { return Ok(None) };
        let empty = Scope::default();
        let mut b = Binder::new(&empty, params);
        let e = b.bind(l)?.expr;
        self.param_count
            .set(self.param_count.get().max(b.param_count));
        Ok(Some(e))
    }

    /// The join of a multi-table UPDATE or DELETE as a locking SELECT of `projection`.
    fn join_select(
        &self,
        from: &[ast::TableWithJoins],
        selection: Option<&ast::Expr>,
        projection: Vec<ast::Expr>,
        params: &[ParamInfo],
    ) -> Result<SelectPlan> {
        let template = super::parse::parse("SELECT 1")?;
        let super::Statement::Ast(stmt) = template else {
            return Err(MyError::internal("SELECT template"));
        };
        let ast::Statement::Query(q) = *stmt else {
            return Err(MyError::internal("SELECT template"));
        };
        let ast::SetExpr::Select(mut sel) = *q.body else {
            return Err(MyError::internal("SELECT template"));
        };
        sel.from = from.to_vec();
        sel.selection = selection.cloned();
        if !projection.is_empty() {
            sel.projection = projection
                .into_iter()
                .map(ast::SelectItem::UnnamedExpr)
                .collect();
        }
        let lock = Some(LockClause {
            mode: crate::storage::lock::LockMode::Exclusive,
            nowait: false,
            skip_locked: false,
        });
        let plan = self.plan_block(&sel, None, None, None, lock, params)?;
        if plan.agg.is_some() {
            return Err(MyError::new(
                code::ER_INVALID_GROUP_FUNC_USE,
                "Invalid use of group function",
            ));
        }
        Ok(plan)
    }

    /// The source of a multi-table statement's target `name` (an alias, or the table's name
    /// when it has none); it must be a base table.
    fn target_source(
        select: &SelectPlan,
        name: &str,
        unknown: impl Fn() -> MyError,
        stmt: &str,
    ) -> Result<(usize, std::sync::Arc<crate::storage::table::Table>)> {
        let i = select
            .sources
            .iter()
            .position(|s| s.alias == name)
            .or_else(|| {
                select
                    .sources
                    .iter()
                    .position(|s| s.alias.eq_ignore_ascii_case(name))
            })
            .ok_or_else(unknown)?;
        match &select.sources[i].kind {
            SourceKind::Table { table, .. } => Ok((i, table.clone())),
            _ => Err(MyError::new(
                code::ER_NON_UPDATABLE_TABLE,
                format!("The target table {name} of the {stmt} is not updatable"),
            )),
        }
    }

    fn plan_multi_update(&self, upd: &ast::Update, params: &[ParamInfo]) -> Result<Planned> {
        multi_table_order_limit("UPDATE", &upd.order_by, upd.limit.as_ref())?;
        let mut projection = Vec::new();
        let mut targets_of = Vec::new();
        for a in &upd.assignments {
            let ast::AssignmentTarget::ColumnName(n) = &a.target else {
                return Err(MyError::not_supported("tuple assignment"));
            };
            let (q, cname) = column_target(n)?;
            let v = (!is_default_keyword(&a.value)).then(|| {
                projection.push(a.value.clone());
                projection.len() - 1
            });
            targets_of.push((q, cname, v));
        }
        let select = self.join_select(
            std::slice::from_ref(&upd.table),
            upd.selection.as_ref(),
            projection,
            params,
        )?;
        let mut targets: Vec<MultiTarget> = Vec::new();
        for (q, cname, v) in targets_of {
            let (source, table) = match q {
                Some(q) => Self::target_source(
                    &select,
                    &q,
                    || MyError::bad_field(&format!("{q}.{cname}"), "field list"),
                    "UPDATE",
                )?,
                None => {
                    let mut found = select
                        .sources
                        .iter()
                        .enumerate()
                        .filter_map(|(i, s)| match &s.kind {
                            SourceKind::Table { table, .. }
                                if table.def.column_index(&cname).is_some() =>
                            {
                                Some((i, table.clone()))
                            }
                            _ => None,
                        });
                    let first = found.next();
                    if found.next().is_some() {
                        return Err(MyError::new(
                            code::ER_NON_UNIQ_ERROR,
                            format!("Column '{cname}' in field list is ambiguous"),
                        ));
                    }
                    first.ok_or_else(|| MyError::bad_field(&cname, "field list"))?
                }
            };
            let ci = table
                .def
                .column_index(&cname)
                .ok_or_else(|| MyError::bad_field(&cname, "field list"))?;
            // The value as the join bound it (the select list is only planned, not read).
            let value = v.map_or(InsertValue::Default, |i| {
                InsertValue::Expr(select.project[i].clone())
            });
            match targets.iter_mut().find(|t| t.source == source) {
                Some(t) => t.assignments.push((ci, value)),
                None => targets.push(MultiTarget {
                    source,
                    table,
                    assignments: vec![(ci, value)],
                }),
            }
        }
        Ok(Planned::Multi(MultiWritePlan {
            select,
            targets,
            delete: false,
            ignore: update_ignore(upd)?,
        }))
    }

    /// UPDATE of one table, or of several (a join).
    /// Plan the statement a write through a view became (bounded: views over views).
    fn through_view<T>(&self, plan: impl FnOnce() -> Result<T>) -> Result<T> {
        let depth = self.view_write_depth.get();
        if depth >= super::view::VIEW_DEPTH_MAX {
            return Err(MyError::new(
                code::ER_VIEW_RECURSIVE,
                "A view write goes through too many views (view recursion)",
            ));
        }
        self.view_write_depth.set(depth + 1);
        let r = plan();
        self.view_write_depth.set(depth);
        r
    }

    /// The WITH CHECK OPTION conditions noted by the views a write came through, bound over
    /// `table`'s row, with the view each comes from.
    fn view_checks_for(
        &self,
        table: &crate::storage::table::Table,
        params: &[ParamInfo],
    ) -> Result<Vec<(super::expr::Expr, String)>> {
        let mut out = Vec::new();
        for c in self.view_checks.take() {
            let scope = Self::scope_of(table, &c.alias);
            let mut b = Binder::new(&scope, params);
            b.planner = Some(self);
            b.context = "where clause";
            out.push((b.bind(&c.expr)?.expr, c.view));
            self.note_param_count(b.param_count);
        }
        self.view_check_cascade.set(false);
        Ok(out)
    }

    fn note_param_count(&self, n: usize) {
        self.param_count.set(self.param_count.get().max(n));
    }

    pub fn plan_update_stmt(&self, upd: &ast::Update, params: &[ParamInfo]) -> Result<Planned> {
        if upd.table.joins.is_empty()
            && let ast::TableFactor::Table { name, .. } = &upd.table.relation
            && let Some(v) = self.view_named(name)?
        {
            let base = self.view_update(&v, upd)?;
            return self.through_view(|| self.plan_update_stmt(&base, params));
        }
        if upd.table.joins.is_empty() && upd.from.is_none() {
            return Ok(Planned::Update(self.plan_update(upd, params)?));
        }
        if upd.from.is_some() || upd.returning.is_some() {
            return Err(MyError::not_supported("UPDATE … FROM"));
        }
        self.plan_multi_update(upd, params)
    }

    /// DELETE from one table, or from several (`DELETE t1, t2 FROM …` or
    /// `DELETE FROM t1, t2 USING …`).
    pub fn plan_delete_stmt(&self, del: &ast::Delete, params: &[ParamInfo]) -> Result<Planned> {
        if del.returning.is_some() {
            return Err(MyError::not_supported("DELETE … RETURNING"));
        }
        let from = match &del.from {
            ast::FromTable::WithFromKeyword(f) | ast::FromTable::WithoutKeyword(f) => f,
        };
        let (names, joined): (Vec<ast::ObjectName>, &[ast::TableWithJoins]) =
            match (&del.tables[..], &del.using) {
                ([], None) => {
                    if let [twj] = from.as_slice()
                        && twj.joins.is_empty()
                    {
                        if let ast::TableFactor::Table { name, alias, .. } = &twj.relation
                            && let Some(v) = self.view_named(name)?
                        {
                            let alias = alias.as_ref().map(|a| a.name.value.clone());
                            let base = self.view_delete(&v, del, alias)?;
                            return self.through_view(|| self.plan_delete_stmt(&base, params));
                        }
                        return Ok(Planned::Delete(self.plan_delete(del, params)?));
                    }
                    return Err(MyError::parse("", 1));
                }
                ([], Some(using)) => {
                    let mut names = Vec::new();
                    for t in from {
                        match &t.relation {
                            ast::TableFactor::Table { name, .. } if t.joins.is_empty() => {
                                names.push(name.clone())
                            }
                            _ => return Err(MyError::parse("", 1)),
                        }
                    }
                    (names, using.as_slice())
                }
                (tables, None) => (tables.to_vec(), from.as_slice()),
                (_, Some(_)) => return Err(MyError::parse("", 1)),
            };
        multi_table_order_limit("DELETE", &del.order_by, del.limit.as_ref())?;
        let select = self.join_select(joined, del.selection.as_ref(), Vec::new(), params)?;
        let mut targets: Vec<MultiTarget> = Vec::new();
        for n in names {
            let (_, name) = object_name(&n)?;
            // `DELETE t.*`: sqlparser keeps the wildcard as the last part.
            let name = name.trim_end_matches(".*").to_string();
            let (source, table) = Self::target_source(
                &select,
                &name,
                || {
                    MyError::new(
                        code::ER_UNKNOWN_TABLE,
                        format!("Unknown table '{name}' in MULTI DELETE"),
                    )
                },
                "DELETE",
            )?;
            if !targets.iter().any(|t| t.source == source) {
                targets.push(MultiTarget {
                    source,
                    table,
                    assignments: Vec::new(),
                });
            }
        }
        Ok(Planned::Multi(MultiWritePlan {
            select,
            targets,
            delete: true,
            ignore: false,
        }))
    }

    pub fn plan_update(&self, upd: &ast::Update, params: &[ParamInfo]) -> Result<UpdatePlan> {
        if upd.from.is_some() || upd.returning.is_some() {
            return Err(MyError::not_supported("UPDATE … FROM"));
        }
        let ignore = update_ignore(upd)?;
        let (table, alias) = self.single_table(&upd.table)?;
        let checks = self.view_checks_for(&table, params)?;
        let scope = Self::scope_of(&table, &alias);
        let (access, filter, order) = self.where_and_order(
            &table,
            &scope,
            upd.selection.as_ref(),
            &upd.order_by,
            params,
        )?;
        let mut b = Binder::new(&scope, params);
        b.planner = Some(self);
        b.default_table = Some(&table.def);
        let mut assignments = Vec::new();
        for a in &upd.assignments {
            let ast::AssignmentTarget::ColumnName(n) = &a.target else {
                return Err(MyError::not_supported("tuple assignment"));
            };
            let (q, cname) = column_target(n)?;
            if let Some(q) = q
                && q != alias
            {
                return Err(MyError::bad_field(&format!("{q}.{cname}"), "field list"));
            }
            let ci = table
                .def
                .column_index(&cname)
                .ok_or_else(|| MyError::bad_field(&cname, "field list"))?;
            let v = if is_default_keyword(&a.value) {
                InsertValue::Default
            } else {
                InsertValue::Expr(b.bind(&a.value)?.expr)
            };
            assignments.push((ci, v));
        }
        self.param_count
            .set(self.param_count.get().max(b.param_count));
        let limit = self.bind_limit(upd.limit.as_ref(), params)?;
        Ok(UpdatePlan {
            table,
            access,
            filter,
            assignments,
            order,
            limit,
            ignore,
            checks,
        })
    }

    pub fn plan_delete(&self, del: &ast::Delete, params: &[ParamInfo]) -> Result<DeletePlan> {
        if !del.tables.is_empty() || del.using.is_some() || del.returning.is_some() {
            return Err(MyError::not_supported("multi-table DELETE"));
        }
        let from = match &del.from {
            ast::FromTable::WithFromKeyword(f) | ast::FromTable::WithoutKeyword(f) => f,
        };
        let [twj] = from.as_slice() else {
            return Err(MyError::not_supported("multi-table DELETE"));
        };
        let (table, alias) = self.single_table(twj)?;
        let scope = Self::scope_of(&table, &alias);
        let (access, filter, order) = self.where_and_order(
            &table,
            &scope,
            del.selection.as_ref(),
            &del.order_by,
            params,
        )?;
        let limit = self.bind_limit(del.limit.as_ref(), params)?;
        Ok(DeletePlan {
            table,
            access,
            filter,
            order,
            limit,
            ignore: super::parse::is_delete_ignore(del),
        })
    }
}

/// `UPDATE IGNORE` (parsed as `UPDATE OR IGNORE`, see `parse::rewrite`); sqlparser's other
/// SQLite conflict clauses are not MySQL.
fn update_ignore(upd: &ast::Update) -> Result<bool> {
    match &upd.or {
        None => Ok(false),
        Some(ast::SqliteOnConflict::Ignore) => Ok(true),
        Some(_) => Err(MyError::parse("OR", 1)),
    }
}
