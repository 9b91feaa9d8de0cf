//! The planner: from a parsed statement to a [`plan`](super::plan).
//!
//! For a query block it resolves the FROM clause into sources (tables, derived tables, joins),
//! binds the WHERE clause and splits it into conjuncts, binds the select list (expanding `*`),
//! sets up aggregation when there is a GROUP BY or an aggregate function, binds HAVING and
//! ORDER BY (which may use select-list aliases and positions), chooses an access path for
//! every table from the conjuncts that apply to it, and pushes each conjunct down to the
//! earliest join level where all its columns are bound (never into the inner side of a LEFT
//! JOIN, where it must apply after NULL-extension).
//!
//! Plans built from the normaliser's parameterised text are cached and shared, so nothing
//! here may depend on a lifted literal's value except its type where that cannot change the
//! plan; where it could (a literal in the select list fixes a column's name and type) the
//! binder refuses with [`needs_literals`](super::bind::needs_literals) and the statement is
//! planned from its original text instead.

use super::access;
use super::bind::{
    self, AggCtx, Binder, ParamInfo, Scope, ScopeCol, ScopeSource, Typed, UsingCols,
};
use super::expr::Expr;
use super::plan::*;
use super::types::{ColumnMeta, SqlType};
use crate::error::{MyError, Result, code};
use crate::storage::Storage;
use crate::storage::lock::LockMode;
use crate::storage::table::Table;
use mysql_common::constants::ColumnFlags;
use sqlparser::ast;
use std::cell::{Cell, RefCell};
use std::sync::Arc;

mod from;
use from::FromItem;

pub struct Planner<'a> {
    pub storage: &'a Storage,
    pub db: Option<&'a str>,
    /// The statement text that was parsed (select-list items are named after it).
    pub text: &'a str,
    pub param_count: Cell<usize>,
    /// The session's `collation_connection`: the collation of string literals.
    pub conn_coll: super::types::Collation,
    /// Set when the plan reads data fixed at plan time (information_schema snapshots): such
    /// plans must not be cached.
    pub uncacheable: Cell<bool>,
    /// sql_mode ONLY_FULL_GROUP_BY: reject select-list columns that are neither grouped
    /// nor functionally dependent on the grouped columns.
    pub only_full_group_by: bool,
    /// Scopes of the query blocks enclosing the subquery being planned (innermost last),
    /// for correlated column references.
    pub outer: RefCell<Vec<Scope>>,
    /// Per enclosing scope: the highest source a correlated reference read.
    pub outer_max_src: RefCell<Vec<Option<usize>>>,
    /// Per enclosing scope: set for an aggregated block's select list, HAVING or ORDER BY,
    /// whose correlated references read the group's values.
    pub outer_aggs: RefCell<Vec<Option<bind::OuterAgg>>>,

    /// The lowest `outer` index referenced since it was last reset (usize::MAX: none).
    pub outer_min_ref: Cell<usize>,
    /// A client parameter's (unknown) type went into a result column's type.
    pub param_typed_columns: Cell<bool>,
    /// The query logs, for reading `mysql.slow_log` and `mysql.general_log`
    /// (`log_output=TABLE`); None: those tables are not there.
    pub log_tables: Option<&'a crate::observe::QueryLogs>,
    /// The session planning, for the tables computed when read (`super::sysschema`).
    pub session: Option<&'a crate::session::Ctx>,
    /// The views being expanded, innermost last: names in their SELECTs resolve in the
    /// innermost one's database, and its select-list items are named after its text.
    pub views: RefCell<Vec<Arc<crate::storage::schema::ViewDef>>>,
    /// WITH CHECK OPTION conditions of the views a write goes through (see `super::view`),
    /// for the base table's plan to take.
    pub view_checks: RefCell<Vec<ViewCheck>>,
    /// A CASCADED check option above: every view below checks its WHERE too.
    pub view_check_cascade: Cell<bool>,
    /// How many views the write being planned went through.
    pub view_write_depth: Cell<usize>,
}

/// A condition a row written through a view WITH CHECK OPTION must meet.
pub struct ViewCheck {
    /// Over the columns of the table (or view) below, named through `alias`.
    pub expr: ast::Expr,
    pub alias: String,
    /// `db.view`, for the error.
    pub view: String,
}

/// Metadata flags of a table column, as column definitions report them.
pub fn column_flags(table: &Table, col: usize) -> u16 {
    let def = &table.def;
    let c = &def.columns[col];
    let mut f = ColumnMeta::for_type(&c.ty, c.nullable).flags;
    let (pri, uni, mul) = def.is_key_column(col);
    if pri {
        f |= ColumnFlags::PRI_KEY_FLAG | ColumnFlags::PART_KEY_FLAG;
    }
    if uni {
        f |= ColumnFlags::UNIQUE_KEY_FLAG | ColumnFlags::PART_KEY_FLAG;
    }
    if mul {
        f |= ColumnFlags::MULTIPLE_KEY_FLAG | ColumnFlags::PART_KEY_FLAG;
    }
    if c.auto_increment {
        f |= ColumnFlags::AUTO_INCREMENT_FLAG;
    }
    if c.on_update_now {
        f |= ColumnFlags::ON_UPDATE_NOW_FLAG;
    }
    if matches!(c.default, crate::storage::schema::ColumnDefault::None) && !c.auto_increment {
        f |= ColumnFlags::NO_DEFAULT_VALUE_FLAG;
    }
    f.bits()
}

fn ident(i: &ast::Ident) -> String {
    i.value.clone()
}

/// `[db.]name` of an object name.
pub fn object_name(name: &ast::ObjectName) -> Result<(Option<String>, String)> {
    let parts: Vec<String> = name
        .0
        .iter()
        .map(|p| {
            p.as_ident()
                .map(ident)
                .ok_or_else(|| MyError::parse(&name.to_string(), 1))
        })
        .collect::<Result<_>>()?;
    match parts.as_slice() {
        [t] => Ok((None, t.clone())),
        [d, t] => Ok((Some(d.clone()), t.clone())),
        _ => Err(MyError::parse(&name.to_string(), 1)),
    }
}

