//! Statement normalisation: the plan-cache key, the literal values, and the digest, in one
//! pass over the tokens.
//!
//! # `param_text`: one plan for many statements
//!
//! `SELECT c FROM sbtest1 WHERE id=5` and `… id=17` should share a cached plan. So in
//! `SELECT`, `INSERT`, `REPLACE`, `UPDATE` and `DELETE` statements (also behind `WITH …` or a
//! leading `(`) each literal value becomes `?`, and its value goes to
//! [`Normalized::literals`], in text order; the planner binds them exactly like
//! prepared-statement parameters. A `?` already in the text is a parameter
//! ([`Mark::Param`]); [`Normalized::placeholders`] tells the two apart, in order.
//!
//! The rest of the text is kept as written — identifier and keyword case included — minus
//! comments and optimizer hints, with executable comments inlined, every whitespace run folded
//! to one space, and no trailing `;`. Two rewrites make it parseable by sqlparser's
//! `MySqlDialect`: `LOCK IN SHARE MODE` becomes `FOR SHARE`, and `:=` becomes `=` in `SET`.
//! sqlparser knows no SQL modes, so two more keep its reading equal to MySQL's: with
//! `ANSI_QUOTES`, `"name"` is rewritten as `` `name` ``, and with `NO_BACKSLASH_ESCAPES` a
//! string that stays inline and contains a backslash is re-quoted (`'a\\b'` for `'a\b'`)
//! because sqlparser always reads backslash escapes. A parser that honours the modes itself
//! can ignore both: neither changes the statement.
//!
//! `param_text` is a cache *key*, so two statements may share it only if they mean the same
//! thing given their literals. The rules below lean towards keeping a literal inline when in
//! doubt: a needless inline literal costs a cache entry, a wrong `?` would change a query.
//!
//! Other statements (DDL, `SET`, `SHOW`, …) are not parameterised: their `param_text` is the
//! cleaned text and they have no literals.
//!
//! # Literals that stay inline
//!
//! A literal stays in the text when its value is part of the statement's *shape*, or when
//! sqlparser needs a literal token there:
//!
//! - hex and bit values (`x'41'`, `0x41`, `b'01'`, `0b01`): their type (binary string or
//!   number) depends on context, so they cannot be bound as plain values;
//! - charset-introduced strings (`_utf8mb4'x'`, `_binary 0x41`): the introducer is part of the
//!   literal's type;
//! - typed literals (`DATE '…'`, `TIME '…'`, `TIMESTAMP '…'`) — `INTERVAL '1' DAY` however
//!   becomes `INTERVAL ? DAY`, which sqlparser accepts;
//! - lengths and precisions in type specifications (`CAST(x AS DECIMAL(10,2))`,
//!   `CONVERT(x, CHAR(10))`, `CHAR(10)`, `NOW(6)`): sqlparser requires an integer there, and
//!   they decide the result type;
//! - positional `ORDER BY`/`GROUP BY` integers (`ORDER BY 2 DESC`): `ORDER BY ?` would order by
//!   a constant;
//! - strings after `COLLATE`, `CHARACTER SET`/`CHARSET`, `SEPARATOR`, `->`/`->>` (JSON paths),
//!   `INTO OUTFILE`/`DUMPFILE` and the `FIELDS … BY` options: names and formats, not values;
//! - string aliases: `AS 'name'`, or a string right after an expression (`SELECT a 'x'`);
//! - `NULL`, `TRUE` and `FALSE`, which are keywords.
//!
//! # Literal values
//!
//! An integer is [`Literal::Int`] (or [`Literal::UInt`] above `i64::MAX`, or
//! [`Literal::Decimal`] above `u64::MAX`, as MySQL makes it a DECIMAL); `1.5`, `.5`, `1.` are
//! exact [`Literal::Decimal`] text (normalised to `1.5`, `0.5`, `1`); a number with an
//! exponent is a [`Literal::Double`] (out of range is MySQL's error 1367). Strings are the
//! unescaped bytes ([`Literal::Str`]); adjacent strings (`'a' 'b'`, `N'a' 'b'`) are one
//! literal, as MySQL's grammar concatenates them. A leading `-` is not part of a literal: it
//! stays in the text (`-?`) so the planner sees the same expression for every value.
//!
//! # The digest
//!
//! The same walk feeds [`super::digest`], which applies MySQL 8.0's `performance_schema`
//! rules to every statement kind; see there.

#[cfg(test)]
use super::digest::digest_hex;
use super::digest::{self, DToken, DigestBuilder};
use super::keywords::Kw;
use super::lexer::{
    LexError, LexErrorKind, LexOptions, StatementKind, Token, TokenKind, classify,
    is_charset_introducer, lex_into, unescape_into,
};

/// A literal value taken out of `param_text`.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Int(i64),
    /// An integer above `i64::MAX`.
    UInt(u64),
    /// Exact decimal text such as `12.50`, or an integer too large for `u64`.
    Decimal(String),
    /// A number written with an exponent.
    Double(f64),
    /// A string's bytes, unescaped.
    Str(Vec<u8>),
}

