//! Parsing: sqlparser-rs for the SQL it knows, Quire's own parser for the rest.
//!
//! sqlparser's MySQL dialect covers queries, DML and most DDL. A few spellings MySQL accepts
//! are rewritten first, by splicing the text at token positions (so select-list items keep
//! their original text for column names): `LOCK IN SHARE MODE` → `FOR SHARE`, `SET @a := 1` →
//! `SET @a = 1`, infix `MOD` → `%`, `TRIM(LEADING FROM s)` → `TRIM(LEADING ' ' FROM s)`,
//! `CHAR(n USING cs)` → `CONVERT(CHAR(n) USING cs)`. Administrative statements whose MySQL grammar sqlparser
//! does not model precisely (transactions, SHOW, users, KILL, …) go to [`super::admin`].
//! Parse errors become MySQL's 1064 with its "near '…' at line N" message.

use super::Statement;
use super::admin;
use crate::error::{MyError, Result};
use sqlparser::dialect::MySqlDialect;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;
use std::borrow::Cow;

/// Bound on parser recursion (deeply nested expressions from a client must not overflow the
/// stack).
pub const PARSE_DEPTH_MAX: usize = 200;

/// Replace each `?` placeholder (outside strings and comments) with `?1`, `?2`, … so that the
/// planner knows each one's position. Returns the text and the number of placeholders.
pub fn number_placeholders(text: &str) -> (String, usize) {
    let positions = placeholder_positions(text);
    if positions.is_empty() {
        return (text.to_string(), 0);
    }
    let mut out = String::with_capacity(text.len() + positions.len() * 3);
    let mut last = 0;
    for (i, p) in positions.iter().enumerate() {
        out.push_str(&text[last..*p]);
        out.push('?');
        out.push_str(&(i + 1).to_string());
        last = p + 1;
    }
    out.push_str(&text[last..]);
    (out, positions.len())
}

/// Byte offsets of the `?` placeholders of a statement (not those in strings, quoted names
/// or comments).
pub fn placeholder_positions(text: &str) -> Vec<usize> {
    let opts = super::lexer::LexOptions::default();
    super::lexer::tokens(text, &opts)
        .filter_map(|t| t.ok())
        .filter(|t| matches!(t.kind, super::lexer::TokenKind::Param))
        .map(|t| t.start)
        .collect()
}

/// Byte offset of a 1-based (line, column) location in `text`.
pub fn offset_of(text: &str, line: u64, col: u64) -> usize {
    let mut off = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i as u64 + 1 == line {
            return off
                + l.char_indices()
                    .nth(col.saturating_sub(1) as usize)
                    .map(|(b, _)| b)
                    .unwrap_or(l.len());
        }
        off += l.len();
    }
    text.len()
}

/// What `DELETE IGNORE` becomes for sqlparser: an optimizer hint (see [`is_delete_ignore`]).
const DELETE_IGNORE_HINT: &str = "/*+ QUIRE_DELETE_IGNORE */";

/// Was this DELETE written `DELETE IGNORE`?
pub fn is_delete_ignore(del: &sqlparser::ast::Delete) -> bool {
    del.optimizer_hints
        .iter()
        .any(|h| h.prefix.is_empty() && h.text.trim() == "QUIRE_DELETE_IGNORE")
}

/// Is there a `(` right after a FROM or JOIN (spaces between)? A quick test before lexing.
fn paren_after_from_or_join(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(4)).any(|i| {
        (b[i..i + 4].eq_ignore_ascii_case(b"FROM") || b[i..i + 4].eq_ignore_ascii_case(b"JOIN"))
            && b[i + 4..]
                .iter()
                .find(|c| !c.is_ascii_whitespace())
                .is_some_and(|&c| c == b'(')
    })
}

