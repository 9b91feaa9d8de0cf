package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// txStats are one terminal's figures for one transaction type in the measured interval.
type txStats struct {
	ok, rollbacks, retries, errors, skipped int64
	lat                                     []time.Duration
}

// errorLog counts errors by MySQL error number (0: wrong result, -1: connection) and by
// (number, statement); the first few of each kind are printed in full.
type errorLog struct {
	mu      sync.Mutex
	byCode  map[int]int64
	byKind  map[string]int64
	first   map[string]string
	printed map[string]int
}

const printFirst = 3

func (l *errorLog) add(tx string, err error, code int) {
	name := "?"
	var se *stmtErr
	if errors.As(err, &se) {
		name = se.name
	} else if i := strings.IndexByte(err.Error(), ':'); i > 0 {
		name = err.Error()[:i]
	}
	key := fmt.Sprintf("%d %s", code, name)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.byCode[code]++
	l.byKind[key]++
	if _, ok := l.first[key]; !ok {
		msg := err.Error()
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		l.first[key] = msg
	}
	if l.printed[key] < printFirst {
		l.printed[key]++
		fmt.Printf("ERROR in %s (error %d): %v\n", tx, code, err)
	}
}

type runState struct {
	cfg          *config
	start        time.Time
	measureStart time.Time
	endAt        atomic.Int64 // UnixNano; moved up by an interrupt
	stop         atomic.Bool
	// counters for the 10-second reports (whole run, warmup included)
	newOrders, total, errors, retries atomic.Int64
	errs                              errorLog
}

func cmdRun(cfg *config) error {
	db, err := openDB(cfg, cfg.conns+4)
	if err != nil {
		return err
	}
	defer db.Close()
	var version string
	if err := db.QueryRow("SELECT VERSION()").Scan(&version); err != nil {
		return fmt.Errorf("SELECT VERSION(): %w", err)
	}
	seed := uint64(time.Now().UnixNano())
	consts := newRunConstants(newRNG(seed))
	fmt.Printf("tpcc run: %s:%d/%s (%s), %d warehouses, %d connections, mode %s, warmup %s, duration %s\n",
		cfg.host, cfg.port, cfg.db, version, cfg.warehouses, cfg.conns, cfg.mode, cfg.warmup, cfg.duration)

	st := &runState{cfg: cfg}
	st.errs = errorLog{byCode: map[int]int64{}, byKind: map[string]int64{}, first: map[string]string{},
		printed: map[string]int{}}
	ctx := context.Background()
	terms := make([]*terminal, cfg.conns)
	for i := range terms {
		t := &terminal{id: i, cfg: cfg, db: db, r: newRNG(seed + uint64(i)*7919 + 1), c: consts,
			w: i%cfg.warehouses + 1, dSL: (i/cfg.warehouses)%10 + 1, ctx: ctx}
		if err := t.connect(); err != nil {
			return err
		}
		terms[i] = t
	}
	st.start = time.Now()
	st.measureStart = st.start.Add(cfg.warmup)
	st.endAt.Store(st.measureStart.Add(cfg.duration).UnixNano())

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() {
		<-sig
		fmt.Println("interrupted: finishing the transactions in flight")
		st.endAt.Store(time.Now().UnixNano())
		st.stop.Store(true)
	}()
	stopReports := make(chan struct{})
	reportsDone := make(chan struct{})
	go st.reports(stopReports, reportsDone)

	stats := make([][numTx]txStats, cfg.conns)
	var wg sync.WaitGroup
	for i, t := range terms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.terminal(t, &stats[i])
		}()
	}
	wg.Wait()
	close(stopReports)
	<-reportsDone
	for _, t := range terms {
		t.drop()
	}
	return st.summary(stats)
}

func (st *runState) end() time.Time { return time.Unix(0, st.endAt.Load()) }

// terminal runs transactions from a shuffled deck of 100 cards (45 New-Order, 43 Payment,
// 4 each of the others; clause 5.2.4.2) until the end of the run.
func (st *runState) terminal(t *terminal, stats *[numTx]txStats) {
	var deck []int
	for k, n := range [numTx]int{45, 43, 4, 4, 4} {
		for range n {
			deck = append(deck, k)
		}
	}
	pos := len(deck)
	for !st.stop.Load() && time.Now().Before(st.end()) {
		if pos == len(deck) {
			t.r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			pos = 0
		}
		kind := deck[pos]
		pos++
		var body func() (outcome, error)
		switch kind {
		case txNewOrder:
			body = t.newOrder()
		case txPayment:
			body = t.payment()
		case txOrderStatus:
			body = t.orderStatus()
		case txDelivery:
			body = t.delivery()
		case txStockLevel:
			body = t.stockLevel()
		}
		begin := time.Now()
		retries := 0
		var out outcome
		var err error
		for {
			if err = t.connect(); err == nil {
				out, err = body()
			}
			if err == nil {
				break
			}
			code, retry, connLost := errorKind(err)
			if connLost {
				t.drop()
				time.Sleep(100 * time.Millisecond)
			} else if t.plain("ROLLBACK") != nil {
				t.drop()
			}
			if !retry || retries >= 100 || st.stop.Load() {
				st.errs.add(txNames[kind], err, code)
				break
			}
			retries++
			st.retries.Add(1)
		}
		done := time.Now()
		if err == nil {
			st.total.Add(1)
			if kind == txNewOrder && !out.rolledBack {
				st.newOrders.Add(1)
			}
		} else {
			st.errors.Add(1)
		}
		if done.Before(st.measureStart) || done.After(st.end()) {
			continue
		}
		s := &stats[kind]
		s.retries += int64(retries)
		switch {
		case err != nil:
			s.errors++
		case out.rolledBack:
			s.rollbacks++
			s.lat = append(s.lat, done.Sub(begin))
		default:
			s.ok++
			s.skipped += int64(out.skipped)
			s.lat = append(s.lat, done.Sub(begin))
		}
	}
}

