//! Statement digests: MySQL 8.0's `DIGEST_TEXT`, built from the lexer's tokens.
//!
//! `performance_schema.events_statements_summary_by_digest` groups statements by a normalised
//! text; tools (`sys` views, PMM, `pt-query-digest --type=perfschema`) key on it, so we print
//! exactly what MySQL 8.0 prints. MySQL does not rewrite text: while its lexer runs, each
//! token is appended to a small token array (`sql/sql_digest.cc`, `digest_add_token`), and a
//! handful of reductions are applied *as tokens arrive*, looking back at most three tokens:
//!
//! | arriving token | looking back at | becomes |
//! |---|---|---|
//! | number, hex, bit literal | `-`/`+` after a token that starts an expression | the sign is dropped (`SELECT -1` → `SELECT ?`, but `a = -1` → `` `a` = - ? ``, because `=` is not in MySQL's `m_start_expr` list) |
//! | any literal, `?`, `@name`, literal `NULL` | `?`/`?, ...` `,` | `?, ...` |
//! | `)` | `( ?` | `(?)`; then `(?) , (?)` → `(?) /* , ... */`, `IN (?)` → `IN (...)` |
//! | `)` | `( ?, ...` | `(...)`; then `(...) , (...)` → `(...) /* , ... */`, `IN (...)` |
//!
//! Look-back never crosses an identifier: `` `a` , 1 , 2 `` keeps the `` `a` , `` and reduces
//! only what follows. The text is then printed token by token with one space after each
//! (none after `@`, so `@@` variables print as `@@SESSION . `x``; none at the end):
//! keywords upper case under their canonical `lex.h` name ([`super::keywords`]), identifiers
//! back-quoted as written (case kept), operators as themselves (`<>` prints as `!=`).
//! Identifiers longer than 64 bytes print as `...`; identifiers with characters outside the
//! BMP are dropped (MySQL converts them to utf8mb3 and fails). A charset introducer prints as
//! `(_charset)`, a user variable `@name` as `@?` (MySQL lexes the name as a host name, a
//! value), `@@x` as ``@@`x` ``. Optimizer hints are kept: `/*+ BKA ( `t1` ) */`.
//!
//! `NULL` is a literal (`?`) or a keyword depending on the grammar rule MySQL's parser reduces
//! it with; without the parser we decide from the token before it: after `(`, `,`, an
//! operator, or a keyword that introduces an expression (`SELECT`, `WHERE`, `DEFAULT`, `THEN`,
//! …) it is a literal; after `IS`, `NOT`, `SET` (`ON DELETE SET NULL`), a type or anything
//! else (a column attribute `c INT NULL`) it stays `NULL`, as does JSON's `NULL ON EMPTY`.
//!
//! The token array is limited to [`MAX_DIGEST_LENGTH_BYTES`] bytes as MySQL's
//! `max_digest_length` (default 1024) limits it: a token costs 2 bytes, an identifier
//! 4 + its length; when the next token does not fit, collection stops for the rest of the
//! statement (no `...` is appended — that is MySQL 8.0's behaviour; 5.6 appended one).
//!
//! # Known differences
//!
//! - The `NULL` rule above is a heuristic; MySQL decides by grammar rule. The cases in the
//!   tests (`IS [NOT] NULL`, `NOT NULL`, `DEFAULT NULL`, `SET NULL`, `VALUES (NULL)`,
//!   JSON's `NULL ON EMPTY`) agree; odd ones such as `SELECT NOT NULL` print `NULL` where
//!   MySQL prints `?`.
//! - Synonym spellings print by the "last name in `lex.h`" rule; most are confirmed by MySQL
//!   output, a few are inferred (`USER` → `SYSTEM_USER`, `MEDIUMINT` → `MIDDLEINT`).
//! - Keywords added to 8.0 after 8.0.32 print as identifiers (see [`super::keywords`]).
//!
//! [`digest_hex`] is the SHA-256 of the digest *text*. MySQL's `DIGEST` column hashes its
//! internal token array instead, so the two hex strings differ; ours is stable across Quire
//! versions as long as the text is.

use sha2::{Digest, Sha256};

use super::keywords::{self, Kw};
use super::lexer::{LexOptions, is_ident_byte};
use super::normalize::Normalized;

/// MySQL's `max_digest_length` default: bytes of token storage per statement.
pub const MAX_DIGEST_LENGTH_BYTES: usize = 1024;

/// MySQL prints identifiers longer than this (in utf8mb3 bytes, 3 per character) as `...`.
const NAME_LEN_BYTES: usize = 64 * 3;

