//! The registry of system variables: what exists, what values it accepts, where its value
//! lives, and how it is shown.
//!
//! Every variable is one [`SysVar`] in a static table (`sysvar_defs.rs`), named by a
//! [`VarId`] constant in [`vars`]. The table says the variable's scope (global, session, or
//! both), its [`Kind`] (which values it accepts), its compiled default, whether it can be set
//! at run time, and whether it is also a command-line option. Nothing here knows what a
//! variable *does*; the layers that read `vars::X` give it meaning.
//!
//! ## Values
//!
//! Values are [`Value`]s, stored in the representation that is cheapest to read on hot paths;
//! [`display`] and [`select_value`] turn them into what clients see:
//!
//! | kind                         | stored as        | `SHOW VARIABLES` | `SELECT @@x`        |
//! |------------------------------|------------------|------------------|---------------------|
//! | Bool                         | `Int(0/1)`       | `OFF`/`ON`       | `Int(0/1)`          |
//! | Int / UInt                   | `Int` / `UInt`   | the number       | the number          |
//! | Double                       | `Double`         | `10.000000`      | `Double`            |
//! | SqlMode                      | `UInt(bits)`     | names            | names as `Bytes`    |
//! | Str, Enum, Set, Flags, Charset, Collation, TimeZone, Locale, Engine | canonical `Bytes` | the text | `Bytes` |
//! | a nullable variable set NULL | `Null`           | empty string     | `Null`              |
//!
//! ## Validation ([`check`]) mirrors MySQL 8.0's `Sys_var_*::do_check`
//!
//! - Integers accept integer values only; strings, decimals, doubles and NULL fail with
//!   1232 "Incorrect argument type". Out of range (or not a multiple of the block size) is
//!   clamped/rounded down with warning 1292 "Truncated incorrect x value: 'v'", or fails with
//!   1231 under `STRICT_ALL_TABLES`.
//! - Booleans and enums accept a name (case-insensitive, exact: no trimming) or an index;
//!   `'true'` is not a boolean name in MySQL (the keyword `TRUE` is the integer 1). Anything
//!   else fails with 1231 "Variable 'x' can't be set to the value of 'v'".
//! - Doubles accept any number, clamped like integers; strings fail with 1232.
//! - Character sets (1115) and collations (1273) accept a name or a collation id;
//!   `utf8` means `utf8mb3`. `time_zone` accepts `SYSTEM`, `±HH:MM` within -13:59..+14:00
//!   (MySQL 8.0.19+; MariaDB's range is narrower) and, as Quire's one named zone, `UTC`
//!   (1298 otherwise). `sql_mode`: see `sql_mode.rs`.
//! - NULL fails with 1231 `'NULL'` unless the variable takes NULL (`character_set_results`,
//!   `init_connect`, …).
//!
//! ## Scope ([`check_scope`])
//!
//! `SET` on a read-only variable: 1238 "… is a read only variable" (checked first, as in
//! MySQL). `SET SESSION` on a global-only variable: 1229; `SET GLOBAL` on a session-only
//! one: 1228; `SET SESSION` on a variable whose session value is read-only
//! (`max_allowed_packet`): 1621. `SELECT @@global.x` of a session-only variable and
//! `@@session.x` of a global-only one: 1238 "… is a SESSION/GLOBAL variable".
//!
//! ## Storage
//!
//! [`GlobalVars`] holds one value per variable behind a `RwLock` (reads clone a `Value`: an
//! integer copy or an `Arc` increment). [`SessionVars`] holds a private copy of the values of
//! session-scope variables, taken from the globals at connect; a session reads its own copy
//! without any lock. `SET SESSION x = DEFAULT` takes the current global value, `SET GLOBAL
//! x = DEFAULT` the compiled default ([`set_var`] does both, as MySQL).
//!
//! This module must never panic on a client's value and never block on anything but the
//! globals' lock.

use super::sql_mode::SqlMode;
use super::sysvar_check;
pub use super::sysvar_check::{CheckCtx, IsolationLevel, TimeZone, check, time_zone};
use super::sysvar_defs::{ALIASES, COUNT, OPTIMIZER_FLAGS, TABLE};
pub use super::sysvar_defs::{ISOLATION_NAMES, VERSION_COMMENT_DEFAULT, VERSION_DEFAULT, vars};
use crate::error::{Diagnostics, MyError, code};
use crate::sql::types::Charset;
use crate::sql::types::Collation;
use crate::sql::value::Value;
use parking_lot::RwLock;
use std::sync::LazyLock;

/// MySQL's `ER_VARIABLE_IS_READONLY` (not yet in `crate::error::code`).
pub const ER_VARIABLE_IS_READONLY: u16 = 1621;

/// Identifies a system variable: an index into the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u16);

impl VarId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// Where a variable has a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Only a global value (`max_connections`).
    Global,
    /// Only a per-session value (`last_insert_id`, `warning_count`).
    Session,
    /// A global value that each new session copies (`sql_mode`, `autocommit`).
    Both,
}

impl Scope {
    pub fn has_global(self) -> bool {
        self != Scope::Session
    }
    pub fn has_session(self) -> bool {
        self != Scope::Global
    }
}