impl<'a> Planner<'a> {
    pub fn new(storage: &'a Storage, db: Option<&'a str>, text: &'a str) -> Planner<'a> {
        Planner {
            storage,
            db,
            text,
            param_count: Cell::new(0),
            conn_coll: super::types::Collation::DEFAULT,
            uncacheable: Cell::new(false),
            only_full_group_by: false,
            outer: RefCell::new(Vec::new()),
            outer_max_src: RefCell::new(Vec::new()),
            outer_aggs: RefCell::new(Vec::new()),
            outer_min_ref: Cell::new(usize::MAX),
            param_typed_columns: Cell::new(false),
            log_tables: None,
            session: None,
            views: RefCell::new(Vec::new()),
            view_checks: RefCell::new(Vec::new()),
            view_check_cascade: Cell::new(false),
            view_write_depth: Cell::new(0),
        }
    }

    /// Where unqualified table names resolve: the database of the view being expanded, else
    /// the session's.
    pub fn default_db(&self) -> Option<String> {
        match self.views.borrow().last() {
            Some(v) => Some(v.db.clone()),
            None => self.db.map(str::to_string),
        }
    }

    fn note_params(&self, b: &Binder) {
        self.param_count
            .set(self.param_count.get().max(b.param_count));
    }

    pub fn resolve_table(&self, name: &ast::ObjectName) -> Result<(String, Arc<Table>)> {
        let (db, t) = object_name(name)?;
        let db = match db.or_else(|| self.default_db()) {
            Some(d) => d,
            None => return Err(MyError::no_db()),
        };
        if crate::observe::logtable::LogTable::named(&db, &t).is_some() {
            return Err(MyError::new(
                code::ER_CANT_LOCK_LOG_TABLE,
                "You can't use locks with log tables",
            ));
        }
        if let Some(s) = self.session
            && let Some(tt) = s.temp_table(&db, &t)
        {
            if s.refuse_temp_tables {
                return Err(MyError::new(
                    code::ER_VIEW_SELECT_TMPTABLE,
                    format!("View's SELECT refers to a temporary table '{t}'"),
                ));
            }
            return Ok((db, tt));
        }
        // A missing database is reported as a missing table, as MySQL does.
        match self.storage.catalog.table(&db, &t) {
            Some(table) => Ok((db, table)),
            None => Err(MyError::no_such_table(&db, &t)),
        }
    }

    /// A read of a table computed when read — `mysql.slow_log` or `mysql.general_log` (the
    /// rows logged so far, see `observe::logtable`), or an `information_schema` or
    /// `performance_schema` table (see `super::sysschema`) — as an in-memory table of the
    /// rows as they are now, for this statement only (its plan is never cached).
    fn computed_table(&self, name: &ast::ObjectName) -> Result<Option<(String, Arc<Table>)>> {
        use crate::observe::logtable::{self, LogTable};
        let (db, t) = object_name(name)?;
        let Some(db) = db.or_else(|| self.default_db()) else {
            return Ok(None);
        };
        let (db, def, rows) =
            if let (Some(which), Some(logs)) = (LogTable::named(&db, &t), self.log_tables) {
                let data = logs
                    .read_table(which)
                    .map_err(|e| MyError::storage_io(&e))?;
                let def = which.def();
                // TIMESTAMP columns hold UTC, as stored tables do (read in the session's
                // zone).
                let rows = logtable::parse(&def, &data, 0);
                (db, def, rows)
            } else if let Some(ctx) = self.session
                && let Some((def, rows)) = super::sysschema::table(ctx, &db, &t)
            {
                (def.db.clone(), def, rows)
            } else {
                return Ok(None);
            };
        self.uncacheable.set(true);
        let table = Table::new(def);
        for row in rows {
            // No key: rows get hidden row ids, so there is nothing to collide with.
            table
                .load_committed(row, 0)
                .map_err(|_| MyError::internal("cannot load a computed table's row"))?;
        }
        Ok(Some((db, Arc::new(table))))
    }

    fn table_scope(db: &str, alias: &str, table: &Table) -> ScopeSource {
        ScopeSource {
            qualified_only: false,
            using: UsingCols::default(),
            pk: table
                .def
                .primary
                .as_ref()
                .map(|p| p.columns.iter().map(|c| c.col).collect())
                .unwrap_or_default(),
            alias: alias.to_string(),
            db: db.to_string(),
            table: table.name().to_string(),
            columns: table
                .def
                .columns
                .iter()
                .enumerate()
                .map(|(i, c)| ScopeCol::stored(c, column_flags(table, i)))
                .collect(),
        }
    }

    /// Plan a derived table or view: it cannot see the enclosing blocks' columns (no
    /// LATERAL).
    fn isolated<T>(&self, plan: impl FnOnce() -> Result<T>) -> Result<T> {
        let outer = self.outer.take();
        let outer_max = self.outer_max_src.take();
        let outer_aggs = self.outer_aggs.take();
        let min_ref = self.outer_min_ref.replace(usize::MAX);
        let planned = plan();
        *self.outer.borrow_mut() = outer;
        *self.outer_max_src.borrow_mut() = outer_max;
        *self.outer_aggs.borrow_mut() = outer_aggs;
        self.outer_min_ref.set(min_ref);
        planned
    }

    /// Plan a query expression (SELECT, possibly with UNION, ORDER BY, LIMIT, locking).
    pub fn plan_query(
        &self,
        q: &ast::Query,
        params: &[ParamInfo],
        _outer: Option<&Scope>,
    ) -> Result<SelectPlan> {
        if q.with.is_some() {
            return Err(MyError::not_supported("WITH (common table expressions)"));
        }
        if q.fetch.is_some() {
            return Err(MyError::not_supported("FETCH"));
        }
        let lock = q.locks.first().map(|l| LockClause {
            mode: match l.lock_type {
                ast::LockType::Update => LockMode::Exclusive,
                ast::LockType::Share => LockMode::Shared,
            },
            nowait: matches!(l.nonblock, Some(ast::NonBlock::Nowait)),
            skip_locked: matches!(l.nonblock, Some(ast::NonBlock::SkipLocked)),
        });
        let (limit, offset) = self.limit_clause(q.limit_clause.as_ref(), params)?;
        match q.body.as_ref() {
            ast::SetExpr::Select(sel) => {
                self.plan_block(sel, q.order_by.as_ref(), limit, offset, lock, params)
            }
            ast::SetExpr::Query(inner) => {
                let mut p = self.plan_query(inner, params, None)?;
                if q.order_by.is_some() || limit.is_some() {
                    return Err(MyError::not_supported(
                        "ORDER BY/LIMIT around a parenthesized query",
                    ));
                }
                if lock.is_some() {
                    p.lock = lock;
                }
                Ok(p)
            }
            ast::SetExpr::SetOperation {
                left,
                op,
                set_quantifier,
                right,
            } => {
                if *op != ast::SetOperator::Union {
                    return Err(MyError::not_supported(format!("{op}")));
                }
                let all = matches!(set_quantifier, ast::SetQuantifier::All);
                let mut first = self.plan_set_expr(left, params)?;
                // `(SELECT … ORDER BY … LIMIT n) UNION …`: the first part's ORDER BY and
                // LIMIT are its own; the union's rows are appended after them.
                if !first.order.is_empty() || first.limit.is_some() || first.offset.is_some() {
                    first = self.wrap_union(first, None, None, None, params)?;
                }
                let second = self.plan_set_expr(right, params)?;
                if first.columns.len() != second.columns.len() {
                    return Err(MyError::new(
                        code::ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT,
                        "The used SELECT statements have a different number of columns",
                    ));
                }
                first.unions.push((second, all));
                union_decimals(&mut first);
                if q.order_by.is_none() && limit.is_none() && offset.is_none() {
                    return Ok(first);
                }
                self.wrap_union(first, q.order_by.as_ref(), limit, offset, params)
            }
            ast::SetExpr::Values(_) => Err(MyError::not_supported("VALUES as a query")),
            other => Err(MyError::not_supported(format!("{other}"))),
        }
    }

    /// ORDER BY / LIMIT of a UNION apply to its result: plan it as a derived table and sort
    /// that, resolving ORDER BY against the result's column names (or positions).
    fn wrap_union(
        &self,
        union: SelectPlan,
        order_by: Option<&ast::OrderBy>,
        limit: Option<Expr>,
        offset: Option<Expr>,
        params: &[ParamInfo],
    ) -> Result<SelectPlan> {
        let columns = union.columns.clone();
        let types = union.types.clone();
        let width = columns.len();
        let scope = Scope {
            sources: vec![ScopeSource {
                qualified_only: false,
                using: UsingCols::default(),
                pk: Vec::new(),
                alias: String::new(),
                db: String::new(),
                table: String::new(),
                columns: columns
                    .iter()
                    .zip(&types)
                    .map(|(m, t)| ScopeCol {
                        name: m.name.clone(),
                        ty: t.clone(),
                        nullable: true,
                        flags: 0,
                        utc: false,
                    })
                    .collect(),
            }],
            unreachable: Vec::new(),
        };
        let mut order = Vec::new();
        if let Some(ob) = order_by {
            let mut b = Binder::new(&scope, params);
            b.planner = Some(self);
            b.context = "order clause";
            let ast::OrderByKind::Expressions(exprs) = &ob.kind else {
                return Err(MyError::not_supported("ORDER BY ALL"));
            };
            for o in exprs {
                let desc = o.options.sort == Some(ast::OrderBySort::Desc);
                let (expr, ty) = match &o.expr {
                    ast::Expr::Value(v) if is_position(&v.value) => {
                        let ast::Value::Number(n, _) = &v.value else {
                            unreachable!("matched above")
                        };
                        let pos: usize = n.parse().map_err(|_| MyError::parse(n, 1))?;
                        if pos == 0 || pos > width {
                            return Err(MyError::bad_field(n, "order clause"));
                        }
                        (Expr::col(0, pos - 1), types[pos - 1].clone())
                    }
                    // The union's result has no tables: `ORDER BY t.col` names one of
                    // its SELECTs' tables.
                    ast::Expr::CompoundIdentifier(parts) if parts.len() > 1 => {
                        let table = &parts[parts.len() - 2].value;
                        return Err(MyError::new(
                            code::ER_TABLENAME_NOT_ALLOWED_HERE,
                            format!(
                                "Table '{table}' from one of the SELECTs cannot be used in ORDER clause"
                            ),
                        ));
                    }
                    other => {
                        let t = b.bind(other)?;
                        (t.expr, t.ty)
                    }
                };
                order.push(SortKey {
                    expr,
                    desc,
                    coll: ty.collation(),
                });
            }
            self.note_params(&b);
        }
        Ok(SelectPlan {
            sources: vec![Source::new(
                SourceKind::Derived(Box::new(union)),
                String::new(),
                width,
            )],
            filter: None,
            agg: None,
            having: None,
            project: (0..width).map(|c| Expr::col(0, c)).collect(),
            order,
            order_satisfied: false,
            distinct: false,
            limit,
            offset,
            lock: None,
            columns,
            types,
            unions: Vec::new(),
            into_vars: Vec::new(),
            uses_index: false,
        })
    }

    fn plan_set_expr(&self, e: &ast::SetExpr, params: &[ParamInfo]) -> Result<SelectPlan> {
        match e {
            ast::SetExpr::Select(sel) => self.plan_block(sel, None, None, None, None, params),
            ast::SetExpr::Query(q) => self.plan_query(q, params, None),
            ast::SetExpr::SetOperation { .. } => {
                let q = ast::Query {
                    with: None,
                    body: Box::new(e.clone()),
                    order_by: None,
                    limit_clause: None,
                    fetch: None,
                    locks: vec![],
                    for_clause: None,
                    settings: None,
                    format_clause: None,
                    pipe_operators: vec![],
                };
                self.plan_query(&q, params, None)
            }
            other => Err(MyError::not_supported(format!("{other}"))),
        }
    }

    fn limit_clause(
        &self,
        l: Option<&ast::LimitClause>,
        params: &[ParamInfo],
    ) -> Result<(Option<Expr>, Option<Expr>)> {
        let scope = Scope::default();
        let mut b = Binder::new(&scope, params);
        b.context = "LIMIT";
        let mut bind_count = |e: &ast::Expr| -> Result<Expr> {
            let t = b.bind(e)?;
            if t.expr.references_sources() {
                return Err(MyError::parse(&e.to_string(), 1));
            }
            Ok(t.expr)
        };
        let r = match l {
            None => (None, None),
            Some(ast::LimitClause::LimitOffset {
                limit,
                offset,
                limit_by,
            }) => {
                if !limit_by.is_empty() {
                    return Err(MyError::not_supported("LIMIT BY"));
                }
                let lim = limit.as_ref().map(&mut bind_count).transpose()?;
                let off = offset.as_ref().map(|o| bind_count(&o.value)).transpose()?;
                (lim, off)
            }
            Some(ast::LimitClause::OffsetCommaLimit { offset, limit }) => {
                (Some(bind_count(limit)?), Some(bind_count(offset)?))
            }
        };
        self.note_params(&b);
        Ok(r)
    }

    pub(super) fn plan_block(
        &self,
        sel: &ast::Select,
        order_by: Option<&ast::OrderBy>,
        limit: Option<Expr>,
        offset: Option<Expr>,
        lock: Option<LockClause>,
        params: &[ParamInfo],
    ) -> Result<SelectPlan> {
        let mut into_vars = Vec::new();
        if let Some(into) = &sel.into {
            if into.table || into.temporary {
                return Err(MyError::not_supported("SELECT … INTO a table"));
            }
            for t in &into.targets {
                match t {
                    ast::Expr::Identifier(i)
                        if i.quote_style.is_none()
                            && i.value.starts_with('@')
                            && !i.value.starts_with("@@") =>
                    {
                        into_vars.push(i.value[1..].to_ascii_lowercase())
                    }
                    _ => {
                        return Err(MyError::not_supported(
                            "SELECT … INTO other than user variables",
                        ));
                    }
                }
            }
        }
        if !sel.lateral_views.is_empty() || sel.qualify.is_some() || !sel.named_window.is_empty() {
            return Err(MyError::not_supported("this SELECT syntax"));
        }
        // Sources.
        // FROM DUAL is no table at all.
        let from: Vec<ast::TableWithJoins> = sel
            .from
            .iter()
            .filter(|t| {
                !(t.joins.is_empty()
                    && matches!(&t.relation, ast::TableFactor::Table { name, alias: None, .. }
                        if name.0.len() == 1 && name.0[0].as_ident().is_some_and(|i| i.quote_style.is_none() && i.value.eq_ignore_ascii_case("DUAL"))))
            })
            .cloned()
            .collect();
        let (mut items, mut star_order) = self.plan_from(&from, params)?;
        from::simplify_outer_joins(&mut items, sel.selection.as_ref());
        let straight = from.iter().any(|t| {
            t.joins
                .iter()
                .any(|j| matches!(j.join_operator, ast::JoinOperator::StraightJoin(_)))
        }) || sel
            .select_modifiers
            .as_ref()
            .is_some_and(|m| m.straight_join);
        let reordered = !straight && self.join_order(&mut items, &mut star_order, sel, params);
        let scope = Scope {
            sources: items.iter().map(|i| i.scope.clone()).collect(),
            unreachable: Vec::new(),
        };
        let dual = items.is_empty();

        // WHERE and ON.
        let mut where_conj = Vec::new();
        if let Some(w) = &sel.selection {
            let mut b = Binder::new(&scope, params);
            b.context = "where clause";
            b.planner = Some(self);
            let t = b.bind(w)?;
            self.note_params(&b);
            access::conjuncts(t.expr, &mut where_conj);
        }
        let groups: Vec<usize> = items.iter().map(|i| i.comma_group).collect();
        // Bind an ON condition of item `i`, which may read sources up to `last`.
        let bind_on = |on: &ast::Expr, i: usize, last: usize| -> Result<Expr> {
            // Only the sources of its own comma-separated FROM item (rarely several).
            let unreachable: Vec<usize> = (0..groups.len())
                .filter(|&o| groups[o] != groups[i])
                .collect();
            let narrowed;
            let on_scope = if unreachable.is_empty() {
                &scope
            } else {
                narrowed = Scope {
                    sources: scope.sources.clone(),
                    unreachable,
                };
                &narrowed
            };
            let mut b = Binder::new(on_scope, params);
            b.context = "on clause";
            b.planner = Some(self);
            let t = b.bind(on)?;
            self.note_params(&b);
            // (A reordered join was checked in its written order.)
            if let Some(m) = t.expr.max_source()
                && m > last
                && !reordered
            {
                return Err(MyError::bad_field(&on.to_string(), "on clause"));
            }
            Ok(t.expr)
        };
        // Inner joins' conditions inside nested groups: (condition, the group's first source).
        let mut group_conds: Vec<(Expr, usize)> = Vec::new();
        for (i, it) in items.iter_mut().enumerate() {
            if let Some(on) = it.on_ast.take() {
                it.source.on = Some(bind_on(&on, i, it.source.nest_end.unwrap_or(i))?);
            }
            for (on, group) in std::mem::take(&mut it.inner_on) {
                let e = bind_on(&on, i, i)?;
                match group {
                    None => access::conjuncts(e, &mut where_conj),
                    Some(g) => {
                        let mut conj = Vec::new();
                        access::conjuncts(e, &mut conj);
                        group_conds.extend(conj.into_iter().map(|c| (c, g)));
                    }
                }
            }
        }

        // Aggregation?
        let mut rollup = false;
        let group_exprs: Vec<ast::Expr> = match &sel.group_by {
            ast::GroupByExpr::Expressions(exprs, mods) => {
                match mods.as_slice() {
                    [] => {}
                    [ast::GroupByWithModifier::Rollup] if !exprs.is_empty() => rollup = true,
                    _ => return Err(MyError::not_supported("this GROUP BY modifier")),
                }
                exprs.clone()
            }
            ast::GroupByExpr::All(_) => return Err(MyError::not_supported("GROUP BY ALL")),
        };
        let proj_has_agg = sel.projection.iter().any(|p| match p {
            ast::SelectItem::UnnamedExpr(e) | ast::SelectItem::ExprWithAlias { expr: e, .. } => {
                bind::contains_aggregate(e)
            }
            _ => false,
        });
        let having_has_agg = sel.having.as_ref().is_some_and(bind::contains_aggregate);
        let order_has_agg = order_by.is_some_and(|o| match &o.kind {
            ast::OrderByKind::Expressions(es) => {
                es.iter().any(|e| bind::contains_aggregate(&e.expr))
            }
            _ => false,
        });
        let is_agg = !group_exprs.is_empty() || proj_has_agg || having_has_agg || order_has_agg;

        // Item texts for naming.
        let item_texts = match self.views.borrow().last() {
            Some(v) => select_item_texts(&v.select, &sel.select_token.0.span),
            None => select_item_texts(self.text, &sel.select_token.0.span),
        };

        let mut agg_ctx = None;
        if is_agg {
            let mut keys = Vec::new();
            let mut kb = Binder::new(&scope, params);
            kb.context = "group statement";
            kb.planner = Some(self);
            // GROUP BY position or select alias: the select item's expression, so that the
            // item itself (`COALESCE(region, 'none') AS r … GROUP BY r`) reads the key.
            let mut group_ast = Vec::with_capacity(group_exprs.len());
            for g in &group_exprs {
                let ge = self.resolve_group_item(g, sel)?;
                let mut key = kb.bind(&ge)?;
                // Super-aggregate rows show NULL for the keys rolled up.
                key.nullable |= rollup;
                keys.push(key);
                group_ast.push(ge);
            }
            self.note_params(&kb);
            agg_ctx = Some(AggCtx {
                inner: &scope,
                group_ast,
                keys,
                aggs: Vec::new(),
                agg_types: Vec::new(),
            });
        }
        let agg_scope = Scope::default();
        let mut b = if is_agg {
            Binder::new(&agg_scope, params)
        } else {
            Binder::new(&scope, params)
        };
        b.agg = agg_ctx;
        b.allow_agg = is_agg;
        b.only_full_group_by = self.only_full_group_by;
        b.planner = Some(self);
        b.forbid_literal_params = true;

        // Select list.
        let mut project = Vec::new();
        let mut columns = Vec::new();
        let mut types = Vec::new();
        for (pi, item) in sel.projection.iter().enumerate() {
            b.item_no = pi + 1;
            match item {
                ast::SelectItem::Wildcard(_) | ast::SelectItem::QualifiedWildcard(..) => {
                    let only = match item {
                        ast::SelectItem::QualifiedWildcard(
                            ast::SelectItemQualifiedWildcardKind::ObjectName(n),
                            _,
                        ) => Some(object_name(n)?.1),
                        ast::SelectItem::QualifiedWildcard(..) => {
                            return Err(MyError::not_supported("this wildcard"));
                        }
                        _ => None,
                    };
                    if dual && only.is_none() {
                        return Err(MyError::new(code::ER_NO_TABLES_USED, "No tables used"));
                    }
                    let mut matched = false;
                    // `*` over USING/NATURAL joins: the coalesced columns first, once.
                    let star = star_columns(&scope, &star_order, only.is_none());
                    for (si, ci) in star {
                        let s = &scope.sources[si];
                        if only.as_ref().is_some_and(|o| *o != s.alias) {
                            continue;
                        }
                        matched = true;
                        let c = &s.columns[ci];
                        let t = if is_agg {
                            b.bind(&ast::Expr::CompoundIdentifier(vec![
                                ast::Ident::new(&s.alias),
                                ast::Ident::new(&c.name),
                            ]))?
                        } else {
                            Typed::new(Expr::col(si, ci), c.ty.clone(), c.nullable)
                        };
                        columns.push(self.column_meta(&scope, si, ci, &c.name));
                        types.push(t.ty);
                        project.push(t.expr);
                    }
                    if !matched {
                        return Err(MyError::new(
                            code::ER_BAD_TABLE_ERROR,
                            format!("Unknown table '{}'", only.unwrap_or_default()),
                        ));
                    }
                }
                ast::SelectItem::ExprWithAliases { .. } => {
                    return Err(MyError::not_supported("multiple aliases"));
                }
                ast::SelectItem::UnnamedExpr(e)
                | ast::SelectItem::ExprWithAlias { expr: e, .. } => {
                    let alias = match item {
                        ast::SelectItem::ExprWithAlias { alias, .. } => Some(ident(alias)),
                        _ => None,
                    };
                    // A lifted literal here would fix the column's type (and, unaliased,
                    // its name) to the first execution's value: plan with the literals.
                    let t = b.bind(e)?;
                    let mut meta = match (&t.expr, e) {
                        (
                            Expr::Col { src, col, .. },
                            ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_),
                        ) if !is_agg => {
                            let written = match e {
                                ast::Expr::Identifier(i) => i.value.clone(),
                                ast::Expr::CompoundIdentifier(p) => {
                                    p.last().map(|i| i.value.clone()).unwrap_or_default()
                                }
                                _ => String::new(),
                            };
                            self.column_meta(&scope, *src as usize, *col as usize, &written)
                        }
                        _ => {
                            let name = match (e, item_texts.as_ref().and_then(|t| t.get(pi))) {
                                // MySQL names a string literal column by its value.
                                (ast::Expr::Value(v), _)
                                    if matches!(
                                        v.value,
                                        ast::Value::SingleQuotedString(_)
                                            | ast::Value::DoubleQuotedString(_)
                                    ) =>
                                {
                                    match &v.value {
                                        ast::Value::SingleQuotedString(s)
                                        | ast::Value::DoubleQuotedString(s) => s.clone(),
                                        _ => String::new(),
                                    }
                                }
                                // A column is named by its name alone, also through
                                // GROUP BY (`w.w_id` → `w_id`).
                                (ast::Expr::Identifier(i), _) => i.value.clone(),
                                (ast::Expr::CompoundIdentifier(p), _) if !p.is_empty() => {
                                    p[p.len() - 1].value.clone()
                                }
                                (_, Some(text)) => text.clone(),
                                (_, None) => e.to_string(),
                            };
                            let mut m = ColumnMeta::expr(name, &t.ty, t.nullable);
                            // A plain column through GROUP BY keeps its table metadata.
                            if let (
                                true,
                                ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_),
                            ) = (is_agg, e)
                                && let Ok((si, ci)) = resolve_ast_column(&scope, e)
                            {
                                let written = m.name.clone();
                                m = self.column_meta(&scope, si, ci, &written);
                            }
                            m
                        }
                    };
                    if let Some(a) = &alias {
                        meta.name = a.clone();
                        b.aliases.push((a.clone(), t.clone()));
                    }
                    columns.push(meta);
                    types.push(t.ty.clone());
                    project.push(t.expr);
                }
            }
        }
        self.note_params(&b);
        b.forbid_literal_params = false;

