-- TPC-C: the schema as MySQL TPC-C kits create it (tpcc-mysql, sysbench-tpcc), a tiny data
-- set (1 warehouse, 2 districts), the statements of the five transactions with literal
-- values instead of parameters, and the consistency conditions 1-4 before and after.

-- schema
create table warehouse (
w_id smallint not null,
w_name varchar(10),
w_street_1 varchar(20),
w_street_2 varchar(20),
w_city varchar(20),
w_state char(2),
w_zip char(9),
w_tax decimal(4,2),
w_ytd decimal(12,2),
primary key (w_id) ) Engine=InnoDB;
create table district (
d_id tinyint not null,
d_w_id smallint not null,
d_name varchar(10),
d_street_1 varchar(20),
d_street_2 varchar(20),
d_city varchar(20),
d_state char(2),
d_zip char(9),
d_tax decimal(4,2),
d_ytd decimal(12,2),
d_next_o_id int,
primary key (d_w_id, d_id) ) Engine=InnoDB;
create table customer (
c_id int not null,
c_d_id tinyint not null,
c_w_id smallint not null,
c_first varchar(16),
c_middle char(2),
c_last varchar(16),
c_street_1 varchar(20),
c_street_2 varchar(20),
c_city varchar(20),
c_state char(2),
c_zip char(9),
c_phone char(16),
c_since datetime,
c_credit char(2),
c_credit_lim bigint,
c_discount decimal(4,2),
c_balance decimal(12,2),
c_ytd_payment decimal(12,2),
c_payment_cnt smallint,
c_delivery_cnt smallint,
c_data text,
PRIMARY KEY(c_w_id, c_d_id, c_id) ) Engine=InnoDB;
create table history (
h_c_id int,
h_c_d_id tinyint,
h_c_w_id smallint,
h_d_id tinyint,
h_w_id smallint,
h_date datetime,
h_amount decimal(6,2),
h_data varchar(24) ) Engine=InnoDB;
create table new_orders (
no_o_id int not null,
no_d_id tinyint not null,
no_w_id smallint not null,
PRIMARY KEY(no_w_id, no_d_id, no_o_id)) Engine=InnoDB;
create table orders (
o_id int not null,
o_d_id tinyint not null,
o_w_id smallint not null,
o_c_id int,
o_entry_d datetime,
o_carrier_id tinyint,
o_ol_cnt tinyint,
o_all_local tinyint,
PRIMARY KEY(o_w_id, o_d_id, o_id) ) Engine=InnoDB;
create table order_line (
ol_o_id int not null,
ol_d_id tinyint not null,
ol_w_id smallint not null,
ol_number tinyint not null,
ol_i_id int,
ol_supply_w_id smallint,
ol_delivery_d datetime,
ol_quantity tinyint,
ol_amount decimal(6,2),
ol_dist_info char(24),
PRIMARY KEY(ol_w_id, ol_d_id, ol_o_id, ol_number) ) Engine=InnoDB;
create table item (
i_id int not null,
i_im_id int,
i_name varchar(24),
i_price decimal(5,2),
i_data varchar(50),
PRIMARY KEY(i_id) ) Engine=InnoDB;
create table stock (
s_i_id int not null,
s_w_id smallint not null,
s_quantity smallint,
s_dist_01 char(24),
s_dist_02 char(24),
s_dist_03 char(24),
s_dist_04 char(24),
s_dist_05 char(24),
s_dist_06 char(24),
s_dist_07 char(24),
s_dist_08 char(24),
s_dist_09 char(24),
s_dist_10 char(24),
s_ytd decimal(8,0),
s_order_cnt smallint,
s_remote_cnt smallint,
s_data varchar(50),
PRIMARY KEY(s_w_id, s_i_id) ) Engine=InnoDB;

-- data: 1 warehouse, 2 districts, 7 customers, 6 items, 3 orders per district
INSERT INTO warehouse VALUES (1, 'WH-One', '1 Main St', 'Unit 1', 'Springfield', 'IL', '123451111', 0.08, 300000.00);
INSERT INTO district VALUES
  (1, 1, 'North', '10 North Rd', 'Floor 2', 'Springfield', 'IL', '123452222', 0.05, 150000.00, 4),
  (2, 1, 'South', '20 South Rd', 'Floor 1', 'Shelbyville', 'IL', '123453333', 0.10, 150000.00, 4);
