-- GROUP BY, HAVING, aggregate functions, GROUP_CONCAT, WITH ROLLUP, ONLY_FULL_GROUP_BY.

-- setup
CREATE TABLE sales (
  id INT PRIMARY KEY,
  region VARCHAR(10),
  product VARCHAR(10) NOT NULL,
  qty INT,
  price DECIMAL(7,2),
  note VARCHAR(20)
);
INSERT INTO sales VALUES
  (1, 'north', 'apple', 10, 1.50, 'x'),
  (2, 'north', 'pear', 5, 2.25, NULL),
  (3, 'south', 'apple', 7, 1.50, 'y'),
  (4, 'south', 'apple', 3, 1.75, 'x'),
  (5, 'east', 'plum', NULL, 3.00, 'z'),
  (6, NULL, 'pear', 8, 2.00, NULL),
  (7, 'north', 'apple', 10, 1.50, 'x'),
  (8, 'east', 'pear', 2, NULL, 'y'),
  (9, NULL, 'plum', 4, 3.10, 'z');
CREATE TABLE empty_sales LIKE sales;

-- COUNT variants
SELECT COUNT(*) AS all_rows, COUNT(qty) AS with_qty, COUNT(price) AS with_price, COUNT(region) AS with_region FROM sales;
SELECT COUNT(DISTINCT product) AS products, COUNT(DISTINCT region) AS regions, COUNT(DISTINCT qty) AS qtys FROM sales;
SELECT COUNT(DISTINCT (product)) AS products FROM sales;
SELECT COUNT(DISTINCT region, product) AS pairs FROM sales;
SELECT COUNT(DISTINCT product, note) AS pairs FROM sales;
SELECT COUNT(1) AS c1, COUNT(NULL) AS cnull, COUNT(*) + 1 AS plus FROM sales;
SELECT region, COUNT(*) AS n, COUNT(qty) AS nq FROM sales GROUP BY region;

-- SUM / AVG / MIN / MAX on integers and decimals
SELECT SUM(qty) AS s, AVG(qty) AS a, MIN(qty) AS mn, MAX(qty) AS mx FROM sales;
SELECT SUM(price) AS s, AVG(price) AS a, MIN(price) AS mn, MAX(price) AS mx FROM sales;
SELECT product, SUM(qty * price) AS revenue FROM sales GROUP BY product;
SELECT product, AVG(price) AS avg_price, SUM(DISTINCT price) AS sum_distinct FROM sales GROUP BY product;
SELECT region, SUM(qty) AS s, AVG(qty) AS a FROM sales GROUP BY region;
SELECT SUM(qty) / COUNT(qty) AS manual_avg, ROUND(AVG(qty), 2) AS rounded FROM sales;
SELECT AVG(DISTINCT qty) AS ad, COUNT(DISTINCT qty) AS cd, SUM(DISTINCT qty) AS sd FROM sales;

-- MIN / MAX on strings
SELECT MIN(product) AS mn, MAX(product) AS mx, MIN(region) AS mnr, MAX(note) AS mxn FROM sales;
SELECT product, MIN(region) AS first_region, MAX(region) AS last_region FROM sales GROUP BY product;

-- aggregates over an empty set
SELECT COUNT(*) AS n, COUNT(qty) AS nq, SUM(qty) AS s, AVG(qty) AS a, MIN(qty) AS mn, MAX(product) AS mx FROM empty_sales;
SELECT COUNT(*) AS n, SUM(qty) AS s FROM sales WHERE id > 100;
SELECT region, COUNT(*) AS n FROM sales WHERE id > 100 GROUP BY region;
SELECT GROUP_CONCAT(product ORDER BY id) AS g FROM empty_sales;

-- aggregates over only NULLs
SELECT COUNT(qty) AS n, SUM(qty) AS s, AVG(qty) AS a, MAX(qty) AS mx FROM sales WHERE qty IS NULL;
SELECT product, SUM(price) AS s FROM sales WHERE id IN (5, 8) GROUP BY product;

-- NULL forms its own group
SELECT region, SUM(qty) AS s FROM sales GROUP BY region HAVING region IS NULL;
SELECT note, COUNT(*) AS n FROM sales GROUP BY note;

-- GROUP BY several columns
SELECT region, product, COUNT(*) AS n, SUM(qty) AS s FROM sales GROUP BY region, product;
SELECT product, price, COUNT(*) AS n FROM sales GROUP BY product, price;

