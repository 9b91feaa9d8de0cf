-- Subqueries: scalar, IN / NOT IN, EXISTS, correlated, ANY/ALL/SOME, derived tables, row constructors.

-- setup
CREATE TABLE cust (
  id INT PRIMARY KEY,
  name VARCHAR(20) NOT NULL,
  region VARCHAR(10),
  credit DECIMAL(8,2)
);
CREATE TABLE ord (
  id INT PRIMARY KEY,
  cust_id INT,
  amount DECIMAL(8,2) NOT NULL,
  status VARCHAR(10) NOT NULL
);
CREATE TABLE nums (n INT);
CREATE TABLE pairs (a INT, b INT);
INSERT INTO cust VALUES
  (1, 'Acme', 'north', 1000.00),
  (2, 'Bolt', 'south', 250.00),
  (3, 'Cask', 'north', NULL),
  (4, 'Dune', 'east', 500.00),
  (5, 'Echo', NULL, 0.00);
INSERT INTO ord VALUES
  (100, 1, 120.00, 'paid'),
  (101, 1, 80.50, 'open'),
  (102, 2, 300.00, 'paid'),
  (103, 3, 45.25, 'paid'),
  (104, 3, 45.25, 'void'),
  (105, NULL, 10.00, 'open'),
  (106, 4, 999.99, 'open');
INSERT INTO nums VALUES (1), (2), (3), (NULL);
INSERT INTO pairs VALUES (1, 2), (3, 4), (5, NULL), (NULL, 6), (1, 3);

-- scalar subquery in the SELECT list
SELECT name, (SELECT COUNT(*) FROM ord o WHERE o.cust_id = c.id) AS orders FROM cust c;
SELECT name, (SELECT MAX(amount) FROM ord o WHERE o.cust_id = c.id) AS biggest FROM cust c ORDER BY c.id;
SELECT (SELECT SUM(amount) FROM ord) AS total, (SELECT COUNT(*) FROM cust) AS customers;
SELECT (SELECT name FROM cust WHERE id = 99) AS nobody;
SELECT id, amount, amount - (SELECT AVG(amount) FROM ord WHERE status = 'paid') AS diff FROM ord WHERE status = 'paid';

-- scalar subquery in WHERE
SELECT id, amount FROM ord WHERE amount > (SELECT AVG(amount) FROM ord);
SELECT name FROM cust WHERE credit = (SELECT MAX(credit) FROM cust);
SELECT id FROM ord WHERE cust_id = (SELECT id FROM cust WHERE name = 'Cask');
SELECT id FROM ord WHERE cust_id = (SELECT id FROM cust WHERE name = 'Nobody');

-- scalar subquery in HAVING
SELECT cust_id, SUM(amount) AS total FROM ord GROUP BY cust_id HAVING SUM(amount) > (SELECT AVG(amount) FROM ord);
SELECT status, COUNT(*) AS n FROM ord GROUP BY status HAVING COUNT(*) >= (SELECT COUNT(*) FROM cust WHERE region = 'north');
-- correlated subqueries in an aggregated block read the group's values
SELECT cust_id, COUNT(*) FROM ord o GROUP BY cust_id HAVING COUNT(*) > (SELECT COUNT(*) FROM cust c WHERE c.id = o.cust_id);
SELECT o.cust_id, SUM(o.amount), (SELECT c.name FROM cust c WHERE c.id = o.cust_id) AS who FROM ord o GROUP BY o.cust_id;
SELECT status, COUNT(*) FROM ord o GROUP BY status HAVING EXISTS (SELECT 1 FROM ord p WHERE p.status = o.status AND p.amount > 100);
SELECT status FROM ord o GROUP BY status ORDER BY (SELECT COUNT(*) FROM ord p WHERE p.status < o.status), status;
SELECT c.region, (SELECT COUNT(*) FROM ord o WHERE o.cust_id IN (SELECT id FROM cust d WHERE d.region <=> c.region)) AS n FROM cust c GROUP BY c.region;
SELECT c.id, (SELECT SUM(o.amount) + c.credit FROM ord o WHERE o.cust_id = c.id) FROM cust c GROUP BY c.id, c.credit;
SELECT cust_id, (SELECT ord.amount FROM cust LIMIT 1) FROM ord GROUP BY cust_id;
-- an aggregate of the outer block's columns inside a subquery is the outer block's
SELECT cust_id, (SELECT COUNT(*) FROM cust c WHERE c.credit > MAX(o.amount)) AS n FROM ord o GROUP BY cust_id;
SELECT COUNT(*), (SELECT MIN(c.id) FROM cust c WHERE c.credit >= SUM(o.amount)) FROM ord o;
SELECT status FROM ord o GROUP BY status HAVING (SELECT COUNT(*) FROM cust c WHERE c.credit > AVG(o.amount)) > 1;

