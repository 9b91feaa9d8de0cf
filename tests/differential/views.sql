-- Views: CREATE / CREATE OR REPLACE / ALTER / DROP VIEW, selecting from views, joins to
-- views, aggregate views, updating through views, non-updatable views, view errors.

-- setup: products, categories, sales
CREATE TABLE category (
  id INT PRIMARY KEY,
  name VARCHAR(20) NOT NULL
);
CREATE TABLE product (
  id INT PRIMARY KEY,
  name VARCHAR(20) NOT NULL,
  category_id INT,
  price DECIMAL(8,2),
  active TINYINT NOT NULL DEFAULT 1
);
CREATE TABLE sale (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  product_id INT NOT NULL,
  qty INT NOT NULL,
  region VARCHAR(10)
);
INSERT INTO category VALUES (1, 'Tools'), (2, 'Toys'), (3, 'Books');
INSERT INTO product VALUES
  (1, 'Hammer', 1, 12.50, 1),
  (2, 'Wrench', 1, 8.00, 1),
  (3, 'Yo-yo', 2, 3.25, 1),
  (4, 'Kite', 2, 15.00, 0),
  (5, 'Atlas', 3, 30.00, 1),
  (6, 'Mystery', NULL, NULL, 1);
INSERT INTO sale (product_id, qty, region) VALUES
  (1, 2, 'north'), (1, 1, 'south'), (2, 5, 'north'), (3, 10, NULL),
  (3, 4, 'south'), (5, 1, 'north'), (6, 3, 'east');

-- a view over one table
-- todo: differs
CREATE VIEW active_product AS SELECT id, name, price FROM product WHERE active = 1;
-- todo: differs
SELECT * FROM active_product;
-- todo: differs
SELECT name FROM active_product WHERE price > 10;
-- todo: differs
SELECT id, name FROM active_product ORDER BY price DESC, id;
-- todo: differs
SELECT COUNT(*) AS n, SUM(price) AS total FROM active_product;

-- a view with a column list and computed columns
-- todo: differs
CREATE VIEW priced (pid, label, price_with_tax) AS SELECT id, UPPER(name), ROUND(price * 1.2, 2) FROM product;
-- todo: differs
SELECT * FROM priced;
-- todo: differs
SELECT label FROM priced WHERE price_with_tax IS NULL;
-- todo: differs
SELECT pid, label FROM priced WHERE pid BETWEEN 2 AND 4 ORDER BY pid;

-- a view over a join
-- todo: differs
CREATE VIEW product_category AS
  SELECT p.id AS product_id, p.name AS product, c.name AS category
  FROM product p JOIN category c ON c.id = p.category_id;
-- todo: differs
SELECT * FROM product_category;
-- todo: differs
SELECT product FROM product_category WHERE category = 'Toys';
-- todo: differs
CREATE VIEW product_category_all AS
  SELECT p.id AS product_id, p.name AS product, c.name AS category
  FROM product p LEFT JOIN category c ON c.id = p.category_id;
-- todo: differs
SELECT * FROM product_category_all WHERE category IS NULL;

-- a view with aggregates
-- todo: differs
CREATE VIEW sales_by_product AS
  SELECT product_id, COUNT(*) AS sales, SUM(qty) AS units FROM sale GROUP BY product_id;
-- todo: differs
SELECT * FROM sales_by_product;
-- todo: differs
SELECT * FROM sales_by_product WHERE units > 3;
-- todo: differs
SELECT MAX(units) AS best FROM sales_by_product;
-- todo: differs
CREATE VIEW sales_by_region AS
  SELECT region, SUM(qty) AS units FROM sale GROUP BY region HAVING SUM(qty) > 1;
-- todo: differs
SELECT * FROM sales_by_region;
-- todo: differs
CREATE VIEW distinct_regions AS SELECT DISTINCT region FROM sale;
-- todo: differs
SELECT * FROM distinct_regions;

-- joining views to tables and to other views
-- todo: differs
SELECT p.name, s.units FROM product p JOIN sales_by_product s ON s.product_id = p.id;
-- todo: differs
SELECT pc.category, SUM(s.units) AS units
  FROM product_category pc JOIN sales_by_product s ON s.product_id = pc.product_id
  GROUP BY pc.category;
-- todo: differs
SELECT a.name FROM active_product a LEFT JOIN sales_by_product s ON s.product_id = a.id WHERE s.product_id IS NULL;
-- todo: differs
SELECT name FROM product WHERE id IN (SELECT product_id FROM sales_by_product WHERE sales > 1);
-- todo: differs
SELECT x.category, x.n FROM (SELECT category, COUNT(*) AS n FROM product_category GROUP BY category) AS x WHERE x.n > 1;

-- a view over a view
-- todo: differs
CREATE VIEW cheap_active AS SELECT id, name FROM active_product WHERE price < 10;
-- todo: differs
SELECT * FROM cheap_active;

-- views see later changes to the base table
INSERT INTO product VALUES (7, 'Saw', 1, 9.99, 1);
-- todo: differs
SELECT * FROM cheap_active;
-- todo: differs
SELECT * FROM product_category WHERE category = 'Tools';