-- GROUP BY expressions
SELECT qty > 5 AS big, COUNT(*) AS n FROM sales GROUP BY qty > 5;
SELECT qty DIV 5 AS bucket, COUNT(*) AS n FROM sales GROUP BY qty DIV 5;
SELECT UPPER(product) AS p, COUNT(*) AS n FROM sales GROUP BY UPPER(product);
SELECT LEFT(product, 1) AS initial, SUM(qty) AS s FROM sales GROUP BY LEFT(product, 1);
SELECT COALESCE(region, 'none') AS r, COUNT(*) AS n FROM sales GROUP BY r;
SELECT price * 2 AS dbl, COUNT(*) AS n FROM sales GROUP BY price * 2;
SELECT CASE WHEN price < 2 THEN 'cheap' WHEN price >= 2 THEN 'dear' ELSE 'unknown' END AS band, COUNT(*) AS n FROM sales GROUP BY band;

-- GROUP BY alias (with and without AS) and position
SELECT product AS p, COUNT(*) AS n FROM sales GROUP BY p;
SELECT product p, COUNT(*) n FROM sales GROUP BY p;
SELECT region, product, SUM(qty) total FROM sales GROUP BY 1, 2;
SELECT product, SUM(qty) FROM sales GROUP BY 1;
SELECT COALESCE(region, '?') AS r, COUNT(*) FROM sales GROUP BY 1;
SELECT product FROM sales GROUP BY 3;

-- HAVING with aggregates
SELECT product, SUM(qty) AS s FROM sales GROUP BY product HAVING SUM(qty) > 15;
SELECT product, COUNT(*) AS n FROM sales GROUP BY product HAVING COUNT(*) >= 3;
SELECT region, AVG(price) AS a FROM sales GROUP BY region HAVING AVG(price) < 2 OR region IS NULL;
SELECT region FROM sales GROUP BY region HAVING MAX(qty) = 10;
SELECT product, MIN(qty) AS mn FROM sales GROUP BY product HAVING MIN(qty) IS NULL OR MIN(qty) > 4;

-- HAVING with aliases
SELECT product, SUM(qty) AS total FROM sales GROUP BY product HAVING total > 15;
SELECT product AS p, COUNT(*) AS n FROM sales GROUP BY p HAVING n = 2 AND p <> 'apple';
SELECT region, COUNT(*) cnt FROM sales GROUP BY region HAVING cnt > 1;

-- HAVING without GROUP BY
SELECT COUNT(*) AS n FROM sales HAVING n > 5;
SELECT COUNT(*) AS n FROM sales HAVING COUNT(*) > 100;
SELECT SUM(qty) AS s FROM sales WHERE region = 'north' HAVING SUM(qty) > 0;

-- WHERE and HAVING together
SELECT product, SUM(qty) AS s FROM sales WHERE region IS NOT NULL GROUP BY product HAVING s > 5;
SELECT region, COUNT(*) AS n FROM sales WHERE price > 1.5 GROUP BY region HAVING COUNT(*) > 1;

-- GROUP_CONCAT with ORDER BY, DISTINCT and SEPARATOR
SELECT region, GROUP_CONCAT(product ORDER BY product, id) AS products FROM sales GROUP BY region;
SELECT product, GROUP_CONCAT(id ORDER BY id DESC) AS ids FROM sales GROUP BY product;
SELECT product, GROUP_CONCAT(DISTINCT note ORDER BY note SEPARATOR '|') AS notes FROM sales GROUP BY product;
SELECT GROUP_CONCAT(id ORDER BY id SEPARATOR '') AS ids FROM sales;
SELECT GROUP_CONCAT(region ORDER BY id SEPARATOR ', ') AS regions FROM sales;
SELECT GROUP_CONCAT(qty, '/', product ORDER BY id SEPARATOR ';') AS pairs FROM sales WHERE id < 6;
SELECT product, GROUP_CONCAT(qty ORDER BY qty DESC, id) AS qtys FROM sales GROUP BY product;
SELECT GROUP_CONCAT(note ORDER BY note, id) AS notes FROM sales WHERE note IS NULL;
SELECT GROUP_CONCAT(DISTINCT product ORDER BY product DESC SEPARATOR '') AS p, GROUP_CONCAT(note, '-', qty ORDER BY id DESC) AS nq FROM sales;
SELECT region, GROUP_CONCAT(price ORDER BY price DESC, id SEPARATOR ' > ') AS prices FROM sales GROUP BY region;
SELECT GROUP_CONCAT(id ORDER BY qty * -1, id) AS ids FROM sales WHERE id > 1000;
SELECT qty % 2 AS odd, COUNT(*) AS n FROM sales GROUP BY odd;
SELECT UPPER(product) AS p, COUNT(*) AS n FROM sales GROUP BY 1;