/// Which values a variable accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Bool,
    /// Signed integer within `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// Unsigned integer within `min..=max`, a multiple of `block` (1 = any).
    UInt {
        min: u64,
        max: u64,
        block: u64,
    },
    Double {
        min: f64,
        max: f64,
    },
    /// Free text.
    Str,
    /// One of the names (canonical spelling as listed).
    Enum(&'static [&'static str]),
    /// A comma list of the names, stored in list order.
    Set(&'static [&'static str]),
    /// `name=on|off,…` flags with their defaults (`optimizer_switch`).
    Flags(&'static [(&'static str, bool)]),
    SqlMode,
    /// A character set name (or a collation id).
    Charset,
    /// A collation name (or id).
    Collation,
    TimeZone,
    /// A locale name from MySQL's list (or its number).
    Locale,
    /// A storage engine name.
    Engine,
}

/// A compiled default.
#[derive(Clone, Copy, Debug)]
pub enum Def {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Double(f64),
    Str(&'static str),
    SqlMode(SqlMode),
    /// The defaults of a [`Kind::Flags`] variable.
    Flags,
    Null,
    /// Computed when the globals are created (host name, paths).
    Computed(fn() -> String),
}

/// What `SET x = NULL` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullPolicy {
    /// 1231 "Variable 'x' can't be set to the value of 'NULL'".
    Reject,
    /// Stores NULL.
    Keep,
    /// Stores the empty string.
    Empty,
}

/// One system variable.
#[derive(Debug)]
pub struct SysVar {
    /// MySQL's exact name (lower case, underscores).
    pub name: &'static str,
    pub scope: Scope,
    pub kind: Kind,
    pub default: Def,
    /// Settable at run time; otherwise `SET` fails with 1238 (read only).
    pub dynamic: bool,
    /// Also a command-line / my.cnf option `--name=value`.
    pub cmdline: bool,
    pub null: NullPolicy,
    /// The session value can be read but not set (`max_allowed_packet`).
    pub session_read_only: bool,
}

// --- lookup ---------------------------------------------------------------------------------

/// Every name (variables and aliases), sorted, for lookup and `SHOW VARIABLES`.
static SORTED_NAMES: LazyLock<Vec<(&'static str, VarId)>> = LazyLock::new(|| {
    let mut names: Vec<(&'static str, VarId)> = TABLE
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name, VarId(i as u16)))
        .chain(ALIASES.iter().copied())
        .collect();
    names.sort_unstable_by(|a, b| a.0.cmp(b.0));
    names
});

/// Longest variable name Quire will look up (MySQL's longest are under 64 characters).
const NAME_LEN_MAX: usize = 64;

/// Looks a variable up by name: case-insensitive, `-` and `_` equivalent, aliases accepted
/// (`tx_isolation` → `transaction_isolation`).
pub fn find(name: &str) -> Option<VarId> {
    let bytes = name.as_bytes();
    if bytes.len() > NAME_LEN_MAX {
        return None;
    }
    let mut buf = [0u8; NAME_LEN_MAX];
    for (dst, &src) in buf.iter_mut().zip(bytes) {
        *dst = if src == b'-' {
            b'_'
        } else {
            src.to_ascii_lowercase()
        };
    }
    let key = std::str::from_utf8(buf.get(..bytes.len())?).ok()?;
    let names = &*SORTED_NAMES;
    names
        .binary_search_by(|(n, _)| (*n).cmp(key))
        .ok()
        .and_then(|i| names.get(i))
        .map(|(_, id)| *id)
}

/// The definition of a variable.
pub fn def(id: VarId) -> &'static SysVar {
    // VarIds come from `vars` or `find`, so they are always in range.
    assert!(id.index() < COUNT, "VarId {} out of range", id.0);
    &TABLE[id.index()]
}

/// The variable's MySQL name.
pub fn name(id: VarId) -> &'static str {
    def(id).name
}

/// All variables (without aliases), sorted by name.
pub fn all() -> impl Iterator<Item = (VarId, &'static SysVar)> {
    SORTED_NAMES
        .iter()
        .filter(|(n, id)| def(*id).name == *n)
        .map(|(_, id)| (*id, def(*id)))
}

/// All names a client may use, aliases included, sorted: the rows of `SHOW VARIABLES`
/// (MySQL 5.7 lists `tx_isolation` next to `transaction_isolation`).
pub fn names() -> impl Iterator<Item = (&'static str, VarId)> {
    SORTED_NAMES.iter().copied()
}

/// The compiled default, in stored form (`SET GLOBAL x = DEFAULT`).
pub fn default_value(id: VarId) -> Value {
    match def(id).default {
        Def::Bool(b) => Value::bool(b),
        Def::Int(i) => Value::Int(i),
        Def::UInt(u) => Value::UInt(u),
        Def::Double(d) => Value::Double(d),
        Def::Str(s) => Value::str(s),
        Def::SqlMode(m) => Value::UInt(m.bits()),
        Def::Flags => match def(id).kind {
            Kind::Flags(flags) => Value::from_string(sysvar_check::flags_to_string(
                flags,
                sysvar_check::flags_default_bits(flags),
            )),
            _ => Value::Null,
        },
        Def::Null => Value::Null,
        Def::Computed(f) => Value::from_string(f()),
    }
}

// --- scope ----------------------------------------------------------------------------------

/// What a statement wants to do with a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// `SET x = …`, `SET SESSION x`, `SET @@x`, `SET @@session.x`.
    SetSession,
    /// `SET GLOBAL x`, `SET @@global.x`.
    SetGlobal,
    /// `SELECT @@session.x` (plain `@@x` is always allowed).
    ReadSession,
    /// `SELECT @@global.x`.
    ReadGlobal,
}

