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
CREATE VIEW active_product AS SELECT id, name, price FROM product WHERE active = 1;
SELECT * FROM active_product;
SELECT name FROM active_product WHERE price > 10;
SELECT id, name FROM active_product ORDER BY price DESC, id;
SELECT COUNT(*) AS n, SUM(price) AS total FROM active_product;

-- a view with a column list and computed columns
CREATE VIEW priced (pid, label, price_with_tax) AS SELECT id, UPPER(name), ROUND(price * 1.2, 2) FROM product;
SELECT * FROM priced;
SELECT label FROM priced WHERE price_with_tax IS NULL;
SELECT pid, label FROM priced WHERE pid BETWEEN 2 AND 4 ORDER BY pid;

-- a view over a join
CREATE VIEW product_category AS
  SELECT p.id AS product_id, p.name AS product, c.name AS category
  FROM product p JOIN category c ON c.id = p.category_id;
SELECT * FROM product_category;
SELECT product FROM product_category WHERE category = 'Toys';
CREATE VIEW product_category_all AS
  SELECT p.id AS product_id, p.name AS product, c.name AS category
  FROM product p LEFT JOIN category c ON c.id = p.category_id;
SELECT * FROM product_category_all WHERE category IS NULL;

-- a view with aggregates
CREATE VIEW sales_by_product AS
  SELECT product_id, COUNT(*) AS sales, SUM(qty) AS units FROM sale GROUP BY product_id;
SELECT * FROM sales_by_product;
SELECT * FROM sales_by_product WHERE units > 3;
SELECT MAX(units) AS best FROM sales_by_product;
CREATE VIEW sales_by_region AS
  SELECT region, SUM(qty) AS units FROM sale GROUP BY region HAVING SUM(qty) > 1;
SELECT * FROM sales_by_region;
CREATE VIEW distinct_regions AS SELECT DISTINCT region FROM sale;
SELECT * FROM distinct_regions;

-- joining views to tables and to other views
SELECT p.name, s.units FROM product p JOIN sales_by_product s ON s.product_id = p.id;
SELECT pc.category, SUM(s.units) AS units
  FROM product_category pc JOIN sales_by_product s ON s.product_id = pc.product_id
  GROUP BY pc.category;
SELECT a.name FROM active_product a LEFT JOIN sales_by_product s ON s.product_id = a.id WHERE s.product_id IS NULL;
SELECT name FROM product WHERE id IN (SELECT product_id FROM sales_by_product WHERE sales > 1);
SELECT x.category, x.n FROM (SELECT category, COUNT(*) AS n FROM product_category GROUP BY category) AS x WHERE x.n > 1;

-- a view over a view
CREATE VIEW cheap_active AS SELECT id, name FROM active_product WHERE price < 10;
SELECT * FROM cheap_active;

-- views see later changes to the base table
INSERT INTO product VALUES (7, 'Saw', 1, 9.99, 1);
SELECT * FROM cheap_active;
SELECT * FROM product_category WHERE category = 'Tools';

-- CREATE OR REPLACE VIEW and ALTER VIEW
CREATE OR REPLACE VIEW cheap_active AS SELECT id, name, price FROM active_product WHERE price < 5;
SELECT * FROM cheap_active;
CREATE OR REPLACE VIEW brand_new AS SELECT 1 AS one, 'two' AS two;
SELECT * FROM brand_new;
ALTER VIEW brand_new AS SELECT id FROM category WHERE id > 1;
SELECT * FROM brand_new;
ALTER VIEW brand_new (category_id, category_name) AS SELECT id, name FROM category WHERE id < 3;
SELECT * FROM brand_new;
SELECT category_name FROM brand_new WHERE category_id = 2;

-- views listed in information_schema
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE();
SELECT TABLE_NAME, IS_UPDATABLE FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('active_product', 'sales_by_product', 'distinct_regions');
SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN ('product', 'active_product');
SHOW FULL TABLES WHERE Table_type = 'VIEW';

-- updating through a single-table view
CREATE TABLE note (id INT PRIMARY KEY, body VARCHAR(20), done TINYINT NOT NULL DEFAULT 0);
INSERT INTO note VALUES (1, 'buy milk', 0), (2, 'call bob', 1), (3, 'write tests', 0);
CREATE VIEW open_note AS SELECT id, body FROM note WHERE done = 0;
UPDATE open_note SET body = 'buy oat milk' WHERE id = 1;
UPDATE open_note SET body = 'never' WHERE id = 2;
SELECT * FROM note;
INSERT INTO open_note (id, body) VALUES (4, 'new note');
INSERT INTO open_note VALUES (5, 'another');
SELECT * FROM note;
DELETE FROM open_note WHERE id = 3;
DELETE FROM open_note WHERE id = 2;
SELECT * FROM note;
INSERT INTO open_note VALUES (1, 'dup');
UPDATE open_note SET nope = 1;

