package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// The five transaction types.
const (
	txNewOrder = iota
	txPayment
	txOrderStatus
	txDelivery
	txStockLevel
	numTx
)

var txNames = [numTx]string{"New-Order", "Payment", "Order-Status", "Delivery", "Stock-Level"}

// stmtErr is a failed statement: which one, with what arguments.
type stmtErr struct {
	name string // statement name, or "BEGIN"/"COMMIT"/"prepare …"
	sql  string
	args []any
	err  error
}

func (e *stmtErr) Error() string {
	return fmt.Sprintf("%s: %v\n    %s", e.name, e.err, literalSQL(e.sql, e.args))
}
func (e *stmtErr) Unwrap() error { return e.err }

// wrongResult is a statement that succeeded with a result no correct server returns here
// (a missing row, a wrong number of affected rows).
type wrongResult struct{ msg string }

func (e *wrongResult) Error() string { return e.msg }

// terminal is one connection of the run: a home warehouse, a district for Stock-Level, its
// own random source and, in prepared mode, its prepared statements.
type terminal struct {
	id       int
	cfg      *config
	db       *sql.DB
	conn     *sql.Conn
	prepared [numStmts]*sql.Stmt
	r        *rng
	c        runConstants
	w, dSL   int
	ctx      context.Context
}

// connect gets a connection (a new one after a connection error).
func (t *terminal) connect() error {
	if t.conn != nil {
		return nil
	}
	conn, err := t.db.Conn(t.ctx)
	if err != nil {
		return &stmtErr{name: "connect", err: err}
	}
	t.conn = conn
	return nil
}

// drop forgets the connection (and its prepared statements) after a connection error.
func (t *terminal) drop() {
	if t.conn == nil {
		return
	}
	for i, s := range t.prepared {
		if s != nil {
			s.Close()
			t.prepared[i] = nil
		}
	}
	t.conn.Raw(func(any) error { return driver.ErrBadConn })
	t.conn.Close()
	t.conn = nil
}

// stmt returns the prepared statement id (prepared on first use); nil in text mode.
func (t *terminal) stmt(id stmtID) (*sql.Stmt, error) {
	if !t.cfg.prepared {
		return nil, nil
	}
	if s := t.prepared[id]; s != nil {
		return s, nil
	}
	s, err := t.conn.PrepareContext(t.ctx, stmts[id].sql)
	if err != nil {
		return nil, &stmtErr{name: "prepare " + stmts[id].name, sql: stmts[id].sql, err: err}
	}
	t.prepared[id] = s
	return s, nil
}

func (t *terminal) exec(id stmtID, args ...any) (int64, error) {
	s, err := t.stmt(id)
	if err != nil {
		return 0, err
	}
	var res sql.Result
	if s != nil {
		res, err = s.ExecContext(t.ctx, args...)
	} else {
		res, err = t.conn.ExecContext(t.ctx, stmts[id].sql, args...)
	}
	if err != nil {
		return 0, &stmtErr{name: stmts[id].name, sql: stmts[id].sql, args: args, err: err}
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, &stmtErr{name: stmts[id].name, sql: stmts[id].sql, args: args, err: err}
	}
	return n, nil
}

// execN is exec that expects exactly `want` affected rows.
func (t *terminal) execN(want int64, id stmtID, args ...any) error {
	n, err := t.exec(id, args...)
	if err != nil {
		return err
	}
	if n != want {
		return &wrongResult{fmt.Sprintf("%s: %d rows affected, expected %d\n    %s",
			stmts[id].name, n, want, literalSQL(stmts[id].sql, args))}
	}
	return nil
}

// query runs a statement and calls scan for each row; it returns the number of rows.
func (t *terminal) query(id stmtID, args []any, scan func(*sql.Rows) error) (int, error) {
	s, err := t.stmt(id)
	if err != nil {
		return 0, err
	}
	var rows *sql.Rows
	if s != nil {
		rows, err = s.QueryContext(t.ctx, args...)
	} else {
		rows, err = t.conn.QueryContext(t.ctx, stmts[id].sql, args...)
	}
	fail := func(err error) (int, error) {
		return 0, &stmtErr{name: stmts[id].name, sql: stmts[id].sql, args: args, err: err}
	}
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
		if err := scan(rows); err != nil {
			return fail(err)
		}
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	if err := rows.Close(); err != nil {
		return fail(err)
	}
	return n, nil
}

// row runs a statement that returns one row into dest; found is false for no row.
func (t *terminal) row(id stmtID, args []any, dest ...any) (found bool, err error) {
	n, err := t.query(id, args, func(r *sql.Rows) error { return r.Scan(dest...) })
	if err == nil && n > 1 {
		err = &wrongResult{fmt.Sprintf("%s: %d rows, expected at most 1\n    %s",
			stmts[id].name, n, literalSQL(stmts[id].sql, args))}
	}
	return n == 1, err
}

