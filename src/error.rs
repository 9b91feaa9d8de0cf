//! Errors as the client sees them: a MySQL error number, a SQLSTATE and a message.
//!
//! Every layer reports failures that a client can cause as a [`MyError`]. Storage keeps its
//! own [`crate::storage::StorageError`] (which keeps the cause) and converts into this type
//! in exactly one place (`impl From<StorageError> for MyError`). The wire layer turns a
//! `MyError` into an ERR packet; nothing else formats error packets.
//!
//! The numbers and SQLSTATEs are MySQL 8.0's (`include/mysqld_error.h`), so clients and
//! drivers that match on them behave as they do against MySQL. Messages follow MySQL's
//! templates closely enough for humans and log parsers; drivers only look at the numbers.

use std::fmt;

/// A MySQL error: number, SQLSTATE, message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MyError {
    pub code: u16,
    pub state: &'static str,
    pub message: String,
}

pub type Result<T, E = MyError> = std::result::Result<T, E>;

impl fmt::Display for MyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ERROR {} ({}): {}", self.code, self.state, self.message)
    }
}

impl std::error::Error for MyError {}

/// Error numbers used by Quire, named as in MySQL's `mysqld_error.h`.
pub mod code {
    pub const ER_CON_COUNT_ERROR: u16 = 1040;
    pub const ER_HANDSHAKE_ERROR: u16 = 1043;
    pub const ER_DBACCESS_DENIED_ERROR: u16 = 1044;
    pub const ER_ACCESS_DENIED_ERROR: u16 = 1045;
    pub const ER_NO_DB_ERROR: u16 = 1046;
    pub const ER_UNKNOWN_COM_ERROR: u16 = 1047;
    pub const ER_BAD_NULL_ERROR: u16 = 1048;
    pub const ER_BAD_DB_ERROR: u16 = 1049;
    pub const ER_TABLE_EXISTS_ERROR: u16 = 1050;
    pub const ER_ERROR_ON_RENAME: u16 = 1025;
    pub const ER_BAD_TABLE_ERROR: u16 = 1051;
    pub const ER_NON_UNIQ_ERROR: u16 = 1052;
    pub const ER_SERVER_SHUTDOWN: u16 = 1053;
    pub const ER_ERROR_ON_WRITE: u16 = 1026;
    pub const ER_UNKNOWN_TARGET_BINLOG: u16 = 1373;
    pub const ER_FLUSH_MASTER_BINLOG_CLOSED: u16 = 1186;
    pub const ER_RESET_MASTER_TO_VALUE_OUT_OF_RANGE: u16 = 3471;
    pub const ER_LOG_IN_USE: u16 = 1378;
    pub const ER_NO_BINARY_LOGGING: u16 = 1381;
    pub const ER_WARN_PURGE_LOG_IN_USE: u16 = 1867;
    pub const ER_ERROR_WHEN_EXECUTING_COMMAND: u16 = 1220;
    pub const ER_BAD_FIELD_ERROR: u16 = 1054;
    pub const ER_WRONG_FIELD_WITH_GROUP: u16 = 1055;
    pub const ER_WRONG_GROUP_FIELD: u16 = 1056;
    pub const ER_WRONG_SUM_SELECT: u16 = 1057;
    pub const ER_WRONG_VALUE_COUNT: u16 = 1058;
    pub const ER_TOO_LONG_IDENT: u16 = 1059;
    pub const ER_DUP_FIELDNAME: u16 = 1060;
    pub const ER_DUP_KEYNAME: u16 = 1061;
    pub const ER_DUP_ENTRY: u16 = 1062;
    pub const ER_WRONG_FIELD_SPEC: u16 = 1063;
    pub const ER_PARSE_ERROR: u16 = 1064;
    pub const ER_EMPTY_QUERY: u16 = 1065;
    pub const ER_NONUNIQ_TABLE: u16 = 1066;
    pub const ER_INVALID_DEFAULT: u16 = 1067;
    pub const ER_MULTIPLE_PRI_KEY: u16 = 1068;
    pub const ER_TOO_MANY_KEYS: u16 = 1069;
    pub const ER_TOO_MANY_KEY_PARTS: u16 = 1070;
    pub const ER_TOO_LONG_KEY: u16 = 1071;
    pub const ER_KEY_COLUMN_DOES_NOT_EXITS: u16 = 1072;
    pub const ER_BLOB_USED_AS_KEY: u16 = 1073;
    pub const ER_TOO_BIG_FIELDLENGTH: u16 = 1074;
    pub const ER_WRONG_AUTO_KEY: u16 = 1075;
    pub const ER_WRONG_SUB_KEY: u16 = 1089;
    pub const ER_CANT_REMOVE_ALL_FIELDS: u16 = 1090;
    pub const ER_CANT_DROP_FIELD_OR_KEY: u16 = 1091;
    pub const ER_BLOB_CANT_HAVE_DEFAULT: u16 = 1101;
    pub const ER_TOO_MANY_FIELDS: u16 = 1117;
    pub const ER_WRONG_NAME_FOR_INDEX: u16 = 1280;
    pub const ER_INVALID_ON_UPDATE: u16 = 1294;
    pub const ER_INSERT_INFO: u16 = 1092;
    pub const ER_NO_SUCH_THREAD: u16 = 1094;
    pub const ER_KILL_DENIED_ERROR: u16 = 1095;
    pub const ER_NO_TABLES_USED: u16 = 1096;
    pub const ER_WRONG_DB_NAME: u16 = 1102;
    pub const ER_WRONG_TABLE_NAME: u16 = 1103;
    pub const ER_UNKNOWN_PROCEDURE: u16 = 1106;
    pub const ER_UNKNOWN_TABLE: u16 = 1109;
    pub const ER_FIELD_SPECIFIED_TWICE: u16 = 1110;
    pub const ER_INVALID_GROUP_FUNC_USE: u16 = 1111;
    pub const ER_TABLE_MUST_HAVE_COLUMNS: u16 = 1113;
    pub const ER_UNKNOWN_CHARACTER_SET: u16 = 1115;
    pub const ER_TOO_BIG_ROWSIZE: u16 = 1118;
    pub const ER_WRONG_OUTER_JOIN: u16 = 1120;
    pub const ER_NULL_COLUMN_IN_INDEX: u16 = 1121;
    pub const ER_PASSWORD_NO_MATCH: u16 = 1133;
    pub const ER_WRONG_VALUE_COUNT_ON_ROW: u16 = 1136;
    pub const ER_CANT_REOPEN_TABLE: u16 = 1137;
    pub const ER_INVALID_USE_OF_NULL: u16 = 1138;
    pub const ER_MIX_OF_GROUP_FUNC_AND_FIELDS: u16 = 1140;
    pub const ER_NONEXISTING_GRANT: u16 = 1141;
    pub const ER_TABLEACCESS_DENIED_ERROR: u16 = 1142;
    pub const ER_COLUMNACCESS_DENIED_ERROR: u16 = 1143;
    pub const ER_ILLEGAL_GRANT_FOR_TABLE: u16 = 1144;
    pub const ER_NO_SUCH_TABLE: u16 = 1146;
    pub const ER_NOT_ALLOWED_COMMAND: u16 = 1148;
    pub const ER_SYNTAX_ERROR: u16 = 1149;
    pub const ER_ABORTING_CONNECTION: u16 = 1152;
    pub const ER_NET_PACKET_TOO_LARGE: u16 = 1153;
    pub const ER_NET_READ_ERROR_FROM_PIPE: u16 = 1154;
    pub const ER_NET_FCNTL_ERROR: u16 = 1155;
    pub const ER_NET_PACKETS_OUT_OF_ORDER: u16 = 1156;
    pub const ER_NET_UNCOMPRESS_ERROR: u16 = 1157;
    pub const ER_NET_READ_ERROR: u16 = 1158;
    pub const ER_NET_READ_INTERRUPTED: u16 = 1159;
    pub const ER_NET_ERROR_ON_WRITE: u16 = 1160;
    pub const ER_NET_WRITE_INTERRUPTED: u16 = 1161;
    pub const ER_TOO_LONG_STRING: u16 = 1162;
    pub const ER_TABLE_CANT_HANDLE_BLOB: u16 = 1163;
    pub const ER_TABLE_CANT_HANDLE_AUTO_INCREMENT: u16 = 1164;
    pub const ER_WRONG_COLUMN_NAME: u16 = 1166;
    pub const ER_WRONG_KEY_COLUMN: u16 = 1167;
    pub const ER_DUP_UNIQUE: u16 = 1169;
    pub const ER_BLOB_KEY_WITHOUT_LENGTH: u16 = 1170;
    pub const ER_PRIMARY_CANT_HAVE_NULL: u16 = 1171;
    pub const ER_TOO_MANY_ROWS: u16 = 1172;
    pub const ER_SP_FETCH_NO_DATA: u16 = 1329;
    pub const ER_REQUIRES_PRIMARY_KEY: u16 = 1173;
    pub const ER_KEY_DOES_NOT_EXITS: u16 = 1176;
    pub const ER_CHECK_NO_SUCH_TABLE: u16 = 1177;
    pub const ER_CHECK_NOT_IMPLEMENTED: u16 = 1178;
    pub const ER_CANT_DO_THIS_DURING_AN_TRANSACTION: u16 = 1179;
    pub const ER_ERROR_DURING_COMMIT: u16 = 1180;
    pub const ER_ERROR_DURING_ROLLBACK: u16 = 1181;
    pub const ER_NEW_ABORTING_CONNECTION: u16 = 1184;
    pub const ER_LOCK_OR_ACTIVE_TRANSACTION: u16 = 1192;
    pub const ER_UNKNOWN_SYSTEM_VARIABLE: u16 = 1193;
    pub const ER_TRANS_CACHE_FULL: u16 = 1197;
    pub const ER_LOCK_WAIT_TIMEOUT: u16 = 1205;
    pub const ER_READ_ONLY_TRANSACTION: u16 = 1207;
    pub const ER_WRONG_ARGUMENTS: u16 = 1210;
    pub const ER_LOCK_DEADLOCK: u16 = 1213;
    pub const ER_TABLE_CANT_HANDLE_FT: u16 = 1214;
    pub const ER_CANNOT_ADD_FOREIGN: u16 = 1215;
    pub const ER_NO_REFERENCED_ROW: u16 = 1216;
    pub const ER_ROW_IS_REFERENCED: u16 = 1217;
    pub const ER_WRONG_USAGE: u16 = 1221;
    pub const ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT: u16 = 1222;
    pub const ER_CANT_UPDATE_WITH_READLOCK: u16 = 1223;
    pub const ER_DUP_ARGUMENT: u16 = 1225;
    pub const ER_USER_LIMIT_REACHED: u16 = 1226;
    pub const ER_SPECIFIC_ACCESS_DENIED_ERROR: u16 = 1227;
    pub const ER_LOCAL_VARIABLE: u16 = 1228;
    pub const ER_GLOBAL_VARIABLE: u16 = 1229;
    pub const ER_NO_DEFAULT: u16 = 1230;
    pub const ER_WRONG_VALUE_FOR_VAR: u16 = 1231;
    pub const ER_WRONG_TYPE_FOR_VAR: u16 = 1232;
    pub const ER_VAR_CANT_BE_READ: u16 = 1233;
    pub const ER_CANT_USE_OPTION_HERE: u16 = 1234;
    pub const ER_NOT_SUPPORTED_YET: u16 = 1235;
    pub const ER_INCORRECT_GLOBAL_LOCAL_VAR: u16 = 1238;
    pub const ER_WRONG_FK_DEF: u16 = 1239;
    pub const ER_OPERAND_COLUMNS: u16 = 1241;
    pub const ER_SUBQUERY_NO_1_ROW: u16 = 1242;
    pub const ER_UNKNOWN_STMT_HANDLER: u16 = 1243;
    pub const ER_ILLEGAL_REFERENCE: u16 = 1247;
    pub const ER_DERIVED_MUST_HAVE_ALIAS: u16 = 1248;
    pub const ER_SELECT_REDUCED: u16 = 1249;
    pub const ER_TABLENAME_NOT_ALLOWED_HERE: u16 = 1250;
    pub const ER_NOT_SUPPORTED_AUTH_MODE: u16 = 1251;
    pub const ER_WARN_TOO_FEW_RECORDS: u16 = 1261;
    pub const ER_NO_DEFAULT_FOR_FIELD: u16 = 1364;
    pub const ER_WARN_TOO_MANY_RECORDS: u16 = 1262;
    pub const ER_WARN_NULL_TO_NOTNULL: u16 = 1263;
    pub const ER_WARN_DATA_OUT_OF_RANGE: u16 = 1264;
    pub const WARN_DATA_TRUNCATED: u16 = 1265;
    pub const ER_WRONG_PERFSCHEMA_USAGE: u16 = 1683;
    pub const ER_CANT_AGGREGATE_2COLLATIONS: u16 = 1267;
    pub const ER_BAD_FT_COLUMN: u16 = 1283;
    pub const ER_UNKNOWN_KEY_CACHE: u16 = 1284;
    pub const ER_UNKNOWN_STORAGE_ENGINE: u16 = 1286;
    pub const ER_WARN_DEPRECATED_SYNTAX: u16 = 1287;
    pub const ER_NON_UPDATABLE_TABLE: u16 = 1288;
    pub const ER_FEATURE_DISABLED: u16 = 1289;
    pub const ER_OPTION_PREVENTS_STATEMENT: u16 = 1290;
    pub const ER_DUPLICATED_VALUE_IN_TYPE: u16 = 1291;
    pub const ER_TRUNCATED_WRONG_VALUE: u16 = 1292;
    pub const ER_UNSUPPORTED_PS: u16 = 1295;
    pub const ER_UNKNOWN_TIME_ZONE: u16 = 1298;
    pub const ER_INVALID_CHARACTER_STRING: u16 = 1300;
    pub const ER_WARN_ALLOWED_PACKET_OVERFLOWED: u16 = 1301;
    pub const ER_SP_DOES_NOT_EXIST: u16 = 1305;
    pub const ER_QUERY_INTERRUPTED: u16 = 1317;
    pub const ER_SP_WRONG_NO_OF_ARGS: u16 = 1318;
    pub const ER_DIVISION_BY_ZERO: u16 = 1365;
    pub const ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: u16 = 1366;
    pub const ER_ILLEGAL_VALUE_FOR_TYPE: u16 = 1367;
    pub const ER_CANNOT_USER: u16 = 1396;
    pub const ER_NON_INSERTABLE_TABLE: u16 = 1471;
    pub const ER_WRONG_OBJECT: u16 = 1347;
    pub const ER_NONUPDATEABLE_COLUMN: u16 = 1348;
    pub const ER_VIEW_SELECT_VARIABLE: u16 = 1351;
    pub const ER_VIEW_SELECT_TMPTABLE: u16 = 1352;
    pub const ER_VIEW_WRONG_LIST: u16 = 1353;
    pub const ER_VIEW_INVALID: u16 = 1356;
    pub const ER_VIEW_CHECK_FAILED: u16 = 1369;
    pub const ER_VIEW_MULTIUPDATE: u16 = 1393;
    pub const ER_VIEW_NO_INSERT_FIELD_LIST: u16 = 1394;
    pub const ER_VIEW_DELETE_MERGE_VIEW: u16 = 1395;
    pub const ER_VIEW_RECURSIVE: u16 = 1462;
    pub const ER_FORBID_SCHEMA_CHANGE: u16 = 1450;
    pub const ER_WRONG_STRING_LENGTH: u16 = 1470;
    pub const ER_TOO_BIG_SCALE: u16 = 1425;
    pub const ER_TOO_BIG_PRECISION: u16 = 1426;
    pub const ER_M_BIGGER_THAN_D: u16 = 1427;
    pub const ER_WRONG_LOCK_OF_SYSTEM_TABLE: u16 = 1428;
    pub const ER_TOO_LONG_BODY: u16 = 1437;
    pub const ER_DATETIME_FUNCTION_OVERFLOW: u16 = 1441;
    pub const ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT: u16 = 1582;
    pub const ER_WRONG_PARAMETERS_TO_NATIVE_FCT: u16 = 1583;
    pub const ER_DUP_ENTRY_WITH_KEY_NAME: u16 = 1586;
    pub const ER_BINLOG_LOGGING_IMPOSSIBLE: u16 = 1598;
    pub const ER_AUTOINC_READ_FAILED: u16 = 1467;
    pub const ER_DATA_TOO_LONG: u16 = 1406;
    pub const ER_WRONG_VALUE: u16 = 1525;
    pub const ER_NO_SUCH_USER: u16 = 1449;
    pub const ER_PLUGIN_IS_NOT_LOADED: u16 = 1524;
    pub const ER_TRUNCATE_ILLEGAL_FK: u16 = 1701;
    pub const ER_ROW_IS_REFERENCED_2: u16 = 1451;
    pub const ER_NO_REFERENCED_ROW_2: u16 = 1452;
    pub const ER_DROP_INDEX_FK: u16 = 1553;
    pub const ER_FK_DEPTH_EXCEEDED: u16 = 3008;
    pub const ER_FK_CANNOT_OPEN_PARENT: u16 = 1824;
    pub const ER_FK_NO_INDEX_PARENT: u16 = 1822;
    pub const ER_FK_DUP_NAME: u16 = 1826;
    pub const ER_FK_COLUMN_CANNOT_DROP: u16 = 1828;
    pub const ER_FK_COLUMN_CANNOT_DROP_CHILD: u16 = 1829;
    pub const ER_FK_COLUMN_NOT_NULL: u16 = 1830;
    pub const ER_FK_CANNOT_DROP_PARENT: u16 = 3730;
    pub const ER_FK_NO_COLUMN_PARENT: u16 = 3734;
    pub const ER_FK_INCOMPATIBLE_COLUMNS: u16 = 3780;
    pub const ER_UNKNOWN_ERROR: u16 = 1105;
    pub const ER_OUT_OF_RESOURCES: u16 = 1041;
    pub const ER_OUTOFMEMORY: u16 = 1037;
    pub const ER_DATA_OUT_OF_RANGE: u16 = 1690;
    pub const ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION: u16 = 1792;
    pub const ER_LOCK_NOWAIT: u16 = 3572;
    pub const ER_MALFORMED_PACKET: u16 = 1835;
    pub const ER_MAX_PREPARED_STMT_COUNT_REACHED: u16 = 1461;
    pub const ER_TABLE_DEF_CHANGED: u16 = 1412;
    pub const ER_INNODB_READ_ONLY: u16 = 1874;
    pub const ER_FT_MATCHING_KEY_NOT_FOUND: u16 = 1191;
    pub const ER_INVALID_JSON_TEXT: u16 = 3140;
    pub const ER_USER_ALREADY_EXISTS: u16 = 3163;
    pub const ER_MUST_CHANGE_PASSWORD: u16 = 1820;
    pub const ER_WRONG_VALUE_FOR_TYPE: u16 = 1411;
    pub const ER_INCORRECT_TYPE: u16 = 3064;
    pub const ER_UNKNOWN_COLLATION: u16 = 1273;
    pub const ER_COLLATION_CHARSET_MISMATCH: u16 = 1253;
    pub const ER_SP_NOT_VAR_ARG: u16 = 1327;
    pub const ER_NET_PACKET_TOO_LARGE_CLIENT: u16 = 2020;
    pub const ER_GET_ERRNO: u16 = 1030;
    pub const ER_CANT_LOCK_LOG_TABLE: u16 = 1556;
}

