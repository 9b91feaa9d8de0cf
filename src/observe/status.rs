//! Status counters: the per-session half of `SHOW [GLOBAL|SESSION] STATUS`.
//!
//! Each session keeps its counters in its own [`SessionStatus`] (in `SessionShared`), bumped
//! by the session's task only — a load and a store on the session's own cache lines, no
//! lock-prefixed instruction and no line shared with other sessions. A statement's handler
//! reads are first counted in its [`StmtRecord`](super::StmtRecord) ([`Reads`]) and folded
//! in when it ends, with its `Com_*` counter and its plan's `Select_*`/`Sort_*` figures.
//!
//! `SHOW SESSION STATUS` reads the session's own values. `SHOW GLOBAL STATUS` adds the
//! counters of every live session to those of the sessions that ended ([`Retired`]), as
//! MySQL sums its threads' `status_var`. `FLUSH STATUS` adds the session's values to the
//! retired ones and zeroes them, so global totals stay whole.
//!
//! How Quire counts, next to MySQL with InnoDB (checked against MariaDB 10.11):
//! - `Handler_read_first`/`_last`: a scan of a whole table (forward/backward) begins;
//!   `Handler_read_next`/`_prev`: each further step of a scan or an index range, the one
//!   that finds the end included; `Handler_read_key`: a point lookup or the start of an
//!   index range. A scan of 10 rows is first 1, next 10; `id BETWEEN 2 AND 5` is key 1,
//!   next 4; a primary key lookup is key 1. (MySQL's `Handler_read_rnd_next` counts scans
//!   of tables without a usable index; Quire's tables are always in primary key order.)
//! - `Handler_write`/`_update`/`_delete` and `Innodb_rows_inserted`/`_updated`/`_deleted`:
//!   rows inserted, changed and deleted (from the statement's affected rows);
//!   `Innodb_rows_read`: rows examined.
//! - `Handler_commit`: each commit (an autocommit statement's included, reads too);
//!   `Handler_rollback`: each rollback.
//! - `Select_scan`/`Select_range`: a query block whose first table is scanned/read by
//!   range; `Select_full_join`/`Select_full_range_join`: a later table of a join read so.
//!   `Sort_scan`/`Sort_range`: a sort after such a first table; `Sort_rows`: rows sorted.
//!   `Created_tmp_tables`: derived tables, grouping, DISTINCT and UNION (Quire keeps them in
//!   memory: `Created_tmp_disk_tables` stays 0).

use crate::sql::lexer::{ObjectKind, StatementKind};
use std::sync::atomic::{AtomicU64, Ordering};

macro_rules! stats {
    ($($id:ident = $name:literal,)*) => {
        /// A per-session status counter.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u16)]
        pub enum Stat { $($id,)* }

        /// The counters' names, in [`Stat`] order.
        pub const NAMES: &[&str] = &[$($name,)*];
    };
}