-- CREATE OR REPLACE VIEW and ALTER VIEW
-- todo: differs
CREATE OR REPLACE VIEW cheap_active AS SELECT id, name, price FROM active_product WHERE price < 5;
-- todo: differs
SELECT * FROM cheap_active;
-- todo: differs
CREATE OR REPLACE VIEW brand_new AS SELECT 1 AS one, 'two' AS two;
-- todo: differs
SELECT * FROM brand_new;
-- todo: differs
ALTER VIEW brand_new AS SELECT id FROM category WHERE id > 1;
-- todo: differs
SELECT * FROM brand_new;
-- todo: differs
ALTER VIEW brand_new (category_id, category_name) AS SELECT id, name FROM category WHERE id < 3;
-- todo: differs
SELECT * FROM brand_new;
-- todo: differs
SELECT category_name FROM brand_new WHERE category_id = 2;

-- views listed in information_schema
-- todo: differs
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE();
-- todo: differs
SELECT TABLE_NAME, IS_UPDATABLE FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('active_product', 'sales_by_product', 'distinct_regions');
-- todo: differs
SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('product', 'active_product');
-- todo: differs
SHOW FULL TABLES WHERE Table_type = 'VIEW';

-- updating through a single-table view
CREATE TABLE note (id INT PRIMARY KEY, body VARCHAR(20), done TINYINT NOT NULL DEFAULT 0);
INSERT INTO note VALUES (1, 'buy milk', 0), (2, 'call bob', 1), (3, 'write tests', 0);
-- todo: differs
CREATE VIEW open_note AS SELECT id, body FROM note WHERE done = 0;
-- todo: differs
UPDATE open_note SET body = 'buy oat milk' WHERE id = 1;
-- todo: differs
UPDATE open_note SET body = 'never' WHERE id = 2;
-- todo: differs
SELECT * FROM note;
-- todo: differs
INSERT INTO open_note (id, body) VALUES (4, 'new note');
-- todo: differs
INSERT INTO open_note VALUES (5, 'another');
-- todo: differs
SELECT * FROM note;
-- todo: differs
DELETE FROM open_note WHERE id = 3;
-- todo: differs
DELETE FROM open_note WHERE id = 2;
-- todo: differs
SELECT * FROM note;
-- todo: differs
INSERT INTO open_note VALUES (1, 'dup');
-- todo: differs
UPDATE open_note SET nope = 1;

-- WITH CHECK OPTION
-- todo: differs
CREATE VIEW checked_note AS SELECT id, body, done FROM note WHERE done = 0 WITH CHECK OPTION;
-- todo: differs
INSERT INTO checked_note VALUES (6, 'ok', 0);
-- todo: differs
INSERT INTO checked_note VALUES (7, 'rejected', 1);
-- todo: differs
UPDATE checked_note SET done = 1 WHERE id = 6;
-- todo: differs
SELECT * FROM checked_note;

-- updating one table of a join view
-- todo: differs
UPDATE product_category SET product = 'Claw hammer' WHERE product_id = 1;
-- todo: differs
SELECT name FROM product WHERE id = 1;
-- todo: differs
INSERT INTO product_category (product_id, product) VALUES (8, 'Drill');
-- todo: differs
SELECT id, name, category_id FROM product WHERE id = 8;

-- non-updatable views
-- todo: differs
UPDATE sales_by_product SET units = 0;
-- todo: differs
INSERT INTO sales_by_product VALUES (9, 1, 1);
-- todo: differs
DELETE FROM sales_by_product;
-- todo: differs
UPDATE distinct_regions SET region = 'west';
-- todo: differs
INSERT INTO product_category VALUES (9, 'Nail', 'Tools');
-- todo: differs
DELETE FROM product_category WHERE product_id = 1;
-- todo: differs
UPDATE product_category SET product = 'x', category = 'y' WHERE product_id = 2;
-- todo: differs
UPDATE priced SET label = 'x' WHERE pid = 1;

-- view errors
-- todo: differs
CREATE VIEW active_product AS SELECT 1 AS x;
-- todo: differs
CREATE VIEW product AS SELECT 1 AS x;
-- todo: differs
ALTER VIEW product AS SELECT 1 AS x;
-- todo: differs
CREATE OR REPLACE VIEW product AS SELECT 1 AS x;
-- todo: differs
CREATE VIEW bad_cols (a, b) AS SELECT id FROM product;
-- todo: differs
CREATE VIEW dup_cols AS SELECT id, name AS id FROM product;
-- todo: differs
CREATE VIEW bad_col AS SELECT nope FROM product;
-- todo: differs
CREATE VIEW bad_table AS SELECT * FROM no_such_table;
-- todo: differs
ALTER VIEW no_such_view AS SELECT 1 AS x;
-- todo: differs
CREATE TEMPORARY TABLE scratch (a INT);
-- todo: differs
CREATE VIEW on_temp AS SELECT a FROM scratch;
-- todo: differs
DROP TEMPORARY TABLE scratch;

-- a view whose base table is gone
CREATE TABLE fragile (x INT);
INSERT INTO fragile VALUES (1);
-- todo: differs
CREATE VIEW fragile_view AS SELECT x FROM fragile;
-- todo: differs
SELECT * FROM fragile_view;
DROP TABLE fragile;
-- todo: differs
SELECT * FROM fragile_view;
CREATE TABLE fragile (x INT);
-- todo: differs
SELECT * FROM fragile_view;

-- renaming and dropping views
-- todo: differs
RENAME TABLE brand_new TO renamed_view;
-- todo: differs
SELECT * FROM renamed_view;
SELECT * FROM brand_new;
-- todo: differs
DROP VIEW renamed_view;
SELECT * FROM renamed_view;
-- todo: differs
DROP VIEW IF EXISTS fragile_view, cheap_active;
-- todo: differs
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE();
-- todo: differs
DROP VIEW priced, product_category, product_category_all;
-- todo: differs
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE();