        // HAVING.
        let having = match &sel.having {
            Some(h) => {
                b.context = "having clause";
                b.item_no = 1;
                let t = b.bind(h)?;
                Some(t.expr)
            }
            None => None,
        };

        // ORDER BY.
        let mut order = Vec::new();
        if let Some(ob) = order_by {
            b.context = "order clause";
            match &ob.kind {
                ast::OrderByKind::Expressions(exprs) => {
                    for (oi, o) in exprs.iter().enumerate() {
                        b.item_no = oi + 1;
                        let desc = o.options.sort == Some(ast::OrderBySort::Desc);
                        // Positional: ORDER BY 2
                        let t = match &o.expr {
                            ast::Expr::Value(v) => match &v.value {
                                ast::Value::Number(n, _) if is_position(&v.value) => {
                                    let pos: usize = n.parse().map_err(|_| MyError::parse(n, 1))?;
                                    if pos == 0 || pos > project.len() {
                                        return Err(MyError::bad_field(n, "order clause"));
                                    }
                                    Typed::new(
                                        project[pos - 1].clone(),
                                        types[pos - 1].clone(),
                                        true,
                                    )
                                }
                                _ => b.bind(&o.expr)?,
                            },
                            other => b.bind(other)?,
                        };
                        let coll = t.ty.collation();
                        order.push(SortKey {
                            expr: t.expr,
                            desc,
                            coll,
                        });
                    }
                }
                ast::OrderByKind::All(_) => return Err(MyError::not_supported("ORDER BY ALL")),
            }
        }
        self.note_params(&b);
        let agg = b.agg.take().map(|a| AggPlan {
            keys: a
                .keys
                .into_iter()
                .map(|k| (k.expr, k.ty.collation()))
                .collect(),
            aggs: a.aggs,
            rollup,
        });

