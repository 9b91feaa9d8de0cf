package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// stmtID names one statement of the workload. Every statement the five transactions send
// (other than BEGIN, COMMIT and ROLLBACK) is in `stmts`, with representative arguments for
// `explain`.
type stmtID int

const (
	// New-Order (clause 2.4.2)
	noCustWarehouse stmtID = iota
	noDistrict
	noDistrictUpdate
	noOrderInsert
	noNewOrderInsert
	noItem
	noStock
	noStockUpdate
	noOrderLineInsert
	// Payment (clause 2.5.2)
	payWarehouseUpdate
	payWarehouse
	payDistrictUpdate
	payDistrict
	payCustomerByName
	payCustomer
	payCustomerData
	payCustomerUpdateBC
	payCustomerUpdate
	payHistoryInsert
	// Order-Status (clause 2.6.2)
	osCustomerByName
	osCustomer
	osLastOrder
	osOrderLines
	// Delivery (clause 2.7.4)
	dlNewOrder
	dlNewOrderDelete
	dlOrderCustomer
	dlOrderUpdate
	dlOrderLineUpdate
	dlOrderLineSum
	dlCustomerUpdate
	// Stock-Level (clause 2.8.2)
	slDistrict
	slStockCount
	numStmts
)

type stmtDef struct {
	name    string
	sql     string
	example []any // representative arguments for `explain`
}

var exampleTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

var stmts = [numStmts]stmtDef{
	noCustWarehouse: {"new_order.customer_warehouse",
		"SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?",
		[]any{1, 1, 1}},
	noDistrict: {"new_order.district",
		"SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE",
		[]any{1, 1}},
	noDistrictUpdate: {"new_order.district_update",
		"UPDATE district SET d_next_o_id = ? WHERE d_w_id = ? AND d_id = ?",
		[]any{3002, 1, 1}},
	noOrderInsert: {"new_order.orders_insert",
		"INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?)",
		[]any{1000001, 1, 1, 1, exampleTime, 10, 1}},
	noNewOrderInsert: {"new_order.new_orders_insert",
		"INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)",
		[]any{1000001, 1, 1}},
	noItem: {"new_order.item",
		"SELECT i_price, i_name, i_data FROM item WHERE i_id = ?",
		[]any{1}},
	noStock: {"new_order.stock",
		"SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE",
		[]any{1, 1}},
	noStockUpdate: {"new_order.stock_update",
		"UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?",
		[]any{50, 5, 0, 1, 1}},
	noOrderLineInsert: {"new_order.order_line_insert",
		"INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		[]any{1000001, 1, 1, 1, 1, 1, 5, 123.45, "abcdefghijklmnopqrstuvwx"}},

	payWarehouseUpdate: {"payment.warehouse_update",
		"UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?",
		[]any{1234.56, 1}},
	payWarehouse: {"payment.warehouse",
		"SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = ?",
		[]any{1}},
	payDistrictUpdate: {"payment.district_update",
		"UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?",
		[]any{1234.56, 1, 1}},
	payDistrict: {"payment.district",
		"SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = ? AND d_id = ?",
		[]any{1, 1}},
	payCustomerByName: {"payment.customer_by_name",
		"SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first",
		[]any{1, 1, "BARBARBAR"}},
	payCustomer: {"payment.customer",
		"SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE",
		[]any{1, 1, 1}},
	payCustomerData: {"payment.customer_data",
		"SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
		[]any{1, 1, 1}},
	payCustomerUpdateBC: {"payment.customer_update_bc",
		"UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
		[]any{1234.56, 1234.56, "1 1 1 1 1 1234.56 abc", 1, 1, 1}},
	payCustomerUpdate: {"payment.customer_update",
		"UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
		[]any{1234.56, 1234.56, 1, 1, 1}},
	payHistoryInsert: {"payment.history_insert",
		"INSERT INTO history (h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		[]any{1, 1, 1, 1, 1, exampleTime, 1234.56, "abcdef    ghijkl"}},

	osCustomerByName: {"order_status.customer_by_name",
		"SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first",
		[]any{1, 1, "BARBARBAR"}},
	osCustomer: {"order_status.customer",
		"SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
		[]any{1, 1, 1}},
	osLastOrder: {"order_status.last_order",
		"SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1",
		[]any{1, 1, 1}},
	osOrderLines: {"order_status.order_lines",
		"SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?",
		[]any{1, 1, 2101}},

	dlNewOrder: {"delivery.new_order",
		"SELECT no_o_id FROM new_orders WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1 FOR UPDATE",
		[]any{1, 1}},
	dlNewOrderDelete: {"delivery.new_order_delete",
		"DELETE FROM new_orders WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?",
		[]any{1, 1, 2101}},
	dlOrderCustomer: {"delivery.order_customer",
		"SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?",
		[]any{1, 1, 2101}},
	dlOrderUpdate: {"delivery.order_update",
		"UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?",
		[]any{5, 1, 1, 2101}},
	dlOrderLineUpdate: {"delivery.order_line_update",
		"UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?",
		[]any{exampleTime, 1, 1, 2101}},
	dlOrderLineSum: {"delivery.order_line_sum",
		"SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?",
		[]any{1, 1, 2101}},
	dlCustomerUpdate: {"delivery.customer_update",
		"UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
		[]any{1234.56, 1, 1, 1}},

	slDistrict: {"stock_level.district",
		"SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?",
		[]any{1, 1}},
	slStockCount: {"stock_level.stock_count",
		"SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?",
		[]any{1, 1, 3001, 2981, 1, 15}},
}

// literalSQL is a statement with its arguments written in as SQL literals (for `explain`
// and for error reports).
func literalSQL(query string, args []any) string {
	var b strings.Builder
	i := 0
	for _, part := range strings.Split(query, "?") {
		if i > 0 {
			if i-1 < len(args) {
				b.WriteString(literal(args[i-1]))
			} else {
				b.WriteString("?")
			}
		}
		b.WriteString(part)
		i++
	}
	return b.String()
}

func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(x) + "'"
	case time.Time:
		return "'" + x.UTC().Format("2006-01-02 15:04:05") + "'"
	default:
		return fmt.Sprintf("'%v'", x)
	}
}