// reports prints NOTPM every -report interval (10 seconds by default).
func (st *runState) reports(stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(st.cfg.report)
	defer tick.Stop()
	var lastNO, lastTotal int64
	last := st.start
	for {
		select {
		case <-stop:
			return
		case now := <-tick.C:
			no, total := st.newOrders.Load(), st.total.Load()
			min := now.Sub(last).Minutes()
			phase := ""
			if now.Before(st.measureStart) {
				phase = " (warmup)"
			}
			fmt.Printf("%5.1fs notpm %8.0f  tpm %8.0f  retries %d  errors %d%s\n",
				now.Sub(st.start).Seconds(), float64(no-lastNO)/min, float64(total-lastTotal)/min,
				st.retries.Load(), st.errors.Load(), phase)
			lastNO, lastTotal, last = no, total, now
		}
	}
}

func (st *runState) summary(per [][numTx]txStats) error {
	var sum [numTx]txStats
	for _, ts := range per {
		for k := range ts {
			s := &sum[k]
			s.ok += ts[k].ok
			s.rollbacks += ts[k].rollbacks
			s.retries += ts[k].retries
			s.errors += ts[k].errors
			s.skipped += ts[k].skipped
			s.lat = append(s.lat, ts[k].lat...)
		}
	}
	measured := st.end().Sub(st.measureStart)
	if measured <= 0 {
		return fmt.Errorf("the run ended during the warmup")
	}
	minutes := measured.Minutes()
	fmt.Printf("\nmeasured %.1f s (after %s warmup)\n", measured.Seconds(), st.cfg.warmup)
	fmt.Printf("%-13s %9s %9s %8s %7s %9s %9s %9s\n", "transaction", "committed", "rollbacks",
		"retries", "errors", "avg ms", "p95 ms", "p99 ms")
	var all int64
	for k := range sum {
		s := &sum[k]
		all += s.ok + s.rollbacks
		sort.Slice(s.lat, func(i, j int) bool { return s.lat[i] < s.lat[j] })
		var avg, p95, p99 float64
		if n := len(s.lat); n > 0 {
			var tot time.Duration
			for _, d := range s.lat {
				tot += d
			}
			ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
			avg = ms(tot) / float64(n)
			p95 = ms(s.lat[(n*95+99)/100-1])
			p99 = ms(s.lat[(n*99+99)/100-1])
		}
		fmt.Printf("%-13s %9d %9d %8d %7d %9.2f %9.2f %9.2f\n", txNames[k], s.ok, s.rollbacks,
			s.retries, s.errors, avg, p95, p99)
	}
	if sum[txDelivery].ok > 0 {
		fmt.Printf("Delivery: %d districts skipped (no undelivered order)\n", sum[txDelivery].skipped)
	}
	if len(st.errs.byCode) > 0 {
		fmt.Println("errors by code (whole run; 0 = wrong result, -1 = connection):")
		var codes []int
		for c := range st.errs.byCode {
			codes = append(codes, c)
		}
		sort.Ints(codes)
		for _, c := range codes {
			fmt.Printf("  %6d  %d\n", c, st.errs.byCode[c])
		}
		var kinds []string
		for k := range st.errs.byKind {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		fmt.Println("errors by code and statement (first message):")
		for _, k := range kinds {
			fmt.Printf("  %6d  %s\n", st.errs.byKind[k], st.errs.first[k])
		}
	}
	notpm := float64(sum[txNewOrder].ok) / minutes
	fmt.Printf("NOTPM %.0f (New-Order commits per minute), tpm total %.0f\n", notpm, float64(all)/minutes)
	// errors and retries of the whole run, warmup included: nothing hides in the warmup
	fmt.Printf("RESULT notpm=%.0f tpm_total=%.0f errors=%d retries=%d\n", notpm, float64(all)/minutes,
		st.errors.Load(), st.retries.Load())
	return nil
}