        // Access paths and pushdown.
        let mut final_filter = Vec::new();
        let mut level_filters: Vec<Vec<Expr>> = (0..items.len()).map(|_| Vec::new()).collect();
        let outer: Vec<(usize, usize)> = items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.source.join == JoinKind::Left)
            .map(|(i, it)| (i, it.source.nest_end.unwrap_or(i)))
            .collect();
        for c in where_conj {
            match from::pushdown_level(&c, &outer, None) {
                Some(l) => level_filters[l].push(c),
                None => final_filter.push(c),
            }
        }
        for (c, g) in group_conds {
            match from::pushdown_level(&c, &outer, Some(g)) {
                Some(l) => level_filters[l].push(c),
                None => {
                    let on = &mut items[g].source.on;
                    *on = access::and_all(on.take().into_iter().chain([c]).collect());
                }
            }
        }
        for &(first, last) in &outer {
            if last > first {
                items[last].source.closes.push(first);
            }
        }
        for it in &mut items {
            it.source.closes.sort_unstable_by(|a, b| b.cmp(a));
        }
        let mut uses_index = false;
        for (i, it) in items.iter_mut().enumerate() {
            if let SourceKind::Table { table, access } = &mut it.source.kind {
                // Conjuncts usable for the access path: this level's, plus ON for LEFT JOIN.
                let mut usable: Vec<&Expr> = level_filters[i].iter().collect();
                let mut on_conj = Vec::new();
                if let Some(on) = &it.source.on {
                    access::conjuncts(on.clone(), &mut on_conj);
                }
                usable.extend(on_conj.iter());
                *access = access::choose(table, i, &usable, it.allowed.as_deref());
                uses_index |= matches!(access, Access::Index { .. });
            }
            it.source.filter = access::and_all(cheap_first(std::mem::take(&mut level_filters[i])));
        }
        let sources: Vec<Source> = items.into_iter().map(|i| i.source).collect();
        let sources = if dual {
            vec![Source::new(SourceKind::Dual, String::new(), 0)]
        } else {
            sources
        };

        let mut plan = SelectPlan {
            sources,
            filter: access::and_all(cheap_first(final_filter)),
            agg,
            having,
            project,
            order,
            order_satisfied: false,
            distinct: matches!(sel.distinct, Some(ast::Distinct::Distinct)),
            limit,
            offset,
            lock,
            columns,
            types,
            unions: Vec::new(),
            into_vars,
            uses_index,
        };
        if !plan.into_vars.is_empty() && plan.into_vars.len() != plan.columns.len() {
            return Err(MyError::new(
                code::ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT,
                "The used SELECT statements have a different number of columns",
            ));
        }
        if matches!(sel.distinct, Some(ast::Distinct::On(_))) {
            return Err(MyError::not_supported("DISTINCT ON"));
        }
        order_by_index(&mut plan);
        Ok(plan)
    }

    /// Order the tables of an inner join: greedily, the table cheapest to read next given
    /// those already joined (constants and earlier tables' columns usable as keys, costed by
    /// `access::estimate`), ties kept in written order. Only joins of base tables without
    /// outer joins or STRAIGHT_JOIN are reordered. Returns whether `items` were permuted
    /// (`star_order` follows, so `*` still lists the columns in written order).
    fn join_order(
        &self,
        items: &mut Vec<FromItem>,
        star_order: &mut [usize],
        sel: &ast::Select,
        params: &[ParamInfo],
    ) -> bool {
        if items.len() < 2
            || items.iter().any(|i| {
                i.source.join != JoinKind::Inner
                    || !matches!(i.source.kind, SourceKind::Table { .. })
            })
        {
            return false;
        }
        // Bind WHERE and the ON conditions against the written order, to see what links the
        // tables; any error is left for the real binding below to report.
        let scope = Scope {
            sources: items.iter().map(|i| i.scope.clone()).collect(),
            unreachable: Vec::new(),
        };
        let mut conj = Vec::new();
        let mut b = Binder::new(&scope, params);
        b.planner = Some(self);
        for (i, it) in items.iter().enumerate() {
            for (on, _) in &it.inner_on {
                match b.bind(on) {
                    Ok(t) if t.expr.max_source().is_none_or(|m| m <= i) => {
                        access::conjuncts(t.expr, &mut conj)
                    }
                    _ => return false,
                }
            }
        }
        if let Some(w) = &sel.selection {
            match b.bind(w) {
                Ok(t) => access::conjuncts(t.expr, &mut conj),
                Err(_) => return false,
            }
        }
        let conj: Vec<&Expr> = conj.iter().collect();
        let n = items.len();
        let mut tables = Vec::with_capacity(n);
        for it in items.iter() {
            let SourceKind::Table { table, .. } = &it.source.kind else {
                return false;
            };
            tables.push((&**table, it.allowed.as_deref()));
        }
        let cost = |r: usize, joined: &[bool]| {
            access::estimate(tables[r].0, r, &conj, tables[r].1, &|s| joined[s])
        };
        // From `first`, greedily the table cheapest to read next; the order and its cost:
        // each table's rows per probe times the probes, the rows of the tables before it
        // (a table's rows per probe stands for the rows it yields).
        let greedy = |first: usize| {
            let mut joined = vec![false; n];
            let mut order = vec![first];
            let mut probes = cost(first, &joined).max(1.0);
            let mut total = probes;
            joined[first] = true;
            while order.len() < n {
                let mut pick: Option<(usize, f64)> = None;
                for r in (0..n).filter(|&r| !joined[r]) {
                    let c = cost(r, &joined);
                    if pick.is_none_or(|(_, p)| c < p) {
                        pick = Some((r, c));
                    }
                }
                let Some((r, c)) = pick else { break };
                total += probes * c;
                probes *= c.max(1.0);
                joined[r] = true;
                order.push(r);
            }
            (order, total)
        };
        // Every table as the first (cheapest alone first, so ties keep that), the cheapest
        // whole order wins: the smallest table first can make a larger one a full scan per
        // row where the other way round is a key lookup.
        let none = vec![false; n];
        let mut firsts: Vec<(usize, f64)> = (0..n).map(|r| (r, cost(r, &none))).collect();
        firsts.sort_by(|a, b| a.1.total_cmp(&b.1));
        let mut order = Vec::new();
        let mut best = f64::INFINITY;
        for &(first, _) in firsts.iter().take(8) {
            let (o, total) = greedy(first);
            if total < best {
                best = total;
                order = o;
            }
        }
        if order.len() != n {
            return false;
        }
        if order.iter().enumerate().all(|(i, &r)| i == r) {
            return false;
        }
        let mut new_pos = vec![0; n];
        for (pos, &r) in order.iter().enumerate() {
            new_pos[r] = pos;
        }
        let mut old: Vec<Option<FromItem>> = items.drain(..).map(Some).collect();
        items.extend(
            order
                .iter()
                .map(|&r| old[r].take().expect("each item once")),
        );
        for s in star_order.iter_mut() {
            *s = new_pos[*s];
        }
        true
    }

    /// GROUP BY n → the n-th select item; GROUP BY alias → its expression.
    fn resolve_group_item(&self, g: &ast::Expr, sel: &ast::Select) -> Result<ast::Expr> {
        if let ast::Expr::Value(v) = g
            && let ast::Value::Number(n, _) = &v.value
            && is_position(&v.value)
        {
            let pos: usize = n.parse().map_err(|_| MyError::parse(n, 1))?;
            return match sel.projection.get(pos.wrapping_sub(1)) {
                Some(ast::SelectItem::UnnamedExpr(e))
                | Some(ast::SelectItem::ExprWithAlias { expr: e, .. }) => Ok(e.clone()),
                _ => Err(MyError::bad_field(n, "group statement")),
            };
        }
        if let ast::Expr::Identifier(id) = g {
            for p in &sel.projection {
                if let ast::SelectItem::ExprWithAlias { expr, alias } = p
                    && alias.value.eq_ignore_ascii_case(&id.value)
                    && !bind::contains_aggregate(expr)
                {
                    return Ok(expr.clone());
                }
            }
        }
        Ok(g.clone())
    }

    fn column_meta(&self, scope: &Scope, si: usize, ci: usize, written: &str) -> ColumnMeta {
        let s = &scope.sources[si];
        let c = &s.columns[ci];
        let mut m = ColumnMeta::for_type(&c.ty, c.nullable);
        m.schema = s.db.clone();
        m.table = s.alias.clone();
        m.org_table = s.table.clone();
        m.name = if written.is_empty() {
            c.name.clone()
        } else {
            written.to_string()
        };
        m.org_name = c.name.clone();
        if c.flags != 0 {
            m.flags = ColumnFlags::from_bits_truncate(c.flags);
        }
        m
    }
}