/// Checks that `access` is allowed for the variable, with MySQL's errors.
pub fn check_scope(id: VarId, access: Access) -> Result<(), MyError> {
    let v = def(id);
    let scope_error = |what: &str| {
        MyError::new(
            code::ER_INCORRECT_GLOBAL_LOCAL_VAR,
            format!("Variable '{}' is a {what} variable", v.name),
        )
    };
    match access {
        Access::SetSession | Access::SetGlobal if !v.dynamic => Err(scope_error("read only")),
        Access::SetSession if !v.scope.has_session() => Err(MyError::new(
            code::ER_GLOBAL_VARIABLE,
            format!(
                "Variable '{}' is a GLOBAL variable and should be set with SET GLOBAL",
                v.name
            ),
        )),
        Access::SetSession if v.session_read_only => Err(MyError::new(
            ER_VARIABLE_IS_READONLY,
            format!(
                "SESSION variable '{}' is read-only. Use SET GLOBAL to assign the value",
                v.name
            ),
        )),
        Access::SetGlobal if !v.scope.has_global() => Err(MyError::new(
            code::ER_LOCAL_VARIABLE,
            format!(
                "Variable '{}' is a SESSION variable and can't be used with SET GLOBAL",
                v.name
            ),
        )),
        Access::ReadGlobal if !v.scope.has_global() => Err(scope_error("SESSION")),
        Access::ReadSession if !v.scope.has_session() => Err(scope_error("GLOBAL")),
        _ => Ok(()),
    }
}

// --- presentation ---------------------------------------------------------------------------

/// The `Value` column of `SHOW VARIABLES`.
pub fn display(id: VarId, value: &Value) -> String {
    let v = def(id);
    if id == vars::TIMESTAMP && value.is_null() {
        return format!("{:.6}", now_seconds());
    }
    match (v.kind, value) {
        (_, Value::Null) => String::new(),
        (Kind::Bool, Value::Int(i)) => on_off(*i != 0).to_string(),
        (Kind::Bool, Value::UInt(u)) => on_off(*u != 0).to_string(),
        (Kind::SqlMode, Value::UInt(bits)) => SqlMode::from_bits_retain(*bits).to_string(),
        (_, Value::Double(d)) => format!("{d:.6}"),
        (_, other) => plain_text(other),
    }
}

/// What `SELECT @@x` returns for a stored value.
pub fn select_value(id: VarId, value: &Value) -> Value {
    let v = def(id);
    if id == vars::TIMESTAMP && value.is_null() {
        return Value::Double(now_seconds());
    }
    match (v.kind, value) {
        (Kind::Bool, Value::UInt(u)) => Value::Int((*u != 0) as i64),
        (Kind::SqlMode, Value::UInt(bits)) => {
            Value::from_string(SqlMode::from_bits_retain(*bits).to_string())
        }
        _ => value.clone(),
    }
}

fn on_off(b: bool) -> &'static str {
    if b { "ON" } else { "OFF" }
}

fn plain_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::Int(i) => i.to_string(),
        Value::UInt(u) => u.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Double(d) => d.to_string(),
        Value::Decimal(d) => d.to_string(),
        Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        Value::Date(_) | Value::DateTime(_) | Value::Time(_) => format!("{value:?}"),
    }
}

/// Seconds since the epoch with microseconds: `@@timestamp` when not set.
fn now_seconds() -> f64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    now.as_secs() as f64 + f64::from(now.subsec_micros()) / 1e6
}

// --- storage --------------------------------------------------------------------------------

/// The global values of all variables. Thread-safe; reads take a shared lock briefly.
pub struct GlobalVars {
    values: RwLock<Vec<Value>>,
}

impl Default for GlobalVars {
    fn default() -> Self {
        GlobalVars::new()
    }
}

impl GlobalVars {
    /// Every variable at its compiled default.
    pub fn new() -> GlobalVars {
        let values = (0..COUNT).map(|i| default_value(VarId(i as u16))).collect();
        GlobalVars {
            values: RwLock::new(values),
        }
    }

    /// The stored global value (session-only variables hold their compiled default here).
    pub fn get(&self, id: VarId) -> Value {
        self.values
            .read()
            .get(id.index())
            .cloned()
            .unwrap_or_default()
    }

    /// Stores an already validated value ([`check`]); no scope or type checks.
    pub fn set(&self, id: VarId, value: Value) {
        if let Some(slot) = self.values.write().get_mut(id.index()) {
            *slot = value;
        }
    }

    pub fn get_bool(&self, id: VarId) -> bool {
        self.values.read().get(id.index()).is_some_and(as_bool)
    }

    pub fn get_u64(&self, id: VarId) -> u64 {
        self.values.read().get(id.index()).map_or(0, as_u64)
    }

    pub fn get_i64(&self, id: VarId) -> i64 {
        self.values.read().get(id.index()).map_or(0, as_i64)
    }

    pub fn get_f64(&self, id: VarId) -> f64 {
        self.values.read().get(id.index()).map_or(0.0, as_f64)
    }

    pub fn get_string(&self, id: VarId) -> String {
        self.values
            .read()
            .get(id.index())
            .map(|v| as_str(v).to_string())
            .unwrap_or_default()
    }
}

/// Session slot of each variable (`NO_SLOT` for global-only ones) and the slot count.
static SESSION_SLOTS: LazyLock<(Vec<u16>, usize)> = LazyLock::new(|| {
    let mut next = 0u16;
    let slots = TABLE
        .iter()
        .map(|v| {
            if v.scope.has_session() {
                next += 1;
                next - 1
            } else {
                NO_SLOT
            }
        })
        .collect();
    (slots, next as usize)
});
const NO_SLOT: u16 = u16::MAX;

fn session_slot(id: VarId) -> Option<usize> {
    match SESSION_SLOTS.0.get(id.index()) {
        Some(&slot) if slot != NO_SLOT => Some(slot as usize),
        _ => None,
    }
}