stats! {
    BytesReceived = "Bytes_received",
    BytesSent = "Bytes_sent",
    ComAdminCommands = "Com_admin_commands",
    ComAlterDb = "Com_alter_db",
    ComAlterEvent = "Com_alter_event",
    ComAlterFunction = "Com_alter_function",
    ComAlterProcedure = "Com_alter_procedure",
    ComAlterServer = "Com_alter_server",
    ComAlterTable = "Com_alter_table",
    ComAlterTablespace = "Com_alter_tablespace",
    ComAlterUser = "Com_alter_user",
    ComAnalyze = "Com_analyze",
    ComBegin = "Com_begin",
    ComBinlog = "Com_binlog",
    ComCallProcedure = "Com_call_procedure",
    ComChangeDb = "Com_change_db",
    ComChangeMaster = "Com_change_master",
    ComCheck = "Com_check",
    ComChecksum = "Com_checksum",
    ComClone = "Com_clone",
    ComCommit = "Com_commit",
    ComCreateDb = "Com_create_db",
    ComCreateEvent = "Com_create_event",
    ComCreateFunction = "Com_create_function",
    ComCreateIndex = "Com_create_index",
    ComCreateProcedure = "Com_create_procedure",
    ComCreateRole = "Com_create_role",
    ComCreateServer = "Com_create_server",
    ComCreateTable = "Com_create_table",
    ComCreateTrigger = "Com_create_trigger",
    ComCreateUser = "Com_create_user",
    ComCreateView = "Com_create_view",
    ComDeallocSql = "Com_dealloc_sql",
    ComDelete = "Com_delete",
    ComDeleteMulti = "Com_delete_multi",
    ComDo = "Com_do",
    ComDropDb = "Com_drop_db",
    ComDropEvent = "Com_drop_event",
    ComDropFunction = "Com_drop_function",
    ComDropIndex = "Com_drop_index",
    ComDropProcedure = "Com_drop_procedure",
    ComDropRole = "Com_drop_role",
    ComDropServer = "Com_drop_server",
    ComDropTable = "Com_drop_table",
    ComDropTrigger = "Com_drop_trigger",
    ComDropUser = "Com_drop_user",
    ComDropView = "Com_drop_view",
    ComEmptyQuery = "Com_empty_query",
    ComExecuteSql = "Com_execute_sql",
    ComExplainOther = "Com_explain_other",
    ComFlush = "Com_flush",
    ComGetDiagnostics = "Com_get_diagnostics",
    ComGrant = "Com_grant",
    ComHaClose = "Com_ha_close",
    ComHaOpen = "Com_ha_open",
    ComHaRead = "Com_ha_read",
    ComHelp = "Com_help",
    ComImport = "Com_import",
    ComInsert = "Com_insert",
    ComInsertSelect = "Com_insert_select",
    ComInstallPlugin = "Com_install_plugin",
    ComKill = "Com_kill",
    ComLoad = "Com_load",
    ComLockTables = "Com_lock_tables",
    ComOptimize = "Com_optimize",
    ComPrepareSql = "Com_prepare_sql",
    ComPurge = "Com_purge",
    ComPurgeBeforeDate = "Com_purge_before_date",
    ComReleaseSavepoint = "Com_release_savepoint",
    ComRenameTable = "Com_rename_table",
    ComRenameUser = "Com_rename_user",
    ComRepair = "Com_repair",
    ComReplace = "Com_replace",
    ComReplaceSelect = "Com_replace_select",
    ComReplicaStart = "Com_replica_start",
    ComReplicaStop = "Com_replica_stop",
    ComReset = "Com_reset",
    ComResignal = "Com_resignal",
    ComRestart = "Com_restart",
    ComRevoke = "Com_revoke",
    ComRollback = "Com_rollback",
    ComRollbackToSavepoint = "Com_rollback_to_savepoint",
    ComSavepoint = "Com_savepoint",
    ComSelect = "Com_select",
    ComSetOption = "Com_set_option",
    ComSetPassword = "Com_set_password",
    ComSetRole = "Com_set_role",
    ComShowBinlogEvents = "Com_show_binlog_events",
    ComShowBinlogs = "Com_show_binlogs",
    ComShowCharsets = "Com_show_charsets",
    ComShowCollations = "Com_show_collations",
    ComShowCreateDb = "Com_show_create_db",
    ComShowCreateTable = "Com_show_create_table",
    ComShowCreateUser = "Com_show_create_user",
    ComShowDatabases = "Com_show_databases",
    ComShowEngineStatus = "Com_show_engine_status",
    ComShowErrors = "Com_show_errors",
    ComShowEvents = "Com_show_events",
    ComShowFields = "Com_show_fields",
    ComShowFunctionStatus = "Com_show_function_status",
    ComShowGrants = "Com_show_grants",
    ComShowKeys = "Com_show_keys",
    ComShowMasterStatus = "Com_show_master_status",
    ComShowOpenTables = "Com_show_open_tables",
    ComShowPlugins = "Com_show_plugins",
    ComShowPrivileges = "Com_show_privileges",
    ComShowProcedureStatus = "Com_show_procedure_status",
    ComShowProcesslist = "Com_show_processlist",
    ComShowProfile = "Com_show_profile",
    ComShowProfiles = "Com_show_profiles",
    ComShowStatus = "Com_show_status",
    ComShowStorageEngines = "Com_show_storage_engines",
    ComShowTableStatus = "Com_show_table_status",
    ComShowTables = "Com_show_tables",
    ComShowTriggers = "Com_show_triggers",
    ComShowVariables = "Com_show_variables",
    ComShowWarnings = "Com_show_warnings",
    ComShutdown = "Com_shutdown",
    ComSignal = "Com_signal",
    ComStmtClose = "Com_stmt_close",
    ComStmtExecute = "Com_stmt_execute",
    ComStmtFetch = "Com_stmt_fetch",
    ComStmtPrepare = "Com_stmt_prepare",
    ComStmtReset = "Com_stmt_reset",
    ComStmtSendLongData = "Com_stmt_send_long_data",
    ComTruncate = "Com_truncate",
    ComUninstallPlugin = "Com_uninstall_plugin",
    ComUnlockTables = "Com_unlock_tables",
    ComUpdate = "Com_update",
    ComUpdateMulti = "Com_update_multi",
    ComXaCommit = "Com_xa_commit",
    CreatedTmpDiskTables = "Created_tmp_disk_tables",
    CreatedTmpTables = "Created_tmp_tables",
    HandlerCommit = "Handler_commit",
    HandlerDelete = "Handler_delete",
    HandlerReadFirst = "Handler_read_first",
    HandlerReadKey = "Handler_read_key",
    HandlerReadLast = "Handler_read_last",
    HandlerReadNext = "Handler_read_next",
    HandlerReadPrev = "Handler_read_prev",
    HandlerReadRnd = "Handler_read_rnd",
    HandlerReadRndNext = "Handler_read_rnd_next",
    HandlerRollback = "Handler_rollback",
    HandlerUpdate = "Handler_update",
    HandlerWrite = "Handler_write",
    InnodbRowsDeleted = "Innodb_rows_deleted",
    InnodbRowsInserted = "Innodb_rows_inserted",
    InnodbRowsRead = "Innodb_rows_read",
    InnodbRowsUpdated = "Innodb_rows_updated",
    Queries = "Queries",
    Questions = "Questions",
    SelectFullJoin = "Select_full_join",
    SelectFullRangeJoin = "Select_full_range_join",
    SelectRange = "Select_range",
    SelectRangeCheck = "Select_range_check",
    SelectScan = "Select_scan",
    SlowQueries = "Slow_queries",
    SortMergePasses = "Sort_merge_passes",
    SortRange = "Sort_range",
    SortRows = "Sort_rows",
    SortScan = "Sort_scan",
}

