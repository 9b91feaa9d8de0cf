//! String comparison under collations (interim version: ASCII case folding).

use super::types::Collation;
use std::cmp::Ordering;

fn trim(s: &[u8], coll: Collation) -> &[u8] {
    let mut s = s;
    if coll.pad_space() {
        while let [rest @ .., b' '] = s {
            s = rest;
        }
    }
    s
}

pub fn cmp(a: &[u8], b: &[u8], coll: Collation) -> Ordering {
    let (a, b) = (trim(a, coll), trim(b, coll));
    if coll.is_ci() {
        a.iter()
            .map(|c| c.to_ascii_uppercase())
            .cmp(b.iter().map(|c| c.to_ascii_uppercase()))
    } else {
        a.cmp(b)
    }
}

pub fn eq(a: &[u8], b: &[u8], coll: Collation) -> bool {
    cmp(a, b, coll) == Ordering::Equal
}

pub fn weight_key(s: &[u8], coll: Collation, out: &mut Vec<u8>) {
    for &c in trim(s, coll) {
        out.push(if coll.is_ci() {
            c.to_ascii_uppercase()
        } else {
            c
        });
    }
}

pub fn like(text: &[u8], pattern: &[u8], escape: u8, coll: Collation) -> bool {
    let f = |c: u8| {
        if coll.is_ci() {
            c.to_ascii_uppercase()
        } else {
            c
        }
    };
    fn go(t: &[u8], p: &[u8], esc: u8, f: &dyn Fn(u8) -> u8) -> bool {
        match p.first() {
            None => t.is_empty(),
            Some(b'%') => (0..=t.len()).any(|i| go(&t[i..], &p[1..], esc, f)),
            Some(b'_') => !t.is_empty() && go(&t[1..], &p[1..], esc, f),
            Some(&c) if c == esc && p.len() > 1 => {
                !t.is_empty() && f(t[0]) == f(p[1]) && go(&t[1..], &p[2..], esc, f)
            }
            Some(&c) => !t.is_empty() && f(t[0]) == f(c) && go(&t[1..], &p[1..], esc, f),
        }
    }
    go(text, pattern, escape, &f)
}

pub fn upper(s: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(s).to_uppercase().into_bytes()
}

pub fn lower(s: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(s).to_lowercase().into_bytes()
}

pub fn char_len(s: &[u8]) -> usize {
    String::from_utf8_lossy(s).chars().count()
}