/// MySQL spellings sqlparser does not accept, rewritten in place (one pass over the
/// lexer's tokens, which carry byte spans).
fn rewrite(text: &str) -> String {
    use super::lexer::{LexOptions, TokenKind, tokens};
    let upper_has = |w: &str| {
        text.as_bytes()
            .windows(w.len())
            .any(|x| x.eq_ignore_ascii_case(w.as_bytes()))
    };
    if !(upper_has("LOCK")
        || upper_has("IGNORE")
        || text.contains(":=")
        || upper_has("MOD")
        || upper_has("KEY")
        || upper_has("UPDATE")
        || upper_has("RENAME")
        || upper_has("TRIM")
        || upper_has("USING")
        || paren_after_from_or_join(text))
    {
        return text.to_string();
    }
    let opts = LexOptions::default();
    let toks: Vec<super::lexer::Token> = tokens(text, &opts).filter_map(|t| t.ok()).collect();
    let word = |i: usize, w: &str| {
        toks.get(i).is_some_and(|t| {
            matches!(t.kind, TokenKind::Keyword(_) | TokenKind::Ident)
                && t.text(text).eq_ignore_ascii_case(w)
        })
    };
    let is_set = word(0, "SET");
    let mut edits: Vec<(usize, usize, Cow<str>)> = Vec::new();
    // UPDATE t1, t2 SET …: the comma join of a multi-table UPDATE (sqlparser takes one
    // table with joins there), as CROSS JOIN, which means the same.
    if word(0, "UPDATE") {
        let mut depth = 0i32;
        for t in &toks[1..] {
            if t.is_op(text, "(") {
                depth += 1;
            } else if t.is_op(text, ")") {
                depth -= 1;
            } else if depth == 0 && t.text(text).eq_ignore_ascii_case("SET") {
                break;
            } else if depth == 0 && t.is_op(text, ",") {
                edits.push((t.start, t.end, " CROSS JOIN ".into()));
            }
        }
    }
    // UPDATE IGNORE / DELETE IGNORE: sqlparser has no MySQL IGNORE modifier there. UPDATE
    // takes its SQLite spelling `OR IGNORE` (same AST field); DELETE a marker hint that
    // only this rewrite writes (`DELETE_IGNORE_HINT`), read by the planner.
    if word(0, "UPDATE") && word(1, "IGNORE") {
        edits.push((toks[1].start, toks[1].end, "OR IGNORE".into()));
    }
    if word(0, "DELETE") && word(1, "IGNORE") {
        edits.push((toks[1].start, toks[1].end, DELETE_IGNORE_HINT.into()));
    }
    for i in 0..toks.len() {
        // FROM (a, b) / JOIN (a, b …): a parenthesized comma join, which sqlparser does not
        // parse, as CROSS JOIN. The comma binds looser than JOIN, but only for the inner
        // joins that comma joins are, where the grouping changes nothing.
        if i > 0
            && toks[i].is_op(text, "(")
            && (word(i - 1, "FROM") || word(i - 1, "JOIN"))
            && toks.get(i + 1).is_some_and(|t| t.kind != TokenKind::Op)
            && !["SELECT", "WITH", "VALUES", "TABLE"]
                .iter()
                .any(|w| word(i + 1, w))
        {
            let mut depth = 0i32;
            for t in &toks[i + 1..] {
                if t.is_op(text, "(") {
                    depth += 1;
                } else if t.is_op(text, ")") {
                    depth -= 1;
                    if depth < 0 {
                        break;
                    }
                } else if depth == 0 && t.is_op(text, ",") {
                    edits.push((t.start, t.end, " CROSS JOIN ".into()));
                }
            }
        }
        if word(i, "LOCK") && word(i + 1, "IN") && word(i + 2, "SHARE") && word(i + 3, "MODE") {
            edits.push((toks[i].start, toks[i + 3].end, "FOR SHARE".into()));
        }
        // ALTER TABLE … DROP KEY k: MySQL's synonym of DROP INDEX.
        if word(i, "DROP") && word(i + 1, "KEY") && word(0, "ALTER") {
            edits.push((toks[i + 1].start, toks[i + 1].end, "INDEX".into()));
        }
        // ALTER TABLE … RENAME {INDEX|KEY} a TO b: sqlparser has no such operation; it is
        // spelled as the one two-name rename sqlparser parses and MySQL lacks (a partition
        // rename, which `ddl::alter` takes as the index rename).
        if word(0, "ALTER")
            && word(i, "RENAME")
            && (word(i + 1, "INDEX") || word(i + 1, "KEY"))
            && word(i + 3, "TO")
            && [i + 2, i + 4]
                .iter()
                .all(|&j| toks.get(j).is_some_and(|t| t.kind != TokenKind::Op))
        {
            let name = |j: usize| &text[toks[j].start..toks[j].end];
            let spelled = format!(
                "PARTITION ({}) RENAME TO PARTITION ({})",
                name(i + 2),
                name(i + 4)
            );
            edits.push((toks[i].start, toks[i + 4].end, spelled.into()));
        }
        // ALTER TABLE t RENAME u: MySQL's TO/AS are optional, sqlparser's are not.
        if word(0, "ALTER")
            && word(i, "RENAME")
            && toks.get(i + 1).is_some_and(|t| t.kind != TokenKind::Op)
            && !["TO", "AS", "COLUMN", "INDEX", "KEY"]
                .iter()
                .any(|w| word(i + 1, w))
        {
            let at = toks[i + 1].start;
            edits.push((at, at, "TO ".into()));
        }
        // TRIM(LEADING FROM s): MySQL's remstr defaults to a space, sqlparser wants one.
        if word(i, "TRIM")
            && toks.get(i + 1).is_some_and(|t| t.is_op(text, "("))
            && ["LEADING", "TRAILING", "BOTH"]
                .iter()
                .any(|w| word(i + 2, w))
            && word(i + 3, "FROM")
        {
            let at = toks[i + 3].start;
            edits.push((at, at, "' ' ".into()));
        }
        // CHAR(n, … USING cs) is CONVERT(CHAR(n, …) USING cs): sqlparser has only the latter.
        if word(i, "CHAR") && toks.get(i + 1).is_some_and(|t| t.is_op(text, "(")) {
            let mut depth = 0i32;
            for j in i + 2..toks.len() {
                if toks[j].is_op(text, "(") {
                    depth += 1;
                } else if toks[j].is_op(text, ")") {
                    depth -= 1;
                    if depth < 0 {
                        break;
                    }
                } else if depth == 0 && word(j, "USING") {
                    edits.push((toks[i].start, toks[i].start, "CONVERT(".into()));
                    edits.push((toks[j].start, toks[j].start, ") ".into()));
                    break;
                }
            }
        }
        if is_set && toks[i].is_op(text, ":=") {
            edits.push((toks[i].start, toks[i].end, "=".into()));
        }
        if i > 0 && word(i, "MOD") && !toks.get(i + 1).is_some_and(|t| t.is_op(text, "(")) {
            let prev = &toks[i - 1];
            let operand = match prev.kind {
                TokenKind::Op => prev.text(text) == ")",
                TokenKind::Keyword(_) => false,
                _ => true,
            };
            if operand {
                edits.push((toks[i].start, toks[i].end, "%".into()));
            }
        }
    }
    if edits.is_empty() {
        return text.to_string();
    }
    // (A CHAR(… USING cs) edit lies after the edits inside its parentheses.)
    edits.sort_by_key(|&(s, _, _)| s);
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (s, e, r) in edits {
        if s < last {
            continue;
        }
        out.push_str(&text[last..s]);
        out.push_str(&r);
        last = e;
    }
    out.push_str(&text[last..]);
    out
}