/// How many counters.
pub const COUNT: usize = NAMES.len();

impl Stat {
    /// Counters MySQL keeps only globally: `SHOW SESSION STATUS` shows their global value.
    pub fn global_only(i: usize) -> bool {
        [
            Stat::InnodbRowsDeleted,
            Stat::InnodbRowsInserted,
            Stat::InnodbRowsRead,
            Stat::InnodbRowsUpdated,
        ]
        .iter()
        .any(|s| *s as usize == i)
    }
}

/// One session's counters. Only the session's own task adds to them (see the module doc);
/// anyone may read them.
#[derive(Default)]
pub struct SessionStatus {
    cells: Cells,
}

/// One cell per counter.
struct Cells(Box<[AtomicU64]>);

impl Default for Cells {
    fn default() -> Cells {
        Cells((0..COUNT).map(|_| AtomicU64::new(0)).collect())
    }
}

impl std::ops::Deref for Cells {
    type Target = [AtomicU64];
    fn deref(&self) -> &[AtomicU64] {
        &self.0
    }
}

impl SessionStatus {
    /// Adds `n` (the session's task only: a plain load and store, not an atomic add).
    #[inline]
    pub fn add(&self, s: Stat, n: u64) {
        let c = &self.cells[s as usize];
        c.store(c.load(Ordering::Relaxed).wrapping_add(n), Ordering::Relaxed);
    }

