//! Option files (`my.cnf`): mysqld's syntax, read into raw options for `options.rs`.
//!
//! Syntax, as mysys's `my_load_defaults`:
//! - `[group]` starts a group. Quire reads `[mysqld]`, `[server]` and `[quire]` (any case)
//!   and skips every other group (`[client]`, `[mysql]`, `[mysqld-8.0]`, …). An option
//!   before the first group header is an error.
//! - `name=value`, `name = value` (spaces around `=` and the value are trimmed), or a bare
//!   `name` (a boolean option set ON).
//! - Lines starting with `#` or `;` are comments; a `#` outside quotes ends the line.
//! - A value may be quoted with `'…'` or `"…"` (outer quotes stripped); escapes
//!   `\n \t \r \b \s(space) \\ \" \'` are processed in quoted and unquoted values alike;
//!   any other backslash stays as written (so `C:\dir` survives).
//! - `!include FILE` reads another file; `!includedir DIR` reads DIR's `*.cnf` files in
//!   name order (mysqld uses directory order; MariaDB sorts). Relative paths are relative to
//!   the including file's directory (mysqld: to the current directory). A missing include is an error (mysqld skips it
//!   silently, which hides typos). Included files start outside any group.
//!
//! Limits: a file must be a regular file of at most 1 MiB, valid UTF-8 and not
//! world-writable (mysqld ignores a world-writable file with a warning; Quire refuses it
//! with an error, so that a setting is never silently dropped); includes nest at most 10
//! deep; at most 100 files are read in all.

use super::options::OptionError;
use std::path::{Path, PathBuf};

/// Option files are read in full; larger ones are refused.
const OPTION_FILE_BYTES_MAX: u64 = 1 << 20;
/// `!include` nesting limit (mysqld's).
const INCLUDE_DEPTH_MAX: usize = 10;
/// Total option files read, includes counted.
const OPTION_FILES_MAX: usize = 100;
/// Where an option came from, for messages.
#[derive(Clone, Debug)]
pub(super) enum Origin {
    CommandLine,
    File { path: PathBuf, line: usize },
}

/// One option before interpretation.
#[derive(Clone, Debug)]
pub(super) struct RawOption {
    /// As written (without the leading dashes).
    pub(super) name: String,
    pub(super) value: Option<String>,
    pub(super) origin: Origin,
}

impl RawOption {
    /// The option as mysqld quotes it: `'foo=1'` / `'--foo'`.
    pub(super) fn unknown_error(&self) -> OptionError {
        let message = match &self.value {
            Some(v) => format!("unknown variable '{}={v}'", self.name),
            None => format!("unknown option '--{}'", self.name),
        };
        self.located(message)
    }

    pub(super) fn located(&self, message: String) -> OptionError {
        OptionError::new(match &self.origin {
            Origin::CommandLine => message,
            Origin::File { path, line } => {
                format!("{message} (in {} at line {line})", path.display())
            }
        })
    }

    pub(super) fn shown(&self) -> String {
        format!("--{}", self.name)
    }
}

/// Groups Quire reads.
const GROUPS: [&str; 3] = ["mysqld", "server", "quire"];

