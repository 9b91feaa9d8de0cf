//! The plan cache: one shared plan per (database, normalised statement text).
//!
//! The normaliser replaces a statement's literals by parameters, so every execution of one
//! statement shape — whatever its constants — finds the same plan. Plans remember the catalog
//! version they were built against; a DDL anywhere bumps the version and stale plans are
//! rebuilt on their next use (DDL is rare; precise invalidation is not worth its cost).
//!
//! Bounded: a new statement text finding `PLAN_CACHE_ENTRIES_MAX` texts there clears the
//! cache (a crude but safe policy; workloads with more distinct statement shapes than that
//! are rare and just re-plan). A text already there is replaced in place.
//!
//! In front of it, each session keeps the plans it has used ([`SessionPlans`]): a statement
//! the session has run before takes no shared lock (the read lock's count is a cache line
//! every session writes) and does not count on the shared plan's own `Arc` (another such
//! line, written twice per execution): the session holds each plan through a handle of its
//! own ([`PlanRef`]).

use super::Prepared;
use ahash::AHashMap;
use parking_lot::RwLock;
use std::sync::Arc;

pub const PLAN_CACHE_ENTRIES_MAX: usize = 10_000;

/// Entries per statement text: one per current database it was planned under.
type Entry<P = Arc<Prepared>> = Vec<(Option<String>, u32, P)>;

/// Whether an entry's database and flavor are (`db`, `coll`): the key both caches share.
fn same_key(d: &Option<String>, c: u32, db: Option<&str>, coll: u32) -> bool {
    d.as_deref() == db && c == coll
}

/// The plan of `entry` under (`db`, `coll`) that is still current (both caches' lookup;
/// `current` is `Prepared::current` at the catalog's version, through either handle).
fn current_in<'e, P>(
    entry: &'e Entry<P>,
    db: Option<&str>,
    coll: u32,
    current: impl Fn(&P) -> bool,
) -> Option<&'e P> {
    entry
        .iter()
        .find(|(d, c, p)| same_key(d, *c, db, coll) && current(p))
        .map(|(_, _, p)| p)
}

/// Puts `plan` in `entry` under (`db`, `coll`), in place of the one there (both caches).
fn replace_in<P>(entry: &mut Entry<P>, db: Option<&str>, coll: u32, plan: P) {
    entry.retain(|(d, c, _)| !same_key(d, *c, db, coll));
    entry.push((db.map(str::to_string), coll, plan));
}

/// Puts `plan` under `text` in `map`, which holds at most `max` texts: a new text finding
/// the map full clears it first. A text already there (a plan rebuilt after DDL made it
/// stale) is replaced in place, without clearing the others.
fn put_bounded<P>(
    map: &mut AHashMap<String, Entry<P>>,
    max: usize,
    db: Option<&str>,
    coll: u32,
    text: &str,
    plan: P,
) {
    if let Some(entry) = map.get_mut(text) {
        replace_in(entry, db, coll, plan);
        return;
    }
    if map.len() >= max {
        map.clear();
    }
    replace_in(map.entry(text.to_string()).or_default(), db, coll, plan);
}

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
        current_in(map.get(text)?, db, coll, |p| p.current(catalog_version)).cloned()
    }

    pub fn put(&self, db: Option<&str>, coll: u32, text: &str, plan: Arc<Prepared>) {
        put_bounded(
            &mut self.map.write(),
            PLAN_CACHE_ENTRIES_MAX,
            db,
            coll,
            text,
            plan,
        );
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

/// A session's handle on a shared plan: an `Arc` of the session's own around it, so that
/// cloning and dropping it per statement counts on a line no other session writes.
pub type PlanRef = Arc<Arc<Prepared>>;

/// How many statement texts a session keeps plans for before it starts its map over.
const SESSION_PLANS_MAX: usize = 128;

/// A session's own plans, in front of the shared [`PlanCache`] (same keys and the same
/// staleness rule).
#[derive(Default)]
pub struct SessionPlans {
    map: AHashMap<String, Entry<PlanRef>>,
}

impl SessionPlans {
    /// The plan of `text` under `db` and `coll`: the session's own if current, else the
    /// shared cache's (remembered here).
    pub fn get(
        &mut self,
        shared: &PlanCache,
        db: Option<&str>,
        coll: u32,
        text: &str,
        catalog_version: u64,
    ) -> Option<PlanRef> {
        if let Some(p) = self
            .map
            .get(text)
            .and_then(|entry| current_in(entry, db, coll, |p| p.current(catalog_version)))
        {
            return Some(p.clone());
        }
        let p = Arc::new(shared.get(db, coll, text, catalog_version)?);
        put_bounded(&mut self.map, SESSION_PLANS_MAX, db, coll, text, p.clone());
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_cache_replaces_a_known_text_in_place_and_clears_for_a_new_one() {
        let mut map: AHashMap<String, Entry<u32>> = AHashMap::new();
        put_bounded(&mut map, 2, Some("db"), 8, "select ?", 1);
        put_bounded(&mut map, 2, None, 8, "update t set k = ?", 2);
        // Full: a plan rebuilt for a text it has keeps the other text.
        put_bounded(&mut map, 2, Some("db"), 8, "select ?", 3);
        assert_eq!(map.len(), 2);
        assert_eq!(map["select ?"], vec![(Some("db".to_string()), 8, 3)]);
        // Another database or flavor for a known text is a second plan of that text.
        put_bounded(&mut map, 2, Some("other"), 8, "select ?", 4);
        assert_eq!(map.len(), 2);
        assert_eq!(map["select ?"].len(), 2);
        // A new text finds it full: cleared, then added.
        put_bounded(&mut map, 2, None, 8, "delete from t", 5);
        assert_eq!(map.len(), 1);
        assert_eq!(map["delete from t"], vec![(None, 8, 5)]);
    }
}
