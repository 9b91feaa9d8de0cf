// Command tpcc is a TPC-C client for MySQL-compatible servers (Quire, MySQL, MariaDB),
// written from the TPC-C specification, revision 5.11, in the way tpcc-mysql and
// sysbench-tpcc run it: no keying or think time, every connection a terminal.
//
//	tpcc load    -warehouses W [-load-conns N] [-fks]   schema + population (clause 4.3)
//	tpcc run     -warehouses W [-conns 32] [-duration 10m] [-warmup 1m] [-mode prepared|text] [-report 10s]
//	tpcc check   -warehouses W      consistency conditions 1-4 (clause 3.3.2.1-3.3.2.4)
//	tpcc explain                    EXPLAIN of every statement the workload sends
//
// Connection flags: -host 127.0.0.1 -port 3306 -user root -password "" -db tpcc.
// Flags may come before or after the subcommand. Build: `go build` in this directory; e.g.
//
//	./tpcc load -port 3306 -warehouses 1 && ./tpcc run -port 3306 -conns 8 -duration 60s -warmup 10s && ./tpcc check -port 3306
//
// ../tpcc.sh runs it against Quire and a private MariaDB, alternating, with medians.
//
// Schema: the nine tables with tpcc-mysql's types, primary keys and the indexes
// idx_customer (c_w_id, c_d_id, c_last, c_first) and idx_orders (o_w_id, o_d_id, o_c_id,
// o_id), ENGINE=InnoDB; -fks adds tpcc-mysql's fkey_* indexes and the spec's foreign keys
// after the load (ALTER TABLE … ADD CONSTRAINT … FOREIGN KEY).
//
// Load: 100,000 items; per warehouse 10 districts, 100,000 stock rows, 3,000 customers per
// district (C_LAST from the syllables: the number c_id-1 for the first 1,000, NURand(255, 0,
// 999) for the rest), one history row per customer, 3,000 orders per district (customers in
// a random permutation, 5-15 order lines, o_carrier_id NULL and order lines undelivered for
// the last 900, which are also in new_orders). Multi-row INSERTs of 500 rows with literal
// values, one transaction per unit (10,000 items or stock rows, or one district's customers
// or orders), units spread over -load-conns connections.
//
// Run: connection i is a terminal of warehouse i % W + 1 (Stock-Level district
// (i / W) % 10 + 1, the other transactions a random district). Each terminal draws from a
// shuffled deck of 100 cards: 45 New-Order, 43 Payment, 4 Order-Status, 4 Delivery, 4
// Stock-Level. Transactions follow clause 2 (New-Order: 5-15 lines, 1% remote supply
// warehouse when W > 1, 1% an unused item in the last line, which rolls the transaction back
// — counted as a successful rollback, not as an error; district and stock read FOR UPDATE.
// Payment: 60% by last name (the middle customer by c_first), 15% a remote customer when
// W > 1, C_DATA updated for BC credit. Order-Status: 60% by last name. Delivery: the ten
// districts in one transaction, oldest new order by ORDER BY … LIMIT 1 FOR UPDATE.
// Stock-Level: COUNT(DISTINCT s_i_id) over the join of the last 20 orders' lines and stock).
// -mode=prepared sends server-side prepared statements (COM_STMT_PREPARE once per connection,
// then COM_STMT_EXECUTE); -mode=text sends COM_QUERY with the arguments written in by the
// driver (interpolateParams=true). BEGIN/COMMIT/ROLLBACK are always plain queries.
//
// Errors: deadlock (1213) and lock wait timeout (1205) roll back and retry the transaction
// with the same input (counted as retries). Any other error is counted by error number and
// statement (the first 3 of each printed in full with the statement), the transaction rolled
// back, and the run goes on; "error 0" is a wrong result (a row that must exist is missing, a
// wrong affected-row count), "-1" a lost connection (the terminal reconnects).
//
// Output: NOTPM every 10 s (-report); at the end per-transaction counts, retries, errors, average and
// p95/p99 latency of the measured interval (after the warmup), NOTPM (committed New-Order
// transactions per minute of measured time) and one line for scripts:
//
//	RESULT notpm=… tpm_total=… errors=… retries=…
//
// (errors and retries there count the whole run, warmup included). `check` exits with
// status 1 and names the condition and district that failed; `explain` exits with status 1
// if any EXPLAIN failed.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/go-sql-driver/mysql"
)

