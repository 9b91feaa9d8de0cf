//! SQL types: column types as declared in `CREATE TABLE`, collations, and the metadata of a
//! result column as the wire protocol describes it.
//!
//! A [`SqlType`] is what a table column *is* (it validates and converts values on the way in,
//! formats them on the way out, and decides how they compare). A [`ColumnMeta`] is what a
//! client is *told* about a result column (MySQL's Column Definition packet). Expressions carry
//! a [`SqlType`] too, inferred at plan time, from which their `ColumnMeta` is derived.

use mysql_common::constants::{ColumnFlags, ColumnType};
use std::fmt;

/// A collation: the rules for comparing and ordering character data.
///
/// Quire stores all character data as utf8mb4 bytes. Collations differ in how they compare:
/// `_ci` collations fold case (and, like MySQL's `general_ci`, common accents) and, when
/// `PAD SPACE`, ignore trailing spaces; `_bin` and `binary` compare bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Collation {
    /// `binary`: the "collation" of BINARY/VARBINARY/BLOB; byte comparison, NO PAD.
    Binary,
    /// `utf8mb4_general_ci`: Quire's default (as MariaDB's).
    Utf8mb4GeneralCi,
    /// `utf8mb4_bin`: code point order, PAD SPACE.
    Utf8mb4Bin,
    /// `utf8mb4_0900_ai_ci`: MySQL 8's default; case- and accent-insensitive, NO PAD.
    Utf8mb4_0900AiCi,
    /// `utf8mb4_0900_bin`.
    Utf8mb4_0900Bin,
    /// `utf8mb4_unicode_ci`: MySQL's UCA 4.0.0 collation (PAD SPACE), exact.
    Utf8mb4UnicodeCi,
    /// `utf8mb3_general_ci` (a.k.a. `utf8_general_ci`).
    Utf8mb3GeneralCi,
    /// `utf8mb3_bin`.
    Utf8mb3Bin,
    /// `latin1_swedish_ci` (data is still held as utf8 text; comparison as general_ci).
    Latin1SwedishCi,
    /// `latin1_bin`.
    Latin1Bin,
    /// `ascii_general_ci`.
    AsciiGeneralCi,
}

impl Collation {
    pub const DEFAULT: Collation = Collation::Utf8mb4GeneralCi;

    pub const ALL: [Collation; 11] = [
        Collation::Binary,
        Collation::Utf8mb4GeneralCi,
        Collation::Utf8mb4Bin,
        Collation::Utf8mb4_0900AiCi,
        Collation::Utf8mb4_0900Bin,
        Collation::Utf8mb4UnicodeCi,
        Collation::Utf8mb3GeneralCi,
        Collation::Utf8mb3Bin,
        Collation::Latin1SwedishCi,
        Collation::Latin1Bin,
        Collation::AsciiGeneralCi,
    ];

    /// MySQL's collation id (sent in column definitions and the handshake).
    pub fn id(self) -> u16 {
        match self {
            Collation::Binary => 63,
            Collation::Utf8mb4GeneralCi => 45,
            Collation::Utf8mb4Bin => 46,
            Collation::Utf8mb4_0900AiCi => 255,
            Collation::Utf8mb4_0900Bin => 309,
            Collation::Utf8mb4UnicodeCi => 224,
            Collation::Utf8mb3GeneralCi => 33,
            Collation::Utf8mb3Bin => 83,
            Collation::Latin1SwedishCi => 8,
            Collation::Latin1Bin => 47,
            Collation::AsciiGeneralCi => 11,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Collation::Binary => "binary",
            Collation::Utf8mb4GeneralCi => "utf8mb4_general_ci",
            Collation::Utf8mb4Bin => "utf8mb4_bin",
            Collation::Utf8mb4_0900AiCi => "utf8mb4_0900_ai_ci",
            Collation::Utf8mb4_0900Bin => "utf8mb4_0900_bin",
            Collation::Utf8mb4UnicodeCi => "utf8mb4_unicode_ci",
            Collation::Utf8mb3GeneralCi => "utf8mb3_general_ci",
            Collation::Utf8mb3Bin => "utf8mb3_bin",
            Collation::Latin1SwedishCi => "latin1_swedish_ci",
            Collation::Latin1Bin => "latin1_bin",
            Collation::AsciiGeneralCi => "ascii_general_ci",
        }
    }

