//! Collations: how character data compares, sorts, groups and matches `LIKE`.
//!
//! Quire holds all character data as utf8mb4 bytes; a [`Collation`] only changes how those
//! bytes compare. Every collation is one of three *rules*, each with or without `PAD SPACE`:
//!
//! | collations | rule | pad |
//! |---|---|---|
//! | `binary`, `utf8mb4_0900_bin` | bytes | NO PAD |
//! | `utf8mb4_bin`, `utf8mb3_bin`, `latin1_bin` | bytes (= code point order for valid UTF-8) | PAD SPACE |
//! | `utf8mb4_general_ci`, `utf8mb3_general_ci`, `latin1_swedish_ci`, `ascii_general_ci` | general_ci weights | PAD SPACE |
//! | `utf8mb4_0900_ai_ci` | general_ci weights (approximation) | NO PAD |
//! | `utf8mb4_unicode_ci` | UCA 4.0.0 weights (`collation/uca.rs`) | PAD SPACE |
//!
//! **general_ci weights** are MySQL's `utf8mb4_general_ci` sort weights, one 16-bit weight per
//! character, taken from the real server (`WEIGHT_STRING(c COLLATE utf8mb4_general_ci)` for
//! every BMP code point, compressed into `FOLD_RUNS` below): letters fold to upper case and
//! common Latin accents fold away (`a` = `A` = `á` = `Ä`, `ß` = `s`, `ı` = `i`), while some
//! letters stay distinct (`Æ`, `Ø`, `Đ`, `Þ`). As in MySQL, every supplementary character
//! (emoji, U+10000 and up) weighs U+FFFD under general_ci, so all emoji compare equal.
//!
//! **UCA 4.0.0 weights** are MariaDB 10.11's `utf8mb4_unicode_ci` (MySQL's as well), exact
//! for every character: taken from the real server for every BMP code point (the table and
//! its generator, `tools/uca_table.py`, are described in `collation/uca.rs`), implicit weights of CJK
//! ideographs and unassigned code points computed as UCA does, `FFFD` for every
//! supplementary character as in MariaDB. A character weighs a *sequence* of weights: one
//! for most, several for expansions (`ß` = `ss`, `ﬁ` = `fi`, `Œ` = `oe`; `Æ` is a letter of
//! its own between `A` and `B`), none for ignorables (most controls, format characters and
//! combining marks: `'e\u{301}'` = `'é'`). Strings compare as weight streams, so the order
//! is UCA's: punctuation < symbols < digits < letters (`'_' < '0' < 'a'`). Comparison,
//! sorting, grouping, keys, `LIKE`, `LOCATE`/`INSTR` and `FIELD` are exact (`FIND_IN_SET`
//! compares with general_ci weights whatever the collation, as before).
//!
//! **`utf8mb4_0900_ai_ci` is approximated**: MySQL uses the full UCA 9.0.0 (`ß` = `ss`,
//! `Æ` = `ae`, distinct emoji). Quire uses the general_ci weights with NO PAD, except that
//! supplementary characters weigh their own code point (so emoji stay distinct). Equality of
//! ASCII and most accented Latin text is as in MySQL; the differences are expansions
//! (`ß` = `ss`, `Æ` = `ae`), letters UCA folds but general_ci keeps (`Ø` = `o`, `Đ` = `d`),
//! and order across classes: UCA sorts punctuation and symbols before digits before
//! letters, general_ci by code point (`'_' > 'A'` here, `'_' < 'a'` in MySQL 8).
//!
//! **PAD SPACE** compares as if the shorter string were padded with spaces: `'a' = 'a  '`, and
//! `'a\t' < 'a'` because TAB sorts before space. Under UCA the padding is the space
//! *weight*, so every character weighing exactly a space pads too (`'a' = 'a\u{A0}'`).
//! **NO PAD** compares the strings as they are (`'a' < 'a '`).
//!
//! **Invalid UTF-8** never panics: an undecodable byte `b` is its own character with weight
//! `0xD800 + b` (a surrogate, which no valid character has), so every byte string has a total
//! order and a weight key.
//!
//! ## Weight keys
//!
//! [`weight_key`] turns a string into bytes whose `memcmp` order is the collation's order
//! and which are equal exactly when the strings compare equal; it is the basis of index keys
//! (`storage::keycode`) and `GROUP BY` keys. A key is self-delimiting (no key is a prefix of
//! another), so keys can be concatenated. Each character becomes a *token*:
//!
//! - bytes rule: byte `b` ≤ 0xFD → `b+1`; 0xFE → `FF 01`; 0xFF → `FF 02`;
//! - general_ci weights: weight `w` < 0x7F → `w+1`; else `80+(w>>16), (w>>8)&FF, w&FF`
//!   (3 bytes);
//! - UCA weights: *each weight* (not each character) → `w` as 2 bytes big endian. Every
//!   weight is at least `0201`, so a token never starts with `00` or `01`; an ignorable
//!   character adds nothing, an expansion several tokens.
//!
//! A NO PAD key ends with `00`, which sorts below every token, so `'a' < 'ab'`.
//!
//! A PAD SPACE key cannot simply drop trailing spaces (`'a\t' < 'a'` but `"a\t" > "a"` as
//! bytes). Instead a run of `n` spaces that is followed by a character `c` becomes the
//! *run token* `21, L|G, len(n)` where `21` is the space token (`02 09`, the space weight,
//! under UCA, where "space" and `c` are weights of the stream), `L` = `01` if `c` sorts below
//! space and `G` = `03` if above; `len(n)` is `n` as one byte (n < 255) or `FF` + 4 bytes big
//! endian, bit-inverted after `G` (a longer run followed by a bigger character is smaller).
//! The key ends with `21 02` (`E`): the end of a string behaves like an endless run of
//! spaces, which sorts between "spaces then something smaller" and "spaces then something
//! bigger". Trailing spaces are dropped. Example under `utf8mb4_general_ci`:
//!
//! ```text
//! 'ab'   → 42 43 21 02            ('A'+1, 'B'+1, end)
//! 'Ab  ' → 42 43 21 02            (same key: equal)
//! 'a b'  → 42 21 03 FE 43 21 02   (run of 1 space before 'B', inverted length)
//! 'a\t'  → 42 0A 21 02            (0A < 21: sorts before 'a')
//! ```
//!
//! and under `utf8mb4_unicode_ci`:
//!
//! ```text
//! 'a b'  → 0E 33 02 09 03 FE 0E 4A 02 09 02
//! 'ß'    → 0F EA 0F EA 02 09 02     (= 'ss')
//! ```
//!
//! ## Case mapping
//!
//! [`upper`]/[`lower`] use Rust's (current Unicode) simple one-to-one case mappings;
//! characters whose mapping is several characters (`ß` → `SS`) stay unchanged, as in MySQL.
//! MySQL's general_ci case tables predate Unicode 5.2, so about 500 rare BMP characters
//! (archaic Greek and Cyrillic letters, Latin Extended-B/C/D, Glagolitic, Coptic, …) map
//! differently (checked against MariaDB's `UPPER`/`LOWER` over the whole BMP); ASCII,
//! Latin-1, Latin Extended-A and the modern Greek and Cyrillic alphabets agree.
//!
//! ## Speed
//!
//! Comparison is on the hot path of every index lookup, sort and join. [`cmp`] never
//! allocates: the bytes rules are a `memcmp` plus a scan of the longer tail; the weight rules
//! compare ASCII byte pairs through a 256-entry fold table and decode UTF-8 only when a
//! non-ASCII byte shows up. UCA compares two weight streams (a scanner per string that
//! yields one weight at a time from a slice of the table), with the same ASCII pair shortcut
//! through its own 128-entry table.

