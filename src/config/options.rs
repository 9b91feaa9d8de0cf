//! Start-up options: the command line and `my.cnf` files, mysqld-style.
//!
//! Every system variable that may be set at start-up ([`SysVar::cmdline`]) is an option
//! `--name=value`; a few more are Quire's own or mysqld's (`--defaults-file`, `--log-bin`,
//! `--version-string`, `-P`/`-S`/`-h`/`-u`, `--help`, `--version`). Options from files apply
//! first, in file order; the command line overrides them. The result, [`ServerOptions`], is a
//! list of validated `(variable, value)` settings that [`ServerOptions::apply`] stores into the
//! [`GlobalVars`].
//!
//! ## Forms (as mysqld)
//!
//! - `--name=value`. `--name value` is *not* accepted for long options (mysqld does not
//!   either): the second word would be a positional argument, which is an error.
//! - Booleans: `--name` (ON), `--skip-name`, `--disable-name` (OFF), `--enable-name` (ON),
//!   `--name=0|1|ON|OFF|TRUE|FALSE` (any case). (In SQL only `ON`/`OFF` and 0/1 are
//!   accepted, as in MySQL.)
//! - `--loose-name=value`: as `--name=value`, but an unknown name is skipped with a warning.
//! - Names are case-insensitive and `-`/`_` are the same. Prefix abbreviations
//!   (`--max-allowed=…`) are **not** accepted, although mysqld accepts unambiguous prefixes:
//!   a prefix that is unique today silently changes meaning when a variable is added.
//! - Integers take the suffixes K, M, G, T, P, E (powers of 1024, any case): `16M`. Values out
//!   of range are clamped (and rounded to the block size) with a warning, as mysqld does.
//! - Enumerations and `sql_mode` also accept their numeric value.
//! - Short options: `-P 3306` / `-P3306` (port), `-S path` (socket), `-h dir` (datadir),
//!   `-u user` (accepted and ignored: Quire does not switch users), `-V`, `-?`.
//! - `--` ends the options; any positional argument is an error (`quire binlog FILE` and the
//!   other subcommands are dispatched before this parser runs).
//!
//! ## Option files
//!
//! Quire reads **no** option file unless told to: with no `--defaults-file`, no
//! `/etc/my.cnf`, `/etc/mysql/my.cnf` or `~/.my.cnf`. Those files belong to the machine's
//! MySQL or MariaDB; reading them would point Quire at that server's datadir, socket and
//! port. `--defaults-file=FILE` reads exactly FILE; `--defaults-extra-file=FILE` reads FILE
//! after it (or alone); `--no-defaults` reads nothing (and conflicts with the two others).
//! Unlike mysqld, these three may appear anywhere on the command line.
//!
//! The file syntax (groups `[mysqld]`, `[server]`, `[quire]`; comments; quotes; `!include`)
//! is described in `option_files.rs`.
//!
//! ## Errors
//!
//! An unknown option fails with mysqld's message, `unknown variable 'foo=1'` or
//! `unknown option '--foo'` (plus the file and line for file options); a value invalid for
//! its variable fails with a message naming the option. The binary prints the message and
//! exits non-zero.

use super::option_files::{Origin, RawOption, read_option_file};
use super::sysvar_check::{Adjusted, check_adjusting};
use super::sysvars::{
    CheckCtx, GlobalVars, Kind, SysVar, VERSION_COMMENT_DEFAULT, VERSION_DEFAULT, VarId, def,
    default_value, display, find, vars,
};
use crate::error::Diagnostics;
use crate::sql::types::{Charset, Collation};
use crate::sql::value::Value;
use std::fmt;
use std::path::PathBuf;

/// What the binary should do.
#[derive(Debug)]
pub enum Startup {
    Run(ServerOptions),
    /// `--help` / `-?`: print [`help_text`].
    Help,
    /// `--version` / `-V`: print [`version_text`].
    Version,
}

/// The parsed start-up configuration.
#[derive(Debug, Default)]
pub struct ServerOptions {
    /// Validated values to store in the globals, in order (files first, then the command
    /// line); a later setting of the same variable wins.
    pub settings: Vec<(VarId, Value)>,
    /// `--defaults-file`, if given.
    pub defaults_file: Option<PathBuf>,
    /// `--defaults-extra-file`, if given.
    pub defaults_extra_file: Option<PathBuf>,
    /// Every option file read, includes too, in reading order.
    pub files_read: Vec<PathBuf>,
    /// Messages for the error log: skipped `--loose-` options, adjusted values.
    pub warnings: Vec<String>,
}