/// Conjuncts in the order to check them: those that run a subquery last (stable otherwise),
/// so that a join's key comparison rejects a row before a subquery runs for it.
fn cheap_first(mut conj: Vec<Expr>) -> Vec<Expr> {
    let runs_subquery = |e: &Expr| {
        let mut r = false;
        e.walk(&mut |x| r |= matches!(x, Expr::Subquery(_) | Expr::InSubquery { .. }));
        r
    };
    conj.sort_by_key(runs_subquery);
    conj
}

fn resolve_ast_column(scope: &Scope, e: &ast::Expr) -> Result<(usize, usize)> {
    match e {
        ast::Expr::Identifier(i) => scope.resolve(None, None, &i.value, "field list"),
        ast::Expr::CompoundIdentifier(p) if p.len() == 2 => {
            scope.resolve(None, Some(&p[0].value), &p[1].value, "field list")
        }
        _ => Err(MyError::internal("not a column")),
    }
}

/// If the (single) table's access path can deliver rows in ORDER BY order, use it and skip
/// the sort.
fn order_by_index(plan: &mut SelectPlan) {
    if plan.order.is_empty() || plan.sources.len() != 1 || plan.agg.is_some() || plan.distinct {
        return;
    }
    let SourceKind::Table { table, access } = &mut plan.sources[0].kind else {
        return;
    };
    let desc = plan.order[0].desc;
    if plan.order.iter().any(|k| k.desc != desc) {
        return;
    }
    let cols: Option<Vec<usize>> = plan
        .order
        .iter()
        .map(|k| match k.expr {
            Expr::Col { src: 0, col, .. } => Some(col as usize),
            _ => None,
        })
        .collect();
    let Some(cols) = cols else { return };
    let eq_prefix = access.key_shape().0;
    let (index_cols, ranges_ok): (Vec<usize>, bool) = match access {
        Access::Scan { .. } => match &table.def.primary {
            Some(pk) => (pk.columns.iter().map(|c| c.col).collect(), true),
            None => return,
        },
        Access::Index { index, ranges, .. } => {
            let Some(def) = index.def(table) else {
                return;
            };
            // With several ranges (IN lists, ORs) the union is in order only when the ranges
            // differ in a column before the ordered ones; keep it simple: one range.
            (
                def.columns.iter().map(|c| c.col).collect(),
                ranges.len() == 1,
            )
        }
    };
    if !ranges_ok {
        return;
    }
    // ORDER BY columns must follow the index columns after the equality prefix (equality
    // columns may also appear: they are constant).
    let mut pos = eq_prefix;
    for c in &cols {
        if index_cols[..eq_prefix].contains(c) {
            continue;
        }
        if index_cols.get(pos) == Some(c) {
            pos += 1;
        } else {
            return;
        }
    }
    // Strings under a collation are ordered by weight in the index, as ORDER BY does.
    match access {
        Access::Scan { reverse } | Access::Index { reverse, .. } => *reverse = desc,
    }
    plan.order_satisfied = true;
}