-- subquery returning more than one row
SELECT name FROM cust WHERE id = (SELECT cust_id FROM ord WHERE status = 'paid');
SELECT (SELECT id FROM ord WHERE cust_id = 1) AS x;
SELECT name, (SELECT id FROM ord o WHERE o.cust_id = c.id) AS oid FROM cust c;

-- subquery returning more than one column where one is expected
SELECT name FROM cust WHERE id IN (SELECT id, name FROM cust);

-- IN / NOT IN with a subquery
SELECT name FROM cust WHERE id IN (SELECT cust_id FROM ord WHERE status = 'paid');
SELECT name FROM cust WHERE id NOT IN (SELECT cust_id FROM ord WHERE status = 'paid');
SELECT name FROM cust WHERE id NOT IN (SELECT cust_id FROM ord);
SELECT name FROM cust WHERE id NOT IN (SELECT cust_id FROM ord WHERE cust_id IS NOT NULL);
SELECT id FROM ord WHERE cust_id IN (SELECT id FROM cust WHERE region = 'north') AND status <> 'void';
SELECT id FROM ord WHERE cust_id IN (SELECT id FROM cust WHERE region IN ('north', 'east'));

-- IN / NOT IN with NULLs as the value tested and in the list
SELECT n, n IN (SELECT cust_id FROM ord) AS in_ord FROM nums;
SELECT n, n NOT IN (SELECT cust_id FROM ord) AS not_in_ord FROM nums;
SELECT n, n IN (SELECT id FROM cust) AS in_cust, n NOT IN (SELECT id FROM cust) AS not_in_cust FROM nums;
SELECT n, n IN (1, NULL) AS a, n NOT IN (1, NULL) AS b, n IN (2, 3) AS c FROM nums;
SELECT COUNT(*) AS n FROM nums WHERE n NOT IN (SELECT n FROM nums);
SELECT COUNT(*) AS n FROM nums WHERE n IN (SELECT n FROM nums);
SELECT 5 IN (SELECT n FROM nums WHERE n > 10) AS empty_in, 5 NOT IN (SELECT n FROM nums WHERE n > 10) AS empty_not_in;

-- EXISTS / NOT EXISTS
SELECT name FROM cust c WHERE EXISTS (SELECT 1 FROM ord o WHERE o.cust_id = c.id);
SELECT name FROM cust c WHERE NOT EXISTS (SELECT * FROM ord o WHERE o.cust_id = c.id);
SELECT name FROM cust c WHERE EXISTS (SELECT 1 FROM ord o WHERE o.cust_id = c.id AND o.status = 'void');
SELECT EXISTS (SELECT * FROM ord WHERE amount > 500) AS big, EXISTS (SELECT * FROM ord WHERE amount > 5000) AS huge;
SELECT COUNT(*) AS n FROM cust WHERE EXISTS (SELECT NULL);
SELECT name FROM cust c WHERE NOT EXISTS (SELECT 1 FROM ord o WHERE o.cust_id = c.id AND o.status <> 'paid');

