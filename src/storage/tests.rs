//! Storage tests: visibility, locking, uniqueness, rollback and purge, driven directly.

use super::lock::LockMode;
use super::schema::*;
use super::table::{ReadView, Table};
use super::txn::{Isolation, Txn};
use super::*;
use crate::sql::types::{IntWidth, SqlType};
use crate::sql::value::{Row, Value};
use std::ops::Bound;

fn int_col(name: &str) -> ColumnDef {
    ColumnDef {
        name: name.into(),
        ty: SqlType::Int {
            width: IntWidth::Int,
            unsigned: false,
            zerofill: false,
            display: None,
        },
        nullable: true,
        default: ColumnDefault::Null,
        auto_increment: false,
        on_update_now: false,
        comment: String::new(),
    }
}

fn table(unique_k: bool) -> Arc<Table> {
    let def = TableDef {
        db: "d".into(),
        name: "t".into(),
        columns: vec![int_col("id"), int_col("k")],
        primary: Some(IndexDef {
            name: "PRIMARY".into(),
            kind: IndexKind::Primary,
            columns: vec![IndexColumn {
                col: 0,
                prefix: None,
                desc: false,
            }],
            comment: String::new(),
        }),
        indexes: vec![IndexDef {
            name: "k".into(),
            kind: if unique_k {
                IndexKind::Unique
            } else {
                IndexKind::Index
            },
            columns: vec![IndexColumn {
                col: 1,
                prefix: None,
                desc: false,
            }],
            comment: String::new(),
        }],
        engine: "InnoDB".into(),
        charset: crate::sql::types::Charset::Utf8mb4,
        collation: crate::sql::types::Collation::DEFAULT,
        comment: String::new(),
        auto_increment_start: 1,
        foreign_keys: Vec::new(),
    };
    Arc::new(Table::new(def))
}

fn row(id: i64, k: i64) -> Row {
    Arc::from(vec![Value::Int(id), Value::Int(k)])
}

fn ints(r: &Row) -> (i64, i64) {
    match (&r[0], &r[1]) {
        (Value::Int(a), Value::Int(b)) => (*a, *b),
        _ => panic!("not ints"),
    }
}

fn begin(s: &Storage) -> Txn {
    s.begin(Isolation::RepeatableRead, false, true)
}

fn view(s: &Storage, txn: &Txn) -> ReadView {
    ReadView {
        me: txn.id(),
        snapshot: s.txns.visible_ts(),
    }
}

fn scan_all(s: &Storage, t: &Table, v: ReadView) -> Vec<(i64, i64)> {
    t.scan_primary(Bound::Unbounded, Bound::Unbounded, false)
        .filter_map(|slot| t.read(&slot, v))
        .map(|r| ints(&r))
        .collect::<Vec<_>>()
        .into_iter()
        .inspect(|_| {
            let _ = s;
        })
        .collect()
}

fn scan_index(t: &Table, v: ReadView) -> Vec<(i64, i64)> {
    let mut scratch = Vec::new();
    t.scan_index(0, Bound::Unbounded, Bound::Unbounded, false)
        .filter_map(|(key, slot)| {
            let r = t.read(&slot, v)?;
            t.entry_matches(0, &key, &r, &slot, &mut scratch)
                .then(|| ints(&r))
        })
        .collect()
}

#[test]
fn insert_commit_visibility() {
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    t.insert(&mut a, row(2, 20)).unwrap();
    let b = begin(&s);
    assert_eq!(scan_all(&s, &t, view(&s, &a)), vec![(1, 10), (2, 20)]);
    assert_eq!(
        scan_all(&s, &t, view(&s, &b)),
        vec![],
        "uncommitted rows are invisible"
    );
    let old_snapshot = view(&s, &b);
    s.commit_in_memory(a);
    assert_eq!(
        scan_all(&s, &t, old_snapshot),
        vec![],
        "an old snapshot stays old"
    );
    assert_eq!(scan_all(&s, &t, view(&s, &b)), vec![(1, 10), (2, 20)]);
    assert_eq!(t.row_count(), 2);
}

#[test]
fn duplicate_primary_key() {
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    s.commit_in_memory(a);
    let mut b = begin(&s);
    assert!(matches!(
        t.insert(&mut b, row(1, 11)),
        Err(StorageError::Duplicate { index: -1, .. })
    ));
    s.rollback(b);
}