/// What a `?` in `param_text` stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// `literals[i]`.
    Literal(usize),
    /// The `j`-th `?` of the original text (a prepared-statement parameter).
    Param(usize),
}

/// The result of [`normalize`]. Reusable: [`normalize_into`] clears and refills it, keeping
/// its buffers.
#[derive(Clone, Debug, Default)]
pub struct Normalized {
    /// The plan-cache key: the statement with its literals replaced by `?`.
    pub param_text: String,
    /// The values of the literals that became `?`, in text order.
    pub literals: Vec<Literal>,
    /// Byte span of each literal in the original text (e.g. for the column name of
    /// `SELECT 1+1`).
    pub literal_spans: Vec<(usize, usize)>,
    /// One entry per `?` of `param_text`, in order.
    pub placeholders: Vec<Mark>,
    /// MySQL 8.0's `DIGEST_TEXT`.
    pub digest_text: String,
    pub kind: StatementKind,
    tokens: Vec<Token>,
    digest_tokens: Vec<DToken>,
}

impl Normalized {
    fn clear(&mut self) {
        self.param_text.clear();
        self.literals.clear();
        self.literal_spans.clear();
        self.placeholders.clear();
        self.digest_text.clear();
        self.kind = StatementKind::Empty;
    }
}

/// Normalises one statement (see the module doc).
pub fn normalize(sql: &str, opts: &LexOptions) -> Result<Normalized, LexError> {
    let mut out = Normalized::default();
    normalize_into(&mut out, sql, opts)?;
    Ok(out)
}

/// [`normalize`] into an existing result, reusing its buffers. On error `out` holds partial
/// results and must not be used.
pub fn normalize_into(out: &mut Normalized, sql: &str, opts: &LexOptions) -> Result<(), LexError> {
    out.clear();
    let mut tokens = std::mem::take(&mut out.tokens);
    let mut digest_tokens = std::mem::take(&mut out.digest_tokens);
    let result = lex_into(sql, opts, &mut tokens).and_then(|()| {
        // A trailing `;` is not part of the statement (MySQL drops it from the digest too).
        while tokens.last().is_some_and(|t| t.is_op(sql, ";")) {
            tokens.pop();
        }
        out.kind = classify(sql, &tokens);
        let mut walk = Walk {
            sql,
            opts,
            tokens: &tokens,
            param: out.kind.is_parameterised(),
            set_statement: out.kind.is_set(),
            ddl: matches!(out.kind, StatementKind::Create(_) | StatementKind::Alter(_)),
            out,
            digest: DigestBuilder::new(&mut digest_tokens),
            params_seen: 0,
        };
        walk.run()?;
        digest::render(&digest_tokens, sql, &mut out.digest_text);
        Ok(())
    });
    out.tokens = tokens;
    out.digest_tokens = digest_tokens;
    result
}

struct Walk<'s, 'o, 'd> {
    sql: &'s str,
    opts: &'s LexOptions,
    tokens: &'s [Token],
    /// Literals become `?`.
    param: bool,
    set_statement: bool,
    ddl: bool,
    out: &'o mut Normalized,
    digest: DigestBuilder<'d>,
    params_seen: usize,
}