/// One session's values of the session-scope variables. Owned by the session; no locks.
#[derive(Clone, Debug)]
pub struct SessionVars {
    values: Vec<Value>,
}

impl SessionVars {
    /// A new session's values: the current globals (MySQL copies
    /// `global_system_variables` at connect).
    pub fn new(globals: &GlobalVars) -> SessionVars {
        let g = globals.values.read();
        let mut values = Vec::with_capacity(SESSION_SLOTS.1);
        for (i, v) in TABLE.iter().enumerate() {
            if v.scope.has_session() {
                values.push(g.get(i).cloned().unwrap_or_default());
            }
        }
        let mut s = SessionVars { values };
        // MariaDB: the session's slow_query_log is its own switch, ON until it turns it
        // off; the global one switches the log.
        s.set(super::vars::SLOW_QUERY_LOG, Value::Int(1));
        s
    }

    /// The session value, or `None` for a global-only variable.
    pub fn get(&self, id: VarId) -> Option<&Value> {
        session_slot(id).and_then(|slot| self.values.get(slot))
    }

    /// Stores an already validated value. Returns false (and stores nothing) for a
    /// global-only variable.
    pub fn set(&mut self, id: VarId, value: Value) -> bool {
        match session_slot(id).and_then(|slot| self.values.get_mut(slot)) {
            Some(slot) => {
                *slot = value;
                true
            }
            None => false,
        }
    }

    pub fn get_bool(&self, id: VarId) -> bool {
        self.get(id).is_some_and(as_bool)
    }

    pub fn get_u64(&self, id: VarId) -> u64 {
        self.get(id).map_or(0, as_u64)
    }

    pub fn get_i64(&self, id: VarId) -> i64 {
        self.get(id).map_or(0, as_i64)
    }

    pub fn get_f64(&self, id: VarId) -> f64 {
        self.get(id).map_or(0.0, as_f64)
    }

    /// The text of a string-like variable ("" for NULL or a global-only variable).
    pub fn get_str(&self, id: VarId) -> &str {
        self.get(id).map_or("", as_str)
    }

    pub fn sql_mode(&self) -> SqlMode {
        SqlMode::from_bits_retain(self.get_u64(vars::SQL_MODE))
    }

    pub fn isolation(&self) -> IsolationLevel {
        IsolationLevel::from_name(self.get_str(vars::TRANSACTION_ISOLATION))
            .unwrap_or(IsolationLevel::RepeatableRead)
    }

    /// The context [`check`] needs from this session.
    pub fn check_ctx(&self) -> CheckCtx<'_> {
        CheckCtx {
            sql_mode: self.sql_mode(),
            pseudo_replica_mode: self.get_bool(vars::PSEUDO_REPLICA_MODE),
            current: None,
            default: None,
        }
    }
}

fn as_bool(v: &Value) -> bool {
    match v {
        Value::Int(i) => *i != 0,
        Value::UInt(u) => *u != 0,
        _ => false,
    }
}

fn as_u64(v: &Value) -> u64 {
    match v {
        Value::UInt(u) => *u,
        Value::Int(i) => u64::try_from(*i).unwrap_or(0),
        _ => 0,
    }
}

fn as_i64(v: &Value) -> i64 {
    match v {
        Value::Int(i) => *i,
        Value::UInt(u) => i64::try_from(*u).unwrap_or(i64::MAX),
        _ => 0,
    }
}

fn as_f64(v: &Value) -> f64 {
    match v {
        Value::Double(d) => *d,
        Value::Int(i) => *i as f64,
        Value::UInt(u) => *u as f64,
        _ => 0.0,
    }
}

fn as_str(v: &Value) -> &str {
    match v {
        Value::Bytes(b) => std::str::from_utf8(b).unwrap_or(""),
        _ => "",
    }
}

// --- SET and SELECT @@ ----------------------------------------------------------------------

/// The scope a `SET` or `@@` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarScope {
    Session,
    Global,
}

/// The variable MySQL updates together with `id` when `id` is set to `value`: setting a
/// character set sets the matching collation to that set's default collation, and setting a
/// collation sets the matching character set (`character_set_connection` ↔
/// `collation_connection`, and likewise `_server`, `_database`).
pub fn linked_update(id: VarId, value: &Value) -> Option<(VarId, Value)> {
    let text = match value {
        Value::Bytes(b) => std::str::from_utf8(b).ok()?,
        _ => return None,
    };
    let pairs = [
        (vars::CHARACTER_SET_CONNECTION, vars::COLLATION_CONNECTION),
        (vars::CHARACTER_SET_SERVER, vars::COLLATION_SERVER),
        (vars::CHARACTER_SET_DATABASE, vars::COLLATION_DATABASE),
    ];
    for (charset_var, collation_var) in pairs {
        if id == charset_var {
            let collation = Charset::from_name(text)?.default_collation();
            return Some((collation_var, Value::str(collation.name())));
        }
        if id == collation_var {
            let charset = Collation::from_name(text)?.charset();
            return Some((charset_var, Value::str(charset.name())));
        }
    }
    None
}