mod uca;
mod uca_table;

use super::types::Collation;
use std::cmp::Ordering;

/// How a collation weighs characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// Compare bytes.
    Bytes,
    /// MySQL's general_ci weights; supplementary characters weigh U+FFFD.
    GeneralCi,
    /// general_ci weights for the BMP; supplementary characters weigh their code point.
    AiCi,
    /// UCA 4.0.0 primary weights (`utf8mb4_unicode_ci`, see [`uca`]).
    Uca,
}

#[inline]
fn rule_of(coll: Collation) -> (Rule, bool) {
    match coll {
        Collation::Binary | Collation::Utf8mb4_0900Bin => (Rule::Bytes, false),
        Collation::Utf8mb4Bin | Collation::Utf8mb3Bin | Collation::Latin1Bin => (Rule::Bytes, true),
        Collation::Utf8mb4UnicodeCi => (Rule::Uca, true),
        Collation::Utf8mb4GeneralCi
        | Collation::Utf8mb3GeneralCi
        | Collation::Latin1SwedishCi
        | Collation::AsciiGeneralCi => (Rule::GeneralCi, true),
        Collation::Utf8mb4_0900AiCi => (Rule::AiCi, false),
    }
}

/// `decode` reports an undecodable byte `b` as the pseudo code point `INVALID + b`.
const INVALID: u32 = 0x11_0000;
/// Weight of an undecodable byte `b`: `INVALID_WEIGHT + b` (the surrogate block).
const INVALID_WEIGHT: u32 = 0xD800;

#[inline]
fn is_cont(b: u8) -> bool {
    b & 0xC0 == 0x80
}

/// Decodes the character at the start of `s`: (code point, length in bytes). An invalid or
/// truncated sequence (overlong forms, surrogates and code points past U+10FFFF included)
/// yields `(INVALID + first byte, 1)`; an empty slice yields `(INVALID, 0)`.
#[inline]
fn decode(s: &[u8]) -> (u32, usize) {
    let Some(&b0) = s.first() else {
        return (INVALID, 0);
    };
    let bad = (INVALID + b0 as u32, 1);
    let at = |i: usize| s.get(i).copied().filter(|&b| is_cont(b));
    match b0 {
        0x00..=0x7F => (b0 as u32, 1),
        0xC2..=0xDF => match at(1) {
            Some(b1) => (((b0 as u32 & 0x1F) << 6) | (b1 as u32 & 0x3F), 2),
            None => bad,
        },
        0xE0..=0xEF => match (at(1), at(2)) {
            (Some(b1), Some(b2)) if !(b0 == 0xE0 && b1 < 0xA0 || b0 == 0xED && b1 > 0x9F) => (
                ((b0 as u32 & 0x0F) << 12) | ((b1 as u32 & 0x3F) << 6) | (b2 as u32 & 0x3F),
                3,
            ),
            _ => bad,
        },
        0xF0..=0xF4 => match (at(1), at(2), at(3)) {
            (Some(b1), Some(b2), Some(b3))
                if !(b0 == 0xF0 && b1 < 0x90 || b0 == 0xF4 && b1 > 0x8F) =>
            {
                (
                    ((b0 as u32 & 0x07) << 18)
                        | ((b1 as u32 & 0x3F) << 12)
                        | ((b2 as u32 & 0x3F) << 6)
                        | (b3 as u32 & 0x3F),
                    4,
                )
            }
            _ => bad,
        },
        _ => bad,
    }
}

/// The weight of code point `cp` (as returned by [`decode`]) under a weight rule.
#[inline]
fn weight(cp: u32, rule: Rule) -> u32 {
    if cp <= 0xFFFF {
        fold_bmp(cp)
    } else if cp >= INVALID {
        INVALID_WEIGHT + (cp - INVALID)
    } else if rule == Rule::AiCi {
        cp
    } else {
        0xFFFD
    }
}

/// general_ci weight of a BMP code point.
#[inline]
fn fold_bmp(cp: u32) -> u32 {
    let page = PAGE_SLOT[(cp >> 8) as usize & 0xFF];
    if page == 0 {
        cp
    } else {
        FOLD_PAGES[page as usize - 1][cp as usize & 0xFF] as u32
    }
}

/// Compares two strings under `coll`.
pub fn cmp(a: &[u8], b: &[u8], coll: Collation) -> Ordering {
    match rule_of(coll) {
        (Rule::Bytes, false) => a.cmp(b),
        (Rule::Bytes, true) => cmp_bytes_pad(a, b),
        (Rule::Uca, pad) => uca::cmp(a, b, common_prefix(a, b), pad),
        (rule, pad) => cmp_weights(a, b, rule, pad),
    }
}

/// Compares two strings under `coll` without PAD SPACE (MySQL's `strnncoll`, as the
/// string functions that search use it: `'a ' > 'a'`, and `'ss' = 'ß'` under unicode_ci).
pub fn cmp_no_pad(a: &[u8], b: &[u8], coll: Collation) -> Ordering {
    match rule_of(coll) {
        (Rule::Bytes, _) => a.cmp(b),
        (Rule::Uca, _) => uca::cmp(a, b, common_prefix(a, b), false),
        (rule, _) => cmp_weights(a, b, rule, false),
    }
}

/// `cmp(a, b, coll) == Equal`, with shortcuts.
pub fn eq(a: &[u8], b: &[u8], coll: Collation) -> bool {
    match rule_of(coll) {
        (Rule::Bytes, false) => a == b,
        _ => a == b || cmp(a, b, coll) == Ordering::Equal,
    }
}

/// The PAD SPACE verdict for a tail that the other string lacks: the tail against spaces.
/// Every character other than space weighs more than space except the control characters
/// below it, so the first non-space byte decides under every rule.
#[inline]
fn tail_vs_spaces(tail: &[u8]) -> Ordering {
    match tail.iter().find(|&&x| x != b' ') {
        Some(&x) if x < b' ' => Ordering::Less,
        Some(_) => Ordering::Greater,
        None => Ordering::Equal,
    }
}

fn cmp_bytes_pad(a: &[u8], b: &[u8]) -> Ordering {
    let n = a.len().min(b.len());
    let (head_a, tail_a) = a.split_at(n);
    let (head_b, tail_b) = b.split_at(n);
    match head_a.cmp(head_b) {
        Ordering::Equal if !tail_a.is_empty() => tail_vs_spaces(tail_a),
        Ordering::Equal => tail_vs_spaces(tail_b).reverse(),
        other => other,
    }
}

/// The length of the common prefix of `a` and `b` that ends a character in both: identical
/// bytes weigh the same, so comparisons skip them, backing up to just after the last ASCII
/// byte (a multi-byte character may straddle the first difference).
#[inline]
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let mut start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    while start > 0 && a.get(start - 1).is_some_and(|&c| c >= 0x80) {
        start -= 1;
    }
    start
}

