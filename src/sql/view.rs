//! Views: stored queries, expanded where they are named.
//!
//! A view is a [`ViewDef`] in the catalog, beside the tables of its database and in the same
//! namespace: its SELECT's text, its column names (fixed at creation, as MySQL fixes them)
//! and its options. Nothing is materialised.
//!
//! - **Reading** (`SELECT … FROM v`): the planner parses the view's SELECT and plans it as a
//!   derived table named after the view ([`super::planner::Planner`]'s `from_factor`),
//!   with unqualified table names resolved in the view's database. A view whose tables or
//!   columns are gone, or whose SELECT now gives another number of columns, is 1356.
//!   Views over views nest, to [`VIEW_DEPTH_MAX`] (a cycle made by ALTER VIEW is 1462).
//! - **Writing** (`INSERT`/`UPDATE`/`DELETE` on a view): an updatable view (one SELECT over
//!   base tables or updatable views, without DISTINCT, GROUP BY, HAVING, aggregates,
//!   LIMIT, UNION or subqueries in the select list) is rewritten into the statement on its
//!   base table: view columns become the expressions they stand for, and the view's WHERE is
//!   ANDed to the statement's ([`Planner::view_insert`], [`Planner::view_update`],
//!   [`Planner::view_delete`]). `WITH CHECK OPTION` becomes a condition the written row must
//!   meet (1369). A join view takes UPDATEs of one of its tables and INSERTs with a column
//!   list into one of them (MySQL's 1393/1394), no DELETE (1395).
//! - **Durability**: CREATE/ALTER VIEW is journaled as one canonical `CREATE OR REPLACE …
//!   VIEW db.name (columns) AS …` Query event ([`create_sql`]); a checkpoint writes the same
//!   statement per view, after every table, and start-up loads it without planning it
//!   ([`load`]), so a view whose table is gone survives a restart as it was.
//!
//! Unlike MySQL, which rewrites the SELECT with every name qualified, unqualified table
//! names in a view's SELECT are always read in the view's database (also when the view was
//! created from another default database).

use super::admin::ViewSpec;
use super::bind::ParamInfo;
use super::lexer::{LexOptions, TokenKind, tokens};
use super::planner::{Planner, object_name};
use super::show::quote_ident;
use crate::error::{MyError, Result, code};
use crate::session::Ctx;
use crate::storage::catalog::{Catalog, NameTaken, SYSTEM_DATABASES};
use crate::storage::schema::{CheckOption, ViewDef};
use sqlparser::ast;
use std::sync::Arc;

/// Bound on views nested in views (MySQL has none but its stack; a cycle is 1462 here).
pub const VIEW_DEPTH_MAX: usize = 32;

/// The statement that recreates `v`: the journal's Query event, the checkpoint's record and
/// (with `qualified` off and the column list as written) SHOW CREATE VIEW.
pub fn create_sql(v: &ViewDef, for_replay: bool) -> String {
    let mut s = String::from("CREATE ");
    if for_replay {
        s.push_str("OR REPLACE ");
    }
    s.push_str(&format!(
        "ALGORITHM={} DEFINER={} SQL SECURITY {} VIEW ",
        v.algorithm, v.definer, v.security
    ));
    if for_replay {
        s.push_str(&format!("{}.", quote_ident(&v.db)));
    }
    s.push_str(&quote_ident(&v.name));
    if for_replay || v.column_list {
        let cols: Vec<String> = v.columns.iter().map(|c| quote_ident(c)).collect();
        s.push_str(&format!(" ({})", cols.join(",")));
    }
    s.push_str(" AS ");
    s.push_str(&v.select);
    match v.check {
        CheckOption::None => {}
        CheckOption::Cascaded => s.push_str(" WITH CASCADED CHECK OPTION"),
        CheckOption::Local => s.push_str(" WITH LOCAL CHECK OPTION"),
    }
    s
}

fn definer(ctx: &Ctx, spec: &ViewSpec) -> String {
    let (u, h) = match &spec.definer {
        Some((u, _)) if u == "\u{0}current" => (ctx.priv_user.as_str(), ctx.priv_host.as_str()),
        Some((u, h)) => (u.as_str(), h.as_str()),
        None => (ctx.priv_user.as_str(), ctx.priv_host.as_str()),
    };
    format!("{}@{}", quote_ident(u), quote_ident(h))
}

fn not_view(db: &str, name: &str) -> MyError {
    MyError::new(code::ER_WRONG_OBJECT, format!("'{db}.{name}' is not VIEW"))
}

