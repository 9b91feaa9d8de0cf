-- ORDER BY, LIMIT / OFFSET, DISTINCT, UNION / UNION ALL, locking reads.

-- setup
CREATE TABLE item (
  id INT PRIMARY KEY,
  name VARCHAR(20) NOT NULL,
  cat VARCHAR(10),
  price DECIMAL(6,2),
  stock INT
);
INSERT INTO item VALUES
  (1, 'bolt', 'hw', 0.25, 500),
  (2, 'nut', 'hw', 0.10, 800),
  (3, 'hammer', 'tool', 12.50, 20),
  (4, 'saw', 'tool', 18.00, NULL),
  (5, 'glue', NULL, 3.75, 45),
  (6, 'tape', 'misc', 2.50, 45),
  (7, 'drill', 'tool', 59.99, 5),
  (8, 'screw', 'hw', 0.10, 1200),
  (9, 'wrench', 'tool', NULL, 12),
  (10, 'rope', NULL, 6.00, 30);
CREATE TABLE other (
  id INT PRIMARY KEY,
  label VARCHAR(20),
  amount DECIMAL(5,1)
);
INSERT INTO other VALUES (1, 'bolt', 1.5), (2, 'anchor', 20.0), (3, 'tape', 2.5), (4, NULL, NULL);

-- ORDER BY one key, ASC and DESC
SELECT id, name FROM item ORDER BY name;
SELECT id, name FROM item ORDER BY name DESC;
SELECT id, name FROM item ORDER BY id DESC;

-- ORDER BY several keys
SELECT id, cat, price FROM item ORDER BY cat, price DESC, id;
SELECT id, cat, stock FROM item ORDER BY cat DESC, stock ASC, id DESC;
SELECT id, price, stock FROM item ORDER BY price, stock, id;

-- NULLs sort first ascending and last descending
SELECT id, price FROM item ORDER BY price, id;
SELECT id, price FROM item ORDER BY price DESC, id;
SELECT id, cat FROM item ORDER BY cat IS NULL, cat, id;
SELECT id, stock FROM item ORDER BY stock IS NULL DESC, stock DESC, id;

-- ORDER BY expressions
SELECT id, price, stock FROM item ORDER BY price * stock DESC, id;
SELECT id, name FROM item ORDER BY LENGTH(name), name;
SELECT id, name FROM item ORDER BY CASE cat WHEN 'tool' THEN 0 WHEN 'hw' THEN 1 ELSE 2 END, id;
SELECT id, stock FROM item ORDER BY COALESCE(stock, 0), id;
SELECT id, name FROM item ORDER BY id % 3, id DESC;

-- ORDER BY alias and position
SELECT id, price * 2 AS dbl FROM item ORDER BY dbl DESC, id;
SELECT id, name AS n FROM item ORDER BY n;
SELECT name, cat, id FROM item ORDER BY 2, 3;
SELECT name, id FROM item ORDER BY 2 DESC;
SELECT name, id FROM item ORDER BY 3;

-- ORDER BY a column that is not selected
SELECT name FROM item ORDER BY stock DESC, id;
SELECT name FROM item WHERE cat = 'tool' ORDER BY price, id;

-- ORDER BY an unknown column
SELECT name FROM item ORDER BY nosuch;

-- LIMIT n, LIMIT m,n, LIMIT n OFFSET m
SELECT id, name FROM item ORDER BY id LIMIT 3;
SELECT id, name FROM item ORDER BY id LIMIT 2, 3;
SELECT id, name FROM item ORDER BY id LIMIT 3 OFFSET 2;
SELECT id, name FROM item ORDER BY price DESC, id LIMIT 4;
SELECT id, name FROM item ORDER BY id LIMIT 0;
SELECT id, name FROM item ORDER BY id LIMIT 8, 10;
SELECT id, name FROM item ORDER BY id LIMIT 100 OFFSET 20;
SELECT id FROM item ORDER BY stock, id LIMIT 1;

-- LIMIT that returns the whole table needs no ORDER BY
SELECT COUNT(*) AS n FROM item LIMIT 5;
SELECT id FROM item WHERE id = 3 LIMIT 1;

-- ORDER BY ... LIMIT inside derived tables
SELECT t.id, t.name FROM (SELECT id, name FROM item ORDER BY price DESC, id LIMIT 3) AS t;
SELECT SUM(t.stock) AS top_stock FROM (SELECT stock FROM item ORDER BY stock DESC, id LIMIT 2) t;
SELECT t.id FROM (SELECT id, price FROM item ORDER BY id LIMIT 5) t ORDER BY t.price DESC, t.id;
SELECT t.id FROM (SELECT id FROM item ORDER BY id DESC LIMIT 4) t ORDER BY t.id LIMIT 2;
SELECT COUNT(*) AS n FROM (SELECT id FROM item ORDER BY id LIMIT 3, 100) t;

-- DISTINCT
SELECT DISTINCT cat FROM item;
SELECT DISTINCT cat FROM item ORDER BY cat;
SELECT DISTINCT price FROM item WHERE price < 5 ORDER BY price DESC;
SELECT DISTINCT cat, price FROM item WHERE cat = 'hw';
SELECT DISTINCT stock FROM item ORDER BY stock LIMIT 3;
SELECT COUNT(DISTINCT stock) AS n, COUNT(stock) AS m FROM item;
SELECT DISTINCT stock % 2 AS parity FROM item;
SELECT DISTINCTROW cat FROM item WHERE cat IS NOT NULL;