    pub fn get(&self, i: usize) -> u64 {
        self.cells.get(i).map_or(0, |c| c.load(Ordering::Relaxed))
    }

    /// Folds a finished statement's record in: its handler reads and row counts.
    pub fn add_record(&self, rec: &super::StmtRecord) {
        let r = &rec.reads;
        for (s, n) in [
            (Stat::HandlerReadFirst, r.first),
            (Stat::HandlerReadKey, r.key),
            (Stat::HandlerReadLast, r.last),
            (Stat::HandlerReadNext, r.next),
            (Stat::HandlerReadPrev, r.prev),
            (Stat::SortRows, r.sorted),
            (Stat::InnodbRowsRead, rec.rows_examined),
        ] {
            if n != 0 {
                self.add(s, n);
            }
        }
        self.add_plan(&rec.plan);
        if rec.rows_affected != 0 && rec.errno == 0 {
            let changed = match rec.kind {
                StatementKind::Insert | StatementKind::Replace | StatementKind::Load => {
                    Some((Stat::HandlerWrite, Stat::InnodbRowsInserted))
                }
                StatementKind::Update => Some((Stat::HandlerUpdate, Stat::InnodbRowsUpdated)),
                StatementKind::Delete => Some((Stat::HandlerDelete, Stat::InnodbRowsDeleted)),
                _ => None,
            };
            if let Some((h, i)) = changed {
                self.add(h, rec.rows_affected);
                self.add(i, rec.rows_affected);
            }
        }
    }

    /// Adds a plan's per-execution figures.
    fn add_plan(&self, p: &PlanStats) {
        if *p == PlanStats::default() {
            return;
        }
        for (s, n) in PlanStats::STATS.iter().zip(p.counts()) {
            if n != 0 {
                self.add(*s, u64::from(n));
            }
        }
    }
}

/// The counters of sessions that ended (and of `FLUSH STATUS`es).
#[derive(Default)]
pub struct Retired {
    cells: Cells,
}

impl Retired {
    /// Moves a session's counters here. With `reset`, its cells are zeroed (`FLUSH
    /// STATUS`, by the session itself); an ending session's are left as they are.
    pub fn take(&self, s: &SessionStatus, reset: bool) {
        for (r, c) in self.cells.iter().zip(s.cells.iter()) {
            let v = if reset {
                c.swap(0, Ordering::Relaxed)
            } else {
                c.load(Ordering::Relaxed)
            };
            if v != 0 {
                r.fetch_add(v, Ordering::Relaxed);
            }
        }
    }

    /// Global totals: these plus every live session's.
    pub fn totals<'a>(&self, live: impl Iterator<Item = &'a SessionStatus>) -> Vec<u64> {
        let mut out: Vec<u64> = self
            .cells
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect();
        for s in live {
            for (o, c) in out.iter_mut().zip(s.cells.iter()) {
                *o = o.wrapping_add(c.load(Ordering::Relaxed));
            }
        }
        out
    }
}

/// A statement's handler calls, counted as it runs (see the module doc).
#[derive(Clone, Copy, Debug, Default)]
pub struct Reads {
    pub first: u64,
    pub key: u64,
    pub last: u64,
    pub next: u64,
    pub prev: u64,
    /// Rows sorted (`Sort_rows`).
    pub sorted: u64,
}

impl Reads {
    /// A scan of a whole table begins (backward if `reverse`).
    #[inline]
    pub fn scan_start(&mut self, reverse: bool) {
        if reverse {
            self.last += 1;
        } else {
            self.first += 1;
        }
    }

    /// A scan or index range of `steps` rows has ended: `exhausted` if it ran to its end
    /// (the step that found the end counts, as in MySQL), not if the statement stopped it.
    #[inline]
    pub fn steps(&mut self, reverse: bool, steps: u64, exhausted: bool) {
        let n = if exhausted {
            steps
        } else {
            steps.saturating_sub(1)
        };
        if reverse {
            self.prev += n;
        } else {
            self.next += n;
        }
    }

