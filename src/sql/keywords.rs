//! MySQL 8.0's keyword table: which words the lexer treats as keywords, and how the
//! statement digest prints them.
//!
//! # Where the list comes from
//!
//! MySQL decides keyword-ness in its lexer from one array, `symbols[]` in `sql/lex.h`. The
//! names below are that array for MySQL 8.0.32 (as mirrored in the `polardb/polardbx-engine`
//! tree, minus two vendor additions), cross-checked against the "Keywords and Reserved Words in
//! MySQL 8.0" page of the manual. The array has four groups, and we keep their distinctions:
//!
//! - ordinary keywords (`SG_KEYWORDS`) and the five hintable ones (`SELECT`, `INSERT`,
//!   `REPLACE`, `UPDATE`, `DELETE`): keywords wherever they appear, reserved or not;
//! - *function* keywords (`SG_FUNCTIONS`: `COUNT`, `SUM`, `CAST`, `NOW`, …): keywords only
//!   when `(` follows immediately, otherwise identifiers (`SELECT count FROM t` names a
//!   column; `COUNT (*)` with a space is not a keyword — MySQL rejects it without
//!   `IGNORE_SPACE`);
//! - optimizer-hint keywords (`SG_HINTS`), recognised only inside `/*+ … */`.
//!
//! Words added to the 8.0 series after 8.0.32 are not in the list; they lex as identifiers,
//! which only changes how the digest prints them (back-quoted instead of upper case).
//!
//! # How the digest prints a keyword
//!
//! The digest stores token *numbers*, not spellings, and prints each number with the name that
//! `gen_lex_token` registered for it: it walks `symbols[]` in order and the *last* name with a
//! given token wins. So synonyms print as the spelling that comes last in `lex.h`:
//! `INT` → `INTEGER`, `CHAR` → `CHARACTER`, `DATABASE` → `SCHEMA`, `DESCRIBE` → `EXPLAIN`,
//! `DISTINCT` → `DISTINCTROW`, `COLUMNS` → `FIELDS`, `DAY` → `SQL_TSI_DAY`,
//! `CURRENT_TIMESTAMP` → `NOW`, `<>` → `!=`. MySQL's own test results show several of these
//! (`CREATE SCHEMA`, `INTEGER`, `CHARACTER (?)`, `EXPLAIN`, `FIELDS`, `DISTINCTROW`); the rest
//! follow from the same rule. [`PRINTED_AS`] lists them.
//!
//! # Lookup
//!
//! Every word of every statement is looked up, so the table is an open-addressing hash table
//! built once on first use: the key of a word is its length and its first and last eight
//! upper-cased bytes (which for words of up to 16 bytes is the whole word), hashed with one
//! multiplication; slots are probed linearly. A lookup reads the word once (at most
//! [`KEYWORD_LEN_MAX`] bytes) and compares at most a few keys; it never allocates.

use std::sync::OnceLock;

/// Longest keyword (`ASSIGN_GTIDS_TO_ANONYMOUS_TRANSACTIONS`, 38 bytes); longer words are
/// never keywords.
pub const KEYWORD_LEN_MAX: usize = 40;

/// Keywords the lexer, the normaliser or the digest treat specially. Every other keyword is
/// [`Kw::Other`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kw {
    Other,
    // statement verbs
    Select,
    Insert,
    Replace,
    Update,
    Delete,
    With,
    Table,
    Values,
    Begin,
    Start,
    Commit,
    Rollback,
    Savepoint,
    Release,
    Set,
    Show,
    Use,
    Create,
    Drop,
    Alter,
    Truncate,
    Rename,
    Describe,
    Desc,
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
    Stop,
    Binlog,
    Install,
    Uninstall,
    Shutdown,
    Restart,
    Clone,
    Import,
    Signal,
    Resignal,
    Get,
    // objects and modifiers after CREATE / DROP / ALTER / SET
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
    Transaction,
    Names,
    Password,
    To,
    Work,
    // clauses and operators the normaliser or digest looks at
    Order,
    Group,
    By,
    As,
    Collate,
    Char,
    Charset,
    Date,
    Time,
    Timestamp,
    Null,
    True,
    False,
    Interval,
    In,
    Share,
    Mode,
    For,
    Separator,
    Is,
    Not,
    End,
    On,
    Empty,
    Error,
    Outfile,
    Dumpfile,
    Terminated,
    Enclosed,
    Escaped,
    Starting,
    Asc,
    Limit,
    Having,
    Window,
    Union,
    Into,
    Recursive,
    Binary,
    // expression starters (MySQL's `m_start_expr` list in gen_lex_token.cc) and other
    // keywords after which an expression follows
    Every,
    At,
    Starts,
    Ends,
    Default,
    Return,
    If,
    Elseif,
    Case,
    When,
    While,
    Until,
    Or,
    Xor,
    And,
    Between,
    Like,
    Regexp,
    Div,
    Mod,
    Where,
    Then,
    Else,
    Offset,
    Escape,
    Against,
    Distinct,
    All,
    Any,
    Exists,
    From,
    Leading,
    Trailing,
    Both,
    Sounds,
    SelectOption,
    // data types (and temporal functions) whose `(n)` / `(m, d)` argument is a precision
    TypeWithLength,
}

