//! The SQL lexer: the first thing every text statement meets.
//!
//! A COM_QUERY arrives as bytes; before anything parses it, this module reads it once, left to
//! right, the way MySQL 8.0's lexer (`sql/sql_lex.cc`) does, and produces four things:
//!
//! 1. **Statement boundaries** ([`split_statements`]): a multi-statement text `a; b;` is cut
//!    at every `;` that is not inside a string, an identifier or a comment. Whitespace- or
//!    comment-only pieces (a trailing `;`, a trailing `-- note`) are not statements; an empty
//!    result means "Query was empty" (1065). A NUL byte ends the text (mysqlslap sends one).
//! 2. **The statement kind** ([`statement_kind`]): the first keyword(s), after leading
//!    comments and `(`, classified for dispatch and the `Com_*` counters. `WITH … SELECT`
//!    is a `Select`, `WITH … UPDATE` an `Update`.
//! 3. **The plan-cache key** (`param_text` of [`normalize`]): the statement with its literal
//!    values replaced by `?` and returned separately, so `… WHERE id=5` and `… WHERE id=17`
//!    share one cached plan.
//! 4. **The statement digest** (`digest_text`, [`digest_hex`]): MySQL's
//!    `performance_schema` normalisation, built by [`super::digest`] from the same tokens.
//!
//! It must be fast — it runs on every query — so it is a single pass over the bytes with no
//! backtracking beyond a few bytes, keyword lookups in a hash table that never allocates
//! ([`super::keywords`]), and [`normalize_into`] reuses every buffer of a previous result.
//!
//! # What the lexer accepts (MySQL 8.0's rules)
//!
//! - **Comments**: `# …` and `-- …` to the end of the line (`--` must be followed by
//!   whitespace, a control character or the end); `/* … */` (not nested; unterminated is an
//!   error, as in MySQL 8.0 — MariaDB 10.11 accepts it). Executable comments `/*! … */` and `/*!NNNNN … */` are *inlined*: their content is
//!   lexed as ordinary text when `NNNNN` ≤ [`LexOptions::server_version`], and skipped (with
//!   one level of nested comment allowed, as MySQL does) when it is higher. MariaDB's
//!   `/*M! … */` is an ordinary comment to MySQL and to us. `/*+ … */` right after `SELECT`,
//!   `INSERT`, `REPLACE`, `UPDATE` or `DELETE` (only whitespace between) is an optimizer hint
//!   and becomes a [`TokenKind::Hint`] token; anywhere else it is a comment.
//! - **Strings**: `'…'`, and `"…"` unless `ANSI_QUOTES`. A doubled quote stands for itself;
//!   a backslash escapes the next character unless `NO_BACKSLASH_ESCAPES` (`\0 \' \" \b \n
//!   \r \t \Z \\`, while `\%` and `\_` keep their backslash, for `LIKE`). `N'…'` is a national
//!   string, `X'…'` a hex string (even number of hex digits) and `B'…'` a bit string.
//!   Adjacent strings (`'a' 'b'`) are separate tokens; [`normalize`] joins them into one value.
//! - **Identifiers**: letters, digits, `_`, `$` and any byte ≥ 0x80; back-quoted (`` `a``b` ``)
//!   and, with `ANSI_QUOTES`, double-quoted. A word may start with digits (`1abc`). After a
//!   `.` the next word is always an identifier (`t.key`, `t.1`), and a word written right
//!   before `.name` is one too (`status.value`), as in MySQL's `MY_LEX_IDENT_SEP` state.
//! - **Keywords**: MySQL 8.0's, case-insensitive; the function keywords (`COUNT`, `SUM`,
//!   `CAST`, `NOW`, …) only when `(` follows immediately.
//! - **Numbers**: `123` (integer), `1.5`, `.5`, `1.` (exact decimal), `1e3`, `1.5E-2` (double),
//!   `0x41` and `0b01` (hex and bit values). A leading `-` is never part of a number: it is an
//!   operator token.
//! - **Variables**: `@name`, `@'name'`, `` @`name` `` are one [`TokenKind::UserVar`] token;
//!   `@@` is a [`TokenKind::SysVarPrefix`] token followed by the (possibly qualified) name.
//! - **Placeholders**: `?` is a [`TokenKind::Param`] token (the prepared-statement marker).
//!
//! Errors — an unterminated string, identifier or comment, a malformed `X'…'`/`B'…'`, and
//! (found by [`normalize`] when it reads the value) a double out of range — are a
//! [`LexError`] with the byte offset where the bad token starts; the caller turns it into
//! MySQL's 1064 "…near '…' at line N" (or 1367 for the double) with
//! [`LexError::to_my_error`].
//!
//! # Where this differs from MySQL
//!
//! - A NUL byte outside a quoted string ends the text wherever it is (MySQL accepts it only
//!   as the terminator and reports a syntax error elsewhere); mysqlslap appends one.
//! - [`split_statements`] cuts at every `;` outside strings, identifiers and comments, also
//!   inside a `BEGIN … END` compound statement, which MySQL's parser keeps whole (Quire has
//!   no stored programs). Empty pieces (`a;; b`) are skipped.
//! - A `/*!` inside an executed `/*! … */` is read as an ordinary comment.
//!
//! # What this module must never do
//!
//! Panic or allocate in proportion to anything but the input; every index into the text is
//! checked. It never looks at a table or a session: the same text and [`LexOptions`] always
//! give the same result.

use crate::error::{MyError, code};

use super::keywords::{self, Keyword, Kw};

pub use super::digest::digest_hex;
pub use super::normalize::{Literal, Mark, Normalized, normalize, normalize_into};

/// The SQL-mode bits and server version that change how text lexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LexOptions {
    /// `ANSI_QUOTES`: `"…"` is an identifier, not a string.
    pub ansi_quotes: bool,
    /// `NO_BACKSLASH_ESCAPES`: `\` is an ordinary character inside strings.
    pub no_backslash_escapes: bool,
    /// `MYSQL_VERSION_ID` for executable comments: `/*!80016 … */` runs when 80016 ≤ this.
    pub server_version: u32,
}

impl Default for LexOptions {
    fn default() -> LexOptions {
        LexOptions {
            ansi_quotes: false,
            no_backslash_escapes: false,
            server_version: 80040,
        }
    }
}

/// What went wrong, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexErrorKind {
    UnterminatedString,
    UnterminatedIdentifier,
    UnterminatedComment,
    /// `X'…'` with a non-hex digit or an odd number of digits.
    BadHexString,
    /// `B'…'` with a digit other than 0 and 1.
    BadBitString,
    /// A double literal out of range (`1e400`): MySQL's 1367.
    IllegalDouble,
}

/// A lexical error at byte `offset` of the statement text (the start of the bad token).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LexError {
    pub kind: LexErrorKind,
    pub offset: usize,
}

/// MySQL prints at most this many characters of the text after the error (`%.80s`).
const NEAR_CHARS_MAX: usize = 80;

impl LexError {
    /// The text MySQL quotes after "near" (from the error offset, at most 80 characters) and
    /// the 1-based line on which the error starts.
    pub fn near_text(&self, sql: &str) -> (String, usize) {
        let offset = self.offset.min(sql.len());
        let before = sql.as_bytes().get(..offset).unwrap_or_default();
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let near: String = sql
            .get(offset..)
            .unwrap_or_default()
            .chars()
            .take(NEAR_CHARS_MAX)
            .collect();
        (near, line)
    }