/// 1356: the view's tables or columns are not what they were.
pub fn invalid(v: &ViewDef) -> MyError {
    MyError::new(
        code::ER_VIEW_INVALID,
        format!(
            "View '{}.{}' references invalid table(s) or column(s) or function(s) or definer/invoker of view lack rights to use them",
            v.db, v.name
        ),
    )
}

/// Parse a view's SELECT.
pub fn parse_select(text: &str) -> Result<ast::Query> {
    match super::parse::parse(text)? {
        super::Statement::Ast(stmt) => match *stmt {
            ast::Statement::Query(q) => Ok(*q),
            _ => Err(MyError::parse(text, 1)),
        },
        super::Statement::Admin(_) => Err(MyError::parse(text, 1)),
    }
}

/// CREATE [OR REPLACE] VIEW / ALTER VIEW: check the SELECT by planning it in the view's
/// database, fix the column names, put the view in the catalog. Returns the view (for the
/// journal).
pub fn create(ctx: &mut Ctx, spec: &ViewSpec) -> Result<Arc<ViewDef>> {
    let (db, name) = spec.name.clone();
    let db = super::ddl::resolve_db_name(ctx, db)?;
    super::ddl::check_name(code::ER_WRONG_TABLE_NAME, &name)?;
    if SYSTEM_DATABASES.contains(&db.as_str()) {
        return Err(MyError::new(
            code::ER_DBACCESS_DENIED_ERROR,
            format!(
                "Access denied for user '{}'@'{}' to database '{db}'",
                ctx.priv_user, ctx.priv_host
            ),
        ));
    }
    let catalog = &ctx.server.storage.catalog;
    let is_table = catalog.table(&db, &name).is_some();
    let is_view = catalog.view(&db, &name).is_some();
    if is_table {
        return Err(if spec.alter || spec.or_replace {
            not_view(&db, &name)
        } else {
            MyError::table_exists(&name)
        });
    }
    if spec.alter && !is_view {
        return Err(MyError::no_such_table(&db, &name));
    }
    if is_view && !spec.alter && !spec.or_replace {
        return Err(MyError::table_exists(&name));
    }
    let select = super::parse::rewritten(&spec.select);
    let opts = LexOptions::default();
    for t in tokens(&select, &opts).flatten() {
        if matches!(t.kind, TokenKind::Param | TokenKind::UserVar) {
            return Err(MyError::new(
                code::ER_VIEW_SELECT_VARIABLE,
                "View's SELECT contains a variable or parameter",
            ));
        }
    }
    // Planned in the view's database, as it will be expanded; a view outlives the
    // session's temporary tables, so naming one is refused (1352, as MySQL).
    let saved = ctx.db.replace(db.clone());
    ctx.refuse_temp_tables = true;
    let planned = ctx.plan_text(&select, &[], super::lexer::StatementKind::Select);
    ctx.refuse_temp_tables = false;
    ctx.db = saved;
    let prep = planned?;
    let super::Planned::Select(plan) = &prep.planned else {
        return Err(MyError::parse(&spec.select, 1));
    };
    let columns: Vec<String> = match &spec.columns {
        Some(list) => {
            if list.len() != plan.columns.len() {
                return Err(MyError::new(
                    code::ER_VIEW_WRONG_LIST,
                    "In definition of view, derived table or common table expression, SELECT list and column names list have different column counts",
                ));
            }
            list.clone()
        }
        None => plan.columns.iter().map(|c| c.name.clone()).collect(),
    };
    for (i, c) in columns.iter().enumerate() {
        if columns[..i].iter().any(|o| o.eq_ignore_ascii_case(c)) {
            return Err(MyError::new(
                code::ER_DUP_FIELDNAME,
                format!("Duplicate column name '{c}'"),
            ));
        }
    }
    let old = catalog.view(&db, &name);
    // ALTER VIEW keeps what it does not name; CREATE OR REPLACE starts afresh.
    let keep = |f: &dyn Fn(&ViewDef) -> String, default: String| match (&old, spec.alter) {
        (Some(o), true) => f(o),
        _ => default,
    };
    let view = Arc::new(ViewDef {
        db: db.clone(),
        name: name.clone(),
        columns,
        column_list: spec.columns.is_some(),
        select,
        algorithm: spec
            .algorithm
            .clone()
            .unwrap_or_else(|| keep(&|o| o.algorithm.clone(), "UNDEFINED".into())),
        definer: match &spec.definer {
            Some(_) => definer(ctx, spec),
            None => keep(&|o| o.definer.clone(), definer(ctx, spec)),
        },
        security: spec
            .security
            .clone()
            .unwrap_or_else(|| keep(&|o| o.security.clone(), "DEFINER".into())),
        check: spec.check,
    });
    match catalog.put_view(view.clone(), spec.alter || spec.or_replace) {
        Ok(()) => Ok(view),
        Err(NameTaken::Table) => Err(if spec.alter || spec.or_replace {
            not_view(&db, &name)
        } else {
            MyError::table_exists(&name)
        }),
        Err(NameTaken::View) => Err(MyError::table_exists(&name)),
        Err(NameTaken::NoDatabase) => Err(MyError::bad_db(&db)),
    }
}