fn cmp_weights(a: &[u8], b: &[u8], rule: Rule, pad: bool) -> Ordering {
    let start = common_prefix(a, b);
    let (mut i, mut j) = (start, start);
    while let (Some(&x), Some(&y)) = (a.get(i), b.get(j)) {
        if (x | y) < 0x80 {
            if x != y {
                let (wx, wy) = (FOLD_PAGES[0][x as usize], FOLD_PAGES[0][y as usize]);
                if wx != wy {
                    return wx.cmp(&wy);
                }
            }
            i += 1;
            j += 1;
        } else {
            let (cx, lx) = decode(&a[i..]);
            let (cy, ly) = decode(&b[j..]);
            let (wx, wy) = (weight(cx, rule), weight(cy, rule));
            if wx != wy {
                return wx.cmp(&wy);
            }
            i += lx;
            j += ly;
        }
    }
    let tail_a = a.get(i..).unwrap_or_default();
    let tail_b = b.get(j..).unwrap_or_default();
    match (tail_a.is_empty(), tail_b.is_empty()) {
        (true, true) => Ordering::Equal,
        (false, _) if pad => tail_vs_spaces(tail_a),
        (_, false) if pad => tail_vs_spaces(tail_b).reverse(),
        (false, _) => Ordering::Greater,
        (_, false) => Ordering::Less,
    }
}

/// The space token (space weighs 0x20 under every rule: token 0x21).
const SPACE_TOKEN: u8 = 0x21;
/// After [`SPACE_TOKEN`]: spaces followed by a character below space / the end / above.
const RUN_LESS: u8 = 0x01;
const RUN_END: u8 = 0x02;
const RUN_GREATER: u8 = 0x03;
/// Terminator of a NO PAD key.
const NO_PAD_END: u8 = 0x00;

#[inline]
fn push_byte_token(b: u8, out: &mut Vec<u8>) {
    match b {
        0xFE => out.extend_from_slice(&[0xFF, 0x01]),
        0xFF => out.extend_from_slice(&[0xFF, 0x02]),
        _ => out.push(b + 1),
    }
}

#[inline]
fn push_weight_token(w: u32, out: &mut Vec<u8>) {
    if w < 0x7F {
        out.push(w as u8 + 1);
    } else {
        out.extend_from_slice(&[0x80 + (w >> 16) as u8, (w >> 8) as u8, w as u8]);
    }
}

/// A run of `n` spaces (`space`: the space token) followed by a character that sorts below
/// (`less`) or above space.
fn push_run(space: &[u8], n: usize, less: bool, out: &mut Vec<u8>) {
    let mut len = [0u8; 5];
    let used = if n < 0xFF {
        len[0] = n as u8;
        1
    } else {
        len[0] = 0xFF;
        len[1..].copy_from_slice(&(n.min(u32::MAX as usize) as u32).to_be_bytes());
        5
    };
    out.extend_from_slice(space);
    if less {
        out.push(RUN_LESS);
        out.extend_from_slice(&len[..used]);
    } else {
        out.push(RUN_GREATER);
        out.extend(len[..used].iter().map(|b| !b));
    }
}

/// Appends the weight key of `s` under `coll` (see the module doc): `memcmp` order of keys
/// is [`cmp`] order, and keys are equal exactly when the strings compare equal.
pub fn weight_key(s: &[u8], coll: Collation, out: &mut Vec<u8>) {
    let (rule, pad) = rule_of(coll);
    if rule == Rule::Uca {
        return uca::weight_key(s, pad, out);
    }
    out.reserve(s.len() + 2);
    let mut spaces = 0usize;
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        if rule != Rule::Bytes && spaces == 0 {
            // Fast path: a run of ASCII other than space, one token byte each.
            let run = s[i..]
                .iter()
                .take_while(|&&c| c < 0x7F && (c != b' ' || !pad))
                .count();
            if run > 0 {
                out.extend(
                    s[i..i + run]
                        .iter()
                        .map(|&c| FOLD_PAGES[0][c as usize] as u8 + 1),
                );
                i += run;
                continue;
            }
        }
        // The weight of the next character, then its token.
        let (w, len) = match rule {
            Rule::Bytes => (b as u32, 1),
            _ if b < 0x80 => (FOLD_PAGES[0][b as usize] as u32, 1),
            _ => {
                let (cp, len) = decode(&s[i..]);
                (weight(cp, rule), len)
            }
        };
        i += len;
        if pad && w == 0x20 {
            spaces += 1;
            continue;
        }
        if spaces > 0 {
            push_run(&[SPACE_TOKEN], spaces, w < 0x20, out);
            spaces = 0;
        }
        match rule {
            Rule::Bytes => push_byte_token(b, out),
            _ => push_weight_token(w, out),
        }
    }
    if pad {
        out.extend_from_slice(&[SPACE_TOKEN, RUN_END]);
    } else {
        out.push(NO_PAD_END);
    }
}

/// One element of a LIKE pattern.
enum Pat {
    /// `%`: any run of characters.
    Any,
    /// `_`: exactly one character.
    One,
    /// A character (code point, or byte under `binary`) that must match.
    Lit(u32),
}

/// SQL `LIKE`: `%` matches any run of characters, `_` exactly one, `escape` makes the next
/// pattern character literal (a trailing escape is literal itself, as in MySQL). Characters
/// compare under `coll` (case-insensitively under `_ci`); trailing spaces are significant,
/// as in MySQL. `_` is one byte under `binary`, one character otherwise.
///
/// The matcher is iterative with one backtrack point (the last `%`): O(len(text) ×
/// len(pattern)) in the worst case, never exponential.
pub fn like(text: &[u8], pattern: &[u8], escape: u8, coll: Collation) -> bool {
    let (rule, _) = rule_of(coll);
    let by_byte = coll == Collation::Binary;
    // The next unit (code point or byte) of `s` at `i`: (value, length).
    let unit = |s: &[u8], i: usize| -> (u32, usize) {
        match s.get(i) {
            Some(&b) if by_byte || b < 0x80 => (b as u32, 1),
            Some(_) => decode(&s[i..]),
            None => (INVALID, 0),
        }
    };
    let same = |x: u32, y: u32| -> bool {
        if rule == Rule::Uca {
            return uca::like_same(x, y);
        }
        x == y
            || (rule != Rule::Bytes && !by_byte && {
                let fx = if x < 0x80 {
                    FOLD_PAGES[0][x as usize] as u32
                } else {
                    weight(x, rule)
                };
                let fy = if y < 0x80 {
                    FOLD_PAGES[0][y as usize] as u32
                } else {
                    weight(y, rule)
                };
                fx == fy
            })
    };
    // The pattern element at `p` and the index after it.
    let element = |p: usize| -> (Pat, usize) {
        match pattern.get(p) {
            Some(&c) if c == escape && p + 1 < pattern.len() => {
                let (u, len) = unit(pattern, p + 1);
                (Pat::Lit(u), p + 1 + len)
            }
            Some(b'%') => (Pat::Any, p + 1),
            Some(b'_') => (Pat::One, p + 1),
            _ => {
                let (u, len) = unit(pattern, p);
                (Pat::Lit(u), p + len)
            }
        }
    };

    let (mut t, mut p) = (0usize, 0usize);
    // After a `%`: (pattern index after it, text index it has absorbed up to).
    let mut backtrack: Option<(usize, usize)> = None;
    loop {
        if p < pattern.len() {
            let (el, next_p) = element(p);
            match el {
                Pat::Any => {
                    p = next_p;
                    backtrack = Some((p, t));
                    continue;
                }
                Pat::One if t < text.len() => {
                    t += unit(text, t).1;
                    p = next_p;
                    continue;
                }
                Pat::Lit(c) if t < text.len() => {
                    let (u, len) = unit(text, t);
                    if same(u, c) {
                        t += len;
                        p = next_p;
                        continue;
                    }
                }
                _ => {}
            }
        } else if t >= text.len() {
            return true;
        }
        // Mismatch: let the last `%` absorb one more character and retry.
        match backtrack {
            Some((bp, bt)) if bt < text.len() => {
                let bt = bt + unit(text, bt).1;
                backtrack = Some((bp, bt));
                t = bt;
                p = bp;
            }
            _ => return false,
        }
    }
}