/// `SET [GLOBAL|SESSION] x = value` (`None` = `DEFAULT`): scope checks, validation,
/// storage, and the linked character-set/collation update. Effects beyond storing the value
/// (e.g. `autocommit=1` committing, a transaction-characteristics check) belong to the
/// caller.
pub fn set_var(
    globals: &GlobalVars,
    session: &mut SessionVars,
    id: VarId,
    scope: VarScope,
    value: Option<&Value>,
    diag: &mut Diagnostics,
) -> Result<(), MyError> {
    let access = match scope {
        VarScope::Session => Access::SetSession,
        VarScope::Global => Access::SetGlobal,
    };
    check_scope(id, access)?;
    let has_global = def(id).scope.has_global();
    // What DEFAULT means in this scope: the compiled default globally, the current global
    // value for a session (MySQL's `session_save_default`).
    let scope_default = match scope {
        VarScope::Session if has_global => globals.get(id),
        _ => default_value(id),
    };
    let stored = match value {
        None => scope_default,
        Some(v) => {
            let current = match scope {
                VarScope::Session => session.get(id).cloned().unwrap_or_default(),
                VarScope::Global => globals.get(id),
            };
            let ctx = CheckCtx {
                current: Some(&current),
                default: Some(&scope_default),
                ..session.check_ctx()
            };
            check(id, v, &ctx, diag)?
        }
    };
    let linked = linked_update(id, &stored);
    match scope {
        VarScope::Session => {
            session.set(id, stored);
            if let Some((other, v)) = linked {
                session.set(other, v);
            }
        }
        VarScope::Global => {
            globals.set(id, stored);
            if let Some((other, v)) = linked {
                globals.set(other, v);
            }
        }
    }
    Ok(())
}

/// `SELECT @@x` / `@@session.x` / `@@global.x` (`scope` `None` = plain `@@x`: the session
/// value if the variable has one, else the global). Returns the [`select_value`] form.
/// `@@warning_count` and `@@error_count` are answered by the session from its diagnostics
/// area before it gets here.
pub fn read_var(
    globals: &GlobalVars,
    session: &SessionVars,
    id: VarId,
    scope: Option<VarScope>,
) -> Result<Value, MyError> {
    let stored = match scope {
        Some(VarScope::Global) => {
            check_scope(id, Access::ReadGlobal)?;
            globals.get(id)
        }
        Some(VarScope::Session) => {
            check_scope(id, Access::ReadSession)?;
            session.get(id).cloned().unwrap_or_default()
        }
        None => match session.get(id) {
            Some(v) => v.clone(),
            None => globals.get(id),
        },
    };
    Ok(select_value(id, &stored))
}