    /// The client-visible error: 1367 for an illegal double, 1064 otherwise.
    pub fn to_my_error(&self, sql: &str) -> MyError {
        if self.kind == LexErrorKind::IllegalDouble {
            let text = sql
                .get(self.offset..)
                .unwrap_or_default()
                .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-')))
                .next()
                .unwrap_or_default();
            return MyError::new(
                code::ER_ILLEGAL_VALUE_FOR_TYPE,
                format!("Illegal double '{text}' value found during parsing"),
            );
        }
        let (near, line) = self.near_text(sql);
        MyError::parse(&near, line)
    }
}

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TokenKind {
    /// A keyword in a keyword position.
    Keyword(&'static Keyword),
    /// An unquoted identifier (including keywords used where MySQL reads an identifier).
    Ident,
    /// `` `name` ``, or `"name"` under `ANSI_QUOTES`.
    QuotedIdent,
    /// `'…'`, or `"…"` without `ANSI_QUOTES`.
    Str,
    /// `N'…'`.
    NationalStr,
    /// `X'…'`.
    HexStr,
    /// `B'…'`.
    BitStr,
    /// `0x…`.
    HexNum,
    /// `0b…`.
    BitNum,
    /// `123`.
    Int,
    /// `1.5`, `.5`, `1.`.
    Decimal,
    /// `1e3`, `1.5E-2`.
    Float,
    /// `?`.
    Param,
    /// `@name`, `@'name'`, `@"name"`, `` @`name` ``.
    UserVar,
    /// `@@` (the variable name follows as its own token).
    SysVarPrefix,
    /// An operator or punctuation: `=`, `<=>`, `(`, `,`, `;`, `->>`, …
    Op,
    /// An optimizer hint comment `/*+ … */` (the span includes the delimiters).
    Hint,
}

/// One token: its kind and byte span in the statement text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
    /// Whitespace or a comment separates this token from the previous one.
    pub space_before: bool,
}

impl Token {
    /// The token's source text.
    pub fn text<'a>(&self, sql: &'a str) -> &'a str {
        sql.get(self.start..self.end).unwrap_or_default()
    }

    /// The keyword class, if the token is a keyword.
    pub fn kw(&self) -> Option<Kw> {
        match self.kind {
            TokenKind::Keyword(k) => Some(k.kw),
            _ => None,
        }
    }

    /// Whether this is the operator or punctuation `op`.
    pub fn is_op(&self, sql: &str, op: &str) -> bool {
        self.kind == TokenKind::Op && self.text(sql) == op
    }
}

/// Byte classes, looked up once per byte.
const IDENT: u8 = 1;
const SPACE: u8 = 2;
/// An identifier byte that no keyword contains (`$`, bytes of multi-byte characters).
const NOT_KEYWORD: u8 = 4;
const BYTE_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        // MySQL's `ident_map`: letters, digits, '_', '$' and every byte of a multi-byte
        // character.
        if b.is_ascii_alphanumeric() || b == b'_' {
            table[i] = IDENT;
        }
        if b == b'$' || b >= 0x80 {
            table[i] = IDENT | NOT_KEYWORD;
        }
        if matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            table[i] = SPACE;
        }
        i += 1;
    }
    table
};

/// Bytes that may appear in an unquoted identifier (MySQL's `ident_map`).
#[inline]
pub(crate) fn is_ident_byte(b: u8) -> bool {
    BYTE_CLASS[usize::from(b)] & IDENT != 0
}

#[inline]
fn is_space(b: u8) -> bool {
    BYTE_CLASS[usize::from(b)] == SPACE
}

/// MySQL 8.0's character sets: `_name` before a string is a charset introducer.
const CHARSETS: [&str; 41] = [
    "armscii8", "ascii", "big5", "binary", "cp1250", "cp1251", "cp1256", "cp1257", "cp850",
    "cp852", "cp866", "cp932", "dec8", "eucjpms", "euckr", "gb18030", "gb2312", "gbk", "geostd8",
    "greek", "hebrew", "hp8", "keybcs2", "koi8r", "koi8u", "latin1", "latin2", "latin5", "latin7",
    "macce", "macroman", "sjis", "swe7", "tis620", "ucs2", "ujis", "utf16", "utf16le", "utf32",
    "utf8", "utf8mb3",
];

/// Whether `word` (an identifier) is a charset introducer such as `_utf8mb4` or `_binary`.
pub(crate) fn is_charset_introducer(word: &str) -> bool {
    let Some(name) = word.strip_prefix('_') else {
        return false;
    };
    name.eq_ignore_ascii_case("utf8mb4") || CHARSETS.iter().any(|c| name.eq_ignore_ascii_case(c))
}

/// What the lexer remembers about the previous token.
#[derive(Clone, Copy, Default)]
struct Prev {
    /// The previous token may take an optimizer hint (`SELECT`, `INSERT`, …).
    hintable: bool,
    /// The previous token was an unquoted word written immediately before `.name`.
    word_before_dot: bool,
}

/// The streaming lexer behind [`tokens`]: yields tokens until the end of the text, a NUL
/// byte, or the first error.
pub struct Lexer<'a> {
    bytes: &'a [u8],
    pos: usize,
    opts: LexOptions,
    /// Start of the `/*!` comment whose content is being lexed, if any.
    exec_comment_start: Option<usize>,
    space_pending: bool,
    comment_since_token: bool,
    prev: Prev,
    /// The next word is an identifier whatever it spells (after `.`).
    ident_next: bool,
    /// The next word follows `@@`: a keyword is one even before `.`.
    after_sysvar: bool,
    done: bool,
}

/// A token iterator over `sql`; stops at the end, at a NUL byte, or after yielding an error.
pub fn tokens<'a>(sql: &'a str, opts: &LexOptions) -> Lexer<'a> {
    Lexer::new(sql, opts)
}