/// Upper-cases utf8 text: ASCII directly, other characters by their single-character Unicode
/// mapping (characters whose upper case is several characters, like `ß`, stay as they are,
/// as in MySQL). Invalid bytes are copied unchanged.
pub fn upper(s: &[u8]) -> Vec<u8> {
    map_case(s, true)
}

/// Lower-cases utf8 text; see [`upper`].
pub fn lower(s: &[u8]) -> Vec<u8> {
    map_case(s, false)
}

fn map_case(s: &[u8], to_upper: bool) -> Vec<u8> {
    if s.is_ascii() {
        return if to_upper {
            s.to_ascii_uppercase()
        } else {
            s.to_ascii_lowercase()
        };
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        if b < 0x80 {
            out.push(if to_upper {
                b.to_ascii_uppercase()
            } else {
                b.to_ascii_lowercase()
            });
            i += 1;
            continue;
        }
        let (cp, len) = decode(&s[i..]);
        match char::from_u32(cp) {
            Some(c) => {
                let mapped = if to_upper {
                    single(c.to_uppercase())
                } else {
                    single(c.to_lowercase())
                };
                let mut buf = [0u8; 4];
                out.extend_from_slice(mapped.unwrap_or(c).encode_utf8(&mut buf).as_bytes());
            }
            None => out.push(b),
        }
        i += len;
    }
    out
}

fn single(mut it: impl Iterator<Item = char>) -> Option<char> {
    let first = it.next()?;
    if it.next().is_some() {
        None
    } else {
        Some(first)
    }
}

/// Number of characters in utf8 text (an invalid byte counts as one character).
pub fn char_len(s: &[u8]) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    let (mut n, mut i) = (0, 0);
    while i < s.len() {
        i += decode(&s[i..]).1;
        n += 1;
    }
    n
}

/// The longest prefix of `s` with at most `n` characters.
pub fn truncate_chars(s: &[u8], n: usize) -> &[u8] {
    if s.len() <= n {
        return s;
    }
    let (mut count, mut i) = (0, 0);
    while i < s.len() && count < n {
        i += decode(&s[i..]).1;
        count += 1;
    }
    s.get(..i).unwrap_or(s)
}

/// `count` pairs of random strings of up to `len_max` characters of `alphabet` (xorshift
/// from `seed`), for the tests that check comparison against keys or a reference.
#[cfg(test)]
fn random_pairs(alphabet: &[&str], seed: u64, count: usize, len_max: u64) -> Vec<(String, String)> {
    let mut x = seed;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut make = || {
        let n = next() % (len_max + 1);
        (0..n)
            .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
            .collect::<String>()
    };
    (0..count).map(|_| (make(), make())).collect()
}

// ---------------------------------------------------------------------------------------
// The general_ci weight table.

/// A run of BMP code points with their general_ci weights: `first..=last` all weigh
/// `value` (kind `W`), weigh `cp + value` (kind `D`), or every second code point from
/// `first` weighs `cp + value` (kind `S`, the others weigh themselves).
#[derive(Clone, Copy)]
struct Run {
    first: u16,
    last: u16,
    kind: u8,
    value: i32,
}

const fn w(first: u16, last: u16, value: i32) -> Run {
    Run {
        first,
        last,
        kind: b'W',
        value,
    }
}
const fn d(first: u16, last: u16, value: i32) -> Run {
    Run {
        first,
        last,
        kind: b'D',
        value,
    }
}
const fn s(first: u16, last: u16, value: i32) -> Run {
    Run {
        first,
        last,
        kind: b'S',
        value,
    }
}

/// The 256-code-point pages of the BMP that contain a code point whose weight is not
/// itself. Every other page weighs its code points as themselves.
const FOLDED_PAGES: [u8; 11] = [
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x1E, 0x1F, 0x21, 0x24, 0xFF,
];

/// `PAGE_SLOT[page]` is 1 + the index in [`FOLD_PAGES`] of a folded page, 0 otherwise.
static PAGE_SLOT: [u8; 256] = {
    let mut slots = [0u8; 256];
    let mut i = 0;
    while i < FOLDED_PAGES.len() {
        slots[FOLDED_PAGES[i] as usize] = i as u8 + 1;
        i += 1;
    }
    slots
};

/// The weights of the folded pages, built at compile time from [`FOLD_RUNS`]. Page 0 is
/// first, so `FOLD_PAGES[0]` is the byte fold table of the ASCII fast paths.
static FOLD_PAGES: [[u16; 256]; 11] = {
    let mut pages = [[0u16; 256]; 11];
    let mut p = 0;
    while p < FOLDED_PAGES.len() {
        let mut i = 0;
        while i < 256 {
            pages[p][i] = ((FOLDED_PAGES[p] as u16) << 8) | i as u16;
            i += 1;
        }
        p += 1;
    }
    let mut r = 0;
    while r < FOLD_RUNS.len() {
        let run = FOLD_RUNS[r];
        let mut cp = run.first as u32;
        while cp <= run.last as u32 {
            let weight = match run.kind {
                b'W' => run.value,
                b'D' => cp as i32 + run.value,
                _ => {
                    if (cp - run.first as u32).is_multiple_of(2) {
                        cp as i32 + run.value
                    } else {
                        cp as i32
                    }
                }
            };
            let page = (cp >> 8) as usize;
            let mut slot = 0;
            while slot < FOLDED_PAGES.len() && FOLDED_PAGES[slot] as usize != page {
                slot += 1;
            }
            // A run outside FOLDED_PAGES is a table bug: fail the build.
            assert!(slot < FOLDED_PAGES.len(), "fold run outside FOLDED_PAGES");
            pages[slot][(cp & 0xFF) as usize] = weight as u16;
            cp += 1;
        }
        r += 1;
    }
    pages
};