/// Is optimizer flag `flag` (e.g. `"mrr"`) on in this session's `optimizer_switch`?
pub fn optimizer_flag(session: &SessionVars, flag: &str) -> bool {
    let bits = sysvar_check::flags_bits(OPTIMIZER_FLAGS, session.get_str(vars::OPTIMIZER_SWITCH));
    OPTIMIZER_FLAGS
        .iter()
        .position(|(n, _)| *n == flag)
        .is_some_and(|i| bits & (1u64 << i) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag() -> Diagnostics {
        Diagnostics::default()
    }

    #[test]
    fn table_is_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for (i, v) in TABLE.iter().enumerate() {
            assert!(seen.insert(v.name), "duplicate {}", v.name);
            assert!(
                v.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "{}",
                v.name
            );
            assert!(v.name.len() <= NAME_LEN_MAX);
            // The default must pass the variable's own validation unchanged.
            let id = VarId(i as u16);
            let d = default_value(id);
            if d.is_null() {
                continue;
            }
            let input = match (v.kind, &d) {
                (Kind::SqlMode, Value::UInt(bits)) => Value::UInt(*bits),
                _ => d.clone(),
            };
            let mut dg = diag();
            let checked = check(id, &input, &CheckCtx::default(), &mut dg)
                .unwrap_or_else(|e| panic!("default of {}: {e}", v.name));
            assert_eq!(
                display(id, &checked),
                display(id, &d),
                "default of {} changes on check",
                v.name
            );
            assert!(dg.list.is_empty(), "default of {} warns", v.name);
        }
        for (alias, target) in ALIASES {
            assert!(seen.insert(alias), "alias {alias} shadows a variable");
            assert!(target.index() < COUNT);
        }
        const { assert!(COUNT >= 190, "fewer variables than expected") };
    }

    #[test]
    fn lookup_is_case_insensitive_with_dashes_and_aliases() {
        assert_eq!(find("autocommit"), Some(vars::AUTOCOMMIT));
        assert_eq!(find("AutoCommit"), Some(vars::AUTOCOMMIT));
        assert_eq!(find("max-allowed-packet"), Some(vars::MAX_ALLOWED_PACKET));
        assert_eq!(find("MAX_allowed-PACKET"), Some(vars::MAX_ALLOWED_PACKET));
        assert_eq!(find("tx_isolation"), Some(vars::TRANSACTION_ISOLATION));
        assert_eq!(find("TX-READ-ONLY"), Some(vars::TRANSACTION_READ_ONLY));
        assert_eq!(find("identity"), Some(vars::LAST_INSERT_ID));
        assert_eq!(vars::TX_ISOLATION, vars::TRANSACTION_ISOLATION);
        assert_eq!(find("no_such_variable"), None);
        assert_eq!(find(""), None);
        assert_eq!(find(&"x".repeat(500)), None);
        assert_eq!(find("auto\u{e9}commit"), None);
        assert_eq!(name(vars::SQL_MODE), "sql_mode");
    }

    #[test]
    fn show_variables_order() {
        let listed: Vec<&str> = all().map(|(_, v)| v.name).collect();
        assert_eq!(listed.len(), COUNT);
        assert!(listed.windows(2).all(|w| w[0] < w[1]));
        let with_aliases: Vec<&str> = names().map(|(n, _)| n).collect();
        assert_eq!(with_aliases.len(), COUNT + ALIASES.len());
        assert!(with_aliases.contains(&"tx_isolation"));
        assert!(!listed.contains(&"tx_isolation"));
    }

    #[test]
    fn quire_defaults() {
        let g = GlobalVars::new();
        assert_eq!(g.get_u64(vars::PORT), 3306);
        assert_eq!(g.get_string(vars::BIND_ADDRESS), "127.0.0.1");
        assert_eq!(g.get_string(vars::DATADIR), "./quire-data");
        assert_eq!(g.get_string(vars::SOCKET), "");
        assert!(g.get_string(vars::VERSION).starts_with("5.7.99-Quire-"));
        assert_eq!(
            g.get_string(vars::VERSION_COMMENT),
            format!("Quire {} (MySQL 8.0 compatible)", env!("CARGO_PKG_VERSION"))
        );
        assert_eq!(g.get_string(vars::CHARACTER_SET_SERVER), "utf8mb4");
        assert_eq!(g.get_string(vars::COLLATION_SERVER), "utf8mb4_general_ci");
        assert_eq!(
            g.get_string(vars::DEFAULT_AUTHENTICATION_PLUGIN),
            "mysql_native_password"
        );
        assert!(g.get_bool(vars::PERFORMANCE_SCHEMA));
        assert!(g.get_bool(vars::LOG_BIN));
        assert!(g.get_bool(vars::AUTOCOMMIT));
        assert_eq!(g.get_u64(vars::SYNC_BINLOG), 1);
        assert_eq!(g.get_u64(vars::INNODB_FLUSH_LOG_AT_TRX_COMMIT), 1);
        assert_eq!(g.get_string(vars::BINLOG_FORMAT), "ROW");
        assert_eq!(g.get_string(vars::BINLOG_CHECKSUM), "CRC32");
        assert_eq!(g.get_u64(vars::SERVER_ID), 1);
        assert_eq!(g.get_u64(vars::LOWER_CASE_TABLE_NAMES), 0);
        assert_eq!(g.get_u64(vars::MAX_CONNECTIONS), 151);
        assert_eq!(g.get_u64(vars::MAX_ALLOWED_PACKET), 67_108_864);
        assert_eq!(g.get_u64(vars::INNODB_LOCK_WAIT_TIMEOUT), 50);
        assert_eq!(g.get_u64(vars::LOCK_WAIT_TIMEOUT), 31_536_000);
        assert_eq!(g.get_string(vars::TRANSACTION_ISOLATION), "REPEATABLE-READ");
        assert_eq!(g.get_string(vars::TIME_ZONE), "SYSTEM");
        assert_eq!(g.get_u64(vars::WAIT_TIMEOUT), 28_800);
        assert_eq!(g.get_u64(vars::MAX_PREPARED_STMT_COUNT), 16_382);
        assert_eq!(g.get_string(vars::LICENSE), "Apache-2.0");
        assert_eq!(g.get_string(vars::HAVE_SSL), "DISABLED");
        assert_eq!(g.get_string(vars::DEFAULT_STORAGE_ENGINE), "InnoDB");
        assert_eq!(g.get_u64(vars::PROTOCOL_VERSION), 10);
        assert!(!g.get_string(vars::HOSTNAME).is_empty());
        assert!(!g.get_string(vars::SYSTEM_TIME_ZONE).is_empty());
        assert_eq!(
            display(vars::SQL_MODE, &g.get(vars::SQL_MODE)),
            SqlMode::DEFAULT.to_string()
        );
        assert_eq!(
            display(vars::OPTIMIZER_SWITCH, &g.get(vars::OPTIMIZER_SWITCH)),
            "index_merge=on,index_merge_union=on,index_merge_sort_union=on,\
             index_merge_intersection=on,engine_condition_pushdown=on,\
             index_condition_pushdown=on,mrr=on,mrr_cost_based=on,block_nested_loop=on,\
             batched_key_access=off,materialization=on,semijoin=on,loosescan=on,\
             firstmatch=on,duplicateweedout=on,subquery_materialization_cost_based=on,\
             use_index_extensions=on,condition_fanout_filter=on,derived_merge=on,\
             use_invisible_indexes=off,skip_scan=on,hash_join=on,subquery_to_derived=off,\
             prefer_ordering_index=on,hypergraph_optimizer=off,\
             derived_condition_pushdown=on,hash_set_operations=on"
        );
    }

    #[test]
    fn scope_errors() {
        let e = check_scope(vars::MAX_CONNECTIONS, Access::SetSession).unwrap_err();
        assert_eq!((e.code, e.state), (1229, "HY000"));
        assert_eq!(
            e.message,
            "Variable 'max_connections' is a GLOBAL variable and should be set with SET GLOBAL"
        );
        let e = check_scope(vars::LAST_INSERT_ID, Access::SetGlobal).unwrap_err();
        assert_eq!(e.code, 1228);
        assert_eq!(
            e.message,
            "Variable 'last_insert_id' is a SESSION variable and can't be used with SET GLOBAL"
        );
        let e = check_scope(vars::PORT, Access::SetSession).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (1238, "Variable 'port' is a read only variable")
        );
        // read-only is reported before scope, as in MySQL
        let e = check_scope(vars::PORT, Access::SetGlobal).unwrap_err();
        assert_eq!(e.code, 1238);
        let e = check_scope(vars::WARNING_COUNT, Access::SetGlobal).unwrap_err();
        assert_eq!(
            e.message,
            "Variable 'warning_count' is a read only variable"
        );
        let e = check_scope(vars::WARNING_COUNT, Access::ReadGlobal).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (1238, "Variable 'warning_count' is a SESSION variable")
        );
        let e = check_scope(vars::MAX_CONNECTIONS, Access::ReadSession).unwrap_err();
        assert_eq!(e.message, "Variable 'max_connections' is a GLOBAL variable");
        let e = check_scope(vars::MAX_ALLOWED_PACKET, Access::SetSession).unwrap_err();
        assert_eq!(
            (e.code, e.message.as_str()),
            (
                1621,
                "SESSION variable 'max_allowed_packet' is read-only. Use SET GLOBAL to assign the value"
            )
        );
        assert!(check_scope(vars::MAX_ALLOWED_PACKET, Access::SetGlobal).is_ok());
        assert!(check_scope(vars::MAX_ALLOWED_PACKET, Access::ReadSession).is_ok());
        assert!(check_scope(vars::SQL_MODE, Access::SetSession).is_ok());
        assert!(check_scope(vars::SQL_MODE, Access::SetGlobal).is_ok());
        let e = check_scope(vars::SQL_LOG_BIN, Access::SetGlobal).unwrap_err();
        assert_eq!(e.code, 1228);
    }

    #[test]
    fn display_and_select_forms() {
        let g = GlobalVars::new();
        assert_eq!(display(vars::AUTOCOMMIT, &Value::Int(1)), "ON");
        assert_eq!(display(vars::AUTOCOMMIT, &Value::Int(0)), "OFF");
        assert!(matches!(
            select_value(vars::AUTOCOMMIT, &Value::Int(1)),
            Value::Int(1)
        ));
        assert_eq!(
            display(vars::LONG_QUERY_TIME, &g.get(vars::LONG_QUERY_TIME)),
            "10.000000"
        );
        assert!(matches!(
            select_value(vars::LONG_QUERY_TIME, &g.get(vars::LONG_QUERY_TIME)),
            Value::Double(d) if d == 10.0
        ));
        assert_eq!(
            display(vars::MAX_ALLOWED_PACKET, &Value::UInt(1024)),
            "1024"
        );
        assert!(matches!(
            select_value(vars::MAX_ALLOWED_PACKET, &Value::UInt(1024)),
            Value::UInt(1024)
        ));
        assert_eq!(
            display(vars::PERFORMANCE_SCHEMA_DIGESTS_SIZE, &Value::Int(-1)),
            "-1"
        );
        let mode = g.get(vars::SQL_MODE);
        match select_value(vars::SQL_MODE, &mode) {
            Value::Bytes(b) => assert_eq!(&*b, SqlMode::DEFAULT.to_string().as_bytes()),
            other => panic!("{other:?}"),
        }
        // NULL shows as an empty string but selects as NULL
        assert_eq!(display(vars::CHARACTER_SET_RESULTS, &Value::Null), "");
        assert!(select_value(vars::CHARACTER_SET_RESULTS, &Value::Null).is_null());
        assert!(select_value(vars::SECURE_FILE_PRIV, &g.get(vars::SECURE_FILE_PRIV)).is_null());
        // @@timestamp when not set is "now"
        match select_value(vars::TIMESTAMP, &Value::Null) {
            Value::Double(d) => assert!(d > 1.6e9),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            display(vars::TIMESTAMP, &Value::Double(1_700_000_000.5)),
            "1700000000.500000"
        );
        assert_eq!(display(vars::VERSION, &Value::str("x")), "x");
    }

    #[test]
    fn sessions_copy_globals_and_own_their_values() {
        let g = GlobalVars::new();
        g.set(vars::WAIT_TIMEOUT, Value::UInt(100));
        let mut s = SessionVars::new(&g);
        assert_eq!(s.get_u64(vars::WAIT_TIMEOUT), 100);
        assert!(s.get_bool(vars::AUTOCOMMIT));
        assert_eq!(s.sql_mode(), SqlMode::DEFAULT);
        assert_eq!(s.isolation(), IsolationLevel::RepeatableRead);
        assert_eq!(s.get_str(vars::TIME_ZONE), "SYSTEM");
        assert!(s.get(vars::MAX_CONNECTIONS).is_none());
        assert!(!s.set(vars::MAX_CONNECTIONS, Value::UInt(5)));
        assert!(s.set(vars::WAIT_TIMEOUT, Value::UInt(5)));
        assert_eq!(s.get_u64(vars::WAIT_TIMEOUT), 5);
        assert_eq!(g.get_u64(vars::WAIT_TIMEOUT), 100);
        assert_eq!(s.get_i64(vars::WAIT_TIMEOUT), 5);
        assert_eq!(s.get_f64(vars::LONG_QUERY_TIME), 10.0);
        assert!(s.get(vars::TIMESTAMP).is_some_and(Value::is_null));
    }

    #[test]
    fn set_var_session_global_and_default() {
        let g = GlobalVars::new();
        let mut s = SessionVars::new(&g);
        let mut d = diag();
        set_var(
            &g,
            &mut s,
            vars::WAIT_TIMEOUT,
            VarScope::Global,
            Some(&Value::Int(600)),
            &mut d,
        )
        .unwrap();
        assert_eq!(g.get_u64(vars::WAIT_TIMEOUT), 600);
        assert_eq!(s.get_u64(vars::WAIT_TIMEOUT), 28_800);
        // SESSION = DEFAULT takes the current global value
        set_var(
            &g,
            &mut s,
            vars::WAIT_TIMEOUT,
            VarScope::Session,
            None,
            &mut d,
        )
        .unwrap();
        assert_eq!(s.get_u64(vars::WAIT_TIMEOUT), 600);
        // GLOBAL = DEFAULT takes the compiled default
        set_var(
            &g,
            &mut s,
            vars::WAIT_TIMEOUT,
            VarScope::Global,
            None,
            &mut d,
        )
        .unwrap();
        assert_eq!(g.get_u64(vars::WAIT_TIMEOUT), 28_800);
        // errors leave the value alone
        let e = set_var(
            &g,
            &mut s,
            vars::AUTOCOMMIT,
            VarScope::Session,
            Some(&Value::str("maybe")),
            &mut d,
        )
        .unwrap_err();
        assert_eq!(e.code, 1231);
        assert!(s.get_bool(vars::AUTOCOMMIT));
        let e = set_var(
            &g,
            &mut s,
            vars::PORT,
            VarScope::Global,
            Some(&Value::Int(1)),
            &mut d,
        )
        .unwrap_err();
        assert_eq!(e.code, 1238);
        // session-only DEFAULT is the compiled default
        s.set(vars::INSERT_ID, Value::UInt(7));
        set_var(&g, &mut s, vars::INSERT_ID, VarScope::Session, None, &mut d).unwrap();
        assert_eq!(s.get_u64(vars::INSERT_ID), 0);
        assert!(d.list.is_empty());
    }

    #[test]
    fn set_var_links_charsets_and_collations() {
        let g = GlobalVars::new();
        let mut s = SessionVars::new(&g);
        let mut d = diag();
        let set = |s: &mut SessionVars, id, v: Value, d: &mut Diagnostics| {
            set_var(&g, s, id, VarScope::Session, Some(&v), d)
        };
        set(&mut s, vars::COLLATION_CONNECTION, Value::Int(8), &mut d).unwrap();
        assert_eq!(s.get_str(vars::COLLATION_CONNECTION), "latin1_swedish_ci");
        assert_eq!(s.get_str(vars::CHARACTER_SET_CONNECTION), "latin1");
        set(
            &mut s,
            vars::CHARACTER_SET_CONNECTION,
            Value::str("utf8"),
            &mut d,
        )
        .unwrap();
        assert_eq!(s.get_str(vars::CHARACTER_SET_CONNECTION), "utf8mb3");
        assert_eq!(s.get_str(vars::COLLATION_CONNECTION), "utf8mb3_general_ci");
        set(&mut s, vars::CHARACTER_SET_RESULTS, Value::Null, &mut d).unwrap();
        assert!(
            s.get(vars::CHARACTER_SET_RESULTS)
                .is_some_and(Value::is_null)
        );
        set_var(
            &g,
            &mut s,
            vars::COLLATION_SERVER,
            VarScope::Global,
            Some(&Value::str("utf8mb4_bin")),
            &mut d,
        )
        .unwrap();
        assert_eq!(g.get_string(vars::CHARACTER_SET_SERVER), "utf8mb4");
        assert_eq!(g.get_string(vars::COLLATION_SERVER), "utf8mb4_bin");
    }

    #[test]
    fn read_var_scopes() {
        let g = GlobalVars::new();
        let mut s = SessionVars::new(&g);
        s.set(vars::AUTOCOMMIT, Value::Int(0));
        assert!(matches!(
            read_var(&g, &s, vars::AUTOCOMMIT, None),
            Ok(Value::Int(0))
        ));
        assert!(matches!(
            read_var(&g, &s, vars::AUTOCOMMIT, Some(VarScope::Global)),
            Ok(Value::Int(1))
        ));
        assert!(matches!(
            read_var(&g, &s, vars::MAX_CONNECTIONS, None),
            Ok(Value::UInt(151))
        ));
        assert_eq!(
            read_var(&g, &s, vars::MAX_CONNECTIONS, Some(VarScope::Session))
                .unwrap_err()
                .code,
            1238
        );
        assert_eq!(
            read_var(&g, &s, vars::LAST_INSERT_ID, Some(VarScope::Global))
                .unwrap_err()
                .message,
            "Variable 'last_insert_id' is a SESSION variable"
        );
    }

    #[test]
    fn optimizer_switch_edits_in_place() {
        let g = GlobalVars::new();
        let mut s = SessionVars::new(&g);
        let mut d = diag();
        assert!(optimizer_flag(&s, "mrr"));
        set_var(
            &g,
            &mut s,
            vars::OPTIMIZER_SWITCH,
            VarScope::Session,
            Some(&Value::str("mrr=off,batched_key_access=on")),
            &mut d,
        )
        .unwrap();
        assert!(!optimizer_flag(&s, "mrr"));
        assert!(optimizer_flag(&s, "batched_key_access"));
        assert!(optimizer_flag(&s, "index_merge"));
        set_var(
            &g,
            &mut s,
            vars::OPTIMIZER_SWITCH,
            VarScope::Session,
            Some(&Value::str("mrr=default")),
            &mut d,
        )
        .unwrap();
        assert!(optimizer_flag(&s, "mrr"));
        assert!(optimizer_flag(&s, "batched_key_access"));
        set_var(
            &g,
            &mut s,
            vars::OPTIMIZER_SWITCH,
            VarScope::Session,
            Some(&Value::str("default")),
            &mut d,
        )
        .unwrap();
        assert!(!optimizer_flag(&s, "batched_key_access"));
        let e = set_var(
            &g,
            &mut s,
            vars::OPTIMIZER_SWITCH,
            VarScope::Session,
            Some(&Value::str("mrr=maybe")),
            &mut d,
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "Variable 'optimizer_switch' can't be set to the value of 'mrr=maybe'"
        );
    }
}