impl ServerOptions {
    /// Stores the settings into the globals (start-up: read-only variables included).
    pub fn apply(&self, globals: &GlobalVars) -> Result<(), OptionError> {
        for (id, value) in &self.settings {
            globals.set(*id, value.clone());
        }
        Ok(())
    }

    /// The last value given for a variable, if any.
    pub fn get(&self, id: VarId) -> Option<&Value> {
        self.settings
            .iter()
            .rev()
            .find(|(i, _)| *i == id)
            .map(|(_, v)| v)
    }
}

/// A start-up option error, with a message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub message: String,
}

impl OptionError {
    pub(super) fn new(message: impl Into<String>) -> OptionError {
        OptionError {
            message: message.into(),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OptionError {}

/// mysqld's limit on the server version string (it goes into the handshake).
const VERSION_STRING_LEN_MAX: usize = 60;

/// Parses the command line (without the program name) and the option files it names.
pub fn parse(args: &[String]) -> Result<Startup, OptionError> {
    let mut command_line = Vec::new();
    let mut wants_help = false;
    let mut wants_version = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--" {
            if let Some(extra) = iter.next() {
                return Err(too_many_arguments(extra));
            }
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (long.to_string(), None),
            };
            match normalize(&name).as_str() {
                "help" if value.is_none() => wants_help = true,
                "version" if value.is_none() => wants_version = true,
                _ => command_line.push(RawOption {
                    name,
                    value,
                    origin: Origin::CommandLine,
                }),
            }
            continue;
        }
        let Some(short) = arg.strip_prefix('-').filter(|s| !s.is_empty()) else {
            return Err(too_many_arguments(arg));
        };
        let mut chars = short.chars();
        let letter = chars.next().unwrap_or('-');
        let attached = chars.as_str();
        let long_name = match letter {
            '?' | 'V' if attached.is_empty() => {
                if letter == '?' {
                    wants_help = true;
                } else {
                    wants_version = true;
                }
                continue;
            }
            'P' => "port",
            'S' => "socket",
            'h' => "datadir",
            'u' => "user",
            _ => return Err(OptionError::new(format!("unknown option '{arg}'"))),
        };
        let value = if attached.is_empty() {
            match iter.next() {
                Some(v) => v.clone(),
                None => {
                    return Err(OptionError::new(format!(
                        "option '-{letter}' requires an argument"
                    )));
                }
            }
        } else {
            attached.to_string()
        };
        command_line.push(RawOption {
            name: long_name.to_string(),
            value: Some(value),
            origin: Origin::CommandLine,
        });
    }
    if wants_help {
        return Ok(Startup::Help);
    }
    if wants_version {
        return Ok(Startup::Version);
    }

    // Which files to read: these options are taken out of the command line here.
    let mut options = ServerOptions::default();
    let mut no_defaults = false;
    let mut rest = Vec::with_capacity(command_line.len());
    for raw in command_line {
        match normalize(&raw.name).as_str() {
            "defaults_file" => options.defaults_file = Some(required_path(&raw)?),
            "defaults_extra_file" => options.defaults_extra_file = Some(required_path(&raw)?),
            "no_defaults" => {
                if raw.value.is_some() {
                    return Err(OptionError::new(
                        "option '--no-defaults' cannot take an argument",
                    ));
                }
                no_defaults = true;
            }
            _ => rest.push(raw),
        }
    }
    if no_defaults && (options.defaults_file.is_some() || options.defaults_extra_file.is_some()) {
        return Err(OptionError::new(
            "--no-defaults cannot be combined with --defaults-file or --defaults-extra-file",
        ));
    }

    let mut from_files = Vec::new();
    for path in [&options.defaults_file, &options.defaults_extra_file]
        .into_iter()
        .flatten()
    {
        if !path.is_file() {
            return Err(OptionError::new(format!(
                "Could not open required defaults file: {}",
                path.display()
            )));
        }
        read_option_file(path, 0, &mut from_files, &mut options.files_read)?;
    }

    let mut state = Interpreter::default();
    for raw in from_files.iter().chain(rest.iter()) {
        state.interpret(raw, &mut options)?;
    }
    state.finish(&mut options)?;
    Ok(Startup::Run(options))
}

fn too_many_arguments(extra: &str) -> OptionError {
    OptionError::new(format!(
        "Too many arguments (first extra is '{extra}'). Use --help to get a list of available options."
    ))
}

