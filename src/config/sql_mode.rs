//! `sql_mode`: the set of SQL-mode flags, parsed and printed exactly as MySQL 8.0 does.
//!
//! The value is a 64-bit mask whose bit positions are MySQL's (`SET sql_mode = 1168113696`
//! from a binlog means the same here as there). The name table below is MySQL 8.0's
//! `sql_mode_names[]`: 33 names in bit order, including the placeholders `NOT_USED_9` …
//! `NOT_USED_18` and `NOT_USED_29` that stand for the compatibility modes removed in 8.0
//! (POSTGRESQL, ORACLE, MSSQL, DB2, MAXDB, NO_KEY_OPTIONS, NO_TABLE_OPTIONS, NO_FIELD_OPTIONS,
//! MYSQL323, MYSQL40 and NO_AUTO_CREATE_USER).
//!
//! Rules mirrored from MySQL 8.0 (`Sys_var_set::do_check`, `find_set`, `check_sql_mode`,
//! `expand_sql_mode`):
//! - A string is a comma-separated list of names, matched case-insensitively and in full.
//!   Empty elements are skipped (`'A,,B'`), trailing spaces of the whole value are ignored,
//!   but spaces inside the list are not trimmed (`'A, B'` fails on `' B'`). An unknown name
//!   fails with 1231 naming that element.
//! - A number is the bitmask itself; negative or beyond the 33 named bits fails with 1231
//!   naming the number.
//! - The combination modes keep their own bit and add their members: `ANSI` adds
//!   REAL_AS_FLOAT, PIPES_AS_CONCAT, ANSI_QUOTES, IGNORE_SPACE, ONLY_FULL_GROUP_BY;
//!   `TRADITIONAL` adds STRICT_TRANS_TABLES, STRICT_ALL_TABLES, NO_ZERO_IN_DATE, NO_ZERO_DATE,
//!   ERROR_FOR_DIVISION_BY_ZERO, NO_ENGINE_SUBSTITUTION. (MariaDB's ANSI lacks
//!   ONLY_FULL_GROUP_BY and its TRADITIONAL adds NO_AUTO_CREATE_USER; MySQL 8.0 wins.)
//! - Bits of removed modes fail with 3899 `sql_mode=0x%08x is not supported.`, except under
//!   `pseudo_replica_mode` (binlog replay), where they are dropped with a warning.
//! - Printing lists the names of the set bits in bit order, upper case, comma-separated.

use crate::error::{Diagnostics, MyError};
use std::fmt;
use std::ops::{BitAnd, BitOr, BitOrAssign};

/// MySQL 8.0's `ER_UNSUPPORTED_SQL_MODE` (not yet in `crate::error::code`).
pub const ER_UNSUPPORTED_SQL_MODE: u16 = 3899;

/// A set of SQL-mode flags with MySQL 8.0's bit values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SqlMode(u64);

/// Names in bit order: `NAMES[i]` is the name of bit `i`.
const NAMES: [&str; 33] = [
    "REAL_AS_FLOAT",
    "PIPES_AS_CONCAT",
    "ANSI_QUOTES",
    "IGNORE_SPACE",
    "NOT_USED",
    "ONLY_FULL_GROUP_BY",
    "NO_UNSIGNED_SUBTRACTION",
    "NO_DIR_IN_CREATE",
    "NOT_USED_9",
    "NOT_USED_10",
    "NOT_USED_11",
    "NOT_USED_12",
    "NOT_USED_13",
    "NOT_USED_14",
    "NOT_USED_15",
    "NOT_USED_16",
    "NOT_USED_17",
    "NOT_USED_18",
    "ANSI",
    "NO_AUTO_VALUE_ON_ZERO",
    "NO_BACKSLASH_ESCAPES",
    "STRICT_TRANS_TABLES",
    "STRICT_ALL_TABLES",
    "NO_ZERO_IN_DATE",
    "NO_ZERO_DATE",
    "ALLOW_INVALID_DATES",
    "ERROR_FOR_DIVISION_BY_ZERO",
    "TRADITIONAL",
    "NOT_USED_29",
    "HIGH_NOT_PRECEDENCE",
    "NO_ENGINE_SUBSTITUTION",
    "PAD_CHAR_TO_FULL_LENGTH",
    "TIME_TRUNCATE_FRACTIONAL",
];