pub fn parse_error(text: &str, e: &ParserError) -> MyError {
    let msg = e.to_string();
    // sqlparser: "... at Line: L, Column: C"
    let loc = msg.rsplit_once("Line: ").and_then(|(_, rest)| {
        let (l, rest) = rest.split_once(", Column: ")?;
        let c: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        Some((l.trim().parse::<u64>().ok()?, c.parse::<u64>().ok()?))
    });
    match loc {
        Some((line, col)) => {
            let off = offset_of(text, line, col);
            MyError::parse(text.get(off..).unwrap_or(""), line as usize)
        }
        None => {
            if msg.contains("recursion") {
                return MyError::new(
                    crate::error::code::ER_PARSE_ERROR,
                    "Query is too deeply nested (parser recursion limit)".to_string(),
                );
            }
            MyError::parse("", 1)
        }
    }
}

/// Parse one statement (no trailing `;` splitting: the caller split the text already).
pub fn parse(text: &str) -> Result<Statement> {
    if let Some(stmt) = admin::parse(text)? {
        return Ok(Statement::Admin(stmt));
    }
    let text = rewrite(text);
    let dialect = MySqlDialect {};
    let mut parser = Parser::new(&dialect).with_recursion_limit(PARSE_DEPTH_MAX);
    parser = parser
        .try_with_sql(&text)
        .map_err(|e| parse_error(&text, &e))?;
    let stmt = parser
        .parse_statement()
        .map_err(|e| parse_error(&text, &e))?;
    // Anything after the statement (other than `;`) is a syntax error.
    loop {
        match parser.peek_token().token {
            Token::EOF => break,
            Token::SemiColon => {
                parser.next_token();
            }
            _ => {
                let t = parser.peek_token();
                let off = offset_of(&text, t.span.start.line, t.span.start.column);
                return Err(MyError::parse(
                    text.get(off..).unwrap_or(""),
                    t.span.start.line as usize,
                ));
            }
        }
    }
    Ok(Statement::Ast(Box::new(stmt)))
}