INSERT INTO customer VALUES
  (1, 1, 1, 'Alice', 'OE', 'BARBARBAR', '1 Elm', 'Apt 1', 'Springfield', 'IL', '123450001', '5550000000000001', '2024-01-01 00:00:00', 'GC', 50000, 0.10, -10.00, 10.00, 1, 1, 'alice data'),
  (2, 1, 1, 'Bob', 'OE', 'BARBARBAR', '2 Elm', 'Apt 2', 'Springfield', 'IL', '123450002', '5550000000000002', '2024-01-01 00:00:00', 'BC', 50000, 0.05, -10.00, 10.00, 1, 0, 'bob bad credit'),
  (3, 1, 1, 'Carl', 'OE', 'OUGHTPRIABLE', '3 Elm', 'Apt 3', 'Springfield', 'IL', '123450003', '5550000000000003', '2024-01-01 00:00:00', 'GC', 50000, 0.00, -10.00, 10.00, 1, 0, 'carl data'),
  (4, 1, 1, 'Dana', 'OE', 'BARBARBAR', '4 Elm', 'Apt 4', 'Springfield', 'IL', '123450004', '5550000000000004', '2024-01-01 00:00:00', 'GC', 50000, 0.20, -10.00, 10.00, 1, 0, 'dana data'),
  (1, 2, 1, 'Erin', 'OE', 'ABLEABLEABLE', '1 Oak', 'Apt 1', 'Shelbyville', 'IL', '123450005', '5550000000000005', '2024-01-01 00:00:00', 'GC', 50000, 0.15, -10.00, 10.00, 1, 0, 'erin data'),
  (2, 2, 1, 'Finn', 'OE', 'PRESPRIPRES', '2 Oak', 'Apt 2', 'Shelbyville', 'IL', '123450006', '5550000000000006', '2024-01-01 00:00:00', 'BC', 50000, 0.02, -10.00, 10.00, 1, 1, 'finn bad credit'),
  (3, 2, 1, 'Gail', 'OE', 'ABLEABLEABLE', '3 Oak', 'Apt 3', 'Shelbyville', 'IL', '123450007', '5550000000000007', '2024-01-01 00:00:00', 'GC', 50000, 0.07, -10.00, 10.00, 1, 0, 'gail data');
INSERT INTO history VALUES
  (1, 1, 1, 1, 1, '2024-01-01 00:00:00', 10.00, 'initial'),
  (2, 1, 1, 1, 1, '2024-01-01 00:00:00', 10.00, 'initial'),
  (3, 1, 1, 1, 1, '2024-01-01 00:00:00', 10.00, 'initial'),
  (4, 1, 1, 1, 1, '2024-01-01 00:00:00', 10.00, 'initial'),
  (1, 2, 1, 2, 1, '2024-01-01 00:00:00', 10.00, 'initial'),
  (2, 2, 1, 2, 1, '2024-01-01 00:00:00', 10.00, 'initial'),
  (3, 2, 1, 2, 1, '2024-01-01 00:00:00', 10.00, 'initial');
INSERT INTO item VALUES
  (1, 101, 'Widget', 12.50, 'plain widget'),
  (2, 102, 'Gadget', 3.75, 'ORIGINAL gadget'),
  (3, 103, 'Doohickey', 20.00, 'doohickey data'),
  (4, 104, 'Sprocket', 1.25, 'sprocket ORIGINAL'),
  (5, 105, 'Gizmo', 7.40, 'gizmo data'),
  (6, 106, 'Thingamajig', 99.99, 'thing');
INSERT INTO stock VALUES
  (1, 1, 50, 's1d01', 's1d02', 's1d03', 's1d04', 's1d05', 's1d06', 's1d07', 's1d08', 's1d09', 's1d10', 10, 2, 0, 'stock data one'),
  (2, 1, 15, 's2d01', 's2d02', 's2d03', 's2d04', 's2d05', 's2d06', 's2d07', 's2d08', 's2d09', 's2d10', 5, 1, 0, 'ORIGINAL stock two'),
  (3, 1, 8, 's3d01', 's3d02', 's3d03', 's3d04', 's3d05', 's3d06', 's3d07', 's3d08', 's3d09', 's3d10', 30, 3, 0, 'stock three'),
  (4, 1, 91, 's4d01', 's4d02', 's4d03', 's4d04', 's4d05', 's4d06', 's4d07', 's4d08', 's4d09', 's4d10', 0, 0, 0, 'stock four ORIGINAL'),
  (5, 1, 12, 's5d01', 's5d02', 's5d03', 's5d04', 's5d05', 's5d06', 's5d07', 's5d08', 's5d09', 's5d10', 7, 1, 0, 'stock five'),
  (6, 1, 30, 's6d01', 's6d02', 's6d03', 's6d04', 's6d05', 's6d06', 's6d07', 's6d08', 's6d09', 's6d10', 2, 1, 0, 'stock six');