impl<'a> Lexer<'a> {
    pub fn new(sql: &'a str, opts: &LexOptions) -> Lexer<'a> {
        Lexer {
            bytes: sql.as_bytes(),
            pos: 0,
            opts: *opts,
            exec_comment_start: None,
            space_pending: false,
            comment_since_token: false,
            prev: Prev::default(),
            ident_next: false,
            after_sysvar: false,
            done: false,
        }
    }

    /// Where lexing stopped: the end of the text or the NUL byte that ended it.
    pub fn position(&self) -> usize {
        self.pos
    }

    fn at(&self, i: usize) -> u8 {
        self.bytes.get(i).copied().unwrap_or(0)
    }

    fn err(&mut self, kind: LexErrorKind, offset: usize) -> Option<Result<Token, LexError>> {
        self.done = true;
        Some(Err(LexError { kind, offset }))
    }

    /// Skips `/* … */` starting at `from` (just after the opening `/*`), allowing
    /// `nesting` levels of nested comments; returns the position after `*/`.
    fn comment_end(&self, from: usize, nesting: u32) -> Option<usize> {
        let mut depth = 0u32;
        let mut i = from;
        while i < self.bytes.len() {
            let b = self.at(i);
            if depth < nesting && b == b'/' && self.at(i + 1) == b'*' {
                depth += 1;
                i += 2;
            } else if b == b'*' && self.at(i + 1) == b'/' {
                if depth == 0 {
                    return Some(i + 2);
                }
                depth -= 1;
                i += 2;
            } else {
                i += 1;
            }
        }
        None
    }

    /// End of a quoted string or identifier starting at `start` (the opening quote).
    fn quoted_end(&self, start: usize, quote: u8, backslash: bool) -> Option<usize> {
        let mut i = start + 1;
        loop {
            // Skip the run of ordinary bytes in one go.
            let rest = self.bytes.get(i..)?;
            i += rest
                .iter()
                .position(|&b| b == quote || (backslash && b == b'\\'))?;
            let b = *self.bytes.get(i)?;
            if b == quote {
                if self.at(i + 1) == quote && i + 1 < self.bytes.len() {
                    i += 2;
                } else {
                    return Some(i + 1);
                }
            } else if b == b'\\' && backslash {
                if i + 1 >= self.bytes.len() {
                    return None;
                }
                i += 2;
            } else {
                i += 1;
            }
        }
    }

    fn string_end(&self, start: usize) -> Option<usize> {
        let quote = self.at(start);
        self.quoted_end(start, quote, !self.opts.no_backslash_escapes)
    }

    fn digits_end(&self, from: usize) -> usize {
        let mut i = from;
        while self.at(i).is_ascii_digit() {
            i += 1;
        }
        i
    }

    /// End of an exponent `e[+-]digits` starting at `at`, if there is one.
    fn exponent_end(&self, at: usize) -> Option<usize> {
        if !matches!(self.at(at), b'e' | b'E') {
            return None;
        }
        let mut i = at + 1;
        if matches!(self.at(i), b'+' | b'-') {
            i += 1;
        }
        if !self.at(i).is_ascii_digit() {
            return None;
        }
        Some(self.digits_end(i))
    }

    /// Skips whitespace and comments; returns `Err` for an unterminated comment and
    /// `Ok(Some(token))` for a hint.
    fn skip_blanks(&mut self) -> Result<Option<Token>, LexError> {
        loop {
            let b = self.at(self.pos);
            let next = self.at(self.pos + 1);
            if self.pos >= self.bytes.len() || b == 0 {
                return Ok(None);
            }
            if is_space(b) {
                self.pos += 1;
                self.space_pending = true;
            } else if b == b'#'
                || (b == b'-'
                    && next == b'-'
                    && (is_space(self.at(self.pos + 2))
                        || self.at(self.pos + 2) < 0x20
                        || self.at(self.pos + 2) == 0x7f))
            {
                while self.pos < self.bytes.len() && !matches!(self.at(self.pos), b'\n' | 0) {
                    self.pos += 1;
                }
                self.space_pending = true;
                self.comment_since_token = true;
            } else if b == b'/' && next == b'*' {
                let start = self.pos;
                let third = self.at(self.pos + 2);
                let unterminated = LexError {
                    kind: LexErrorKind::UnterminatedComment,
                    offset: start,
                };
                if third == b'!' && self.exec_comment_start.is_none() {
                    let digits = (0..5).all(|k| self.at(start + 3 + k).is_ascii_digit());
                    let version: u32 = if digits {
                        (0..5).fold(0, |v, k| v * 10 + u32::from(self.at(start + 3 + k) - b'0'))
                    } else {
                        0
                    };
                    if version <= self.opts.server_version {
                        self.exec_comment_start = Some(start);
                        self.pos = start + 3 + if digits { 5 } else { 0 };
                    } else {
                        self.pos = self.comment_end(start + 3, 1).ok_or(unterminated)?;
                        self.comment_since_token = true;
                    }
                } else if third == b'+' && self.prev.hintable && !self.comment_since_token {
                    let end = self.comment_end(start + 3, 0).ok_or(unterminated)?;
                    self.pos = end;
                    let token = Token {
                        kind: TokenKind::Hint,
                        start,
                        end,
                        space_before: self.space_pending,
                    };
                    self.space_pending = true;
                    self.prev = Prev::default();
                    return Ok(Some(token));
                } else {
                    self.pos = self.comment_end(start + 2, 0).ok_or(unterminated)?;
                    self.comment_since_token = true;
                }
                self.space_pending = true;
            } else if b == b'*' && next == b'/' && self.exec_comment_start.is_some() {
                self.exec_comment_start = None;
                self.pos += 2;
                self.space_pending = true;
            } else {
                return Ok(None);
            }
        }
    }

    /// Lexes a word starting at `start` (an identifier byte that is not a digit, or a digit
    /// run that turned out to be an identifier).
    fn word(&mut self, start: usize) -> TokenKind {
        let mut end = start;
        let mut classes = 0;
        while let Some(&b) = self.bytes.get(end) {
            let class = BYTE_CLASS[usize::from(b)];
            if class & IDENT == 0 {
                break;
            }
            classes |= class;
            end += 1;
        }
        self.pos = end;
        let ident_next = std::mem::take(&mut self.ident_next);
        let after_sysvar = std::mem::take(&mut self.after_sysvar);
        let before_dot = self.at(end) == b'.' && is_ident_byte(self.at(end + 1));
        if ident_next || (before_dot && !after_sysvar) {
            self.prev.word_before_dot = before_dot;
            return TokenKind::Ident;
        }
        let word = self.bytes.get(start..end).unwrap_or_default();
        let keyword = if classes & NOT_KEYWORD == 0 {
            keywords::lookup_ascii_word(word)
        } else {
            None
        };
        let kind = match keyword {
            Some(k) if !k.function_only || (self.at(end) == b'(' && !after_sysvar) => {
                TokenKind::Keyword(k)
            }
            _ => TokenKind::Ident,
        };
        self.prev.word_before_dot = before_dot && kind == TokenKind::Ident;
        kind
    }

    /// Lexes a number (or an identifier that starts with digits) at `start`.
    fn number(&mut self, start: usize) -> Result<TokenKind, LexError> {
        let first = self.at(start);
        let second = self.at(start + 1);
        if first == b'0' && matches!(second, b'x' | b'X' | b'b' | b'B') {
            let hex = matches!(second, b'x' | b'X');
            let mut i = start + 2;
            while if hex {
                self.at(i).is_ascii_hexdigit()
            } else {
                matches!(self.at(i), b'0' | b'1')
            } {
                i += 1;
            }
            if i > start + 2 && !is_ident_byte(self.at(i)) {
                self.pos = i;
                return Ok(if hex {
                    TokenKind::HexNum
                } else {
                    TokenKind::BitNum
                });
            }
        }
        let int_end = self.digits_end(start);
        let c = self.at(int_end);
        if c == b'.' {
            return Ok(self.real(int_end + 1));
        }
        if let Some(end) = self.exponent_end(int_end) {
            self.pos = end;
            return Ok(TokenKind::Float);
        }
        if is_ident_byte(c) {
            return Ok(self.word(start));
        }
        self.pos = int_end;
        Ok(TokenKind::Int)
    }

    /// Lexes the rest of a real number after its `.` at `from - 1`.
    fn real(&mut self, from: usize) -> TokenKind {
        let frac_end = self.digits_end(from);
        if let Some(end) = self.exponent_end(frac_end) {
            self.pos = end;
            TokenKind::Float
        } else {
            self.pos = frac_end;
            TokenKind::Decimal
        }
    }

    /// Lexes `X'…'` or `B'…'` starting at `start` (the letter).
    fn radix_string(&mut self, start: usize, hex: bool) -> Result<TokenKind, LexError> {
        let (kind, err) = if hex {
            (TokenKind::HexStr, LexErrorKind::BadHexString)
        } else {
            (TokenKind::BitStr, LexErrorKind::BadBitString)
        };
        let bad = LexError {
            kind: err,
            offset: start,
        };
        let mut i = start + 2;
        while if hex {
            self.at(i).is_ascii_hexdigit()
        } else {
            matches!(self.at(i), b'0' | b'1')
        } {
            i += 1;
        }
        if self.at(i) != b'\'' || i >= self.bytes.len() {
            return Err(bad);
        }
        if hex && !(i - start - 2).is_multiple_of(2) {
            return Err(bad);
        }
        self.pos = i + 1;
        Ok(kind)
    }

    fn operator(&mut self, start: usize) -> TokenKind {
        // The multi-byte operators: <=> <= <> << >= >> != && || := -> ->>
        let len = match (self.at(start), self.at(start + 1)) {
            (b'<', b'=') if self.at(start + 2) == b'>' => 3,
            (b'-', b'>') if self.at(start + 2) == b'>' => 3,
            (b'<', b'=' | b'>' | b'<')
            | (b'>', b'=' | b'>')
            | (b'!', b'=')
            | (b'&', b'&')
            | (b'|', b'|')
            | (b':', b'=')
            | (b'-', b'>') => 2,
            _ => 1,
        };
        self.pos = start + len;
        TokenKind::Op
    }

    fn lex_token(&mut self, start: usize) -> Result<TokenKind, LexError> {
        let b = self.at(start);
        let next = self.at(start + 1);
        let kind = match b {
            b'\'' => {
                self.pos = self.string_end(start).ok_or(LexError {
                    kind: LexErrorKind::UnterminatedString,
                    offset: start,
                })?;
                TokenKind::Str
            }
            b'"' if !self.opts.ansi_quotes => {
                self.pos = self.string_end(start).ok_or(LexError {
                    kind: LexErrorKind::UnterminatedString,
                    offset: start,
                })?;
                TokenKind::Str
            }
            b'"' | b'`' => {
                self.pos = self.quoted_end(start, b, false).ok_or(LexError {
                    kind: LexErrorKind::UnterminatedIdentifier,
                    offset: start,
                })?;
                TokenKind::QuotedIdent
            }
            b'0'..=b'9' if self.ident_next => self.word(start),
            b'0'..=b'9' => self.number(start)?,
            b'.' if next.is_ascii_digit() && !self.ident_next && !self.prev.word_before_dot => {
                self.real(start + 1)
            }
            b'?' => {
                self.pos = start + 1;
                TokenKind::Param
            }
            b'@' if next == b'@' => {
                self.pos = start + 2;
                self.after_sysvar = true;
                TokenKind::SysVarPrefix
            }
            b'@' => {
                match next {
                    b'\'' | b'"' => {
                        self.pos = self.string_end(start + 1).ok_or(LexError {
                            kind: LexErrorKind::UnterminatedString,
                            offset: start,
                        })?;
                    }
                    b'`' => {
                        self.pos = self.quoted_end(start + 1, b'`', false).ok_or(LexError {
                            kind: LexErrorKind::UnterminatedIdentifier,
                            offset: start,
                        })?;
                    }
                    _ => {
                        // MySQL's MY_LEX_HOSTNAME: alphanumerics, '.', '_', '$'.
                        let mut i = start + 1;
                        while matches!(self.at(i), b'.' | b'_' | b'$')
                            || self.at(i).is_ascii_alphanumeric()
                            || self.at(i) >= 0x80
                        {
                            i += 1;
                        }
                        self.pos = i;
                    }
                }
                TokenKind::UserVar
            }
            b'x' | b'X' if next == b'\'' && !self.ident_next => self.radix_string(start, true)?,
            b'b' | b'B' if next == b'\'' && !self.ident_next => self.radix_string(start, false)?,
            b'n' | b'N' if next == b'\'' && !self.ident_next => {
                self.pos = self.string_end(start + 1).ok_or(LexError {
                    kind: LexErrorKind::UnterminatedString,
                    offset: start,
                })?;
                TokenKind::NationalStr
            }
            _ if is_ident_byte(b) => self.word(start),
            _ => self.operator(start),
        };
        Ok(kind)
    }
}

impl Iterator for Lexer<'_> {
    type Item = Result<Token, LexError>;

