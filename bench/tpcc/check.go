package main

import (
	"database/sql"
	"fmt"
	"math/big"
)

type wd struct{ w, d int }

// cmdCheck tests consistency conditions 1-4 (clause 3.3.2.1-3.3.2.4) for every warehouse and
// district.
func cmdCheck(cfg *config) error {
	db, err := openDB(cfg, 1)
	if err != nil {
		return err
	}
	defer db.Close()
	fail := map[int][]string{}
	failf := func(cond int, format string, args ...any) {
		fail[cond] = append(fail[cond], fmt.Sprintf(format, args...))
	}
	query := func(q string, scan func(*sql.Rows) error) error {
		rows, err := db.Query(q)
		if err != nil {
			return fmt.Errorf("%w\n    %s", err, q)
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return fmt.Errorf("%w\n    %s", err, q)
			}
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("%w\n    %s", err, q)
		}
		return nil
	}
	rat := func(s string) (*big.Rat, error) {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			return nil, fmt.Errorf("not a number: %q", s)
		}
		return r, nil
	}

	// Condition 1: W_YTD = sum(D_YTD).
	wYTD := map[int]string{}
	if err := query("SELECT w_id, w_ytd FROM warehouse", func(r *sql.Rows) error {
		var w int
		var ytd string
		err := r.Scan(&w, &ytd)
		wYTD[w] = ytd
		return err
	}); err != nil {
		return err
	}
	if len(wYTD) != cfg.warehouses {
		fmt.Printf("note: %d warehouses in the database, -warehouses is %d\n", len(wYTD), cfg.warehouses)
	}
	dSum := map[int]string{}
	if err := query("SELECT d_w_id, SUM(d_ytd) FROM district GROUP BY d_w_id", func(r *sql.Rows) error {
		var w int
		var sum string
		err := r.Scan(&w, &sum)
		dSum[w] = sum
		return err
	}); err != nil {
		return err
	}
	for w := 1; w <= len(wYTD); w++ {
		a, ok1 := wYTD[w]
		b, ok2 := dSum[w]
		if !ok1 || !ok2 {
			failf(1, "warehouse %d: w_ytd %q, sum(d_ytd) %q (missing rows)", w, a, b)
			continue
		}
		ra, err := rat(a)
		if err != nil {
			return err
		}
		rb, err := rat(b)
		if err != nil {
			return err
		}
		if ra.Cmp(rb) != 0 {
			failf(1, "warehouse %d: w_ytd = %s but sum(d_ytd) = %s", w, a, b)
		}
	}

	// Conditions 2-4 per district.
	next := map[wd]int{}
	if err := query("SELECT d_w_id, d_id, d_next_o_id FROM district", func(r *sql.Rows) error {
		var k wd
		var n int
		err := r.Scan(&k.w, &k.d, &n)
		next[k] = n
		return err
	}); err != nil {
		return err
	}
	type ord struct{ max, olSum int }
	orders := map[wd]ord{}
	if err := query("SELECT o_w_id, o_d_id, MAX(o_id), SUM(o_ol_cnt) FROM orders GROUP BY o_w_id, o_d_id", func(r *sql.Rows) error {
		var k wd
		var o ord
		err := r.Scan(&k.w, &k.d, &o.max, &o.olSum)
		orders[k] = o
		return err
	}); err != nil {
		return err
	}
	type nord struct{ max, min, count int }
	newOrders := map[wd]nord{}
	if err := query("SELECT no_w_id, no_d_id, MAX(no_o_id), MIN(no_o_id), COUNT(*) FROM new_orders GROUP BY no_w_id, no_d_id", func(r *sql.Rows) error {
		var k wd
		var n nord
		err := r.Scan(&k.w, &k.d, &n.max, &n.min, &n.count)
		newOrders[k] = n
		return err
	}); err != nil {
		return err
	}
	lines := map[wd]int{}
	if err := query("SELECT ol_w_id, ol_d_id, COUNT(*) FROM order_line GROUP BY ol_w_id, ol_d_id", func(r *sql.Rows) error {
		var k wd
		var n int
		err := r.Scan(&k.w, &k.d, &n)
		lines[k] = n
		return err
	}); err != nil {
		return err
	}
	districts := 0
	for w := 1; w <= len(wYTD); w++ {
		for d := 1; d <= 10; d++ {
			k := wd{w, d}
			n, ok := next[k]
			if !ok {
				failf(2, "warehouse %d district %d: no district row", w, d)
				continue
			}
			districts++
			o := orders[k]
			no, hasNO := newOrders[k]
			if n-1 != o.max || (hasNO && n-1 != no.max) {
				mx := "none"
				if hasNO {
					mx = fmt.Sprint(no.max)
				}
				failf(2, "warehouse %d district %d: d_next_o_id - 1 = %d, max(o_id) = %d, max(no_o_id) = %s",
					w, d, n-1, o.max, mx)
			}
			if hasNO && no.max-no.min+1 != no.count {
				failf(3, "warehouse %d district %d: max(no_o_id) - min(no_o_id) + 1 = %d - %d + 1 = %d, count(*) = %d",
					w, d, no.max, no.min, no.max-no.min+1, no.count)
			}
			if o.olSum != lines[k] {
				failf(4, "warehouse %d district %d: sum(o_ol_cnt) = %d, count(*) in order_line = %d",
					w, d, o.olSum, lines[k])
			}
		}
	}
	names := [5]string{"", "W_YTD = sum(D_YTD)", "D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)",
		"max(NO_O_ID) - min(NO_O_ID) + 1 = rows in NEW-ORDER", "sum(O_OL_CNT) = rows in ORDER-LINE"}
	failed := 0
	for c := 1; c <= 4; c++ {
		if len(fail[c]) == 0 {
			fmt.Printf("condition %d (%s): OK\n", c, names[c])
			continue
		}
		failed++
		fmt.Printf("condition %d (%s): FAILED in %d places\n", c, names[c], len(fail[c]))
		for i, m := range fail[c] {
			if i == 20 {
				fmt.Printf("  … and %d more\n", len(fail[c])-20)
				break
			}
			fmt.Println("  " + m)
		}
	}
	fmt.Printf("checked %d warehouses, %d districts\n", len(wYTD), districts)
	if failed > 0 {
		return fmt.Errorf("%d of 4 consistency conditions failed", failed)
	}
	return nil
}