/// The view's columns as a table definition (no rows), for DESCRIBE / SHOW COLUMNS: the
/// names, types and nullability its SELECT gives now.
pub fn as_table(ctx: &Ctx, v: &ViewDef) -> Result<Arc<crate::storage::table::Table>> {
    use crate::storage::schema::{ColumnDef, TableDef};
    let text = format!(
        "SELECT * FROM {}.{}",
        quote_ident(&v.db),
        quote_ident(&v.name)
    );
    let prep = ctx.plan_text(&text, &[], super::lexer::StatementKind::Select)?;
    let super::Planned::Select(plan) = &prep.planned else {
        return Err(invalid(v));
    };
    let columns = plan
        .columns
        .iter()
        .zip(&plan.types)
        .map(|(m, ty)| {
            let nullable = !m
                .flags
                .contains(mysql_common::constants::ColumnFlags::NOT_NULL_FLAG);
            let mut c = ColumnDef::plain(&m.name, ty.clone(), nullable);
            if nullable {
                c.default = crate::storage::schema::ColumnDefault::Null;
            }
            c
        })
        .collect();
    let def = TableDef {
        db: v.db.clone(),
        name: v.name.clone(),
        columns,
        primary: None,
        indexes: Vec::new(),
        engine: String::new(),
        charset: super::types::Charset::Utf8mb4,
        collation: super::types::Collation::DEFAULT,
        comment: "VIEW".to_string(),
        auto_increment_start: 1,
        foreign_keys: Vec::new(),
    };
    Ok(Arc::new(crate::storage::table::Table::new(def)))
}

/// Put a view from a checkpoint (its [`create_sql`] statement) into the catalog as it was,
/// without planning its SELECT: its tables may be gone, as they were when it was written.
pub fn load(catalog: &Catalog, sql: &str) -> std::result::Result<(), String> {
    let spec = match super::admin::parse(sql) {
        Ok(Some(super::admin::AdminStmt::CreateView(s))) => *s,
        Ok(_) => return Err(format!("not a view: `{sql}`")),
        Err(e) => return Err(format!("`{sql}`: {}", e.message)),
    };
    let (Some(db), name) = spec.name.clone() else {
        return Err(format!("view without its database: `{sql}`"));
    };
    let Some(columns) = spec.columns.clone() else {
        return Err(format!("view without its columns: `{sql}`"));
    };
    let definer = match &spec.definer {
        Some((u, h)) => format!("{}@{}", quote_ident(u), quote_ident(h)),
        None => "`root`@`localhost`".to_string(),
    };
    let view = ViewDef {
        db,
        name,
        columns,
        column_list: true,
        select: spec.select.clone(),
        algorithm: spec.algorithm.unwrap_or_else(|| "UNDEFINED".into()),
        definer,
        security: spec.security.unwrap_or_else(|| "DEFINER".into()),
        check: spec.check,
    };
    catalog
        .put_view(Arc::new(view), true)
        .map_err(|e| format!("cannot load `{sql}`: {e:?}"))
}

/// DROP VIEW [IF EXISTS] a, b: all or none (a missing view is 1051, a table 1347; with IF
/// EXISTS the missing ones are notes).
pub fn drop(ctx: &mut Ctx, names: &[ast::ObjectName], if_exists: bool) -> Result<()> {
    let server = ctx.server.clone();
    let catalog = &server.storage.catalog;
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for n in names {
        let (db, v) = object_name(n)?;
        let db = db.or_else(|| ctx.db.clone()).ok_or_else(MyError::no_db)?;
        if catalog.view(&db, &v).is_some() {
            found.push((db, v));
        } else if catalog.table(&db, &v).is_some() {
            return Err(not_view(&db, &v));
        } else {
            missing.push(format!("{db}.{v}"));
        }
    }
    super::ddl::unknown_tables(ctx, missing, if_exists)?;
    for (db, v) in found {
        catalog.remove_view(&db, &v);
    }
    Ok(())
}

/// Whether writes can go through `v` (`information_schema.VIEWS.IS_UPDATABLE`).
pub fn is_updatable(storage: &crate::storage::Storage, v: &ViewDef) -> bool {
    let planner = Planner::new(storage, Some(&v.db), "");
    matches!(planner.updatable(v), Ok(Some(_)))
}