impl Kw {
    /// MySQL's `m_start_expr`: a `+`/`-` after this token is unary, so `- 1` reduces to `?`.
    pub fn starts_expr(self) -> bool {
        matches!(
            self,
            Kw::Every
                | Kw::At
                | Kw::Starts
                | Kw::Ends
                | Kw::Default
                | Kw::Return
                | Kw::If
                | Kw::Elseif
                | Kw::Case
                | Kw::When
                | Kw::While
                | Kw::Until
                | Kw::Select
                | Kw::Or
                | Kw::Xor
                | Kw::And
                | Kw::Not
                | Kw::Between
                | Kw::Like
                | Kw::Regexp
                | Kw::Interval
                | Kw::Div
                | Kw::Mod
        )
    }

    /// An expression (a value) may follow this keyword: `NULL` after it is a literal, a
    /// string after it is a value and not an alias.
    pub fn expects_expr(self) -> bool {
        self.starts_expr()
            || matches!(
                self,
                Kw::Where
                    | Kw::Having
                    | Kw::On
                    | Kw::Then
                    | Kw::Else
                    | Kw::In
                    | Kw::By
                    | Kw::Limit
                    | Kw::Offset
                    | Kw::Values
                    | Kw::Set
                    | Kw::Binary
                    | Kw::Escape
                    | Kw::Against
                    | Kw::Distinct
                    | Kw::All
                    | Kw::Any
                    | Kw::Exists
                    | Kw::Do
                    | Kw::From
                    | Kw::For
                    | Kw::Leading
                    | Kw::Trailing
                    | Kw::Both
                    | Kw::Sounds
                    | Kw::SelectOption
                    | Kw::Is
            )
    }
}

/// One keyword spelling.
#[derive(Debug, PartialEq, Eq)]
pub struct Keyword {
    /// The spelling, upper case.
    pub name: &'static str,
    /// How the digest prints the token (the last spelling of the token in `lex.h`).
    pub printed: &'static str,
    pub kw: Kw,
    /// `SG_FUNCTIONS`: a keyword only when `(` follows immediately.
    pub function_only: bool,
}