impl Walk<'_, '_, '_> {
    fn token(&self, i: usize) -> Option<&Token> {
        self.tokens.get(i)
    }

    fn before(&self, i: usize, back: usize) -> Option<&Token> {
        i.checked_sub(back).and_then(|j| self.tokens.get(j))
    }

    fn kw_at(&self, i: usize) -> Option<Kw> {
        self.token(i).and_then(Token::kw)
    }

    fn text(&self, t: &Token) -> &str {
        t.text(self.sql)
    }

    fn emit(&mut self, space_before: bool, text: &str) {
        if space_before && !self.out.param_text.is_empty() {
            self.out.param_text.push(' ');
        }
        self.out.param_text.push_str(text);
    }

    fn run(&mut self) -> Result<(), LexError> {
        let mut depth = 0usize;
        // Paren depth of an ORDER BY / GROUP BY list being read.
        let mut order_list: Option<usize> = None;
        let mut i = 0;
        while let Some(&t) = self.token(i) {
            match t.kind {
                TokenKind::Hint => {
                    // Dropped from param_text; the next token carries the separating space.
                    self.digest
                        .hint(self.sql, t.start + 3, t.end.saturating_sub(2), self.opts);
                }
                TokenKind::Keyword(k) => {
                    if k.kw == Kw::Lock
                        && self.kw_at(i + 1) == Some(Kw::In)
                        && self.kw_at(i + 2) == Some(Kw::Share)
                        && self.kw_at(i + 3) == Some(Kw::Mode)
                    {
                        self.emit(t.space_before, "FOR SHARE");
                        for j in i..i + 4 {
                            if let Some(TokenKind::Keyword(k)) = self.token(j).map(|t| t.kind) {
                                self.digest.keyword(k.printed, k.kw);
                            }
                        }
                        i += 4;
                        continue;
                    }
                    match k.kw {
                        Kw::By
                            if matches!(
                                self.before(i, 1).and_then(Token::kw),
                                Some(Kw::Order | Kw::Group)
                            ) =>
                        {
                            order_list = Some(depth);
                        }
                        Kw::Limit
                        | Kw::Having
                        | Kw::Window
                        | Kw::For
                        | Kw::Lock
                        | Kw::Union
                        | Kw::Into
                        | Kw::With
                            if order_list == Some(depth) =>
                        {
                            order_list = None;
                        }
                        _ => {}
                    }
                    let text = t.text(self.sql);
                    self.emit(t.space_before, text);
                    if k.kw == Kw::Null && self.null_is_literal(i) {
                        self.digest.value();
                    } else {
                        self.digest.keyword(k.printed, k.kw);
                    }
                }
                TokenKind::Ident => {
                    let text = t.text(self.sql);
                    self.emit(t.space_before, text);
                    let introduces = is_charset_introducer(text)
                        && matches!(
                            self.token(i + 1).map(|t| t.kind),
                            Some(
                                TokenKind::Str
                                    | TokenKind::HexStr
                                    | TokenKind::BitStr
                                    | TokenKind::HexNum
                                    | TokenKind::BitNum
                            )
                        );
                    if introduces {
                        self.digest.charset();
                        // The introduced literal is part of the statement's shape.
                        i = self.literal(i + 1, true)?;
                        continue;
                    }
                    self.digest.ident(self.sql, t.start, t.end, 0, false);
                }
                TokenKind::QuotedIdent => {
                    self.quoted_ident(&t, t.space_before, "");
                    let quote = self.sql.as_bytes().get(t.start).copied().unwrap_or(b'`');
                    self.digest
                        .ident(self.sql, t.start + 1, t.end.saturating_sub(1), quote, false);
                }
                TokenKind::UserVar => {
                    let second = self.sql.as_bytes().get(t.start + 1).copied().unwrap_or(0);
                    let quoted_ident = second == b'`' || (second == b'"' && self.opts.ansi_quotes);
                    if second == b'"' && self.opts.ansi_quotes {
                        let inner = Token {
                            start: t.start + 1,
                            ..t
                        };
                        self.quoted_ident(&inner, t.space_before, "@");
                    } else {
                        let text = t.text(self.sql);
                        self.emit(t.space_before, text);
                    }
                    self.digest.at();
                    if quoted_ident {
                        self.digest.ident(
                            self.sql,
                            t.start + 2,
                            t.end.saturating_sub(1),
                            second,
                            false,
                        );
                    } else {
                        // MySQL lexes the name as LEX_HOSTNAME or a string: a value.
                        self.digest.value();
                    }
                }
                TokenKind::SysVarPrefix => {
                    self.emit(t.space_before, "@@");
                    self.digest.at();
                    self.digest.at();
                }
                TokenKind::Param => {
                    self.emit(t.space_before, "?");
                    self.out.placeholders.push(Mark::Param(self.params_seen));
                    self.params_seen += 1;
                    self.digest.value();
                }
                TokenKind::Op => {
                    let text = t.text(self.sql);
                    match text {
                        "(" => depth += 1,
                        ")" => {
                            depth = depth.saturating_sub(1);
                            if order_list.is_some_and(|d| d > depth) {
                                order_list = None;
                            }
                        }
                        ";" => order_list = None,
                        _ => {}
                    }
                    let printed = if self.set_statement && text == ":=" {
                        "="
                    } else {
                        text
                    };
                    self.emit(t.space_before, printed);
                    self.digest.op(text);
                }
                TokenKind::Str
                | TokenKind::NationalStr
                | TokenKind::HexStr
                | TokenKind::BitStr
                | TokenKind::HexNum
                | TokenKind::BitNum
                | TokenKind::Int
                | TokenKind::Decimal
                | TokenKind::Float => {
                    let inline = !self.param || self.keep_inline(i, depth, order_list);
                    i = self.literal(i, inline)?;
                    continue;
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// Writes a quoted identifier as a back-quoted one (`"a""b"` → `` `a"b` ``), after
    /// `prefix`.
    fn quoted_ident(&mut self, t: &Token, space_before: bool, prefix: &str) {
        let text = t.text(self.sql);
        if text.starts_with('`') {
            let whole = self
                .sql
                .get(t.start.saturating_sub(prefix.len())..t.end)
                .unwrap_or(text);
            self.emit(space_before, whole);
            return;
        }
        let inner = text
            .get(1..text.len().saturating_sub(1))
            .unwrap_or_default()
            .replace("\"\"", "\"")
            .replace('`', "``");
        self.emit(space_before, prefix);
        self.out.param_text.push('`');
        self.out.param_text.push_str(&inner);
        self.out.param_text.push('`');
    }

    /// Handles the literal starting at token `i` (with the strings adjacent to it); returns
    /// the index after it.
    fn literal(&mut self, i: usize, inline: bool) -> Result<usize, LexError> {
        let Some(&first) = self.token(i) else {
            return Ok(i);
        };
        let mut end = i + 1;
        if matches!(first.kind, TokenKind::Str | TokenKind::NationalStr) {
            while self.token(end).is_some_and(|t| t.kind == TokenKind::Str) {
                end += 1;
            }
        }
        for j in i..end {
            match self.token(j).map(|t| t.kind) {
                Some(TokenKind::Str | TokenKind::NationalStr) => self.digest.value(),
                _ => self.digest.number(),
            }
        }
        if inline {
            for j in i..end {
                if let Some(&t) = self.token(j) {
                    self.inline_literal(&t);
                }
            }
            return Ok(end);
        }
        let value = self.decode(i, end)?;
        let last_end = self.token(end - 1).map_or(first.end, |t| t.end);
        self.out.literals.push(value);
        self.out.literal_spans.push((first.start, last_end));
        self.out
            .placeholders
            .push(Mark::Literal(self.out.literals.len() - 1));
        self.emit(first.space_before, "?");
        Ok(end)
    }

    /// Writes a literal as it stands, re-quoting a string only when sqlparser would read its
    /// backslashes differently (`NO_BACKSLASH_ESCAPES`).
    fn inline_literal(&mut self, t: &Token) {
        let text = t.text(self.sql);
        let is_string = matches!(t.kind, TokenKind::Str | TokenKind::NationalStr);
        if !(is_string && self.opts.no_backslash_escapes && text.contains('\\')) {
            self.emit(t.space_before, text);
            return;
        }
        let (prefix, quoted) = match t.kind {
            TokenKind::NationalStr => text.split_at(1),
            _ => ("", text),
        };
        let quote = quoted.as_bytes().first().copied().unwrap_or(b'\'');
        let body = quoted
            .as_bytes()
            .get(1..quoted.len().saturating_sub(1))
            .unwrap_or_default();
        let mut bytes = Vec::with_capacity(body.len());
        unescape_into(body, quote, false, &mut bytes);
        let value = String::from_utf8_lossy(&bytes);
        self.emit(t.space_before, prefix);
        self.out.param_text.push('\'');
        for c in value.chars() {
            match c {
                '\\' => self.out.param_text.push_str("\\\\"),
                '\'' => self.out.param_text.push_str("''"),
                _ => self.out.param_text.push(c),
            }
        }
        self.out.param_text.push('\'');
    }

    /// The value of the literal made of tokens `i..end`.
    fn decode(&self, i: usize, end: usize) -> Result<Literal, LexError> {
        let Some(first) = self.token(i) else {
            return Ok(Literal::Str(Vec::new()));
        };
        let text = self.text(first);
        Ok(match first.kind {
            TokenKind::Int => match text.parse::<u64>() {
                Ok(v) => i64::try_from(v).map_or(Literal::UInt(v), Literal::Int),
                Err(_) => Literal::Decimal(text.trim_start_matches('0').to_string()),
            },
            TokenKind::Decimal => {
                let mut s = String::with_capacity(text.len() + 1);
                if text.starts_with('.') {
                    s.push('0');
                }
                s.push_str(text.strip_suffix('.').unwrap_or(text));
                Literal::Decimal(s)
            }
            TokenKind::Float => match text.parse::<f64>() {
                Ok(v) if v.is_finite() => Literal::Double(v),
                _ => {
                    return Err(LexError {
                        kind: LexErrorKind::IllegalDouble,
                        offset: first.start,
                    });
                }
            },
            _ => {
                let pieces = self.tokens.get(i..end).unwrap_or_default();
                let mut bytes = Vec::with_capacity(pieces.iter().map(|t| t.end - t.start).sum());
                for t in pieces {
                    let quoted = self.text(t);
                    let quoted = if t.kind == TokenKind::NationalStr {
                        quoted.get(1..).unwrap_or_default()
                    } else {
                        quoted
                    };
                    let quote = quoted.as_bytes().first().copied().unwrap_or(b'\'');
                    let body = quoted
                        .as_bytes()
                        .get(1..quoted.len().saturating_sub(1))
                        .unwrap_or_default();
                    unescape_into(body, quote, !self.opts.no_backslash_escapes, &mut bytes);
                }
                super::lexer::unmap_raw_bytes(&mut bytes);
                Literal::Str(bytes)
            }
        })
    }

    /// Whether the literal at token `i` keeps its place in a parameterised statement (see
    /// the module doc for the list).
    fn keep_inline(&self, i: usize, depth: usize, order_list: Option<usize>) -> bool {
        let Some(t) = self.token(i) else {
            return true;
        };
        let prev = self.before(i, 1);
        let prev_kw = prev.and_then(Token::kw);
        let prev2_kw = self.before(i, 2).and_then(Token::kw);
        let prev_is = |op: &str| prev.is_some_and(|p| p.is_op(self.sql, op));
        match t.kind {
            TokenKind::HexStr | TokenKind::BitStr | TokenKind::HexNum | TokenKind::BitNum => true,
            TokenKind::Str | TokenKind::NationalStr => {
                let Some(prev) = prev else {
                    return false;
                };
                match prev.kind {
                    TokenKind::Keyword(k) => match k.kw {
                        Kw::Collate
                        | Kw::Charset
                        | Kw::Date
                        | Kw::Time
                        | Kw::Timestamp
                        | Kw::Separator
                        | Kw::As
                        | Kw::Outfile
                        | Kw::Dumpfile => true,
                        Kw::Set => prev2_kw == Some(Kw::Char),
                        Kw::By => matches!(
                            prev2_kw,
                            Some(Kw::Terminated | Kw::Enclosed | Kw::Escaped | Kw::Starting)
                        ),
                        // After a keyword that ends an expression (`NULL`, `END`, a column
                        // named like a keyword) a string is an alias.
                        kw => !kw.expects_expr(),
                    },
                    TokenKind::Op => matches!(self.text(prev), "->" | "->>" | ")"),
                    TokenKind::SysVarPrefix | TokenKind::Hint => false,
                    // A string right after an expression is its alias.
                    _ => true,
                }
            }
            _ => {
                let positional = t.kind == TokenKind::Int
                    && order_list == Some(depth)
                    && (prev_kw == Some(Kw::By) || prev_is(","))
                    && !self.is_operator(i + 1);
                positional || self.is_type_length(i)
            }
        }
    }

    /// The number at `i` is a length or precision: `TYPE(n)` or `TYPE(n, m)` (a longer list,
    /// such as `CHAR(77, 121, 83)`, is a function call).
    fn is_type_length(&self, i: usize) -> bool {
        let is_type = |t: Option<&Token>| {
            matches!(
                t.and_then(Token::kw),
                Some(Kw::TypeWithLength | Kw::Char | Kw::Binary | Kw::Time | Kw::Timestamp)
            )
        };
        let op_at = |j: Option<usize>, op: &str| {
            j.and_then(|j| self.token(j))
                .is_some_and(|t| t.is_op(self.sql, op))
        };
        let int_at = |j: Option<usize>| {
            j.and_then(|j| self.token(j))
                .is_some_and(|t| t.kind == TokenKind::Int)
        };
        let back = |n: usize| i.checked_sub(n);
        let ahead = |n: usize| i.checked_add(n);
        // `TYPE ( n )` or `TYPE ( n , m )`, seen from n
        let first = op_at(back(1), "(")
            && is_type(self.before(i, 2))
            && (op_at(ahead(1), ")")
                || (op_at(ahead(1), ",") && int_at(ahead(2)) && op_at(ahead(3), ")")));
        // `TYPE ( n , m )`, seen from m
        let second = op_at(back(1), ",")
            && int_at(back(2))
            && op_at(back(3), "(")
            && is_type(self.before(i, 4))
            && op_at(ahead(1), ")");
        first || second
    }

    /// Token `i` is a binary operator (so a number before it is an operand, not a position).
    fn is_operator(&self, i: usize) -> bool {
        match self.token(i) {
            None => false,
            Some(t) => match t.kind {
                TokenKind::Op => !matches!(self.text(t), "," | ")" | ";"),
                TokenKind::Keyword(k) => matches!(
                    k.kw,
                    Kw::And
                        | Kw::Or
                        | Kw::Xor
                        | Kw::Div
                        | Kw::Mod
                        | Kw::Is
                        | Kw::Like
                        | Kw::Regexp
                        | Kw::Between
                        | Kw::In
                        | Kw::Not
                        | Kw::Collate
                        | Kw::Sounds
                ),
                _ => false,
            },
        }
    }

    /// Whether the `NULL` at token `i` is a literal (digest `?`) rather than the keyword of
    /// `IS NULL`, `NOT NULL`, `SET NULL`, a column attribute or JSON's `NULL ON EMPTY`.
    fn null_is_literal(&self, i: usize) -> bool {
        if self.kw_at(i + 1) == Some(Kw::On)
            && matches!(self.kw_at(i + 2), Some(Kw::Empty | Kw::Error))
        {
            return false;
        }
        let Some(prev) = self.before(i, 1) else {
            return false;
        };
        match prev.kind {
            TokenKind::Op => !matches!(self.text(prev), ")" | "}"),
            TokenKind::Keyword(k) => match k.kw {
                Kw::Is | Kw::Not | Kw::Set => false,
                // `a BINARY NULL` in a column definition is a type and an attribute.
                Kw::Binary if self.ddl => match self.before(i, 2) {
                    Some(p) => match p.kind {
                        TokenKind::Keyword(k) => k.kw.expects_expr(),
                        TokenKind::Op => !matches!(self.text(p), ")" | "}"),
                        _ => false,
                    },
                    None => false,
                },
                kw => kw.expects_expr(),
            },
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokens;
    use sqlparser::dialect::MySqlDialect;
    use sqlparser::parser::Parser;
    use sqlparser::tokenizer::{Token as SqlToken, Tokenizer};

    const CORPUS: &str = include_str!("testscripts/lexer_corpus.sql");

    /// Blocks of the corpus: (markers, statement text).
    fn corpus() -> Vec<(Vec<&'static str>, &'static str)> {
        CORPUS
            .split("\n\n")
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .map(|b| {
                let markers = b.lines().filter_map(|l| l.strip_prefix("-- @")).collect();
                (markers, b)
            })
            .collect()
    }

    fn parse_display(sql: &str) -> Result<String, String> {
        Parser::parse_sql(&MySqlDialect {}, sql)
            .map(|stmts| {
                stmts
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .map_err(|e| e.to_string())
    }

    /// Re-tokenises `text` with sqlparser and prints it back, so that both sides of a
    /// comparison go through the same printing.
    fn retokenize(text: &str) -> Vec<SqlToken> {
        Tokenizer::new(&MySqlDialect {}, text)
            .tokenize()
            .unwrap_or_else(|e| panic!("tokenize {text:?}: {e}"))
    }

    fn join(tokens: &[SqlToken]) -> String {
        tokens.iter().map(ToString::to_string).collect()
    }

    /// sqlparser's printing of the literal written as `src`.
    fn literal_display(src: &str) -> String {
        let expr = Parser::new(&MySqlDialect {})
            .try_with_sql(src)
            .and_then(|mut p| p.parse_expr())
            .unwrap_or_else(|e| panic!("literal {src:?}: {e}"));
        join(&retokenize(&expr.to_string()))
    }

    /// The printed parameterised AST with every `?` replaced by its literal's printing.
    fn substitute(display: &str, n: &Normalized, sql: &str) -> String {
        let mut marks = n.placeholders.iter();
        let mut out = String::new();
        for t in retokenize(display) {
            match &t {
                SqlToken::Placeholder(p) if p == "?" => match marks.next() {
                    Some(Mark::Literal(i)) => {
                        let (a, b) = n.literal_spans[*i];
                        out.push_str(&literal_display(&sql[a..b]));
                    }
                    Some(Mark::Param(_)) => out.push('?'),
                    None => panic!("more ? than marks in {display:?}"),
                },
                _ => out.push_str(&t.to_string()),
            }
        }
        assert!(marks.next().is_none(), "fewer ? than marks in {display:?}");
        out
    }

    fn options(markers: &[&str]) -> LexOptions {
        LexOptions {
            ansi_quotes: markers.contains(&"ansi"),
            no_backslash_escapes: markers.contains(&"nbe"),
            ..LexOptions::default()
        }
    }

    fn norm(sql: &str) -> Normalized {
        normalize(sql, &LexOptions::default()).unwrap_or_else(|e| panic!("{sql}: {e:?}"))
    }

    #[test]
    fn literal_values() {
        let n = norm(
            "SELECT 5, 9223372036854775807, 9223372036854775808, 18446744073709551616, \
             12.50, .5, 1., 1e3, 1.5E-2, 'a\\nb' 'c', N'x', 'it''s'",
        );
        assert_eq!(
            n.literals,
            [
                Literal::Int(5),
                Literal::Int(i64::MAX),
                Literal::UInt(9_223_372_036_854_775_808),
                Literal::Decimal("18446744073709551616".to_string()),
                Literal::Decimal("12.50".to_string()),
                Literal::Decimal("0.5".to_string()),
                Literal::Decimal("1".to_string()),
                Literal::Double(1000.0),
                Literal::Double(0.015),
                Literal::Str(b"a\nbc".to_vec()),
                Literal::Str(b"x".to_vec()),
                Literal::Str(b"it's".to_vec()),
            ]
        );
        assert_eq!(n.param_text, "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?");
        let sql = "SELECT 1+1, 'a' 'b'";
        let n = norm(sql);
        let spans: Vec<&str> = n.literal_spans.iter().map(|&(a, b)| &sql[a..b]).collect();
        assert_eq!(spans, ["1", "1", "'a' 'b'"]);
        // A leading minus stays in the text.
        let n = norm("SELECT a FROM t WHERE b = -7");
        assert_eq!(
            (n.param_text.as_str(), &n.literals[..]),
            ("SELECT a FROM t WHERE b = -?", &[Literal::Int(7)][..])
        );
        // Out-of-range doubles are MySQL's error 1367.
        let sql = "SELECT 1e400";
        let err = normalize(sql, &LexOptions::default()).expect_err("1e400 overflows");
        assert_eq!(err.kind, LexErrorKind::IllegalDouble);
        let my = err.to_my_error(sql);
        assert_eq!(
            (my.code, my.message.as_str()),
            (1367, "Illegal double '1e400' value found during parsing")
        );
    }

    #[test]
    fn placeholders_tell_literals_from_parameters() {
        let n = norm("SELECT * FROM t WHERE a = ? AND b = 'x' AND c = ? LIMIT 3");
        assert_eq!(
            n.param_text,
            "SELECT * FROM t WHERE a = ? AND b = ? AND c = ? LIMIT ?"
        );
        assert_eq!(
            n.placeholders,
            [
                Mark::Param(0),
                Mark::Literal(0),
                Mark::Param(1),
                Mark::Literal(1)
            ]
        );
    }

    #[test]
    fn statements_that_are_not_parameterised_keep_their_literals() {
        for sql in [
            "SET @a = 5",
            "CREATE TABLE t (a INT DEFAULT 7)",
            "SHOW VARIABLES LIKE 'x%'",
        ] {
            let n = norm(sql);
            assert!(n.literals.is_empty() && n.placeholders.is_empty(), "{sql}");
            assert_eq!(n.param_text, sql);
        }
        assert_eq!(norm("SET @a := 1, b := 2").param_text, "SET @a = 1, b = 2");
        // `:=` stays outside SET.
        assert_eq!(norm("SELECT @a := 1").param_text, "SELECT @a := ?");
    }

    #[test]
    fn cleaning() {
        let n = norm("  SELECT\t/* c */a ,\n b -- x\n FROM t # y\n WHERE c = 'd' ;; ");
        assert_eq!(n.param_text, "SELECT a , b FROM t WHERE c = ?");
        assert_eq!(n.kind, StatementKind::Select);
        let n = norm("SELECT/*+ BKA(t) */a FROM t LOCK IN SHARE MODE");
        assert_eq!(n.param_text, "SELECT a FROM t FOR SHARE");
        let n = norm("SELECT a FROM t\0WHERE garbage");
        assert_eq!(n.param_text, "SELECT a FROM t");
        let empty = norm(" /* nothing */ ");
        assert_eq!(empty.kind, StatementKind::Empty);
        assert_eq!(
            (empty.param_text.as_str(), empty.digest_text.as_str()),
            ("", "")
        );
    }

    #[test]
    fn sql_modes() {
        let ansi = LexOptions {
            ansi_quotes: true,
            ..LexOptions::default()
        };
        let n = normalize(r#"SELECT "a""b", @"v" FROM "t" WHERE x = 'y'"#, &ansi).expect("lexes");
        assert_eq!(n.param_text, "SELECT `a\"b`, @`v` FROM `t` WHERE x = ?");
        assert_eq!(n.digest_text, "SELECT `a\"b` , @`v` FROM `t` WHERE `x` = ?");
        let nbe = LexOptions {
            no_backslash_escapes: true,
            ..LexOptions::default()
        };
        let n =
            normalize(r"SELECT a FROM t WHERE b = 'C:\dir' COLLATE 'x\y'", &nbe).expect("lexes");
        assert_eq!(n.literals, [Literal::Str(br"C:\dir".to_vec())]);
        // Kept inline, the string is re-quoted so that a backslash-escaping parser reads the
        // same value.
        assert_eq!(n.param_text, r"SELECT a FROM t WHERE b = ? COLLATE 'x\\y'");
    }

    #[test]
    fn structural_literals_stay_inline() {
        let cases = [
            (
                "SELECT CAST(a AS DECIMAL(10,2)) FROM t",
                "SELECT CAST(a AS DECIMAL(10,2)) FROM t",
            ),
            ("SELECT CONVERT(a, CHAR(10))", "SELECT CONVERT(a, CHAR(10))"),
            (
                "SELECT a FROM t ORDER BY 2 DESC, 1",
                "SELECT a FROM t ORDER BY 2 DESC, 1",
            ),
            (
                "SELECT a FROM t GROUP BY 1 ORDER BY a + 1",
                "SELECT a FROM t GROUP BY 1 ORDER BY a + ?",
            ),
            (
                "SELECT a FROM t WHERE b = x'41' OR c = 0b1",
                "SELECT a FROM t WHERE b = x'41' OR c = 0b1",
            ),
            (
                "SELECT _utf8mb4'x', _binary 'y'",
                "SELECT _utf8mb4'x', _binary 'y'",
            ),
            (
                "SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00'",
                "SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00'",
            ),
            (
                "SELECT a COLLATE 'utf8mb4_bin', CONVERT(b USING utf8mb4)",
                "SELECT a COLLATE 'utf8mb4_bin', CONVERT(b USING utf8mb4)",
            ),
            (
                "SELECT GROUP_CONCAT(a SEPARATOR ';') FROM t",
                "SELECT GROUP_CONCAT(a SEPARATOR ';') FROM t",
            ),
            (
                "SELECT j->'$.a', j->>'$.b' FROM t",
                "SELECT j->'$.a', j->>'$.b' FROM t",
            ),
            ("SELECT 1 AS 'one', 2 'two'", "SELECT ? AS 'one', ? 'two'"),
            ("SELECT NULL, TRUE, FALSE", "SELECT NULL, TRUE, FALSE"),
            (
                "SELECT NOW() - INTERVAL 1 DAY",
                "SELECT NOW() - INTERVAL ? DAY",
            ),
        ];
        for (sql, expected) in cases {
            assert_eq!(norm(sql).param_text, expected, "{sql}");
        }
    }

    #[test]
    fn normalize_into_reuses_buffers() {
        let mut n = Normalized::default();
        normalize_into(
            &mut n,
            "INSERT INTO t VALUES (1, 'a'), (2, 'b')",
            &LexOptions::default(),
        )
        .expect("lexes");
        assert_eq!(n.literals.len(), 4);
        let capacity = n.param_text.capacity();
        normalize_into(
            &mut n,
            "SELECT c FROM t WHERE id = 5",
            &LexOptions::default(),
        )
        .expect("lexes");
        assert_eq!(n.param_text, "SELECT c FROM t WHERE id = ?");
        assert_eq!(n.literals, [Literal::Int(5)]);
        assert_eq!(n.placeholders, [Mark::Literal(0)]);
        assert_eq!(n.kind, StatementKind::Select);
        assert_eq!(n.param_text.capacity(), capacity);
        assert!(normalize_into(&mut n, "SELECT 'oops", &LexOptions::default()).is_err());
    }

    #[test]
    fn corpus_round_trips() {
        let blocks = corpus();
        let mut checked = 0;
        let mut failures = Vec::new();
        for (markers, sql) in &blocks {
            let opts = options(markers);
            let n = normalize(sql, &opts).unwrap_or_else(|e| panic!("{sql}: {e:?}"));
            if n.kind == StatementKind::Empty {
                continue;
            }
            checked += 1;
            // Invariants that hold for every statement.
            let params = tokens(&n.param_text, &LexOptions::default())
                .filter(|t| t.as_ref().is_ok_and(|t| t.kind == TokenKind::Param))
                .count();
            assert_eq!(params, n.placeholders.len(), "{sql}\n=> {}", n.param_text);
            assert_eq!(n.literals.len(), n.literal_spans.len());
            if !n.kind.is_parameterised() {
                assert!(n.literals.is_empty(), "{sql}");
            }
            for (lit, &(a, b)) in n.literals.iter().zip(&n.literal_spans) {
                let again = normalize(&format!("SELECT {}", &sql[a..b]), &opts).expect("literal");
                assert_eq!(
                    again.literals.first(),
                    Some(lit),
                    "{sql}: span {:?}",
                    &sql[a..b]
                );
            }
            assert!(!n.digest_text.is_empty(), "{sql}");
            assert_eq!(digest_hex(&n).len(), 64);
            // The parameterised text parses whenever it can, and means the same statement.
            // Hints are dropped from param_text by design: compare without them.
            let unhinted;
            let original_sql = if markers.contains(&"hint") {
                let a = sql.find("/*+").expect("a hint");
                let b = a + sql[a..].find("*/").expect("hint end") + 2;
                unhinted = format!("{}{}", &sql[..a], &sql[b..]);
                unhinted.as_str()
            } else {
                sql
            };
            let original = parse_display(original_sql);
            let param = parse_display(&n.param_text);
            let rejects_original = markers.contains(&"rejects-original");
            let param_unparsed = markers.contains(&"param-unparsed");
            match (&original, &param) {
                (Ok(_), Ok(_)) if markers.contains(&"sqlparser-differs") => {}
                (Ok(orig), Ok(par)) if !rejects_original && !param_unparsed => {
                    let mut expected_tokens = retokenize(orig);
                    if n.kind.is_set() {
                        // `:=` is rewritten to `=` in SET statements.
                        for t in &mut expected_tokens {
                            if *t == SqlToken::Assignment {
                                *t = SqlToken::Eq;
                            }
                        }
                    }
                    let expected = join(&expected_tokens);
                    let got = substitute(par, &n, sql);
                    if expected != got {
                        failures.push(format!(
                            "{sql}\n  param: {}\n  original: {expected}\n  substituted: {got}",
                            n.param_text
                        ));
                    }
                }
                (Err(_), Ok(_)) if rejects_original && !param_unparsed => {}
                (Err(_), Err(_)) if rejects_original && param_unparsed => {}
                _ => failures.push(format!(
                    "{sql}\n  param: {}\n  original: {original:?}\n  param parse: {param:?}",
                    n.param_text
                )),
            }
        }
        assert!(
            failures.is_empty(),
            "{} failures:\n{}",
            failures.len(),
            failures.join("\n\n")
        );
        assert!(checked >= 150, "corpus has only {checked} statements");
    }
}