/// The source text of each select-list item of the SELECT whose keyword is at `span`
/// (MySQL names expression columns after their text).
fn select_item_texts(text: &str, span: &sqlparser::tokenizer::Span) -> Option<Vec<String>> {
    use super::lexer::{LexOptions, TokenKind, tokens};
    let start = location_offset(text, span.end.line, span.end.column)?;
    let rest = text.get(start..)?;
    let mut items = Vec::new();
    let mut depth = 0i32;
    let mut cur: Option<(usize, usize)> = None;
    let mut first = true;
    const MODIFIERS: [&str; 10] = [
        "DISTINCT",
        "ALL",
        "DISTINCTROW",
        "SQL_CALC_FOUND_ROWS",
        "SQL_NO_CACHE",
        "STRAIGHT_JOIN",
        "HIGH_PRIORITY",
        "SQL_SMALL_RESULT",
        "SQL_BIG_RESULT",
        "SQL_BUFFER_RESULT",
    ];
    const ENDS: [&str; 11] = [
        "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "UNION", "INTO", "FOR", "LOCK",
        "WINDOW",
    ];
    for t in tokens(rest, &LexOptions::default()) {
        let t = t.ok()?;
        let word = t.text(rest);
        match t.kind {
            TokenKind::Op if word == "(" => depth += 1,
            TokenKind::Op if word == ")" => depth -= 1,
            TokenKind::Op if word == "," && depth == 0 => {
                let (s, e) = cur?;
                items.push(rest.get(s..e)?.trim().to_string());
                cur = None;
                continue;
            }
            TokenKind::Op if word == ";" && depth == 0 => break,
            TokenKind::Keyword(_) | TokenKind::Ident if depth == 0 => {
                if first && cur.is_none() && MODIFIERS.iter().any(|m| m.eq_ignore_ascii_case(word))
                {
                    continue;
                }
                if ENDS.iter().any(|m| m.eq_ignore_ascii_case(word)) {
                    break;
                }
            }
            _ => {}
        }
        first = false;
        cur = Some(match cur {
            None => (t.start, t.end),
            Some((s, _)) => (s, t.end),
        });
    }
    if let Some((s, e)) = cur {
        items.push(rest.get(s..e)?.trim().to_string());
    }
    Some(items)
}

