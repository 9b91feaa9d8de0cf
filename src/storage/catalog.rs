//! The catalog: databases and their tables, by name.
//!
//! A database's tables and views share one namespace: a view is a stored query
//! ([`ViewDef`]), kept beside the tables and expanded by the planner where it is named.
//!
//! Names are case-sensitive (`lower_case_table_names=0`, MySQL's default on Linux). Lookups
//! take a read lock on a small map; DDL takes the write lock for the swap only (building a
//! new table object, copying rows, waiting for metadata locks all happen outside it).
//!
//! Every change bumps [`Catalog::version`]; cached plans remember the version they were
//! built against and are rebuilt when it moved.
//!
//! Foreign keys live on their child table's definition. The parent side — which keys
//! reference a table — is derived here at every change ([`Catalog::referencing`]), so that a
//! write to a table nobody references pays one atomic load ([`Catalog::has_foreign_keys`]).

use super::schema::ViewDef;
use super::table::Table;
use crate::sql::types::{Charset, Collation};
use parking_lot::RwLock;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A foreign key seen from its parent: the child table and the key's position in the
/// child's `foreign_keys`.
#[derive(Clone, Debug)]
pub struct ChildRef {
    pub db: String,
    pub table: String,
    pub fk: usize,
}

/// Parent database → parent table → the foreign keys that reference it (nested so that a
/// lookup borrows the names).
type Referencing = HashMap<String, HashMap<String, Arc<[ChildRef]>>>;

pub struct Database {
    pub name: String,
    pub charset: Charset,
    pub collation: Collation,
    pub tables: RwLock<BTreeMap<String, Arc<Table>>>,
    /// Views, by name. Locked after `tables` when both are (a name is taken by one or the
    /// other, checked under both locks).
    pub views: RwLock<BTreeMap<String, Arc<ViewDef>>>,
}

impl Database {
    fn new(name: &str, charset: Charset, collation: Collation) -> Database {
        Database {
            name: name.to_string(),
            charset,
            collation,
            tables: RwLock::new(BTreeMap::new()),
            views: RwLock::new(BTreeMap::new()),
        }
    }

    pub fn view(&self, name: &str) -> Option<Arc<ViewDef>> {
        self.views.read().get(name).cloned()
    }

