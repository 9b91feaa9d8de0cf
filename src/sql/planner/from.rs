//! The FROM clause: from the parsed table references to the planner's flat list of sources.
//!
//! The executor joins sources in one nested loop, left to right (see `exec::join`). Joins
//! that are not left-deep are flattened into that list:
//!
//! - `a RIGHT JOIN b ON c` is `b LEFT JOIN a ON c`: the right side is listed first.
//! - A LEFT JOIN whose right side is several sources — `a LEFT JOIN (b JOIN c ON p) ON q`,
//!   or `x JOIN y RIGHT JOIN z ON q`, which is `z LEFT JOIN (x JOIN y) ON q` — is a *nested
//!   group*: its first source is the LEFT JOIN source with [`Source::nest_end`] naming the
//!   last one, and the group's ON is checked once that last source is bound; when no
//!   combination of the group's rows matches, the whole group is NULL-extended.
//! - An inner join's ON condition outside any group joins the WHERE clause. Inside a group
//!   it belongs to the group: it is checked where its columns are bound if no LEFT JOIN
//!   nested deeper in the group can NULL-extend one of them first, and otherwise with the
//!   group's ON (see `place_group_condition`).
//!
//! The tree is built first ([`FromTree`]) because a RIGHT JOIN or a USING clause needs both
//! operands whole; flattening it gives the sources their order, their groups and, for `*`,
//! the written order of the tables.

use super::{Planner, ident};
use crate::error::{MyError, Result, code};
use crate::sql::bind::{ParamInfo, ScopeCol, ScopeSource, UsingCols};
use crate::sql::expr::Expr;
use crate::sql::plan::*;
use mysql_common::constants::ColumnFlags;
use sqlparser::ast;

/// One source of the FROM clause, before its conditions are bound.
pub(super) struct FromItem {
    pub source: Source,
    pub scope: ScopeSource,
    /// FORCE/USE INDEX restriction.
    pub allowed: Option<Vec<IndexRef>>,
    /// A LEFT JOIN source's ON condition (a nested group's, if `source.nest_end` is set).
    pub on_ast: Option<ast::Expr>,
    /// ON conditions of inner joins whose last source this is, each with the nested group
    /// it belongs to (the group's first source; None: the WHERE clause's level).
    pub inner_on: Vec<(ast::Expr, Option<usize>)>,
    /// Which comma-separated item of the FROM list it belongs to.
    pub comma_group: usize,
    /// The innermost nested group it is in, not counting the one it starts (its first
    /// source; None: none).
    pub within: Option<usize>,
}