impl SqlMode {
    pub const REAL_AS_FLOAT: SqlMode = SqlMode(1);
    pub const PIPES_AS_CONCAT: SqlMode = SqlMode(2);
    pub const ANSI_QUOTES: SqlMode = SqlMode(4);
    pub const IGNORE_SPACE: SqlMode = SqlMode(8);
    pub const NOT_USED: SqlMode = SqlMode(16);
    pub const ONLY_FULL_GROUP_BY: SqlMode = SqlMode(32);
    pub const NO_UNSIGNED_SUBTRACTION: SqlMode = SqlMode(64);
    pub const NO_DIR_IN_CREATE: SqlMode = SqlMode(128);
    pub const ANSI: SqlMode = SqlMode(0x4_0000);
    pub const NO_AUTO_VALUE_ON_ZERO: SqlMode = SqlMode(0x8_0000);
    pub const NO_BACKSLASH_ESCAPES: SqlMode = SqlMode(0x10_0000);
    pub const STRICT_TRANS_TABLES: SqlMode = SqlMode(0x20_0000);
    pub const STRICT_ALL_TABLES: SqlMode = SqlMode(0x40_0000);
    pub const NO_ZERO_IN_DATE: SqlMode = SqlMode(0x80_0000);
    pub const NO_ZERO_DATE: SqlMode = SqlMode(0x100_0000);
    pub const ALLOW_INVALID_DATES: SqlMode = SqlMode(0x200_0000);
    pub const ERROR_FOR_DIVISION_BY_ZERO: SqlMode = SqlMode(0x400_0000);
    pub const TRADITIONAL: SqlMode = SqlMode(0x800_0000);
    pub const HIGH_NOT_PRECEDENCE: SqlMode = SqlMode(0x2000_0000);
    pub const NO_ENGINE_SUBSTITUTION: SqlMode = SqlMode(0x4000_0000);
    pub const PAD_CHAR_TO_FULL_LENGTH: SqlMode = SqlMode(0x8000_0000);
    pub const TIME_TRUNCATE_FRACTIONAL: SqlMode = SqlMode(0x1_0000_0000);

    /// MySQL 8.0's default: ONLY_FULL_GROUP_BY, STRICT_TRANS_TABLES, NO_ZERO_IN_DATE,
    /// NO_ZERO_DATE, ERROR_FOR_DIVISION_BY_ZERO, NO_ENGINE_SUBSTITUTION (= 1168113696).
    pub const DEFAULT: SqlMode = SqlMode(
        Self::ONLY_FULL_GROUP_BY.0
            | Self::STRICT_TRANS_TABLES.0
            | Self::NO_ZERO_IN_DATE.0
            | Self::NO_ZERO_DATE.0
            | Self::ERROR_FOR_DIVISION_BY_ZERO.0
            | Self::NO_ENGINE_SUBSTITUTION.0,
    );

    /// Every bit that has a name (bits 0..=32).
    pub const NAMED_BITS: u64 = (1 << 33) - 1;

    /// Bits of the modes removed in MySQL 8.0 (NOT_USED_9..NOT_USED_18, NOT_USED_29).
    pub const REMOVED_BITS: u64 = 0x1003_FF00;

    const ANSI_MEMBERS: u64 = Self::REAL_AS_FLOAT.0
        | Self::PIPES_AS_CONCAT.0
        | Self::ANSI_QUOTES.0
        | Self::IGNORE_SPACE.0
        | Self::ONLY_FULL_GROUP_BY.0;

    const TRADITIONAL_MEMBERS: u64 = Self::STRICT_TRANS_TABLES.0
        | Self::STRICT_ALL_TABLES.0
        | Self::NO_ZERO_IN_DATE.0
        | Self::NO_ZERO_DATE.0
        | Self::ERROR_FOR_DIVISION_BY_ZERO.0
        | Self::NO_ENGINE_SUBSTITUTION.0;

