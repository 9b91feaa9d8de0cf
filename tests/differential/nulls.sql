-- NULL semantics: comparisons, IN, aggregates, ordering, grouping, DISTINCT, UNIQUE keys, expressions.

-- setup
CREATE TABLE nl (id INT PRIMARY KEY, g VARCHAR(5), n INT, s VARCHAR(10), req INT NOT NULL);
INSERT INTO nl VALUES (1, 'a', 10, 'x', 1), (2, 'a', NULL, NULL, 2), (3, 'b', 20, 'y', 3), (4, NULL, 30, NULL, 4), (5, NULL, NULL, 'z', 5), (6, 'b', 20, 'y', 6), (7, 'c', NULL, NULL, 7);
CREATE TABLE other (id INT PRIMARY KEY, v INT);
INSERT INTO other VALUES (1, 10), (2, NULL), (3, 40);

-- comparisons with NULL are NULL, never true
SELECT NULL = NULL AS a, NULL <> NULL AS b, NULL > 1 AS c, 1 = NULL AS d, NULL <=> NULL AS e, ISNULL(NULL) AS f, ISNULL(0) AS g;
SELECT id FROM nl WHERE n = NULL;
SELECT id FROM nl WHERE n <> 10;
SELECT id FROM nl WHERE NOT (n = 10);
SELECT id FROM nl WHERE n IS NULL;
SELECT id FROM nl WHERE n IS NOT NULL AND s IS NULL;

-- IN and NOT IN with NULLs in the list or the subquery
SELECT 1 IN (1, NULL) AS a, 2 IN (1, NULL) AS b, 2 NOT IN (1, NULL) AS c, NULL IN (NULL) AS d, NULL NOT IN (1) AS e;
SELECT id FROM nl WHERE n IN (10, NULL);
SELECT id FROM nl WHERE n NOT IN (10, NULL);
SELECT id FROM nl WHERE n NOT IN (10, 30);
SELECT id FROM nl WHERE n IN (SELECT v FROM other);
SELECT id FROM nl WHERE n NOT IN (SELECT v FROM other);
SELECT id FROM nl WHERE n NOT IN (SELECT v FROM other WHERE v IS NOT NULL);
SELECT id FROM nl WHERE NOT EXISTS (SELECT 1 FROM other WHERE other.v = nl.n);
SELECT id, n IN (SELECT v FROM other) AS i FROM nl ORDER BY id;

-- aggregates ignore NULLs; COUNT(*) counts rows
SELECT COUNT(*) AS c_all, COUNT(n) AS c_n, COUNT(s) AS c_s, COUNT(g) AS c_g, SUM(n) AS sm, AVG(n) AS av, MIN(n) AS mn, MAX(n) AS mx FROM nl;
SELECT COUNT(DISTINCT n) AS dn, COUNT(DISTINCT g) AS dg, COUNT(DISTINCT n, s) AS dns, SUM(DISTINCT n) AS sd FROM nl;
SELECT COUNT(*) AS c, COUNT(n) AS cn, SUM(n) AS sm, AVG(n) AS av, MAX(s) AS mx FROM nl WHERE n IS NULL;
SELECT COUNT(*) AS c, SUM(n) AS sm, MIN(n) AS mn FROM nl WHERE id > 100;
SELECT GROUP_CONCAT(s ORDER BY s SEPARATOR ',') AS gs, GROUP_CONCAT(n ORDER BY n) AS gn FROM nl;
SELECT GROUP_CONCAT(s ORDER BY s) AS gs FROM nl WHERE s IS NULL;

-- GROUP BY puts all NULLs into one group
SELECT g, COUNT(*) AS c, COUNT(n) AS cn, SUM(n) AS sm FROM nl GROUP BY g;
SELECT n, COUNT(*) AS c FROM nl GROUP BY n;
SELECT g, s, COUNT(*) AS c FROM nl GROUP BY g, s;
SELECT g, COUNT(*) AS c FROM nl GROUP BY g HAVING g IS NULL;
SELECT g, SUM(n) AS sm FROM nl GROUP BY g HAVING SUM(n) IS NULL;