#[test]
fn concurrent_insert_of_same_key_waits_then_duplicates() {
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    let mut b = begin(&s);
    let waiter = match t.insert(&mut b, row(1, 11)) {
        Err(StorageError::LockWait { waiter, .. }) => waiter,
        other => panic!("expected a lock wait, got {other:?}"),
    };
    s.commit_in_memory(a);
    assert!(waiter.is_granted());
    // The re-executed statement now sees the committed row.
    assert!(matches!(
        t.insert(&mut b, row(1, 11)),
        Err(StorageError::Duplicate { .. })
    ));
    s.rollback(b);
}

#[test]
fn concurrent_insert_of_same_key_after_rollback_succeeds() {
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    let mut b = begin(&s);
    assert!(matches!(
        t.insert(&mut b, row(1, 11)),
        Err(StorageError::LockWait { .. })
    ));
    s.rollback(a);
    t.insert(&mut b, row(1, 11)).unwrap();
    s.commit_in_memory(b);
    let r = begin(&s);
    assert_eq!(scan_all(&s, &t, view(&s, &r)), vec![(1, 11)]);
}

#[test]
fn unique_secondary_index() {
    let s = Storage::new();
    let t = table(true);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    // Same key, other row, same transaction: duplicate.
    assert!(matches!(
        t.insert(&mut a, row(2, 10)),
        Err(StorageError::Duplicate { index: 0, .. })
    ));
    // Another transaction inserting k=10 waits for a's outcome.
    let mut b = begin(&s);
    assert!(matches!(
        t.insert(&mut b, row(3, 10)),
        Err(StorageError::LockWait { .. })
    ));
    s.rollback_to(&mut b, 0);
    s.commit_in_memory(a);
    assert!(matches!(
        t.insert(&mut b, row(3, 10)),
        Err(StorageError::Duplicate { index: 0, .. })
    ));
    s.rollback_to(&mut b, 0);
    t.insert(&mut b, row(3, 30)).unwrap();
    s.commit_in_memory(b);
    let r = begin(&s);
    assert_eq!(scan_index(&t, view(&s, &r)), vec![(1, 10), (3, 30)]);
}

#[test]
fn update_moves_index_entries_and_old_snapshots_see_old_keys() {
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    s.commit_in_memory(a);
    let reader = begin(&s);
    let old = view(&s, &reader);
    let slot_ref = s.txns.register_slot();
    let snap = s.txns.take_snapshot(&slot_ref);
    assert_eq!(snap, old.snapshot);

    let mut b = begin(&s);
    let slot = t.get(&t.primary_key(&row(1, 0)).unwrap()).unwrap();
    assert!(t.lock(&mut b, &slot, LockMode::Exclusive).unwrap());
    t.update(&mut b, &slot, row(1, 11)).unwrap();
    s.commit_in_memory(b);
    s.purge.run_once(&s.txns);

    let r = begin(&s);
    assert_eq!(scan_index(&t, view(&s, &r)), vec![(1, 11)]);
    assert_eq!(
        scan_index(&t, old),
        vec![(1, 10)],
        "the old snapshot still finds k=10"
    );
    slot_ref.clear();
    s.purge.run_once(&s.txns);
    assert_eq!(t.indexes[0].map.len(), 1, "purge removed the stale entry");
    assert_eq!(scan_index(&t, view(&s, &r)), vec![(1, 11)]);
}

#[test]
fn delete_and_purge_remove_the_slot() {
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    t.insert(&mut a, row(2, 20)).unwrap();
    s.commit_in_memory(a);
    let mut b = begin(&s);
    let slot = t.get(&t.primary_key(&row(1, 0)).unwrap()).unwrap();
    t.lock(&mut b, &slot, LockMode::Exclusive).unwrap();
    assert!(t.delete(&mut b, &slot).unwrap().is_some());
    s.commit_in_memory(b);
    s.purge.run_once(&s.txns);
    assert_eq!(t.primary.len(), 1);
    assert_eq!(t.indexes[0].map.len(), 1);
    assert_eq!(t.row_count(), 1);
    let key1 = t.primary_key(&row(1, 0)).unwrap();
    assert!(
        t.get(&key1).is_none(),
        "the point lookup forgot the purged slot"
    );
    // Re-insert the key: a fresh slot, which the point lookup finds.
    let mut c = begin(&s);
    let fresh = t.insert(&mut c, row(1, 12)).unwrap();
    s.commit_in_memory(c);
    let r = begin(&s);
    assert_eq!(scan_all(&s, &t, view(&s, &r)), vec![(1, 12), (2, 20)]);
    assert_eq!(scan_index(&t, view(&s, &r)), vec![(1, 12), (2, 20)]);
    let found = t.get(&key1).unwrap();
    assert!(Arc::ptr_eq(&found, &fresh) && !Arc::ptr_eq(&found, &slot));
    assert_eq!(
        t.read(&found, view(&s, &r)).map(|r| ints(&r)),
        Some((1, 12))
    );
}