/// Byte offset of a 1-based (line, column-in-chars) location.
fn location_offset(text: &str, line: u64, column: u64) -> Option<usize> {
    let mut off = 0usize;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i as u64 + 1 == line {
            let at = column.checked_sub(1).and_then(|c| usize::try_from(c).ok());
            return Some(
                off + at
                    .and_then(|c| l.char_indices().nth(c))
                    .map_or(l.len(), |(bi, _)| bi),
            );
        }
        off += l.len();
    }
    if line == 0 { None } else { Some(text.len()) }
}

impl SelectPlan {
    /// An empty "result" shape for statements that produce a fixed rowset (SHOW …).
    pub fn of_rows(
        columns: Vec<ColumnMeta>,
        types: Vec<SqlType>,
        rows: Vec<super::value::Row>,
    ) -> SelectPlan {
        let width = columns.len();
        SelectPlan {
            sources: vec![Source::new(
                SourceKind::Rows(Arc::new(rows)),
                String::new(),
                width,
            )],
            filter: None,
            agg: None,
            having: None,
            project: (0..width).map(|c| Expr::col(0, c)).collect(),
            order: Vec::new(),
            order_satisfied: false,
            distinct: false,
            limit: None,
            offset: None,
            lock: None,
            columns,
            types,
            unions: Vec::new(),
            into_vars: Vec::new(),
            uses_index: false,
        }
    }
}