/// MySQL's utf8mb4_general_ci weights of every BMP code point that does not weigh itself,
/// generated from MariaDB 10.11 (same table as MySQL 8.0's `my_unicase_default`):
/// `SELECT seq, HEX(WEIGHT_STRING(CONVERT(CHAR(seq USING utf32) USING utf8mb4) COLLATE
/// utf8mb4_general_ci)) FROM seq_0_to_65535`.
#[rustfmt::skip]
static FOLD_RUNS: [Run; 280] = [
    d(0x0061, 0x007A, -32), w(0x00B5, 0x00B5, 0x039C), w(0x00C0, 0x00C5, 0x0041),
    w(0x00C7, 0x00C7, 0x0043), w(0x00C8, 0x00CB, 0x0045), w(0x00CC, 0x00CF, 0x0049),
    d(0x00D1, 0x00D2, -131), w(0x00D3, 0x00D6, 0x004F), w(0x00D9, 0x00DC, 0x0055),
    w(0x00DD, 0x00DD, 0x0059), w(0x00DF, 0x00DF, 0x0053), w(0x00E0, 0x00E5, 0x0041),
    w(0x00E6, 0x00E6, 0x00C6), w(0x00E7, 0x00E7, 0x0043), w(0x00E8, 0x00EB, 0x0045),
    w(0x00EC, 0x00EF, 0x0049), w(0x00F0, 0x00F0, 0x00D0), d(0x00F1, 0x00F2, -163),
    w(0x00F3, 0x00F6, 0x004F), w(0x00F8, 0x00F8, 0x00D8), w(0x00F9, 0x00FC, 0x0055),
    w(0x00FD, 0x00FD, 0x0059), w(0x00FE, 0x00FE, 0x00DE), w(0x00FF, 0x00FF, 0x0059),
    w(0x0100, 0x0105, 0x0041), w(0x0106, 0x010D, 0x0043), w(0x010E, 0x010F, 0x0044),
    w(0x0111, 0x0111, 0x0110), w(0x0112, 0x011B, 0x0045), w(0x011C, 0x0123, 0x0047),
    w(0x0124, 0x0125, 0x0048), w(0x0127, 0x0127, 0x0126), w(0x0128, 0x0131, 0x0049),
    w(0x0133, 0x0133, 0x0132), w(0x0134, 0x0135, 0x004A), w(0x0136, 0x0137, 0x004B),
    w(0x0139, 0x013E, 0x004C), s(0x0140, 0x0142, -1), w(0x0143, 0x0148, 0x004E),
    w(0x014B, 0x014B, 0x014A), w(0x014C, 0x0151, 0x004F), w(0x0153, 0x0153, 0x0152),
    w(0x0154, 0x0159, 0x0052), w(0x015A, 0x0161, 0x0053), w(0x0162, 0x0165, 0x0054),
    w(0x0167, 0x0167, 0x0166), w(0x0168, 0x0173, 0x0055), w(0x0174, 0x0175, 0x0057),
    w(0x0176, 0x0178, 0x0059), w(0x0179, 0x017E, 0x005A), w(0x017F, 0x017F, 0x0053),
    s(0x0183, 0x0185, -1), w(0x0188, 0x0188, 0x0187), w(0x018C, 0x018C, 0x018B),
    w(0x0192, 0x0192, 0x0191), w(0x0195, 0x0195, 0x01F6), w(0x0199, 0x0199, 0x0198),
    w(0x01A0, 0x01A1, 0x004F), s(0x01A3, 0x01A5, -1), w(0x01A8, 0x01A8, 0x01A7),
    w(0x01AD, 0x01AD, 0x01AC), w(0x01AF, 0x01B0, 0x0055), s(0x01B4, 0x01B6, -1),
    w(0x01B9, 0x01B9, 0x01B8), w(0x01BD, 0x01BD, 0x01BC), w(0x01BF, 0x01BF, 0x01F7),
    w(0x01C5, 0x01C6, 0x01C4), w(0x01C8, 0x01C9, 0x01C7), w(0x01CB, 0x01CC, 0x01CA),
    w(0x01CD, 0x01CE, 0x0041), w(0x01CF, 0x01D0, 0x0049), w(0x01D1, 0x01D2, 0x004F),
    w(0x01D3, 0x01DC, 0x0055), w(0x01DD, 0x01DD, 0x018E), w(0x01DE, 0x01E1, 0x0041),
    w(0x01E2, 0x01E3, 0x00C6), w(0x01E5, 0x01E5, 0x01E4), w(0x01E6, 0x01E7, 0x0047),
    w(0x01E8, 0x01E9, 0x004B), w(0x01EA, 0x01ED, 0x004F), w(0x01EE, 0x01EF, 0x01B7),
    w(0x01F0, 0x01F0, 0x004A), w(0x01F2, 0x01F3, 0x01F1), w(0x01F4, 0x01F5, 0x0047),
    w(0x01F8, 0x01F9, 0x004E), w(0x01FA, 0x01FB, 0x0041), w(0x01FC, 0x01FD, 0x00C6),
    w(0x01FE, 0x01FF, 0x00D8), w(0x0200, 0x0203, 0x0041), w(0x0204, 0x0207, 0x0045),
    w(0x0208, 0x020B, 0x0049), w(0x020C, 0x020F, 0x004F), w(0x0210, 0x0213, 0x0052),
    w(0x0214, 0x0217, 0x0055), w(0x0218, 0x0219, 0x0053), w(0x021A, 0x021B, 0x0054),
    w(0x021D, 0x021D, 0x021C), w(0x021E, 0x021F, 0x0048), s(0x0223, 0x0225, -1),
    w(0x0226, 0x0227, 0x0041), w(0x0228, 0x0229, 0x0045), w(0x022A, 0x0231, 0x004F),
    w(0x0232, 0x0233, 0x0059), w(0x0253, 0x0253, 0x0181), w(0x0254, 0x0254, 0x0186),
    d(0x0256, 0x0257, -205), w(0x0259, 0x0259, 0x018F), w(0x025B, 0x025B, 0x0190),
    w(0x0260, 0x0260, 0x0193), w(0x0263, 0x0263, 0x0194), w(0x0268, 0x0268, 0x0197),
    w(0x0269, 0x0269, 0x0196), w(0x026F, 0x026F, 0x019C), w(0x0272, 0x0272, 0x019D),
    w(0x0275, 0x0275, 0x019F), w(0x0280, 0x0280, 0x01A6), w(0x0283, 0x0283, 0x01A9),
    w(0x0288, 0x0288, 0x01AE), d(0x028A, 0x028B, -217), w(0x0292, 0x0292, 0x01B7),
    w(0x0345, 0x0345, 0x0399), w(0x0386, 0x0386, 0x0391), w(0x0388, 0x0388, 0x0395),
    w(0x0389, 0x0389, 0x0397), w(0x038A, 0x038A, 0x0399), w(0x038C, 0x038C, 0x039F),
    w(0x038E, 0x038E, 0x03A5), w(0x038F, 0x038F, 0x03A9), w(0x0390, 0x0390, 0x0399),
    w(0x03AA, 0x03AA, 0x0399), w(0x03AB, 0x03AB, 0x03A5), w(0x03AC, 0x03AC, 0x0391),
    w(0x03AD, 0x03AD, 0x0395), w(0x03AE, 0x03AE, 0x0397), w(0x03AF, 0x03AF, 0x0399),
    w(0x03B0, 0x03B0, 0x03A5), d(0x03B1, 0x03C1, -32), w(0x03C2, 0x03C3, 0x03A3),
    d(0x03C4, 0x03C9, -32), w(0x03CA, 0x03CA, 0x0399), w(0x03CB, 0x03CB, 0x03A5),
    w(0x03CC, 0x03CC, 0x039F), w(0x03CD, 0x03CD, 0x03A5), w(0x03CE, 0x03CE, 0x03A9),
    w(0x03D0, 0x03D0, 0x0392), w(0x03D1, 0x03D1, 0x0398), w(0x03D3, 0x03D4, 0x03D2),
    w(0x03D5, 0x03D5, 0x03A6), w(0x03D6, 0x03D6, 0x03A0), s(0x03DB, 0x03EF, -1),
    w(0x03F0, 0x03F0, 0x039A), w(0x03F1, 0x03F1, 0x03A1), w(0x03F2, 0x03F2, 0x03A3),
    w(0x0400, 0x0401, 0x0415), w(0x0403, 0x0403, 0x0413), w(0x0407, 0x0407, 0x0406),
    w(0x040C, 0x040C, 0x041A), w(0x040D, 0x040D, 0x0418), w(0x040E, 0x040E, 0x0423),
    d(0x0430, 0x044F, -32), w(0x0450, 0x0451, 0x0415), w(0x0452, 0x0452, 0x0402),
    w(0x0453, 0x0453, 0x0413), d(0x0454, 0x0456, -80), w(0x0457, 0x0457, 0x0406),
    d(0x0458, 0x045B, -80), w(0x045C, 0x045C, 0x041A), w(0x045D, 0x045D, 0x0418),
    w(0x045E, 0x045E, 0x0423), w(0x045F, 0x045F, 0x040F), s(0x0461, 0x0473, -1),
    w(0x0475, 0x0477, 0x0474), s(0x0479, 0x0481, -1), s(0x048D, 0x04BF, -1),
    w(0x04C1, 0x04C2, 0x0416), w(0x04C4, 0x04C4, 0x04C3), w(0x04C8, 0x04C8, 0x04C7),
    w(0x04CC, 0x04CC, 0x04CB), w(0x04D0, 0x04D3, 0x0410), w(0x04D5, 0x04D5, 0x04D4),
    w(0x04D6, 0x04D7, 0x0415), w(0x04D9, 0x04DB, 0x04D8), w(0x04DC, 0x04DD, 0x0416),
    w(0x04DE, 0x04DF, 0x0417), w(0x04E1, 0x04E1, 0x04E0), w(0x04E2, 0x04E5, 0x0418),
    w(0x04E6, 0x04E7, 0x041E), w(0x04E9, 0x04EB, 0x04E8), w(0x04EC, 0x04ED, 0x042D),
    w(0x04EE, 0x04F3, 0x0423), w(0x04F4, 0x04F5, 0x0427), w(0x04F8, 0x04F9, 0x042B),
    d(0x0561, 0x0586, -48), w(0x1E00, 0x1E01, 0x0041), w(0x1E02, 0x1E07, 0x0042),
    w(0x1E08, 0x1E09, 0x0043), w(0x1E0A, 0x1E13, 0x0044), w(0x1E14, 0x1E1D, 0x0045),
    w(0x1E1E, 0x1E1F, 0x0046), w(0x1E20, 0x1E21, 0x0047), w(0x1E22, 0x1E2B, 0x0048),
    w(0x1E2C, 0x1E2F, 0x0049), w(0x1E30, 0x1E35, 0x004B), w(0x1E36, 0x1E3D, 0x004C),
    w(0x1E3E, 0x1E43, 0x004D), w(0x1E44, 0x1E4B, 0x004E), w(0x1E4C, 0x1E53, 0x004F),
    w(0x1E54, 0x1E57, 0x0050), w(0x1E58, 0x1E5F, 0x0052), w(0x1E60, 0x1E69, 0x0053),
    w(0x1E6A, 0x1E71, 0x0054), w(0x1E72, 0x1E7B, 0x0055), w(0x1E7C, 0x1E7F, 0x0056),
    w(0x1E80, 0x1E89, 0x0057), w(0x1E8A, 0x1E8D, 0x0058), w(0x1E8E, 0x1E8F, 0x0059),
    w(0x1E90, 0x1E95, 0x005A), w(0x1E96, 0x1E96, 0x0048), w(0x1E97, 0x1E97, 0x0054),
    w(0x1E98, 0x1E98, 0x0057), w(0x1E99, 0x1E99, 0x0059), w(0x1E9B, 0x1E9B, 0x0053),
    w(0x1EA0, 0x1EB7, 0x0041), w(0x1EB8, 0x1EC7, 0x0045), w(0x1EC8, 0x1ECB, 0x0049),
    w(0x1ECC, 0x1EE3, 0x004F), w(0x1EE4, 0x1EF1, 0x0055), w(0x1EF2, 0x1EF9, 0x0059),
    w(0x1F00, 0x1F0F, 0x0391), w(0x1F10, 0x1F15, 0x0395), w(0x1F18, 0x1F1D, 0x0395),
    w(0x1F20, 0x1F2F, 0x0397), w(0x1F30, 0x1F3F, 0x0399), w(0x1F40, 0x1F45, 0x039F),
    w(0x1F48, 0x1F4D, 0x039F), w(0x1F50, 0x1F57, 0x03A5), w(0x1F59, 0x1F59, 0x03A5),
    w(0x1F5B, 0x1F5B, 0x03A5), w(0x1F5D, 0x1F5D, 0x03A5), w(0x1F5F, 0x1F5F, 0x03A5),
    w(0x1F60, 0x1F6F, 0x03A9), w(0x1F70, 0x1F70, 0x0391), w(0x1F71, 0x1F71, 0x1FBB),
    w(0x1F72, 0x1F72, 0x0395), w(0x1F73, 0x1F73, 0x1FC9), w(0x1F74, 0x1F74, 0x0397),
    w(0x1F75, 0x1F75, 0x1FCB), w(0x1F76, 0x1F76, 0x0399), w(0x1F77, 0x1F77, 0x1FDB),
    w(0x1F78, 0x1F78, 0x039F), w(0x1F79, 0x1F79, 0x1FF9), w(0x1F7A, 0x1F7A, 0x03A5),
    w(0x1F7B, 0x1F7B, 0x1FEB), w(0x1F7C, 0x1F7C, 0x03A9), w(0x1F7D, 0x1F7D, 0x1FFB),
    w(0x1F80, 0x1F8F, 0x0391), w(0x1F90, 0x1F9F, 0x0397), w(0x1FA0, 0x1FAF, 0x03A9),
    w(0x1FB0, 0x1FB4, 0x0391), w(0x1FB6, 0x1FBA, 0x0391), w(0x1FBC, 0x1FBC, 0x0391),
    w(0x1FBE, 0x1FBE, 0x0399), w(0x1FC2, 0x1FC4, 0x0397), w(0x1FC6, 0x1FC7, 0x0397),
    s(0x1FC8, 0x1FCA, -7219), w(0x1FCC, 0x1FCC, 0x0397), w(0x1FD0, 0x1FD2, 0x0399),
    w(0x1FD6, 0x1FDA, 0x0399), w(0x1FE0, 0x1FE2, 0x03A5), w(0x1FE4, 0x1FE5, 0x03A1),
    w(0x1FE6, 0x1FEA, 0x03A5), w(0x1FEC, 0x1FEC, 0x03A1), w(0x1FF2, 0x1FF4, 0x03A9),
    w(0x1FF6, 0x1FF7, 0x03A9), w(0x1FF8, 0x1FF8, 0x039F), w(0x1FFA, 0x1FFA, 0x03A9),
    w(0x1FFC, 0x1FFC, 0x03A9), d(0x2170, 0x217F, -16), d(0x24D0, 0x24E9, -26),
    d(0xFF41, 0xFF5A, -32),
];

