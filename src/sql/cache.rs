//! The plan cache: one shared plan per (database, normalised statement text).
//!
//! The normaliser replaces a statement's literals by parameters, so every execution of one
//! statement shape — whatever its constants — finds the same plan. Plans remember the catalog
//! version they were built against; a DDL anywhere bumps the version and stale plans are
//! rebuilt on their next use (DDL is rare; precise invalidation is not worth its cost).
//!
//! Bounded: at `PLAN_CACHE_ENTRIES_MAX` entries the cache is cleared (a crude but safe policy;
//! workloads with more distinct statement shapes than that are rare and just re-plan).

use super::Prepared;
use ahash::AHashMap;
use parking_lot::RwLock;
use std::sync::Arc;

pub const PLAN_CACHE_ENTRIES_MAX: usize = 10_000;

/// Entries per statement text: one per current database it was planned under.
type Entry = Vec<(Option<String>, u32, Arc<Prepared>)>;

#[derive(Default)]
pub struct PlanCache {
    map: RwLock<AHashMap<String, Entry>>,
}

impl PlanCache {
    pub fn new() -> PlanCache {
        PlanCache::default()
    }

    /// Look up without allocating.
    /// `flavor`: the session settings a plan depends on (collation_connection, which string
    /// literals take, and the sql_mode bits that change planning), see `Ctx::plan_flavor`.
    pub fn get(
        &self,
        db: Option<&str>,
        coll: u32,
        text: &str,
        catalog_version: u64,
    ) -> Option<Arc<Prepared>> {
        let map = self.map.read();
        let entry = map.get(text)?;
        entry
            .iter()
            .find(|(d, c, p)| d.as_deref() == db && *c == coll && p.current(catalog_version))
            .map(|(_, _, p)| p.clone())
    }

    pub fn put(&self, db: Option<&str>, coll: u32, text: &str, plan: Arc<Prepared>) {
        let mut map = self.map.write();
        if map.len() >= PLAN_CACHE_ENTRIES_MAX {
            map.clear();
        }
        let entry = map.entry(text.to_string()).or_default();
        entry.retain(|(d, c, _)| !(d.as_deref() == db && *c == coll));
        entry.push((db.map(str::to_string), coll, plan));
    }

    pub fn len(&self) -> usize {
        self.map.read().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn clear(&self) {
        self.map.write().clear();
    }
}