    fn next(&mut self) -> Option<Result<Token, LexError>> {
        if self.done {
            return None;
        }
        match self.skip_blanks() {
            Err(e) => return self.err(e.kind, e.offset),
            Ok(Some(hint)) => return Some(Ok(hint)),
            Ok(None) => {}
        }
        let start = self.pos;
        if start >= self.bytes.len() || self.at(start) == 0 {
            self.done = true;
            if let Some(offset) = self.exec_comment_start {
                return self.err(LexErrorKind::UnterminatedComment, offset);
            }
            return None;
        }
        let space_before = std::mem::take(&mut self.space_pending);
        let kind = match self.lex_token(start) {
            Ok(kind) => kind,
            Err(e) => return self.err(e.kind, e.offset),
        };
        let end = self.pos.max(start + 1);
        self.pos = end;
        // After '.', the next word is an identifier (MY_LEX_IDENT_SEP), whatever it spells.
        if kind == TokenKind::Op && self.at(start) == b'.' && end == start + 1 {
            self.ident_next = is_ident_byte(self.at(end));
        }
        if kind != TokenKind::Ident {
            self.prev.word_before_dot = false;
        }
        self.prev.hintable = matches!(
            kind,
            TokenKind::Keyword(k) if matches!(k.kw, Kw::Select | Kw::Insert | Kw::Replace | Kw::Update | Kw::Delete)
        );
        self.comment_since_token = false;
        if kind != TokenKind::SysVarPrefix {
            // `after_sysvar` applies to the token right after `@@` only.
            self.after_sysvar = false;
        }
        Some(Ok(Token {
            kind,
            start,
            end,
            space_before,
        }))
    }
}

/// Lexes all of `sql` into `out` (cleared first).
pub(crate) fn lex_into(sql: &str, opts: &LexOptions, out: &mut Vec<Token>) -> Result<(), LexError> {
    out.clear();
    for token in Lexer::new(sql, opts) {
        out.push(token?);
    }
    Ok(())
}

/// Byte ranges of the statements of a multi-statement text, split at each `;` outside
/// strings, identifiers and comments. Each range starts at the statement's first
/// non-whitespace byte (a leading comment is part of the statement) and ends before the `;`
/// with trailing whitespace removed. Pieces without any token are dropped, so an empty result
/// means the text was empty (1065 "Query was empty"). A lexical error ends splitting: the
/// statement containing it runs to the end of the text, so that normalising it reports the
/// error.
pub fn split_statements(sql: &str, opts: &LexOptions) -> Vec<(usize, usize)> {
    let bytes = sql.as_bytes();
    let trim = |mut start: usize, mut end: usize| {
        while start < end && bytes.get(start).is_some_and(|&b| is_space(b)) {
            start += 1;
        }
        while end > start && bytes.get(end - 1).is_some_and(|&b| is_space(b)) {
            end -= 1;
        }
        (start, end)
    };
    let mut ranges = Vec::new();
    let mut piece_start = 0;
    let mut has_token = false;
    let mut lexer = Lexer::new(sql, opts);
    loop {
        match lexer.next() {
            Some(Ok(token)) if token.is_op(sql, ";") => {
                if has_token {
                    ranges.push(trim(piece_start, token.start));
                }
                piece_start = token.end;
                has_token = false;
            }
            Some(Ok(_)) => has_token = true,
            Some(Err(_)) => {
                let end = bytes
                    .iter()
                    .skip(piece_start)
                    .position(|&b| b == 0)
                    .map_or(bytes.len(), |p| piece_start + p);
                ranges.push(trim(piece_start, end));
                return ranges;
            }
            None => {
                if has_token {
                    ranges.push(trim(piece_start, lexer.position()));
                }
                return ranges;
            }
        }
    }
}

