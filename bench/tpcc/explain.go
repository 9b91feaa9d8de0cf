package main

import (
	"database/sql"
	"fmt"
	"strings"
)

// cmdExplain prints EXPLAIN for every statement of the workload, with representative
// literal values (sent as a plain query). The INSERTs are explained too: EXPLAIN does not
// execute them.
func cmdExplain(cfg *config) error {
	db, err := openDB(cfg, 1)
	if err != nil {
		return err
	}
	defer db.Close()
	failed := 0
	for id := stmtID(0); id < numStmts; id++ {
		s := stmts[id]
		q := literalSQL(s.sql, s.example)
		fmt.Printf("-- %s\n%s;\n", s.name, q)
		if err := explainOne(db, "EXPLAIN "+q); err != nil {
			fmt.Printf("ERROR: %v\n\n", err)
			failed++
			continue
		}
		fmt.Println()
	}
	if failed > 0 {
		return fmt.Errorf("EXPLAIN failed for %d of %d statements", failed, numStmts)
	}
	return nil
}

func explainOne(db *sql.DB, q string) error {
	rows, err := db.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	table := [][]string{cols}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		dest := make([]any, len(cols))
		for i := range vals {
			dest[i] = &vals[i]
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			if v.Valid {
				row[i] = v.String
			} else {
				row[i] = "NULL"
			}
		}
		table = append(table, row)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	width := make([]int, len(cols))
	for _, r := range table {
		for i, v := range r {
			width[i] = max(width[i], len(v))
		}
	}
	for _, r := range table {
		var b strings.Builder
		for i, v := range r {
			if i > 0 {
				b.WriteString(" | ")
			}
			fmt.Fprintf(&b, "%-*s", width[i], v)
		}
		fmt.Println(strings.TrimRight(b.String(), " "))
	}
	return nil
}
