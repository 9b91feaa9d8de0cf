//! The catalog: databases and their tables, by name.
//!
//! Names are case-sensitive (`lower_case_table_names=0`, MySQL's default on Linux). Lookups
//! take a read lock on a small map; DDL takes the write lock for the swap only (building a
//! new table object, copying rows, waiting for metadata locks all happen outside it).
//!
//! Every change bumps [`Catalog::version`]; cached plans remember the version they were
//! built against and are rebuilt when it moved.

use super::table::Table;
use crate::sql::types::{Charset, Collation};
use parking_lot::RwLock;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Database {
    pub name: String,
    pub charset: Charset,
    pub collation: Collation,
    pub tables: RwLock<BTreeMap<String, Arc<Table>>>,
}

impl Database {
    pub fn table(&self, name: &str) -> Option<Arc<Table>> {
        self.tables.read().get(name).cloned()
    }

    pub fn table_names(&self) -> Vec<String> {
        self.tables.read().keys().cloned().collect()
    }
}

pub struct Catalog {
    dbs: RwLock<BTreeMap<String, Arc<Database>>>,
    version: AtomicU64,
}

/// Databases that exist in every server and cannot be dropped (their tables are virtual).
pub const SYSTEM_DATABASES: [&str; 4] =
    ["information_schema", "mysql", "performance_schema", "sys"];

impl Default for Catalog {
    fn default() -> Self {
        Catalog::new()
    }
}

impl Catalog {
    pub fn new() -> Catalog {
        let c = Catalog {
            dbs: RwLock::new(BTreeMap::new()),
            version: AtomicU64::new(1),
        };
        for name in SYSTEM_DATABASES {
            c.dbs.write().insert(
                name.to_string(),
                Arc::new(Database {
                    name: name.to_string(),
                    charset: Charset::Utf8mb3,
                    collation: Collation::Utf8mb3GeneralCi,
                    tables: RwLock::new(BTreeMap::new()),
                }),
            );
        }
        c
    }

    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    fn bump(&self) {
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    pub fn database(&self, name: &str) -> Option<Arc<Database>> {
        self.dbs.read().get(name).cloned()
    }

    pub fn database_names(&self) -> Vec<String> {
        self.dbs.read().keys().cloned().collect()
    }

    pub fn table(&self, db: &str, name: &str) -> Option<Arc<Table>> {
        self.database(db)?.table(name)
    }

    /// Create a database; `false` if it exists.
    pub fn create_database(&self, name: &str, charset: Charset, collation: Collation) -> bool {
        let mut dbs = self.dbs.write();
        if dbs.contains_key(name) {
            return false;
        }
        dbs.insert(
            name.to_string(),
            Arc::new(Database {
                name: name.to_string(),
                charset,
                collation,
                tables: RwLock::new(BTreeMap::new()),
            }),
        );
        drop(dbs);
        self.bump();
        true
    }

    /// Remove a database and return it (its tables are marked dropped).
    pub fn drop_database(&self, name: &str) -> Option<Arc<Database>> {
        let db = self.dbs.write().remove(name)?;
        for t in db.tables.read().values() {
            t.dropped.store(true, Ordering::Release);
        }
        self.bump();
        Some(db)
    }

    /// Add a table; `Err(())` if the name is taken or the database is gone.
    pub fn add_table(&self, db: &str, table: Arc<Table>) -> Result<(), ()> {
        let d = self.database(db).ok_or(())?;
        let mut tables = d.tables.write();
        if tables.contains_key(table.name()) {
            return Err(());
        }
        tables.insert(table.name().to_string(), table);
        drop(tables);
        self.bump();
        Ok(())
    }

    /// Replace a table object (TRUNCATE, ALTER): the old one is marked dropped.
    pub fn replace_table(&self, db: &str, old: &Arc<Table>, new: Arc<Table>) -> bool {
        let Some(d) = self.database(db) else {
            return false;
        };
        let mut tables = d.tables.write();
        match tables.get(old.name()) {
            Some(cur) if Arc::ptr_eq(cur, old) => {
                old.dropped.store(true, Ordering::Release);
                tables.remove(old.name());
                tables.insert(new.name().to_string(), new);
                drop(tables);
                self.bump();
                true
            }
            _ => false,
        }
    }

    pub fn remove_table(&self, db: &str, name: &str) -> Option<Arc<Table>> {
        let d = self.database(db)?;
        let t = d.tables.write().remove(name)?;
        t.dropped.store(true, Ordering::Release);
        self.bump();
        Some(t)
    }
}