/// The object of `CREATE`, `DROP` and `ALTER`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {
    Table,
    Database,
    Index,
    View,
    User,
    Role,
    Procedure,
    Function,
    Trigger,
    Event,
    Server,
    Tablespace,
    Other,
}

/// A statement classified by its first keyword(s), for dispatch and `Com_*` counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StatementKind {
    /// No tokens at all (1065 "Query was empty").
    Empty,
    Select,
    Insert,
    Replace,
    Update,
    Delete,
    /// `TABLE t`.
    Table,
    /// `VALUES ROW(…)`.
    Values,
    /// `BEGIN`, `START TRANSACTION`.
    Begin,
    Commit,
    Rollback,
    Savepoint,
    RollbackToSavepoint,
    ReleaseSavepoint,
    /// `SET` of variables.
    Set,
    SetTransaction,
    SetNames,
    /// `SET CHARACTER SET …`, `SET CHARSET …`.
    SetCharset,
    SetPassword,
    SetRole,
    Show,
    Use,
    /// `EXPLAIN`, `DESCRIBE`, `DESC`.
    Explain,
    Create(ObjectKind),
    Drop(ObjectKind),
    Alter(ObjectKind),
    Truncate,
    Rename,
    Lock,
    Unlock,
    Flush,
    Kill,
    Analyze,
    Optimize,
    Check,
    Checksum,
    Repair,
    Grant,
    Revoke,
    Prepare,
    Execute,
    /// `DEALLOCATE PREPARE`, `DROP PREPARE`.
    Deallocate,
    Call,
    Do,
    Load,
    Handler,
    Xa,
    Help,
    Reset,
    Purge,
    Change,
    /// `START REPLICA`, `START SLAVE`, `START GROUP_REPLICATION`.
    StartReplica,
    /// `STOP REPLICA`, …
    StopReplica,
    Binlog,
    Install,
    Uninstall,
    Shutdown,
    Restart,
    Clone,
    Import,
    Signal,
    Resignal,
    GetDiagnostics,
    #[default]
    Other,
}

impl StatementKind {
    /// Statements whose literals become `?` in `param_text`.
    pub fn is_parameterised(self) -> bool {
        matches!(
            self,
            StatementKind::Select
                | StatementKind::Insert
                | StatementKind::Replace
                | StatementKind::Update
                | StatementKind::Delete
        )
    }

    /// `SET` statements of any flavour.
    pub fn is_set(self) -> bool {
        matches!(
            self,
            StatementKind::Set
                | StatementKind::SetTransaction
                | StatementKind::SetNames
                | StatementKind::SetCharset
                | StatementKind::SetPassword
                | StatementKind::SetRole
        )
    }
}

/// How many tokens after `CREATE`/`DROP`/`ALTER` to look for the object keyword (past
/// `OR REPLACE`, `TEMPORARY`, `ALGORITHM = …`, `DEFINER = …`, `SQL SECURITY …`).
const OBJECT_SCAN_TOKENS_MAX: usize = 16;

fn object_kind(after: &[Token]) -> ObjectKind {
    for t in after.iter().take(OBJECT_SCAN_TOKENS_MAX) {
        let TokenKind::Keyword(k) = t.kind else {
            continue;
        };
        let object = match k.kw {
            Kw::Table => ObjectKind::Table,
            Kw::Database => ObjectKind::Database,
            Kw::Index => ObjectKind::Index,
            Kw::View => ObjectKind::View,
            Kw::User => ObjectKind::User,
            Kw::Role => ObjectKind::Role,
            Kw::Procedure => ObjectKind::Procedure,
            Kw::Function => ObjectKind::Function,
            Kw::Trigger => ObjectKind::Trigger,
            Kw::Event => ObjectKind::Event,
            Kw::Server => ObjectKind::Server,
            Kw::Tablespace => ObjectKind::Tablespace,
            _ => continue,
        };
        return object;
    }
    ObjectKind::Other
}

fn keyword_named(t: Option<&Token>, name: &str) -> bool {
    matches!(t.map(|t| t.kind), Some(TokenKind::Keyword(k)) if k.name == name)
}