/// Main-parser keywords of MySQL 8.0.32's `sql/lex.h` (`SG_KEYWORDS`, `SG_HINTABLE_KEYWORDS`,
/// `SG_FUNCTIONS`), in `lex.h` order. Operators (`<=`, `&&`, …) are handled by the lexer.
const KEYWORDS: &str = "\
ACCESSIBLE ACCOUNT ACTION ACTIVE ADD ADMIN AFTER AGAINST AGGREGATE ALL ALGORITHM ALTER ALWAYS \
ANALYZE AND ANY ARRAY AS ASC ASCII ASENSITIVE AT ATTRIBUTE AUTHENTICATION AUTO_INCREMENT \
AUTOEXTEND_SIZE AVG AVG_ROW_LENGTH BACKUP BEFORE BEGIN BETWEEN BIGINT BINARY BINLOG BIT BLOB \
BLOCK BOOL BOOLEAN BOTH BTREE BUCKETS BULK BY BYTE CACHE CALL CASCADE CASCADED CASE \
CATALOG_NAME CHAIN CHALLENGE_RESPONSE CHANGE CHANGED CHANNEL CHAR CHARACTER CHARSET CHECK \
CHECKSUM CIPHER CLASS_ORIGIN CLIENT CLONE CLOSE COALESCE CODE COLLATE COLLATION COLUMN \
COLUMN_FORMAT COLUMN_NAME COLUMNS COMMENT COMMIT COMMITTED COMPACT COMPLETION COMPONENT \
COMPRESSION COMPRESSED ENCRYPTION CONCURRENT CONDITION CONNECTION CONSISTENT CONSTRAINT \
CONSTRAINT_CATALOG CONSTRAINT_NAME CONSTRAINT_SCHEMA CONTAINS CONTEXT CONTINUE CONVERT CPU \
CREATE CROSS CUBE CUME_DIST CURRENT CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER \
CURSOR CURSOR_NAME DATA DATABASE DATABASES DATAFILE DATE DATETIME DAY DAY_HOUR \
DAY_MICROSECOND DAY_MINUTE DAY_SECOND DEALLOCATE DEC DECIMAL DECLARE DEFAULT DEFAULT_AUTH \
DEFINER DEFINITION DELAYED DELAY_KEY_WRITE DENSE_RANK DESC DESCRIBE DESCRIPTION \
DETERMINISTIC DIAGNOSTICS DIRECTORY DISABLE DISCARD DISK DISTINCT DISTINCTROW DIV DO DOUBLE \
DROP DUAL DUMPFILE DUPLICATE DYNAMIC EACH ELSE ELSEIF EMPTY ENABLE ENCLOSED END ENDS ENFORCED \
ENGINE ENGINE_ATTRIBUTE ENGINES ENUM ERROR ERRORS ESCAPE ESCAPED EVENT EVENTS EVERY EXCEPT \
EXCHANGE EXCLUDE EXECUTE EXISTS EXIT EXPANSION EXPORT EXPIRE EXPLAIN EXTENDED EXTENT_SIZE \
FACTOR FAILED_LOGIN_ATTEMPTS FALSE FAST FAULTS FETCH FIELDS FILE FILE_BLOCK_SIZE FILTER FINISH \
FIRST FIRST_VALUE FIXED FLOAT FLOAT4 FLOAT8 FLUSH FOLLOWS FOLLOWING FOR FORCE FOREIGN FORMAT \
FOUND FROM FULL FULLTEXT FUNCTION GENERAL GROUP_REPLICATION GEOMCOLLECTION GEOMETRY \
GEOMETRYCOLLECTION GET_FORMAT GET_MASTER_PUBLIC_KEY GET_SOURCE_PUBLIC_KEY GET GENERATE \
GENERATED GLOBAL GRANT GRANTS GROUP GROUPING GROUPS GTID_ONLY HANDLER HASH HAVING HELP \
HIGH_PRIORITY HISTOGRAM HISTORY HOST HOSTS HOUR HOUR_MICROSECOND HOUR_MINUTE HOUR_SECOND \
IDENTIFIED IF IGNORE IGNORE_SERVER_IDS IMPORT IN INACTIVE INDEX INDEXES INFILE INITIAL \
INITIAL_SIZE INITIATE INNER INOUT INSENSITIVE INSERT_METHOD INSTALL INSTANCE INT INT1 INT2 \
INT3 INT4 INT8 INTEGER INTERSECT INTERVAL INTO IO IO_AFTER_GTIDS IO_BEFORE_GTIDS IO_THREAD IPC \
IS ISOLATION ISSUER ITERATE INVISIBLE INVOKER JOIN JSON JSON_TABLE JSON_VALUE KEY KEYRING KEYS \
KEY_BLOCK_SIZE KILL LAG LANGUAGE LAST LAST_VALUE LATERAL LEAD LEADING LEAVE LEAVES LEFT LESS \
LEVEL LIKE LIMIT LINEAR LINES LINESTRING LIST LOAD LOCAL LOCALTIME LOCALTIMESTAMP LOCK LOCKED \
LOCKS LOGFILE LOGS LONG LONGBLOB LONGTEXT LOOP LOW_PRIORITY MASTER MASTER_AUTO_POSITION \
MASTER_BIND MASTER_CONNECT_RETRY MASTER_COMPRESSION_ALGORITHMS MASTER_DELAY \
MASTER_HEARTBEAT_PERIOD MASTER_HOST MASTER_LOG_FILE MASTER_LOG_POS MASTER_PASSWORD MASTER_PORT \
MASTER_PUBLIC_KEY_PATH MASTER_RETRY_COUNT MASTER_SSL MASTER_SSL_CA MASTER_SSL_CAPATH \
MASTER_SSL_CERT MASTER_SSL_CIPHER MASTER_SSL_CRL MASTER_SSL_CRLPATH MASTER_SSL_KEY \
MASTER_SSL_VERIFY_SERVER_CERT MASTER_TLS_CIPHERSUITES MASTER_TLS_VERSION MASTER_USER \
MASTER_ZSTD_COMPRESSION_LEVEL MATCH MAX_CONNECTIONS_PER_HOUR MAX_QUERIES_PER_HOUR MAX_ROWS \
MAX_SIZE MAX_UPDATES_PER_HOUR MAX_USER_CONNECTIONS MAXVALUE MEDIUM MEDIUMBLOB MEDIUMINT \
MEDIUMTEXT MEMBER MEMORY MERGE MESSAGE_TEXT MICROSECOND MIDDLEINT MIGRATE MINUTE \
MINUTE_MICROSECOND MINUTE_SECOND MIN_ROWS MOD MODE MODIFIES MODIFY MONTH MULTILINESTRING \
MULTIPOINT MULTIPOLYGON MUTEX MYSQL_ERRNO NAME NAMES NATIONAL NATURAL NDB NDBCLUSTER NCHAR \
NESTED NETWORK_NAMESPACE NEVER NEW NEXT NO NO_WAIT NOWAIT NODEGROUP NONE NOT \
NO_WRITE_TO_BINLOG NTH_VALUE NTILE NULL NULLS NUMBER NUMERIC NVARCHAR OF OFF OFFSET OJ OLD ON \
ONE ONLY OPEN OPTIMIZE OPTIMIZER_COSTS OPTIONS OPTION OPTIONAL OPTIONALLY OR ORGANIZATION \
OTHERS ORDER ORDINALITY OUT OUTER OUTFILE OVER OWNER PACK_KEYS PATH PARSER PAGE PARTIAL \
PARTITION PARTITIONING PARTITIONS PASSWORD PASSWORD_LOCK_TIME PERCENT_RANK PERSIST \
PERSIST_ONLY PHASE PLUGIN PLUGINS PLUGIN_DIR POINT POLYGON PORT PRECEDES PRECEDING PRECISION \
PREPARE PRESERVE PREV PRIMARY PRIVILEGES PRIVILEGE_CHECKS_USER PROCEDURE PROCESS PROCESSLIST \
PROFILE PROFILES PROXY PURGE QUARTER QUERY QUICK RANDOM RANK RANGE READ READ_ONLY READ_WRITE \
READS REAL REBUILD RECOVER RECURSIVE REDO_BUFFER_SIZE REDUNDANT REFERENCE REFERENCES REGEXP \
REGISTRATION RELAY RELAYLOG RELAY_LOG_FILE RELAY_LOG_POS RELAY_THREAD RELEASE RELOAD REMOVE \
RENAME ASSIGN_GTIDS_TO_ANONYMOUS_TRANSACTIONS REORGANIZE REPAIR REPEATABLE REPLICA REPLICAS \
REPLICATION REPLICATE_DO_DB REPLICATE_IGNORE_DB REPLICATE_DO_TABLE REPLICATE_IGNORE_TABLE \
REPLICATE_WILD_DO_TABLE REPLICATE_WILD_IGNORE_TABLE REPLICATE_REWRITE_DB REPEAT REQUIRE \
REQUIRE_ROW_FORMAT REQUIRE_TABLE_PRIMARY_KEY_CHECK RESET RESPECT RESIGNAL RESOURCE RESTART \
RESTORE RESTRICT RESUME RETAIN RETURNED_SQLSTATE RETURN RETURNING RETURNS REUSE REVERSE REVOKE \
RIGHT RLIKE ROLE ROLLBACK ROLLUP ROUTINE ROTATE ROW ROW_COUNT ROW_NUMBER ROWS ROW_FORMAT RTREE \
SAVEPOINT SCHEDULE SCHEMA SCHEMA_NAME SCHEMAS SECOND SECOND_MICROSECOND SECONDARY \
SECONDARY_ENGINE SECONDARY_ENGINE_ATTRIBUTE SECONDARY_LOAD SECONDARY_UNLOAD SECURITY SENSITIVE \
SEPARATOR SERIAL SERIALIZABLE SESSION SERVER SET SHARE SHOW SHUTDOWN SIGNAL SIGNED SIMPLE SKIP \
SLAVE SLOW SNAPSHOT SMALLINT SOCKET SOME SONAME SOUNDS SOURCE SOURCE_AUTO_POSITION SOURCE_BIND \
SOURCE_COMPRESSION_ALGORITHMS SOURCE_CONNECT_RETRY SOURCE_CONNECTION_AUTO_FAILOVER \
SOURCE_DELAY SOURCE_HEARTBEAT_PERIOD SOURCE_HOST SOURCE_LOG_FILE SOURCE_LOG_POS \
SOURCE_PASSWORD SOURCE_PORT SOURCE_PUBLIC_KEY_PATH SOURCE_RETRY_COUNT SOURCE_SSL_CAPATH \
SOURCE_SSL_CA SOURCE_SSL_CERT SOURCE_SSL_CIPHER SOURCE_SSL_CRL SOURCE_SSL_CRLPATH \
SOURCE_SSL_KEY SOURCE_SSL SOURCE_SSL_VERIFY_SERVER_CERT SOURCE_TLS_CIPHERSUITES \
SOURCE_TLS_VERSION SOURCE_USER SOURCE_ZSTD_COMPRESSION_LEVEL SPATIAL SPECIFIC SQL SQLEXCEPTION \
SQLSTATE SQLWARNING SQL_AFTER_GTIDS SQL_AFTER_MTS_GAPS SQL_BEFORE_GTIDS SQL_BIG_RESULT \
SQL_BUFFER_RESULT SQL_CALC_FOUND_ROWS SQL_NO_CACHE SQL_SMALL_RESULT SQL_THREAD SQL_TSI_SECOND \
SQL_TSI_MINUTE SQL_TSI_HOUR SQL_TSI_DAY SQL_TSI_WEEK SQL_TSI_MONTH SQL_TSI_QUARTER SQL_TSI_YEAR \
SRID SSL STACKED START STARTING STARTS STATS_AUTO_RECALC STATS_PERSISTENT STATS_SAMPLE_PAGES \
STATUS STOP STORAGE STORED STRAIGHT_JOIN STREAM STRING SUBCLASS_ORIGIN SUBJECT SUBPARTITION \
SUBPARTITIONS SUPER SUSPEND SWAPS SWITCHES SYSTEM TABLE TABLE_NAME TABLES TABLESPACE \
TABLE_CHECKSUM TEMPORARY TEMPTABLE TERMINATED TEXT THAN THEN THREAD_PRIORITY TIES TIME \
TIMESTAMP TIMESTAMPADD TIMESTAMPDIFF TINYBLOB TINYINT TINYTEXT TLS TO TRAILING TRANSACTION \
TRIGGER TRIGGERS TRUE TRUNCATE TYPE TYPES UNBOUNDED UNCOMMITTED UNDEFINED UNDO_BUFFER_SIZE \
UNDOFILE UNDO UNICODE UNION UNIQUE UNKNOWN UNLOCK UNINSTALL UNREGISTER UNSIGNED UNTIL UPGRADE \
URL USAGE USE USER USER_RESOURCES USE_FRM USING UTC_DATE UTC_TIME UTC_TIMESTAMP VALIDATION \
VALUE VALUES VARBINARY VARCHAR VARCHARACTER VARIABLES VARYING WAIT WARNINGS WEEK WEIGHT_STRING \
WHEN WHERE WHILE WINDOW VCPU VIEW VIRTUAL VISIBLE WITH WITHOUT WORK WRAPPER WRITE X509 XOR XA \
XID XML YEAR YEAR_MONTH ZEROFILL ZONE \
DELETE INSERT REPLACE SELECT UPDATE \
ADDDATE BIT_AND BIT_OR BIT_XOR CAST COUNT CURDATE CURTIME DATE_ADD DATE_SUB EXTRACT \
GROUP_CONCAT JSON_OBJECTAGG JSON_ARRAYAGG MAX MID MIN NOW POSITION SESSION_USER STD STDDEV \
STDDEV_POP STDDEV_SAMP ST_COLLECT SUBDATE SUBSTR SUBSTRING SUM SYSDATE SYSTEM_USER TRIM \
VARIANCE VAR_POP VAR_SAMP";