// mustRow is row for a row that must exist.
func (t *terminal) mustRow(id stmtID, args []any, dest ...any) error {
	found, err := t.row(id, args, dest...)
	if err == nil && !found {
		err = &wrongResult{fmt.Sprintf("%s: no row\n    %s", stmts[id].name,
			literalSQL(stmts[id].sql, args))}
	}
	return err
}

func (t *terminal) plain(q string) error {
	if _, err := t.conn.ExecContext(t.ctx, q); err != nil {
		return &stmtErr{name: q, sql: q, err: err}
	}
	return nil
}

func (t *terminal) begin() error  { return t.plain("BEGIN") }
func (t *terminal) commit() error { return t.plain("COMMIT") }

// now is the client-side timestamp the transactions write (whole seconds, UTC).
func now() time.Time { return time.Now().UTC().Truncate(time.Second) }

func (t *terminal) otherWarehouse() int {
	w := t.r.intn(1, t.cfg.warehouses-1)
	if w >= t.w {
		w++
	}
	return w
}

// outcome of one transaction attempt.
type outcome struct {
	rolledBack bool // New-Order with an unused item: rolled back as the spec asks
	skipped    int  // Delivery: districts without an undelivered order
}

// --- New-Order (clause 2.4) ---

func (t *terminal) newOrder() func() (outcome, error) {
	w := t.w
	d := t.r.intn(1, 10)
	c := t.r.nurand(1023, 1, 3000, t.c.cID)
	olCnt := t.r.intn(5, 15)
	rbk := t.r.intn(1, 100)
	type line struct{ item, supply, qty int }
	lines := make([]line, olCnt)
	allLocal := 1
	for i := range lines {
		l := &lines[i]
		l.item = t.r.nurand(8191, 1, 100000, t.c.olIID)
		if i == olCnt-1 && rbk == 1 {
			l.item = 100001 // unused: the transaction rolls back (clause 2.4.1.4)
		}
		l.supply = w
		if t.cfg.warehouses > 1 && t.r.intn(1, 100) == 1 {
			l.supply = t.otherWarehouse()
			allLocal = 0
		}
		l.qty = t.r.intn(1, 10)
	}
	return func() (outcome, error) {
		entry := now()
		if err := t.begin(); err != nil {
			return outcome{}, err
		}
		var cDiscount, wTax, dTax float64
		var cLast, cCredit string
		if err := t.mustRow(noCustWarehouse, []any{w, d, c}, &cDiscount, &cLast, &cCredit, &wTax); err != nil {
			return outcome{}, err
		}
		var oID int
		if err := t.mustRow(noDistrict, []any{w, d}, &oID, &dTax); err != nil {
			return outcome{}, err
		}
		if err := t.execN(1, noDistrictUpdate, oID+1, w, d); err != nil {
			return outcome{}, err
		}
		if err := t.execN(1, noOrderInsert, oID, d, w, c, entry, olCnt, allLocal); err != nil {
			return outcome{}, err
		}
		if err := t.execN(1, noNewOrderInsert, oID, d, w); err != nil {
			return outcome{}, err
		}
		total := 0.0
		for i, l := range lines {
			var price float64
			var iName, iData string
			found, err := t.row(noItem, []any{l.item}, &price, &iName, &iData)
			if err != nil {
				return outcome{}, err
			}
			if !found {
				if l.item != 100001 {
					return outcome{}, &wrongResult{fmt.Sprintf("%s: no row for item %d",
						stmts[noItem].name, l.item)}
				}
				if err := t.plain("ROLLBACK"); err != nil {
					return outcome{}, err
				}
				return outcome{rolledBack: true}, nil
			}
			var sQty int
			var sData string
			var dist [10]string
			dest := []any{&sQty, &sData}
			for k := range dist {
				dest = append(dest, &dist[k])
			}
			if err := t.mustRow(noStock, []any{l.item, l.supply}, dest...); err != nil {
				return outcome{}, err
			}
			if sQty >= l.qty+10 {
				sQty -= l.qty
			} else {
				sQty = sQty - l.qty + 91
			}
			remote := 0
			if l.supply != w {
				remote = 1
			}
			if err := t.execN(1, noStockUpdate, sQty, l.qty, remote, l.item, l.supply); err != nil {
				return outcome{}, err
			}
			amount := float64(l.qty) * price
			total += amount
			brandGeneric := "G"
			if strings.Contains(iData, "ORIGINAL") && strings.Contains(sData, "ORIGINAL") {
				brandGeneric = "B"
			}
			_ = brandGeneric // shown on the terminal's screen in the spec; not stored
			if err := t.execN(1, noOrderLineInsert, oID, d, w, i+1, l.item, l.supply, l.qty,
				roundCents(amount), dist[d-1]); err != nil {
				return outcome{}, err
			}
		}
		_ = total * (1 - cDiscount) * (1 + wTax + dTax) // the order total, displayed only
		return outcome{}, t.commit()
	}
}