    pub const fn empty() -> SqlMode {
        SqlMode(0)
    }

    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The mode with exactly these bits, unvalidated. For values Quire stored itself (a
    /// value that passed [`SqlMode::from_number`] or [`SqlMode::parse`]).
    pub const fn from_bits_retain(bits: u64) -> SqlMode {
        SqlMode(bits)
    }

    pub const fn contains(self, other: SqlMode) -> bool {
        self.0 & other.0 == other.0
    }

    pub const fn intersects(self, other: SqlMode) -> bool {
        self.0 & other.0 != 0
    }

    pub const fn union(self, other: SqlMode) -> SqlMode {
        SqlMode(self.0 | other.0)
    }

    pub const fn difference(self, other: SqlMode) -> SqlMode {
        SqlMode(self.0 & !other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// STRICT_TRANS_TABLES or STRICT_ALL_TABLES: "strict mode" in MySQL's manual.
    pub fn is_strict(self) -> bool {
        self.intersects(SqlMode(
            Self::STRICT_TRANS_TABLES.0 | Self::STRICT_ALL_TABLES.0,
        ))
    }

    /// Adds the members of ANSI and TRADITIONAL when those bits are set (the combination
    /// bits themselves stay set, as in MySQL).
    pub const fn expand(self) -> SqlMode {
        let mut bits = self.0;
        if bits & Self::ANSI.0 != 0 {
            bits |= Self::ANSI_MEMBERS;
        }
        if bits & Self::TRADITIONAL.0 != 0 {
            bits |= Self::TRADITIONAL_MEMBERS;
        }
        SqlMode(bits)
    }

    /// Parses a name list (see the module doc), expands combination modes and rejects
    /// removed modes. `Err` carries the MySQL error to send.
    pub fn parse(text: &str) -> Result<SqlMode, MyError> {
        Self::parse_names(text).and_then(Self::validate)
    }

    /// A numeric value assigned to `sql_mode`, validated and expanded.
    pub fn from_number(number: i128) -> Result<SqlMode, MyError> {
        if number < 0 || number > Self::NAMED_BITS as i128 {
            return Err(MyError::wrong_value_for_var(
                "sql_mode",
                &number.to_string(),
            ));
        }
        Self::validate(SqlMode(number as u64))
    }

    /// Like [`SqlMode::parse`] / [`SqlMode::from_number`] but, as MySQL does under
    /// `pseudo_replica_mode`, drops removed modes with a warning instead of failing.
    pub fn strip_removed(mode: SqlMode, diag: &mut Diagnostics) -> SqlMode {
        let removed = mode.0 & Self::REMOVED_BITS;
        if removed != 0 {
            // MySQL raises ER_WARN_REMOVED_SQL_MODE here; its number is not in Quire's table
            // yet, so the warning reuses ER_UNSUPPORTED_SQL_MODE's.
            diag.warn(
                ER_UNSUPPORTED_SQL_MODE,
                format!("sql_mode=0x{removed:08x} has been removed and will be ignored"),
            );
        }
        SqlMode(mode.0 & !Self::REMOVED_BITS).expand()
    }

    /// Name list → bits, without validation or expansion (removed-mode placeholder names
    /// are accepted here; [`SqlMode::parse`] then rejects their bits).
    pub fn parse_names(text: &str) -> Result<SqlMode, MyError> {
        let mut bits = 0u64;
        for element in text.trim_end_matches(' ').split(',') {
            if element.is_empty() {
                continue;
            }
            let Some(bit) = NAMES.iter().position(|n| n.eq_ignore_ascii_case(element)) else {
                return Err(MyError::wrong_value_for_var("sql_mode", element));
            };
            bits |= 1u64 << bit;
        }
        Ok(SqlMode(bits))
    }

    fn validate(mode: SqlMode) -> Result<SqlMode, MyError> {
        let removed = mode.0 & Self::REMOVED_BITS;
        if removed != 0 {
            return Err(MyError::new(
                ER_UNSUPPORTED_SQL_MODE,
                format!("sql_mode=0x{removed:08x} is not supported."),
            ));
        }
        Ok(mode.expand())
    }

    /// The names of the set bits, in bit order.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        NAMES
            .iter()
            .enumerate()
            .filter(move |(bit, _)| self.0 & (1u64 << bit) != 0)
            .map(|(_, name)| *name)
    }
}

impl fmt::Display for SqlMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, name) in self.names().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

impl BitOr for SqlMode {
    type Output = SqlMode;
    fn bitor(self, rhs: SqlMode) -> SqlMode {
        SqlMode(self.0 | rhs.0)
    }
}

impl BitOrAssign for SqlMode {
    fn bitor_assign(&mut self, rhs: SqlMode) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for SqlMode {
    type Output = SqlMode;
    fn bitand(self, rhs: SqlMode) -> SqlMode {
        SqlMode(self.0 & rhs.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_matches_mysql_80() {
        assert_eq!(SqlMode::DEFAULT.bits(), 1_168_113_696);
        assert_eq!(
            SqlMode::DEFAULT.to_string(),
            "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,\
             ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"
        );
        assert_eq!(SqlMode::from_number(1_168_113_696), Ok(SqlMode::DEFAULT));
    }

    #[test]
    fn bit_values_are_mysqls() {
        for (name, mode) in [
            ("REAL_AS_FLOAT", SqlMode::REAL_AS_FLOAT),
            ("PIPES_AS_CONCAT", SqlMode::PIPES_AS_CONCAT),
            ("ANSI_QUOTES", SqlMode::ANSI_QUOTES),
            ("IGNORE_SPACE", SqlMode::IGNORE_SPACE),
            ("NOT_USED", SqlMode::NOT_USED),
            ("ONLY_FULL_GROUP_BY", SqlMode::ONLY_FULL_GROUP_BY),
            ("NO_UNSIGNED_SUBTRACTION", SqlMode::NO_UNSIGNED_SUBTRACTION),
            ("NO_DIR_IN_CREATE", SqlMode::NO_DIR_IN_CREATE),
            ("ANSI", SqlMode::ANSI),
            ("NO_AUTO_VALUE_ON_ZERO", SqlMode::NO_AUTO_VALUE_ON_ZERO),
            ("NO_BACKSLASH_ESCAPES", SqlMode::NO_BACKSLASH_ESCAPES),
            ("STRICT_TRANS_TABLES", SqlMode::STRICT_TRANS_TABLES),
            ("STRICT_ALL_TABLES", SqlMode::STRICT_ALL_TABLES),
            ("NO_ZERO_IN_DATE", SqlMode::NO_ZERO_IN_DATE),
            ("NO_ZERO_DATE", SqlMode::NO_ZERO_DATE),
            ("ALLOW_INVALID_DATES", SqlMode::ALLOW_INVALID_DATES),
            (
                "ERROR_FOR_DIVISION_BY_ZERO",
                SqlMode::ERROR_FOR_DIVISION_BY_ZERO,
            ),
            ("TRADITIONAL", SqlMode::TRADITIONAL),
            ("HIGH_NOT_PRECEDENCE", SqlMode::HIGH_NOT_PRECEDENCE),
            ("NO_ENGINE_SUBSTITUTION", SqlMode::NO_ENGINE_SUBSTITUTION),
            ("PAD_CHAR_TO_FULL_LENGTH", SqlMode::PAD_CHAR_TO_FULL_LENGTH),
            (
                "TIME_TRUNCATE_FRACTIONAL",
                SqlMode::TIME_TRUNCATE_FRACTIONAL,
            ),
        ] {
            assert_eq!(SqlMode::parse_names(name), Ok(mode), "{name}");
            if mode != SqlMode::ANSI && mode != SqlMode::TRADITIONAL {
                assert_eq!(mode.to_string(), name);
            }
        }
        assert_eq!(SqlMode::ANSI.bits(), 0x40000);
        assert_eq!(SqlMode::TIME_TRUNCATE_FRACTIONAL.bits(), 0x1_0000_0000);
    }

    #[test]
    fn parse_is_case_insensitive_and_canonical() {
        let m = SqlMode::parse("no_zero_date,ansi_quotes,Strict_Trans_Tables").unwrap();
        assert_eq!(
            m.to_string(),
            "ANSI_QUOTES,STRICT_TRANS_TABLES,NO_ZERO_DATE"
        );
        // round trip
        assert_eq!(SqlMode::parse(&m.to_string()), Ok(m));
        assert_eq!(SqlMode::parse(""), Ok(SqlMode::empty()));
        assert_eq!(SqlMode::parse("").unwrap().to_string(), "");
        // duplicates are fine
        assert_eq!(
            SqlMode::parse("ANSI_QUOTES,ANSI_QUOTES"),
            Ok(SqlMode::ANSI_QUOTES)
        );
    }

    #[test]
    fn aliases_expand_and_keep_their_bit() {
        assert_eq!(
            SqlMode::parse("ansi").unwrap().to_string(),
            "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI"
        );
        assert_eq!(
            SqlMode::parse("TRADITIONAL").unwrap().to_string(),
            "STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,\
             ERROR_FOR_DIVISION_BY_ZERO,TRADITIONAL,NO_ENGINE_SUBSTITUTION"
        );
        // numbers expand too
        assert_eq!(
            SqlMode::from_number(0x40000).unwrap(),
            SqlMode::parse("ANSI").unwrap()
        );
        // round trip of an expanded value is stable
        let t = SqlMode::parse("TRADITIONAL").unwrap();
        assert_eq!(SqlMode::parse(&t.to_string()), Ok(t));
    }

    #[test]
    fn whitespace_and_empty_elements_as_mysql() {
        assert_eq!(
            SqlMode::parse("ansi_quotes,,pipes_as_concat  ")
                .unwrap()
                .to_string(),
            "PIPES_AS_CONCAT,ANSI_QUOTES"
        );
        let e = SqlMode::parse("ansi_quotes, strict_all_tables").unwrap_err();
        assert_eq!(e.code, 1231);
        assert_eq!(
            e.message,
            "Variable 'sql_mode' can't be set to the value of ' strict_all_tables'"
        );
        let e = SqlMode::parse(" ANSI").unwrap_err();
        assert_eq!(
            e.message,
            "Variable 'sql_mode' can't be set to the value of ' ANSI'"
        );
        let e = SqlMode::parse("ANSI_QUOTES  ,STRICT_ALL_TABLES").unwrap_err();
        assert_eq!(
            e.message,
            "Variable 'sql_mode' can't be set to the value of 'ANSI_QUOTES  '"
        );
    }

    #[test]
    fn unknown_and_removed_modes() {
        let e = SqlMode::parse("foo,ansi_quotes").unwrap_err();
        assert_eq!((e.code, e.state), (1231, "42000"));
        assert_eq!(
            e.message,
            "Variable 'sql_mode' can't be set to the value of 'foo'"
        );
        // 5.7's modes are gone in 8.0
        assert_eq!(
            SqlMode::parse("NO_AUTO_CREATE_USER").unwrap_err().code,
            1231
        );
        let e = SqlMode::parse("NOT_USED_9").unwrap_err();
        assert_eq!(e.code, ER_UNSUPPORTED_SQL_MODE);
        assert_eq!(e.message, "sql_mode=0x00000100 is not supported.");
        let e = SqlMode::from_number(0x1000_0000).unwrap_err();
        assert_eq!(e.message, "sql_mode=0x10000000 is not supported.");
        // a numeric string is a name, not a number
        assert_eq!(SqlMode::parse("1048576").unwrap_err().code, 1231);
    }

    #[test]
    fn numbers_out_of_range() {
        let e = SqlMode::from_number(-1).unwrap_err();
        assert_eq!(
            e.message,
            "Variable 'sql_mode' can't be set to the value of '-1'"
        );
        let e = SqlMode::from_number(8_589_934_592).unwrap_err();
        assert_eq!(
            e.message,
            "Variable 'sql_mode' can't be set to the value of '8589934592'"
        );
        assert_eq!(SqlMode::from_number(0), Ok(SqlMode::empty()));
        assert_eq!(
            SqlMode::from_number(0x1_0000_0000),
            Ok(SqlMode::TIME_TRUNCATE_FRACTIONAL)
        );
    }

    #[test]
    fn strip_removed_under_replica_mode() {
        let mut diag = Diagnostics::default();
        let m = SqlMode::parse_names("NOT_USED_29,STRICT_TRANS_TABLES").unwrap();
        let m = SqlMode::strip_removed(m, &mut diag);
        assert_eq!(m, SqlMode::STRICT_TRANS_TABLES);
        assert_eq!(diag.list.len(), 1);
    }

    #[test]
    fn helpers() {
        assert!(SqlMode::DEFAULT.is_strict());
        assert!(!SqlMode::ANSI_QUOTES.is_strict());
        assert!(SqlMode::DEFAULT.contains(SqlMode::NO_ZERO_DATE));
        assert!(!SqlMode::DEFAULT.contains(SqlMode::ANSI_QUOTES));
        let m = SqlMode::ANSI_QUOTES | SqlMode::PIPES_AS_CONCAT;
        assert_eq!(m & SqlMode::ANSI_QUOTES, SqlMode::ANSI_QUOTES);
        assert_eq!(m.difference(SqlMode::ANSI_QUOTES), SqlMode::PIPES_AS_CONCAT);
    }
}