/// `SG_FUNCTIONS` spellings: keywords only when `(` follows immediately.
const FUNCTION_ONLY: &str = "\
ADDDATE BIT_AND BIT_OR BIT_XOR CAST COUNT CURDATE CURTIME DATE_ADD DATE_SUB EXTRACT \
GROUP_CONCAT JSON_OBJECTAGG JSON_ARRAYAGG MAX MID MIN NOW POSITION SESSION_USER STD STDDEV \
STDDEV_POP STDDEV_SAMP ST_COLLECT SUBDATE SUBSTR SUBSTRING SUM SYSDATE SYSTEM_USER TRIM \
VARIANCE VAR_POP VAR_SAMP";

/// Spellings that share a token with a later spelling in `lex.h`; the digest prints the later
/// one (see the module doc).
pub const PRINTED_AS: &[(&str, &str)] = &[
    ("CHAR", "CHARACTER"),
    ("CURRENT_TIMESTAMP", "NOW"),
    ("LOCALTIME", "NOW"),
    ("LOCALTIMESTAMP", "NOW"),
    ("CURRENT_DATE", "CURDATE"),
    ("CURRENT_TIME", "CURTIME"),
    ("DATABASE", "SCHEMA"),
    ("DATABASES", "SCHEMAS"),
    ("DEC", "DECIMAL"),
    ("DESCRIBE", "EXPLAIN"),
    ("DISTINCT", "DISTINCTROW"),
    ("COLUMNS", "FIELDS"),
    ("FLOAT", "FLOAT4"),
    ("DOUBLE", "FLOAT8"),
    ("GEOMCOLLECTION", "GEOMETRYCOLLECTION"),
    ("INT", "INTEGER"),
    ("INT4", "INTEGER"),
    ("INT1", "TINYINT"),
    ("INT2", "SMALLINT"),
    ("INT3", "MIDDLEINT"),
    ("MEDIUMINT", "MIDDLEINT"),
    ("BIGINT", "INT8"),
    ("IO_THREAD", "RELAY_THREAD"),
    ("NDB", "NDBCLUSTER"),
    ("REGEXP", "RLIKE"),
    ("ANY", "SOME"),
    ("VARCHAR", "VARCHARACTER"),
    ("SECOND", "SQL_TSI_SECOND"),
    ("MINUTE", "SQL_TSI_MINUTE"),
    ("HOUR", "SQL_TSI_HOUR"),
    ("DAY", "SQL_TSI_DAY"),
    ("MONTH", "SQL_TSI_MONTH"),
    ("QUARTER", "SQL_TSI_QUARTER"),
    ("SQL_TSI_WEEK", "WEEK"),
    ("SQL_TSI_YEAR", "YEAR"),
    ("USER", "SYSTEM_USER"),
    ("SESSION_USER", "SYSTEM_USER"),
    ("MID", "SUBSTRING"),
    ("SUBSTR", "SUBSTRING"),
    ("STD", "STDDEV_POP"),
    ("STDDEV", "STDDEV_POP"),
    ("VARIANCE", "VAR_POP"),
];