INSERT INTO orders VALUES
  (1, 1, 1, 1, '2024-02-01 09:00:00', 5, 2, 1),
  (2, 1, 1, 2, '2024-02-02 09:00:00', NULL, 1, 1),
  (3, 1, 1, 1, '2024-02-03 09:00:00', NULL, 2, 1),
  (1, 2, 1, 2, '2024-02-01 10:00:00', 3, 1, 1),
  (2, 2, 1, 1, '2024-02-02 10:00:00', NULL, 2, 1),
  (3, 2, 1, 3, '2024-02-03 10:00:00', NULL, 1, 1);
INSERT INTO new_orders VALUES (2, 1, 1), (3, 1, 1), (2, 2, 1), (3, 2, 1);
INSERT INTO order_line VALUES
  (1, 1, 1, 1, 1, 1, '2024-02-01 12:00:00', 2, 25.00, 's1d01'),
  (1, 1, 1, 2, 3, 1, '2024-02-01 12:00:00', 1, 20.00, 's3d01'),
  (2, 1, 1, 1, 2, 1, NULL, 4, 15.00, 's2d01'),
  (3, 1, 1, 1, 5, 1, NULL, 1, 7.40, 's5d01'),
  (3, 1, 1, 2, 3, 1, NULL, 2, 40.00, 's3d01'),
  (1, 2, 1, 1, 6, 1, '2024-02-01 13:00:00', 1, 99.99, 's6d02'),
  (2, 2, 1, 1, 1, 1, NULL, 3, 37.50, 's1d02'),
  (2, 2, 1, 2, 4, 1, NULL, 10, 12.50, 's4d02'),
  (3, 2, 1, 1, 2, 1, NULL, 2, 7.50, 's2d02');

-- secondary indexes and foreign keys, added after the load as tpcc-mysql does
SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0;
SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0;
CREATE INDEX idx_customer ON customer (c_w_id,c_d_id,c_last,c_first);
CREATE INDEX idx_orders ON orders (o_w_id,o_d_id,o_c_id,o_id);
CREATE INDEX fkey_stock_2 ON stock (s_i_id);
CREATE INDEX fkey_order_line_2 ON order_line (ol_supply_w_id,ol_i_id);
ALTER TABLE district  ADD CONSTRAINT fkey_district_1 FOREIGN KEY(d_w_id) REFERENCES warehouse(w_id);
ALTER TABLE customer ADD CONSTRAINT fkey_customer_1 FOREIGN KEY(c_w_id,c_d_id) REFERENCES district(d_w_id,d_id);
ALTER TABLE history  ADD CONSTRAINT fkey_history_1 FOREIGN KEY(h_c_w_id,h_c_d_id,h_c_id) REFERENCES customer(c_w_id,c_d_id,c_id);
ALTER TABLE history  ADD CONSTRAINT fkey_history_2 FOREIGN KEY(h_w_id,h_d_id) REFERENCES district(d_w_id,d_id);
ALTER TABLE new_orders ADD CONSTRAINT fkey_new_orders_1 FOREIGN KEY(no_w_id,no_d_id,no_o_id) REFERENCES orders(o_w_id,o_d_id,o_id);
ALTER TABLE orders ADD CONSTRAINT fkey_orders_1 FOREIGN KEY(o_w_id,o_d_id,o_c_id) REFERENCES customer(c_w_id,c_d_id,c_id);
ALTER TABLE order_line ADD CONSTRAINT fkey_order_line_1 FOREIGN KEY(ol_w_id,ol_d_id,ol_o_id) REFERENCES orders(o_w_id,o_d_id,o_id);
ALTER TABLE order_line ADD CONSTRAINT fkey_order_line_2 FOREIGN KEY(ol_supply_w_id,ol_i_id) REFERENCES stock(s_w_id,s_i_id);
ALTER TABLE stock ADD CONSTRAINT fkey_stock_1 FOREIGN KEY(s_w_id) REFERENCES warehouse(w_id);
ALTER TABLE stock ADD CONSTRAINT fkey_stock_2 FOREIGN KEY(s_i_id) REFERENCES item(i_id);
SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS;
SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS;
SELECT @@FOREIGN_KEY_CHECKS, @@UNIQUE_CHECKS;
SELECT TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME FROM information_schema.STATISTICS
  WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME IN ('idx_customer', 'idx_orders', 'fkey_stock_2', 'fkey_order_line_2');
SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE();

-- consistency conditions 1-4 on the loaded data
-- 1: W_YTD = sum(D_YTD)
SELECT w.w_id, w.w_ytd, SUM(d.d_ytd) AS sum_d_ytd FROM warehouse w JOIN district d ON d.d_w_id = w.w_id GROUP BY w.w_id, w.w_ytd;
SELECT w_id FROM warehouse WHERE w_ytd <> (SELECT SUM(d_ytd) FROM district WHERE d_w_id = w_id);
-- 2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID)
SELECT d_w_id, d_id, d_next_o_id - 1 AS last_o_id,
  (SELECT MAX(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS max_o_id,
  (SELECT MAX(no_o_id) FROM new_orders WHERE no_w_id = d_w_id AND no_d_id = d_id) AS max_no_o_id
  FROM district;
-- 3: max(NO_O_ID) - min(NO_O_ID) + 1 = number of NEW-ORDER rows
SELECT no_w_id, no_d_id, MAX(no_o_id) - MIN(no_o_id) + 1 AS span, COUNT(*) AS n FROM new_orders GROUP BY no_w_id, no_d_id;
-- 4: sum(O_OL_CNT) = number of ORDER-LINE rows
SELECT o.o_w_id, o.o_d_id, o.ol_cnt, l.n_lines
  FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS ol_cnt FROM orders GROUP BY o_w_id, o_d_id) o
  JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS n_lines FROM order_line GROUP BY ol_w_id, ol_d_id) l
    ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id;

-- New-Order (sysbench-tpcc style): warehouse 1, district 1, customer 3, items 1 x5, 3 x4, 4 x2
BEGIN;
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 1 AND c_w_id = w_id AND c_d_id = 1 AND c_id = 3;
SELECT d_next_o_id, d_tax FROM district WHERE d_id = 1 AND d_w_id = 1 FOR UPDATE;
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_id = 1 AND d_w_id = 1;
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (4, 1, 1, 3, '2024-03-01 10:00:00', 3, 1);
INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (4, 1, 1);
SELECT i_price, i_name, i_data FROM item WHERE i_id = 1;
SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = 1 AND s_w_id = 1 FOR UPDATE;
UPDATE stock SET s_quantity = 45, s_ytd = s_ytd + 5, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + 0 WHERE s_i_id = 1 AND s_w_id = 1;
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (4, 1, 1, 1, 1, 1, 5, 62.50, 's1d01');
SELECT i_price, i_name, i_data FROM item WHERE i_id = 3;
SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = 3 AND s_w_id = 1 FOR UPDATE;
UPDATE stock SET s_quantity = 95, s_ytd = s_ytd + 4, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + 0 WHERE s_i_id = 3 AND s_w_id = 1;
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (4, 1, 1, 2, 3, 1, 4, 80.00, 's3d01');
SELECT i_price, i_name, i_data FROM item WHERE i_id = 4;
SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = 4 AND s_w_id = 1 FOR UPDATE;
UPDATE stock SET s_quantity = 89, s_ytd = s_ytd + 2, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + 0 WHERE s_i_id = 4 AND s_w_id = 1;
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (4, 1, 1, 3, 4, 1, 2, 2.50, 's4d01');
SELECT SUM(ol_amount) * (1 - 0.00) * (1 + 0.08 + 0.05) AS total FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 4;
COMMIT;