impl FromItem {
    pub fn new(source: Source, scope: ScopeSource, allowed: Option<Vec<IndexRef>>) -> FromItem {
        FromItem {
            source,
            scope,
            allowed,
            on_ast: None,
            inner_on: Vec::new(),
            comma_group: 0,
            within: None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TreeJoin {
    Inner,
    Left,
    Right,
}

/// The FROM clause as written: leaves index the items in written order.
enum FromTree {
    Leaf(usize),
    Join {
        left: Box<FromTree>,
        right: Box<FromTree>,
        kind: TreeJoin,
        on: Option<Box<ast::Expr>>,
        /// `*` lists the right side first (a RIGHT JOIN … USING/NATURAL, as MySQL).
        star_right_first: bool,
    },
}

impl FromTree {
    fn leaves(&self, out: &mut Vec<usize>) {
        match self {
            FromTree::Leaf(i) => out.push(*i),
            FromTree::Join { left, right, .. } => {
                left.leaves(out);
                right.leaves(out);
            }
        }
    }

    fn star_leaves(&self, out: &mut Vec<usize>) {
        match self {
            FromTree::Leaf(i) => out.push(*i),
            FromTree::Join {
                left,
                right,
                star_right_first,
                ..
            } => {
                let (a, b) = if *star_right_first {
                    (right, left)
                } else {
                    (left, right)
                };
                a.star_leaves(out);
                b.star_leaves(out);
            }
        }
    }
}

/// Flattening state: the leaves (taken as they are placed) and where each went.
struct Flat {
    leaves: Vec<Option<FromItem>>,
    items: Vec<FromItem>,
    position: Vec<usize>,
}

impl Flat {
    fn place(&mut self, t: FromTree, group: Option<usize>) -> Result<()> {
        match t {
            FromTree::Leaf(i) => {
                let item = self.leaves[i]
                    .take()
                    .ok_or_else(|| MyError::internal("FROM item placed twice"))?;
                self.position[i] = self.items.len();
                self.items.push(FromItem {
                    within: group,
                    ..item
                });
            }
            FromTree::Join {
                left,
                right,
                kind,
                on,
                ..
            } => match kind {
                TreeJoin::Inner => {
                    self.place(*left, group)?;
                    self.place(*right, group)?;
                    if let (Some(on), Some(last)) = (on, self.items.last_mut()) {
                        last.inner_on.push((*on, group));
                    }
                }
                TreeJoin::Left => {
                    self.place(*left, group)?;
                    self.outer(*right, on, group)?;
                }
                TreeJoin::Right => {
                    self.place(*right, group)?;
                    self.outer(*left, on, group)?;
                }
            },
        }
        Ok(())
    }

    /// The inner side of an outer join: one source, or a nested group.
    fn outer(
        &mut self,
        t: FromTree,
        on: Option<Box<ast::Expr>>,
        group: Option<usize>,
    ) -> Result<()> {
        let first = self.items.len();
        self.place(t, Some(first))?;
        let last = self.items.len() - 1;
        let it = &mut self.items[first];
        it.source.join = JoinKind::Left;
        it.source.nest_end = (last > first).then_some(last);
        it.on_ast = on.map(|e| *e);
        it.within = group;
        Ok(())
    }
}

/// Outer joins that WHERE makes inner, as MySQL does: when a WHERE conjunct is false or
/// NULL for a NULL-extended row of an outer join's inner side (a comparison, IS NOT NULL,
/// BETWEEN, IN or LIKE on one of its columns), no NULL-extended row survives, and the join
/// is an inner join — which the planner may then reorder and read by the best index. Its
/// ON (and the conditions of the joins nested in it) move to the enclosing level.
pub(super) fn simplify_outer_joins(items: &mut [FromItem], selection: Option<&ast::Expr>) {
    let Some(w) = selection else { return };
    let mut conj = Vec::new();
    ast_conjuncts(w, &mut conj);
    let rejected: Vec<usize> = conj
        .iter()
        .flat_map(|c| null_rejected_operands(c))
        .filter_map(|e| resolve_source(items, e))
        .collect();
    if rejected.is_empty() {
        return;
    }
    // Innermost groups first (the latest first source), so that a group's conditions move
    // out step by step.
    for s in (0..items.len()).rev() {
        if items[s].source.join != JoinKind::Left {
            continue;
        }
        let last = items[s].source.nest_end.unwrap_or(s);
        if !rejected.iter().any(|&r| (s..=last).contains(&r)) {
            continue;
        }
        let up = items[s].within;
        let it = &mut items[s];
        it.source.join = JoinKind::Inner;
        it.source.nest_end = None;
        if let Some(on) = it.on_ast.take() {
            items[last].inner_on.push((on, up));
        }
        for it in items.iter_mut() {
            if it.within == Some(s) {
                it.within = up;
            }
            for (_, g) in it.inner_on.iter_mut() {
                if *g == Some(s) {
                    *g = up;
                }
            }
        }
    }
}

/// The AND-ed parts of `e`.
fn ast_conjuncts<'e>(e: &'e ast::Expr, out: &mut Vec<&'e ast::Expr>) {
    match e {
        ast::Expr::BinaryOp {
            left,
            op: ast::BinaryOperator::And,
            right,
        } => {
            ast_conjuncts(left, out);
            ast_conjuncts(right, out);
        }
        ast::Expr::Nested(x) => ast_conjuncts(x, out),
        _ => out.push(e),
    }
}

/// The columns that `c` is false or NULL for when they are NULL: the bare operands of a
/// comparison (not `<=>`), IS NOT NULL, BETWEEN, IN or LIKE.
fn null_rejected_operands(c: &ast::Expr) -> Vec<&ast::Expr> {
    use ast::BinaryOperator as B;
    let bare = |e: &ast::Expr| {
        matches!(
            e,
            ast::Expr::Identifier(_) | ast::Expr::CompoundIdentifier(_)
        )
    };
    let operands: Vec<&ast::Expr> = match c {
        ast::Expr::BinaryOp {
            left,
            op: B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq,
            right,
        } => vec![left, right],
        ast::Expr::IsNotNull(e)
        | ast::Expr::Between { expr: e, .. }
        | ast::Expr::InList { expr: e, .. }
        | ast::Expr::Like { expr: e, .. } => vec![e],
        _ => Vec::new(),
    };
    operands.into_iter().filter(|e| bare(e)).collect()
}

/// The item a column name resolves to (None: unknown or ambiguous, or another block's).
fn resolve_source(items: &[FromItem], e: &ast::Expr) -> Option<usize> {
    let (table, col) = match e {
        ast::Expr::Identifier(c) => (None, &c.value),
        ast::Expr::CompoundIdentifier(p) if p.len() == 2 => (Some(&p[0].value), &p[1].value),
        _ => return None,
    };
    let mut found = items.iter().enumerate().filter(|(_, it)| {
        table.is_none_or(|t| it.scope.alias.eq_ignore_ascii_case(t))
            && visible_column(&it.scope, col).is_some()
    });
    let one = found.next()?.0;
    found.next().is_none().then_some(one)
}

/// Where conjunct `c` can be checked: at the level of its last source (subqueries'
/// correlated references included), unless that source is on the inner side of an outer
/// join (`outer`: each LEFT JOIN source's range, a nested group's whole range) that is
/// still deciding there whether to NULL-extend — a filter there would turn rows it rejects
/// into NULL-extended ones. Then None: `c` is checked after the whole join (a WHERE
/// conjunct, `group` None) or with the ON of `group` (a condition of an inner join nested
/// in the group that starts at source `group`, which may sit inside its own group).
pub(super) fn pushdown_level(
    c: &Expr,
    outer: &[(usize, usize)],
    group: Option<usize>,
) -> Option<usize> {
    let l = c.max_source()?;
    let inside = outer
        .iter()
        .any(|&(first, last)| group.is_none_or(|g| first > g) && first <= l && l <= last);
    (!inside).then_some(l)
}

impl<'a> Planner<'a> {
    /// The FROM clause's sources in join order, and the order `*` lists them in.
    pub(super) fn plan_from(
        &self,
        from: &[ast::TableWithJoins],
        params: &[ParamInfo],
    ) -> Result<(Vec<FromItem>, Vec<usize>)> {
        let mut leaves = Vec::new();
        let mut trees = Vec::new();
        for twj in from {
            trees.push(self.join_tree(twj, params, &mut leaves)?);
        }
        let n = leaves.len();
        let mut flat = Flat {
            leaves: leaves.into_iter().map(Some).collect(),
            items: Vec::with_capacity(n),
            position: vec![0; n],
        };
        let mut star = Vec::with_capacity(n);
        for (group, t) in trees.into_iter().enumerate() {
            let first = flat.items.len();
            t.star_leaves(&mut star);
            flat.place(t, None)?;
            for it in &mut flat.items[first..] {
                it.comma_group = group;
            }
        }
        let star_order = star.iter().map(|&l| flat.position[l]).collect();
        Ok((flat.items, star_order))
    }

    /// One comma-separated item of the FROM list as a tree.
    fn join_tree(
        &self,
        twj: &ast::TableWithJoins,
        params: &[ParamInfo],
        leaves: &mut Vec<FromItem>,
    ) -> Result<FromTree> {
        let mut tree = self.factor_tree(&twj.relation, params, leaves)?;
        for j in &twj.joins {
            use ast::JoinOperator as J;
            let (kind, constraint) = match &j.join_operator {
                J::Inner(c) | J::Join(c) | J::StraightJoin(c) | J::CrossJoin(c) => {
                    (TreeJoin::Inner, c)
                }
                J::LeftOuter(c) | J::Left(c) => (TreeJoin::Left, c),
                J::RightOuter(c) | J::Right(c) => (TreeJoin::Right, c),
                other => return Err(MyError::not_supported(format!("join {other:?}"))),
            };
            let right = self.factor_tree(&j.relation, params, leaves)?;
            let right_join = kind == TreeJoin::Right;
            let (mut l, mut r) = (Vec::new(), Vec::new());
            tree.leaves(&mut l);
            right.leaves(&mut r);
            let on = match constraint {
                ast::JoinConstraint::On(e) => Some(e.clone()),
                ast::JoinConstraint::Using(cols) => {
                    let names: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
                    using_join(leaves, &l, &r, &names, right_join)?
                }
                ast::JoinConstraint::Natural => {
                    let names = natural_columns(leaves, &l, &r);
                    using_join(leaves, &l, &r, &names, right_join)?
                }
                ast::JoinConstraint::None => None,
            };
            let natural = matches!(constraint, ast::JoinConstraint::Natural);
            if kind != TreeJoin::Inner && on.is_none() && !natural {
                return Err(MyError::parse("LEFT JOIN without ON", 1));
            }
            // A NATURAL outer join without common columns keeps every pair.
            let on = on.or_else(|| {
                (kind != TreeJoin::Inner)
                    .then(|| ast::Expr::Value(ast::Value::Boolean(true).into()))
            });
            // MySQL's `*` over a RIGHT JOIN … USING/NATURAL lists the right side's columns
            // first (it is the join turned around); over ON, in written order.
            let star_right_first = right_join
                && matches!(
                    constraint,
                    ast::JoinConstraint::Using(_) | ast::JoinConstraint::Natural
                );
            tree = FromTree::Join {
                left: Box::new(tree),
                right: Box::new(right),
                kind,
                on: on.map(Box::new),
                star_right_first,
            };
        }
        Ok(tree)
    }

    fn factor_tree(
        &self,
        f: &ast::TableFactor,
        params: &[ParamInfo],
        leaves: &mut Vec<FromItem>,
    ) -> Result<FromTree> {
        if let ast::TableFactor::NestedJoin {
            table_with_joins,
            alias,
        } = f
        {
            if alias.is_some() {
                return Err(MyError::parse("an alias on a parenthesized join", 1));
            }
            return self.join_tree(table_with_joins, params, leaves);
        }
        leaves.push(self.plan_factor(f, params)?);
        Ok(FromTree::Leaf(leaves.len() - 1))
    }

    fn plan_factor(&self, f: &ast::TableFactor, params: &[ParamInfo]) -> Result<FromItem> {
        match f {
            ast::TableFactor::Table {
                name,
                alias,
                index_hints,
                args,
                partitions,
                ..
            } => {
                if args.is_some() {
                    return Err(MyError::not_supported("table functions"));
                }
                if !partitions.is_empty() {
                    return Err(MyError::not_supported("PARTITION"));
                }
                if let Some(v) = self.view_named(name)? {
                    if !index_hints.is_empty() {
                        return Err(MyError::new(
                            code::ER_KEY_DOES_NOT_EXITS,
                            format!(
                                "Key '{}' doesn't exist in table '{}'",
                                index_hints[0]
                                    .index_names
                                    .first()
                                    .map(|i| i.value.as_str())
                                    .unwrap_or(""),
                                v.name
                            ),
                        ));
                    }
                    let alias = alias
                        .as_ref()
                        .map(|a| ident(&a.name))
                        .unwrap_or_else(|| v.name.clone());
                    let plan = self.isolated(|| self.plan_view(&v, params))?;
                    return Self::derived_item(plan, alias, &v.db, &v.name);
                }
                let (db, table) = match self.computed_table(name)? {
                    Some(t) => t,
                    None => self.resolve_table(name)?,
                };
                let alias = alias
                    .as_ref()
                    .map(|a| ident(&a.name))
                    .unwrap_or_else(|| table.name().to_string());
                let mut allowed = None;
                for h in index_hints {
                    if matches!(h.hint_type, ast::TableIndexHintType::Ignore) {
                        continue;
                    }
                    let mut list = Vec::new();
                    for n in &h.index_names {
                        let name = ident(n);
                        if name.eq_ignore_ascii_case("PRIMARY") && table.def.primary.is_some() {
                            list.push(IndexRef::Primary);
                        } else if let Some(i) = table
                            .indexes
                            .iter()
                            .position(|x| x.def.name.eq_ignore_ascii_case(&name))
                        {
                            list.push(IndexRef::Secondary(i));
                        } else {
                            return Err(MyError::new(
                                code::ER_KEY_DOES_NOT_EXITS,
                                format!("Key '{name}' doesn't exist in table '{}'", table.name()),
                            ));
                        }
                    }
                    allowed = Some(list);
                }
                let scope = Self::table_scope(&db, &alias, &table);
                let width = table.def.columns.len();
                let kind = SourceKind::Table {
                    table,
                    access: Access::Scan { reverse: false },
                };
                Ok(FromItem::new(
                    Source::new(kind, alias, width),
                    scope,
                    allowed,
                ))
            }
            ast::TableFactor::Derived {
                subquery,
                alias,
                lateral,
                ..
            } => {
                if *lateral {
                    return Err(MyError::not_supported("LATERAL"));
                }
                let alias = alias.as_ref().map(|a| ident(&a.name)).ok_or_else(|| {
                    MyError::new(
                        code::ER_DERIVED_MUST_HAVE_ALIAS,
                        "Every derived table must have its own alias",
                    )
                })?;
                let plan = self.isolated(|| self.plan_query(subquery, params, None))?;
                Self::derived_item(plan, alias, "", "")
            }
            other => Err(MyError::not_supported(format!("FROM {other}"))),
        }
    }

    /// The FROM item of a derived table or view planned as `plan`; `db`/`table` name a view.
    fn derived_item(plan: SelectPlan, alias: String, db: &str, table: &str) -> Result<FromItem> {
        for (i, m) in plan.columns.iter().enumerate() {
            if plan.columns[..i]
                .iter()
                .any(|o| o.name.eq_ignore_ascii_case(&m.name))
            {
                return Err(MyError::new(
                    code::ER_DUP_FIELDNAME,
                    format!("Duplicate column name '{}'", m.name),
                ));
            }
        }
        let columns = plan
            .columns
            .iter()
            .zip(&plan.types)
            .map(|(m, t)| ScopeCol {
                name: m.name.clone(),
                ty: t.clone(),
                nullable: !m.flags.contains(ColumnFlags::NOT_NULL_FLAG),
                flags: 0,
                utc: false,
            })
            .collect::<Vec<_>>();
        let width = columns.len();
        let source = Source::new(SourceKind::Derived(Box::new(plan)), alias.clone(), width);
        let scope = ScopeSource {
            qualified_only: false,
            using: UsingCols::default(),
            pk: Vec::new(),
            alias,
            db: db.to_string(),
            table: table.to_string(),
            columns,
        };
        Ok(FromItem::new(source, scope, None))
    }
}

/// The columns a NATURAL JOIN joins on: those of the right side that the left side has
/// too (unqualified-visible), in the right side's order.
fn natural_columns(items: &[FromItem], left: &[usize], right: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for &r in right {
        for c in &items[r].scope.columns {
            if left
                .iter()
                .any(|&l| visible_column(&items[l].scope, &c.name).is_some())
                && !out.iter().any(|o| o.eq_ignore_ascii_case(&c.name))
            {
                out.push(c.name.clone());
            }
        }
    }
    out
}

/// The position of column `name` in `s` if an unqualified name can reach it.
fn visible_column(s: &ScopeSource, name: &str) -> Option<usize> {
    s.columns
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(name))
        .filter(|ci| !s.using.hidden.contains(ci))
}

/// `left JOIN right USING (names)`: the ON condition `l.c = r.c AND …` (`l` and `r` the
/// one source of each side with a column `c`: 1052 if there are several), and the
/// coalescing of each pair into the preserved side's column (the right one's for a RIGHT
/// JOIN). `None` for no columns.
fn using_join(
    items: &mut [FromItem],
    left: &[usize],
    right: &[usize],
    names: &[String],
    right_join: bool,
) -> Result<Option<ast::Expr>> {
    let unknown = |c: &str| MyError::bad_field(c, "from clause");
    let mut cond: Option<ast::Expr> = None;
    for c in names {
        // The one source of a side with an unqualified-visible `c`.
        let find = |side: &[usize]| -> Result<(usize, usize)> {
            let mut found = side
                .iter()
                .filter_map(|&i| visible_column(&items[i].scope, c).map(|ci| (i, ci)));
            let one = found.next().ok_or_else(|| unknown(c))?;
            if found.next().is_some() {
                return Err(MyError::new(
                    code::ER_NON_UNIQ_ERROR,
                    format!("Column '{c}' in from clause is ambiguous"),
                ));
            }
            Ok(one)
        };
        let (li, lci) = find(left)?;
        let (ri, rci) = find(right)?;
        let qualified = |alias: &str| {
            ast::Expr::CompoundIdentifier(vec![ast::Ident::new(alias), ast::Ident::new(c)])
        };
        let eq = ast::Expr::BinaryOp {
            left: Box::new(qualified(&items[li].scope.alias)),
            op: ast::BinaryOperator::Eq,
            right: Box::new(qualified(&items[ri].scope.alias)),
        };
        let (first, hidden) = if right_join {
            ((ri, rci), (li, lci))
        } else {
            ((li, lci), (ri, rci))
        };
        let using = &mut items[first.0].scope.using;
        if !using.first.contains(&first.1) {
            using.first.push(first.1);
        }
        // (A column coalesced by an earlier join is merged again, now into this one.)
        let using = &mut items[hidden.0].scope.using;
        using.first.retain(|&c| c != hidden.1);
        using.hidden.push(hidden.1);
        cond = Some(match cond {
            None => eq,
            Some(p) => ast::Expr::BinaryOp {
                left: Box::new(p),
                op: ast::BinaryOperator::And,
                right: Box::new(eq),
            },
        });
    }
    Ok(cond)
}
