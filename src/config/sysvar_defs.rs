//! The table of system variables: one line per variable, MySQL 8.0's names, scopes, ranges
//! and defaults (Quire's own defaults are marked `Quire:`).
//!
//! The order of the table is the order of [`VarId`]s and has no other meaning; lookup by
//! name and `SHOW VARIABLES` order come from the sorted index built in `sysvars.rs`. Each
//! entry also names a constant in [`vars`], so code reads `vars::SQL_MODE`, never a number.
//!
//! Adding a variable: add one line here (the `registry!` macro numbers it and creates the
//! constant); the unit tests check that names are lower-case, unique, and that defaults pass
//! the variable's own validation.
//!
//! Paths: `datadir` and the relative file names below (`pid_file`, `general_log_file`,
//! `slow_query_log_file`, `log_bin_basename`, …) are what the user gave; the server resolves
//! them against the data directory at start-up and stores the absolute paths back, so that
//! `SHOW VARIABLES` shows what is really used (as mysqld does).

use super::sql_mode::SqlMode;
use super::sysvars::{Def, Kind, NullPolicy, Scope, SysVar, VarId};

const G: Scope = Scope::Global;
const S: Scope = Scope::Session;
const B: Scope = Scope::Both;
const U64_MAX: u64 = u64::MAX;
const U32_MAX: u64 = u32::MAX as u64;
/// MySQL's maximum for 64-bit sizes with a 4 KiB block (18446744073709547520).
const U64_MAX_4K: u64 = u64::MAX - 4095;

/// `version`: the server sets it from `--version-string` if given. The `5.7.99` prefix keeps
/// clients on their MySQL-5.7 code paths and makes `/*!80000 … */` comments inert; the rest
/// says what it really is.
pub const VERSION_DEFAULT: &str = concat!("5.7.99-Quire-", env!("CARGO_PKG_VERSION"));
pub const VERSION_COMMENT_DEFAULT: &str = concat!(
    "Quire ",
    env!("CARGO_PKG_VERSION"),
    " (MySQL 8.0 compatible)"
);

const COMPILE_OS: &str = if cfg!(target_os = "linux") {
    "Linux"
} else if cfg!(target_os = "macos") {
    "macOS"
} else {
    std::env::consts::OS
};

pub const ISOLATION_NAMES: &[&str] = &[
    "READ-UNCOMMITTED",
    "READ-COMMITTED",
    "REPEATABLE-READ",
    "SERIALIZABLE",
];

/// Storage engine names Quire accepts (canonical spelling, then aliases). All tables are
/// Quire's own engine; the name is remembered for `SHOW CREATE TABLE`.
pub const ENGINES: &[(&str, &[&str])] = &[
    ("InnoDB", &[]),
    ("MEMORY", &["HEAP"]),
    ("MyISAM", &[]),
    ("CSV", &[]),
    ("ARCHIVE", &[]),
    ("BLACKHOLE", &[]),
    ("MRG_MYISAM", &["MERGE"]),
];

/// MySQL's locales, in MySQL's numbering (`SET lc_time_names = 3` is sv_SE). MariaDB adds
/// ka_GE as number 111; MySQL 8.0 does not have it.
pub const LOCALES: &[&str] = &[
    "en_US", "en_GB", "ja_JP", "sv_SE", "de_DE", "fr_FR", "ar_AE", "ar_BH", "ar_JO", "ar_SA",
    "ar_SY", "be_BY", "bg_BG", "ca_ES", "cs_CZ", "da_DK", "de_AT", "es_ES", "et_EE", "eu_ES",
    "fi_FI", "fo_FO", "gl_ES", "gu_IN", "he_IL", "hi_IN", "hr_HR", "hu_HU", "id_ID", "is_IS",
    "it_CH", "ko_KR", "lt_LT", "lv_LV", "mk_MK", "mn_MN", "ms_MY", "nb_NO", "nl_NL", "pl_PL",
    "pt_BR", "pt_PT", "ro_RO", "ru_RU", "ru_UA", "sk_SK", "sl_SI", "sq_AL", "sr_RS", "ta_IN",
    "te_IN", "th_TH", "tr_TR", "uk_UA", "ur_PK", "vi_VN", "zh_CN", "zh_TW", "ar_DZ", "ar_EG",
    "ar_IN", "ar_IQ", "ar_KW", "ar_LB", "ar_LY", "ar_MA", "ar_OM", "ar_QA", "ar_SD", "ar_TN",
    "ar_YE", "de_BE", "de_CH", "de_LU", "en_AU", "en_CA", "en_IN", "en_NZ", "en_PH", "en_ZA",
    "en_ZW", "es_AR", "es_BO", "es_CL", "es_CO", "es_CR", "es_DO", "es_EC", "es_GT", "es_HN",
    "es_MX", "es_NI", "es_PA", "es_PE", "es_PR", "es_PY", "es_SV", "es_US", "es_UY", "es_VE",
    "fr_BE", "fr_CA", "fr_CH", "fr_LU", "it_IT", "nl_BE", "no_NO", "sv_FI", "zh_HK", "el_GR",
    "rm_CH",
];