    pub fn charset(self) -> Charset {
        match self {
            Collation::Binary => Charset::Binary,
            Collation::Utf8mb4GeneralCi
            | Collation::Utf8mb4Bin
            | Collation::Utf8mb4_0900AiCi
            | Collation::Utf8mb4_0900Bin
            | Collation::Utf8mb4UnicodeCi => Charset::Utf8mb4,
            Collation::Utf8mb3GeneralCi | Collation::Utf8mb3Bin => Charset::Utf8mb3,
            Collation::Latin1SwedishCi | Collation::Latin1Bin => Charset::Latin1,
            Collation::AsciiGeneralCi => Charset::Ascii,
        }
    }

    /// Case-insensitive comparison?
    pub fn is_ci(self) -> bool {
        matches!(
            self,
            Collation::Utf8mb4GeneralCi
                | Collation::Utf8mb4_0900AiCi
                | Collation::Utf8mb4UnicodeCi
                | Collation::Utf8mb3GeneralCi
                | Collation::Latin1SwedishCi
                | Collation::AsciiGeneralCi
        )
    }

    /// PAD SPACE collations ignore trailing spaces when comparing.
    pub fn pad_space(self) -> bool {
        !matches!(
            self,
            Collation::Binary | Collation::Utf8mb4_0900AiCi | Collation::Utf8mb4_0900Bin
        )
    }

    pub fn is_binary(self) -> bool {
        self == Collation::Binary
    }

    pub fn from_name(name: &str) -> Option<Collation> {
        let n = name.to_ascii_lowercase();
        let n = n.replace("utf8_", "utf8mb3_");
        Collation::ALL.into_iter().find(|c| c.name() == n)
    }

    pub fn from_id(id: u16) -> Option<Collation> {
        Collation::ALL.into_iter().find(|c| c.id() == id)
    }
}

impl fmt::Display for Collation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A character set. Quire holds all text as utf8mb4; the charset is remembered for
/// `SHOW CREATE TABLE`, metadata and the maximum bytes per character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Charset {
    Binary,
    Utf8mb4,
    Utf8mb3,
    Latin1,
    Ascii,
}

impl Charset {
    pub const ALL: [Charset; 5] = [
        Charset::Binary,
        Charset::Utf8mb4,
        Charset::Utf8mb3,
        Charset::Latin1,
        Charset::Ascii,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Charset::Binary => "binary",
            Charset::Utf8mb4 => "utf8mb4",
            Charset::Utf8mb3 => "utf8mb3",
            Charset::Latin1 => "latin1",
            Charset::Ascii => "ascii",
        }
    }

    pub fn from_name(name: &str) -> Option<Charset> {
        match name.to_ascii_lowercase().as_str() {
            "binary" => Some(Charset::Binary),
            "utf8mb4" => Some(Charset::Utf8mb4),
            "utf8" | "utf8mb3" => Some(Charset::Utf8mb3),
            "latin1" => Some(Charset::Latin1),
            "ascii" => Some(Charset::Ascii),
            _ => None,
        }
    }

    pub fn default_collation(self) -> Collation {
        match self {
            Charset::Binary => Collation::Binary,
            Charset::Utf8mb4 => Collation::Utf8mb4GeneralCi,
            Charset::Utf8mb3 => Collation::Utf8mb3GeneralCi,
            Charset::Latin1 => Collation::Latin1SwedishCi,
            Charset::Ascii => Collation::AsciiGeneralCi,
        }
    }

    /// Maximum bytes per character (for column lengths in metadata).
    pub fn max_len(self) -> u32 {
        match self {
            Charset::Binary | Charset::Latin1 | Charset::Ascii => 1,
            Charset::Utf8mb3 => 3,
            Charset::Utf8mb4 => 4,
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Charset::Binary => "Binary pseudo charset",
            Charset::Utf8mb4 => "UTF-8 Unicode",
            Charset::Utf8mb3 => "UTF-8 Unicode",
            Charset::Latin1 => "cp1252 West European",
            Charset::Ascii => "US ASCII",
        }
    }
}

/// Integer widths of the INT family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntWidth {
    Tiny,   // 1 byte
    Small,  // 2 bytes
    Medium, // 3 bytes
    Int,    // 4 bytes
    Big,    // 8 bytes
}

impl IntWidth {
    pub fn bytes(self) -> u32 {
        match self {
            IntWidth::Tiny => 1,
            IntWidth::Small => 2,
            IntWidth::Medium => 3,
            IntWidth::Int => 4,
            IntWidth::Big => 8,
        }
    }