    pub fn view_names(&self) -> Vec<String> {
        self.views.read().keys().cloned().collect()
    }

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
    /// Derived from the tables' foreign keys at every change (see the module doc).
    referencing: RwLock<Arc<Referencing>>,
    any_foreign_key: AtomicBool,
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
            referencing: RwLock::new(Arc::new(HashMap::new())),
            any_foreign_key: AtomicBool::new(false),
        };
        for name in SYSTEM_DATABASES {
            c.dbs.write().insert(
                name.to_string(),
                Arc::new(Database::new(
                    name,
                    Charset::Utf8mb3,
                    Collation::Utf8mb3GeneralCi,
                )),
            );
        }
        c
    }

    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    fn bump(&self) {
        self.derive_referencing();
        self.version.fetch_add(1, Ordering::AcqRel);
    }

    /// Invalidate plans without a catalog change: a session's temporary tables came or went
    /// (its prepared statements must resolve names again).
    pub fn touch(&self) {
        self.bump();
    }

    /// Rebuild the parent-side map of foreign keys (called with no catalog lock held; a DDL
    /// runs it once, over every table).
    fn derive_referencing(&self) {
        let mut lists: HashMap<(String, String), Vec<ChildRef>> = HashMap::new();
        let dbs: Vec<Arc<Database>> = self.dbs.read().values().cloned().collect();
        for d in dbs {
            for t in d.tables.read().values() {
                for (i, fk) in t.def.foreign_keys.iter().enumerate() {
                    lists
                        .entry((fk.parent_db.clone(), fk.parent_table.clone()))
                        .or_default()
                        .push(ChildRef {
                            db: d.name.clone(),
                            table: t.name().to_string(),
                            fk: i,
                        });
                }
            }
        }
        self.any_foreign_key
            .store(!lists.is_empty(), Ordering::Release);
        let mut map: Referencing = HashMap::new();
        for ((db, table), refs) in lists {
            map.entry(db).or_default().insert(table, refs.into());
        }
        *self.referencing.write() = Arc::new(map);
    }

    /// Does any table have a foreign key? (The cheap test before any per-row work.)
    pub fn has_foreign_keys(&self) -> bool {
        self.any_foreign_key.load(Ordering::Acquire)
    }

    /// The foreign keys that reference `db`.`table` (empty when none does).
    pub fn referencing(&self, db: &str, table: &str) -> Arc<[ChildRef]> {
        if self.has_foreign_keys()
            && let Some(refs) = self.referencing.read().get(db).and_then(|m| m.get(table))
        {
            return refs.clone();
        }
        Arc::from(Vec::new())
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
            Arc::new(Database::new(name, charset, collation)),
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

    /// Add a table; `false` if the name is taken or the database is gone.
    pub fn add_table(&self, db: &str, table: Arc<Table>) -> bool {
        let Some(d) = self.database(db) else {
            return false;
        };
        let mut tables = d.tables.write();
        if tables.contains_key(table.name()) || d.views.read().contains_key(table.name()) {
            return false;
        }
        tables.insert(table.name().to_string(), table);
        drop(tables);
        self.bump();
        true
    }

    /// Replace a table object (TRUNCATE, ALTER, RENAME): the old one, in `db`, is marked
    /// dropped; the new one goes in under its own database and name. `false` if the old one
    /// is no longer there or the new name is taken by another table.
    pub fn replace_table(&self, db: &str, old: &Arc<Table>, new: Arc<Table>) -> bool {
        let (Some(d), Some(nd)) = (self.database(db), self.database(&new.def.db)) else {
            return false;
        };
        let same_db = Arc::ptr_eq(&d, &nd);
        // Databases' table maps are locked in address order (two renames the other way
        // round cannot deadlock).
        let (mut tables, mut other) = if same_db {
            (d.tables.write(), None)
        } else if Arc::as_ptr(&d) < Arc::as_ptr(&nd) {
            let a = d.tables.write();
            (a, Some(nd.tables.write()))
        } else {
            let b = nd.tables.write();
            (d.tables.write(), Some(b))
        };
        if !tables
            .get(old.name())
            .is_some_and(|cur| Arc::ptr_eq(cur, old))
        {
            return false;
        }
        let renamed = !same_db || new.name() != old.name();
        let target = other.as_deref_mut().unwrap_or(&mut *tables);
        if renamed && (target.contains_key(new.name()) || nd.views.read().contains_key(new.name()))
        {
            return false;
        }
        target.insert(new.name().to_string(), new.clone());
        if renamed {
            tables.remove(old.name());
        }
        old.dropped.store(true, Ordering::Release);
        drop((tables, other));
        self.bump();
        true
    }

    pub fn remove_table(&self, db: &str, name: &str) -> Option<Arc<Table>> {
        let d = self.database(db)?;
        let t = d.tables.write().remove(name)?;
        t.dropped.store(true, Ordering::Release);
        self.bump();
        Some(t)
    }

    pub fn view(&self, db: &str, name: &str) -> Option<Arc<ViewDef>> {
        self.database(db)?.view(name)
    }

    /// Add a view, or with `replace` put it over the view of that name. `Err` names what is
    /// in the way: [`NameTaken::Table`] (a table has the name), [`NameTaken::View`] (a view
    /// has it and `replace` is off), [`NameTaken::NoDatabase`].
    pub fn put_view(&self, view: Arc<ViewDef>, replace: bool) -> Result<(), NameTaken> {
        let d = self.database(&view.db).ok_or(NameTaken::NoDatabase)?;
        let tables = d.tables.read();
        if tables.contains_key(&view.name) {
            return Err(NameTaken::Table);
        }
        let mut views = d.views.write();
        if !replace && views.contains_key(&view.name) {
            return Err(NameTaken::View);
        }
        views.insert(view.name.clone(), view);
        drop((views, tables));
        self.bump();
        Ok(())
    }

    pub fn remove_view(&self, db: &str, name: &str) -> Option<Arc<ViewDef>> {
        let d = self.database(db)?;
        let v = d.views.write().remove(name)?;
        self.bump();
        Some(v)
    }

    /// Rename a view (RENAME TABLE): `old` must still be the view of its name, and the new
    /// name (in the same database) free. Whether it was done.
    pub fn rename_view(&self, old: &Arc<ViewDef>, new_name: &str) -> bool {
        let Some(d) = self.database(&old.db) else {
            return false;
        };
        let tables = d.tables.read();
        let mut views = d.views.write();
        if tables.contains_key(new_name)
            || views.contains_key(new_name)
            || !views.get(&old.name).is_some_and(|v| Arc::ptr_eq(v, old))
        {
            return false;
        }
        views.remove(&old.name);
        let mut renamed = (**old).clone();
        renamed.name = new_name.to_string();
        views.insert(new_name.to_string(), Arc::new(renamed));
        drop((views, tables));
        self.bump();
        true
    }
}

/// Why [`Catalog::put_view`] did not add a view.
#[derive(Debug, PartialEq, Eq)]
pub enum NameTaken {
    Table,
    View,
    NoDatabase,
}
