//! Finding the first byte of a small set in a byte string, sixteen bytes at a time: the
//! escaping of the query logs (JSON strings in the audit log, SQL literals in logged
//! executions) copies the runs between such bytes whole, and most texts have none.

/// The bytes to look for: those equal to one of `any`, and those whose value read as signed
/// (`i8`) is below `below` — with `0x20`, every control character and every byte above
/// 0x7f (one compare catches both); with `i8::MIN`, none.
#[derive(Clone, Copy, Debug)]
pub struct ByteSet {
    pub below: i8,
    pub any: [u8; 4],
}

impl ByteSet {
    pub fn contains(&self, b: u8) -> bool {
        (b as i8) < self.below || self.any.contains(&b)
    }

    /// Where the first byte of the set is in `s`.
    #[inline]
    pub fn first_in(&self, s: &[u8]) -> Option<usize> {
        let mask = Mask::new(self);
        let mut chunks = s.chunks_exact(16);
        let mut at = 0;
        for chunk in &mut chunks {
            let m = mask.of(chunk.try_into().ok()?);
            if m != 0 {
                return Some(at + m.trailing_zeros() as usize);
            }
            at += 16;
        }
        let tail = chunks.remainder();
        if tail.is_empty() {
            return None;
        }
        let m = if s.len() >= 16 {
            // The last 16 bytes, of which the first `16 - tail.len()` were looked at already.
            mask.of(s.get(s.len() - 16..)?.try_into().ok()?) >> (16 - tail.len())
        } else {
            // Padded with zeros, whose bits are left out.
            let mut padded = [0; 16];
            padded[..tail.len()].copy_from_slice(tail);
            mask.of(&padded) & ((1 << tail.len()) - 1)
        };
        (m != 0).then(|| at + m.trailing_zeros() as usize)
    }
}

/// A set's bytes, each repeated across a vector once per search (SSE2 is part of every
/// x86_64).
#[cfg(target_arch = "x86_64")]
struct Mask {
    below: std::arch::x86_64::__m128i,
    any: [std::arch::x86_64::__m128i; 4],
}

#[cfg(target_arch = "x86_64")]
impl Mask {
    #[inline]
    fn new(set: &ByteSet) -> Mask {
        use std::arch::x86_64::_mm_set1_epi8;
        // SAFETY: SSE2 is part of x86_64's baseline.
        unsafe {
            Mask {
                below: _mm_set1_epi8(set.below),
                any: set.any.map(|b| _mm_set1_epi8(b as i8)),
            }
        }
    }

    /// One bit per byte of `chunk` that is in the set (bit 0: the first byte).
    #[inline]
    fn of(&self, chunk: &[u8; 16]) -> u32 {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8,
            _mm_or_si128,
        };
        let [a, b, c, d] = self.any;
        // SAFETY: SSE2 is part of x86_64's baseline; the load reads the 16 bytes of `chunk`
        // (unaligned loads are allowed).
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            let low = _mm_cmplt_epi8(v, self.below);
            let ab = _mm_or_si128(_mm_cmpeq_epi8(v, a), _mm_cmpeq_epi8(v, b));
            let cd = _mm_or_si128(_mm_cmpeq_epi8(v, c), _mm_cmpeq_epi8(v, d));
            _mm_movemask_epi8(_mm_or_si128(low, _mm_or_si128(ab, cd))) as u32
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
struct Mask(ByteSet);

#[cfg(not(target_arch = "x86_64"))]
impl Mask {
    fn new(set: &ByteSet) -> Mask {
        Mask(*set)
    }

    fn of(&self, chunk: &[u8; 16]) -> u32 {
        chunk
            .iter()
            .enumerate()
            .filter(|(_, &b)| self.0.contains(b))
            .fold(0, |m, (i, _)| m | 1 << i)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn finds_the_first_byte_of_the_set_at_every_position_and_length() {
        // The sets the logs use: a JSON string's and a quoted SQL literal's.
        let sets = [crate::observe::audit::SPECIAL, crate::sql::value::ESCAPED];
        let plain = b"SELECT c FROM sbtest1 WHERE id=5 AND k < 0x7e~ OR name = a.b";
        for set in sets {
            assert!(plain.iter().all(|&b| !set.contains(b)));
            let members: Vec<u8> = (0..=255u8).filter(|&b| set.contains(b)).collect();
            for len in 0..=plain.len() {
                assert_eq!(set.first_in(&plain[..len]), None, "{len} plain bytes");
                for &b in &members {
                    for at in 0..len {
                        let mut s = plain[..len].to_vec();
                        s[at] = b;
                        assert_eq!(set.first_in(&s), Some(at), "{b:#x} at {at} of {len}");
                        // A second one later is not reported first.
                        s.push(b);
                        assert_eq!(set.first_in(&s), Some(at), "{b:#x} at {at} of {len}+1");
                    }
                }
            }
        }
    }
}