/// Spellings with a [`Kw`] other than [`Kw::Other`].
const SPECIAL: &[(&str, Kw)] = &[
    ("SELECT", Kw::Select),
    ("INSERT", Kw::Insert),
    ("REPLACE", Kw::Replace),
    ("UPDATE", Kw::Update),
    ("DELETE", Kw::Delete),
    ("WITH", Kw::With),
    ("TABLE", Kw::Table),
    ("VALUES", Kw::Values),
    ("BEGIN", Kw::Begin),
    ("START", Kw::Start),
    ("COMMIT", Kw::Commit),
    ("ROLLBACK", Kw::Rollback),
    ("SAVEPOINT", Kw::Savepoint),
    ("RELEASE", Kw::Release),
    ("SET", Kw::Set),
    ("SHOW", Kw::Show),
    ("USE", Kw::Use),
    ("CREATE", Kw::Create),
    ("DROP", Kw::Drop),
    ("ALTER", Kw::Alter),
    ("TRUNCATE", Kw::Truncate),
    ("RENAME", Kw::Rename),
    ("DESCRIBE", Kw::Describe),
    ("EXPLAIN", Kw::Describe),
    ("DESC", Kw::Desc),
    ("LOCK", Kw::Lock),
    ("UNLOCK", Kw::Unlock),
    ("FLUSH", Kw::Flush),
    ("KILL", Kw::Kill),
    ("ANALYZE", Kw::Analyze),
    ("OPTIMIZE", Kw::Optimize),
    ("CHECK", Kw::Check),
    ("CHECKSUM", Kw::Checksum),
    ("REPAIR", Kw::Repair),
    ("GRANT", Kw::Grant),
    ("REVOKE", Kw::Revoke),
    ("PREPARE", Kw::Prepare),
    ("EXECUTE", Kw::Execute),
    ("DEALLOCATE", Kw::Deallocate),
    ("CALL", Kw::Call),
    ("DO", Kw::Do),
    ("LOAD", Kw::Load),
    ("HANDLER", Kw::Handler),
    ("XA", Kw::Xa),
    ("HELP", Kw::Help),
    ("RESET", Kw::Reset),
    ("PURGE", Kw::Purge),
    ("CHANGE", Kw::Change),
    ("STOP", Kw::Stop),
    ("BINLOG", Kw::Binlog),
    ("INSTALL", Kw::Install),
    ("UNINSTALL", Kw::Uninstall),
    ("SHUTDOWN", Kw::Shutdown),
    ("RESTART", Kw::Restart),
    ("CLONE", Kw::Clone),
    ("IMPORT", Kw::Import),
    ("SIGNAL", Kw::Signal),
    ("RESIGNAL", Kw::Resignal),
    ("GET", Kw::Get),
    ("DATABASE", Kw::Database),
    ("SCHEMA", Kw::Database),
    ("INDEX", Kw::Index),
    ("VIEW", Kw::View),
    ("USER", Kw::User),
    ("ROLE", Kw::Role),
    ("PROCEDURE", Kw::Procedure),
    ("FUNCTION", Kw::Function),
    ("TRIGGER", Kw::Trigger),
    ("EVENT", Kw::Event),
    ("SERVER", Kw::Server),
    ("TABLESPACE", Kw::Tablespace),
    ("TRANSACTION", Kw::Transaction),
    ("NAMES", Kw::Names),
    ("PASSWORD", Kw::Password),
    ("TO", Kw::To),
    ("WORK", Kw::Work),
    ("ORDER", Kw::Order),
    ("GROUP", Kw::Group),
    ("BY", Kw::By),
    ("AS", Kw::As),
    ("COLLATE", Kw::Collate),
    ("CHAR", Kw::Char),
    ("CHARACTER", Kw::Char),
    ("CHARSET", Kw::Charset),
    ("DATE", Kw::Date),
    ("TIME", Kw::Time),
    ("TIMESTAMP", Kw::Timestamp),
    ("NULL", Kw::Null),
    ("TRUE", Kw::True),
    ("FALSE", Kw::False),
    ("INTERVAL", Kw::Interval),
    ("IN", Kw::In),
    ("SHARE", Kw::Share),
    ("MODE", Kw::Mode),
    ("FOR", Kw::For),
    ("SEPARATOR", Kw::Separator),
    ("IS", Kw::Is),
    ("NOT", Kw::Not),
    ("END", Kw::End),
    ("ON", Kw::On),
    ("EMPTY", Kw::Empty),
    ("ERROR", Kw::Error),
    ("OUTFILE", Kw::Outfile),
    ("DUMPFILE", Kw::Dumpfile),
    ("TERMINATED", Kw::Terminated),
    ("ENCLOSED", Kw::Enclosed),
    ("ESCAPED", Kw::Escaped),
    ("STARTING", Kw::Starting),
    ("ASC", Kw::Asc),
    ("LIMIT", Kw::Limit),
    ("HAVING", Kw::Having),
    ("WINDOW", Kw::Window),
    ("UNION", Kw::Union),
    ("EXCEPT", Kw::Union),
    ("INTERSECT", Kw::Union),
    ("INTO", Kw::Into),
    ("RECURSIVE", Kw::Recursive),
    ("BINARY", Kw::Binary),
    ("EVERY", Kw::Every),
    ("AT", Kw::At),
    ("STARTS", Kw::Starts),
    ("ENDS", Kw::Ends),
    ("DEFAULT", Kw::Default),
    ("RETURN", Kw::Return),
    ("IF", Kw::If),
    ("ELSEIF", Kw::Elseif),
    ("CASE", Kw::Case),
    ("WHEN", Kw::When),
    ("WHILE", Kw::While),
    ("UNTIL", Kw::Until),
    ("OR", Kw::Or),
    ("XOR", Kw::Xor),
    ("AND", Kw::And),
    ("BETWEEN", Kw::Between),
    ("LIKE", Kw::Like),
    ("REGEXP", Kw::Regexp),
    ("RLIKE", Kw::Regexp),
    ("DIV", Kw::Div),
    ("MOD", Kw::Mod),
    ("WHERE", Kw::Where),
    ("THEN", Kw::Then),
    ("ELSE", Kw::Else),
    ("OFFSET", Kw::Offset),
    ("ESCAPE", Kw::Escape),
    ("AGAINST", Kw::Against),
    ("DISTINCT", Kw::Distinct),
    ("DISTINCTROW", Kw::Distinct),
    ("ALL", Kw::All),
    ("ANY", Kw::Any),
    ("SOME", Kw::Any),
    ("EXISTS", Kw::Exists),
    ("FROM", Kw::From),
    ("LEADING", Kw::Leading),
    ("TRAILING", Kw::Trailing),
    ("BOTH", Kw::Both),
    ("SOUNDS", Kw::Sounds),
    ("SQL_NO_CACHE", Kw::SelectOption),
    ("SQL_CALC_FOUND_ROWS", Kw::SelectOption),
    ("SQL_BIG_RESULT", Kw::SelectOption),
    ("SQL_SMALL_RESULT", Kw::SelectOption),
    ("SQL_BUFFER_RESULT", Kw::SelectOption),
    ("HIGH_PRIORITY", Kw::SelectOption),
    ("STRAIGHT_JOIN", Kw::SelectOption),
    // `(n)` after these is a length, precision or fractional-seconds digit count
    ("NCHAR", Kw::TypeWithLength),
    ("NVARCHAR", Kw::TypeWithLength),
    ("VARCHAR", Kw::TypeWithLength),
    ("VARCHARACTER", Kw::TypeWithLength),
    ("VARBINARY", Kw::TypeWithLength),
    ("DECIMAL", Kw::TypeWithLength),
    ("DEC", Kw::TypeWithLength),
    ("NUMERIC", Kw::TypeWithLength),
    ("FIXED", Kw::TypeWithLength),
    ("FLOAT", Kw::TypeWithLength),
    ("FLOAT4", Kw::TypeWithLength),
    ("FLOAT8", Kw::TypeWithLength),
    ("DOUBLE", Kw::TypeWithLength),
    ("REAL", Kw::TypeWithLength),
    ("DATETIME", Kw::TypeWithLength),
    ("INT", Kw::TypeWithLength),
    ("INTEGER", Kw::TypeWithLength),
    ("INT1", Kw::TypeWithLength),
    ("INT2", Kw::TypeWithLength),
    ("INT3", Kw::TypeWithLength),
    ("INT4", Kw::TypeWithLength),
    ("INT8", Kw::TypeWithLength),
    ("TINYINT", Kw::TypeWithLength),
    ("SMALLINT", Kw::TypeWithLength),
    ("MEDIUMINT", Kw::TypeWithLength),
    ("MIDDLEINT", Kw::TypeWithLength),
    ("BIGINT", Kw::TypeWithLength),
    ("BIT", Kw::TypeWithLength),
    ("YEAR", Kw::TypeWithLength),
    ("NOW", Kw::TypeWithLength),
    ("CURRENT_TIMESTAMP", Kw::TypeWithLength),
    ("CURTIME", Kw::TypeWithLength),
    ("CURRENT_TIME", Kw::TypeWithLength),
    ("LOCALTIME", Kw::TypeWithLength),
    ("LOCALTIMESTAMP", Kw::TypeWithLength),
    ("SYSDATE", Kw::TypeWithLength),
    ("UTC_TIME", Kw::TypeWithLength),
    ("UTC_TIMESTAMP", Kw::TypeWithLength),
];