    /// A whole scan of `steps` rows, run to its end.
    pub fn scan(&mut self, reverse: bool, steps: u64) {
        self.scan_start(reverse);
        self.steps(reverse, steps, true);
    }

    /// A whole index range (or lookup) of `steps` rows, run to its end.
    pub fn range(&mut self, reverse: bool, steps: u64) {
        self.key += 1;
        self.steps(reverse, steps, true);
    }
}

/// What one execution of a plan adds to `Select_*`, `Sort_*` and `Created_tmp_tables`,
/// worked out once when it is planned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlanStats {
    pub select_scan: u8,
    pub select_range: u8,
    pub select_full_join: u8,
    pub select_full_range_join: u8,
    pub sort_scan: u8,
    pub sort_range: u8,
    pub tmp_tables: u8,
}

impl PlanStats {
    /// The counters of [`PlanStats::counts`], in order.
    pub const STATS: [Stat; 7] = [
        Stat::SelectScan,
        Stat::SelectRange,
        Stat::SelectFullJoin,
        Stat::SelectFullRangeJoin,
        Stat::SortScan,
        Stat::SortRange,
        Stat::CreatedTmpTables,
    ];

    pub fn counts(&self) -> [u8; 7] {
        [
            self.select_scan,
            self.select_range,
            self.select_full_join,
            self.select_full_range_join,
            self.sort_scan,
            self.sort_range,
            self.tmp_tables,
        ]
    }
}

/// The `Com_*` counter of a statement of `kind`; `select_source`: an INSERT/REPLACE … SELECT.
pub fn com_of(kind: StatementKind, select_source: bool) -> Stat {
    use ObjectKind as O;
    use StatementKind as K;
    match kind {
        K::Empty => Stat::ComEmptyQuery,
        K::Select | K::Table | K::Values | K::Explain => Stat::ComSelect,
        K::Insert if select_source => Stat::ComInsertSelect,
        K::Insert => Stat::ComInsert,
        K::Replace if select_source => Stat::ComReplaceSelect,
        K::Replace => Stat::ComReplace,
        K::Update => Stat::ComUpdate,
        K::Delete => Stat::ComDelete,
        K::Begin => Stat::ComBegin,
        K::Commit => Stat::ComCommit,
        K::Rollback => Stat::ComRollback,
        K::Savepoint => Stat::ComSavepoint,
        K::RollbackToSavepoint => Stat::ComRollbackToSavepoint,
        K::ReleaseSavepoint => Stat::ComReleaseSavepoint,
        K::Set | K::SetTransaction | K::SetNames | K::SetCharset => Stat::ComSetOption,
        K::SetPassword => Stat::ComSetPassword,
        K::SetRole => Stat::ComSetRole,
        K::Show => Stat::ComShowStatus,
        K::Use => Stat::ComChangeDb,
        K::Create(o) => match o {
            O::Table | O::Other => Stat::ComCreateTable,
            O::Database => Stat::ComCreateDb,
            O::Index => Stat::ComCreateIndex,
            O::View => Stat::ComCreateView,
            O::User => Stat::ComCreateUser,
            O::Role => Stat::ComCreateRole,
            O::Procedure => Stat::ComCreateProcedure,
            O::Function => Stat::ComCreateFunction,
            O::Trigger => Stat::ComCreateTrigger,
            O::Event => Stat::ComCreateEvent,
            O::Server => Stat::ComCreateServer,
            O::Tablespace => Stat::ComAlterTablespace,
        },
        K::Drop(o) => match o {
            O::Table | O::Other => Stat::ComDropTable,
            O::Database => Stat::ComDropDb,
            O::Index => Stat::ComDropIndex,
            O::View => Stat::ComDropView,
            O::User => Stat::ComDropUser,
            O::Role => Stat::ComDropRole,
            O::Procedure => Stat::ComDropProcedure,
            O::Function => Stat::ComDropFunction,
            O::Trigger => Stat::ComDropTrigger,
            O::Event => Stat::ComDropEvent,
            O::Server => Stat::ComDropServer,
            O::Tablespace => Stat::ComAlterTablespace,
        },
        K::Alter(o) => match o {
            O::Database => Stat::ComAlterDb,
            O::User | O::Role => Stat::ComAlterUser,
            O::Procedure => Stat::ComAlterProcedure,
            O::Function => Stat::ComAlterFunction,
            O::Event => Stat::ComAlterEvent,
            O::Server => Stat::ComAlterServer,
            O::Tablespace => Stat::ComAlterTablespace,
            _ => Stat::ComAlterTable,
        },
        K::Truncate => Stat::ComTruncate,
        K::Rename => Stat::ComRenameTable,
        K::Lock => Stat::ComLockTables,
        K::Unlock => Stat::ComUnlockTables,
        K::Flush => Stat::ComFlush,
        K::Kill => Stat::ComKill,
        K::Analyze => Stat::ComAnalyze,
        K::Optimize => Stat::ComOptimize,
        K::Check => Stat::ComCheck,
        K::Checksum => Stat::ComChecksum,
        K::Repair => Stat::ComRepair,
        K::Grant => Stat::ComGrant,
        K::Revoke => Stat::ComRevoke,
        K::Prepare => Stat::ComPrepareSql,
        K::Execute => Stat::ComExecuteSql,
        K::Deallocate => Stat::ComDeallocSql,
        K::Call => Stat::ComCallProcedure,
        K::Do => Stat::ComDo,
        K::Load => Stat::ComLoad,
        K::Handler => Stat::ComHaRead,
        K::Xa => Stat::ComXaCommit,
        K::Help => Stat::ComHelp,
        K::Reset => Stat::ComReset,
        K::Purge => Stat::ComPurge,
        K::Change => Stat::ComChangeMaster,
        K::StartReplica => Stat::ComReplicaStart,
        K::StopReplica => Stat::ComReplicaStop,
        K::Binlog => Stat::ComBinlog,
        K::Install => Stat::ComInstallPlugin,
        K::Uninstall => Stat::ComUninstallPlugin,
        K::Shutdown => Stat::ComShutdown,
        K::Restart => Stat::ComRestart,
        K::Clone => Stat::ComClone,
        K::Import => Stat::ComImport,
        K::Signal => Stat::ComSignal,
        K::Resignal => Stat::ComResignal,
        K::GetDiagnostics => Stat::ComGetDiagnostics,
        K::Other => Stat::ComAdminCommands,
    }
}