#[test]
fn delete_then_insert_of_a_key_reuses_its_slot_and_purge_keeps_one_entry() {
    // sysbench's oltp_write_only: DELETE a row by key, INSERT it again with a new k, in one
    // transaction. The insert finds the slot through the point lookup.
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    let first = t.insert(&mut a, row(1, 10)).unwrap();
    s.commit_in_memory(a);
    let mut b = begin(&s);
    assert!(t.lock(&mut b, &first, LockMode::Exclusive).unwrap());
    assert!(t.delete(&mut b, &first).unwrap().is_some());
    let again = t.insert(&mut b, row(1, 12)).unwrap();
    assert!(Arc::ptr_eq(&first, &again), "the insert reused the slot");
    s.commit_in_memory(b);
    s.purge.run_once(&s.txns);
    let r = begin(&s);
    assert_eq!(scan_all(&s, &t, view(&s, &r)), vec![(1, 12)]);
    assert_eq!(scan_index(&t, view(&s, &r)), vec![(1, 12)]);
    assert_eq!(t.primary.len(), 1);
    assert_eq!(t.indexes[0].map.len(), 1, "purge removed k=10's entry only");
    assert_eq!(t.row_count(), 1);
}

#[test]
fn statement_rollback_keeps_earlier_changes_and_locks() {
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    let mark = a.writes.len();
    t.insert(&mut a, row(2, 20)).unwrap();
    let slot1 = t.get(&t.primary_key(&row(1, 0)).unwrap()).unwrap();
    t.update(&mut a, &slot1, row(1, 11)).unwrap();
    s.rollback_to(&mut a, mark);
    assert_eq!(scan_all(&s, &t, view(&s, &a)), vec![(1, 10)]);
    s.commit_in_memory(a);
    s.purge.run_once(&s.txns);
    let r = begin(&s);
    assert_eq!(scan_all(&s, &t, view(&s, &r)), vec![(1, 10)]);
    assert_eq!(scan_index(&t, view(&s, &r)), vec![(1, 10)]);
    assert_eq!(t.primary.len(), 1, "the undone insert's slot was purged");
}

#[test]
fn read_only_transaction_cannot_write() {
    let s = Storage::new();
    let t = table(false);
    let mut a = s.begin(Isolation::RepeatableRead, true, true);
    assert!(matches!(
        t.insert(&mut a, row(1, 1)),
        Err(StorageError::ReadOnlyTxn)
    ));
}

#[test]
fn deadlock_between_two_writers() {
    let s = Storage::new();
    let t = table(false);
    let mut a = begin(&s);
    t.insert(&mut a, row(1, 10)).unwrap();
    t.insert(&mut a, row(2, 20)).unwrap();
    s.commit_in_memory(a);
    let s1 = t.get(&t.primary_key(&row(1, 0)).unwrap()).unwrap();
    let s2 = t.get(&t.primary_key(&row(2, 0)).unwrap()).unwrap();
    let mut x = begin(&s);
    let mut y = begin(&s);
    t.lock(&mut x, &s1, LockMode::Exclusive).unwrap();
    t.lock(&mut y, &s2, LockMode::Exclusive).unwrap();
    match t.lock(&mut x, &s2, LockMode::Exclusive) {
        Err(StorageError::LockWait { slot, mode, .. }) => {
            s.waits.start_waiting(x.id(), slot.clone(), mode);
            assert!(!s.waits.is_deadlocked(x.id(), &slot, mode));
        }
        _ => panic!("x must wait"),
    }
    match t.lock(&mut y, &s1, LockMode::Exclusive) {
        Err(StorageError::LockWait { slot, mode, waiter }) => {
            s.waits.start_waiting(y.id(), slot.clone(), mode);
            assert!(s.waits.is_deadlocked(y.id(), &slot, mode));
            s.waits.stop_waiting(y.id());
            slot.state.lock().lock.cancel(&waiter);
        }
        _ => panic!("y must wait"),
    }
    s.rollback(y);
    // x was granted s2 when y released it.
    assert!(s2.state.lock().lock.holds(x.id(), LockMode::Exclusive));
    s.waits.stop_waiting(x.id());
    x.locked.push(s2.clone());
    s.rollback(x);
    assert!(s1.state.lock().lock.is_free());
    assert!(s2.state.lock().lock.is_free());
}