/// SQLSTATE for a MySQL error number, as in MySQL's `sql_state.h`.
/// Errors not listed map to the generic "HY000".
pub fn sqlstate(code: u16) -> &'static str {
    use code::*;
    match code {
        ER_CON_COUNT_ERROR => "08004",
        ER_HANDSHAKE_ERROR
        | ER_NET_READ_ERROR
        | ER_NET_READ_INTERRUPTED
        | ER_NET_ERROR_ON_WRITE
        | ER_NET_WRITE_INTERRUPTED
        | ER_NET_PACKETS_OUT_OF_ORDER
        | ER_NET_UNCOMPRESS_ERROR
        | ER_NET_PACKET_TOO_LARGE
        | ER_ABORTING_CONNECTION
        | ER_NEW_ABORTING_CONNECTION => "08S01",
        ER_DBACCESS_DENIED_ERROR
        | ER_TABLEACCESS_DENIED_ERROR
        | ER_COLUMNACCESS_DENIED_ERROR
        | ER_SPECIFIC_ACCESS_DENIED_ERROR
        | ER_KILL_DENIED_ERROR => "42000",
        ER_ACCESS_DENIED_ERROR => "28000",
        ER_NO_DB_ERROR => "3D000",
        ER_UNKNOWN_COM_ERROR => "08S01",
        ER_BAD_NULL_ERROR => "23000",
        ER_BAD_DB_ERROR => "42000",
        ER_TABLE_EXISTS_ERROR => "42S01",
        ER_BAD_TABLE_ERROR => "42S02",
        ER_NON_UNIQ_ERROR => "23000",
        ER_SERVER_SHUTDOWN => "08S01",
        ER_BAD_FIELD_ERROR => "42S22",
        ER_WRONG_FIELD_WITH_GROUP | ER_WRONG_GROUP_FIELD | ER_WRONG_SUM_SELECT => "42000",
        ER_WRONG_VALUE_COUNT => "21S01",
        ER_TOO_LONG_IDENT => "42000",
        ER_DUP_FIELDNAME => "42S21",
        ER_DUP_KEYNAME => "42000",
        ER_DUP_ENTRY | ER_DUP_ENTRY_WITH_KEY_NAME | ER_DUP_UNIQUE => "23000",
        ER_WRONG_FIELD_SPEC | ER_PARSE_ERROR | ER_SYNTAX_ERROR => "42000",
        ER_EMPTY_QUERY => "42000",
        ER_NONUNIQ_TABLE => "42000",
        ER_INVALID_DEFAULT => "42000",
        ER_MULTIPLE_PRI_KEY | ER_TOO_MANY_KEYS | ER_TOO_MANY_KEY_PARTS | ER_TOO_LONG_KEY => "42000",
        ER_KEY_COLUMN_DOES_NOT_EXITS | ER_BLOB_USED_AS_KEY | ER_TOO_BIG_FIELDLENGTH => "42000",
        ER_WRONG_AUTO_KEY => "42000",
        ER_CANT_DROP_FIELD_OR_KEY => "42000",
        ER_WRONG_DB_NAME | ER_WRONG_TABLE_NAME => "42000",
        ER_UNKNOWN_TABLE => "42S02",
        ER_FIELD_SPECIFIED_TWICE => "42000",
        ER_INVALID_GROUP_FUNC_USE => "HY000",
        ER_TABLE_MUST_HAVE_COLUMNS => "42000",
        ER_UNKNOWN_CHARACTER_SET => "42000",
        ER_TOO_BIG_ROWSIZE => "42000",
        ER_WRONG_OUTER_JOIN => "42000",
        ER_NULL_COLUMN_IN_INDEX => "42000",
        ER_WRONG_VALUE_COUNT_ON_ROW => "21S01",
        ER_INVALID_USE_OF_NULL => "22004",
        ER_MIX_OF_GROUP_FUNC_AND_FIELDS => "42000",
        ER_NONEXISTING_GRANT => "42000",
        ER_NO_SUCH_TABLE => "42S02",
        ER_NOT_ALLOWED_COMMAND => "42000",
        ER_TOO_LONG_STRING => "42000",
        ER_WRONG_COLUMN_NAME => "42000",
        ER_WRONG_KEY_COLUMN => "42000",
        ER_BLOB_KEY_WITHOUT_LENGTH => "42000",
        ER_PRIMARY_CANT_HAVE_NULL => "42000",
        ER_TOO_MANY_ROWS => "42000",
        ER_REQUIRES_PRIMARY_KEY => "42000",
        ER_KEY_DOES_NOT_EXITS => "42000",
        ER_CHECK_NO_SUCH_TABLE => "42000",
        ER_CHECK_NOT_IMPLEMENTED => "42000",
        ER_CANT_DO_THIS_DURING_AN_TRANSACTION => "25000",
        ER_LOCK_OR_ACTIVE_TRANSACTION => "HY000",
        ER_UNKNOWN_SYSTEM_VARIABLE => "HY000",
        ER_LOCK_WAIT_TIMEOUT => "HY000",
        ER_READ_ONLY_TRANSACTION => "25000",
        ER_LOCK_DEADLOCK => "40001",
        ER_NO_REFERENCED_ROW | ER_ROW_IS_REFERENCED => "23000",
        ER_NO_REFERENCED_ROW_2 | ER_ROW_IS_REFERENCED_2 | ER_FK_DUP_NAME => "23000",
        ER_TRUNCATE_ILLEGAL_FK | ER_WRONG_FK_DEF => "42000",
        ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT => "21000",
        ER_WRONG_VALUE_FOR_VAR | ER_WRONG_TYPE_FOR_VAR => "42000",
        ER_VAR_CANT_BE_READ => "HY000",
        ER_CANT_USE_OPTION_HERE => "42000",
        ER_NOT_SUPPORTED_YET => "42000",
        ER_OPERAND_COLUMNS => "21000",
        ER_SUBQUERY_NO_1_ROW => "21000",
        ER_ILLEGAL_REFERENCE => "42S22",
        ER_DERIVED_MUST_HAVE_ALIAS => "42000",
        ER_TABLENAME_NOT_ALLOWED_HERE => "42000",
        ER_NOT_SUPPORTED_AUTH_MODE => "08004",
        ER_WARN_TOO_FEW_RECORDS | ER_WARN_TOO_MANY_RECORDS => "01000",
        ER_WARN_NULL_TO_NOTNULL => "22004",
        ER_WARN_DATA_OUT_OF_RANGE => "22003",
        WARN_DATA_TRUNCATED => "01000",
        ER_CANT_AGGREGATE_2COLLATIONS => "HY000",
        ER_UNKNOWN_STORAGE_ENGINE => "42000",
        ER_TRUNCATED_WRONG_VALUE => "22007",
        ER_UNSUPPORTED_PS => "HY000",
        ER_QUERY_INTERRUPTED => "70100",
        ER_DIVISION_BY_ZERO => "22012",
        ER_TRUNCATED_WRONG_VALUE_FOR_FIELD => "HY000",
        ER_DATA_TOO_LONG => "22001",
        ER_DATA_OUT_OF_RANGE => "22003",
        ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION => "25006",
        ER_TOO_BIG_SCALE | ER_TOO_BIG_PRECISION | ER_M_BIGGER_THAN_D => "42000",
        ER_INVALID_JSON_TEXT => "22032",
        1568 => "25001",
        ER_UNKNOWN_COLLATION => "HY000",
        ER_COLLATION_CHARSET_MISMATCH => "42000",
        ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT | ER_WRONG_PARAMETERS_TO_NATIVE_FCT => "42000",
        ER_SP_DOES_NOT_EXIST => "42000",
        ER_UNKNOWN_STMT_HANDLER => "HY000",
        ER_LOCK_NOWAIT => "HY000",
        ER_NO_SUCH_THREAD => "HY000",
        _ => "HY000",
    }
}