fn required_path(raw: &RawOption) -> Result<PathBuf, OptionError> {
    match raw.value.as_deref() {
        Some(v) if !v.is_empty() => Ok(PathBuf::from(v)),
        _ => Err(OptionError::new(format!(
            "option '{}' requires an argument",
            raw.shown()
        ))),
    }
}

/// Option name as looked up: lower case, `_` for `-`.
fn normalize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c == '-' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// The interpretation of options, in order.
#[derive(Default)]
struct Interpreter {
    /// Explicit `--character-set-server` / `--collation-server` values (last wins).
    charset_server: Option<Charset>,
    collation_server: Option<Collation>,
}

impl Interpreter {
    fn interpret(&mut self, raw: &RawOption, out: &mut ServerOptions) -> Result<(), OptionError> {
        let mut name = normalize(&raw.name);
        let loose = match name.strip_prefix("loose_") {
            Some(rest) => {
                name = rest.to_string();
                true
            }
            None => false,
        };
        if name.is_empty() {
            return Err(raw.unknown_error());
        }
        if self.special(&name, raw, out)? {
            return Ok(());
        }
        if let Some(id) = find(&name).filter(|id| def(*id).cmdline) {
            let value = option_value(id, raw, raw.value.as_deref(), out)?;
            return self.set(id, value, out);
        }
        // --skip-x / --disable-x / --enable-x on a boolean.
        for (prefix, on) in [("skip_", false), ("disable_", false), ("enable_", true)] {
            let Some(target) = name.strip_prefix(prefix) else {
                continue;
            };
            if let Some(handled) = self.prefixed_special(target, on, raw, out)? {
                return Ok(handled);
            }
            let Some(id) = find(target).filter(|id| def(*id).cmdline) else {
                break;
            };
            if def(id).kind != Kind::Bool {
                return Err(raw.located(format!(
                    "option '{}': '{}' is not a boolean option",
                    raw.shown(),
                    def(id).name
                )));
            }
            if raw.value.is_some() {
                return Err(
                    raw.located(format!("option '{}' cannot take an argument", raw.shown()))
                );
            }
            return self.set(id, Value::bool(on), out);
        }
        if loose {
            out.warnings.push(match &raw.origin {
                Origin::CommandLine => format!("ignoring unknown option '{}'", raw.shown()),
                Origin::File { path, line } => format!(
                    "ignoring unknown option '{}' (in {} at line {line})",
                    raw.name,
                    path.display()
                ),
            });
            return Ok(());
        }
        Err(raw.unknown_error())
    }