func roundCents(x float64) float64 {
	if x < 0 {
		return -roundCents(-x)
	}
	return float64(int64(x*100+0.5)) / 100
}

// customerByName returns the c_id in the middle (n/2 rounded up, clause 2.5.2.2) of the
// customers with last name `last`, sorted by c_first.
func (t *terminal) customerByName(id stmtID, w, d int, last string) (int, error) {
	var ids []int
	args := []any{w, d, last}
	_, err := t.query(id, args, func(r *sql.Rows) error {
		cols, err := r.Columns()
		if err != nil {
			return err
		}
		var cID int
		dest := []any{&cID}
		for range cols[1:] {
			dest = append(dest, new(sql.RawBytes))
		}
		if err := r.Scan(dest...); err != nil {
			return err
		}
		ids = append(ids, cID)
		return nil
	})
	if err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		// Every district has customers with each of the 1,000 last names (clause 4.3.3.1).
		return 0, &wrongResult{fmt.Sprintf("%s: no row\n    %s", stmts[id].name,
			literalSQL(stmts[id].sql, args))}
	}
	return ids[(len(ids)-1)/2], nil
}

// --- Payment (clause 2.5) ---

func (t *terminal) payment() func() (outcome, error) {
	w := t.w
	d := t.r.intn(1, 10)
	cW, cD := w, d
	if t.cfg.warehouses > 1 && t.r.intn(1, 100) > 85 {
		cW = t.otherWarehouse()
		cD = t.r.intn(1, 10)
	}
	byName := t.r.intn(1, 100) <= 60
	cID := t.r.nurand(1023, 1, 3000, t.c.cID)
	cLast := lastName(t.r.nurand(255, 0, 999, t.c.cLast))
	amount := float64(t.r.intn(100, 500000)) / 100
	return func() (outcome, error) {
		hDate := now()
		if err := t.begin(); err != nil {
			return outcome{}, err
		}
		if err := t.execN(1, payWarehouseUpdate, amount, w); err != nil {
			return outcome{}, err
		}
		var wStreet1, wStreet2, wCity, wState, wZip, wName string
		if err := t.mustRow(payWarehouse, []any{w}, &wStreet1, &wStreet2, &wCity, &wState, &wZip, &wName); err != nil {
			return outcome{}, err
		}
		if err := t.execN(1, payDistrictUpdate, amount, w, d); err != nil {
			return outcome{}, err
		}
		var dStreet1, dStreet2, dCity, dState, dZip, dName string
		if err := t.mustRow(payDistrict, []any{w, d}, &dStreet1, &dStreet2, &dCity, &dState, &dZip, &dName); err != nil {
			return outcome{}, err
		}
		c := cID
		if byName {
			var err error
			if c, err = t.customerByName(payCustomerByName, cW, cD, cLast); err != nil {
				return outcome{}, err
			}
		}
		var first, middle, last, street1, street2, city, state, zip, phone, since, credit string
		var creditLim, discount, balance float64
		if err := t.mustRow(payCustomer, []any{cW, cD, c}, &first, &middle, &last, &street1,
			&street2, &city, &state, &zip, &phone, &since, &credit, &creditLim, &discount, &balance); err != nil {
			return outcome{}, err
		}
		if credit == "BC" {
			var data string
			if err := t.mustRow(payCustomerData, []any{cW, cD, c}, &data); err != nil {
				return outcome{}, err
			}
			data = fmt.Sprintf("%d %d %d %d %d %.2f ", c, cD, cW, d, w, amount) + data
			if len(data) > 500 {
				data = data[:500]
			}
			if err := t.execN(1, payCustomerUpdateBC, amount, amount, data, cW, cD, c); err != nil {
				return outcome{}, err
			}
		} else if err := t.execN(1, payCustomerUpdate, amount, amount, cW, cD, c); err != nil {
			return outcome{}, err
		}
		hData := wName + "    " + dName
		if err := t.execN(1, payHistoryInsert, cD, cW, c, d, w, hDate, amount, hData); err != nil {
			return outcome{}, err
		}
		return outcome{}, t.commit()
	}
}