    /// Inclusive range of values, signed or unsigned, as i128.
    pub fn range(self, unsigned: bool) -> (i128, i128) {
        let bits = self.bytes() * 8;
        if unsigned {
            (0, (1i128 << bits) - 1)
        } else {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            IntWidth::Tiny => "tinyint",
            IntWidth::Small => "smallint",
            IntWidth::Medium => "mediumint",
            IntWidth::Int => "int",
            IntWidth::Big => "bigint",
        }
    }

    /// MySQL's default display width (for `SHOW CREATE TABLE` in 5.7 style and metadata length).
    pub fn display_width(self, unsigned: bool) -> u32 {
        match (self, unsigned) {
            (IntWidth::Tiny, false) => 4,
            (IntWidth::Tiny, true) => 3,
            (IntWidth::Small, false) => 6,
            (IntWidth::Small, true) => 5,
            (IntWidth::Medium, false) => 9,
            (IntWidth::Medium, true) => 8,
            (IntWidth::Int, false) => 11,
            (IntWidth::Int, true) => 10,
            (IntWidth::Big, _) => 20,
        }
    }
}

/// Sizes of the BLOB/TEXT family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlobSize {
    Tiny,   // 255
    Normal, // 65,535
    Medium, // 16 MiB - 1
    Long,   // 4 GiB - 1
}

impl BlobSize {
    pub fn max_bytes(self) -> u64 {
        match self {
            BlobSize::Tiny => 255,
            BlobSize::Normal => 65_535,
            BlobSize::Medium => 16_777_215,
            BlobSize::Long => 4_294_967_295,
        }
    }

    pub fn prefix(self) -> &'static str {
        match self {
            BlobSize::Tiny => "tiny",
            BlobSize::Normal => "",
            BlobSize::Medium => "medium",
            BlobSize::Long => "long",
        }
    }
}

/// The type of a column or expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SqlType {
    /// The type of the NULL literal.
    Null,
    Int {
        width: IntWidth,
        unsigned: bool,
        zerofill: bool,
        display: Option<u32>,
    },
    /// BOOL/BOOLEAN: TINYINT(1).
    Bool,
    /// DECIMAL(precision, scale), exact. precision ≤ 65, scale ≤ 30.
    Decimal {
        precision: u8,
        scale: u8,
        unsigned: bool,
    },
    Float {
        unsigned: bool,
    },
    Double {
        unsigned: bool,
    },
    /// CHAR(n): n characters, right-padded with spaces (trailing spaces stripped on read,
    /// as MySQL does without PAD_CHAR_TO_FULL_LENGTH).
    Char {
        len: u32,
        collation: Collation,
    },
    VarChar {
        len: u32,
        collation: Collation,
    },
    Text {
        size: BlobSize,
        collation: Collation,
    },
    Binary {
        len: u32,
    },
    VarBinary {
        len: u32,
    },
    Blob {
        size: BlobSize,
    },
    Date,
    DateTime {
        fsp: u8,
    },
    Timestamp {
        fsp: u8,
    },
    Time {
        fsp: u8,
    },
    Year,
    /// ENUM('a','b',…): stored as the string value.
    Enum {
        values: Vec<String>,
        collation: Collation,
    },
    /// SET('a','b',…): stored as the comma-joined string value.
    Set {
        values: Vec<String>,
        collation: Collation,
    },
    /// JSON: stored as text.
    Json,
    /// BIT(n): stored as an unsigned integer.
    Bit {
        len: u8,
    },
}

impl SqlType {
    pub const BIGINT: SqlType = SqlType::Int {
        width: IntWidth::Big,
        unsigned: false,
        zerofill: false,
        display: None,
    };
    pub const BIGINT_UNSIGNED: SqlType = SqlType::Int {
        width: IntWidth::Big,
        unsigned: true,
        zerofill: false,
        display: None,
    };
    pub const INT: SqlType = SqlType::Int {
        width: IntWidth::Int,
        unsigned: false,
        zerofill: false,
        display: None,
    };
    pub const DOUBLE: SqlType = SqlType::Double { unsigned: false };