pub(super) fn read_option_file(
    path: &Path,
    depth: usize,
    out: &mut Vec<RawOption>,
    files_read: &mut Vec<PathBuf>,
) -> Result<(), OptionError> {
    if files_read.len() >= OPTION_FILES_MAX {
        return Err(OptionError::new(format!(
            "too many option files (more than {OPTION_FILES_MAX}) while reading {}",
            path.display()
        )));
    }
    let meta = std::fs::metadata(path).map_err(|e| {
        OptionError::new(format!("cannot read option file {}: {e}", path.display()))
    })?;
    if !meta.is_file() {
        return Err(OptionError::new(format!(
            "option file {} is not a regular file",
            path.display()
        )));
    }
    if meta.len() > OPTION_FILE_BYTES_MAX {
        return Err(OptionError::new(format!(
            "option file {} is larger than {OPTION_FILE_BYTES_MAX} bytes",
            path.display()
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o002 != 0 {
            return Err(OptionError::new(format!(
                "option file {} is world-writable; refusing to read it (make it not \
                 writable by others)",
                path.display()
            )));
        }
    }
    let bytes = std::fs::read(path).map_err(|e| {
        OptionError::new(format!("cannot read option file {}: {e}", path.display()))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        OptionError::new(format!("option file {} is not valid UTF-8", path.display()))
    })?;
    files_read.push(path.to_path_buf());
    let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();

    let mut seen_group = false;
    let mut in_our_group = false;
    for (index, raw_line) in text.lines().enumerate() {
        let line_no = index + 1;
        let at = |message: String| {
            OptionError::new(format!(
                "{message} in config file {} at line {line_no}",
                path.display()
            ))
        };
        let line = raw_line.trim_start();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(directive) = line.strip_prefix('!') {
            let (word, argument) = directive
                .split_once(|c: char| c.is_ascii_whitespace())
                .map(|(w, a)| (w, a.trim()))
                .unwrap_or((directive.trim_end(), ""));
            if argument.is_empty() || !(word == "include" || word == "includedir") {
                return Err(at("Wrong '!' directive".to_string()));
            }
            if depth + 1 > INCLUDE_DEPTH_MAX {
                return Err(at(format!(
                    "!include nested more than {INCLUDE_DEPTH_MAX} deep"
                )));
            }
            let target = base_dir.join(argument);
            if word == "include" {
                read_option_file(&target, depth + 1, out, files_read)?;
            } else {
                let entries = std::fs::read_dir(&target)
                    .map_err(|e| at(format!("cannot read directory {}: {e}", target.display())))?;
                let mut files: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "cnf") && p.is_file())
                    .collect();
                files.sort();
                for file in files {
                    read_option_file(&file, depth + 1, out, files_read)?;
                }
            }
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let Some((group, _)) = header.split_once(']') else {
                return Err(at("Wrong group definition".to_string()));
            };
            let group = group.trim();
            seen_group = true;
            in_our_group = GROUPS.iter().any(|g| g.eq_ignore_ascii_case(group));
            continue;
        }
        if !seen_group {
            return Err(at("Found option without preceding group".to_string()));
        }
        if !in_our_group {
            continue;
        }
        let line = remove_end_comment(line).trim_end();
        let (name, value) = match line.split_once('=') {
            Some((n, v)) => (n.trim_end(), Some(unquote(v.trim()))),
            None => (line, None),
        };
        if name.is_empty() {
            return Err(at("Wrong option".to_string()));
        }
        out.push(RawOption {
            name: name.to_string(),
            value,
            origin: Origin::File {
                path: path.to_path_buf(),
                line: line_no,
            },
        });
    }
    Ok(())
}

/// mysys's `remove_end_comment`: cut at the first `#` outside quotes.
fn remove_end_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escape = false;
    for (i, c) in line.char_indices() {
        if (c == '\'' || c == '"') && !escape {
            match quote {
                None => quote = Some(c),
                Some(q) if q == c => quote = None,
                Some(_) => {}
            }
        }
        if quote.is_none() && c == '#' {
            return line.get(..i).unwrap_or(line);
        }
        escape = quote.is_some() && c == '\\' && !escape;
    }
    line
}