-- DISTINCT keeps one NULL
SELECT DISTINCT g FROM nl;
SELECT DISTINCT n, s FROM nl;
SELECT COUNT(*) AS c FROM (SELECT DISTINCT n FROM nl) d;

-- ORDER BY: NULLs first ascending, last descending
SELECT id, n FROM nl ORDER BY n, id;
SELECT id, n FROM nl ORDER BY n DESC, id;
SELECT id, g, s FROM nl ORDER BY g, s DESC, id;
SELECT id, n FROM nl ORDER BY n IS NULL, n, id;
SELECT id, n FROM nl ORDER BY COALESCE(n, 0), id;
SELECT id, n FROM nl ORDER BY n, id LIMIT 3;

-- UNIQUE indexes allow several NULLs, but not duplicate values
CREATE TABLE uq (id INT PRIMARY KEY, code VARCHAR(10), a INT, b INT, UNIQUE KEY uk_code (code), UNIQUE KEY uk_ab (a, b));
INSERT INTO uq VALUES (1, NULL, 1, NULL), (2, NULL, 1, NULL), (3, 'k1', NULL, NULL), (4, NULL, NULL, NULL);
INSERT INTO uq VALUES (5, 'k1', 2, 2);
INSERT INTO uq VALUES (5, 'k2', 1, 1);
INSERT INTO uq VALUES (6, 'k3', 1, 1);
UPDATE uq SET code = NULL WHERE id = 3;
UPDATE uq SET code = 'k2' WHERE id = 1;
SELECT id, code, a, b FROM uq ORDER BY id;
SELECT COUNT(*) AS c FROM uq WHERE code IS NULL;

-- a PRIMARY KEY column is NOT NULL
INSERT INTO uq VALUES (NULL, 'k9', 9, 9);

-- NULL in CONCAT, arithmetic and functions
SELECT CONCAT('a', NULL, 'b') AS a, CONCAT_WS('-', 'a', NULL, 'b') AS b, 1 + NULL AS c, NULL * 0 AS d, NULL / 1 AS e, -NULL AS f;
SELECT id, n + 1 AS n1, CONCAT(s, '!') AS s1, COALESCE(n, -1) AS n2, IFNULL(s, '-') AS s2, LENGTH(s) AS ls FROM nl ORDER BY id;
SELECT id, CASE WHEN n IS NULL THEN 'none' WHEN n > 15 THEN 'big' ELSE 'small' END AS k FROM nl ORDER BY id;
SELECT id, n > 15 AS gt, n > 15 OR s = 'x' AS o, n > 15 AND s IS NULL AS a FROM nl ORDER BY id;

-- IS NULL on a NOT NULL column matches nothing
SELECT id FROM nl WHERE req IS NULL;
SELECT COUNT(*) AS c FROM nl WHERE req IS NOT NULL;

-- NULLs from outer joins and NULL-safe joins
SELECT nl.id AS a, other.id AS b, other.v AS v FROM nl LEFT JOIN other ON other.v = nl.n ORDER BY nl.id;
SELECT nl.id AS a FROM nl LEFT JOIN other ON other.v = nl.n WHERE other.id IS NULL;
SELECT nl.id AS a, other.id AS b FROM nl JOIN other ON other.v <=> nl.n;

-- UNION removes duplicate NULLs, UNION ALL keeps them
SELECT n FROM nl WHERE n IS NULL UNION SELECT v FROM other WHERE v IS NULL;
SELECT n FROM nl WHERE n IS NULL UNION ALL SELECT v FROM other WHERE v IS NULL;

-- updating to and from NULL
UPDATE nl SET n = NULL WHERE id = 1;
UPDATE nl SET n = 0 WHERE n IS NULL;
SELECT id, n FROM nl ORDER BY id;
UPDATE nl SET req = NULL WHERE id = 1;