    /// A VARCHAR of `len` characters in the default collation: the type of string
    /// expressions.
    pub fn varchar(len: u32) -> SqlType {
        SqlType::VarChar {
            len,
            collation: Collation::DEFAULT,
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(
            self,
            SqlType::Int { .. } | SqlType::Bool | SqlType::Year | SqlType::Bit { .. }
        )
    }

    pub fn is_unsigned(&self) -> bool {
        match self {
            SqlType::Int { unsigned, .. }
            | SqlType::Decimal { unsigned, .. }
            | SqlType::Float { unsigned }
            | SqlType::Double { unsigned } => *unsigned,
            SqlType::Year | SqlType::Bit { .. } => true,
            _ => false,
        }
    }

    pub fn is_numeric(&self) -> bool {
        matches!(
            self,
            SqlType::Int { .. }
                | SqlType::Bool
                | SqlType::Decimal { .. }
                | SqlType::Float { .. }
                | SqlType::Double { .. }
                | SqlType::Year
                | SqlType::Bit { .. }
        )
    }

    pub fn is_string(&self) -> bool {
        matches!(
            self,
            SqlType::Char { .. }
                | SqlType::VarChar { .. }
                | SqlType::Text { .. }
                | SqlType::Binary { .. }
                | SqlType::VarBinary { .. }
                | SqlType::Blob { .. }
                | SqlType::Enum { .. }
                | SqlType::Set { .. }
                | SqlType::Json
        )
    }

    pub fn is_temporal(&self) -> bool {
        matches!(
            self,
            SqlType::Date
                | SqlType::DateTime { .. }
                | SqlType::Timestamp { .. }
                | SqlType::Time { .. }
        )
    }

    pub fn is_blob_like(&self) -> bool {
        matches!(
            self,
            SqlType::Text { .. } | SqlType::Blob { .. } | SqlType::Json
        )
    }

    /// The collation used to compare values of this type (`Binary` for non-strings).
    pub fn collation(&self) -> Collation {
        match self {
            SqlType::Char { collation, .. }
            | SqlType::VarChar { collation, .. }
            | SqlType::Text { collation, .. }
            | SqlType::Enum { collation, .. }
            | SqlType::Set { collation, .. } => *collation,
            SqlType::Json => Collation::Utf8mb4Bin,
            _ => Collation::Binary,
        }
    }

    /// Fractional seconds precision of temporal types; decimals of DECIMAL.
    pub fn decimals(&self) -> u8 {
        match self {
            SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } | SqlType::Time { fsp } => *fsp,
            SqlType::Decimal { scale, .. } => *scale,
            SqlType::Float { .. } | SqlType::Double { .. } => 31,
            _ => 0,
        }
    }

    /// Maximum length in characters (strings) or display width (numbers).
    pub fn char_len(&self) -> u32 {
        match self {
            SqlType::Null => 0,
            SqlType::Int {
                width,
                unsigned,
                display,
                ..
            } => display.unwrap_or_else(|| width.display_width(*unsigned)),
            SqlType::Bool => 1,
            SqlType::Decimal {
                precision,
                scale,
                unsigned,
            } => *precision as u32 + (*scale > 0) as u32 + (!*unsigned) as u32,
            SqlType::Float { .. } => 12,
            SqlType::Double { .. } => 22,
            SqlType::Char { len, .. }
            | SqlType::VarChar { len, .. }
            | SqlType::Binary { len }
            | SqlType::VarBinary { len } => *len,
            SqlType::Text { size, .. } | SqlType::Blob { size } => size.max_bytes() as u32,
            SqlType::Date => 10,
            SqlType::DateTime { fsp } | SqlType::Timestamp { fsp } => {
                19 + if *fsp > 0 { *fsp as u32 + 1 } else { 0 }
            }
            SqlType::Time { fsp } => 10 + if *fsp > 0 { *fsp as u32 + 1 } else { 0 },
            SqlType::Year => 4,
            SqlType::Enum { values, .. } => {
                values.iter().map(|v| v.chars().count()).max().unwrap_or(0) as u32
            }
            SqlType::Set { values, .. } => values
                .iter()
                .map(|v| v.chars().count() + 1)
                .sum::<usize>()
                .saturating_sub(1) as u32,
            SqlType::Json => 4_294_967_295,
            SqlType::Bit { len } => *len as u32,
        }
    }