impl MyError {
    /// An error with MySQL's SQLSTATE for `code`.
    pub fn new(code: u16, message: impl Into<String>) -> MyError {
        MyError {
            code,
            state: sqlstate(code),
            message: message.into(),
        }
    }

    pub fn parse(near: &str, line: usize) -> MyError {
        let near: String = near.chars().take(80).collect();
        MyError::new(
            code::ER_PARSE_ERROR,
            format!(
                "You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '{near}' at line {line}"
            ),
        )
    }

    pub fn not_supported(what: impl fmt::Display) -> MyError {
        MyError::new(
            code::ER_NOT_SUPPORTED_YET,
            format!("This version of Quire doesn't yet support '{what}'"),
        )
    }

    pub fn internal(what: impl fmt::Display) -> MyError {
        MyError::new(code::ER_UNKNOWN_ERROR, what.to_string())
    }

    /// A file behind a table could not be read or written (1030, as MySQL reports an
    /// engine's I/O error).
    pub fn storage_io(e: &std::io::Error) -> MyError {
        MyError::new(
            code::ER_GET_ERRNO,
            format!(
                "Got error {} '{e}' from storage engine",
                e.raw_os_error().unwrap_or(0)
            ),
        )
    }

    pub fn no_db() -> MyError {
        MyError::new(code::ER_NO_DB_ERROR, "No database selected")
    }