/// What an updatable view's SELECT is made of.
struct Updatable {
    from: ast::TableWithJoins,
    selection: Option<ast::Expr>,
    /// Per view column: the column it reads, as `[alias.]column`; None for an expression.
    items: Vec<Option<Vec<ast::Ident>>>,
    /// The relations of the FROM clause: (alias or name, the table or view).
    relations: Vec<(String, ast::ObjectName)>,
}

const AGGREGATES: [&str; 17] = [
    "COUNT",
    "SUM",
    "AVG",
    "MIN",
    "MAX",
    "GROUP_CONCAT",
    "BIT_AND",
    "BIT_OR",
    "BIT_XOR",
    "STD",
    "STDDEV",
    "STDDEV_POP",
    "STDDEV_SAMP",
    "VARIANCE",
    "VAR_POP",
    "VAR_SAMP",
    "JSON_ARRAYAGG",
];

/// Does the text call an aggregate or hold a subquery?
fn aggregate_or_subquery(text: &str) -> bool {
    let opts = LexOptions::default();
    let toks: Vec<_> = tokens(text, &opts).flatten().collect();
    toks.iter().enumerate().any(|(i, t)| {
        let w = t.text(text);
        w.eq_ignore_ascii_case("SELECT")
            || (AGGREGATES.iter().any(|a| a.eq_ignore_ascii_case(w))
                && toks.get(i + 1).is_some_and(|n| n.is_op(text, "(")))
    })
}

