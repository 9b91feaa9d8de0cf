package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// batchRows is the number of rows per multi-row INSERT.
const batchRows = 500

// inserter writes rows as multi-row INSERTs with literal values on one connection.
type inserter struct {
	ctx  context.Context
	conn *sql.Conn
	head string
	buf  strings.Builder
	n    int
}

func (b *inserter) add(row string) error {
	if b.n == 0 {
		b.buf.Reset()
		b.buf.WriteString(b.head)
		b.buf.WriteString(" VALUES ")
	} else {
		b.buf.WriteByte(',')
	}
	b.buf.WriteByte('(')
	b.buf.WriteString(row)
	b.buf.WriteByte(')')
	b.n++
	if b.n == batchRows {
		return b.flush()
	}
	return nil
}

func (b *inserter) flush() error {
	if b.n == 0 {
		return nil
	}
	b.n = 0
	q := b.buf.String()
	if _, err := b.conn.ExecContext(b.ctx, q); err != nil {
		if len(q) > 300 {
			q = q[:300] + " …"
		}
		return fmt.Errorf("%w\n    %s", err, q)
	}
	return nil
}

// loadUnit is one transaction of the load.
type loadUnit struct {
	name string
	run  func(ctx context.Context, conn *sql.Conn, r *rng) error
}

func money(cents int) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }
func tax(r *rng) string      { return fmt.Sprintf("0.%04d", r.intn(0, 2000)) }

func cmdLoad(cfg *config) error {
	admin, err := openRoot(cfg)
	if err != nil {
		return err
	}
	if _, err := admin.Exec("CREATE DATABASE IF NOT EXISTS " + cfg.db); err != nil {
		admin.Close()
		return fmt.Errorf("CREATE DATABASE: %w", err)
	}
	admin.Close()
	db, err := openDB(cfg, cfg.loadConns)
	if err != nil {
		return err
	}
	defer db.Close()
	start := time.Now()
	for _, t := range tableNames {
		if _, err := db.Exec("DROP TABLE IF EXISTS " + t); err != nil {
			return fmt.Errorf("DROP TABLE %s: %w", t, err)
		}
	}
	for _, q := range createTables {
		if _, err := db.Exec(q); err != nil {
			return fmt.Errorf("%w\n    %s", err, q)
		}
	}
	fmt.Printf("tpcc load: %d warehouses into %s:%d/%s over %d connections\n", cfg.warehouses,
		cfg.host, cfg.port, cfg.db, cfg.loadConns)

	ts := time.Now().UTC().Format("'2006-01-02 15:04:05'")
	var units []loadUnit
	for i := 0; i < 100000; i += 10000 {
		units = append(units, loadUnit{fmt.Sprintf("item %d..", i+1), func(ctx context.Context, conn *sql.Conn, r *rng) error {
			return loadItems(ctx, conn, r, i+1, i+10000)
		}})
	}
	for w := 1; w <= cfg.warehouses; w++ {
		units = append(units, loadUnit{fmt.Sprintf("warehouse %d", w), func(ctx context.Context, conn *sql.Conn, r *rng) error {
			return loadWarehouse(ctx, conn, r, w)
		}})
		for i := 0; i < 100000; i += 10000 {
			units = append(units, loadUnit{fmt.Sprintf("stock %d %d..", w, i+1), func(ctx context.Context, conn *sql.Conn, r *rng) error {
				return loadStock(ctx, conn, r, w, i+1, i+10000)
			}})
		}
		for d := 1; d <= 10; d++ {
			units = append(units, loadUnit{fmt.Sprintf("customer %d %d", w, d), func(ctx context.Context, conn *sql.Conn, r *rng) error {
				return loadCustomers(ctx, conn, r, w, d, ts)
			}})
			units = append(units, loadUnit{fmt.Sprintf("orders %d %d", w, d), func(ctx context.Context, conn *sql.Conn, r *rng) error {
				return loadOrders(ctx, conn, r, w, d, ts)
			}})
		}
	}

	ctx := context.Background()
	next := atomic.Int64{}
	var done atomic.Int64
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	seed := cfg.seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	for c := 0; c < cfg.loadConns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := db.Conn(ctx)
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				return
			}
			defer conn.Close()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(units) {
					return
				}
				mu.Lock()
				failed := firstErr != nil
				mu.Unlock()
				if failed {
					return
				}
				u := units[i]
				r := newRNG(seed + uint64(i)*104729) // per unit: -seed makes the same data
				err := func() error {
					if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
						return err
					}
					if err := u.run(ctx, conn, r); err != nil {
						conn.ExecContext(ctx, "ROLLBACK")
						return err
					}
					_, err := conn.ExecContext(ctx, "COMMIT")
					return err
				}()
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("loading %s: %w", u.name, err)
					}
					mu.Unlock()
					return
				}
				if n := done.Add(1); n%20 == 0 || int(n) == len(units) {
					fmt.Printf("  %d/%d units, %.0f s\n", n, len(units), time.Since(start).Seconds())
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	fmt.Printf("load time %.1f s\n", time.Since(start).Seconds())
	if cfg.fks {
		t0 := time.Now()
		for _, q := range addForeignKeys {
			if _, err := db.Exec(q); err != nil {
				return fmt.Errorf("%w\n    %s", err, q)
			}
		}
		fmt.Printf("foreign keys added in %.1f s\n", time.Since(t0).Seconds())
	}
	return nil
}