    pub fn bad_db(db: &str) -> MyError {
        MyError::new(code::ER_BAD_DB_ERROR, format!("Unknown database '{db}'"))
    }

    pub fn no_such_table(db: &str, table: &str) -> MyError {
        MyError::new(
            code::ER_NO_SUCH_TABLE,
            format!("Table '{db}.{table}' doesn't exist"),
        )
    }

    pub fn table_exists(table: &str) -> MyError {
        MyError::new(
            code::ER_TABLE_EXISTS_ERROR,
            format!("Table '{table}' already exists"),
        )
    }

    pub fn bad_field(col: &str, context: &str) -> MyError {
        MyError::new(
            code::ER_BAD_FIELD_ERROR,
            format!("Unknown column '{col}' in '{context}'"),
        )
    }

    pub fn unknown_sysvar(name: &str) -> MyError {
        MyError::new(
            code::ER_UNKNOWN_SYSTEM_VARIABLE,
            format!("Unknown system variable '{name}'"),
        )
    }

    pub fn wrong_value_for_var(var: &str, value: &str) -> MyError {
        MyError::new(
            code::ER_WRONG_VALUE_FOR_VAR,
            format!("Variable '{var}' can't be set to the value of '{value}'"),
        )
    }

    pub fn query_interrupted() -> MyError {
        MyError::new(
            code::ER_QUERY_INTERRUPTED,
            "Query execution was interrupted",
        )
    }