/// Optimizer-hint keywords (`SG_HINTS`), recognised inside `/*+ … */` only.
const HINT_KEYWORDS: &str = "\
BKA BNL DUPSWEEDOUT FIRSTMATCH INTOEXISTS LOOSESCAN MATERIALIZATION MAX_EXECUTION_TIME NO_BKA \
NO_BNL NO_ICP NO_MRR NO_RANGE_OPTIMIZATION NO_SEMIJOIN MRR QB_NAME SEMIJOIN SET_VAR SUBQUERY \
MERGE NO_MERGE JOIN_PREFIX JOIN_SUFFIX JOIN_ORDER JOIN_FIXED_ORDER INDEX_MERGE NO_INDEX_MERGE \
RESOURCE_GROUP SKIP_SCAN NO_SKIP_SCAN HASH_JOIN NO_HASH_JOIN INDEX NO_INDEX JOIN_INDEX \
NO_JOIN_INDEX GROUP_INDEX NO_GROUP_INDEX ORDER_INDEX NO_ORDER_INDEX DERIVED_CONDITION_PUSHDOWN \
NO_DERIVED_CONDITION_PUSHDOWN";

/// Hash table slots; a power of two well above twice the number of spellings.
const SLOTS: usize = 2048;
const SLOT_BITS: u32 = SLOTS.trailing_zeros();