-- New-Order (tpcc-mysql style, autocommit off): district 2, customer 1, items 2 x3, 5 x6
SET autocommit = 0;
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 1 AND c_w_id = w_id AND c_d_id = 2 AND c_id = 1;
SELECT d_next_o_id, d_tax FROM district WHERE d_id = 2 AND d_w_id = 1 FOR UPDATE;
UPDATE district SET d_next_o_id = 4 + 1 WHERE d_id = 2 AND d_w_id = 1;
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES(4, 2, 1, 1, '2024-03-01 10:10:00', 2, 1);
INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (4,2,1);
SELECT i_price, i_name, i_data FROM item WHERE i_id = 2;
SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = 2 AND s_w_id = 1 FOR UPDATE;
UPDATE stock SET s_quantity = 12 WHERE s_i_id = 2 AND s_w_id = 1;
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (4, 2, 1, 1, 2, 1, 3, 11.25, 's2d02');
SELECT i_price, i_name, i_data FROM item WHERE i_id = 5;
SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = 5 AND s_w_id = 1 FOR UPDATE;
UPDATE stock SET s_quantity = 97 WHERE s_i_id = 5 AND s_w_id = 1;
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (4, 2, 1, 2, 5, 1, 6, 44.40, 's5d02');
COMMIT;
SET autocommit = 1;

-- New-Order with an unused item number: rolled back
BEGIN;
SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 1 AND c_w_id = w_id AND c_d_id = 1 AND c_id = 4;
SELECT d_next_o_id, d_tax FROM district WHERE d_id = 1 AND d_w_id = 1 FOR UPDATE;
UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_id = 1 AND d_w_id = 1;
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (5, 1, 1, 4, '2024-03-01 10:20:00', 2, 1);
INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (5, 1, 1);
SELECT i_price, i_name, i_data FROM item WHERE i_id = 6;
SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = 6 AND s_w_id = 1 FOR UPDATE;
UPDATE stock SET s_quantity = 29, s_ytd = s_ytd + 1, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + 0 WHERE s_i_id = 6 AND s_w_id = 1;
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (5, 1, 1, 1, 6, 1, 1, 99.99, 's6d01');
SELECT i_price, i_name, i_data FROM item WHERE i_id = 100001;
ROLLBACK;
SELECT d_next_o_id FROM district WHERE d_id = 1 AND d_w_id = 1;
SELECT COUNT(*) FROM orders WHERE o_w_id = 1 AND o_d_id = 1;
SELECT s_quantity, s_ytd, s_order_cnt FROM stock WHERE s_i_id = 6 AND s_w_id = 1;