#[cfg(test)]
mod tests {
    use super::*;
    use Collation::*;
    use Ordering::*;

    fn key(s: &str, coll: Collation) -> Vec<u8> {
        let mut out = Vec::new();
        weight_key(s.as_bytes(), coll, &mut out);
        out
    }

    /// cmp, eq and weight_key agree with each other on a pair.
    fn check_pair(a: &[u8], b: &[u8], coll: Collation) -> Ordering {
        let o = cmp(a, b, coll);
        assert_eq!(
            cmp(b, a, coll),
            o.reverse(),
            "antisymmetry {a:?} {b:?} {coll}"
        );
        assert_eq!(eq(a, b, coll), o == Equal);
        let (mut ka, mut kb) = (Vec::new(), Vec::new());
        weight_key(a, coll, &mut ka);
        weight_key(b, coll, &mut kb);
        assert_eq!(
            ka.cmp(&kb),
            o,
            "keys of {a:?} {b:?} under {coll}: {ka:x?} {kb:x?}"
        );
        o
    }

    #[test]
    fn general_ci_matches_mariadb() {
        // Each checked against MariaDB 10.11 (`SELECT 'x' = 'y' COLLATE utf8mb4_general_ci`).
        let c = Utf8mb4GeneralCi;
        assert_eq!(check_pair("ß".as_bytes(), b"s", c), Equal);
        assert_ne!(check_pair("ß".as_bytes(), b"ss", c), Equal);
        assert_ne!(check_pair("Æ".as_bytes(), b"ae", c), Equal);
        assert_eq!(check_pair("ä".as_bytes(), b"a", c), Equal);
        assert_eq!(check_pair("Ä".as_bytes(), "á".as_bytes(), c), Equal);
        assert_eq!(check_pair(b"a", b"a  ", c), Equal);
        assert_eq!(check_pair(b"a\t", b"a", c), Less);
        assert_ne!(check_pair("Ø".as_bytes(), b"o", c), Equal);
        assert_ne!(check_pair("Đ".as_bytes(), b"d", c), Equal);
        assert_eq!(check_pair("ı".as_bytes(), b"i", c), Equal);
        assert_eq!(check_pair("ǅ".as_bytes(), "ǆ".as_bytes(), c), Equal);
        // All supplementary characters weigh U+FFFD under general_ci.
        assert_eq!(check_pair("😀".as_bytes(), "😁".as_bytes(), c), Equal);
        assert_eq!(check_pair(b"Hello", b"hELLO", c), Equal);
        assert_eq!(check_pair(b"abc", b"abd", c), Less);
        assert_eq!(check_pair(b"ab", b"abc", c), Less);
        assert_eq!(check_pair(b"", b"  ", c), Equal);
        assert_eq!(check_pair(b"", b"\t", c), Greater);
        assert_eq!(check_pair(b"_", b"a", c), Greater); // '_' (0x5F) > 'A' (0x41)
    }