/// A spelling's lookup key: its length and its first and last (up to) eight upper-case
/// bytes. For words of up to 16 bytes the key *is* the word, so equal keys mean equal words;
/// longer words also compare the bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    len: usize,
    head: u64,
    tail: u64,
}

/// Upper-cases the ASCII letters of eight bytes at once (all bytes must be below 0x80).
fn upper8(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Bit 7 of a byte of `from_a` is set iff the byte is >= b'a', of `past_z` iff > b'z'.
    let from_a = w.wrapping_add(ONES * u64::from(0x80 - b'a'));
    let past_z = w.wrapping_add(ONES * u64::from(0x80 - b'z' - 1));
    let lower = from_a & !past_z & (ONES * 0x80);
    w ^ (lower >> 2)
}

impl Key {
    /// The key of `word`, which the caller knows to be made of ASCII letters, digits and
    /// `_` only; `None` if it is too long to be a keyword.
    fn of_ascii_word(word: &[u8]) -> Option<Key> {
        let len = word.len();
        if len == 0 || len > KEYWORD_LEN_MAX {
            return None;
        }
        let (head, tail) = match (word.first_chunk::<8>(), word.last_chunk::<8>()) {
            (Some(head), Some(tail)) => (u64::from_le_bytes(*head), u64::from_le_bytes(*tail)),
            _ => {
                let mut w = 0u64;
                for (i, &b) in word.iter().enumerate() {
                    w |= u64::from(b) << (8 * i);
                }
                (w, w)
            }
        };
        Some(Key {
            len,
            head: upper8(head),
            tail: upper8(tail),
        })
    }

    /// The key of any `word`; `None` if it cannot be a keyword (empty, too long, or a byte
    /// that no keyword has).
    fn of(word: &[u8]) -> Option<Key> {
        if word.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_') {
            Key::of_ascii_word(word)
        } else {
            None
        }
    }

    fn slot(&self) -> usize {
        let mixed = (self.head ^ self.tail.rotate_left(29) ^ self.len as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> (64 - SLOT_BITS)) as usize
    }
}

struct Entry<T> {
    key: Key,
    name: &'static str,
    value: T,
}