    pub fn is_deadlock_or_timeout(&self) -> bool {
        self.code == code::ER_LOCK_DEADLOCK || self.code == code::ER_LOCK_WAIT_TIMEOUT
    }
}

/// `bail!(CODE, "fmt", args)` returns early with a [`MyError`].
#[macro_export]
macro_rules! bail {
    ($code:expr, $($arg:tt)*) => {
        return Err($crate::error::MyError::new($code, format!($($arg)*)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlstates_match_mysql() {
        assert_eq!(MyError::new(code::ER_DUP_ENTRY, "x").state, "23000");
        assert_eq!(MyError::new(code::ER_LOCK_DEADLOCK, "x").state, "40001");
        assert_eq!(MyError::new(code::ER_PARSE_ERROR, "x").state, "42000");
        assert_eq!(MyError::new(code::ER_NO_SUCH_TABLE, "x").state, "42S02");
        assert_eq!(
            MyError::new(code::ER_ACCESS_DENIED_ERROR, "x").state,
            "28000"
        );
        assert_eq!(MyError::new(9999, "x").state, "HY000");
    }
}

/// Severity of a diagnostic, as `SHOW WARNINGS` prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Note,
    Warning,
    Error,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Note => "Note",
            Level::Warning => "Warning",
            Level::Error => "Error",
        }
    }
}