// --- Order-Status (clause 2.6) ---

func (t *terminal) orderStatus() func() (outcome, error) {
	w := t.w
	d := t.r.intn(1, 10)
	byName := t.r.intn(1, 100) <= 60
	cID := t.r.nurand(1023, 1, 3000, t.c.cID)
	cLast := lastName(t.r.nurand(255, 0, 999, t.c.cLast))
	return func() (outcome, error) {
		if err := t.begin(); err != nil {
			return outcome{}, err
		}
		c := cID
		if byName {
			var err error
			if c, err = t.customerByName(osCustomerByName, w, d, cLast); err != nil {
				return outcome{}, err
			}
		}
		var balance float64
		var first, middle, last string
		if err := t.mustRow(osCustomer, []any{w, d, c}, &balance, &first, &middle, &last); err != nil {
			return outcome{}, err
		}
		var oID int
		var entry string
		var carrier sql.NullInt64
		if err := t.mustRow(osLastOrder, []any{w, d, c}, &oID, &entry, &carrier); err != nil {
			return outcome{}, err
		}
		n, err := t.query(osOrderLines, []any{w, d, oID}, func(r *sql.Rows) error {
			var item, supply, qty int
			var amount float64
			var delivery sql.NullString
			return r.Scan(&item, &supply, &qty, &amount, &delivery)
		})
		if err != nil {
			return outcome{}, err
		}
		if n < 5 || n > 15 {
			return outcome{}, &wrongResult{fmt.Sprintf("%s: %d order lines for order (%d, %d, %d)",
				stmts[osOrderLines].name, n, w, d, oID)}
		}
		return outcome{}, t.commit()
	}
}

// --- Delivery (clause 2.7), all ten districts in one transaction ---

func (t *terminal) delivery() func() (outcome, error) {
	w := t.w
	carrier := t.r.intn(1, 10)
	return func() (outcome, error) {
		deliveryD := now()
		if err := t.begin(); err != nil {
			return outcome{}, err
		}
		var out outcome
		for d := 1; d <= 10; d++ {
			var oID int
			found, err := t.row(dlNewOrder, []any{w, d}, &oID)
			if err != nil {
				return outcome{}, err
			}
			if !found {
				out.skipped++
				continue
			}
			if err := t.execN(1, dlNewOrderDelete, w, d, oID); err != nil {
				return outcome{}, err
			}
			var c int
			if err := t.mustRow(dlOrderCustomer, []any{w, d, oID}, &c); err != nil {
				return outcome{}, err
			}
			if err := t.execN(1, dlOrderUpdate, carrier, w, d, oID); err != nil {
				return outcome{}, err
			}
			n, err := t.exec(dlOrderLineUpdate, deliveryD, w, d, oID)
			if err != nil {
				return outcome{}, err
			}
			if n < 5 || n > 15 {
				return outcome{}, &wrongResult{fmt.Sprintf("%s: %d rows affected for order (%d, %d, %d), expected 5..15",
					stmts[dlOrderLineUpdate].name, n, w, d, oID)}
			}
			var sum sql.NullFloat64
			if err := t.mustRow(dlOrderLineSum, []any{w, d, oID}, &sum); err != nil {
				return outcome{}, err
			}
			if !sum.Valid {
				return outcome{}, &wrongResult{fmt.Sprintf("%s: NULL for order (%d, %d, %d)",
					stmts[dlOrderLineSum].name, w, d, oID)}
			}
			if err := t.execN(1, dlCustomerUpdate, roundCents(sum.Float64), w, d, c); err != nil {
				return outcome{}, err
			}
		}
		return out, t.commit()
	}
}

// --- Stock-Level (clause 2.8) ---

func (t *terminal) stockLevel() func() (outcome, error) {
	w, d := t.w, t.dSL
	threshold := t.r.intn(10, 20)
	return func() (outcome, error) {
		if err := t.begin(); err != nil {
			return outcome{}, err
		}
		var next int
		if err := t.mustRow(slDistrict, []any{w, d}, &next); err != nil {
			return outcome{}, err
		}
		var count int
		if err := t.mustRow(slStockCount, []any{w, d, next, next - 20, w, threshold}, &count); err != nil {
			return outcome{}, err
		}
		return outcome{}, t.commit()
	}
}

// errorKind classifies an error: retry (deadlock, lock wait timeout), a MySQL error, a
// wrong result, or a connection-level error (the connection is dropped).
func errorKind(err error) (code int, retry, connLost bool) {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return int(me.Number), me.Number == 1213 || me.Number == 1205, false
	}
	var wr *wrongResult
	if errors.As(err, &wr) {
		return 0, false, false
	}
	return -1, false, true
}