-- UNION and UNION ALL
SELECT name FROM item WHERE cat = 'hw' UNION SELECT label FROM other;
SELECT name FROM item WHERE cat = 'hw' UNION ALL SELECT label FROM other;
SELECT name FROM item WHERE cat = 'hw' UNION DISTINCT SELECT label FROM other;
SELECT 1 AS a UNION SELECT 1 UNION SELECT 2;
SELECT 1 AS a UNION ALL SELECT 1 UNION ALL SELECT 2;
SELECT 1 AS a UNION ALL SELECT 1 UNION SELECT 2;
SELECT cat FROM item UNION SELECT cat FROM item;
SELECT NULL AS x UNION SELECT NULL;
SELECT id, name FROM item WHERE id < 3 UNION SELECT id, label FROM other WHERE id < 3;

-- UNION column names come from the first SELECT
SELECT id AS first_col, name AS second_col FROM item WHERE id = 1 UNION SELECT id, label FROM other WHERE id = 2;

-- UNION with ORDER BY and LIMIT on the whole result
SELECT name FROM item WHERE cat = 'tool' UNION SELECT label FROM other WHERE label IS NOT NULL ORDER BY name;
SELECT name FROM item WHERE cat = 'tool' UNION ALL SELECT label FROM other ORDER BY name DESC LIMIT 3;
SELECT id, name FROM item UNION ALL SELECT id, label FROM other ORDER BY id, name LIMIT 5;
SELECT id FROM item UNION SELECT id FROM other ORDER BY 1 DESC LIMIT 2, 3;
SELECT id AS k FROM item WHERE id > 8 UNION SELECT id FROM other ORDER BY k;

-- UNION with ORDER BY / LIMIT on parenthesised parts
(SELECT id, name FROM item ORDER BY price DESC, id LIMIT 2) UNION ALL (SELECT id, label FROM other ORDER BY id LIMIT 1);
(SELECT id, name FROM item ORDER BY id LIMIT 3) UNION (SELECT id, name FROM item ORDER BY id DESC LIMIT 3) ORDER BY id;
(SELECT id FROM item ORDER BY id LIMIT 4) UNION ALL (SELECT id FROM item ORDER BY id LIMIT 2) ORDER BY id DESC LIMIT 3;
(SELECT name FROM item WHERE cat = 'hw') UNION (SELECT label FROM other) ORDER BY name LIMIT 4;
(SELECT id FROM item ORDER BY id) UNION ALL (SELECT id FROM other);

-- errors in the ORDER BY of a UNION
SELECT id FROM item UNION SELECT id FROM other ORDER BY nosuch;
SELECT id FROM item UNION SELECT id FROM other ORDER BY 2;
SELECT id FROM item UNION SELECT id FROM other ORDER BY item.id;

-- UNION with different column counts
SELECT id, name FROM item UNION SELECT id FROM other;

-- UNION type merging
SELECT 1 AS v UNION SELECT 2.5;
SELECT 2.5 AS v UNION SELECT 1;
SELECT 1 AS v UNION SELECT 'abc';
SELECT 'abc' AS v UNION ALL SELECT 10 UNION ALL SELECT 2.25;
SELECT stock AS v FROM item WHERE id < 3 UNION ALL SELECT amount FROM other WHERE id < 3;
SELECT price AS v FROM item WHERE id < 3 UNION ALL SELECT amount FROM other WHERE id < 3;
SELECT id AS v FROM item WHERE id < 3 UNION ALL SELECT label FROM other WHERE id < 3;
SELECT NULL AS v UNION ALL SELECT 7;
SELECT 12345678901 AS v UNION ALL SELECT 1;
SELECT 1 AS v UNION SELECT 1.0;
SELECT -1 AS v UNION SELECT 4294967295;
SELECT 1.5 AS v UNION ALL SELECT 2.25 UNION ALL SELECT 3;
SELECT 1 AS v UNION SELECT 'a' UNION SELECT 2.5;

-- UNION in a derived table and in IN
SELECT COUNT(*) AS n FROM (SELECT name AS x FROM item UNION SELECT label FROM other) u;
SELECT u.x FROM (SELECT id AS x FROM item WHERE id <= 2 UNION ALL SELECT id FROM other WHERE id <= 2) u ORDER BY u.x;
SELECT name FROM item WHERE id IN (SELECT id FROM other WHERE id < 2 UNION SELECT 3);

-- locking reads on a single connection return normal results
SELECT id, name FROM item WHERE id < 4 FOR UPDATE;
SELECT id, name FROM item WHERE cat = 'tool' ORDER BY id LOCK IN SHARE MODE;
SELECT COUNT(*) AS n FROM item WHERE stock > 40 LOCK IN SHARE MODE;
SELECT id FROM item ORDER BY id LIMIT 2 FOR UPDATE;
SELECT id FROM item WHERE id IN (2, 4) FOR UPDATE NOWAIT;
SELECT id FROM item WHERE id > 8 FOR UPDATE SKIP LOCKED;
START TRANSACTION;
SELECT stock FROM item WHERE id = 1 FOR UPDATE;
UPDATE item SET stock = stock - 1 WHERE id = 1;
SELECT stock FROM item WHERE id = 1;
COMMIT;
SELECT stock FROM item WHERE id = 1;
