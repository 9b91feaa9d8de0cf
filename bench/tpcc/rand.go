package main

import (
	"math/rand/v2"
	"strings"
)

// rng is the per-goroutine random source with the generators of TPC-C clause 4.3.2.
type rng struct{ *rand.Rand }

func newRNG(seed uint64) *rng {
	return &rng{rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1))}
}

// intn returns a uniform integer in [lo, hi] (the spec's random(x, y)).
func (r *rng) intn(lo, hi int) int { return lo + r.IntN(hi-lo+1) }

// nurand is NURand(A, x, y) of clause 2.1.6 with run-time constant c.
func (r *rng) nurand(a, x, y, c int) int {
	return (((r.intn(0, a) | r.intn(x, y)) + c) % (y - x + 1)) + x
}

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// astring is a random a-string of lo..hi characters (letters and digits, so that it never
// needs escaping in the loader's literal SQL).
func (r *rng) astring(lo, hi int) string {
	n := r.intn(lo, hi)
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	return string(b)
}

// nstring is a random n-string (digits) of lo..hi characters.
func (r *rng) nstring(lo, hi int) string {
	n := r.intn(lo, hi)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	return string(b)
}

// zip is a zip code: a random n-string of 4 digits followed by "11111" (clause 4.3.2.7).
func (r *rng) zip() string { return r.nstring(4, 4) + "11111" }

// state is a random 2-letter state.
func (r *rng) state() string {
	return string([]byte{byte('A' + r.IntN(26)), byte('A' + r.IntN(26))})
}

// data is I_DATA / S_DATA: an a-string of 26..50 characters; 10% of them contain "ORIGINAL"
// at a random position (clause 4.3.3.1).
func (r *rng) data() string {
	s := r.astring(26, 50)
	if r.IntN(10) == 0 {
		p := r.IntN(len(s) - 8 + 1)
		s = s[:p] + "ORIGINAL" + s[p+8:]
	}
	return s
}

var syllables = [10]string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// lastName is C_LAST for a number 0..999 (clause 4.3.2.3).
func lastName(n int) string {
	var b strings.Builder
	b.WriteString(syllables[n/100])
	b.WriteString(syllables[n/10%10])
	b.WriteString(syllables[n%10])
	return b.String()
}

// cLastLoad is the C of NURand(255, 0, 999) used to generate C_LAST at load time (any value
// in 0..255 is allowed; a fixed one lets `run` choose a C_RUN that satisfies clause 2.1.6.1
// without reading anything from the database).
const cLastLoad = 157

// runConstants are the C values of clause 2.1.6 for one run.
type runConstants struct{ cLast, cID, olIID int }

func newRunConstants(r *rng) runConstants {
	var c runConstants
	for {
		c.cLast = r.intn(0, 255)
		d := c.cLast - cLastLoad
		if d < 0 {
			d = -d
		}
		if d >= 65 && d <= 119 && d != 96 && d != 112 {
			break
		}
	}
	c.cID = r.intn(0, 1023)
	c.olIID = r.intn(0, 8191)
	return c
}