-- Payment by customer number (tpcc-mysql style): district 2, customer 2 (bad credit), 500.00
BEGIN;
UPDATE warehouse SET w_ytd = w_ytd + 500.00 WHERE w_id = 1;
SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = 1;
UPDATE district SET d_ytd = d_ytd + 500.00 WHERE d_w_id = 1 AND d_id = 2;
SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = 1 AND d_id = 2;
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 2 FOR UPDATE;
SELECT c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 2;
UPDATE customer SET c_balance = -510.00, c_data = '| 2 2 1 2 1 500.00 finn bad credit' WHERE c_w_id = 1 AND c_d_id = 2 AND c_id = 2;
INSERT INTO history(h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES(2, 1, 2, 2, 1, '2024-03-01 10:30:00', 500.00, 'WH-One    South');
COMMIT;

-- Payment by last name (sysbench-tpcc style): district 1, 'BARBARBAR', 250.00
BEGIN;
UPDATE warehouse SET w_ytd = w_ytd + 250.00 WHERE w_id = 1;
SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = 1;
UPDATE district SET d_ytd = d_ytd + 250.00 WHERE d_w_id = 1 AND d_id = 1;
SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = 1 AND d_id = 1;
SELECT count(c_id) namecnt FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = 'BARBARBAR';
SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = 'BARBARBAR' ORDER BY c_first;
SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_since FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 2 FOR UPDATE;
SELECT c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 2;
UPDATE customer SET c_balance = c_balance - 250.00, c_ytd_payment = c_ytd_payment + 250.00, c_payment_cnt = c_payment_cnt + 1, c_data = SUBSTRING(CONCAT('| 2 1 1 1 1 250.00 ', c_data), 1, 500) WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 2;
INSERT INTO history (h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (1, 1, 2, 1, 1, '2024-03-01 10:40:00', 250.00, 'WH-One    North');
COMMIT;

-- Payment by customer number, good credit: district 1, customer 1, 100.00
BEGIN;
UPDATE warehouse SET w_ytd = w_ytd + 100.00 WHERE w_id = 1;
UPDATE district SET d_ytd = d_ytd + 100.00 WHERE d_w_id = 1 AND d_id = 1;
SELECT c_first, c_middle, c_last, c_credit, c_discount, c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1 FOR UPDATE;
UPDATE customer SET c_balance = -110.00 WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1;
INSERT INTO history(h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES(1, 1, 1, 1, 1, '2024-03-01 10:50:00', 100.00, 'WH-One    North');
COMMIT;
SELECT c_id, c_d_id, c_balance, c_ytd_payment, c_payment_cnt, c_data FROM customer WHERE c_credit = 'BC';
SELECT h_c_id, h_c_d_id, h_amount, h_data FROM history WHERE h_date > '2024-02-01';
SELECT c_balance FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1;

-- Order-Status by last name: district 2, 'ABLEABLEABLE' (the first of two by c_first)
BEGIN;
SELECT count(c_id) FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_last = 'ABLEABLEABLE';
SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_last = 'ABLEABLEABLE' ORDER BY c_first;
SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = 1 AND c_d_id = 2 AND c_last = 'ABLEABLEABLE' ORDER BY c_first;
SELECT o_id, o_entry_d, COALESCE(o_carrier_id,0) FROM orders WHERE o_w_id = 1 AND o_d_id = 2 AND o_c_id = 1 AND o_id = (SELECT MAX(o_id) FROM orders WHERE o_w_id = 1 AND o_d_id = 2 AND o_c_id = 1);
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id = 4;
COMMIT;

-- Order-Status by customer number (sysbench-tpcc style): district 1, customer 1
BEGIN;
SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1;
SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_c_id = 1 ORDER BY o_id DESC LIMIT 1;
SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 3;
COMMIT;

-- Delivery, carrier 7: district 1 the tpcc-mysql way, district 2 the sysbench-tpcc way
BEGIN;
SELECT COALESCE(MIN(no_o_id),0) FROM new_orders WHERE no_d_id = 1 AND no_w_id = 1;
DELETE FROM new_orders WHERE no_o_id = 2 AND no_d_id = 1 AND no_w_id = 1;
SELECT o_c_id FROM orders WHERE o_id = 2 AND o_d_id = 1 AND o_w_id = 1;
UPDATE orders SET o_carrier_id = 7 WHERE o_id = 2 AND o_d_id = 1 AND o_w_id = 1;
UPDATE order_line SET ol_delivery_d = '2024-03-02 08:00:00' WHERE ol_o_id = 2 AND ol_d_id = 1 AND ol_w_id = 1;
SELECT SUM(ol_amount) FROM order_line WHERE ol_o_id = 2 AND ol_d_id = 1 AND ol_w_id = 1;
UPDATE customer SET c_balance = c_balance + 15.00 , c_delivery_cnt = c_delivery_cnt + 1 WHERE c_id = 2 AND c_d_id = 1 AND c_w_id = 1;
SELECT no_o_id FROM new_orders WHERE no_d_id = 2 AND no_w_id = 1 ORDER BY no_o_id ASC LIMIT 1 FOR UPDATE;
DELETE FROM new_orders WHERE no_o_id = 2 AND no_d_id = 2 AND no_w_id = 1;
SELECT o_c_id FROM orders WHERE o_id = 2 AND o_d_id = 2 AND o_w_id = 1;
UPDATE orders SET o_carrier_id = 7 WHERE o_id = 2 AND o_d_id = 2 AND o_w_id = 1;
UPDATE order_line SET ol_delivery_d = '2024-03-02 08:00:00' WHERE ol_o_id = 2 AND ol_d_id = 2 AND ol_w_id = 1;
SELECT SUM(ol_amount) sm FROM order_line WHERE ol_o_id = 2 AND ol_d_id = 2 AND ol_w_id = 1;
UPDATE customer SET c_balance = c_balance + 50.00, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_id = 1 AND c_d_id = 2 AND c_w_id = 1;
COMMIT;
SELECT o_w_id, o_d_id, o_id, o_carrier_id FROM orders WHERE o_carrier_id IS NOT NULL;
SELECT ol_d_id, ol_o_id, ol_number, ol_delivery_d FROM order_line WHERE ol_delivery_d >= '2024-03-01';
SELECT c_d_id, c_id, c_balance, c_delivery_cnt FROM customer WHERE c_delivery_cnt > 0;
SELECT * FROM new_orders;

-- Stock-Level: district 1 with threshold 20 and 50, district 2 with threshold 100
BEGIN;
SELECT d_next_o_id FROM district WHERE d_id = 1 AND d_w_id = 1;
SELECT DISTINCT ol_i_id FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id < 5 AND ol_o_id >= (5 - 20);
SELECT count(*) FROM stock WHERE s_w_id = 1 AND s_i_id = 2 AND s_quantity < 20;
SELECT count(*) FROM stock WHERE s_w_id = 1 AND s_i_id = 3 AND s_quantity < 20;
SELECT COUNT(DISTINCT (s_i_id)) FROM order_line, stock WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id < 5 AND ol_o_id >= 5 - 20 AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < 20;
SELECT COUNT(DISTINCT (s_i_id)) FROM order_line, stock WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id < 5 AND ol_o_id >= 5 - 20 AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < 50;
SELECT d_next_o_id FROM district WHERE d_id = 2 AND d_w_id = 1;
SELECT COUNT(DISTINCT (s_i_id)) FROM order_line, stock WHERE ol_w_id = 1 AND ol_d_id = 2 AND ol_o_id < 5 AND ol_o_id >= 5 - 20 AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < 100;
SELECT COUNT(DISTINCT s.s_i_id) AS stock_count FROM order_line ol JOIN stock s ON s.s_w_id = ol.ol_w_id AND s.s_i_id = ol.ol_i_id WHERE ol.ol_w_id = 1 AND ol.ol_d_id = 2 AND ol.ol_o_id BETWEEN 5 - 20 AND 5 - 1 AND s.s_quantity < 15;
COMMIT;
SELECT s_i_id, s_quantity, s_ytd, s_order_cnt, s_remote_cnt FROM stock;

-- constraint checks still hold for the transactions
INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (99, 1, 1);
INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (4, 1, 1, 4, 77, 1, 1, 1.00, 'x');
INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (4, 1, 1, 3, '2024-03-01 10:00:00', 3, 1);
DELETE FROM orders WHERE o_w_id = 1 AND o_d_id = 1 AND o_id = 4;

-- consistency conditions 1-4 after the transactions
SELECT w.w_id, w.w_ytd, SUM(d.d_ytd) AS sum_d_ytd FROM warehouse w JOIN district d ON d.d_w_id = w.w_id GROUP BY w.w_id, w.w_ytd;
SELECT w_id FROM warehouse WHERE w_ytd <> (SELECT SUM(d_ytd) FROM district WHERE d_w_id = w_id);
SELECT d_w_id, d_id, d_next_o_id - 1 AS last_o_id,
  (SELECT MAX(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id) AS max_o_id,
  (SELECT MAX(no_o_id) FROM new_orders WHERE no_w_id = d_w_id AND no_d_id = d_id) AS max_no_o_id
  FROM district;
SELECT d.d_w_id, d.d_id FROM district d
  WHERE d.d_next_o_id - 1 <> (SELECT MAX(o_id) FROM orders WHERE o_w_id = d.d_w_id AND o_d_id = d.d_id)
     OR d.d_next_o_id - 1 <> (SELECT MAX(no_o_id) FROM new_orders WHERE no_w_id = d.d_w_id AND no_d_id = d.d_id);
SELECT no_w_id, no_d_id, MAX(no_o_id) - MIN(no_o_id) + 1 AS span, COUNT(*) AS n FROM new_orders GROUP BY no_w_id, no_d_id;
SELECT no_w_id, no_d_id FROM new_orders GROUP BY no_w_id, no_d_id HAVING MAX(no_o_id) - MIN(no_o_id) + 1 <> COUNT(*);
SELECT o.o_w_id, o.o_d_id, o.ol_cnt, l.n_lines
  FROM (SELECT o_w_id, o_d_id, SUM(o_ol_cnt) AS ol_cnt FROM orders GROUP BY o_w_id, o_d_id) o
  JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS n_lines FROM order_line GROUP BY ol_w_id, ol_d_id) l
    ON l.ol_w_id = o.o_w_id AND l.ol_d_id = o.o_d_id;
SELECT o_w_id, o_d_id FROM orders o GROUP BY o_w_id, o_d_id
  HAVING SUM(o_ol_cnt) <> (SELECT COUNT(*) FROM order_line WHERE ol_w_id = o.o_w_id AND ol_d_id = o.o_d_id);