-- WITH CHECK OPTION
CREATE VIEW checked_note AS SELECT id, body, done FROM note WHERE done = 0 WITH CHECK OPTION;
INSERT INTO checked_note VALUES (6, 'ok', 0);
INSERT INTO checked_note VALUES (7, 'rejected', 1);
UPDATE checked_note SET done = 1 WHERE id = 6;
SELECT * FROM checked_note;

-- updating one table of a join view
UPDATE product_category SET product = 'Claw hammer' WHERE product_id = 1;
SELECT name FROM product WHERE id = 1;
INSERT INTO product_category (product_id, product) VALUES (8, 'Drill');
SELECT id, name, category_id FROM product WHERE id = 8;

-- non-updatable views
UPDATE sales_by_product SET units = 0;
INSERT INTO sales_by_product VALUES (9, 1, 1);
DELETE FROM sales_by_product;
UPDATE distinct_regions SET region = 'west';
INSERT INTO product_category VALUES (9, 'Nail', 'Tools');
DELETE FROM product_category WHERE product_id = 1;
UPDATE product_category SET product = 'x', category = 'y' WHERE product_id = 2;
UPDATE priced SET label = 'x' WHERE pid = 1;

-- view errors
CREATE VIEW active_product AS SELECT 1 AS x;
CREATE VIEW product AS SELECT 1 AS x;
ALTER VIEW product AS SELECT 1 AS x;
CREATE OR REPLACE VIEW product AS SELECT 1 AS x;
CREATE VIEW bad_cols (a, b) AS SELECT id FROM product;
CREATE VIEW dup_cols AS SELECT id, name AS id FROM product;
CREATE VIEW bad_col AS SELECT nope FROM product;
CREATE VIEW bad_table AS SELECT * FROM no_such_table;
ALTER VIEW no_such_view AS SELECT 1 AS x;
CREATE TEMPORARY TABLE scratch (a INT);
CREATE VIEW on_temp AS SELECT a FROM scratch;
DROP TEMPORARY TABLE scratch;

-- a view whose base table is gone
CREATE TABLE fragile (x INT);
INSERT INTO fragile VALUES (1);
CREATE VIEW fragile_view AS SELECT x FROM fragile;
SELECT * FROM fragile_view;
DROP TABLE fragile;
SELECT * FROM fragile_view;
CREATE TABLE fragile (x INT);
SELECT * FROM fragile_view;

-- renaming and dropping views
RENAME TABLE brand_new TO renamed_view;
SELECT * FROM renamed_view;
SELECT * FROM brand_new;
DROP VIEW renamed_view;
SELECT * FROM renamed_view;
DROP VIEW IF EXISTS fragile_view, cheap_active;
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE();
DROP VIEW priced, product_category, product_category_all;
SELECT TABLE_NAME FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE();

-- writes through a view over a view; CASCADED and LOCAL check options
CREATE VIEW recent_note AS SELECT id, body FROM open_note WHERE id > 3;
UPDATE recent_note SET body = 'via two views' WHERE id = 4;
INSERT INTO recent_note VALUES (50, 'fifty');
SELECT * FROM recent_note;
DELETE FROM recent_note WHERE id = 50;
CREATE VIEW all_open AS SELECT id, body, done FROM note WHERE done = 0;
CREATE VIEW casc_note AS SELECT id, body, done FROM all_open WHERE id < 100 WITH CASCADED CHECK OPTION;
CREATE VIEW local_note AS SELECT id, body, done FROM all_open WHERE id < 100 WITH LOCAL CHECK OPTION;
INSERT INTO casc_note VALUES (51, 'closed', 1);
INSERT INTO casc_note VALUES (151, 'too big', 0);
INSERT INTO casc_note VALUES (52, 'fits', 0);
INSERT INTO local_note VALUES (53, 'closed', 1);
INSERT INTO local_note VALUES (153, 'too big', 0);
UPDATE casc_note SET done = 1 WHERE id = 52;
UPDATE local_note SET done = 1 WHERE id = 52;
SELECT id, body, done FROM note;
SELECT TABLE_NAME, CHECK_OPTION, IS_UPDATABLE FROM information_schema.VIEWS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE '%note%';
SELECT o.id, a.done FROM open_note o JOIN all_open a ON a.id = o.id WHERE o.id < 3;
-- a subquery in a write through a view keeps its own columns
CREATE TABLE tag (id INT PRIMARY KEY, note_id INT);
INSERT INTO tag VALUES (1, 4), (2, 52);
UPDATE open_note SET body = 'tagged' WHERE id IN (SELECT note_id FROM tag WHERE id > 0);
DELETE FROM open_note WHERE EXISTS (SELECT 1 FROM tag WHERE tag.note_id = open_note.id AND tag.id = 2);
SELECT id, body, done FROM note;