    /// The protocol type code of this type in result sets.
    pub fn column_type(&self) -> ColumnType {
        use ColumnType::*;
        match self {
            SqlType::Null => MYSQL_TYPE_NULL,
            SqlType::Int { width, .. } => match width {
                IntWidth::Tiny => MYSQL_TYPE_TINY,
                IntWidth::Small => MYSQL_TYPE_SHORT,
                IntWidth::Medium => MYSQL_TYPE_INT24,
                IntWidth::Int => MYSQL_TYPE_LONG,
                IntWidth::Big => MYSQL_TYPE_LONGLONG,
            },
            SqlType::Bool => MYSQL_TYPE_TINY,
            SqlType::Decimal { .. } => MYSQL_TYPE_NEWDECIMAL,
            SqlType::Float { .. } => MYSQL_TYPE_FLOAT,
            SqlType::Double { .. } => MYSQL_TYPE_DOUBLE,
            SqlType::Char { .. } | SqlType::Binary { .. } => MYSQL_TYPE_STRING,
            SqlType::Enum { .. } | SqlType::Set { .. } => MYSQL_TYPE_STRING,
            SqlType::VarChar { .. } | SqlType::VarBinary { .. } => MYSQL_TYPE_VAR_STRING,
            SqlType::Text { .. } | SqlType::Blob { .. } => MYSQL_TYPE_BLOB,
            SqlType::Json => MYSQL_TYPE_JSON,
            SqlType::Date => MYSQL_TYPE_DATE,
            SqlType::DateTime { .. } => MYSQL_TYPE_DATETIME,
            SqlType::Timestamp { .. } => MYSQL_TYPE_TIMESTAMP,
            SqlType::Time { .. } => MYSQL_TYPE_TIME,
            SqlType::Year => MYSQL_TYPE_YEAR,
            SqlType::Bit { .. } => MYSQL_TYPE_BIT,
        }
    }

    /// The type as `SHOW CREATE TABLE` / `DESCRIBE` print it, e.g. `int unsigned`,
    /// `varchar(20)`, `decimal(10,2)`, `datetime(6)`.
    pub fn sql_name(&self) -> String {
        match self {
            SqlType::Null => "null".into(),
            SqlType::Int {
                width,
                unsigned,
                zerofill,
                display,
            } => {
                let mut s = width.name().to_string();
                if let Some(d) = display {
                    s.push_str(&format!("({d})"));
                }
                if *unsigned {
                    s.push_str(" unsigned");
                }
                if *zerofill {
                    s.push_str(" zerofill");
                }
                s
            }
            SqlType::Bool => "tinyint(1)".into(),
            SqlType::Decimal {
                precision,
                scale,
                unsigned,
            } => {
                format!(
                    "decimal({precision},{scale}){}",
                    if *unsigned { " unsigned" } else { "" }
                )
            }
            SqlType::Float { unsigned } => {
                format!("float{}", if *unsigned { " unsigned" } else { "" })
            }
            SqlType::Double { unsigned } => {
                format!("double{}", if *unsigned { " unsigned" } else { "" })
            }
            SqlType::Char { len, .. } => format!("char({len})"),
            SqlType::VarChar { len, .. } => format!("varchar({len})"),
            SqlType::Text { size, .. } => format!("{}text", size.prefix()),
            SqlType::Binary { len } => format!("binary({len})"),
            SqlType::VarBinary { len } => format!("varbinary({len})"),
            SqlType::Blob { size } => format!("{}blob", size.prefix()),
            SqlType::Date => "date".into(),
            SqlType::DateTime { fsp } => with_fsp("datetime", *fsp),
            SqlType::Timestamp { fsp } => with_fsp("timestamp", *fsp),
            SqlType::Time { fsp } => with_fsp("time", *fsp),
            SqlType::Year => "year".into(),
            SqlType::Enum { values, .. } => format!("enum({})", quote_list(values)),
            SqlType::Set { values, .. } => format!("set({})", quote_list(values)),
            SqlType::Json => "json".into(),
            SqlType::Bit { len } => format!("bit({len})"),
        }
    }
}

fn with_fsp(name: &str, fsp: u8) -> String {
    if fsp > 0 {
        format!("{name}({fsp})")
    } else {
        name.to_string()
    }
}

fn quote_list(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("'{}'", v.replace('\'', "''")))
        .collect::<Vec<_>>()
        .join(",")
}

/// What the client is told about one result column (MySQL's Column Definition 41).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnMeta {
    pub schema: String,
    /// Table alias as written in the query.
    pub table: String,
    pub org_table: String,
    /// Column alias (or expression text).
    pub name: String,
    pub org_name: String,
    /// Collation id of the column's character set (63 = binary for non-strings).
    pub charset: u16,
    /// Maximum length in bytes of a value as the client will see it.
    pub length: u32,
    pub column_type: ColumnType,
    pub flags: ColumnFlags,
    pub decimals: u8,
}