-- aggregates in expressions
SELECT product, MAX(qty) - MIN(qty) AS spread, COUNT(*) * 10 AS tens FROM sales GROUP BY product;
SELECT product, ROUND(SUM(qty * price) / SUM(qty), 2) AS weighted FROM sales GROUP BY product;
SELECT CONCAT(product, ':', COUNT(*)) AS label FROM sales GROUP BY product;

-- aggregates of aggregates are not allowed, and aggregates are not allowed in WHERE
SELECT MAX(COUNT(*)) AS x FROM sales GROUP BY product;
SELECT product FROM sales WHERE COUNT(*) > 1 GROUP BY product;

-- WITH ROLLUP
SELECT region, SUM(qty) AS s FROM sales WHERE region IS NOT NULL GROUP BY region WITH ROLLUP;
SELECT region, product, SUM(qty) AS s, COUNT(*) AS n FROM sales WHERE region IS NOT NULL GROUP BY region, product WITH ROLLUP;
SELECT product, COUNT(*) AS n, MAX(price) AS mx FROM sales GROUP BY product WITH ROLLUP;
SELECT product, SUM(qty) AS s FROM sales GROUP BY product WITH ROLLUP HAVING s > 15;
SELECT region, COUNT(*) AS n FROM sales GROUP BY region WITH ROLLUP;
SELECT region, COUNT(*) AS n, SUM(qty) AS s FROM sales WHERE id > 1000 GROUP BY region WITH ROLLUP;
SELECT region, COUNT(DISTINCT product) AS np, GROUP_CONCAT(id ORDER BY id) AS ids FROM sales GROUP BY region WITH ROLLUP;
SELECT COALESCE(region, 'all') AS r, SUM(qty) AS s FROM sales WHERE region IS NOT NULL GROUP BY region WITH ROLLUP;

-- DISTINCT versus GROUP BY
SELECT DISTINCT product FROM sales;
SELECT DISTINCT region, product FROM sales;
SELECT DISTINCT qty FROM sales WHERE qty > 4;
SELECT COUNT(*) AS n FROM (SELECT DISTINCT product, price FROM sales) t;

-- group by a derived table's columns
SELECT t.big, COUNT(*) AS n FROM (SELECT id, qty >= 7 AS big FROM sales) t GROUP BY t.big;

-- ONLY_FULL_GROUP_BY: non-aggregated columns not in GROUP BY
SELECT region, product FROM sales GROUP BY region;
SELECT product, qty, SUM(price) AS s FROM sales GROUP BY product;
SELECT region, note, COUNT(*) AS n FROM sales GROUP BY region, product;
SELECT qty + 1 AS q, COUNT(*) AS n FROM sales GROUP BY product;
SELECT product, price FROM sales GROUP BY product HAVING COUNT(*) > 1;

-- ONLY_FULL_GROUP_BY: mixing aggregates and plain columns without GROUP BY
SELECT product, COUNT(*) AS n FROM sales;
SELECT id, MAX(qty) AS mx FROM sales;

-- allowed: expressions over grouped columns, and aggregates of other columns
SELECT product, UPPER(product) AS up, COUNT(*) AS n FROM sales GROUP BY product;
SELECT region, product, COUNT(*) AS n FROM sales GROUP BY product, region HAVING product = 'apple';
SELECT qty + 1 AS q1, COUNT(*) AS n FROM sales GROUP BY qty + 1;
SELECT MAX(id) AS mx, MIN(note) AS mn FROM sales;

-- unknown column in GROUP BY / HAVING
SELECT product FROM sales GROUP BY nosuch;
SELECT product, COUNT(*) AS n FROM sales GROUP BY product HAVING nosuch > 1;

-- group by with ORDER BY on aggregate
SELECT product, SUM(qty) AS s FROM sales GROUP BY product ORDER BY s DESC, product;
SELECT region, COUNT(*) AS n FROM sales GROUP BY region ORDER BY COUNT(*) DESC, region;
SELECT product, AVG(price) AS a FROM sales GROUP BY product ORDER BY 2, 1;

-- aggregates over string columns holding numbers
CREATE TABLE str_nums (id INT PRIMARY KEY, v VARCHAR(10));
INSERT INTO str_nums VALUES (1, '10'), (2, '20'), (3, '5'), (4, '100');
SELECT MIN(v) AS mn, MAX(v) AS mx FROM str_nums;
SELECT MIN(v + 0) AS mn, MAX(v + 0) AS mx, SUM(v) AS s FROM str_nums;