/// Classifies a statement from its tokens.
pub(crate) fn classify(sql: &str, tokens: &[Token]) -> StatementKind {
    let mut i = 0;
    while tokens.get(i).is_some_and(|t| t.is_op(sql, "(")) {
        i += 1;
    }
    let Some(first) = tokens.get(i) else {
        return if tokens.is_empty() {
            StatementKind::Empty
        } else {
            StatementKind::Other
        };
    };
    let rest = tokens.get(i + 1..).unwrap_or_default();
    let next = rest.first();
    let next_kw = next.and_then(Token::kw);
    let TokenKind::Keyword(k) = first.kind else {
        return StatementKind::Other;
    };
    match k.kw {
        Kw::Select => StatementKind::Select,
        Kw::Insert => StatementKind::Insert,
        Kw::Replace => StatementKind::Replace,
        Kw::Update => StatementKind::Update,
        Kw::Delete => StatementKind::Delete,
        Kw::Table => StatementKind::Table,
        Kw::Values => StatementKind::Values,
        Kw::With => {
            // The statement is the first verb outside the parenthesised CTE bodies.
            let mut depth = 0usize;
            for t in rest {
                if t.is_op(sql, "(") {
                    depth += 1;
                } else if t.is_op(sql, ")") {
                    depth = depth.saturating_sub(1);
                } else if depth == 0 {
                    match t.kw() {
                        Some(Kw::Select) => return StatementKind::Select,
                        Some(Kw::Update) => return StatementKind::Update,
                        Some(Kw::Delete) => return StatementKind::Delete,
                        Some(Kw::Insert) => return StatementKind::Insert,
                        Some(Kw::Replace) => return StatementKind::Replace,
                        Some(Kw::Table) => return StatementKind::Table,
                        Some(Kw::Values) => return StatementKind::Values,
                        _ => {}
                    }
                }
            }
            StatementKind::Other
        }
        Kw::Begin => StatementKind::Begin,
        Kw::Start => match next_kw {
            Some(Kw::Transaction) => StatementKind::Begin,
            _ => StatementKind::StartReplica,
        },
        Kw::Stop => StatementKind::StopReplica,
        Kw::Commit => StatementKind::Commit,
        Kw::Rollback => {
            let after_work = if next_kw == Some(Kw::Work) {
                rest.get(1)
            } else {
                next
            };
            if after_work.and_then(Token::kw) == Some(Kw::To) {
                StatementKind::RollbackToSavepoint
            } else {
                StatementKind::Rollback
            }
        }
        Kw::Savepoint => StatementKind::Savepoint,
        Kw::Release => StatementKind::ReleaseSavepoint,
        Kw::Set => {
            let scope = keyword_named(next, "GLOBAL")
                || keyword_named(next, "SESSION")
                || keyword_named(next, "LOCAL");
            let verb = if scope { rest.get(1) } else { next };
            match verb.and_then(Token::kw) {
                Some(Kw::Transaction) => StatementKind::SetTransaction,
                Some(Kw::Names) if !scope => StatementKind::SetNames,
                Some(Kw::Charset) if !scope => StatementKind::SetCharset,
                Some(Kw::Char) if !scope => StatementKind::SetCharset,
                Some(Kw::Password) if !scope => StatementKind::SetPassword,
                Some(Kw::Role) if !scope => StatementKind::SetRole,
                Some(Kw::Default) if keyword_named(rest.get(1), "ROLE") => StatementKind::SetRole,
                _ => StatementKind::Set,
            }
        }
        Kw::Show => StatementKind::Show,
        Kw::Use => StatementKind::Use,
        Kw::Describe | Kw::Desc => StatementKind::Explain,
        Kw::Create => StatementKind::Create(object_kind(rest)),
        Kw::Drop if next_kw == Some(Kw::Prepare) => StatementKind::Deallocate,
        Kw::Drop => StatementKind::Drop(object_kind(rest)),
        Kw::Alter => StatementKind::Alter(object_kind(rest)),
        Kw::Truncate => StatementKind::Truncate,
        Kw::Rename => StatementKind::Rename,
        Kw::Lock => StatementKind::Lock,
        Kw::Unlock => StatementKind::Unlock,
        Kw::Flush => StatementKind::Flush,
        Kw::Kill => StatementKind::Kill,
        Kw::Analyze => StatementKind::Analyze,
        Kw::Optimize => StatementKind::Optimize,
        Kw::Check => StatementKind::Check,
        Kw::Checksum => StatementKind::Checksum,
        Kw::Repair => StatementKind::Repair,
        Kw::Grant => StatementKind::Grant,
        Kw::Revoke => StatementKind::Revoke,
        Kw::Prepare => StatementKind::Prepare,
        Kw::Execute => StatementKind::Execute,
        Kw::Deallocate => StatementKind::Deallocate,
        Kw::Call => StatementKind::Call,
        Kw::Do => StatementKind::Do,
        Kw::Load => StatementKind::Load,
        Kw::Handler => StatementKind::Handler,
        Kw::Xa => StatementKind::Xa,
        Kw::Help => StatementKind::Help,
        Kw::Reset => StatementKind::Reset,
        Kw::Purge => StatementKind::Purge,
        Kw::Change => StatementKind::Change,
        Kw::Binlog => StatementKind::Binlog,
        Kw::Install => StatementKind::Install,
        Kw::Uninstall => StatementKind::Uninstall,
        Kw::Shutdown => StatementKind::Shutdown,
        Kw::Restart => StatementKind::Restart,
        Kw::Clone => StatementKind::Clone,
        Kw::Import => StatementKind::Import,
        Kw::Signal => StatementKind::Signal,
        Kw::Resignal => StatementKind::Resignal,
        Kw::Get => StatementKind::GetDiagnostics,
        _ => StatementKind::Other,
    }
}

/// How many leading tokens [`statement_kind`] lexes before giving up on a `WITH`.
const KIND_SCAN_TOKENS_MAX: usize = 4096;

/// Classifies the statement `sql` by its first keyword(s), skipping leading comments and
/// `(`. A lexical error before the verb gives [`StatementKind::Other`].
pub fn statement_kind(sql: &str, opts: &LexOptions) -> StatementKind {
    // Enough tokens to classify anything but WITH, whose verb comes after the CTEs.
    let mut limit = OBJECT_SCAN_TOKENS_MAX + 4;
    let mut head: Vec<Token> = Vec::with_capacity(limit);
    let mut lexer = Lexer::new(sql, opts);
    while head.len() < limit {
        let token = match lexer.next() {
            None => break,
            Some(Err(_)) if head.is_empty() => return StatementKind::Other,
            Some(Err(_)) => break,
            Some(Ok(token)) => token,
        };
        if token.kw() == Some(Kw::With) && head.iter().all(|t| t.is_op(sql, "(")) {
            limit = KIND_SCAN_TOKENS_MAX;
        }
        head.push(token);
    }
    classify(sql, &head)
}

/// First code point of the private-use block that stands for raw bytes in statement text.
const RAW_BYTE_BASE: u32 = 0xF700;

fn raw_byte_char(b: u8) -> char {
    char::from_u32(RAW_BYTE_BASE + u32::from(b)).unwrap_or('?')
}

fn is_raw_byte_char(c: char) -> bool {
    (RAW_BYTE_BASE..RAW_BYTE_BASE + 256).contains(&(c as u32))
}

fn push_text_escaping_raw_range(out: &mut String, s: &str) {
    for c in s.chars() {
        if is_raw_byte_char(c) {
            let mut buf = [0u8; 4];
            for &b in c.encode_utf8(&mut buf).as_bytes() {
                out.push(raw_byte_char(b));
            }
        } else {
            out.push(c);
        }
    }
}

