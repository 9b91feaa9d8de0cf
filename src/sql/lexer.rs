//! Interim lexer: statement splitting and classification, no literal lifting yet.

#[derive(Clone, Copy, Debug)]
pub struct LexOptions {
    pub ansi_quotes: bool,
    pub no_backslash_escapes: bool,
    pub server_version: u32,
}

impl Default for LexOptions {
    fn default() -> Self {
        LexOptions {
            ansi_quotes: false,
            no_backslash_escapes: false,
            server_version: 80040,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Int(i64),
    UInt(u64),
    Decimal(String),
    Double(f64),
    Str(Vec<u8>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Literal(usize),
    Param(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StatementKind {
    Select,
    Insert,
    Update,
    Delete,
    Replace,
    Begin,
    Commit,
    Rollback,
    Set,
    Show,
    Use,
    Create,
    Drop,
    Alter,
    Other,
}

#[derive(Clone, Debug, Default)]
pub struct Normalized {
    pub param_text: String,
    pub literals: Vec<Literal>,
    pub literal_spans: Vec<(usize, usize)>,
    pub placeholders: Vec<Mark>,
    pub digest_text: String,
    pub kind: Option<StatementKind>,
}

#[derive(Clone, Debug)]
pub struct LexError {
    pub pos: usize,
    pub msg: &'static str,
}

impl LexError {
    pub fn near_text(&self, sql: &str) -> (String, usize) {
        let pos = self.pos.min(sql.len());
        let mut p = pos;
        while !sql.is_char_boundary(p) {
            p -= 1;
        }
        let line = sql[..p].matches('\n').count() + 1;
        (sql[p..].chars().take(80).collect(), line)
    }
}

/// Scan over a statement: yields (byte offset, is_code) for each char outside strings and
/// comments; used by the helpers below.
fn scan(sql: &str, mut f: impl FnMut(usize, char) -> bool) -> Result<(), LexError> {
    let b = sql.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\'' | b'"' | b'`' => {
                let q = c;
                let start = i;
                i += 1;
                loop {
                    if i >= b.len() {
                        return Err(LexError {
                            pos: start,
                            msg: "unterminated quoted text",
                        });
                    }
                    if b[i] == b'\\' && q != b'`' {
                        i += 2;
                        continue;
                    }
                    if b[i] == q {
                        if i + 1 < b.len() && b[i + 1] == q {
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'-' if b.get(i + 1) == Some(&b'-')
                && b.get(i + 2).is_none_or(|c| c.is_ascii_whitespace()) =>
            {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') && b.get(i + 2) != Some(&b'!') => {
                let start = i;
                i += 2;
                loop {
                    if i + 1 >= b.len() {
                        return Err(LexError {
                            pos: start,
                            msg: "unterminated comment",
                        });
                    }
                    if b[i] == b'*' && b[i + 1] == b'/' {
                        i += 2;
                        break;
                    }
                    i += 1;
                }
            }
            _ => {
                if !f(i, c as char) {
                    return Ok(());
                }
                i += 1;
            }
        }
    }
    Ok(())
}

pub fn split_statements(sql: &str, _opts: &LexOptions) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let _ = scan(sql, |i, c| {
        if c == ';' {
            out.push((start, i));
            start = i + 1;
        }
        true
    });
    out.push((start, sql.len()));
    out.retain(|(s, e)| !is_blank(&sql[*s..*e]));
    out
}

fn is_blank(s: &str) -> bool {
    let mut blank = true;
    let _ = scan(s, |_, c| {
        if !c.is_whitespace() {
            blank = false;
            return false;
        }
        true
    });
    blank
}

pub fn statement_kind(sql: &str) -> StatementKind {
    let mut word = String::new();
    let _ = scan(sql, |_, c| {
        if c.is_ascii_alphabetic() {
            word.push(c.to_ascii_uppercase());
            true
        } else {
            word.is_empty()
        }
    });
    match word.as_str() {
        "SELECT" | "WITH" => StatementKind::Select,
        "INSERT" => StatementKind::Insert,
        "UPDATE" => StatementKind::Update,
        "DELETE" => StatementKind::Delete,
        "REPLACE" => StatementKind::Replace,
        "BEGIN" | "START" => StatementKind::Begin,
        "COMMIT" => StatementKind::Commit,
        "ROLLBACK" => StatementKind::Rollback,
        "SET" => StatementKind::Set,
        "SHOW" => StatementKind::Show,
        "USE" => StatementKind::Use,
        "CREATE" => StatementKind::Create,
        "DROP" => StatementKind::Drop,
        "ALTER" => StatementKind::Alter,
        _ => StatementKind::Other,
    }
}

pub fn normalize(sql: &str, _opts: &LexOptions) -> Result<Normalized, LexError> {
    let sql = match sql.find('\0') {
        Some(p) => &sql[..p],
        None => sql,
    };
    let mut placeholders = Vec::new();
    scan(sql, |_, c| {
        if c == '?' {
            placeholders.push(Mark::Param(placeholders.len()));
        }
        true
    })?;
    Ok(Normalized {
        param_text: sql.trim().to_string(),
        literals: Vec::new(),
        literal_spans: Vec::new(),
        placeholders,
        digest_text: String::new(),
        kind: Some(statement_kind(sql)),
    })
}

/// Positions of `?` placeholders outside strings and comments.
pub fn placeholder_positions(sql: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let _ = scan(sql, |i, c| {
        if c == '?' {
            out.push(i);
        }
        true
    });
    out
}