    /// Options that are not (only) a variable. Returns true if `name` was one.
    fn special(
        &mut self,
        name: &str,
        raw: &RawOption,
        out: &mut ServerOptions,
    ) -> Result<bool, OptionError> {
        match name {
            "log_bin" => {
                out.settings.push((vars::LOG_BIN, Value::bool(true)));
                if let Some(base) = raw.value.as_deref().filter(|b| !b.is_empty()) {
                    out.settings
                        .push((vars::LOG_BIN_BASENAME, Value::str(base)));
                }
            }
            "version_string" => {
                let text = required_value(raw)?;
                if text.len() > VERSION_STRING_LEN_MAX || text.chars().any(char::is_control) {
                    return Err(raw.located(format!(
                        "option '{}': the version string must be at most \
                         {VERSION_STRING_LEN_MAX} printable characters",
                        raw.shown()
                    )));
                }
                out.settings.push((vars::VERSION, Value::str(text)));
            }
            // mysqld's name for the time_zone option.
            "default_time_zone" => {
                let value = option_value(vars::TIME_ZONE, raw, Some(required_value(raw)?), out)?;
                out.settings.push((vars::TIME_ZONE, value));
            }
            // Accepted and ignored: Quire runs as the user that starts it.
            "user" => {
                required_value(raw)?;
            }
            // Accepted and ignored: symbolic links are never followed for tables
            // (have_symlink=DISABLED); common in stock my.cnf files.
            "symbolic_links" => {
                option_bool(raw, raw.value.as_deref())?;
            }
            "ssl" => {
                if option_bool(raw, raw.value.as_deref())? {
                    return Err(raw.located(
                        "TLS is not supported by Quire; remove the ssl option".to_string(),
                    ));
                }
            }
            // --help --verbose is mysqld's long help; Quire has one help text.
            "verbose" => {}
            "defaults_file" | "defaults_extra_file" | "no_defaults" => {
                return Err(raw.located(format!(
                    "option '{}' is only allowed on the command line",
                    raw.shown()
                )));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `--skip-`/`--disable-`/`--enable-` forms of the special options.
    fn prefixed_special(
        &mut self,
        target: &str,
        on: bool,
        raw: &RawOption,
        out: &mut ServerOptions,
    ) -> Result<Option<()>, OptionError> {
        if !matches!(target, "log_bin" | "ssl" | "symbolic_links") {
            return Ok(None);
        }
        if raw.value.is_some() {
            return Err(raw.located(format!("option '{}' cannot take an argument", raw.shown())));
        }
        match target {
            "log_bin" => out.settings.push((vars::LOG_BIN, Value::bool(on))),
            "ssl" if on => {
                return Err(
                    raw.located("TLS is not supported by Quire; remove the ssl option".to_string())
                );
            }
            _ => {}
        }
        Ok(Some(()))
    }

    fn set(&mut self, id: VarId, value: Value, out: &mut ServerOptions) -> Result<(), OptionError> {
        let text = match &value {
            Value::Bytes(b) => std::str::from_utf8(b).ok(),
            _ => None,
        };
        if id == vars::CHARACTER_SET_SERVER {
            self.charset_server = text.and_then(Charset::from_name);
        } else if id == vars::COLLATION_SERVER {
            self.collation_server = text.and_then(Collation::from_name);
        }
        out.settings.push((id, value));
        Ok(())
    }

    /// mysqld's rule for the server character set and collation: either alone implies the
    /// other; both must agree.
    fn finish(&self, out: &mut ServerOptions) -> Result<(), OptionError> {
        match (self.charset_server, self.collation_server) {
            (Some(charset), Some(collation)) if collation.charset() != charset => {
                Err(OptionError::new(format!(
                    "COLLATION '{}' is not valid for CHARACTER SET '{}'",
                    collation.name(),
                    charset.name()
                )))
            }
            (Some(charset), None) => {
                out.settings.push((
                    vars::COLLATION_SERVER,
                    Value::str(charset.default_collation().name()),
                ));
                Ok(())
            }
            (None, Some(collation)) => {
                out.settings.push((
                    vars::CHARACTER_SET_SERVER,
                    Value::str(collation.charset().name()),
                ));
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

fn required_value(raw: &RawOption) -> Result<&str, OptionError> {
    raw.value
        .as_deref()
        .ok_or_else(|| raw.located(format!("option '{}' requires an argument", raw.shown())))
}

/// my_getopt's booleans: TRUE/ON/1 and FALSE/OFF/0, any case; no value means ON.
fn option_bool(raw: &RawOption, value: Option<&str>) -> Result<bool, OptionError> {
    let Some(text) = value else {
        return Ok(true);
    };
    if ["1", "on", "true"]
        .iter()
        .any(|t| text.eq_ignore_ascii_case(t))
    {
        Ok(true)
    } else if ["0", "off", "false"]
        .iter()
        .any(|t| text.eq_ignore_ascii_case(t))
    {
        Ok(false)
    } else {
        Err(raw.located(format!(
            "option '{}': boolean value '{text}' was not recognized",
            raw.shown()
        )))
    }
}

/// An option's text → the variable's stored value, validated like `SET` (adjustments
/// become warnings).
fn option_value(
    id: VarId,
    raw: &RawOption,
    text: Option<&str>,
    out: &mut ServerOptions,
) -> Result<Value, OptionError> {
    let var: &SysVar = def(id);
    let input = match (var.kind, text) {
        (Kind::Bool, _) => Value::bool(option_bool(raw, text)?),
        (_, None) => {
            return Err(raw.located(format!("option '{}' requires an argument", raw.shown())));
        }
        (Kind::UInt { .. } | Kind::Int { .. }, Some(t)) => {
            let n = parse_integer(t).ok_or_else(|| {
                raw.located(format!(
                    "option '{}': incorrect integer value '{t}'",
                    raw.shown()
                ))
            })?;
            match (u64::try_from(n), i64::try_from(n)) {
                (Ok(u), _) => Value::UInt(u),
                (_, Ok(i)) => Value::Int(i),
                _ => {
                    return Err(raw.located(format!(
                        "option '{}': incorrect integer value '{t}'",
                        raw.shown()
                    )));
                }
            }
        }
        (Kind::Double { .. }, Some(t)) => match t.trim().parse::<f64>() {
            Ok(d) if d.is_finite() => Value::Double(d),
            _ => {
                return Err(raw.located(format!(
                    "option '{}': incorrect numeric value '{t}'",
                    raw.shown()
                )));
            }
        },
        (Kind::Enum(_) | Kind::Set(_) | Kind::SqlMode, Some(t))
            if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) =>
        {
            match t.parse::<u64>() {
                Ok(n) => Value::UInt(n),
                Err(_) => Value::str(t),
            }
        }
        (_, Some(t)) => Value::str(t),
    };
    let mut diag = Diagnostics::default();
    let (value, adjusted) = check_adjusting(id, &input, &CheckCtx::default(), &mut diag)
        .map_err(|e| raw.located(format!("option '{}': {}", raw.shown(), e.message)))?;
    if let Some(Adjusted(original)) = adjusted {
        let signed = match var.kind {
            Kind::UInt { .. } => "unsigned value",
            Kind::Int { .. } => "signed value",
            _ => "value",
        };
        out.warnings.push(format!(
            "option '{}': {signed} {original} adjusted to {}",
            var.name,
            display(id, &value)
        ));
    }
    out.warnings.extend(
        diag.list
            .into_iter()
            .map(|w| format!("option '{}': {}", var.name, w.message)),
    );
    Ok(value)
}

/// An integer with an optional K/M/G/T/P/E suffix (powers of 1024), as my_getopt's
/// `eval_num_suffix`. `None` if malformed or beyond ±2^127.
fn parse_integer(text: &str) -> Option<i128> {
    let (negative, unsigned) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let digits_end = unsigned
        .bytes()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(unsigned.len());
    let (digits, suffix) = unsigned.split_at(digits_end);
    if digits.is_empty() || digits.len() > 30 {
        return None;
    }
    let number: i128 = digits.parse().ok()?;
    let shift = match suffix {
        "" => 0,
        "k" | "K" => 10,
        "m" | "M" => 20,
        "g" | "G" => 30,
        "t" | "T" => 40,
        "p" | "P" => 50,
        "e" | "E" => 60,
        _ => return None,
    };
    let value = number.checked_mul(1i128 << shift)?;
    Some(if negative { -value } else { value })
}

// --- help -----------------------------------------------------------------------------------

/// `quire --version`.
pub fn version_text() -> String {
    format!(
        "quire  Ver {VERSION_DEFAULT} for {} on {} ({VERSION_COMMENT_DEFAULT})",
        display(
            vars::VERSION_COMPILE_OS,
            &default_value(vars::VERSION_COMPILE_OS)
        ),
        std::env::consts::ARCH
    )
}

/// `quire --help`.
pub fn help_text() -> String {
    let mut text = String::from(
        "Usage: quire [OPTIONS]\n\
         Starts the Quire server: a MySQL-compatible transactional SQL server.\n\
         \n\
         Option files:\n\
         \x20 --defaults-file=FILE        Read options from FILE only: groups [mysqld],\n\
         \x20                             [server] and [quire].\n\
         \x20 --defaults-extra-file=FILE  Also read FILE, after --defaults-file.\n\
         \x20 --no-defaults               Read no option file.\n\
         \x20 Without --defaults-file Quire reads no option file at all: /etc/my.cnf and\n\
         \x20 /etc/mysql/my.cnf belong to the system's MySQL or MariaDB.\n\
         \n\
         Server:\n\
         \x20 -P, --port=N                TCP port (default 3306).\n\
         \x20 --bind-address=ADDR         Address to listen on (default 127.0.0.1).\n\
         \x20 -S, --socket=PATH           Unix socket (default <datadir>/mysql.sock).\n\
         \x20 -h, --datadir=DIR           Data directory (default ./quire-data).\n\
         \x20 --log-bin[=BASENAME]        Keep the binary log (the default; basename\n\
         \x20                             'binlog').\n\
         \x20 --skip-log-bin              Journal only: purged after checkpoints.\n\
         \x20 --default-time-zone=TZ      Global time_zone (SYSTEM or +HH:MM).\n\
         \x20 --version-string=S          The version reported to clients (@@version).\n\
         \x20 -u, --user=NAME             Accepted and ignored.\n\
         \x20 -V, --version               Print the version and exit.\n\
         \x20 -?, --help                  Print this help and exit.\n\
         \n\
         Every system variable that can be set at start-up is an option, e.g.\n\
         --max-allowed-packet=16M or --sql-mode=ANSI_QUOTES. Names are case-insensitive,\n\
         '-' and '_' are the same, and names must be written in full. Booleans: --name,\n\
         --skip-name, --disable-name, --enable-name, --name=ON|OFF|1|0|TRUE|FALSE.\n\
         --loose-name=value skips an unknown name with a warning. Integers take the\n\
         suffixes K, M, G (and T, P, E). Options in files apply first; the command line\n\
         overrides them.\n\
         \n\
         Variables that are options, with their defaults:\n",
    );
    for (id, var) in super::sysvars::all() {
        if !var.cmdline {
            continue;
        }
        let default = display(id, &default_value(id));
        text.push_str(&format!(
            "  --{:<44} {default}\n",
            var.name.replace('_', "-")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn run(list: &[&str]) -> ServerOptions {
        match parse(&args(list)) {
            Ok(Startup::Run(o)) => o,
            Ok(other) => panic!("expected Run, got {other:?}"),
            Err(e) => panic!("{e}"),
        }
    }

    fn fail(list: &[&str]) -> String {
        match parse(&args(list)) {
            Err(e) => e.message,
            Ok(other) => panic!("expected an error, got {other:?}"),
        }
    }

    fn globals(list: &[&str]) -> GlobalVars {
        let g = GlobalVars::new();
        run(list).apply(&g).unwrap();
        g
    }

    #[test]
    fn no_arguments_means_defaults_and_no_files() {
        let o = run(&[]);
        assert!(o.settings.is_empty());
        assert!(o.files_read.is_empty());
        assert!(o.defaults_file.is_none());
    }

    #[test]
    fn long_options_with_values() {
        let g = globals(&[
            "--port=3307",
            "--datadir=/var/lib/quire",
            "--bind-address=0.0.0.0",
            "--max_allowed_packet=16M",
            "--MAX-CONNECTIONS=500",
            "--sql-mode=ANSI_QUOTES,NO_ZERO_DATE",
            "--transaction-isolation=read-committed",
            "--long-query-time=0.5",
            "--binlog-format=2",
            "--character-set-server=latin1",
        ]);
        assert_eq!(g.get_u64(vars::PORT), 3307);
        assert_eq!(g.get_string(vars::DATADIR), "/var/lib/quire");
        assert_eq!(g.get_string(vars::BIND_ADDRESS), "0.0.0.0");
        assert_eq!(g.get_u64(vars::MAX_ALLOWED_PACKET), 16 << 20);
        assert_eq!(g.get_u64(vars::MAX_CONNECTIONS), 500);
        assert_eq!(
            display(vars::SQL_MODE, &g.get(vars::SQL_MODE)),
            "ANSI_QUOTES,NO_ZERO_DATE"
        );
        assert_eq!(g.get_string(vars::TRANSACTION_ISOLATION), "READ-COMMITTED");
        assert_eq!(g.get_f64(vars::LONG_QUERY_TIME), 0.5);
        assert_eq!(g.get_string(vars::BINLOG_FORMAT), "ROW");
        assert_eq!(g.get_string(vars::CHARACTER_SET_SERVER), "latin1");
        assert_eq!(g.get_string(vars::COLLATION_SERVER), "latin1_swedish_ci");
    }

    #[test]
    fn size_suffixes() {
        assert_eq!(parse_integer("16M"), Some(16 << 20));
        assert_eq!(parse_integer("1k"), Some(1024));
        assert_eq!(parse_integer("2G"), Some(2 << 30));
        assert_eq!(parse_integer("1T"), Some(1 << 40));
        assert_eq!(parse_integer("-5"), Some(-5));
        assert_eq!(parse_integer("+5"), Some(5));
        assert_eq!(parse_integer("5X"), None);
        assert_eq!(parse_integer("M"), None);
        assert_eq!(parse_integer(""), None);
        assert_eq!(parse_integer("5 "), None);
        assert_eq!(parse_integer(&"9".repeat(40)), None);
        let g = globals(&["--innodb-buffer-pool-size=1G", "--binlog-cache-size=64k"]);
        assert_eq!(g.get_u64(vars::INNODB_BUFFER_POOL_SIZE), 1 << 30);
        assert_eq!(g.get_u64(vars::BINLOG_CACHE_SIZE), 65536);
        assert!(fail(&["--port=33x"]).contains("incorrect integer value '33x'"));
        assert!(
            fail(&["--max-allowed-packet=99999999999999999999E"]).contains("incorrect integer")
        );
    }

    #[test]
    fn out_of_range_values_are_adjusted_with_a_warning() {
        let o = run(&["--max-allowed-packet=100", "--port=-1"]);
        assert_eq!(
            o.get(vars::MAX_ALLOWED_PACKET)
                .map(|v| display(vars::MAX_ALLOWED_PACKET, v)),
            Some("1024".to_string())
        );
        assert_eq!(
            o.warnings,
            vec![
                "option 'max_allowed_packet': unsigned value 100 adjusted to 1024".to_string(),
                "option 'port': unsigned value -1 adjusted to 0".to_string(),
            ]
        );
    }

    #[test]
    fn booleans_every_form() {
        for (arg, expected) in [
            ("--autocommit", true),
            ("--autocommit=0", false),
            ("--autocommit=1", true),
            ("--autocommit=OFF", false),
            ("--autocommit=on", true),
            ("--autocommit=TRUE", true),
            ("--autocommit=false", false),
            ("--skip-autocommit", false),
            ("--disable-autocommit", false),
            ("--enable-autocommit", true),
            ("--skip_autocommit", false),
        ] {
            let g = GlobalVars::new();
            g.set(vars::AUTOCOMMIT, Value::bool(!expected));
            run(&[arg]).apply(&g).unwrap();
            assert_eq!(g.get_bool(vars::AUTOCOMMIT), expected, "{arg}");
        }
        // option names that start with skip- are themselves variables
        let g = globals(&["--skip-name-resolve", "--skip-networking"]);
        assert!(g.get_bool(vars::SKIP_NAME_RESOLVE));
        assert!(g.get_bool(vars::SKIP_NETWORKING));
        assert!(fail(&["--autocommit=maybe"]).contains("'maybe' was not recognized"));
        assert!(fail(&["--skip-autocommit=1"]).contains("cannot take an argument"));
        assert!(fail(&["--skip-port"]).contains("'port' is not a boolean option"));
    }

    #[test]
    fn short_options() {
        let g = globals(&["-P", "3310", "-S/tmp/q.sock", "-h", "/data", "-u", "mysql"]);
        assert_eq!(g.get_u64(vars::PORT), 3310);
        assert_eq!(g.get_string(vars::SOCKET), "/tmp/q.sock");
        assert_eq!(g.get_string(vars::DATADIR), "/data");
        let g = globals(&["-P3311"]);
        assert_eq!(g.get_u64(vars::PORT), 3311);
        assert!(matches!(parse(&args(&["-V"])), Ok(Startup::Version)));
        assert!(matches!(parse(&args(&["--version"])), Ok(Startup::Version)));
        assert!(matches!(parse(&args(&["-?"])), Ok(Startup::Help)));
        assert!(matches!(
            parse(&args(&["--port=1", "--help"])),
            Ok(Startup::Help)
        ));
        assert_eq!(fail(&["-P"]), "option '-P' requires an argument");
        assert_eq!(fail(&["-x"]), "unknown option '-x'");
        // -u's value is not an option even if it looks like one
        let o = run(&["-u", "-V"]);
        assert!(o.settings.is_empty());
    }

    #[test]
    fn quire_specific_options() {
        let g = globals(&["--version-string=8.0.36-custom"]);
        assert_eq!(g.get_string(vars::VERSION), "8.0.36-custom");
        assert!(fail(&["--version-string"]).contains("requires an argument"));
        assert!(fail(&[&format!("--version-string={}", "x".repeat(61))]).contains("at most 60"));
        let g = globals(&["--log-bin=/logs/quire-bin"]);
        assert!(g.get_bool(vars::LOG_BIN));
        assert_eq!(g.get_string(vars::LOG_BIN_BASENAME), "/logs/quire-bin");
        let g = globals(&["--skip-log-bin"]);
        assert!(!g.get_bool(vars::LOG_BIN));
        assert_eq!(g.get_string(vars::LOG_BIN_BASENAME), "binlog");
        let g = globals(&["--disable-log-bin", "--log-bin"]);
        assert!(g.get_bool(vars::LOG_BIN));
        let g = globals(&["--log-bin", "--disable-log-bin"]);
        assert!(!g.get_bool(vars::LOG_BIN));
        let g = globals(&["--default-time-zone=+1:00"]);
        assert_eq!(g.get_string(vars::TIME_ZONE), "+01:00");
        assert!(
            fail(&["--default-time-zone=Mars/Olympus"]).contains("Unknown or incorrect time zone")
        );
        // --user is accepted and stored nowhere
        assert!(run(&["--user=mysql"]).settings.is_empty());
        assert!(
            run(&["--skip-ssl", "--ssl=0", "--symbolic-links=0"])
                .settings
                .is_empty()
        );
        assert!(fail(&["--ssl"]).contains("TLS is not supported"));
    }

    #[test]
    fn unknown_options_and_loose() {
        assert_eq!(fail(&["--foo"]), "unknown option '--foo'");
        assert_eq!(fail(&["--foo=1"]), "unknown variable 'foo=1'");
        assert_eq!(
            fail(&["--max-allowed=16M"]),
            "unknown variable 'max-allowed=16M'"
        );
        // variables that are not options
        assert_eq!(
            fail(&["--version-comment=x"]),
            "unknown variable 'version-comment=x'"
        );
        assert_eq!(
            fail(&["--warning-count=1"]),
            "unknown variable 'warning-count=1'"
        );
        let o = run(&["--loose-foo=1", "--loose-port=3399"]);
        assert_eq!(
            o.warnings,
            vec!["ignoring unknown option '--loose-foo'".to_string()]
        );
        assert!(matches!(o.get(vars::PORT), Some(Value::UInt(3399))));
        // loose does not excuse a bad value
        assert!(fail(&["--loose-port=abc"]).contains("incorrect integer value"));
    }

    #[test]
    fn invalid_values_name_the_option() {
        assert_eq!(
            fail(&["--sql-mode=FOO"]),
            "option '--sql-mode': Variable 'sql_mode' can't be set to the value of 'FOO'"
        );
        assert_eq!(
            fail(&["--character-set-server=klingon"]),
            "option '--character-set-server': Unknown character set: 'klingon'"
        );
        assert_eq!(
            fail(&["--transaction-isolation=chaos"]),
            "option '--transaction-isolation': Variable 'transaction_isolation' can't be set to the value of 'chaos'"
        );
        assert!(fail(&["--long-query-time=soon"]).contains("incorrect numeric value"));
        assert!(fail(&["--max-connections"]).contains("requires an argument"));
    }

    #[test]
    fn positional_arguments_are_errors() {
        assert_eq!(
            fail(&["binlog"]),
            "Too many arguments (first extra is 'binlog'). Use --help to get a list of available options."
        );
        assert!(fail(&["--port", "3306"]).contains("first extra is '3306'"));
        assert!(fail(&["--", "x"]).contains("first extra is 'x'"));
        assert!(run(&["--"]).settings.is_empty());
        assert!(fail(&["-"]).contains("first extra is '-'"));
    }

    #[test]
    fn odd_arguments_are_errors_not_panics() {
        for list in [
            &["--="][..],
            &["---port=1"],
            &["--\u{e9}t\u{e9}=1"],
            &["-\u{e9}"],
            &["--loose-"],
            &["--skip-"],
            &["--port=\u{1F600}"],
            &["--sql-mode=\u{0}"],
            &["-S"],
        ] {
            assert!(parse(&args(list)).is_err(), "{list:?}");
        }
        assert!(parse(&args(&["--init-connect="])).is_ok());
    }

    #[test]
    fn charset_and_collation_server_agree() {
        let g = globals(&["--collation-server=utf8mb4_bin"]);
        assert_eq!(g.get_string(vars::CHARACTER_SET_SERVER), "utf8mb4");
        assert_eq!(g.get_string(vars::COLLATION_SERVER), "utf8mb4_bin");
        let g = globals(&[
            "--collation-server=utf8mb4_bin",
            "--character-set-server=utf8mb4",
        ]);
        assert_eq!(g.get_string(vars::COLLATION_SERVER), "utf8mb4_bin");
        assert_eq!(
            fail(&[
                "--character-set-server=latin1",
                "--collation-server=utf8mb4_bin"
            ]),
            "COLLATION 'utf8mb4_bin' is not valid for CHARACTER SET 'latin1'"
        );
    }

    #[test]
    fn help_and_version_texts() {
        let help = help_text();
        assert!(help.contains("--defaults-file=FILE"));
        assert!(help.contains("Every system variable"));
        assert!(help.contains("--max-allowed-packet"));
        assert!(!help.contains("--warning-count"));
        assert!(version_text().contains(VERSION_DEFAULT));
    }
}