    #[test]
    fn unicode_ci_matches_mariadb() {
        // Each checked against MariaDB 10.11 (`SELECT x = y COLLATE utf8mb4_unicode_ci`).
        let c = Utf8mb4UnicodeCi;
        let eq = |a: &str, b: &str| check_pair(a.as_bytes(), b.as_bytes(), c) == Equal;
        // Expansions.
        assert!(eq("ß", "ss"));
        assert!(eq("Straße", "STRASSE"));
        assert!(eq("ﬁ", "fi"));
        assert!(eq("Œ", "oe"));
        assert!(eq("ŉ", "ʼn"));
        assert!(!eq("ß", "s"));
        assert!(!eq("Æ", "ae")); // Æ is a letter of its own, between A and B
        assert_eq!(check_pair("Æ".as_bytes(), b"az", c), Greater);
        assert_eq!(check_pair("Æ".as_bytes(), b"b", c), Less);
        assert_eq!(check_pair("ß".as_bytes(), b"st", c), Less);
        assert_eq!(check_pair("ßa".as_bytes(), b"ss", c), Greater);
        assert_eq!(check_pair("ß".as_bytes(), b"ssa", c), Less);
        // Case and accents fold; letters general_ci keeps apart do not always.
        assert!(eq("Ä", "a"));
        assert!(eq("ǅ", "dž"));
        assert!(!eq("Ø", "o"));
        // Ignorables weigh nothing.
        assert!(eq("", "\u{0}"));
        assert!(eq("a", "a\u{0}"));
        assert!(eq("a", "\u{0}a\u{1}\u{200B}"));
        assert!(eq("é", "e\u{301}")); // combining marks are ignorable at the primary level
        assert!(!eq("a", "a\u{AD}")); // the soft hyphen is not
        assert!(eq("a ", "a\u{0}"));
        // PAD SPACE, with every character that weighs a space.
        assert!(eq("a", "a  "));
        assert!(eq("a", "a\u{A0}"));
        assert_eq!(check_pair(b"a\t", b"a", c), Less);
        assert_eq!(check_pair("a\u{85}".as_bytes(), b"a", c), Less);
        assert_eq!(check_pair(b"a\x01", b"a", c), Equal);
        // Order across classes: punctuation < symbols < digits < letters.
        assert_eq!(check_pair(b"_", b"0", c), Less);
        assert_eq!(check_pair(b"0", b"a", c), Less);
        assert_eq!(check_pair(b"!", b"_", c), Greater);
        assert_eq!(check_pair(b"9", b"A", c), Less);
        assert_eq!(check_pair(b"$", b"0", c), Less);
        assert_eq!(check_pair(b"+", b"#", c), Greater);
        // Supplementary characters all weigh FFFD: after every BMP character, CJK included.
        assert!(eq("😀", "😁"));
        assert_eq!(check_pair("😀".as_bytes(), b"z", c), Greater);
        assert_eq!(check_pair("😀".as_bytes(), "一".as_bytes(), c), Greater);
        assert!(!eq("😀", "\u{FFFD}"));
        // Implicit weights: CJK by code point, compatibility ideographs as their target.
        assert_eq!(check_pair("一".as_bytes(), "丁".as_bytes(), c), Less);
        assert!(eq("\u{F900}", "\u{8C48}"));
        assert!(eq("\u{2E80}", "\u{4E36}"));
    }

    #[test]
    fn unicode_ci_like() {
        // Per character, as MariaDB's my_wildcmp_uca (each checked on MariaDB 10.11).
        let c = Utf8mb4UnicodeCi;
        let l = |t: &str, p: &str| like(t.as_bytes(), p.as_bytes(), b'\\', c);
        assert!(!l("ß", "ss"));
        assert!(!l("ß", "s_"));
        assert!(!l("ß", "s%"));
        assert!(!l("ss", "ß"));
        assert!(l("ß", "_"));
        assert!(l("ß", "ß"));
        assert!(!l("Straße", "STRASSE"));
        assert!(!l("ﬁ", "fi"));
        assert!(l("a", "A"));
        assert!(l("ä", "a"));
        assert!(l("ÄBC", "%b_"));
        assert!(!l("a\u{0}", "a"));
        assert!(!l("a", "a\u{0}"));
        assert!(l("a\u{0}", "a_"));
        assert!(l("\u{0}", "\u{1}"));
        assert!(!l("😀", "😁"));
        assert!(l("😀", "_"));
        assert!(!l("😀", "\u{FFFD}"));
        assert!(l("一", "一"));
        assert!(!l("\u{F900}", "\u{8C48}"));
        assert!(l("\u{F900}", "\u{F900}"));
        assert!(!l("a ", "a"));
    }

    #[test]
    fn unicode_ci_keys() {
        let c = Utf8mb4UnicodeCi;
        // Two bytes per weight; a space run is the space weight 02 09 then L/E/G.
        assert_eq!(key("a", c), vec![0x0E, 0x33, 0x02, 0x09, 0x02]);
        assert_eq!(key("A  ", c), key("a", c));
        assert_eq!(key("ß", c), key("SS", c));
        assert_eq!(
            key("a b", c),
            vec![
                0x0E, 0x33, 0x02, 0x09, 0x03, 0xFE, 0x0E, 0x4A, 0x02, 0x09, 0x02
            ]
        );
        assert_eq!(key("\u{0}", c), key("", c));
        let words = [
            "",
            " ",
            "\t",
            " \t",
            "a",
            "a ",
            "a\t",
            "a \t",
            "a\u{A0}",
            "a\u{A0}b",
            "a b",
            "ab",
            "ß",
            "ss",
            "s",
            "st",
            "ß ",
            "ßa",
            "Straße",
            "strasse",
            "ﬁ",
            "fi",
            "Œ",
            "oe",
            "æ",
            "_",
            "-",
            "0",
            "9",
            "😀",
            "一",
            "\u{0}",
            "a\u{0}",
            "\u{85}",
            "a\u{2028}",
            "\u{FDFB}",
        ];
        for x in words {
            for y in words {
                check_pair(x.as_bytes(), y.as_bytes(), c);
            }
        }
        // Undecodable bytes are characters of their own.
        assert_eq!(check_pair(b"a\xff", b"a\xfe", c), Greater);
        assert_ne!(cmp(b"\xed\xa0\x80", "\u{5800}".as_bytes(), c), Equal);
    }