/// Statement text as the client sent it, as a `str` that loses nothing: clients put raw
/// bytes in string literals (PyMySQL's `_binary'\xff…'`, mysqldump's BLOBs), which are not
/// UTF-8. Each byte of an invalid sequence becomes a private-use character U+F7xx (and so
/// does each byte of a genuine U+F700..U+F7FF character, so the mapping is reversible);
/// [`unmap_raw_bytes`] turns a literal's bytes back. Valid text without such characters is
/// borrowed as is.
pub fn decode_wire_text(raw: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(raw)
        && (!raw.contains(&0xEF) || !s.chars().any(is_raw_byte_char))
    {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(raw.len() + 16);
    let mut rest = raw;
    loop {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                push_text_escaping_raw_range(&mut out, s);
                break;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                push_text_escaping_raw_range(&mut out, std::str::from_utf8(good).unwrap_or(""));
                let n = e.error_len().unwrap_or(bad.len()).max(1).min(bad.len());
                for &b in &bad[..n] {
                    out.push(raw_byte_char(b));
                }
                rest = &bad[n..];
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Undo [`decode_wire_text`]'s mapping in a literal's bytes.
pub fn unmap_raw_bytes(bytes: &mut Vec<u8>) {
    // U+F700..U+F7FF is EF 9C 80 .. EF 9F BF in UTF-8.
    if !bytes.contains(&0xEF) {
        return;
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes.get(i..i + 3) {
            Some(&[0xEF, b1 @ 0x9C..=0x9F, b2 @ 0x80..=0xBF]) => {
                let cp = 0xF000 | (u32::from(b1 & 0x3F) << 6) | u32::from(b2 & 0x3F);
                out.push((cp - RAW_BYTE_BASE) as u8);
                i += 3;
            }
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    *bytes = out;
}

/// Decodes the body of a quoted string (between the quotes) as MySQL does, appending the
/// bytes to `out`: a doubled `quote` is one quote; with `backslash` escapes, `\0 \' \" \b \n
/// \r \t \Z \\` are decoded, `\%` and `\_` keep the backslash, and any other `\c` is `c`.
pub(crate) fn unescape_into(body: &[u8], quote: u8, backslash: bool, out: &mut Vec<u8>) {
    let mut rest = body;
    loop {
        // Copy the run up to the next quote or backslash in one go.
        let run = rest
            .iter()
            .position(|&b| b == quote || (backslash && b == b'\\'))
            .unwrap_or(rest.len());
        out.extend_from_slice(rest.get(..run).unwrap_or_default());
        rest = rest.get(run..).unwrap_or_default();
        let (special, escaped) = match rest {
            [] => return,
            [b, c, ..] => (*b, Some(*c)),
            [b] => (*b, None),
        };
        if special == quote {
            // A doubled quote stands for one; a lone one cannot occur inside a body.
            out.push(quote);
            rest = rest
                .get(if escaped == Some(quote) { 2 } else { 1 }..)
                .unwrap_or_default();
            continue;
        }
        let Some(c) = escaped else {
            out.push(b'\\');
            return;
        };
        match c {
            b'0' => out.push(0),
            b'b' => out.push(0x08),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'Z' => out.push(0x1a),
            b'%' | b'_' => {
                out.push(b'\\');
                out.push(c);
            }
            _ => out.push(c),
        }
        rest = rest.get(2..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn raw_bytes_survive_wire_text_decoding() {
        let raw: &[u8] = b"SELECT _binary'\x00\xff\xfe', 'caf\xc3\xa9', '\xef\x9c\x80'";
        let text = decode_wire_text(raw);
        assert!(text.starts_with("SELECT _binary'"));
        // Every byte between the quotes comes back, including a genuine U+F700.
        let start = text.find('\'').unwrap_or(0) + 1;
        let mut lit = text.as_bytes()[start..].to_vec();
        unmap_raw_bytes(&mut lit);
        assert_eq!(
            lit,
            b"\x00\xff\xfe', 'caf\xc3\xa9', '\xef\x9c\x80'".to_vec()
        );
        // Valid text is borrowed untouched.
        assert!(matches!(
            decode_wire_text(b"SELECT 1"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    use super::*;

    fn kinds(sql: &str) -> Vec<(TokenKind, String)> {
        tokens(sql, &LexOptions::default())
            .map(|t| {
                let t = t.expect("lexes");
                (t.kind, t.text(sql).to_string())
            })
            .collect()
    }

    fn texts(sql: &str, opts: &LexOptions) -> Vec<String> {
        tokens(sql, opts)
            .map(|t| t.expect("lexes").text(sql).to_string())
            .collect()
    }

    fn is_kw(kind: TokenKind) -> bool {
        matches!(kind, TokenKind::Keyword(_))
    }

    #[test]
    fn words_numbers_and_operators() {
        let toks = kinds("SELECT c FROM sbtest1 WHERE id=5 AND k<=>-1.5e3");
        let t: Vec<&str> = toks.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(
            t,
            [
                "SELECT", "c", "FROM", "sbtest1", "WHERE", "id", "=", "5", "AND", "k", "<=>", "-",
                "1.5e3"
            ]
        );
        assert!(is_kw(toks[0].0));
        assert_eq!(toks[1].0, TokenKind::Ident);
        assert_eq!(toks[7].0, TokenKind::Int);
        assert_eq!(toks[12].0, TokenKind::Float);
        let toks = kinds("SELECT .5, 1., 12.50, 0x41, 0b01, x'41', B'01', N'x', 1abc, 0xg");
        let k: Vec<TokenKind> = toks
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| *k != TokenKind::Op)
            .collect();
        assert_eq!(
            k[1..],
            [
                TokenKind::Decimal,
                TokenKind::Decimal,
                TokenKind::Decimal,
                TokenKind::HexNum,
                TokenKind::BitNum,
                TokenKind::HexStr,
                TokenKind::BitStr,
                TokenKind::NationalStr,
                TokenKind::Ident,
                TokenKind::Ident,
            ]
        );
        assert_eq!(
            texts("a->>'$.x' || b->'$' := c != d <> e", &LexOptions::default()),
            [
                "a", "->>", "'$.x'", "||", "b", "->", "'$'", ":=", "c", "!=", "d", "<>", "e"
            ]
        );
    }

    #[test]
    fn identifiers_around_dots_are_never_keywords() {
        let toks = kinds("SELECT t.key, status.value, t.1, `t`.select, db.t.c FROM t");
        let idents: Vec<&str> = toks
            .iter()
            .filter(|(k, _)| *k == TokenKind::Ident)
            .map(|(_, s)| s.as_str())
            .collect();
        assert_eq!(
            idents,
            [
                "t", "key", "status", "value", "t", "1", "select", "db", "t", "c", "t"
            ]
        );
        // a keyword in an identifier position without a dot stays a keyword (MySQL prints it so)
        assert!(is_kw(kinds("SELECT status FROM t")[1].0));
        // function keywords need '(' right after them
        assert!(is_kw(kinds("SELECT COUNT(*)")[1].0));
        assert_eq!(kinds("SELECT count FROM t")[1].0, TokenKind::Ident);
        assert_eq!(kinds("SELECT COUNT (*)")[1].0, TokenKind::Ident);
        // after @@ a keyword is one even before '.'
        let toks = kinds("SELECT @@session.autocommit, @@max_connections, @a, @'b', @`c`");
        assert_eq!(toks[1].0, TokenKind::SysVarPrefix);
        assert!(is_kw(toks[2].0), "SESSION");
        assert_eq!(toks[4], (TokenKind::Ident, "autocommit".to_string()));
        assert_eq!(toks[9], (TokenKind::UserVar, "@a".to_string()));
        assert_eq!(toks[11], (TokenKind::UserVar, "@'b'".to_string()));
        assert_eq!(toks[13], (TokenKind::UserVar, "@`c`".to_string()));
    }

    #[test]
    fn strings_and_quotes() {
        let ansi = LexOptions {
            ansi_quotes: true,
            ..LexOptions::default()
        };
        let toks: Vec<TokenKind> = tokens(r#"SELECT "a", 'it''s', 'a\'b'"#, &ansi)
            .map(|t| t.expect("lexes").kind)
            .collect();
        assert_eq!(toks[1], TokenKind::QuotedIdent);
        assert_eq!(toks[3], TokenKind::Str);
        assert_eq!(toks[5], TokenKind::Str);
        assert_eq!(toks.len(), 6);
        // without backslash escapes, 'a\' ends at the second quote
        let nbe = LexOptions {
            no_backslash_escapes: true,
            ..LexOptions::default()
        };
        assert_eq!(
            texts(r"SELECT 'a\', 'b'", &nbe),
            ["SELECT", r"'a\'", ",", "'b'"]
        );
        let mut out = Vec::new();
        unescape_into(br"a\nb\%\_\Z\0\x''", b'\'', true, &mut out);
        assert_eq!(out, b"a\nb\\%\\_\x1a\0x'");
    }

    #[test]
    fn comments_and_executable_comments() {
        let o = LexOptions::default();
        assert_eq!(
            texts("SELECT 1 -- x\n+ 2 # y\n, 3 /* z */", &o),
            ["SELECT", "1", "+", "2", ",", "3"]
        );
        // `--` needs whitespace after it
        assert_eq!(texts("SELECT 1--1", &o), ["SELECT", "1", "-", "-", "1"]);
        assert_eq!(
            texts(
                "SELECT /*!40001 SQL_NO_CACHE */ 1 /*!90000 , 2 */ /*M! , 3 */",
                &o
            ),
            ["SELECT", "SQL_NO_CACHE", "1"]
        );
        assert_eq!(texts("/*!SELECT*/ 1", &o), ["SELECT", "1"]);
        assert_eq!(
            texts("SELECT /*!80016 a, */ b", &o),
            ["SELECT", "a", ",", "b"]
        );
        let old = LexOptions {
            server_version: 80015,
            ..o
        };
        assert_eq!(texts("SELECT /*!80016 a, */ b", &old), ["SELECT", "b"]);
        // a skipped executable comment may contain one nested comment
        assert_eq!(
            texts("SELECT /*!99999 a /* x */ b */ c", &o),
            ["SELECT", "c"]
        );
        // hints only right after a hintable keyword
        let toks = kinds("SELECT /*+ BKA(t) */ a FROM t /*+ not a hint */");
        assert_eq!(toks[1], (TokenKind::Hint, "/*+ BKA(t) */".to_string()));
        assert_eq!(toks.len(), 5);
        assert_eq!(kinds("SELECT /* c */ /*+ BKA(t) */ 1").len(), 2);
        // NUL ends the statement
        assert_eq!(texts("SELECT 1\0garbage", &o), ["SELECT", "1"]);
    }

    #[test]
    fn errors_carry_offsets() {
        let o = LexOptions::default();
        let first_err = |sql: &str| tokens(sql, &o).find_map(Result::err).expect("an error");
        assert_eq!(
            first_err("SELECT 'abc"),
            LexError {
                kind: LexErrorKind::UnterminatedString,
                offset: 7
            }
        );
        assert_eq!(
            first_err("SELECT `abc").kind,
            LexErrorKind::UnterminatedIdentifier
        );
        assert_eq!(
            first_err("SELECT 1 /* x").kind,
            LexErrorKind::UnterminatedComment
        );
        assert_eq!(
            first_err("SELECT /*!40001 1").kind,
            LexErrorKind::UnterminatedComment
        );
        assert_eq!(first_err("SELECT X'4'").kind, LexErrorKind::BadHexString);
        assert_eq!(first_err("SELECT X'0G'").kind, LexErrorKind::BadHexString);
        assert_eq!(first_err("SELECT b'102'").kind, LexErrorKind::BadBitString);
        assert_eq!(
            first_err("SELECT 'a\\'").kind,
            LexErrorKind::UnterminatedString
        );
        let sql = "SELECT 1,\n  'abc";
        let e = first_err(sql);
        assert_eq!(e.near_text(sql), ("'abc".to_string(), 2));
        let my = e.to_my_error(sql);
        assert_eq!(my.code, 1064);
        assert!(
            my.message.ends_with("near ''abc' at line 2"),
            "{}",
            my.message
        );
    }

    #[test]
    fn splitting() {
        let o = LexOptions::default();
        let split = |sql: &str| -> Vec<String> {
            split_statements(sql, &o)
                .into_iter()
                .map(|(a, b)| sql[a..b].to_string())
                .collect()
        };
        assert_eq!(
            split("SELECT 1; SELECT ';' ;\n"),
            ["SELECT 1", "SELECT ';'"]
        );
        assert_eq!(split("SELECT 1;;  -- done\n"), ["SELECT 1"]);
        assert_eq!(split("/* a */ SELECT `;`; /* b */"), ["/* a */ SELECT `;`"]);
        assert_eq!(split("SELECT 1 /* ; */"), ["SELECT 1 /* ; */"]);
        assert!(split("").is_empty());
        assert!(split("  ; -- nothing\n ;").is_empty());
        assert!(split("\0SELECT 1").is_empty());
        assert_eq!(
            split("INSERT INTO t1 VALUES (1)\0"),
            ["INSERT INTO t1 VALUES (1)"]
        );
        assert_eq!(
            split("SELECT 1; SELECT 'oops"),
            ["SELECT 1", "SELECT 'oops"]
        );
    }

    #[test]
    fn statement_kinds() {
        let o = LexOptions::default();
        let k = |sql| statement_kind(sql, &o);
        assert_eq!(k("select 1"), StatementKind::Select);
        assert_eq!(
            k("  /* x */ ((SELECT 1)) UNION (SELECT 2)"),
            StatementKind::Select
        );
        assert_eq!(
            k("WITH a AS (SELECT 1), b AS (SELECT 2) SELECT * FROM a, b"),
            StatementKind::Select
        );
        assert_eq!(
            k("WITH RECURSIVE c(n) AS (SELECT 1) UPDATE t SET x = 1"),
            StatementKind::Update
        );
        assert_eq!(k("INSERT INTO t VALUES (1)"), StatementKind::Insert);
        assert_eq!(k("REPLACE INTO t VALUES (1)"), StatementKind::Replace);
        assert_eq!(k("START TRANSACTION READ ONLY"), StatementKind::Begin);
        assert_eq!(k("begin work"), StatementKind::Begin);
        assert_eq!(
            k("ROLLBACK WORK TO SAVEPOINT a"),
            StatementKind::RollbackToSavepoint
        );
        assert_eq!(k("ROLLBACK"), StatementKind::Rollback);
        assert_eq!(k("SET autocommit = 0"), StatementKind::Set);
        assert_eq!(k("SET @@session.sql_mode = ''"), StatementKind::Set);
        assert_eq!(
            k("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"),
            StatementKind::SetTransaction
        );
        assert_eq!(k("SET NAMES utf8mb4"), StatementKind::SetNames);
        assert_eq!(k("SET CHARACTER SET utf8mb4"), StatementKind::SetCharset);
        assert_eq!(k("/*!40101 SET NAMES utf8 */"), StatementKind::SetNames);
        assert_eq!(
            k("CREATE TEMPORARY TABLE t (a INT)"),
            StatementKind::Create(ObjectKind::Table)
        );
        assert_eq!(
            k("CREATE OR REPLACE ALGORITHM=MERGE VIEW v AS SELECT 1"),
            StatementKind::Create(ObjectKind::View)
        );
        assert_eq!(
            k("CREATE UNIQUE INDEX i ON t (a)"),
            StatementKind::Create(ObjectKind::Index)
        );
        assert_eq!(
            k("CREATE SCHEMA s"),
            StatementKind::Create(ObjectKind::Database)
        );
        assert_eq!(
            k("DROP TABLE IF EXISTS t"),
            StatementKind::Drop(ObjectKind::Table)
        );
        assert_eq!(k("DROP PREPARE s"), StatementKind::Deallocate);
        assert_eq!(
            k("ALTER TABLE t ADD c INT"),
            StatementKind::Alter(ObjectKind::Table)
        );
        assert_eq!(k("SHOW TABLES"), StatementKind::Show);
        assert_eq!(k("DESC t"), StatementKind::Explain);
        assert_eq!(k("EXPLAIN SELECT 1"), StatementKind::Explain);
        assert_eq!(k("USE db"), StatementKind::Use);
        assert_eq!(k("START REPLICA"), StatementKind::StartReplica);
        assert_eq!(k("  -- nothing\n"), StatementKind::Empty);
        assert_eq!(k("frobnicate"), StatementKind::Other);
        assert_eq!(k("'oops"), StatementKind::Other);
    }
}