/// The second counter MySQL bumps for the SQL forms of prepared statements.
pub fn com_also(kind: StatementKind) -> Option<Stat> {
    match kind {
        StatementKind::Prepare => Some(Stat::ComStmtPrepare),
        StatementKind::Execute => Some(Stat::ComStmtExecute),
        StatementKind::Deallocate => Some(Stat::ComStmtClose),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_and_unique() {
        for w in NAMES.windows(2) {
            assert!(
                w[0].to_ascii_lowercase() < w[1].to_ascii_lowercase(),
                "{} then {}",
                w[0],
                w[1]
            );
        }
        assert_eq!(NAMES[Stat::ComSelect as usize], "Com_select");
        assert_eq!(NAMES[Stat::SortScan as usize], "Sort_scan");
    }

    #[test]
    fn reads_count_the_end_step_only_when_reached() {
        let mut r = Reads::default();
        r.scan(false, 10);
        r.key += 1;
        r.steps(true, 3, false);
        assert_eq!((r.first, r.key, r.next, r.prev), (1, 1, 10, 2));
    }

    #[test]
    fn flush_moves_session_counts_to_the_retired() {
        let s = SessionStatus::default();
        let retired = Retired::default();
        s.add(Stat::ComSelect, 3);
        retired.take(&s, true);
        assert_eq!(s.get(Stat::ComSelect as usize), 0);
        s.add(Stat::ComSelect, 2);
        let t = retired.totals(std::iter::once(&s));
        assert_eq!(t[Stat::ComSelect as usize], 5);
    }
}