impl ColumnMeta {
    /// Metadata for a value of type `ty` named `name`, not from any table.
    pub fn expr(name: impl Into<String>, ty: &SqlType, nullable: bool) -> ColumnMeta {
        let mut m = ColumnMeta::for_type(ty, nullable);
        m.name = name.into();
        m
    }

    /// Metadata derived from a type (names left empty).
    pub fn for_type(ty: &SqlType, nullable: bool) -> ColumnMeta {
        let collation = ty.collation();
        let (charset, length) = if ty.is_string() {
            let mult = collation.charset().max_len();
            let len = ty.char_len() as u64 * mult as u64;
            (collation.id(), len.min(u32::MAX as u64) as u32)
        } else {
            (63, ty.char_len())
        };
        let mut flags = ColumnFlags::empty();
        if !nullable {
            flags |= ColumnFlags::NOT_NULL_FLAG;
        }
        if ty.is_unsigned() {
            flags |= ColumnFlags::UNSIGNED_FLAG;
        }
        if ty.is_numeric() {
            flags |= ColumnFlags::NUM_FLAG;
        }
        if matches!(ty, SqlType::Int { zerofill: true, .. }) {
            flags |= ColumnFlags::ZEROFILL_FLAG;
        }
        if ty.is_blob_like() {
            flags |= ColumnFlags::BLOB_FLAG;
        }
        if (!ty.is_string() || collation.is_binary()) && !matches!(ty, SqlType::Null) {
            flags |= ColumnFlags::BINARY_FLAG;
        }
        if matches!(ty, SqlType::Enum { .. }) {
            flags |= ColumnFlags::ENUM_FLAG;
        }
        if matches!(ty, SqlType::Set { .. }) {
            flags |= ColumnFlags::SET_FLAG;
        }
        if matches!(ty, SqlType::Timestamp { .. }) {
            flags |= ColumnFlags::TIMESTAMP_FLAG;
        }
        let decimals = match ty {
            SqlType::Int { .. } | SqlType::Bool | SqlType::Year | SqlType::Bit { .. } => 0,
            t if t.is_string() => 0,
            SqlType::Date => 0,
            SqlType::Null => 0,
            t => t.decimals(),
        };
        ColumnMeta {
            schema: String::new(),
            table: String::new(),
            org_table: String::new(),
            name: String::new(),
            org_name: String::new(),
            charset,
            length,
            column_type: ty.column_type(),
            flags,
            decimals,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collation_lookup() {
        assert_eq!(
            Collation::from_name("utf8mb4_general_ci"),
            Some(Collation::Utf8mb4GeneralCi)
        );
        assert_eq!(
            Collation::from_name("UTF8_GENERAL_CI"),
            Some(Collation::Utf8mb3GeneralCi)
        );
        assert_eq!(Collation::from_id(255), Some(Collation::Utf8mb4_0900AiCi));
        assert!(Collation::Utf8mb4GeneralCi.is_ci());
        assert!(!Collation::Utf8mb4Bin.is_ci());
    }

    #[test]
    fn type_names() {
        let t = SqlType::Int {
            width: IntWidth::Int,
            unsigned: true,
            zerofill: false,
            display: None,
        };
        assert_eq!(t.sql_name(), "int unsigned");
        assert_eq!(
            SqlType::Decimal {
                precision: 10,
                scale: 2,
                unsigned: false
            }
            .sql_name(),
            "decimal(10,2)"
        );
        assert_eq!(SqlType::DateTime { fsp: 6 }.sql_name(), "datetime(6)");
        assert_eq!(IntWidth::Tiny.range(false), (-128, 127));
        assert_eq!(IntWidth::Big.range(true), (0, u64::MAX as i128));
    }

    #[test]
    fn meta_flags() {
        let m = ColumnMeta::for_type(&SqlType::varchar(10), false);
        assert_eq!(m.charset, 45);
        assert_eq!(m.length, 40);
        assert!(m.flags.contains(ColumnFlags::NOT_NULL_FLAG));
        assert!(!m.flags.contains(ColumnFlags::BINARY_FLAG));
        let m = ColumnMeta::for_type(&SqlType::BIGINT_UNSIGNED, true);
        assert!(
            m.flags
                .contains(ColumnFlags::UNSIGNED_FLAG | ColumnFlags::BINARY_FLAG)
        );
    }
}
