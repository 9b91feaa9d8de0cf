-- Foreign keys: REFERENCES with ON DELETE / ON UPDATE actions, violations (1451, 1452),
-- cascades, SET NULL, FOREIGN_KEY_CHECKS, ALTER TABLE ... ADD/DROP FOREIGN KEY,
-- information_schema rows for the keys.

-- setup: customers, orders (cascade), notes (set null), payments (restrict by default)
CREATE TABLE customer (
  id INT PRIMARY KEY,
  name VARCHAR(20) NOT NULL
);
CREATE TABLE orders (
  id INT PRIMARY KEY,
  customer_id INT NOT NULL,
  total DECIMAL(8,2) NOT NULL,
  KEY idx_customer (customer_id),
  CONSTRAINT fk_orders_customer FOREIGN KEY (customer_id) REFERENCES customer (id)
    ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE TABLE order_item (
  order_id INT NOT NULL,
  line INT NOT NULL,
  sku VARCHAR(10) NOT NULL,
  PRIMARY KEY (order_id, line),
  CONSTRAINT fk_item_order FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE CASCADE
);
CREATE TABLE customer_note (
  id INT PRIMARY KEY,
  customer_id INT,
  body VARCHAR(30),
  KEY idx_note_customer (customer_id),
  CONSTRAINT fk_note_customer FOREIGN KEY (customer_id) REFERENCES customer (id)
    ON DELETE SET NULL ON UPDATE SET NULL
);
CREATE TABLE payment (
  id INT PRIMARY KEY,
  customer_id INT,
  amount DECIMAL(8,2),
  KEY idx_payment_customer (customer_id),
  CONSTRAINT fk_payment_customer FOREIGN KEY (customer_id) REFERENCES customer (id)
);
CREATE TABLE refund (
  id INT PRIMARY KEY,
  payment_id INT,
  KEY idx_refund_payment (payment_id),
  CONSTRAINT fk_refund_payment FOREIGN KEY (payment_id) REFERENCES payment (id) ON DELETE RESTRICT ON UPDATE RESTRICT
);
INSERT INTO customer VALUES (1, 'Ann'), (2, 'Ben'), (3, 'Cid'), (4, 'Dee');
INSERT INTO orders VALUES (10, 1, 20.00), (11, 1, 5.50), (12, 2, 7.25), (13, 3, 99.99);
INSERT INTO order_item VALUES (10, 1, 'A'), (10, 2, 'B'), (11, 1, 'C'), (12, 1, 'A'), (13, 1, 'D');
INSERT INTO customer_note VALUES (100, 1, 'vip'), (101, 2, 'late payer'), (102, NULL, 'orphan note'), (103, 4, 'new');
INSERT INTO payment VALUES (200, 2, 7.25), (201, 3, 50.00), (202, NULL, 1.00);
INSERT INTO refund VALUES (300, 201);

-- information_schema rows for the foreign keys
SELECT CONSTRAINT_NAME, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, POSITION_IN_UNIQUE_CONSTRAINT, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
  FROM information_schema.KEY_COLUMN_USAGE
  WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL;
SELECT CONSTRAINT_NAME, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION
  FROM information_schema.KEY_COLUMN_USAGE
  WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'order_item';
SELECT CONSTRAINT_NAME, TABLE_NAME, REFERENCED_TABLE_NAME, UPDATE_RULE, DELETE_RULE
  FROM information_schema.REFERENTIAL_CONSTRAINTS
  WHERE CONSTRAINT_SCHEMA = DATABASE() AND CONSTRAINT_NAME IN ('fk_orders_customer', 'fk_note_customer', 'fk_refund_payment');
SELECT CONSTRAINT_NAME, TABLE_NAME, REFERENCED_TABLE_NAME
  FROM information_schema.REFERENTIAL_CONSTRAINTS
  WHERE CONSTRAINT_SCHEMA = DATABASE();
SELECT CONSTRAINT_NAME, TABLE_NAME, CONSTRAINT_TYPE
  FROM information_schema.TABLE_CONSTRAINTS
  WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('orders', 'order_item');

-- inserts and updates of children violating the constraint
INSERT INTO orders VALUES (14, 9, 1.00);
INSERT INTO order_item VALUES (99, 1, 'X');
UPDATE orders SET customer_id = 9 WHERE id = 10;
INSERT INTO payment VALUES (203, 9, 2.00);
INSERT INTO payment VALUES (203, NULL, 2.00);
INSERT INTO orders VALUES (14, 4, 1.00), (15, 9, 1.00);
SELECT id FROM orders WHERE id >= 14;
INSERT IGNORE INTO orders VALUES (15, 9, 1.00), (16, 4, 3.00);
SELECT id, customer_id FROM orders WHERE id >= 14;

-- deleting or updating a referenced parent (RESTRICT / default)
DELETE FROM customer WHERE id = 2;
DELETE FROM payment WHERE id = 201;
UPDATE payment SET id = 299 WHERE id = 201;
UPDATE customer SET id = 22 WHERE id = 2;
DELETE IGNORE FROM customer WHERE id = 2;
SELECT COUNT(*) FROM customer;
-- deleting a parent row nobody references works
DELETE FROM payment WHERE id = 202;

-- ON DELETE CASCADE, two levels deep; ON DELETE SET NULL
DELETE FROM customer WHERE id = 1;
SELECT * FROM orders;
SELECT * FROM order_item;
SELECT * FROM customer_note;

-- ON UPDATE CASCADE and ON UPDATE SET NULL
UPDATE customer SET id = 40 WHERE id = 4;
SELECT * FROM orders WHERE id >= 14;
SELECT * FROM customer_note WHERE id = 103;
UPDATE customer SET name = 'Cyd' WHERE id = 3;
SELECT customer_id FROM orders WHERE id = 13;

-- deleting the children first, then their parent
DELETE FROM order_item WHERE order_id = 13;
DELETE FROM orders WHERE id = 13;
SELECT * FROM order_item;

-- TRUNCATE of a referenced table is refused
TRUNCATE TABLE customer;
TRUNCATE TABLE order_item;
SELECT COUNT(*) FROM order_item;

-- composite foreign key
CREATE TABLE region (country CHAR(2) NOT NULL, code VARCHAR(5) NOT NULL, label VARCHAR(20), PRIMARY KEY (country, code));
CREATE TABLE store (
  id INT PRIMARY KEY,
  country CHAR(2),
  region_code VARCHAR(5),
  KEY idx_store_region (country, region_code),
  CONSTRAINT fk_store_region FOREIGN KEY (country, region_code) REFERENCES region (country, code) ON DELETE CASCADE
);
INSERT INTO region VALUES ('FR', 'IDF', 'Ile-de-France'), ('FR', 'BRE', 'Bretagne'), ('DE', 'BY', 'Bayern');
INSERT INTO store VALUES (1, 'FR', 'IDF'), (2, 'FR', 'BRE'), (3, 'DE', 'BY'), (4, NULL, NULL), (5, 'DE', NULL);
INSERT INTO store VALUES (6, 'DE', 'IDF');
SELECT CONSTRAINT_NAME, COLUMN_NAME, ORDINAL_POSITION, POSITION_IN_UNIQUE_CONSTRAINT, REFERENCED_COLUMN_NAME
  FROM information_schema.KEY_COLUMN_USAGE
  WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'store' AND REFERENCED_TABLE_NAME IS NOT NULL;
DELETE FROM region WHERE country = 'FR' AND code = 'IDF';
SELECT * FROM store;

-- a self-referencing foreign key
CREATE TABLE employee (
  id INT PRIMARY KEY,
  name VARCHAR(20),
  manager_id INT,
  KEY idx_manager (manager_id),
  CONSTRAINT fk_manager FOREIGN KEY (manager_id) REFERENCES employee (id) ON DELETE CASCADE
);
INSERT INTO employee VALUES (1, 'boss', NULL);
INSERT INTO employee VALUES (2, 'mid', 1), (3, 'low', 2), (4, 'other', 1);
INSERT INTO employee VALUES (5, 'nobody', 50);
DELETE FROM employee WHERE id = 2;
SELECT * FROM employee;

-- FOREIGN_KEY_CHECKS = 0 accepts violating rows; = 1 checks again
SET FOREIGN_KEY_CHECKS = 0;
SELECT @@foreign_key_checks;
INSERT INTO payment VALUES (210, 77, 3.00);
INSERT INTO orders VALUES (20, 88, 1.00);
DELETE FROM payment WHERE id = 201;
SELECT * FROM refund;
SET FOREIGN_KEY_CHECKS = 1;
SELECT @@foreign_key_checks;
INSERT INTO payment VALUES (211, 77, 3.00);
SELECT id, customer_id FROM payment;
UPDATE payment SET amount = 4.00 WHERE id = 210;
UPDATE payment SET customer_id = 78 WHERE id = 210;

-- ALTER TABLE ... ADD CONSTRAINT ... FOREIGN KEY, DROP FOREIGN KEY
CREATE TABLE invoice (id INT PRIMARY KEY, customer_id INT, KEY idx_invoice_customer (customer_id));
INSERT INTO invoice VALUES (1, 2), (2, 3), (3, 99);
ALTER TABLE invoice ADD CONSTRAINT fk_invoice_customer FOREIGN KEY (customer_id) REFERENCES customer (id);
DELETE FROM invoice WHERE id = 3;
ALTER TABLE invoice ADD CONSTRAINT fk_invoice_customer FOREIGN KEY (customer_id) REFERENCES customer (id);
INSERT INTO invoice VALUES (4, 99);
SELECT CONSTRAINT_NAME, REFERENCED_TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS
  WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'invoice';
DROP INDEX idx_invoice_customer ON invoice;
ALTER TABLE invoice DROP FOREIGN KEY fk_invoice_customer;
ALTER TABLE invoice DROP FOREIGN KEY fk_invoice_customer;
INSERT INTO invoice VALUES (4, 99);
SELECT * FROM invoice;
SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'invoice';
SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME = 'invoice';

-- dropping the child first, then the parent, works
DROP TABLE refund;
DELETE FROM payment WHERE id = 210;
SELECT id FROM payment;
DROP TABLE store;
DROP TABLE region;
SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE();