type config struct {
	host, user, password, db string
	port                     int
	warehouses, conns        int
	loadConns                int
	duration, warmup         time.Duration
	report                   time.Duration
	mode                     string
	prepared                 bool
	fks                      bool
	seed                     uint64
}

var commands = map[string]func(*config) error{
	"load": cmdLoad, "run": cmdRun, "check": cmdCheck, "explain": cmdExplain,
}

func main() {
	cfg := &config{}
	fs := flag.NewFlagSet("tpcc", flag.ExitOnError)
	fs.StringVar(&cfg.host, "host", "127.0.0.1", "server host")
	fs.IntVar(&cfg.port, "port", 3306, "server port")
	fs.StringVar(&cfg.user, "user", "root", "user")
	fs.StringVar(&cfg.password, "password", "", "password")
	fs.StringVar(&cfg.db, "db", "tpcc", "database")
	fs.IntVar(&cfg.warehouses, "warehouses", 1, "number of warehouses W")
	fs.IntVar(&cfg.conns, "conns", 32, "connections (terminals) for run")
	fs.IntVar(&cfg.loadConns, "load-conns", 4, "connections for load")
	fs.DurationVar(&cfg.duration, "duration", 10*time.Minute, "measured time of run")
	fs.DurationVar(&cfg.warmup, "warmup", time.Minute, "warmup before the measured time")
	fs.DurationVar(&cfg.report, "report", 10*time.Second, "run: interval of the NOTPM lines")
	fs.StringVar(&cfg.mode, "mode", "prepared", "prepared (COM_STMT_PREPARE/EXECUTE) or text (COM_QUERY)")
	fs.BoolVar(&cfg.fks, "fks", false, "load: add the foreign keys after loading")
	fs.Uint64Var(&cfg.seed, "seed", 0, "load: random seed (0: from the clock); the same seed loads the same rows")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: tpcc load|run|check|explain [flags]")
		fs.PrintDefaults()
	}
	args := os.Args[1:]
	var cmd string
	if len(args) > 0 && commands[args[0]] != nil {
		cmd, args = args[0], args[1:]
	}
	fs.Parse(args)
	if cmd == "" && fs.NArg() > 0 {
		cmd = fs.Arg(0)
		fs.Parse(fs.Args()[1:])
	}
	if fs.NArg() > 0 || commands[cmd] == nil {
		fs.Usage()
		os.Exit(2)
	}
	switch cfg.mode {
	case "prepared":
		cfg.prepared = true
	case "text":
	default:
		fmt.Fprintln(os.Stderr, "-mode must be prepared or text")
		os.Exit(2)
	}
	if cfg.warehouses < 1 || cfg.conns < 1 || cfg.loadConns < 1 || cfg.report < 100*time.Millisecond {
		fmt.Fprintln(os.Stderr, "-warehouses, -conns and -load-conns must be at least 1, -report at least 100ms")
		os.Exit(2)
	}
	if err := commands[cmd](cfg); err != nil {
		fmt.Fprintf(os.Stderr, "tpcc %s: %v\n", cmd, err)
		os.Exit(1)
	}
}

func mysqlConfig(cfg *config, db string) *mysql.Config {
	c := mysql.NewConfig()
	c.User = cfg.user
	c.Passwd = cfg.password
	c.Net = "tcp"
	c.Addr = net.JoinHostPort(cfg.host, strconv.Itoa(cfg.port))
	c.DBName = db
	c.InterpolateParams = !cfg.prepared
	c.Timeout = 10 * time.Second
	return c
}

// openDB opens a pool on the database that keeps up to `conns` idle connections.
func openDB(cfg *config, conns int) (*sql.DB, error) {
	conn, err := mysql.NewConnector(mysqlConfig(cfg, cfg.db))
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(conn)
	db.SetMaxIdleConns(conns)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// openRoot opens a connection without a default database.
func openRoot(cfg *config) (*sql.DB, error) {
	conn, err := mysql.NewConnector(mysqlConfig(cfg, ""))
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(conn), nil
}