/// The text as the planner will see it (rewritten as [`parse`] does), for naming columns.
pub fn rewritten(text: &str) -> String {
    rewrite(text)
}

/// Parse an expression on its own (for SET values and SHOW … WHERE).
pub fn parse_expr(text: &str) -> Result<sqlparser::ast::Expr> {
    let dialect = MySqlDialect {};
    let mut parser = Parser::new(&dialect)
        .with_recursion_limit(PARSE_DEPTH_MAX)
        .try_with_sql(text)
        .map_err(|e| parse_error(text, &e))?;
    let e = parser.parse_expr().map_err(|e| parse_error(text, &e))?;
    if !matches!(parser.peek_token().token, Token::EOF | Token::SemiColon) {
        return Err(MyError::parse(text, 1));
    }
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_strings() {
        let (t, n) = number_placeholders("SELECT ?, '?', `?`, ? /* ? */");
        assert_eq!(n, 2);
        assert_eq!(t, "SELECT ?1, '?', `?`, ?2 /* ? */");
    }

    #[test]
    fn mysql_spellings_are_rewritten() {
        assert_eq!(
            rewrite("SELECT * FROM t WHERE a = 1 LOCK IN SHARE MODE"),
            "SELECT * FROM t WHERE a = 1 FOR SHARE"
        );
        assert_eq!(rewrite("SET @a := 1"), "SET @a = 1");
        assert_eq!(
            rewrite("SELECT a MOD 3, MOD(a, 3) FROM t"),
            "SELECT a % 3, MOD(a, 3) FROM t"
        );
        assert_eq!(
            rewrite("SELECT 'LOCK IN SHARE MODE'"),
            "SELECT 'LOCK IN SHARE MODE'"
        );
        assert_eq!(
            rewrite("SELECT TRIM(LEADING FROM s), TRIM(BOTH 'x' FROM s) FROM t"),
            "SELECT TRIM(LEADING ' ' FROM s), TRIM(BOTH 'x' FROM s) FROM t"
        );
        assert_eq!(
            rewrite("SELECT CHAR(104, 105 USING utf8mb4), CHAR(65)"),
            "SELECT CONVERT(CHAR(104, 105 ) USING utf8mb4), CHAR(65)"
        );
        assert_eq!(
            rewrite("SELECT * FROM t LEFT JOIN (a, b) ON 1 JOIN (SELECT 1, 2) x"),
            "SELECT * FROM t LEFT JOIN (a CROSS JOIN  b) ON 1 JOIN (SELECT 1, 2) x"
        );
        assert_eq!(
            rewrite("SELECT * FROM (a, b JOIN c ON f(c.x, 1) = b.y)"),
            "SELECT * FROM (a CROSS JOIN  b JOIN c ON f(c.x, 1) = b.y)"
        );
    }

    #[test]
    fn errors_point_near_the_problem() {
        let e = match parse("SELECT * FROM t WHERE") {
            Err(e) => e,
            Ok(_) => panic!("must fail"),
        };
        assert_eq!(e.code, 1064);
        let e = match parse("SELEKT 1") {
            Err(e) => e,
            Ok(_) => panic!("must fail"),
        };
        assert!(e.message.contains("near 'SELEKT 1'"), "{}", e.message);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let q = format!("SELECT {}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(parse(&q).is_err());
    }
}