func loadItems(ctx context.Context, conn *sql.Conn, r *rng, from, to int) error {
	b := &inserter{ctx: ctx, conn: conn, head: "INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data)"}
	for i := from; i <= to; i++ {
		if err := b.add(fmt.Sprintf("%d,%d,'%s',%s,'%s'", i, r.intn(1, 10000), r.astring(14, 24),
			money(r.intn(100, 10000)), r.data())); err != nil {
			return err
		}
	}
	return b.flush()
}

func (r *rng) address() string {
	return fmt.Sprintf("'%s','%s','%s','%s','%s'", r.astring(10, 20), r.astring(10, 20),
		r.astring(10, 20), r.state(), r.zip())
}

func loadWarehouse(ctx context.Context, conn *sql.Conn, r *rng, w int) error {
	b := &inserter{ctx: ctx, conn: conn, head: "INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, w_tax, w_ytd)"}
	if err := b.add(fmt.Sprintf("%d,'%s',%s,%s,300000.00", w, r.astring(6, 10), r.address(), tax(r))); err != nil {
		return err
	}
	if err := b.flush(); err != nil {
		return err
	}
	b = &inserter{ctx: ctx, conn: conn, head: "INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id)"}
	for d := 1; d <= 10; d++ {
		if err := b.add(fmt.Sprintf("%d,%d,'%s',%s,%s,30000.00,3001", d, w, r.astring(6, 10), r.address(), tax(r))); err != nil {
			return err
		}
	}
	return b.flush()
}

func loadStock(ctx context.Context, conn *sql.Conn, r *rng, w, from, to int) error {
	b := &inserter{ctx: ctx, conn: conn, head: "INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data)"}
	var sb strings.Builder
	for i := from; i <= to; i++ {
		sb.Reset()
		fmt.Fprintf(&sb, "%d,%d,%d", i, w, r.intn(10, 100))
		for range 10 {
			fmt.Fprintf(&sb, ",'%s'", r.astring(24, 24))
		}
		fmt.Fprintf(&sb, ",0,0,0,'%s'", r.data())
		if err := b.add(sb.String()); err != nil {
			return err
		}
	}
	return b.flush()
}

// loadCustomers loads the 3,000 customers of a district and their history rows.
func loadCustomers(ctx context.Context, conn *sql.Conn, r *rng, w, d int, ts string) error {
	b := &inserter{ctx: ctx, conn: conn, head: "INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data)"}
	for c := 1; c <= 3000; c++ {
		n := c - 1
		if c > 1000 {
			n = r.nurand(255, 0, 999, cLastLoad)
		}
		credit := "GC"
		if r.IntN(10) == 0 {
			credit = "BC"
		}
		if err := b.add(fmt.Sprintf("%d,%d,%d,'%s','OE','%s',%s,'%s',%s,'%s',50000.00,0.%04d,-10.00,10.00,1,0,'%s'",
			c, d, w, r.astring(8, 16), lastName(n), r.address(), r.nstring(16, 16), ts, credit,
			r.intn(0, 5000), r.astring(300, 500))); err != nil {
			return err
		}
	}
	if err := b.flush(); err != nil {
		return err
	}
	b = &inserter{ctx: ctx, conn: conn, head: "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)"}
	for c := 1; c <= 3000; c++ {
		if err := b.add(fmt.Sprintf("%d,%d,%d,%d,%d,%s,10.00,'%s'", c, d, w, d, w, ts, r.astring(12, 24))); err != nil {
			return err
		}
	}
	return b.flush()
}

// loadOrders loads the 3,000 orders of a district, their order lines, and the new_orders
// rows of the last 900.
func loadOrders(ctx context.Context, conn *sql.Conn, r *rng, w, d int, ts string) error {
	perm := r.Perm(3000)
	counts := make([]int, 3001)
	b := &inserter{ctx: ctx, conn: conn, head: "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)"}
	for o := 1; o <= 3000; o++ {
		carrier := "NULL"
		if o < 2101 {
			carrier = fmt.Sprint(r.intn(1, 10))
		}
		counts[o] = r.intn(5, 15)
		if err := b.add(fmt.Sprintf("%d,%d,%d,%d,%s,%s,%d,1", o, d, w, perm[o-1]+1, ts, carrier, counts[o])); err != nil {
			return err
		}
	}
	if err := b.flush(); err != nil {
		return err
	}
	b = &inserter{ctx: ctx, conn: conn, head: "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)"}
	for o := 1; o <= 3000; o++ {
		for n := 1; n <= counts[o]; n++ {
			delivery, amount := ts, "0.00"
			if o >= 2101 {
				delivery, amount = "NULL", money(r.intn(1, 999999))
			}
			if err := b.add(fmt.Sprintf("%d,%d,%d,%d,%d,%d,%s,5,%s,'%s'", o, d, w, n, r.intn(1, 100000), w,
				delivery, amount, r.astring(24, 24))); err != nil {
				return err
			}
		}
	}
	if err := b.flush(); err != nil {
		return err
	}
	b = &inserter{ctx: ctx, conn: conn, head: "INSERT INTO new_orders (no_o_id, no_d_id, no_w_id)"}
	for o := 2101; o <= 3000; o++ {
		if err := b.add(fmt.Sprintf("%d,%d,%d", o, d, w)); err != nil {
			return err
		}
	}
	return b.flush()
}