/// One entry of the diagnostics area (`SHOW WARNINGS`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub level: Level,
    pub code: u16,
    pub message: String,
}

/// The diagnostics area of one statement: warnings and notes, bounded by `max_error_count`
/// (entries beyond it are counted, not kept, as in MySQL).
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    pub list: Vec<Warning>,
    /// Every condition raised, including those not kept (`@@warning_count`).
    pub total: u32,
    /// 0 means the default of 64.
    pub max_kept: u32,
    /// Of `total`, the conditions carried over from the previous statement by a
    /// diagnostics statement (SHOW WARNINGS, `SELECT @@warning_count`).
    pub inherited: u32,
}

impl Diagnostics {
    pub const DEFAULT_MAX: u32 = 64;

    pub fn push(&mut self, level: Level, code: u16, message: impl Into<String>) {
        self.total = self.total.saturating_add(1);
        let max = if self.max_kept == 0 {
            Self::DEFAULT_MAX
        } else {
            self.max_kept
        };
        if (self.list.len() as u32) < max {
            self.list.push(Warning {
                level,
                code,
                message: message.into(),
            });
        }
    }

    pub fn warn(&mut self, code: u16, message: impl Into<String>) {
        self.push(Level::Warning, code, message)
    }

    pub fn note(&mut self, code: u16, message: impl Into<String>) {
        self.push(Level::Note, code, message)
    }

    pub fn clear(&mut self) {
        self.list.clear();
        self.total = 0;
        self.inherited = 0;
    }

    /// Keep the previous statement's conditions for a diagnostics statement to read; its
    /// own count ([`Self::own_count`]) starts at 0.
    pub fn inherit(&mut self) {
        self.inherited = self.total;
    }

    /// The conditions this statement raised: the warning count of its OK or EOF packet.
    pub fn own_count(&self) -> u16 {
        self.total
            .saturating_sub(self.inherited)
            .min(u16::MAX as u32) as u16
    }

    pub fn warning_count(&self) -> u16 {
        self.total.min(u16::MAX as u32) as u16
    }
}