/// Storage cost of a token in MySQL's digest array.
const TOKEN_BYTES: usize = 2;

/// What the reductions need to know about a stored token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    Other,
    Ident,
    LParen,
    Comma,
    Minus,
    Plus,
    In,
    Value,
    ValueList,
    RowSingle,
    RowSingleList,
    RowMulti,
    RowMultiList,
    InExpr,
}

/// How a stored token prints.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Text {
    /// Fixed text followed by a space.
    Word(&'static str),
    /// `@`, not followed by a space.
    At,
    /// An identifier at `start..end` of the statement text; `quote` is the quote character
    /// of a quoted identifier (doubled inside), 0 for a bare word. `at` is MySQL's
    /// `TOK_IDENT_AT` (hint `t1@qb`): no space after it.
    Ident {
        start: usize,
        end: usize,
        quote: u8,
        at: bool,
    },
}

/// A token in the digest array.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DToken {
    tag: Tag,
    /// MySQL's `m_start_expr`: a `+`/`-` after it is unary.
    start_expr: bool,
    text: Text,
}

impl DToken {
    fn word(tag: Tag, start_expr: bool, text: &'static str) -> DToken {
        DToken {
            tag,
            start_expr,
            text: Text::Word(text),
        }
    }

    fn value(tag: Tag) -> DToken {
        let text = match tag {
            Tag::ValueList => "?, ...",
            Tag::RowSingle => "(?)",
            Tag::RowSingleList => "(?) /* , ... */",
            Tag::RowMulti => "(...)",
            Tag::RowMultiList => "(...) /* , ... */",
            Tag::InExpr => "IN (...)",
            _ => "?",
        };
        DToken::word(tag, false, text)
    }
}

/// Accumulates one statement's digest tokens, applying MySQL's reductions.
pub(crate) struct DigestBuilder<'a> {
    toks: &'a mut Vec<DToken>,
    bytes_used: usize,
    /// Index after the last identifier: reductions never look at or before it.
    last_ident: usize,
    full: bool,
}

/// Printable text of a single ASCII byte, for operator characters without a name.
const ASCII: &str = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\
\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f \
!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f";

fn static_op(text: &str) -> &'static str {
    match text.as_bytes() {
        [b] if b.is_ascii() => ASCII
            .get(usize::from(*b)..usize::from(*b) + 1)
            .unwrap_or("?"),
        b"<=>" => "<=>",
        b"->>" => "->>",
        b"<=" => "<=",
        b">=" => ">=",
        b"<>" => "<>",
        b"!=" => "!=",
        b"<<" => "<<",
        b">>" => ">>",
        b"&&" => "&&",
        b"||" => "||",
        b":=" => ":=",
        b"->" => "->",
        _ => "?",
    }
}

