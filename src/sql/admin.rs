//! Administrative statements, parsed by Quire itself.
//!
//! sqlparser-rs models MySQL's transaction, SHOW, account and maintenance statements only
//! loosely (e.g. `SET SESSION TRANSACTION` loses its scope, `SHOW INDEX FROM t` becomes a
//! variable name, `CREATE USER 'u'@'h'` does not parse). Their grammars are small and regular,
//! so Quire parses them here over sqlparser's tokens, precisely as MySQL 8.0 defines them.
//! Expressions inside them (SHOW … WHERE, KILL <expr>) are handed back to sqlparser.
//!
//! [`parse`] returns `Ok(None)` for anything it does not own; the caller then uses sqlparser.

use super::parse::parse_expr;
use crate::error::{MyError, Result};
use crate::storage::txn::Isolation;
use sqlparser::ast;
use sqlparser::dialect::MySqlDialect;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer};

#[derive(Clone, Debug, PartialEq)]
pub enum Filter {
    None,
    Like(String),
    Where(Box<ast::Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Show {
    Variables {
        global: bool,
        filter: Filter,
    },
    Status {
        global: bool,
        filter: Filter,
    },
    Databases {
        filter: Filter,
    },
    Tables {
        full: bool,
        db: Option<String>,
        filter: Filter,
    },
    TableStatus {
        db: Option<String>,
        filter: Filter,
    },
    Columns {
        full: bool,
        table: (Option<String>, String),
        filter: Filter,
    },
    Index {
        table: (Option<String>, String),
        filter: Filter,
    },
    CreateTable((Option<String>, String)),
    CreateView((Option<String>, String)),
    CreateDatabase {
        if_not_exists: bool,
        db: String,
    },
    CreateUser {
        user: String,
        host: String,
    },
    Warnings {
        errors_only: bool,
        count: bool,
        limit: Option<(u64, u64)>,
    },
    Engines,
    Charset {
        filter: Filter,
    },
    Collation {
        filter: Filter,
    },
    Processlist {
        full: bool,
    },
    Grants {
        user: Option<(String, String)>,
    },
    Privileges,
    Plugins,
    MasterStatus,
    BinaryLogs,
    /// SHOW BINLOG EVENTS [IN 'file'] [FROM pos] [LIMIT [offset,] count]
    BinlogEvents {
        file: Option<String>,
        from: u64,
        limit: Option<(u64, u64)>,
    },
    EngineStatus(String),
    OpenTables,
    Profiles,
    /// SHOW PROFILE [type, …] [FOR QUERY n] [LIMIT n [OFFSET m]]; `types` is a set of
    /// [`profile_type`] bits.
    Profile {
        types: u32,
        query: Option<u64>,
        limit: Option<u64>,
        offset: u64,
    },
    Triggers,
    Events,
    ProcedureStatus,
    FunctionStatus,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxScope {
    /// The next transaction only.
    Next,
    Session,
    Global,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Maintenance {
    Analyze,
    Optimize,
    Check,
    Repair,
    Checksum,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AdminStmt {
    Begin {
        read_only: Option<bool>,
        consistent_snapshot: bool,
    },
    Commit {
        chain: bool,
        release: bool,
    },
    Rollback {
        chain: bool,
        release: bool,
        savepoint: Option<String>,
    },
    Savepoint(String),
    ReleaseSavepoint(String),
    SetTransaction {
        scope: TxScope,
        isolation: Option<Isolation>,
        read_only: Option<bool>,
    },
    Use(String),
    Show(Show),
    Kill {
        query_only: bool,
        id: Box<ast::Expr>,
    },
    CreateUser {
        if_not_exists: bool,
        users: Vec<UserSpec>,
    },
    AlterUser {
        if_exists: bool,
        users: Vec<UserSpec>,
    },
    DropUser {
        if_exists: bool,
        users: Vec<(String, String)>,
    },
    SetPassword {
        user: Option<(String, String)>,
        password: String,
    },
    /// GRANT / REVOKE: accepted (Quire has no privilege system: every account may do
    /// everything; see the README).
    Grant,
    Flush(Vec<String>),
    Maintenance {
        op: Maintenance,
        tables: Vec<(Option<String>, String)>,
    },
    LockTables,
    UnlockTables,
    Describe {
        table: (Option<String>, String),
        column: Option<String>,
    },
    Do(Vec<ast::Expr>),
    /// PURGE BINARY LOGS TO 'file' / BEFORE 'datetime'
    PurgeLogs(PurgeTarget),
    /// RESET MASTER [TO n]
    ResetMaster(Option<u64>),
    /// CREATE [OR REPLACE] VIEW / ALTER VIEW
    CreateView(Box<ViewSpec>),
}

/// `CREATE [OR REPLACE] [ALGORITHM = a] [DEFINER = user] [SQL SECURITY s] VIEW name
/// [(columns)] AS select [WITH [CASCADED | LOCAL] CHECK OPTION]`, or `ALTER …` the same.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewSpec {
    pub alter: bool,
    pub or_replace: bool,
    pub algorithm: Option<String>,
    pub definer: Option<(String, String)>,
    pub security: Option<String>,
    pub name: (Option<String>, String),
    pub columns: Option<Vec<String>>,
    /// The SELECT's text as written.
    pub select: String,
    pub check: crate::storage::schema::CheckOption,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PurgeTarget {
    To(String),
    Before(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct UserSpec {
    pub user: String,
    pub host: String,
    pub plugin: Option<String>,
    pub password: Option<String>,
}

struct P<'a> {
    text: &'a str,
    toks: Vec<TokenWithSpan>,
    pos: usize,
}

fn upper(t: &Token) -> Option<String> {
    match t {
        Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
        _ => None,
    }
}

impl<'a> P<'a> {
    fn peek(&self) -> &Token {
        self.toks
            .get(self.pos)
            .map(|t| &t.token)
            .unwrap_or(&Token::EOF)
    }

    fn peek_kw(&self) -> Option<String> {
        upper(self.peek())
    }

    fn kw_at(&self, i: usize) -> Option<String> {
        self.toks.get(self.pos + i).and_then(|t| upper(&t.token))
    }

    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, kw: &str) -> bool {
        if self.peek_kw().as_deref() == Some(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat_tok(&mut self, t: &Token) -> bool {
        if self.peek() == t {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, kw: &str) -> Result<()> {
        if self.eat(kw) {
            Ok(())
        } else {
            Err(self.error())
        }
    }

    fn error(&self) -> MyError {
        let off = self.offset();
        MyError::parse(self.text.get(off..).unwrap_or(""), 1)
    }

    fn offset(&self) -> usize {
        match self.toks.get(self.pos) {
            Some(t) => {
                let (line, col) = (t.span.start.line, t.span.start.column);
                let mut off = 0;
                for (i, l) in self.text.split_inclusive('\n').enumerate() {
                    if i as u64 + 1 == line {
                        return off
                            + l.char_indices()
                                .nth(col.saturating_sub(1) as usize)
                                .map(|(b, _)| b)
                                .unwrap_or(l.len());
                    }
                    off += l.len();
                }
                self.text.len()
            }
            None => self.text.len(),
        }
    }

    fn at_end(&mut self) -> bool {
        while self.peek() == &Token::SemiColon {
            self.pos += 1;
        }
        matches!(self.peek(), Token::EOF)
    }

    fn end(&mut self) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error())
        }
    }

    /// An identifier (quoted or not) or a string (for user names).
    fn ident(&mut self) -> Result<String> {
        match self.next() {
            Token::Word(w) => Ok(w.value),
            Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => Ok(s),
            _ => {
                self.pos = self.pos.saturating_sub(1);
                Err(self.error())
            }
        }
    }

    fn string(&mut self) -> Result<String> {
        match self.next() {
            Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => Ok(s),
            _ => {
                self.pos = self.pos.saturating_sub(1);
                Err(self.error())
            }
        }
    }

    /// `[db.]name`
    fn table_name(&mut self) -> Result<(Option<String>, String)> {
        let first = self.ident()?;
        if self.eat_tok(&Token::Period) {
            let second = self.ident()?;
            Ok((Some(first), second))
        } else {
            Ok((None, first))
        }
    }

    /// `'user'@'host'` (host defaults to `%`); also `CURRENT_USER[()]`.
    fn user(&mut self) -> Result<(String, String)> {
        if self.eat("CURRENT_USER") {
            if self.eat_tok(&Token::LParen) && !self.eat_tok(&Token::RParen) {
                return Err(self.error());
            }
            return Ok(("\u{0}current".into(), String::new()));
        }
        // sqlparser's MySQL tokenizer glues `@` into unquoted words: `u@host`, `u@` + `'host'`.
        let (user, glued) = match self.next() {
            Token::Word(w) if w.quote_style.is_none() && w.value.contains('@') => {
                let (u, h) = w.value.split_once('@').unwrap_or((&w.value, ""));
                (u.to_string(), Some(h.to_string()))
            }
            Token::Word(w) => (w.value, None),
            Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => (s, None),
            _ => {
                self.pos = self.pos.saturating_sub(1);
                return Err(self.error());
            }
        };
        match glued {
            Some(h) if !h.is_empty() => return Ok((user, h)),
            Some(_) => return Ok((user, self.ident()?)),
            None => {}
        }
        if let Token::Word(w) = self.peek().clone()
            && w.quote_style.is_none()
            && let Some(h) = w.value.strip_prefix('@')
        {
            self.pos += 1;
            if h.is_empty() {
                return Ok((user, self.ident()?));
            }
            return Ok((user, h.to_string()));
        }
        if self.eat_tok(&Token::AtSign) {
            let host = self.ident()?;
            return Ok((user, host));
        }
        Ok((user, "%".into()))
    }

    /// The rest of the text from the current token, as an expression.
    fn rest_expr(&mut self) -> Result<ast::Expr> {
        let off = self.offset();
        let rest = self.text.get(off..).unwrap_or("");
        let e = parse_expr(rest)?;
        self.pos = self.toks.len();
        Ok(e)
    }

    fn filter(&mut self) -> Result<Filter> {
        if self.eat("LIKE") {
            return Ok(Filter::Like(self.string()?));
        }
        if self.eat("WHERE") {
            return Ok(Filter::Where(Box::new(self.rest_expr()?)));
        }
        Ok(Filter::None)
    }

    /// `FROM db` / `IN db`
    fn db_after_from(&mut self) -> Result<Option<String>> {
        if self.eat("FROM") || self.eat("IN") {
            Ok(Some(self.ident()?))
        } else {
            Ok(None)
        }
    }
}

/// CREATE/ALTER VIEW (see [`ViewSpec`]); `None`, with the position back at the start, when
/// the statement is not about a view.
fn view_spec(p: &mut P, alter: bool) -> Result<Option<ViewSpec>> {
    use crate::storage::schema::CheckOption;
    p.pos = 1;
    let mut or_replace = false;
    if !alter && p.eat("OR") {
        if !p.eat("REPLACE") {
            p.pos = 0;
            return Ok(None);
        }
        or_replace = true;
    }
    let (mut algorithm, mut definer, mut security) = (None, None, None);
    if p.eat("ALGORITHM") {
        p.eat_tok(&Token::Eq);
        let a = p.ident()?.to_ascii_uppercase();
        if !matches!(a.as_str(), "UNDEFINED" | "MERGE" | "TEMPTABLE") {
            p.pos -= 1;
            return Err(p.error());
        }
        algorithm = Some(a);
    }
    if p.eat("DEFINER") {
        p.eat_tok(&Token::Eq);
        definer = Some(p.user()?);
    }
    if p.eat("SQL") {
        p.expect("SECURITY")?;
        let s = p.ident()?.to_ascii_uppercase();
        if !matches!(s.as_str(), "DEFINER" | "INVOKER") {
            p.pos -= 1;
            return Err(p.error());
        }
        security = Some(s);
    }
    if !p.eat("VIEW") {
        if algorithm.is_some() || definer.is_some() || security.is_some() || or_replace {
            return Err(p.error());
        }
        p.pos = 0;
        return Ok(None);
    }
    let name = p.table_name()?;
    let mut columns = None;
    if p.eat_tok(&Token::LParen) {
        let mut cols = vec![p.ident()?];
        while p.eat_tok(&Token::Comma) {
            cols.push(p.ident()?);
        }
        if !p.eat_tok(&Token::RParen) {
            return Err(p.error());
        }
        columns = Some(cols);
    }
    p.expect("AS")?;
    let start = p.offset();
    // WITH [CASCADED | LOCAL] CHECK OPTION ends the statement.
    let mut end_tok = p.toks.len();
    while end_tok > p.pos && p.toks[end_tok - 1].token == Token::SemiColon {
        end_tok -= 1;
    }
    let word_at = |i: usize| p.toks.get(i).and_then(|t| upper(&t.token));
    let mut check = CheckOption::None;
    if end_tok >= p.pos + 3
        && word_at(end_tok - 1).as_deref() == Some("OPTION")
        && word_at(end_tok - 2).as_deref() == Some("CHECK")
    {
        let (kind, with_at) = match word_at(end_tok - 3).as_deref() {
            Some("CASCADED") => (CheckOption::Cascaded, end_tok - 4),
            Some("LOCAL") => (CheckOption::Local, end_tok - 4),
            _ => (CheckOption::Cascaded, end_tok - 3),
        };
        if with_at >= p.pos && word_at(with_at).as_deref() == Some("WITH") {
            check = kind;
            end_tok = with_at;
        }
    }
    let end = if end_tok < p.toks.len() {
        let saved = p.pos;
        p.pos = end_tok;
        let off = p.offset();
        p.pos = saved;
        off
    } else {
        p.text.len()
    };
    let select = p.text.get(start..end).unwrap_or("").trim().to_string();
    if select.is_empty() {
        return Err(p.error());
    }
    Ok(Some(ViewSpec {
        alter,
        or_replace,
        algorithm,
        definer,
        security,
        name,
        columns,
        select,
        check,
    }))
}

/// Parse `text` if it is one of the statements this module owns.
pub fn parse(text: &str) -> Result<Option<AdminStmt>> {
    // Cheap pre-check on the first word before tokenizing.
    let first: String = text
        .trim_start_matches(|c: char| c.is_whitespace() || c == '(')
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '_')
        .collect::<String>()
        .to_ascii_uppercase();
    let candidates = [
        "BEGIN",
        "START",
        "COMMIT",
        "ROLLBACK",
        "SAVEPOINT",
        "RELEASE",
        "SET",
        "USE",
        "SHOW",
        "KILL",
        "CREATE",
        "ALTER",
        "DROP",
        "GRANT",
        "REVOKE",
        "FLUSH",
        "ANALYZE",
        "OPTIMIZE",
        "CHECK",
        "REPAIR",
        "CHECKSUM",
        "LOCK",
        "UNLOCK",
        "DESCRIBE",
        "DESC",
        "EXPLAIN",
        "DO",
        "PURGE",
        "RESET",
    ];
    if !candidates.contains(&first.as_str()) {
        return Ok(None);
    }
    let dialect = MySqlDialect {};
    let toks = match Tokenizer::new(&dialect, text).tokenize_with_location() {
        Ok(t) => t,
        Err(_) => return Ok(None),
    };
    let toks: Vec<TokenWithSpan> = toks
        .into_iter()
        .filter(|t| !matches!(t.token, Token::Whitespace(_)))
        .collect();
    let mut p = P { text, toks, pos: 0 };
    let stmt = match first.as_str() {
        "BEGIN" => {
            p.next();
            p.eat("WORK");
            p.end()?;
            AdminStmt::Begin {
                read_only: None,
                consistent_snapshot: false,
            }
        }
        "START" => {
            p.next();
            if !p.eat("TRANSACTION") {
                return Ok(None);
            }
            let mut read_only = None;
            let mut consistent_snapshot = false;
            loop {
                if p.eat("READ") {
                    if p.eat("ONLY") {
                        read_only = Some(true);
                    } else {
                        p.expect("WRITE")?;
                        read_only = Some(false);
                    }
                } else if p.eat("WITH") {
                    p.expect("CONSISTENT")?;
                    p.expect("SNAPSHOT")?;
                    consistent_snapshot = true;
                } else {
                    break;
                }
                if !p.eat_tok(&Token::Comma) {
                    break;
                }
            }
            p.end()?;
            AdminStmt::Begin {
                read_only,
                consistent_snapshot,
            }
        }
        "COMMIT" | "ROLLBACK" => {
            p.next();
            p.eat("WORK");
            let mut savepoint = None;
            if first == "ROLLBACK" && p.eat("TO") {
                p.eat("SAVEPOINT");
                savepoint = Some(p.ident()?);
            }
            let mut chain = false;
            let mut release = false;
            if p.eat("AND") {
                let no = p.eat("NO");
                p.expect("CHAIN")?;
                chain = !no;
            }
            if p.eat("NO") {
                p.expect("RELEASE")?;
            } else if p.eat("RELEASE") {
                release = true;
            }
            p.end()?;
            if first == "COMMIT" {
                AdminStmt::Commit { chain, release }
            } else {
                AdminStmt::Rollback {
                    chain,
                    release,
                    savepoint,
                }
            }
        }
        "SAVEPOINT" => {
            p.next();
            let n = p.ident()?;
            p.end()?;
            AdminStmt::Savepoint(n)
        }
        "RELEASE" => {
            p.next();
            p.expect("SAVEPOINT")?;
            let n = p.ident()?;
            p.end()?;
            AdminStmt::ReleaseSavepoint(n)
        }
        "SET" => {
            // Only SET [scope] TRANSACTION and SET PASSWORD here; other SETs go to sqlparser.
            let scope_kw = p.kw_at(1);
            let (scope, at) = match scope_kw.as_deref() {
                Some("GLOBAL") => (TxScope::Global, 2),
                Some("SESSION") | Some("LOCAL") => (TxScope::Session, 2),
                _ => (TxScope::Next, 1),
            };
            if p.kw_at(at).as_deref() == Some("TRANSACTION") {
                p.pos = at + 1;
                let mut isolation = None;
                let mut read_only = None;
                loop {
                    if p.eat("ISOLATION") {
                        p.expect("LEVEL")?;
                        isolation = Some(if p.eat("READ") {
                            if p.eat("COMMITTED") {
                                Isolation::ReadCommitted
                            } else {
                                p.expect("UNCOMMITTED")?;
                                Isolation::ReadUncommitted
                            }
                        } else if p.eat("REPEATABLE") {
                            p.expect("READ")?;
                            Isolation::RepeatableRead
                        } else {
                            p.expect("SERIALIZABLE")?;
                            Isolation::Serializable
                        });
                    } else if p.eat("READ") {
                        if p.eat("ONLY") {
                            read_only = Some(true);
                        } else {
                            p.expect("WRITE")?;
                            read_only = Some(false);
                        }
                    } else {
                        return Err(p.error());
                    }
                    if !p.eat_tok(&Token::Comma) {
                        break;
                    }
                }
                p.end()?;
                AdminStmt::SetTransaction {
                    scope,
                    isolation,
                    read_only,
                }
            } else if p.kw_at(1).as_deref() == Some("PASSWORD") {
                p.pos = 2;
                let user = if p.eat("FOR") { Some(p.user()?) } else { None };
                if !p.eat_tok(&Token::Eq) {
                    return Err(p.error());
                }
                let password = p.string()?;
                p.end()?;
                AdminStmt::SetPassword { user, password }
            } else {
                return Ok(None);
            }
        }
        "USE" => {
            p.next();
            let db = p.ident()?;
            p.end()?;
            AdminStmt::Use(db)
        }
        "SHOW" => {
            p.next();
            match parse_show(&mut p)? {
                Some(s) => {
                    p.end()?;
                    AdminStmt::Show(s)
                }
                None => return Err(p.error()),
            }
        }
        "KILL" => {
            p.next();
            let query_only = if p.eat("QUERY") {
                true
            } else {
                p.eat("CONNECTION");
                false
            };
            let id = Box::new(p.rest_expr()?);
            AdminStmt::Kill { query_only, id }
        }
        "CREATE" | "ALTER" | "DROP" => {
            if first != "DROP"
                && let Some(spec) = view_spec(&mut p, first == "ALTER")?
            {
                return Ok(Some(AdminStmt::CreateView(Box::new(spec))));
            }
            if p.kw_at(1).as_deref() != Some("USER") {
                return Ok(None);
            }
            p.pos = 2;
            let mut if_exists = false;
            if p.eat("IF") {
                if first == "CREATE" {
                    p.expect("NOT")?;
                }
                p.expect("EXISTS")?;
                if_exists = true;
            }
            if first == "DROP" {
                let mut users = vec![p.user()?];
                while p.eat_tok(&Token::Comma) {
                    users.push(p.user()?);
                }
                p.end()?;
                AdminStmt::DropUser { if_exists, users }
            } else {
                let mut users = Vec::new();
                loop {
                    let (user, host) = p.user()?;
                    let mut spec = UserSpec {
                        user,
                        host,
                        plugin: None,
                        password: None,
                    };
                    if p.eat("IDENTIFIED") {
                        if p.eat("WITH") {
                            spec.plugin = Some(p.ident()?);
                            if p.eat("BY") {
                                spec.password = Some(p.string()?);
                            } else if p.eat("AS") {
                                return Err(MyError::not_supported("IDENTIFIED WITH … AS 'hash'"));
                            }
                        } else {
                            p.expect("BY")?;
                            p.eat("PASSWORD");
                            spec.password = Some(p.string()?);
                        }
                    }
                    users.push(spec);
                    if !p.eat_tok(&Token::Comma) {
                        break;
                    }
                }
                // Account options (REQUIRE, WITH, PASSWORD EXPIRE, ACCOUNT LOCK…) are not
                // supported.
                if !p.at_end() {
                    return Err(MyError::not_supported("CREATE/ALTER USER account options"));
                }
                if first == "CREATE" {
                    AdminStmt::CreateUser {
                        if_not_exists: if_exists,
                        users,
                    }
                } else {
                    AdminStmt::AlterUser { if_exists, users }
                }
            }
        }
        "GRANT" | "REVOKE" => AdminStmt::Grant,
        "PURGE" => {
            p.next();
            if !p.eat("BINARY") {
                p.expect("MASTER")?;
            }
            p.expect("LOGS")?;
            let target = if p.eat("TO") {
                PurgeTarget::To(p.string()?)
            } else {
                p.expect("BEFORE")?;
                PurgeTarget::Before(p.string()?)
            };
            p.end()?;
            AdminStmt::PurgeLogs(target)
        }
        "RESET" => {
            p.next();
            if !p.eat("MASTER") {
                if p.eat("BINARY") {
                    p.expect("LOGS")?;
                    p.expect("AND")?;
                    p.expect("GTIDS")?;
                } else {
                    return Ok(None);
                }
            }
            let to = if p.eat("TO") {
                match p.next() {
                    Token::Number(n, _) => Some(n.parse().map_err(|_| p.error())?),
                    _ => return Err(p.error()),
                }
            } else {
                None
            };
            p.end()?;
            AdminStmt::ResetMaster(to)
        }
        "FLUSH" => {
            p.next();
            p.eat("NO_WRITE_TO_BINLOG");
            p.eat("LOCAL");
            let mut what = Vec::new();
            while !p.at_end() {
                match p.next() {
                    Token::Word(w) => what.push(w.value.to_ascii_uppercase()),
                    Token::Comma => {}
                    _ => return Err(p.error()),
                }
            }
            AdminStmt::Flush(what)
        }
        "ANALYZE" | "OPTIMIZE" | "CHECK" | "REPAIR" | "CHECKSUM" => {
            p.next();
            p.eat("NO_WRITE_TO_BINLOG");
            p.eat("LOCAL");
            if !p.eat("TABLE") {
                return Ok(None);
            }
            let mut tables = vec![p.table_name()?];
            while p.eat_tok(&Token::Comma) {
                tables.push(p.table_name()?);
            }
            // Options like QUICK / EXTENDED / FOR UPGRADE are accepted.
            while !p.at_end() {
                p.next();
            }
            let op = match first.as_str() {
                "ANALYZE" => Maintenance::Analyze,
                "OPTIMIZE" => Maintenance::Optimize,
                "CHECK" => Maintenance::Check,
                "REPAIR" => Maintenance::Repair,
                _ => Maintenance::Checksum,
            };
            AdminStmt::Maintenance { op, tables }
        }
        "LOCK" => {
            if p.kw_at(1).as_deref() != Some("TABLES") && p.kw_at(1).as_deref() != Some("TABLE") {
                return Ok(None);
            }
            AdminStmt::LockTables
        }
        "UNLOCK" => {
            p.next();
            if !(p.eat("TABLES") || p.eat("TABLE")) {
                return Err(p.error());
            }
            p.end()?;
            AdminStmt::UnlockTables
        }
        "DESCRIBE" | "DESC" | "EXPLAIN" => {
            // EXPLAIN/DESCRIBE <table> [col]; EXPLAIN <statement> goes to sqlparser.
            let next = p.kw_at(1);
            if matches!(
                next.as_deref(),
                Some(
                    "SELECT"
                        | "INSERT"
                        | "UPDATE"
                        | "DELETE"
                        | "REPLACE"
                        | "FORMAT"
                        | "EXTENDED"
                        | "ANALYZE"
                        | "PARTITIONS"
                        | "WITH"
                        | "TABLE"
                )
            ) || matches!(p.toks.get(1).map(|t| &t.token), Some(Token::LParen))
            {
                return Ok(None);
            }
            p.next();
            let table = p.table_name()?;
            let column = if p.at_end() { None } else { Some(p.ident()?) };
            p.end()?;
            AdminStmt::Describe { table, column }
        }
        "DO" => {
            p.next();
            let off = p.offset();
            let rest = text.get(off..).unwrap_or("");
            let q = format!("SELECT {rest}");
            let stmt = sqlparser::parser::Parser::parse_sql(&dialect, &q)
                .map_err(|e| super::parse::parse_error(&q, &e))?;
            let mut exprs = Vec::new();
            if let Some(ast::Statement::Query(q)) = stmt.first()
                && let ast::SetExpr::Select(s) = q.body.as_ref()
            {
                for item in &s.projection {
                    match item {
                        ast::SelectItem::UnnamedExpr(e)
                        | ast::SelectItem::ExprWithAlias { expr: e, .. } => exprs.push(e.clone()),
                        _ => return Err(MyError::parse(rest, 1)),
                    }
                }
            }
            AdminStmt::Do(exprs)
        }
        _ => return Ok(None),
    };
    Ok(Some(stmt))
}

fn parse_show(p: &mut P) -> Result<Option<Show>> {
    let global = if p.eat("GLOBAL") {
        Some(true)
    } else if p.eat("SESSION") || p.eat("LOCAL") {
        Some(false)
    } else {
        None
    };
    let full = p.eat("FULL");
    let kw = p.peek_kw().unwrap_or_default();
    Ok(Some(match kw.as_str() {
        "VARIABLES" => {
            p.next();
            Show::Variables {
                global: global.unwrap_or(false),
                filter: p.filter()?,
            }
        }
        "STATUS" => {
            p.next();
            Show::Status {
                global: global.unwrap_or(false),
                filter: p.filter()?,
            }
        }
        "DATABASES" | "SCHEMAS" => {
            p.next();
            Show::Databases {
                filter: p.filter()?,
            }
        }
        "TABLES" => {
            p.next();
            let db = p.db_after_from()?;
            Show::Tables {
                full,
                db,
                filter: p.filter()?,
            }
        }
        "TABLE" => {
            p.next();
            p.expect("STATUS")?;
            let db = p.db_after_from()?;
            Show::TableStatus {
                db,
                filter: p.filter()?,
            }
        }
        "COLUMNS" | "FIELDS" => {
            p.next();
            if !(p.eat("FROM") || p.eat("IN")) {
                return Err(p.error());
            }
            let (mut db, t) = p.table_name()?;
            if let Some(d) = p.db_after_from()? {
                db = Some(d);
            }
            Show::Columns {
                full,
                table: (db, t),
                filter: p.filter()?,
            }
        }
        "INDEX" | "INDEXES" | "KEYS" => {
            p.next();
            if !(p.eat("FROM") || p.eat("IN")) {
                return Err(p.error());
            }
            let (mut db, t) = p.table_name()?;
            if let Some(d) = p.db_after_from()? {
                db = Some(d);
            }
            Show::Index {
                table: (db, t),
                filter: p.filter()?,
            }
        }
        "CREATE" => {
            p.next();
            if p.eat("TABLE") {
                Show::CreateTable(p.table_name()?)
            } else if p.eat("DATABASE") || p.eat("SCHEMA") {
                let mut if_not_exists = false;
                if p.eat("IF") {
                    p.expect("NOT")?;
                    p.expect("EXISTS")?;
                    if_not_exists = true;
                }
                Show::CreateDatabase {
                    if_not_exists,
                    db: p.ident()?,
                }
            } else if p.eat("USER") {
                let (user, host) = p.user()?;
                Show::CreateUser { user, host }
            } else if p.eat("VIEW") {
                Show::CreateView(p.table_name()?)
            } else {
                return Err(p.error());
            }
        }
        "WARNINGS" | "ERRORS" => {
            p.next();
            let limit = parse_limit(p)?;
            Show::Warnings {
                errors_only: kw == "ERRORS",
                count: false,
                limit,
            }
        }
        "COUNT" => {
            p.next();
            if !(p.eat_tok(&Token::LParen) && p.eat_tok(&Token::Mul) && p.eat_tok(&Token::RParen)) {
                return Err(p.error());
            }
            let what = p.peek_kw().unwrap_or_default();
            if what != "WARNINGS" && what != "ERRORS" {
                return Err(p.error());
            }
            p.next();
            Show::Warnings {
                errors_only: what == "ERRORS",
                count: true,
                limit: None,
            }
        }
        "ENGINES" => {
            p.next();
            Show::Engines
        }
        "STORAGE" => {
            p.next();
            p.expect("ENGINES")?;
            Show::Engines
        }
        "CHARACTER" => {
            p.next();
            p.expect("SET")?;
            Show::Charset {
                filter: p.filter()?,
            }
        }
        "CHARSET" => {
            p.next();
            Show::Charset {
                filter: p.filter()?,
            }
        }
        "COLLATION" => {
            p.next();
            Show::Collation {
                filter: p.filter()?,
            }
        }
        "PROCESSLIST" => {
            p.next();
            Show::Processlist { full }
        }
        "GRANTS" => {
            p.next();
            let user = if p.eat("FOR") { Some(p.user()?) } else { None };
            Show::Grants { user }
        }
        "PRIVILEGES" => {
            p.next();
            Show::Privileges
        }
        "PLUGINS" => {
            p.next();
            Show::Plugins
        }
        "MASTER" | "BINARY" => {
            p.next();
            if p.eat("STATUS") {
                Show::MasterStatus
            } else if kw == "BINARY" && (p.eat("LOGS") || p.eat("LOG")) {
                if p.eat("STATUS") {
                    Show::MasterStatus
                } else {
                    Show::BinaryLogs
                }
            } else if kw == "MASTER" && p.eat("LOGS") {
                Show::BinaryLogs
            } else {
                return Err(p.error());
            }
        }
        "BINLOG" => {
            p.next();
            p.expect("EVENTS")?;
            let file = if p.eat("IN") { Some(p.string()?) } else { None };
            let from = if p.eat("FROM") {
                match p.next() {
                    Token::Number(n, _) => n.parse().map_err(|_| p.error())?,
                    _ => return Err(p.error()),
                }
            } else {
                4
            };
            let limit = parse_limit(p)?;
            Show::BinlogEvents { file, from, limit }
        }
        "ENGINE" => {
            p.next();
            let e = p.ident()?;
            p.expect("STATUS")?;
            Show::EngineStatus(e)
        }
        "OPEN" => {
            p.next();
            p.expect("TABLES")?;
            let _ = p.db_after_from()?;
            let _ = p.filter()?;
            Show::OpenTables
        }
        "PROFILES" => {
            p.next();
            Show::Profiles
        }
        "PROFILE" => {
            p.next();
            parse_show_profile(p)?
        }
        "TRIGGERS" => {
            p.next();
            let _ = p.db_after_from()?;
            let _ = p.filter()?;
            Show::Triggers
        }
        "EVENTS" => {
            p.next();
            let _ = p.db_after_from()?;
            let _ = p.filter()?;
            Show::Events
        }
        "PROCEDURE" | "FUNCTION" => {
            p.next();
            p.expect("STATUS")?;
            let _ = p.filter()?;
            if kw == "PROCEDURE" {
                Show::ProcedureStatus
            } else {
                Show::FunctionStatus
            }
        }
        _ => return Ok(None),
    }))
}

/// The column groups of SHOW PROFILE.
pub mod profile_type {
    pub const BLOCK_IO: u32 = 1;
    pub const CONTEXT_SWITCHES: u32 = 2;
    pub const CPU: u32 = 4;
    pub const IPC: u32 = 8;
    pub const MEMORY: u32 = 16;
    pub const PAGE_FAULTS: u32 = 32;
    pub const SOURCE: u32 = 64;
    pub const SWAPS: u32 = 128;
    pub const ALL: u32 = 255;
}

/// After SHOW PROFILE: `[type [, type] …] [FOR QUERY n] [LIMIT n [OFFSET m]]`.
fn parse_show_profile(p: &mut P) -> Result<Show> {
    use profile_type::*;
    let num = |p: &mut P| -> Result<u64> {
        match p.next() {
            Token::Number(n, _) => n.parse().map_err(|_| p.error()),
            _ => Err(p.error()),
        }
    };
    // A type of one or two words: its bit, once its words are taken.
    let word = |p: &mut P, second: Option<&str>, bit: u32| -> Result<u32> {
        p.next();
        if let Some(w) = second {
            p.expect(w)?;
        }
        Ok(bit)
    };
    let mut types = 0;
    loop {
        types |= match p.peek_kw().as_deref() {
            Some("ALL") => word(p, None, ALL)?,
            Some("CPU") => word(p, None, CPU)?,
            Some("IPC") => word(p, None, IPC)?,
            Some("MEMORY") => word(p, None, MEMORY)?,
            Some("SOURCE") => word(p, None, SOURCE)?,
            Some("SWAPS") => word(p, None, SWAPS)?,
            Some("BLOCK") => word(p, Some("IO"), BLOCK_IO)?,
            Some("CONTEXT") => word(p, Some("SWITCHES"), CONTEXT_SWITCHES)?,
            Some("PAGE") => word(p, Some("FAULTS"), PAGE_FAULTS)?,
            _ => break,
        };
        if !p.eat_tok(&Token::Comma) {
            break;
        }
    }
    let query = if p.eat("FOR") {
        p.expect("QUERY")?;
        Some(num(p)?)
    } else {
        None
    };
    let (mut limit, mut offset) = (None, 0);
    if p.eat("LIMIT") {
        limit = Some(num(p)?);
        if p.eat("OFFSET") {
            offset = num(p)?;
        }
    }
    Ok(Show::Profile {
        types,
        query,
        limit,
        offset,
    })
}

fn parse_limit(p: &mut P) -> Result<Option<(u64, u64)>> {
    if !p.eat("LIMIT") {
        return Ok(None);
    }
    let num = |p: &mut P| -> Result<u64> {
        match p.next() {
            Token::Number(n, _) => n.parse().map_err(|_| p.error()),
            _ => Err(p.error()),
        }
    };
    let a = num(p)?;
    if p.eat_tok(&Token::Comma) {
        let b = num(p)?;
        return Ok(Some((a, b)));
    }
    Ok(Some((0, a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admin(s: &str) -> AdminStmt {
        match parse(s) {
            Ok(Some(a)) => a,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn transactions() {
        assert_eq!(
            admin("BEGIN"),
            AdminStmt::Begin {
                read_only: None,
                consistent_snapshot: false
            }
        );
        assert_eq!(
            admin("start transaction read only"),
            AdminStmt::Begin {
                read_only: Some(true),
                consistent_snapshot: false
            }
        );
        assert_eq!(
            admin("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ WRITE"),
            AdminStmt::Begin {
                read_only: Some(false),
                consistent_snapshot: true
            }
        );
        assert_eq!(
            admin("COMMIT WORK"),
            AdminStmt::Commit {
                chain: false,
                release: false
            }
        );
        assert_eq!(
            admin("ROLLBACK TO SAVEPOINT a"),
            AdminStmt::Rollback {
                chain: false,
                release: false,
                savepoint: Some("a".into())
            }
        );
        assert_eq!(
            admin("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"),
            AdminStmt::SetTransaction {
                scope: TxScope::Session,
                isolation: Some(Isolation::ReadCommitted),
                read_only: None
            }
        );
        assert_eq!(
            admin("SET TRANSACTION READ ONLY"),
            AdminStmt::SetTransaction {
                scope: TxScope::Next,
                isolation: None,
                read_only: Some(true)
            }
        );
        assert!(parse("SET autocommit = 1").unwrap().is_none());
    }

    #[test]
    fn users() {
        match admin("CREATE USER 'u'@'localhost' IDENTIFIED BY 'p'") {
            AdminStmt::CreateUser { users, .. } => {
                assert_eq!(users[0].user, "u");
                assert_eq!(users[0].host, "localhost");
                assert_eq!(users[0].password.as_deref(), Some("p"));
            }
            other => panic!("{other:?}"),
        }
        match admin("CREATE USER IF NOT EXISTS sb IDENTIFIED WITH caching_sha2_password BY 'x'") {
            AdminStmt::CreateUser {
                if_not_exists: true,
                users,
            } => {
                assert_eq!(users[0].host, "%");
                assert_eq!(users[0].plugin.as_deref(), Some("caching_sha2_password"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            admin("DROP USER 'u'@'%', v"),
            AdminStmt::DropUser {
                if_exists: false,
                users: vec![("u".into(), "%".into()), ("v".into(), "%".into())]
            }
        );
    }

    #[test]
    fn shows() {
        assert_eq!(
            admin("SHOW VARIABLES LIKE 'a%'"),
            AdminStmt::Show(Show::Variables {
                global: false,
                filter: Filter::Like("a%".into())
            })
        );
        assert_eq!(
            admin("SHOW GLOBAL STATUS"),
            AdminStmt::Show(Show::Status {
                global: true,
                filter: Filter::None
            })
        );
        assert_eq!(
            admin("SHOW FULL COLUMNS FROM t FROM d"),
            AdminStmt::Show(Show::Columns {
                full: true,
                table: (Some("d".into()), "t".into()),
                filter: Filter::None
            })
        );
        assert_eq!(
            admin("SHOW INDEX FROM d.t"),
            AdminStmt::Show(Show::Index {
                table: (Some("d".into()), "t".into()),
                filter: Filter::None
            })
        );
        assert_eq!(
            admin("SHOW COUNT(*) WARNINGS"),
            AdminStmt::Show(Show::Warnings {
                errors_only: false,
                count: true,
                limit: None
            })
        );
        assert_eq!(
            admin("SHOW CREATE DATABASE IF NOT EXISTS d"),
            AdminStmt::Show(Show::CreateDatabase {
                if_not_exists: true,
                db: "d".into()
            })
        );
        assert!(matches!(
            admin("SHOW TABLES WHERE Tables_in_d = 'x'"),
            AdminStmt::Show(Show::Tables {
                filter: Filter::Where(_),
                ..
            })
        ));
        assert_eq!(
            admin("DESCRIBE t"),
            AdminStmt::Describe {
                table: (None, "t".into()),
                column: None
            }
        );
        assert!(parse("EXPLAIN SELECT 1").unwrap().is_none());
    }
}