struct Table {
    /// `slots[h]` is an index into the entries plus one, or 0 for an empty slot.
    main_slots: Box<[u16]>,
    main: Vec<Entry<Keyword>>,
    hint_slots: Box<[u16]>,
    hints: Vec<Entry<&'static str>>,
}

/// Inserts `entry` at the first free slot from its hash (linear probing). The table is
/// never more than half full (asserted by the tests), so a free slot exists.
fn insert<T>(slots: &mut [u16], entries: &mut Vec<Entry<T>>, entry: Entry<T>) {
    let mut slot = entry.key.slot();
    for _ in 0..SLOTS {
        match slots.get_mut(slot) {
            Some(free @ 0) => {
                entries.push(entry);
                *free = u16::try_from(entries.len()).unwrap_or(0);
                return;
            }
            _ => slot = (slot + 1) & (SLOTS - 1),
        }
    }
}

fn find<'t, T>(slots: &[u16], entries: &'t [Entry<T>], key: Key, word: &[u8]) -> Option<&'t T> {
    let mut slot = key.slot();
    for _ in 0..SLOTS {
        let index = usize::from(*slots.get(slot)?);
        let entry = entries.get(index.checked_sub(1)?)?;
        if entry.key == key && (key.len <= 16 || entry.name.as_bytes().eq_ignore_ascii_case(word)) {
            return Some(&entry.value);
        }
        slot = (slot + 1) & (SLOTS - 1);
    }
    None
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Table {
            main_slots: vec![0; SLOTS].into_boxed_slice(),
            main: Vec::new(),
            hint_slots: vec![0; SLOTS].into_boxed_slice(),
            hints: Vec::new(),
        };
        for name in KEYWORDS.split_ascii_whitespace() {
            let printed = PRINTED_AS
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(name, |(_, p)| *p);
            let kw = SPECIAL
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(Kw::Other, |(_, k)| *k);
            let function_only = FUNCTION_ONLY.split_ascii_whitespace().any(|f| f == name);
            let Some(key) = Key::of(name.as_bytes()) else {
                continue;
            };
            let entry = Entry {
                key,
                name,
                value: Keyword {
                    name,
                    printed,
                    kw,
                    function_only,
                },
            };
            insert(&mut table.main_slots, &mut table.main, entry);
        }
        for name in HINT_KEYWORDS.split_ascii_whitespace() {
            let Some(key) = Key::of(name.as_bytes()) else {
                continue;
            };
            let entry = Entry {
                key,
                name,
                value: name,
            };
            insert(&mut table.hint_slots, &mut table.hints, entry);
        }
        table
    })
}

/// The keyword spelled `word` (any case), if it is one of MySQL 8.0's main-parser keywords.
/// The caller applies the position rules (function keywords need `(`, words around `.` are
/// identifiers).
pub fn lookup(word: &[u8]) -> Option<&'static Keyword> {
    let table = table();
    find(&table.main_slots, &table.main, Key::of(word)?, word)
}

/// [`lookup`] for a word the lexer has checked to be made of ASCII letters, digits and `_`.
pub(crate) fn lookup_ascii_word(word: &[u8]) -> Option<&'static Keyword> {
    let table = table();
    find(
        &table.main_slots,
        &table.main,
        Key::of_ascii_word(word)?,
        word,
    )
}

/// The optimizer-hint keyword spelled `word`, upper case.
pub fn lookup_hint(word: &[u8]) -> Option<&'static str> {
    let table = table();
    find(&table.hint_slots, &table.hints, Key::of(word)?, word).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        let names: Vec<&str> = KEYWORDS.split_ascii_whitespace().collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len(), "duplicate spelling in KEYWORDS");
        assert!(names.len() * 2 < SLOTS, "hash table too full");
        for name in &names {
            assert!(name.len() <= KEYWORD_LEN_MAX, "{name} too long");
            let entry = lookup(name.as_bytes()).expect("every keyword is found");
            assert_eq!(entry.name, *name);
        }
        for (name, printed) in PRINTED_AS {
            assert!(names.contains(name), "{name} not a keyword");
            assert!(names.contains(printed), "{printed} not a keyword");
        }
        for (name, _) in SPECIAL {
            assert!(names.contains(name), "{name} not a keyword");
        }
        for name in FUNCTION_ONLY.split_ascii_whitespace() {
            assert!(names.contains(&name), "{name} not a keyword");
        }
    }

    #[test]
    fn lookup_is_case_insensitive_and_maps_synonyms() {
        let int = lookup(b"int").expect("INT is a keyword");
        assert_eq!(int.printed, "INTEGER");
        assert_eq!(int.kw, Kw::TypeWithLength);
        assert_eq!(lookup(b"Select").map(|k| k.kw), Some(Kw::Select));
        assert_eq!(lookup(b"schema").map(|k| k.printed), Some("SCHEMA"));
        assert_eq!(lookup(b"database").map(|k| k.printed), Some("SCHEMA"));
        assert!(lookup(b"count").is_some_and(|k| k.function_only));
        assert!(lookup(b"sbtest1").is_none());
        assert!(lookup(b"k").is_none());
        assert!(lookup(b"").is_none());
        assert!(lookup("sélect".as_bytes()).is_none());
        assert!(lookup(&[b'A'; 200]).is_none());
        assert_eq!(lookup_hint(b"bka"), Some("BKA"));
        assert_eq!(lookup_hint(b"select"), None);
    }
}