-- correlated subqueries
SELECT o.id, o.amount FROM ord o WHERE o.amount = (SELECT MAX(o2.amount) FROM ord o2 WHERE o2.cust_id = o.cust_id);
SELECT c.name FROM cust c WHERE (SELECT COUNT(*) FROM ord o WHERE o.cust_id = c.id) >= 2;
SELECT c.name, (SELECT o.status FROM ord o WHERE o.cust_id = c.id ORDER BY o.amount DESC, o.id LIMIT 1) AS top_status FROM cust c;
SELECT o.id FROM ord o WHERE o.amount > (SELECT COALESCE(c.credit, 0) / 4 FROM cust c WHERE c.id = o.cust_id);
SELECT c.region, c.name FROM cust c WHERE c.credit >= ALL (SELECT c2.credit FROM cust c2 WHERE c2.region = c.region AND c2.credit IS NOT NULL);
UPDATE cust c SET credit = credit + (SELECT COUNT(*) FROM ord o WHERE o.cust_id = c.id) WHERE credit IS NOT NULL;
SELECT id, credit FROM cust;

-- ANY / SOME / ALL
SELECT id, amount FROM ord WHERE amount > ANY (SELECT credit FROM cust WHERE region = 'north');
SELECT id, amount FROM ord WHERE amount < SOME (SELECT amount FROM ord WHERE status = 'paid');
SELECT id, amount FROM ord WHERE amount > ALL (SELECT amount FROM ord WHERE status = 'paid');
SELECT id, amount FROM ord WHERE amount >= ALL (SELECT amount FROM ord);
SELECT id FROM ord WHERE cust_id = ANY (SELECT id FROM cust WHERE region = 'north');
SELECT id FROM ord WHERE cust_id <> ALL (SELECT id FROM cust WHERE region = 'north');
SELECT n, n > ALL (SELECT n FROM nums WHERE n < 3) AS gt_all, n > ANY (SELECT n FROM nums) AS gt_any FROM nums;
SELECT 1 > ALL (SELECT n FROM nums WHERE n > 10) AS all_empty, 1 > ANY (SELECT n FROM nums WHERE n > 10) AS any_empty;
SELECT 10 > ALL (SELECT n FROM nums) AS with_null, 10 > ALL (SELECT n FROM nums WHERE n IS NOT NULL) AS without_null;