impl Planner<'_> {
    /// The view `name` names, if it is one (resolved like a table name).
    pub fn view_named(&self, name: &ast::ObjectName) -> Result<Option<Arc<ViewDef>>> {
        let (db, t) = object_name(name)?;
        let Some(db) = db.or_else(|| self.default_db()) else {
            return Ok(None);
        };
        Ok(self.storage.catalog.view(&db, &t))
    }

    /// Plan view `v`'s SELECT as a derived table's (see the module doc), its columns named
    /// as the view names them.
    pub fn plan_view(
        &self,
        v: &Arc<ViewDef>,
        params: &[ParamInfo],
    ) -> Result<super::plan::SelectPlan> {
        let q = self.enter_view(v)?;
        let planned = self.plan_query(&q, params, None);
        self.leave_view();
        let mut plan = planned.map_err(|e| match e.code {
            code::ER_NO_SUCH_TABLE | code::ER_BAD_FIELD_ERROR | code::ER_BAD_DB_ERROR => invalid(v),
            _ => e,
        })?;
        if plan.columns.len() != v.columns.len() {
            return Err(invalid(v));
        }
        for (m, n) in plan.columns.iter_mut().zip(&v.columns) {
            m.name = n.clone();
        }
        Ok(plan)
    }

    /// Push `v` (its database is where its names resolve) and parse its SELECT.
    fn enter_view(&self, v: &Arc<ViewDef>) -> Result<ast::Query> {
        let depth = self.views.borrow().len();
        if depth >= VIEW_DEPTH_MAX || self.views.borrow().iter().any(|o| Arc::ptr_eq(o, v)) {
            return Err(MyError::new(
                code::ER_VIEW_RECURSIVE,
                format!("`{}`.`{}` contains view recursion", v.db, v.name),
            ));
        }
        let q = parse_select(&v.select).map_err(|_| invalid(v))?;
        self.views.borrow_mut().push(v.clone());
        Ok(q)
    }

    fn leave_view(&self) {
        self.views.borrow_mut().pop();
    }

    /// The parts of `v`'s SELECT a write through it uses; None when it is not updatable.
    fn updatable(&self, v: &ViewDef) -> Result<Option<Updatable>> {
        if v.algorithm == "TEMPTABLE" {
            return Ok(None);
        }
        let q = parse_select(&v.select).map_err(|_| invalid(v))?;
        if q.with.is_some() || q.limit_clause.is_some() || q.fetch.is_some() {
            return Ok(None);
        }
        let ast::SetExpr::Select(sel) = q.body.as_ref() else {
            return Ok(None);
        };
        let grouped = !matches!(&sel.group_by, ast::GroupByExpr::Expressions(e, _) if e.is_empty());
        if sel.distinct.is_some() || grouped || sel.having.is_some() || sel.from.len() != 1 {
            return Ok(None);
        }
        let from = sel.from[0].clone();
        let mut relations = Vec::new();
        let rel = |f: &ast::TableFactor| match f {
            ast::TableFactor::Table { name, alias, .. } => {
                let a = match alias {
                    Some(a) => a.name.value.clone(),
                    None => object_name(name).map(|(_, t)| t).unwrap_or_default(),
                };
                Some((a, name.clone()))
            }
            _ => None,
        };
        for f in std::iter::once(&from.relation).chain(from.joins.iter().map(|j| &j.relation)) {
            let Some((alias, name)) = rel(f) else {
                return Ok(None);
            };
            // A view below must be updatable too.
            let (db, t) = object_name(&name)?;
            let db = db.unwrap_or_else(|| v.db.clone());
            if let Some(inner) = self.storage.catalog.view(&db, &t) {
                let depth = self.view_write_depth.get();
                if depth >= VIEW_DEPTH_MAX {
                    return Ok(None);
                }
                self.view_write_depth.set(depth + 1);
                let below = self.updatable(&inner);
                self.view_write_depth.set(depth);
                if below?.is_none() {
                    return Ok(None);
                }
            }
            relations.push((alias, name));
        }
        let mut items = Vec::new();
        for item in &sel.projection {
            match item {
                ast::SelectItem::UnnamedExpr(e)
                | ast::SelectItem::ExprWithAlias { expr: e, .. } => {
                    if aggregate_or_subquery(&e.to_string()) {
                        return Ok(None);
                    }
                    items.push(match e {
                        ast::Expr::Identifier(i) => Some(vec![i.clone()]),
                        ast::Expr::CompoundIdentifier(p) if p.len() == 2 => Some(p.clone()),
                        _ => None,
                    });
                }
                ast::SelectItem::ExprWithAliases { .. } => return Ok(None),
                ast::SelectItem::Wildcard(_) => {
                    for (alias, name) in &relations {
                        for c in self.relation_columns(v, name)? {
                            items.push(Some(vec![ast::Ident::new(alias), ast::Ident::new(c)]));
                        }
                    }
                }
                ast::SelectItem::QualifiedWildcard(kind, _) => {
                    let ast::SelectItemQualifiedWildcardKind::ObjectName(q) = kind else {
                        return Ok(None);
                    };
                    let (_, qa) = object_name(q)?;
                    let Some((alias, name)) = relations.iter().find(|(a, _)| *a == qa) else {
                        return Err(invalid(v));
                    };
                    for c in self.relation_columns(v, name)? {
                        items.push(Some(vec![ast::Ident::new(alias), ast::Ident::new(c)]));
                    }
                }
            }
        }
        if items.len() != v.columns.len() {
            return Err(invalid(v));
        }
        Ok(Some(Updatable {
            from,
            selection: sel.selection.clone(),
            items,
            relations,
        }))
    }

    /// The column names of a table or view named in view `v`'s SELECT.
    fn relation_columns(&self, v: &ViewDef, name: &ast::ObjectName) -> Result<Vec<String>> {
        let (db, t) = object_name(name)?;
        let db = db.unwrap_or_else(|| v.db.clone());
        let catalog = &self.storage.catalog;
        if let Some(table) = catalog.table(&db, &t) {
            return Ok(table.def.columns.iter().map(|c| c.name.clone()).collect());
        }
        match catalog.view(&db, &t) {
            Some(inner) => Ok(inner.columns.clone()),
            None => Err(invalid(v)),
        }
    }

    /// Which relation of `u` the column reference `item` reads (its alias).
    fn relation_of(&self, v: &ViewDef, u: &Updatable, item: &[ast::Ident]) -> Result<String> {
        if let [q, _] = item {
            return Ok(q.value.clone());
        }
        let col = item.last().map(|i| i.value.as_str()).unwrap_or("");
        for (alias, name) in &u.relations {
            if self
                .relation_columns(v, name)?
                .iter()
                .any(|c| c.eq_ignore_ascii_case(col))
            {
                return Ok(alias.clone());
            }
        }
        Err(invalid(v))
    }

    /// `expr` with the view's columns (`col`, `alias.col`) replaced by what they read.
    fn substitute(
        &self,
        e: &ast::Expr,
        v: &ViewDef,
        alias: &str,
        u: &Updatable,
    ) -> Result<ast::Expr> {
        let text = e.to_string();
        let opts = LexOptions::default();
        let toks: Vec<_> = tokens(&text, &opts).flatten().collect();
        let name_of = |t: &super::lexer::Token| -> Option<String> {
            let w = t.text(&text);
            match t.kind {
                TokenKind::Ident => Some(w.to_string()),
                TokenKind::QuotedIdent => w
                    .get(1..w.len().saturating_sub(1))
                    .map(|n| n.replace("``", "`")),
                _ => None,
            }
        };
        let column = |n: &str| v.columns.iter().position(|c| c.eq_ignore_ascii_case(n));
        let replacement = |ci: usize| -> String {
            match &u.items[ci] {
                Some(parts) => parts
                    .iter()
                    .map(|p| quote_ident(&p.value))
                    .collect::<Vec<_>>()
                    .join("."),
                None => String::new(),
            }
        };
        let mut out = String::with_capacity(text.len() + 16);
        let mut last = 0;
        let mut i = 0;
        // Per open parenthesis: whether it opens a subquery. Inside one, a bare name is the
        // subquery's own column; only `alias.col` names the view's.
        let mut parens: Vec<bool> = Vec::new();
        while i < toks.len() {
            let t = &toks[i];
            if t.is_op(&text, "(") {
                parens.push(toks.get(i + 1).is_some_and(|n| {
                    let w = n.text(&text);
                    w.eq_ignore_ascii_case("SELECT") || w.eq_ignore_ascii_case("WITH")
                }));
            } else if t.is_op(&text, ")") {
                parens.pop();
            }
            let in_subquery = parens.iter().any(|&q| q);
            let after_dot = i > 0 && toks[i - 1].is_op(&text, ".");
            let dot_next = toks.get(i + 1).is_some_and(|n| n.is_op(&text, "."));
            let call = toks.get(i + 1).is_some_and(|n| n.is_op(&text, "("));
            let (span_end, target) = match name_of(t) {
                Some(n) if dot_next && !after_dot && n == alias => {
                    match toks.get(i + 2).and_then(|c| name_of(c).map(|cn| (c, cn))) {
                        Some((c, cn)) => match column(&cn) {
                            Some(ci) => (c.end, Some(ci)),
                            None => {
                                return Err(MyError::bad_field(
                                    &format!("{n}.{cn}"),
                                    "where clause",
                                ));
                            }
                        },
                        None => (t.end, None),
                    }
                }
                Some(n) if !dot_next && !after_dot && !call && !in_subquery => (t.end, column(&n)),
                _ => (t.end, None),
            };
            if let Some(ci) = target {
                let r = replacement(ci);
                if r.is_empty() {
                    // An expression column: substitute the expression itself.
                    let q = parse_select(&v.select).map_err(|_| invalid(v))?;
                    let ast::SetExpr::Select(sel) = q.body.as_ref() else {
                        return Err(invalid(v));
                    };
                    let expr = match sel.projection.get(ci) {
                        Some(ast::SelectItem::UnnamedExpr(e))
                        | Some(ast::SelectItem::ExprWithAlias { expr: e, .. }) => e.to_string(),
                        _ => return Err(invalid(v)),
                    };
                    out.push_str(&text[last..t.start]);
                    out.push_str(&format!("({expr})"));
                } else {
                    out.push_str(&text[last..t.start]);
                    out.push_str(&r);
                }
                last = span_end;
                i = toks
                    .iter()
                    .position(|x| x.start >= span_end)
                    .unwrap_or(toks.len());
                continue;
            }
            i += 1;
        }
        out.push_str(&text[last..]);
        super::parse::parse_expr(&out)
    }

    /// The view's target relation as an ObjectName qualified with the view's database.
    fn qualified(v: &ViewDef, name: &ast::ObjectName) -> Result<ast::ObjectName> {
        let (db, t) = object_name(name)?;
        let db = db.unwrap_or_else(|| v.db.clone());
        Ok(ast::ObjectName::from(vec![
            ast::Ident::new(db),
            ast::Ident::new(t),
        ]))
    }

    /// The FROM of `u` with its tables qualified with the view's database.
    fn qualified_from(v: &ViewDef, u: &Updatable) -> Result<ast::TableWithJoins> {
        let mut from = u.from.clone();
        let fix = |f: &mut ast::TableFactor| -> Result<()> {
            if let ast::TableFactor::Table { name, alias, .. } = f {
                if alias.is_none() {
                    let (_, t) = object_name(name)?;
                    *alias = Some(ast::TableAlias {
                        explicit: true,
                        name: ast::Ident::new(t),
                        columns: Vec::new(),
                        at: None,
                    });
                }
                *name = Self::qualified(v, name)?;
            }
            Ok(())
        };
        fix(&mut from.relation)?;
        for j in &mut from.joins {
            fix(&mut j.relation)?;
        }
        Ok(from)
    }

    /// Note this view's conditions for WITH CHECK OPTION (see the module doc): the checks
    /// noted by the views above, carried through this one, and its own WHERE if it has the
    /// option or a CASCADED view above it does.
    fn carry_checks(&self, v: &ViewDef, u: &Updatable, base_alias: &str) -> Result<()> {
        let above = self.view_checks.take();
        let mut carried = Vec::new();
        for c in above {
            carried.push(super::planner::ViewCheck {
                expr: self.substitute(&c.expr, v, &c.alias, u)?,
                alias: base_alias.to_string(),
                view: c.view,
            });
        }
        let cascade = self.view_check_cascade.get() || v.check == CheckOption::Cascaded;
        if (v.check != CheckOption::None || self.view_check_cascade.get())
            && let Some(w) = &u.selection
        {
            carried.push(super::planner::ViewCheck {
                expr: w.clone(),
                alias: base_alias.to_string(),
                view: format!("{}.{}", v.db, v.name),
            });
        }
        self.view_check_cascade.set(cascade);
        *self.view_checks.borrow_mut() = carried;
        Ok(())
    }

    fn and(a: Option<ast::Expr>, b: Option<ast::Expr>) -> Option<ast::Expr> {
        match (a, b) {
            (Some(a), Some(b)) => Some(ast::Expr::BinaryOp {
                left: Box::new(ast::Expr::Nested(Box::new(a))),
                op: ast::BinaryOperator::And,
                right: Box::new(ast::Expr::Nested(Box::new(b))),
            }),
            (a, b) => a.or(b),
        }
    }

    /// `INSERT INTO v …` as the INSERT into its base table (see the module doc).
    pub fn view_insert(&self, v: &ViewDef, ins: &ast::Insert) -> Result<ast::Insert> {
        let non_insertable = || {
            MyError::new(
                code::ER_NON_INSERTABLE_TABLE,
                format!(
                    "The target table {} of the INSERT is not insertable-into",
                    v.name
                ),
            )
        };
        let u = self.updatable(v)?.ok_or_else(non_insertable)?;
        if u.items.iter().any(|i| i.is_none()) {
            return Err(non_insertable());
        }
        if ins.on.is_some() {
            return Err(MyError::not_supported(
                "ON DUPLICATE KEY UPDATE through a view",
            ));
        }
        let join = u.relations.len() > 1;
        let view_cols: Vec<String> = if !ins.assignments.is_empty() {
            return Err(MyError::not_supported("INSERT … SET through a view"));
        } else if ins.columns.is_empty() {
            if join {
                return Err(MyError::new(
                    code::ER_VIEW_NO_INSERT_FIELD_LIST,
                    format!(
                        "Can not insert into join view '{}.{}' without fields list",
                        v.db, v.name
                    ),
                ));
            }
            v.columns.clone()
        } else {
            ins.columns
                .iter()
                .map(|c| object_name(c).map(|(_, n)| n))
                .collect::<Result<_>>()?
        };
        let mut target: Option<String> = None;
        let mut columns = Vec::new();
        for c in &view_cols {
            let ci = v
                .columns
                .iter()
                .position(|n| n.eq_ignore_ascii_case(c))
                .ok_or_else(|| MyError::bad_field(c, "field list"))?;
            let Some(item) = &u.items[ci] else {
                return Err(non_insertable());
            };
            let rel = self.relation_of(v, &u, item)?;
            match &target {
                Some(t) if *t != rel => {
                    return Err(MyError::new(
                        code::ER_VIEW_MULTIUPDATE,
                        format!(
                            "Can not modify more than one base table through a join view '{}.{}'",
                            v.db, v.name
                        ),
                    ));
                }
                _ => target = Some(rel),
            }
            if let Some(last) = item.last() {
                columns.push(ast::ObjectName::from(vec![last.clone()]));
            }
        }
        let target = target.unwrap_or_else(|| u.relations[0].0.clone());
        let Some((_, name)) = u.relations.iter().find(|(a, _)| *a == target) else {
            return Err(invalid(v));
        };
        if join && v.check != CheckOption::None {
            return Err(MyError::not_supported("WITH CHECK OPTION on a join view"));
        }
        if !join {
            self.carry_checks(v, &u, &target)?;
        }
        let mut out = ins.clone();
        out.table = ast::TableObject::TableName(Self::qualified(v, name)?);
        out.columns = columns;
        Ok(out)
    }

    /// `UPDATE v SET … WHERE …` as the UPDATE of its base table(s).
    pub fn view_update(&self, v: &ViewDef, upd: &ast::Update) -> Result<ast::Update> {
        let u = self.updatable(v)?.ok_or_else(|| {
            MyError::new(
                code::ER_NON_UPDATABLE_TABLE,
                format!("The target table {} of the UPDATE is not updatable", v.name),
            )
        })?;
        let alias = match &upd.table.relation {
            ast::TableFactor::Table { alias: Some(a), .. } => a.name.value.clone(),
            _ => v.name.clone(),
        };
        let mut target: Option<String> = None;
        let mut assignments = Vec::new();
        for a in &upd.assignments {
            let ast::AssignmentTarget::ColumnName(n) = &a.target else {
                return Err(MyError::not_supported("tuple assignment"));
            };
            let parts: Vec<String> =
                n.0.iter()
                    .filter_map(|p| p.as_ident().map(|i| i.value.clone()))
                    .collect();
            let cname = parts.last().cloned().unwrap_or_default();
            if parts.len() == 2 && parts[0] != alias {
                return Err(MyError::bad_field(&parts.join("."), "field list"));
            }
            let ci = v
                .columns
                .iter()
                .position(|c| c.eq_ignore_ascii_case(&cname))
                .ok_or_else(|| MyError::bad_field(&cname, "field list"))?;
            let Some(item) = &u.items[ci] else {
                return Err(MyError::new(
                    code::ER_NONUPDATEABLE_COLUMN,
                    format!("Column '{cname}' is not updatable"),
                ));
            };
            let rel = self.relation_of(v, &u, item)?;
            match &target {
                Some(t) if *t != rel => {
                    return Err(MyError::new(
                        code::ER_VIEW_MULTIUPDATE,
                        format!(
                            "Can not modify more than one base table through a join view '{}.{}'",
                            v.db, v.name
                        ),
                    ));
                }
                _ => target = Some(rel.clone()),
            }
            let col = item
                .last()
                .cloned()
                .unwrap_or_else(|| ast::Ident::new(&cname));
            assignments.push(ast::Assignment {
                target: ast::AssignmentTarget::ColumnName(ast::ObjectName::from(vec![
                    ast::Ident::new(rel),
                    col,
                ])),
                value: self.substitute(&a.value, v, &alias, &u)?,
            });
        }
        let join = u.relations.len() > 1;
        if join && v.check != CheckOption::None {
            return Err(MyError::not_supported("WITH CHECK OPTION on a join view"));
        }
        if !join {
            let base_alias = target.clone().unwrap_or_else(|| u.relations[0].0.clone());
            self.carry_checks(v, &u, &base_alias)?;
        }
        let mut out = upd.clone();
        out.table = Self::qualified_from(v, &u)?;
        out.assignments = assignments;
        (out.selection, out.order_by) =
            self.base_where_order(&upd.selection, &upd.order_by, v, &alias, &u)?;
        Ok(out)
    }

    /// `DELETE FROM v WHERE …` as the DELETE from its base table.
    pub fn view_delete(
        &self,
        v: &ViewDef,
        del: &ast::Delete,
        alias: Option<String>,
    ) -> Result<ast::Delete> {
        let u = self.updatable(v)?.ok_or_else(|| {
            MyError::new(
                code::ER_NON_UPDATABLE_TABLE,
                format!("The target table {} of the DELETE is not updatable", v.name),
            )
        })?;
        if u.relations.len() > 1 {
            return Err(MyError::new(
                code::ER_VIEW_DELETE_MERGE_VIEW,
                format!("Can not delete from join view '{}.{}'", v.db, v.name),
            ));
        }
        let alias = alias.unwrap_or_else(|| v.name.clone());
        let mut out = del.clone();
        let from = vec![Self::qualified_from(v, &u)?];
        out.from = match &del.from {
            ast::FromTable::WithFromKeyword(_) => ast::FromTable::WithFromKeyword(from),
            ast::FromTable::WithoutKeyword(_) => ast::FromTable::WithoutKeyword(from),
        };
        (out.selection, out.order_by) =
            self.base_where_order(&del.selection, &del.order_by, v, &alias, &u)?;
        Ok(out)
    }

    /// The WHERE and ORDER BY of a write through the view, on its base table: the view's
    /// own WHERE ANDed with the statement's, view columns replaced by what they read.
    fn base_where_order(
        &self,
        selection: &Option<ast::Expr>,
        order_by: &[ast::OrderByExpr],
        v: &ViewDef,
        alias: &str,
        u: &Updatable,
    ) -> Result<(Option<ast::Expr>, Vec<ast::OrderByExpr>)> {
        let selection = match selection {
            Some(w) => Some(self.substitute(w, v, alias, u)?),
            None => None,
        };
        let order_by = order_by
            .iter()
            .map(|o| {
                let mut o = o.clone();
                o.expr = self.substitute(&o.expr, v, alias, u)?;
                Ok(o)
            })
            .collect::<Result<_>>()?;
        Ok((Self::and(u.selection.clone(), selection), order_by))
    }
}