    #[test]
    fn bin_collations() {
        assert_eq!(check_pair(b"a", b"A", Utf8mb4Bin), Greater);
        assert_eq!(check_pair(b"a", b"a ", Utf8mb4Bin), Equal);
        assert_eq!(check_pair(b"a", b"a ", Binary), Less);
        assert_eq!(check_pair(b"a", b"a ", Utf8mb4_0900Bin), Less);
        assert_eq!(check_pair(b"a\t", b"a", Utf8mb4Bin), Less);
        assert_eq!(check_pair(b"a\x00", b"a", Binary), Greater);
        assert_eq!(check_pair(b"a\xff", b"a\xfe", Binary), Greater);
        assert_eq!(check_pair(b"\xfe\xff", b"\xfe", Binary), Greater);
        // Code point order = byte order for valid UTF-8.
        assert_eq!(
            check_pair("é".as_bytes(), "😀".as_bytes(), Utf8mb4Bin),
            Less
        );
    }

    #[test]
    fn ai_ci_is_no_pad() {
        let c = Utf8mb4_0900AiCi;
        assert_eq!(check_pair(b"a", b"A", c), Equal);
        assert_eq!(check_pair(b"a", b"a ", c), Less);
        assert_ne!(check_pair("😀".as_bytes(), "😁".as_bytes(), c), Equal);
        assert_eq!(check_pair("É".as_bytes(), b"e", c), Equal);
    }

    #[test]
    fn invalid_utf8_does_not_panic() {
        for coll in Collation::ALL {
            for (a, b) in [
                (&b"\xff"[..], &b"\xfe"[..]),
                (b"a\xc3", b"a\xc3\xa9"),
                (b"\xe2\x82", b"\xe2\x82\xac"),
                (b"\xed\xa0\x80", b"\xf4\x90\x80\x80"),
                (b"\x80", b""),
            ] {
                check_pair(a, b, coll);
                let _ = like(a, b, b'\\', coll);
                let _ = upper(a);
                let _ = char_len(a);
                let _ = truncate_chars(a, 1);
            }
        }
        // Distinct invalid bytes are distinct characters.
        assert_ne!(cmp(b"\xff", b"\xfe", Utf8mb4GeneralCi), Equal);
    }

    #[test]
    fn pad_space_keys() {
        let c = Utf8mb4GeneralCi;
        assert_eq!(key("ab", c), vec![0x42, 0x43, 0x21, 0x02]);
        assert_eq!(key("Ab  ", c), key("ab", c));
        assert_eq!(
            key("a b", c),
            vec![0x42, 0x21, 0x03, 0xFE, 0x43, 0x21, 0x02]
        );
        assert_eq!(key("a\t", c), vec![0x42, 0x0A, 0x21, 0x02]);
        // Runs of different lengths, followed by smaller / bigger characters.
        let words = [
            "a",
            "a ",
            "a\t",
            "a \t",
            "a  \t",
            "a b",
            "a  b",
            "a   b",
            "ab",
            "a\u{e9}",
            "a  \u{e9}",
            "",
            " ",
            "\t",
            " \t",
            "b",
            "a\u{1}",
            "a \u{1}",
        ];
        for coll in [Utf8mb4GeneralCi, Utf8mb4Bin, Utf8mb4_0900AiCi, Binary] {
            for x in words {
                for y in words {
                    check_pair(x.as_bytes(), y.as_bytes(), coll);
                }
            }
        }
        // Long runs use the 5-byte length.
        let long_a = format!("a{}b", " ".repeat(300));
        let long_b = format!("a{}b", " ".repeat(299));
        assert_eq!(check_pair(long_a.as_bytes(), long_b.as_bytes(), c), Less);
    }

    #[test]
    fn random_strings_agree_with_keys() {
        // A small alphabet that exercises spaces, controls, case, accents and expansions.
        let alphabet = [
            "a", "A", " ", "\t", "b", "é", "E", "ß", "s", "😀", "\u{0}", "\u{ff}", "S", "ﬁ", "f",
            "i", "\u{A0}", "_", "0", "\u{AD}",
        ];
        for (a, b) in random_pairs(&alphabet, 0x9E37_79B9_7F4A_7C15, 3000, 5) {
            for coll in Collation::ALL {
                check_pair(a.as_bytes(), b.as_bytes(), coll);
            }
        }
    }

    #[test]
    fn like_matches() {
        let c = Utf8mb4GeneralCi;
        assert!(like(b"abc", b"abc", b'\\', c));
        assert!(like(b"ABC", b"abc", b'\\', c));
        assert!(!like(b"ABC", b"abc", b'\\', Utf8mb4Bin));
        assert!(like(b"abc", b"a%", b'\\', c));
        assert!(like(b"abc", b"%c", b'\\', c));
        assert!(like(b"abc", b"%b%", b'\\', c));
        assert!(like(b"abc", b"a_c", b'\\', c));
        assert!(!like(b"abc", b"a_", b'\\', c));
        assert!(like(b"", b"%", b'\\', c));
        assert!(!like(b"", b"_", b'\\', c));
        assert!(like(b"a%c", b"a\\%c", b'\\', c));
        assert!(!like(b"abc", b"a\\%c", b'\\', c));
        assert!(like(b"a_c", b"a|_c", b'|', c));
        assert!(like(b"ab\\", b"ab\\", b'\\', c)); // trailing escape is literal
        assert!(!like(b"a ", b"a", b'\\', c)); // trailing spaces count
        assert!(like("été".as_bytes(), b"_t_", b'\\', c));
        assert!(like("ÉTÉ".as_bytes(), b"ete", b'\\', c));
        assert!(!like("é".as_bytes(), b"__", b'\\', c));
        assert!(like("é".as_bytes(), b"__", b'\\', Binary)); // bytes under binary
        assert!(like(b"mississippi", b"%iss%ppi", b'\\', c));
        assert!(like(b"abcabd", b"%abd", b'\\', c));
        assert!(!like(b"abcabc", b"%abd%", b'\\', c));
        assert!(like(b"xaaab", b"x%a%b", b'\\', c));
        // No exponential blow-up.
        let text = "a".repeat(5000);
        let pat = format!("{}b", "%a".repeat(50));
        assert!(!like(text.as_bytes(), pat.as_bytes(), b'\\', c));
    }

    #[test]
    fn case_mapping_and_lengths() {
        assert_eq!(upper(b"abc"), b"ABC");
        assert_eq!(upper("straße é".as_bytes()), "STRAßE É".as_bytes());
        assert_eq!(lower("ÀÉ ǅ".as_bytes()), "àé ǆ".as_bytes());
        assert_eq!(upper(b"a\xffb"), b"A\xffB");
        assert_eq!(char_len("aé😀".as_bytes()), 3);
        assert_eq!(char_len(b"a\xff"), 2);
        assert_eq!(truncate_chars("aé😀x".as_bytes(), 2), "aé".as_bytes());
        assert_eq!(truncate_chars(b"abc", 5), b"abc");
        assert_eq!(truncate_chars(b"abc", 0), b"");
    }

    #[test]
    fn fold_table_spot_checks() {
        // From the MariaDB dump: U+00B5 (micro) → U+039C, U+0430 (Cyrillic a) → U+0410.
        assert_eq!(fold_bmp(0xB5), 0x39C);
        assert_eq!(fold_bmp(0x430), 0x410);
        assert_eq!(fold_bmp(0xFF41), 0xFF21);
        assert_eq!(fold_bmp(0x4E00), 0x4E00);
        assert_eq!(fold_bmp(b'z' as u32), b'Z' as u32);
    }
}