-- derived tables, with aliases and nested
SELECT t.cust_id, t.total FROM (SELECT cust_id, SUM(amount) AS total FROM ord GROUP BY cust_id) AS t WHERE t.total > 100;
SELECT MAX(t.total) AS best FROM (SELECT cust_id, SUM(amount) AS total FROM ord GROUP BY cust_id) t;
SELECT x.k, x.v FROM (SELECT id AS k, name AS v FROM cust) x WHERE x.k > 3;
SELECT u.s FROM (SELECT t.status AS s, COUNT(*) AS c FROM (SELECT status FROM ord WHERE amount > 40) AS t GROUP BY t.status) AS u WHERE u.c > 1;
SELECT COUNT(*) AS n FROM (SELECT DISTINCT status FROM ord) d;
SELECT d.a, d.b FROM (SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y') AS d;
SELECT s.region, s.cnt FROM (SELECT region, COUNT(*) AS cnt FROM cust GROUP BY region) s JOIN (SELECT MAX(cnt) AS m FROM (SELECT region, COUNT(*) AS cnt FROM cust GROUP BY region) z) mx ON s.cnt = mx.m;

-- derived table column list errors
SELECT * FROM (SELECT id, id FROM cust) t;
SELECT * FROM (SELECT 1) AS t WHERE nosuch = 1;

-- row constructors
SELECT a, b FROM pairs WHERE (a, b) = (1, 2);
SELECT a, b FROM pairs WHERE (a, b) IN ((1, 2), (3, 4));
SELECT a, b FROM pairs WHERE (a, b) NOT IN ((1, 2), (3, 4));
SELECT a, b FROM pairs WHERE (a, b) > (1, 2);
SELECT a, b FROM pairs WHERE (a, b) <= (3, 4);
SELECT a, b, (a, b) = (5, NULL) AS eq, (a, b) <=> (5, NULL) AS nulleq FROM pairs;
SELECT (1, 2) = (1, 2) AS a, (1, 2) < (1, 3) AS b, (2, 1) > (1, 9) AS c, (1, NULL) = (2, NULL) AS d, (1, NULL) = (1, NULL) AS e;
SELECT ROW(1, 2) = ROW(1, 2) AS r;
SELECT a, b FROM pairs WHERE (a, b) IN (SELECT a, b + 1 FROM pairs);
SELECT a, b FROM pairs WHERE (a, b) = (SELECT 3, 4);
SELECT c.id, o.id AS oid FROM cust c JOIN ord o ON (o.cust_id, o.status) = (c.id, 'paid');
SELECT id FROM ord WHERE (cust_id, amount) IN (SELECT cust_id, MAX(amount) FROM ord GROUP BY cust_id);
SELECT (1, 2) < (1, NULL) AS a, (1, 2) < (2, NULL) AS b, (NULL, 1) < (2, 3) AS c, (1, 2) >= (1, 2) AS d, (1, NULL) <> (2, NULL) AS e, (1, NULL) <> (1, NULL) AS f;
SELECT a, b, (a, b) < (SELECT 3, 4) AS lt, (SELECT 3, 4) = (a, b) AS eq FROM pairs;
SELECT (1, 2) = (SELECT a, b FROM pairs WHERE a > 100) AS none;
SELECT a, b FROM pairs WHERE (a, b) = (SELECT a, b FROM pairs);
SELECT a, b FROM pairs WHERE (a, b) NOT IN (SELECT a, b + 1 FROM pairs);
SELECT a, b FROM pairs WHERE ROW(a, b) <> ALL (SELECT a, b FROM pairs WHERE a > 100);
SELECT NULL IN (SELECT n FROM nums WHERE n > 10) AS in_empty, NULL NOT IN (SELECT n FROM nums WHERE n > 10) AS not_in_empty, NULL = ANY (SELECT n FROM nums) AS any_null, 2 IN (SELECT n FROM nums) AS in_hit, 7 NOT IN (SELECT n FROM nums) AS not_in_null;
SELECT n, n = ALL (SELECT n FROM nums WHERE n = 2) AS eq_all, n <> ANY (SELECT n FROM nums WHERE n IS NOT NULL) AS ne_any FROM nums;

-- row constructor arity mismatch
SELECT (1, 2) = (1, 2, 3) AS x;
SELECT a FROM pairs WHERE (a, b) IN (SELECT a FROM pairs);

-- LIMIT inside an IN subquery is not supported
SELECT name FROM cust WHERE id IN (SELECT cust_id FROM ord ORDER BY id LIMIT 2);
SELECT name FROM cust WHERE id > ALL (SELECT cust_id FROM ord ORDER BY id LIMIT 2);

-- but LIMIT inside a derived table inside IN is fine
SELECT name FROM cust WHERE id IN (SELECT cust_id FROM (SELECT cust_id FROM ord ORDER BY id LIMIT 2) t);

-- subqueries in INSERT, UPDATE and DELETE
CREATE TABLE big_cust (id INT PRIMARY KEY, name VARCHAR(20));
INSERT INTO big_cust SELECT id, name FROM cust WHERE id IN (SELECT cust_id FROM ord WHERE amount > 100);
SELECT id, name FROM big_cust;
UPDATE big_cust SET name = (SELECT region FROM cust WHERE cust.id = big_cust.id);
SELECT id, name FROM big_cust;
DELETE FROM big_cust WHERE id NOT IN (SELECT cust_id FROM ord WHERE status = 'open' AND cust_id IS NOT NULL);
SELECT id, name FROM big_cust;

-- updating a table using a materialised derived table over the same table
UPDATE cust SET credit = 1 WHERE id IN (SELECT id FROM (SELECT id FROM cust WHERE credit IS NULL) AS t);
SELECT id, credit FROM cust;

-- unknown column in a subquery, and outer references
SELECT name FROM cust WHERE id IN (SELECT nosuch FROM ord);
SELECT c.name FROM cust c WHERE 2 = (SELECT COUNT(*) FROM ord WHERE cust_id = c.id AND credit IS NOT NULL);
SELECT c.name FROM cust c WHERE EXISTS (SELECT 1 FROM ord WHERE cust_id = c.id AND id > 103);