/// `optimizer_switch` flags and their MySQL 8.0 defaults (8.0.31+), in display order.
pub const OPTIMIZER_FLAGS: &[(&str, bool)] = &[
    ("index_merge", true),
    ("index_merge_union", true),
    ("index_merge_sort_union", true),
    ("index_merge_intersection", true),
    ("engine_condition_pushdown", true),
    ("index_condition_pushdown", true),
    ("mrr", true),
    ("mrr_cost_based", true),
    ("block_nested_loop", true),
    ("batched_key_access", false),
    ("materialization", true),
    ("semijoin", true),
    ("loosescan", true),
    ("firstmatch", true),
    ("duplicateweedout", true),
    ("subquery_materialization_cost_based", true),
    ("use_index_extensions", true),
    ("condition_fanout_filter", true),
    ("derived_merge", true),
    ("use_invisible_indexes", false),
    ("skip_scan", true),
    ("hash_join", true),
    ("subquery_to_derived", false),
    ("prefer_ordering_index", true),
    ("hypergraph_optimizer", false),
    ("derived_condition_pushdown", true),
    ("hash_set_operations", true),
];

const fn var(name: &'static str, scope: Scope, kind: Kind, default: Def) -> SysVar {
    SysVar {
        name,
        scope,
        kind,
        default,
        dynamic: true,
        cmdline: true,
        null: NullPolicy::Reject,
        session_read_only: false,
    }
}

const fn boolean(name: &'static str, scope: Scope, default: bool) -> SysVar {
    var(name, scope, Kind::Bool, Def::Bool(default))
}

const fn uint(name: &'static str, scope: Scope, min: u64, max: u64, default: u64) -> SysVar {
    uint_block(name, scope, min, max, 1, default)
}

const fn uint_block(
    name: &'static str,
    scope: Scope,
    min: u64,
    max: u64,
    block: u64,
    default: u64,
) -> SysVar {
    var(
        name,
        scope,
        Kind::UInt { min, max, block },
        Def::UInt(default),
    )
}

const fn int(name: &'static str, scope: Scope, min: i64, max: i64, default: i64) -> SysVar {
    var(name, scope, Kind::Int { min, max }, Def::Int(default))
}

const fn double(name: &'static str, scope: Scope, min: f64, max: f64, default: f64) -> SysVar {
    var(name, scope, Kind::Double { min, max }, Def::Double(default))
}

const fn string(name: &'static str, scope: Scope, default: &'static str) -> SysVar {
    var(name, scope, Kind::Str, Def::Str(default))
}

const fn computed(name: &'static str, scope: Scope, f: fn() -> String) -> SysVar {
    var(name, scope, Kind::Str, Def::Computed(f))
}

const fn choice(
    name: &'static str,
    scope: Scope,
    names: &'static [&'static str],
    default: &'static str,
) -> SysVar {
    var(name, scope, Kind::Enum(names), Def::Str(default))
}

/// A read-only `have_*` variable (YES / NO / DISABLED).
const fn have(name: &'static str, value: &'static str) -> SysVar {
    string(name, G, value).ro().no_cmdline()
}

impl SysVar {
    /// Not settable at run time (MySQL's READ_ONLY flag): `SET` fails with 1238.
    pub const fn ro(mut self) -> SysVar {
        self.dynamic = false;
        self
    }
    /// Not an option: `--name` is an unknown option.
    pub const fn no_cmdline(mut self) -> SysVar {
        self.cmdline = false;
        self
    }
    /// `SET x = NULL` stores NULL (shown as an empty string by `SHOW VARIABLES`).
    pub const fn nullable(mut self) -> SysVar {
        self.null = NullPolicy::Keep;
        self
    }
    /// `SET x = NULL` stores the empty string.
    pub const fn null_as_empty(mut self) -> SysVar {
        self.null = NullPolicy::Empty;
        self
    }
    /// The session value may be read but not set (1621 on `SET SESSION`).
    pub const fn session_ro(mut self) -> SysVar {
        self.session_read_only = true;
        self
    }
}

macro_rules! registry {
    (
        vars { $($konst:ident = $def:expr;)* }
        aliases { $($alias:ident = $target:ident, $alias_name:literal;)* }
    ) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u16)]
        enum Slot {
            $($konst,)*
            __Count,
        }

        /// Number of registered variables.
        pub const COUNT: usize = Slot::__Count as usize;

        /// Ids of all variables, by MySQL name in upper case (`vars::SQL_MODE`), plus the
        /// aliases (`vars::TX_ISOLATION` is `vars::TRANSACTION_ISOLATION`).
        pub mod vars {
            use super::{Slot, VarId};
            $(pub const $konst: VarId = VarId(Slot::$konst as u16);)*
            $(pub const $alias: VarId = $target;)*
        }

        pub static TABLE: [SysVar; COUNT] = [$($def,)*];

        /// Other names for variables: (alias, target). `find` accepts them and
        /// `SHOW VARIABLES` lists them, as MySQL 5.7 listed `tx_isolation`.
        pub static ALIASES: &[(&str, VarId)] = &[$(($alias_name, vars::$target),)*];
    };
}