/// Strips matching outer quotes and processes mysys's escapes.
fn unquote(value: &str) -> String {
    let inner = match value.chars().next() {
        Some(q @ ('\'' | '"')) if value.len() >= 2 && value.ends_with(q) => {
            value.get(1..value.len() - 1).unwrap_or("")
        }
        _ => value,
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('s') => out.push(' '),
            Some(c @ ('"' | '\'' | '\\')) => out.push(c),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::options::{Startup, parse};
    use super::super::sysvars::{GlobalVars, display, vars};
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn run(list: &[&str]) -> super::super::options::ServerOptions {
        let args: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        match parse(&args) {
            Ok(Startup::Run(o)) => o,
            Ok(other) => panic!("expected Run, got {other:?}"),
            Err(e) => panic!("{e}"),
        }
    }

    fn fail(list: &[&str]) -> String {
        let args: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        match parse(&args) {
            Err(e) => e.message,
            Ok(other) => panic!("expected an error, got {other:?}"),
        }
    }

    fn globals(list: &[&str]) -> GlobalVars {
        let g = GlobalVars::new();
        run(list).apply(&g).unwrap();
        g
    }

    /// A private directory for option files (removed on drop).
    struct TempDir(PathBuf);
    impl TempDir {
        fn new() -> TempDir {
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "quire-options-test-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
        fn file(&self, name: &str, text: &str) -> String {
            let path = self.0.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).unwrap();
            }
            std::fs::write(&path, text).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            }
            path.to_string_lossy().into_owned()
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn option_file_syntax() {
        let dir = TempDir::new();
        let cnf = dir.file(
            "my.cnf",
            "# a comment\n\
             ; another comment\n\
             [client]\n\
             port=1111\n\
             password=secret\n\
             \n\
             [mysqld]\n\
             port = 3320\n\
             datadir=\"/srv/quire data\"   # trailing comment\n\
             init_connect='SET NAMES utf8mb4 # not a comment'\n\
             skip-name-resolve\n\
             general_log\n\
             max_allowed_packet=32M\n\
             \x20  sql_mode = \"ANSI_QUOTES\"\n\
             loose-unknown-thing = 5\n\
             user=mysql\n\
             symbolic-links=0\n\
             [mysql]\n\
             no-auto-rehash\n\
             [server]\n\
             server_id=7\n\
             [QUIRE]\n\
             slow_query_log_file=/logs/slow\\tlog\n\
             version-string=\"5.7.99-test\\\"x\\\"\"\n",
        );
        let o = run(&[&format!("--defaults-file={cnf}")]);
        let g = GlobalVars::new();
        o.apply(&g).unwrap();
        assert_eq!(g.get_u64(vars::PORT), 3320);
        assert_eq!(g.get_string(vars::DATADIR), "/srv/quire data");
        assert_eq!(
            g.get_string(vars::INIT_CONNECT),
            "SET NAMES utf8mb4 # not a comment"
        );
        assert!(g.get_bool(vars::SKIP_NAME_RESOLVE));
        assert!(g.get_bool(vars::GENERAL_LOG));
        assert_eq!(g.get_u64(vars::MAX_ALLOWED_PACKET), 32 << 20);
        assert_eq!(
            display(vars::SQL_MODE, &g.get(vars::SQL_MODE)),
            "ANSI_QUOTES"
        );
        assert_eq!(g.get_u64(vars::SERVER_ID), 7);
        assert_eq!(g.get_string(vars::SLOW_QUERY_LOG_FILE), "/logs/slow\tlog");
        assert_eq!(g.get_string(vars::VERSION), "5.7.99-test\"x\"");
        assert_eq!(o.files_read, vec![PathBuf::from(&cnf)]);
        assert_eq!(o.defaults_file, Some(PathBuf::from(&cnf)));
        assert_eq!(o.warnings.len(), 1);
        assert!(
            o.warnings[0].contains("loose-unknown-thing"),
            "{:?}",
            o.warnings
        );
        assert!(o.warnings[0].contains("line 15"), "{:?}", o.warnings);
    }

    #[test]
    fn command_line_overrides_files() {
        let dir = TempDir::new();
        let cnf = dir.file("my.cnf", "[mysqld]\nport=3320\nmax_connections=10\n");
        let g = globals(&["--port=3330", &format!("--defaults-file={cnf}")]);
        assert_eq!(g.get_u64(vars::PORT), 3330);
        assert_eq!(g.get_u64(vars::MAX_CONNECTIONS), 10);
        // extra file after the defaults file
        let extra = dir.file("extra.cnf", "[quire]\nmax_connections=20\n");
        let g = globals(&[
            &format!("--defaults-extra-file={extra}"),
            &format!("--defaults-file={cnf}"),
        ]);
        assert_eq!(g.get_u64(vars::MAX_CONNECTIONS), 20);
        // extra file alone
        let g = globals(&[&format!("--defaults-extra-file={extra}")]);
        assert_eq!(g.get_u64(vars::MAX_CONNECTIONS), 20);
    }

    #[test]
    fn includes() {
        let dir = TempDir::new();
        dir.file("conf.d/b.cnf", "[mysqld]\nmax_connections=30\n");
        dir.file(
            "conf.d/a.cnf",
            "[mysqld]\nmax_connections=20\nwait_timeout=5\n",
        );
        dir.file("conf.d/ignored.txt", "[mysqld]\nmax_connections=99\n");
        dir.file("inc.cnf", "[mysqld]\nport=3340\n");
        let main = dir.file(
            "my.cnf",
            "[mysqld]\nport=1\n!include inc.cnf\n!includedir conf.d\n[client]\n",
        );
        let o = run(&[&format!("--defaults-file={main}")]);
        let g = GlobalVars::new();
        o.apply(&g).unwrap();
        assert_eq!(g.get_u64(vars::PORT), 3340);
        assert_eq!(g.get_u64(vars::MAX_CONNECTIONS), 30);
        assert_eq!(g.get_u64(vars::WAIT_TIMEOUT), 5);
        assert_eq!(o.files_read.len(), 4);
        // a missing include is an error naming the line
        let bad = dir.file("bad.cnf", "[mysqld]\n!include nowhere.cnf\n");
        assert!(fail(&[&format!("--defaults-file={bad}")]).contains("nowhere.cnf"));
        // self-inclusion stops at the depth limit
        let looped = dir.file("loop.cnf", "[mysqld]\n!include loop.cnf\n");
        assert!(fail(&[&format!("--defaults-file={looped}")]).contains("nested more than 10"));
        let wrong = dir.file("wrong.cnf", "[mysqld]\n!frobnicate x\n");
        assert!(fail(&[&format!("--defaults-file={wrong}")]).contains("Wrong '!' directive"));
    }

    #[test]
    fn option_file_errors() {
        let dir = TempDir::new();
        assert_eq!(
            fail(&["--defaults-file=/nonexistent/my.cnf"]),
            "Could not open required defaults file: /nonexistent/my.cnf"
        );
        assert!(
            fail(&[&format!("--defaults-file={}", dir.0.display())]).contains("Could not open")
        );
        let unknown = dir.file("u.cnf", "[mysqld]\nport=1\nfoo=1\n");
        assert_eq!(
            fail(&[&format!("--defaults-file={unknown}")]),
            format!("unknown variable 'foo=1' (in {unknown} at line 3)")
        );
        let bare_unknown = dir.file("b.cnf", "[server]\nfrobnicate\n");
        assert_eq!(
            fail(&[&format!("--defaults-file={bare_unknown}")]),
            format!("unknown option '--frobnicate' (in {bare_unknown} at line 2)")
        );
        let no_group = dir.file("n.cnf", "port=1\n[mysqld]\n");
        assert!(
            fail(&[&format!("--defaults-file={no_group}")])
                .contains("Found option without preceding group")
        );
        let bad_group = dir.file("g.cnf", "[mysqld\nport=1\n");
        assert!(
            fail(&[&format!("--defaults-file={bad_group}")]).contains("Wrong group definition")
        );
        let bad_value = dir.file("v.cnf", "[mysqld]\nsql_mode=NOPE\n");
        assert!(fail(&[&format!("--defaults-file={bad_value}")]).contains("line 2"));
        let cmdline_only = dir.file("c.cnf", "[mysqld]\ndefaults-file=/x\n");
        assert!(
            fail(&[&format!("--defaults-file={cmdline_only}")])
                .contains("only allowed on the command line")
        );
        assert!(fail(&["--defaults-file"]).contains("requires an argument"));
        assert!(fail(&["--no-defaults", "--defaults-file=/x"]).contains("cannot be combined"));
        assert!(run(&["--no-defaults"]).files_read.is_empty());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let open = dir.file("open.cnf", "[mysqld]\nport=1\n");
            std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o666)).unwrap();
            assert!(fail(&[&format!("--defaults-file={open}")]).contains("world-writable"));
        }
        let latin1 = dir.0.join("l.cnf");
        std::fs::write(&latin1, b"[mysqld]\ninit_connect=\xe9\n").unwrap();
        assert!(fail(&[&format!("--defaults-file={}", latin1.display())]).contains("UTF-8"));
    }

    #[test]
    fn comment_and_quote_helpers() {
        assert_eq!(remove_end_comment("a=b # c"), "a=b ");
        assert_eq!(remove_end_comment("a='b # c' # d"), "a='b # c' ");
        assert_eq!(remove_end_comment("a=\"x\\\"#y\" #z"), "a=\"x\\\"#y\" ");
        assert_eq!(remove_end_comment("a=b;c"), "a=b;c");
        assert_eq!(unquote("'abc'"), "abc");
        assert_eq!(unquote("\"a\\nb\""), "a\nb");
        assert_eq!(unquote("a\\sb"), "a b");
        assert_eq!(unquote("'a"), "'a");
        assert_eq!(unquote("\""), "\"");
        assert_eq!(unquote("C:\\path"), "C:\\path");
        assert_eq!(unquote("end\\"), "end\\");
    }
}