/// The (source, column) pairs `*` lists, sources in `star_order`: with `coalesce` (an
/// unqualified `*`), the coalesced USING/NATURAL columns first and their merged copies not
/// at all, as MySQL.
fn star_columns(scope: &Scope, star_order: &[usize], coalesce: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if coalesce {
        for &si in star_order {
            out.extend(scope.sources[si].using.first.iter().map(|&ci| (si, ci)));
        }
    }
    for &si in star_order {
        let s = &scope.sources[si];
        for ci in 0..s.columns.len() {
            if !coalesce || !(s.using.first.contains(&ci) || s.using.hidden.contains(&ci)) {
                out.push((si, ci));
            }
        }
    }
    out
}

/// A UNION column whose merged type is a DECIMAL shows every branch's values at its scale
/// (`SELECT 1 UNION SELECT 2.5` gives 1.0): convert the branches that differ.
fn union_decimals(first: &mut SelectPlan) {
    for ci in 0..first.types.len() {
        let ty = |p: &SelectPlan| p.types.get(ci).cloned().unwrap_or(SqlType::Null);
        let merged = first
            .unions
            .iter()
            .fold(ty(first), |m, (u, _)| bind::merge_types(Some(m), &ty(u)));
        if !matches!(merged, SqlType::Decimal { .. }) {
            continue;
        }
        let convert = |p: &mut SelectPlan| {
            if let (Some(cast), Some(e)) =
                (bind::decimal_cast(&merged, &ty(p)), p.project.get_mut(ci))
            {
                let inner = std::mem::replace(e, Expr::Const(super::value::Value::Null));
                *e = Expr::Func(cast, vec![inner]);
                p.types[ci] = merged.clone();
            }
        };
        convert(first);
        for (u, _) in &mut first.unions {
            convert(u);
        }
        if let Some(m) = first.columns.get_mut(ci) {
            let meta = ColumnMeta::for_type(&merged, true);
            m.column_type = meta.column_type;
            m.length = meta.length;
            m.decimals = meta.decimals;
        }
    }
}

/// Is this literal an ORDER BY / GROUP BY position? Only an integer literal is (MySQL's
/// INT_ITEM); `GROUP BY 2.50` or `ORDER BY 1e0` sorts by a constant.
fn is_position(v: &ast::Value) -> bool {
    matches!(v, ast::Value::Number(n, _) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}