registry! {
    vars {
        // --- connection and session behaviour -------------------------------------------
        AUTOCOMMIT = boolean("autocommit", B, true);
        AUTO_INCREMENT_INCREMENT = uint("auto_increment_increment", B, 1, 65535, 1);
        AUTO_INCREMENT_OFFSET = uint("auto_increment_offset", B, 1, 65535, 1);
        BIG_TABLES = boolean("big_tables", B, false);
        BULK_INSERT_BUFFER_SIZE = uint("bulk_insert_buffer_size", B, 0, U64_MAX, 8_388_608);
        COMPLETION_TYPE = choice("completion_type", B, &["NO_CHAIN", "CHAIN", "RELEASE"], "NO_CHAIN");
        CTE_MAX_RECURSION_DEPTH = uint("cte_max_recursion_depth", B, 0, U32_MAX, 1000);
        DEFAULT_WEEK_FORMAT = uint("default_week_format", B, 0, 7, 0);
        DIV_PRECISION_INCREMENT = uint("div_precision_increment", B, 0, 30, 4);
        EQ_RANGE_INDEX_DIVE_LIMIT = uint("eq_range_index_dive_limit", B, 0, U32_MAX, 200);
        ERROR_COUNT = uint("error_count", S, 0, U64_MAX, 0).ro().no_cmdline();
        EXPLICIT_DEFAULTS_FOR_TIMESTAMP = boolean("explicit_defaults_for_timestamp", B, true);
        FOREIGN_KEY_CHECKS = boolean("foreign_key_checks", B, true).no_cmdline();
        GROUP_CONCAT_MAX_LEN = uint("group_concat_max_len", B, 4, U64_MAX, 1024);
        INSERT_ID = uint("insert_id", S, 0, U64_MAX, 0).no_cmdline();
        INTERACTIVE_TIMEOUT = uint("interactive_timeout", B, 1, 31_536_000, 28_800);
        JOIN_BUFFER_SIZE = uint_block("join_buffer_size", B, 128, U64_MAX, 128, 262_144);
        LAST_INSERT_ID = uint("last_insert_id", S, 0, U64_MAX, 0).no_cmdline();
        LC_MESSAGES = var("lc_messages", B, Kind::Locale, Def::Str("en_US"));
        LC_TIME_NAMES = var("lc_time_names", B, Kind::Locale, Def::Str("en_US"));
        LOCK_WAIT_TIMEOUT = uint("lock_wait_timeout", B, 1, 31_536_000, 31_536_000);
        LOW_PRIORITY_UPDATES = boolean("low_priority_updates", B, false);
        MAX_ALLOWED_PACKET = uint_block("max_allowed_packet", B, 1024, 1_073_741_824, 1024, 67_108_864).session_ro();
        MAX_ERROR_COUNT = uint("max_error_count", B, 0, 65535, 1024);
        MAX_EXECUTION_TIME = uint("max_execution_time", B, 0, U32_MAX, 0);
        MAX_HEAP_TABLE_SIZE = uint_block("max_heap_table_size", B, 16384, U64_MAX, 1024, 16_777_216);
        MAX_JOIN_SIZE = uint("max_join_size", B, 1, U64_MAX, U64_MAX);
        MAX_LENGTH_FOR_SORT_DATA = uint("max_length_for_sort_data", B, 4, 8_388_608, 4096);
        MAX_SORT_LENGTH = uint("max_sort_length", B, 4, 8_388_608, 1024);
        MAX_SP_RECURSION_DEPTH = uint("max_sp_recursion_depth", B, 0, 255, 0);
        MAX_USER_CONNECTIONS = uint("max_user_connections", B, 0, U32_MAX, 0).session_ro();
        MIN_EXAMINED_ROW_LIMIT = uint("min_examined_row_limit", B, 0, U64_MAX, 0);
        NET_BUFFER_LENGTH = uint_block("net_buffer_length", B, 1024, 1_048_576, 1024, 16_384).session_ro();
        NET_READ_TIMEOUT = uint("net_read_timeout", B, 1, 31_536_000, 30);
        NET_RETRY_COUNT = uint("net_retry_count", B, 1, U64_MAX, 10);
        NET_WRITE_TIMEOUT = uint("net_write_timeout", B, 1, 31_536_000, 60);
        OPTIMIZER_PRUNE_LEVEL = uint("optimizer_prune_level", B, 0, 1, 1);
        OPTIMIZER_SEARCH_DEPTH = uint("optimizer_search_depth", B, 0, 62, 62);
        OPTIMIZER_SWITCH = var("optimizer_switch", B, Kind::Flags(OPTIMIZER_FLAGS), Def::Flags);
        PROFILING = boolean("profiling", B, false).no_cmdline();
        PROFILING_HISTORY_SIZE = uint("profiling_history_size", B, 0, 100, 15);
        PSEUDO_REPLICA_MODE = boolean("pseudo_replica_mode", S, false).no_cmdline();
        // The session sets it to its connection id at connect.
        PSEUDO_THREAD_ID = uint("pseudo_thread_id", S, 0, U64_MAX, 0).no_cmdline();
        QUERY_ALLOC_BLOCK_SIZE = uint_block("query_alloc_block_size", B, 1024, U32_MAX, 1024, 8192);
        QUERY_PREALLOC_SIZE = uint_block("query_prealloc_size", B, 8192, U64_MAX, 1024, 8192);
        RAND_SEED1 = uint("rand_seed1", S, 0, U64_MAX, 0).no_cmdline();
        RAND_SEED2 = uint("rand_seed2", S, 0, U64_MAX, 0).no_cmdline();
        READ_BUFFER_SIZE = uint_block("read_buffer_size", B, 8192, 2_147_479_552, 4096, 131_072);
        READ_RND_BUFFER_SIZE = uint("read_rnd_buffer_size", B, 1, 2_147_483_647, 262_144);
        SORT_BUFFER_SIZE = uint("sort_buffer_size", B, 32768, U64_MAX, 262_144);
        SQL_AUTO_IS_NULL = boolean("sql_auto_is_null", B, false).no_cmdline();
        SQL_BIG_SELECTS = boolean("sql_big_selects", B, true).no_cmdline();
        SQL_BUFFER_RESULT = boolean("sql_buffer_result", B, false).no_cmdline();
        SQL_MODE = var("sql_mode", B, Kind::SqlMode, Def::SqlMode(SqlMode::DEFAULT));
        SQL_NOTES = boolean("sql_notes", B, true).no_cmdline();
        SQL_QUOTE_SHOW_CREATE = boolean("sql_quote_show_create", B, true).no_cmdline();
        SQL_REQUIRE_PRIMARY_KEY = boolean("sql_require_primary_key", B, false);
        SQL_SAFE_UPDATES = boolean("sql_safe_updates", B, false).no_cmdline();
        SQL_SELECT_LIMIT = uint("sql_select_limit", B, 0, U64_MAX, U64_MAX).no_cmdline();
        SQL_WARNINGS = boolean("sql_warnings", B, false).no_cmdline();
        // Reading @@timestamp when it was not set returns the current time (sysvars.rs).
        TIMESTAMP = var("timestamp", S, Kind::Double { min: 0.0, max: 32_536_771_199.999_999 }, Def::Null).no_cmdline();
        TIME_ZONE = var("time_zone", B, Kind::TimeZone, Def::Str("SYSTEM")).no_cmdline(); // option: --default-time-zone
        TMP_TABLE_SIZE = uint("tmp_table_size", B, 1024, U64_MAX, 16_777_216);
        TRANSACTION_ALLOC_BLOCK_SIZE = uint_block("transaction_alloc_block_size", B, 1024, 131_072, 1024, 8192);
        TRANSACTION_ISOLATION = choice("transaction_isolation", B, ISOLATION_NAMES, "REPEATABLE-READ");
        TRANSACTION_PREALLOC_SIZE = uint_block("transaction_prealloc_size", B, 1024, 131_072, 1024, 4096);
        TRANSACTION_READ_ONLY = boolean("transaction_read_only", B, false);
        UNIQUE_CHECKS = boolean("unique_checks", B, true).no_cmdline();
        WAIT_TIMEOUT = uint("wait_timeout", B, 1, 31_536_000, 28_800);
        WARNING_COUNT = uint("warning_count", S, 0, U64_MAX, 0).ro().no_cmdline();
        // Quire: OFF/empty until Quire sends session-state information (MySQL: schema ON,
        // system_variables "time_zone,autocommit,character_set_client,…").
        SESSION_TRACK_GTIDS = choice("session_track_gtids", B, &["OFF", "OWN_GTID", "ALL_GTIDS"], "OFF");
        SESSION_TRACK_SCHEMA = boolean("session_track_schema", B, false);
        SESSION_TRACK_STATE_CHANGE = boolean("session_track_state_change", B, false);
        SESSION_TRACK_SYSTEM_VARIABLES = string("session_track_system_variables", B, "");
        SESSION_TRACK_TRANSACTION_INFO = choice("session_track_transaction_info", B, &["OFF", "STATE", "CHARACTERISTICS"], "OFF");

        // --- character sets and collations ---------------------------------------------
        // Quire: utf8mb4_general_ci is the default collation of utf8mb4 (as MariaDB's);
        // MySQL 8.0 uses utf8mb4_0900_ai_ci.
        CHARACTER_SET_CLIENT = var("character_set_client", B, Kind::Charset, Def::Str("utf8mb4")).no_cmdline();
        CHARACTER_SET_CONNECTION = var("character_set_connection", B, Kind::Charset, Def::Str("utf8mb4")).no_cmdline();
        CHARACTER_SET_DATABASE = var("character_set_database", B, Kind::Charset, Def::Str("utf8mb4")).no_cmdline();
        CHARACTER_SET_FILESYSTEM = var("character_set_filesystem", B, Kind::Charset, Def::Str("binary"));
        CHARACTER_SET_RESULTS = var("character_set_results", B, Kind::Charset, Def::Str("utf8mb4")).nullable().no_cmdline();
        CHARACTER_SET_SERVER = var("character_set_server", B, Kind::Charset, Def::Str("utf8mb4"));
        CHARACTER_SET_SYSTEM = var("character_set_system", G, Kind::Charset, Def::Str("utf8mb3")).ro().no_cmdline();
        CHARACTER_SETS_DIR = computed("character_sets_dir", G, character_sets_dir).ro();
        COLLATION_CONNECTION = var("collation_connection", B, Kind::Collation, Def::Str("utf8mb4_general_ci")).no_cmdline();
        COLLATION_DATABASE = var("collation_database", B, Kind::Collation, Def::Str("utf8mb4_general_ci")).no_cmdline();
        COLLATION_SERVER = var("collation_server", B, Kind::Collation, Def::Str("utf8mb4_general_ci"));

        // --- server identity and environment ---------------------------------------------
        BASEDIR = computed("basedir", G, basedir).ro();
        BIND_ADDRESS = string("bind_address", G, "127.0.0.1").ro(); // Quire (MySQL: "*")
        DATADIR = string("datadir", G, "./quire-data").ro(); // Quire
        HOSTNAME = computed("hostname", G, hostname).ro().no_cmdline();
        LICENSE = string("license", G, "Apache-2.0").ro().no_cmdline();
        LOWER_CASE_FILE_SYSTEM = boolean("lower_case_file_system", G, false).ro().no_cmdline();
        LOWER_CASE_TABLE_NAMES = uint("lower_case_table_names", G, 0, 2, 0).ro();
        PID_FILE = computed("pid_file", G, pid_file).ro();
        PLUGIN_DIR = computed("plugin_dir", G, plugin_dir).ro();
        PORT = uint("port", G, 0, 65535, 3306).ro();
        PROTOCOL_VERSION = uint("protocol_version", G, 0, U32_MAX, 10).ro().no_cmdline();
        SERVER_ID = uint("server_id", G, 0, U32_MAX, 1);
        SERVER_UUID = string("server_uuid", G, "").ro().no_cmdline(); // set by the server
        // Quire: "" means "<datadir>/mysql.sock"; the server stores the resolved path.
        SOCKET = string("socket", G, "").ro();
        SYSTEM_TIME_ZONE = computed("system_time_zone", G, system_time_zone).ro().no_cmdline();
        TMPDIR = computed("tmpdir", G, tmpdir).ro();
        // Set by the server from --version-string (see VERSION_DEFAULT).
        VERSION = string("version", G, VERSION_DEFAULT).ro().no_cmdline();
        VERSION_COMMENT = string("version_comment", G, VERSION_COMMENT_DEFAULT).ro().no_cmdline();
        VERSION_COMPILE_MACHINE = string("version_compile_machine", G, std::env::consts::ARCH).ro().no_cmdline();
        VERSION_COMPILE_OS = string("version_compile_os", G, COMPILE_OS).ro().no_cmdline();
        HAVE_COMPRESS = have("have_compress", "NO");
        HAVE_DYNAMIC_LOADING = have("have_dynamic_loading", "NO");
        HAVE_GEOMETRY = have("have_geometry", "NO");
        HAVE_OPENSSL = have("have_openssl", "DISABLED");
        HAVE_PROFILING = have("have_profiling", "YES");
        HAVE_QUERY_CACHE = have("have_query_cache", "NO");
        HAVE_RTREE_KEYS = have("have_rtree_keys", "NO");
        HAVE_SSL = have("have_ssl", "DISABLED");
        HAVE_STATEMENT_TIMEOUT = have("have_statement_timeout", "YES");
        HAVE_SYMLINK = have("have_symlink", "DISABLED");
        LARGE_FILES_SUPPORT = boolean("large_files_support", G, true).ro().no_cmdline();

        // --- connections, security, server-wide limits --------------------------------------
        BACK_LOG = uint("back_log", G, 1, 65535, 151).ro();
        CONNECT_TIMEOUT = uint("connect_timeout", G, 2, 31_536_000, 10);
        CORE_FILE = boolean("core_file", G, false).ro();
        // Quire (MySQL 8.0: caching_sha2_password).
        DEFAULT_AUTHENTICATION_PLUGIN = choice("default_authentication_plugin", G, &["mysql_native_password", "sha256_password", "caching_sha2_password"], "mysql_native_password").ro();
        DEFAULT_PASSWORD_LIFETIME = uint("default_password_lifetime", G, 0, 65535, 0);
        EVENT_SCHEDULER = choice("event_scheduler", G, &["OFF", "ON", "DISABLED"], "ON");
        INIT_CONNECT = string("init_connect", G, "").null_as_empty();
        INIT_FILE = string("init_file", G, "").ro();
        LOCAL_INFILE = boolean("local_infile", G, false);
        MAX_CONNECT_ERRORS = uint("max_connect_errors", G, 1, U64_MAX, 100);
        MAX_CONNECTIONS = uint("max_connections", G, 1, 100_000, 151);
        MAX_PREPARED_STMT_COUNT = uint("max_prepared_stmt_count", G, 0, 4_194_304, 16_382);
        OFFLINE_MODE = boolean("offline_mode", G, false);
        OPEN_FILES_LIMIT = uint("open_files_limit", G, 0, U64_MAX, 8161).ro();
        READ_ONLY = boolean("read_only", G, false);
        REQUIRE_SECURE_TRANSPORT = boolean("require_secure_transport", G, false);
        // NULL: import/export disabled (Quire has no server-side file I/O for clients).
        SECURE_FILE_PRIV = var("secure_file_priv", G, Kind::Str, Def::Null).nullable().ro();
        SKIP_EXTERNAL_LOCKING = boolean("skip_external_locking", G, true).ro();
        SKIP_NAME_RESOLVE = boolean("skip_name_resolve", G, false).ro();
        SKIP_NETWORKING = boolean("skip_networking", G, false).ro();
        SLOW_LAUNCH_TIME = uint("slow_launch_time", G, 0, U64_MAX, 2);
        SUPER_READ_ONLY = boolean("super_read_only", G, false);
        TABLE_DEFINITION_CACHE = uint("table_definition_cache", G, 400, 524_288, 2000);
        TABLE_OPEN_CACHE = uint("table_open_cache", G, 1, 524_288, 4000);
        THREAD_CACHE_SIZE = uint("thread_cache_size", G, 0, 16384, 9);
        // Quire: 16 MiB (MySQL 1 MiB) and no less: deeply nested statements recurse in the
        // parser and binder (bounded by PARSE_DEPTH_MAX). Reserved address space, not memory.
        THREAD_STACK = uint_block("thread_stack", G, 16 << 20, U64_MAX, 1024, 16 << 20).ro();
        THREAD_HANDLING = choice("thread_handling", G, &["one-thread-per-connection", "pool-of-threads"], "one-thread-per-connection").ro();
        CONCURRENT_INSERT = choice("concurrent_insert", G, &["NEVER", "AUTO", "ALWAYS"], "AUTO");
        DEFAULT_STORAGE_ENGINE = var("default_storage_engine", B, Kind::Engine, Def::Str("InnoDB"));
        DEFAULT_TMP_STORAGE_ENGINE = var("default_tmp_storage_engine", B, Kind::Engine, Def::Str("InnoDB"));
        KEY_BUFFER_SIZE = uint_block("key_buffer_size", G, 0, U64_MAX, 4096, 8_388_608);
        QUERY_CACHE_LIMIT = uint("query_cache_limit", G, 0, U64_MAX, 1_048_576);
        QUERY_CACHE_MIN_RES_UNIT = uint("query_cache_min_res_unit", G, 0, U64_MAX, 4096);
        QUERY_CACHE_SIZE = uint_block("query_cache_size", G, 0, U64_MAX, 1024, 0); // no query cache
        QUERY_CACHE_TYPE = choice("query_cache_type", B, &["OFF", "ON", "DEMAND"], "OFF");
        QUERY_CACHE_WLOCK_INVALIDATE = boolean("query_cache_wlock_invalidate", B, false);

        // --- logs: error, general, slow, audit ------------------------------------------
        GENERAL_LOG = boolean("general_log", G, false);
        GENERAL_LOG_FILE = computed("general_log_file", G, general_log_file);
        LOG_ERROR = string("log_error", G, "stderr").ro();
        LOG_ERROR_VERBOSITY = uint("log_error_verbosity", G, 1, 3, 2);
        LOG_OUTPUT = var("log_output", G, Kind::Set(&["NONE", "FILE", "TABLE"]), Def::Str("FILE"));
        LOG_QUERIES_NOT_USING_INDEXES = boolean("log_queries_not_using_indexes", G, false);
        LOG_SLOW_ADMIN_STATEMENTS = boolean("log_slow_admin_statements", G, false);
        LOG_SLOW_EXTRA = boolean("log_slow_extra", G, false);
        // Percona's and MariaDB's: keep one slow statement in N, except those that ran
        // longer than log_slow_always_query_time (MariaDB 10.11's names).
        LOG_SLOW_RATE_LIMIT = uint("log_slow_rate_limit", B, 1, U32_MAX, 1);
        LOG_SLOW_ALWAYS_QUERY_TIME = double("log_slow_always_query_time", B, 0.0, 31_536_000.0, 31_536_000.0);
        LOG_THROTTLE_QUERIES_NOT_USING_INDEXES = uint("log_throttle_queries_not_using_indexes", G, 0, U32_MAX, 0);
        LOG_TIMESTAMPS = choice("log_timestamps", G, &["UTC", "SYSTEM"], "UTC");
        LONG_QUERY_TIME = double("long_query_time", B, 0.0, 31_536_000.0, 10.0);
        // Percona Server's slow-log rotation (0 = no rotation).
        MAX_SLOWLOG_FILES = uint("max_slowlog_files", G, 0, 102_400, 0);
        MAX_SLOWLOG_SIZE = uint_block("max_slowlog_size", G, 0, 1_073_741_824, 4096, 0);
        // Global: the log's switch. Session (MariaDB's): a session may switch itself off;
        // a session's value starts ON whatever the global (see SessionVars::new).
        SLOW_QUERY_LOG = boolean("slow_query_log", B, false);
        SLOW_QUERY_LOG_FILE = computed("slow_query_log_file", G, slow_query_log_file);
        SQL_LOG_OFF = boolean("sql_log_off", B, false).no_cmdline();
        // Quire: size rotation of the general log (as max_slowlog_size/_files), the bytes
        // each query log may hold before its writer takes them, and what a session does
        // when that is full: WAIT (lossless) or DROP (counted in Quire_*_log_dropped).
        MAX_GENERAL_LOG_FILES = uint("max_general_log_files", G, 0, 102_400, 0);
        MAX_GENERAL_LOG_SIZE = uint_block("max_general_log_size", G, 0, 1_073_741_824, 4096, 0);
        QUIRE_QUERY_LOG_BUFFER_SIZE = uint_block("quire_query_log_buffer_size", G, 4096, 1_073_741_824, 4096, 1_048_576);
        QUIRE_QUERY_LOG_WHEN_FULL = choice("quire_query_log_when_full", G, &["WAIT", "DROP"], "WAIT");
        // The slow log's `# Time:` line: MySQL 8.0's ISO-8601, or MySQL 5.6's/MariaDB's
        // `YYMMDD hh:mm:ss`, which MariaDB's mysqldumpslow (Debian's) understands.
        QUIRE_SLOW_LOG_TIME_FORMAT = choice("quire_slow_log_time_format", G, &["ISO8601", "LEGACY"], "ISO8601");
        // The audit log (observe::audit): MySQL Enterprise Audit's and Percona's names, all
        // dynamic; JSON lines only; Quire's hash chain.
        AUDIT_LOG = boolean("audit_log", G, false);
        AUDIT_LOG_BUFFER_SIZE = uint_block("audit_log_buffer_size", G, 4096, 1_073_741_824, 4096, 1_048_576);
        AUDIT_LOG_EXCLUDE_ACCOUNTS = string("audit_log_exclude_accounts", G, "");
        AUDIT_LOG_FILE = string("audit_log_file", G, "audit.log");
        AUDIT_LOG_FORMAT = choice("audit_log_format", G, &["JSON"], "JSON").ro();
        AUDIT_LOG_HASH_CHAIN = boolean("audit_log_hash_chain", G, false);
        AUDIT_LOG_INCLUDE_ACCOUNTS = string("audit_log_include_accounts", G, "");
        AUDIT_LOG_POLICY = choice("audit_log_policy", G, &["ALL", "LOGINS", "QUERIES", "NONE"], "ALL");
        AUDIT_LOG_ROTATE_ON_SIZE = uint_block("audit_log_rotate_on_size", G, 0, 1_073_741_824, 4096, 0);
        AUDIT_LOG_ROTATIONS = uint("audit_log_rotations", G, 0, 102_400, 0);
        AUDIT_LOG_STRATEGY = choice("audit_log_strategy", G, &["ASYNCHRONOUS", "PERFORMANCE", "SEMISYNCHRONOUS", "SYNCHRONOUS"], "ASYNCHRONOUS");
        // performance_schema: statement digests are Quire's statement records.
        MAX_DIGEST_LENGTH = uint("max_digest_length", G, 0, 1_048_576, 1024).ro();
        PERFORMANCE_SCHEMA = boolean("performance_schema", G, true).ro();
        PERFORMANCE_SCHEMA_DIGESTS_SIZE = int("performance_schema_digests_size", G, -1, 1_048_576, 10_000).ro();
        PERFORMANCE_SCHEMA_MAX_DIGEST_LENGTH = uint("performance_schema_max_digest_length", G, 0, 1_048_576, 1024).ro();
        PERFORMANCE_SCHEMA_EVENTS_STATEMENTS_HISTORY_SIZE = int("performance_schema_events_statements_history_size", G, -1, 1024, 10).ro();
        PERFORMANCE_SCHEMA_MAX_DIGEST_SAMPLE_AGE = uint("performance_schema_max_digest_sample_age", G, 0, 1_048_576, 60);
        PERFORMANCE_SCHEMA_MAX_SQL_TEXT_LENGTH = uint("performance_schema_max_sql_text_length", G, 0, 1_048_576, 1024).ro();

        // --- binary log (= Quire's journal) ----------------------------------------------
        // log_bin, log_bin_basename: set by --log-bin[=name] / --skip-log-bin (options.rs).
        LOG_BIN = boolean("log_bin", G, true).ro().no_cmdline();
        LOG_BIN_BASENAME = string("log_bin_basename", G, "binlog").ro().no_cmdline();
        LOG_BIN_INDEX = string("log_bin_index", G, "binlog.index").ro();
        LOG_BIN_TRUST_FUNCTION_CREATORS = boolean("log_bin_trust_function_creators", G, false);
        LOG_REPLICA_UPDATES = boolean("log_replica_updates", G, true).ro();
        BINLOG_CACHE_SIZE = uint_block("binlog_cache_size", G, 4096, U64_MAX_4K, 4096, 32_768);
        BINLOG_CHECKSUM = choice("binlog_checksum", G, &["NONE", "CRC32"], "CRC32");
        BINLOG_EXPIRE_LOGS_SECONDS = uint("binlog_expire_logs_seconds", G, 0, U32_MAX, 2_592_000);
        // Only ROW is implemented; the other names stay so that SET gives a clear error later.
        BINLOG_FORMAT = choice("binlog_format", B, &["MIXED", "STATEMENT", "ROW"], "ROW");
        BINLOG_GROUP_COMMIT_SYNC_DELAY = uint("binlog_group_commit_sync_delay", G, 0, 1_000_000, 0);
        BINLOG_GROUP_COMMIT_SYNC_NO_DELAY_COUNT = uint("binlog_group_commit_sync_no_delay_count", G, 0, 100_000, 0);
        BINLOG_ORDER_COMMITS = boolean("binlog_order_commits", G, true);
        BINLOG_ROW_IMAGE = choice("binlog_row_image", B, &["MINIMAL", "NOBLOB", "FULL"], "FULL");
        BINLOG_ROWS_QUERY_LOG_EVENTS = boolean("binlog_rows_query_log_events", B, false);
        BINLOG_STMT_CACHE_SIZE = uint_block("binlog_stmt_cache_size", G, 4096, U64_MAX_4K, 4096, 32_768);
        ENFORCE_GTID_CONSISTENCY = choice("enforce_gtid_consistency", G, &["OFF", "ON", "WARN"], "OFF");
        EXPIRE_LOGS_DAYS = uint("expire_logs_days", G, 0, 99, 0);
        GTID_EXECUTED = string("gtid_executed", G, "").ro().no_cmdline();
        GTID_MODE = choice("gtid_mode", G, &["OFF", "OFF_PERMISSIVE", "ON_PERMISSIVE", "ON"], "OFF");
        // mysqlbinlog output sets 'ANONYMOUS' and 'AUTOMATIC'.
        GTID_NEXT = string("gtid_next", S, "AUTOMATIC").no_cmdline();
        GTID_PURGED = string("gtid_purged", G, "").no_cmdline();
        MAX_BINLOG_CACHE_SIZE = uint_block("max_binlog_cache_size", G, 4096, U64_MAX_4K, 4096, U64_MAX_4K);
        MAX_BINLOG_SIZE = uint_block("max_binlog_size", G, 4096, 1_073_741_824, 4096, 1_073_741_824);
        MAX_BINLOG_STMT_CACHE_SIZE = uint_block("max_binlog_stmt_cache_size", G, 4096, U64_MAX_4K, 4096, U64_MAX_4K);
        SQL_LOG_BIN = boolean("sql_log_bin", S, true).no_cmdline();
        SYNC_BINLOG = uint("sync_binlog", G, 0, U32_MAX, 1);

        // --- InnoDB names (Quire's engine answers to them) --------------------------------
        INNODB_ADAPTIVE_HASH_INDEX = boolean("innodb_adaptive_hash_index", G, true);
        INNODB_AUTOINC_LOCK_MODE = uint("innodb_autoinc_lock_mode", G, 0, 2, 2).ro();
        INNODB_BUFFER_POOL_INSTANCES = uint("innodb_buffer_pool_instances", G, 1, 64, 1).ro();
        INNODB_BUFFER_POOL_SIZE = uint("innodb_buffer_pool_size", G, 5_242_880, U64_MAX, 134_217_728);
        INNODB_DEADLOCK_DETECT = boolean("innodb_deadlock_detect", G, true);
        INNODB_DEFAULT_ROW_FORMAT = choice("innodb_default_row_format", G, &["redundant", "compact", "dynamic"], "dynamic");
        INNODB_DOUBLEWRITE = boolean("innodb_doublewrite", G, true).ro();
        INNODB_FILE_PER_TABLE = boolean("innodb_file_per_table", G, true);
        INNODB_FLUSH_LOG_AT_TIMEOUT = uint("innodb_flush_log_at_timeout", G, 1, 2700, 1);
        INNODB_FLUSH_LOG_AT_TRX_COMMIT = uint("innodb_flush_log_at_trx_commit", G, 0, 2, 1);
        INNODB_FLUSH_METHOD = string("innodb_flush_method", G, "fsync").ro();
        // MySQL 8.0.26+; ON is MySQL 8.4's default (journal::writer: "Flush methods").
        INNODB_USE_FDATASYNC = boolean("innodb_use_fdatasync", G, true);
        // What start-up does about a journal corrupt before its tail (journal::recover).
        JOURNAL_RECOVERY = choice("journal_recovery", G, &["STOP", "TRUNCATE"], "STOP").ro();
        // Checkpoints (journal::checkpoint): after this many bytes of journal, or this many
        // seconds with changes (0: not by time).
        QUIRE_CHECKPOINT_LOG_SIZE = uint("quire_checkpoint_log_size", G, 1_048_576, U64_MAX, 33_554_432);
        QUIRE_CHECKPOINT_INTERVAL = uint("quire_checkpoint_interval", G, 0, U32_MAX, 300);
        INNODB_IO_CAPACITY = uint("innodb_io_capacity", G, 100, U64_MAX, 200);
        INNODB_LOCK_WAIT_TIMEOUT = uint("innodb_lock_wait_timeout", B, 1, 1_073_741_824, 50);
        INNODB_LOG_BUFFER_SIZE = uint("innodb_log_buffer_size", G, 262_144, U32_MAX, 16_777_216);
        INNODB_LOG_FILE_SIZE = uint("innodb_log_file_size", G, 4_194_304, U64_MAX, 50_331_648).ro();
        INNODB_PAGE_SIZE = uint("innodb_page_size", G, 4096, 65536, 16384).ro();
        INNODB_PRINT_ALL_DEADLOCKS = boolean("innodb_print_all_deadlocks", G, false);
        INNODB_READ_ONLY = boolean("innodb_read_only", G, false).ro();
        INNODB_ROLLBACK_ON_TIMEOUT = boolean("innodb_rollback_on_timeout", G, false).ro();
        INNODB_STATS_ON_METADATA = boolean("innodb_stats_on_metadata", G, false);
        INNODB_STRICT_MODE = boolean("innodb_strict_mode", B, true);
        INNODB_TABLE_LOCKS = boolean("innodb_table_locks", B, true);
        INNODB_THREAD_CONCURRENCY = uint("innodb_thread_concurrency", G, 0, 1000, 0);
        // The numeric part of `version`.
        INNODB_VERSION = string("innodb_version", G, "5.7.99").ro().no_cmdline();
    }
    aliases {
        TX_ISOLATION = TRANSACTION_ISOLATION, "tx_isolation";
        TX_READ_ONLY = TRANSACTION_READ_ONLY, "tx_read_only";
        IDENTITY = LAST_INSERT_ID, "identity";
        STORAGE_ENGINE = DEFAULT_STORAGE_ENGINE, "storage_engine";
        PSEUDO_SLAVE_MODE = PSEUDO_REPLICA_MODE, "pseudo_slave_mode";
        LOG_SLAVE_UPDATES = LOG_REPLICA_UPDATES, "log_slave_updates";
    }
}