impl<'a> DigestBuilder<'a> {
    pub(crate) fn new(toks: &'a mut Vec<DToken>) -> DigestBuilder<'a> {
        toks.clear();
        DigestBuilder {
            toks,
            bytes_used: 0,
            last_ident: 0,
            full: false,
        }
    }

    fn store(&mut self, tok: DToken, size: usize) -> bool {
        if self.bytes_used + size <= MAX_DIGEST_LENGTH_BYTES {
            self.toks.push(tok);
            self.bytes_used += size;
            true
        } else {
            self.full = true;
            false
        }
    }

    /// The last two tokens after the last identifier (MySQL's `peek_last_two_tokens`).
    fn last_two(&self) -> (Option<DToken>, Option<DToken>) {
        let n = self.toks.len();
        let t1 = if n > self.last_ident {
            self.toks.get(n - 1).copied()
        } else {
            None
        };
        let t2 = if n >= self.last_ident + 2 {
            self.toks.get(n - 2).copied()
        } else {
            None
        };
        (t1, t2)
    }

    /// Drops `count` non-identifier tokens (only ever those `last_two` returned).
    fn pop(&mut self, count: usize) {
        let n = self.toks.len();
        debug_assert!(
            n >= self.last_ident + count,
            "digest pop crosses an identifier"
        );
        self.toks.truncate(n.saturating_sub(count));
        self.bytes_used = self.bytes_used.saturating_sub(count * TOKEN_BYTES);
    }

    /// A keyword, printed as `printed`.
    pub(crate) fn keyword(&mut self, printed: &'static str, kw: Kw) {
        if self.full {
            return;
        }
        let tag = if kw == Kw::In { Tag::In } else { Tag::Other };
        self.store(DToken::word(tag, kw.starts_expr(), printed), TOKEN_BYTES);
    }

    /// An operator or punctuation token.
    pub(crate) fn op(&mut self, text: &str) {
        if self.full {
            return;
        }
        let tok = match text {
            ")" => return self.close_paren(),
            "(" => DToken::word(Tag::LParen, true, "("),
            "," => DToken::word(Tag::Comma, true, ","),
            "-" => DToken::word(Tag::Minus, true, "-"),
            "+" => DToken::word(Tag::Plus, true, "+"),
            "<>" => DToken::word(Tag::Other, false, "!="),
            "|" | "&" | "<<" | ">>" | "*" | "/" | "%" | "^" | "||" | "&&" => {
                DToken::word(Tag::Other, true, static_op(text))
            }
            _ => DToken::word(Tag::Other, false, static_op(text)),
        };
        self.store(tok, TOKEN_BYTES);
    }

    /// `@` (no space after it).
    pub(crate) fn at(&mut self) {
        if self.full {
            return;
        }
        let tok = DToken {
            tag: Tag::Other,
            start_expr: false,
            text: Text::At,
        };
        self.store(tok, TOKEN_BYTES);
    }

    /// A charset introducer (`_utf8mb4`): MySQL's `UNDERSCORE_CHARSET` token.
    pub(crate) fn charset(&mut self) {
        if self.full {
            return;
        }
        self.store(DToken::word(Tag::Other, false, "(_charset)"), TOKEN_BYTES);
    }

    /// An identifier at `start..end`; `quote` as in [`Text::Ident`].
    pub(crate) fn ident(&mut self, sql: &str, start: usize, end: usize, quote: u8, at: bool) {
        if self.full {
            return;
        }
        let raw = sql.as_bytes().get(start..end).unwrap_or_default();
        let doubled = if quote == 0 {
            0
        } else {
            raw.windows(2)
                .filter(|w| w[0] == quote && w[1] == quote)
                .count()
        };
        let len_bytes = raw.len() - doubled;
        let tok = DToken {
            tag: Tag::Ident,
            start_expr: false,
            text: Text::Ident {
                start,
                end,
                quote,
                at,
            },
        };
        if self.store(tok, 2 * TOKEN_BYTES + len_bytes) {
            self.last_ident = self.toks.len();
        }
    }

    /// A numeric literal (integer, decimal, double, hex, bit): a preceding unary sign is
    /// absorbed, then it is a value.
    pub(crate) fn number(&mut self) {
        if self.full {
            return;
        }
        loop {
            match self.last_two() {
                (Some(t1), Some(t2))
                    if matches!(t1.tag, Tag::Minus | Tag::Plus) && t2.start_expr =>
                {
                    self.pop(1)
                }
                _ => break,
            }
        }
        self.value();
    }

    /// A string, `?`, a user-variable name or a literal `NULL`.
    pub(crate) fn value(&mut self) {
        if self.full {
            return;
        }
        match self.last_two() {
            (Some(t1), Some(t2))
                if t1.tag == Tag::Comma && matches!(t2.tag, Tag::Value | Tag::ValueList) =>
            {
                self.pop(2);
                self.store(DToken::value(Tag::ValueList), TOKEN_BYTES);
            }
            _ => {
                self.store(DToken::value(Tag::Value), TOKEN_BYTES);
            }
        }
    }

    fn close_paren(&mut self) {
        let (t1, t2) = self.last_two();
        let (t1, t2) = (t1.map(|t| t.tag), t2.map(|t| t.tag));
        let (row, list) = match (t1, t2) {
            (Some(Tag::Value), Some(Tag::LParen)) => (Tag::RowSingle, Tag::RowSingleList),
            (Some(Tag::ValueList), Some(Tag::LParen)) => (Tag::RowMulti, Tag::RowMultiList),
            _ => {
                self.store(DToken::word(Tag::Other, false, ")"), TOKEN_BYTES);
                return;
            }
        };
        self.pop(2);
        let mut tag = row;
        let (t1, t2) = self.last_two();
        let (t1, t2) = (t1.map(|t| t.tag), t2.map(|t| t.tag));
        if t1 == Some(Tag::Comma) && (t2 == Some(row) || t2 == Some(list)) {
            self.pop(2);
            tag = list;
        } else if t1 == Some(Tag::In) {
            self.pop(1);
            tag = Tag::InExpr;
        }
        self.store(DToken::value(tag), TOKEN_BYTES);
    }

    /// An optimizer hint `/*+ … */`: its body (at `body_start..body_end` of `sql`) is lexed
    /// with the hint lexer's rules (hint keywords, identifiers, numbers with a K/M/G scale,
    /// strings, punctuation) between `/*+` and `*/`.
    pub(crate) fn hint(
        &mut self,
        sql: &str,
        body_start: usize,
        body_end: usize,
        opts: &LexOptions,
    ) {
        if self.full {
            return;
        }
        self.store(DToken::word(Tag::Other, false, "/*+"), TOKEN_BYTES);
        let bytes = sql.as_bytes();
        let at = |i: usize| {
            if i < body_end {
                bytes.get(i).copied().unwrap_or(0)
            } else {
                0
            }
        };
        let mut i = body_start;
        while i < body_end && !self.full {
            let b = at(i);
            if b.is_ascii_whitespace() {
                i += 1;
            } else if b.is_ascii_digit() {
                let mut j = i;
                while at(j).is_ascii_digit() || at(j) == b'.' {
                    j += 1;
                }
                if matches!(at(j), b'k' | b'K' | b'm' | b'M' | b'g' | b'G') {
                    j += 1;
                }
                i = j;
                self.number();
            } else if is_ident_byte(b) {
                let mut j = i;
                while j < body_end && is_ident_byte(at(j)) {
                    j += 1;
                }
                let word = bytes.get(i..j).unwrap_or_default();
                if let Some(name) = keywords::lookup_hint(word) {
                    self.store(DToken::word(Tag::Other, false, name), TOKEN_BYTES);
                } else {
                    self.ident(sql, i, j, 0, at(j) == b'@');
                }
                i = j;
            } else if b == b'`' || (b == b'"' && opts.ansi_quotes) {
                let mut j = i + 1;
                while j < body_end && !(at(j) == b && at(j + 1) != b) {
                    j += if at(j) == b { 2 } else { 1 };
                }
                self.ident(sql, i + 1, j.min(body_end), b, at(j + 1) == b'@');
                i = j + 1;
            } else if b == b'\'' || b == b'"' {
                let mut j = i + 1;
                while j < body_end && at(j) != b {
                    j += if at(j) == b'\\' && !opts.no_backslash_escapes {
                        2
                    } else {
                        1
                    };
                }
                i = j + 1;
                self.value();
            } else if b == b'@' {
                self.at();
                i += 1;
            } else {
                let text = if b.is_ascii() {
                    ASCII.get(usize::from(b)..usize::from(b) + 1).unwrap_or("?")
                } else {
                    "?"
                };
                self.op(text);
                i += 1;
            }
        }
        if !self.full {
            self.store(DToken::word(Tag::Other, false, "*/"), TOKEN_BYTES);
        }
    }
}

/// Prints the digest tokens as MySQL's `compute_digest_text` does.
pub(crate) fn render(toks: &[DToken], sql: &str, out: &mut String) {
    out.clear();
    let mut space = false;
    for tok in toks {
        match tok.text {
            Text::Word(word) => {
                if space {
                    out.push(' ');
                }
                out.push_str(word);
                space = true;
            }
            Text::At => {
                if space {
                    out.push(' ');
                }
                out.push('@');
                space = false;
            }
            Text::Ident {
                start,
                end,
                quote,
                at,
            } => {
                let raw = sql.get(start..end).unwrap_or_default();
                if raw.chars().any(|c| c.len_utf8() == 4) {
                    // MySQL cannot convert it to utf8mb3 and prints nothing.
                    continue;
                }
                let doubled = if quote == 0 {
                    0
                } else {
                    raw.as_bytes()
                        .windows(2)
                        .filter(|w| w[0] == quote && w[1] == quote)
                        .count()
                };
                if space {
                    out.push(' ');
                }
                if (raw.len() - doubled) * 3 > NAME_LEN_BYTES {
                    out.push_str("...");
                    space = false;
                    continue;
                }
                out.push('`');
                if doubled == 0 {
                    out.push_str(raw);
                } else {
                    let q = char::from(quote);
                    let mut chars = raw.chars().peekable();
                    while let Some(c) = chars.next() {
                        out.push(c);
                        if c == q && chars.peek() == Some(&q) {
                            chars.next();
                        }
                    }
                }
                out.push('`');
                space = !at;
            }
        }
    }
}

/// SHA-256 of the digest text, 64 lowercase hex digits.
pub fn digest_hex(normalized: &Normalized) -> String {
    sha256_hex(normalized.digest_text.as_bytes())
}

/// SHA-256 of `bytes`, 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in hash {
        hex.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        hex.push(char::from(b"0123456789abcdef"[usize::from(b & 0x0f)]));
    }
    hex
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::normalize;

    const REFERENCE: &str = include_str!("testscripts/digest_reference.txt");

    fn digest(sql: &str) -> String {
        normalize(sql, &LexOptions::default())
            .unwrap_or_else(|e| panic!("{sql}: {e:?}"))
            .digest_text
    }

    #[test]
    fn digest_matches_mysql() {
        let mut pending: Option<String> = None;
        let mut checked = 0;
        let mut failures = Vec::new();
        for line in REFERENCE.lines() {
            if let Some(sql) = line.strip_prefix("sql: ") {
                pending = Some(sql.replace("\\n", "\n"));
            } else if let Some(expected) = line.strip_prefix("digest: ") {
                let sql = pending
                    .take()
                    .expect("a sql: line before each digest: line");
                let got = digest(&sql);
                if got != expected {
                    failures.push(format!("{sql}\n  expected: {expected}\n  got:      {got}"));
                }
                checked += 1;
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(checked >= 30, "only {checked} reference pairs");
    }

    #[test]
    fn literal_values_do_not_change_the_digest() {
        let a = normalize("SELECT c FROM sbtest1 WHERE id=5", &LexOptions::default());
        let b = normalize(
            "select c from sbtest1 where id = 17 -- x",
            &LexOptions::default(),
        );
        let (a, b) = (a.expect("lexes"), b.expect("lexes"));
        // Identifiers keep their case, keywords do not matter.
        assert_eq!(a.digest_text, b.digest_text);
        assert_eq!(digest_hex(&a), digest_hex(&b));
        assert_eq!(digest_hex(&a).len(), 64);
        assert!(
            digest_hex(&a)
                .bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        let c = normalize("SELECT c FROM sbtest2 WHERE id=5", &LexOptions::default());
        assert_ne!(digest_hex(&a), digest_hex(&c.expect("lexes")));
    }

    #[test]
    fn variables_keywords_and_identifiers() {
        assert_eq!(
            digest("SELECT @@session.autocommit, @@sql_mode, @a, @`b`"),
            "SELECT @@SESSION . `autocommit` , @@`sql_mode` , @? , @`b`"
        );
        assert_eq!(
            digest("SELECT DISTINCT name FROM t WHERE d > CURRENT_DATE - INTERVAL 1 DAY"),
            "SELECT DISTINCTROW NAME FROM `t` WHERE `d` > CURDATE - INTERVAL ? SQL_TSI_DAY"
        );
        assert_eq!(digest("SELECT count FROM t"), "SELECT `count` FROM `t`");
        assert_eq!(digest("SELECT NOW"), "SELECT `NOW`");
        assert_eq!(digest("SELECT CURRENT_TIMESTAMP"), "SELECT NOW");
        assert_eq!(
            digest("SELECT 'a' 'b', x'41', 0x41, b'1'"),
            "SELECT ? ?, ..."
        );
        let long = "a".repeat(65);
        assert_eq!(
            digest(&format!("SELECT {long} FROM t")),
            "SELECT ...FROM `t`"
        );
        assert_eq!(
            digest("SELECT /*+ BKA(t1@qb1) QB_NAME(qb1) */ 1"),
            "SELECT /*+ BKA ( `t1`@`qb1` ) QB_NAME ( `qb1` ) */ ?"
        );
        assert_eq!(
            digest("SELECT a FROM t WHERE a = ?"),
            "SELECT `a` FROM `t` WHERE `a` = ?"
        );
    }

    #[test]
    fn storage_limit_stops_collection() {
        // 1024 bytes of tokens: `SELECT` (2) then `+ ?` pairs (4 each) until full.
        let sql = format!("SELECT a{}", " + 1".repeat(400));
        let text = digest(&sql);
        // SELECT (2) + ident a (5) = 7 bytes; then 254 "+ ?" pairs fit in the remaining 1017.
        assert_eq!(text.matches('?').count(), 254);
        assert!(text.ends_with("+ ?"), "{}", &text[text.len() - 10..]);
        // Reductions free space: a long IN list costs a few tokens only.
        let in_list = format!("SELECT a FROM t WHERE a IN ({})", vec!["1"; 5000].join(","));
        assert_eq!(digest(&in_list), "SELECT `a` FROM `t` WHERE `a` IN (...)");
    }
}