// --- computed defaults ------------------------------------------------------------------

/// The machine's host name (`gethostname`), or "localhost" if it cannot be read.
pub fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: `buf` is writable for `buf.len()` bytes; gethostname writes at most that many.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    if rc != 0 {
        return "localhost".to_string();
    }
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let name = String::from_utf8_lossy(buf.get(..end).unwrap_or_default()).into_owned();
    if name.is_empty() {
        "localhost".to_string()
    } else {
        name
    }
}

/// The abbreviation of the system's local time zone now (e.g. "UTC", "CEST"), as mysqld
/// derives `system_time_zone` from `localtime_r(start time)`.
pub fn system_time_zone() -> String {
    // SAFETY: `time(NULL)` has no preconditions; `tm` is a plain C struct for which all-zero
    // bytes are a valid value; `localtime_r` writes only into `tm`; `tm_zone`, when not
    // null, points to a NUL-terminated static string owned by the C library.
    unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut tm).is_null() || tm.tm_zone.is_null() {
            return "UTC".to_string();
        }
        std::ffi::CStr::from_ptr(tm.tm_zone)
            .to_string_lossy()
            .into_owned()
    }
}

/// The installation directory: the parent of the directory holding the executable, with a
/// trailing slash, as mysqld shows `basedir`.
fn basedir() -> String {
    let dir = std::env::current_exe().ok().and_then(|exe| {
        exe.parent()
            .and_then(|bin| bin.parent())
            .map(|p| p.to_path_buf())
    });
    match dir {
        Some(d) => format!("{}/", d.display()),
        None => "/".to_string(),
    }
}

fn character_sets_dir() -> String {
    format!("{}share/charsets/", basedir())
}

fn plugin_dir() -> String {
    format!("{}lib/plugin/", basedir())
}

fn tmpdir() -> String {
    std::env::var("TMPDIR")
        .ok()
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "/tmp".to_string())
}

fn pid_file() -> String {
    format!("{}.pid", hostname())
}

fn general_log_file() -> String {
    format!("{}.log", hostname())
}

fn slow_query_log_file() -> String {
    format!("{}-slow.log", hostname())
}
