-- Control-flow functions, operators, comparison and three-valued logic.

-- setup: a small table with ints, decimals, strings and NULLs
CREATE TABLE fc (id INT PRIMARY KEY, n INT, d DECIMAL(6,2), s VARCHAR(20), flag TINYINT);
INSERT INTO fc VALUES (1, 10, 2.50, 'apple', 1), (2, -3, NULL, 'Banana', 0), (3, NULL, 7.25, NULL, NULL), (4, 0, 0.00, 'cherry', 1), (5, 10, -1.75, 'apple', 0);

-- searched CASE with and without ELSE
SELECT id, CASE WHEN n > 5 THEN 'big' WHEN n > 0 THEN 'small' WHEN n = 0 THEN 'zero' ELSE 'neg-or-null' END AS c FROM fc ORDER BY id;
SELECT id, CASE WHEN n < 0 THEN 'negative' END AS c FROM fc ORDER BY id;

-- simple CASE, including a NULL operand (never matches WHEN NULL)
SELECT id, CASE s WHEN 'apple' THEN 1 WHEN 'banana' THEN 2 ELSE 0 END AS c FROM fc ORDER BY id;
SELECT CASE NULL WHEN NULL THEN 'matched' ELSE 'not matched' END AS c;
SELECT CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END AS c, CASE 3 WHEN 1 THEN 'one' END AS c2;

-- CASE result type mixing int and decimal
SELECT CASE WHEN 1 = 1 THEN 1 ELSE 2.50 END AS c;

-- IF, IFNULL, COALESCE, NULLIF
SELECT IF(1 > 2, 'yes', 'no') AS a, IF(NULL, 'yes', 'no') AS b, IF(0, 1, 2) AS c, IF('1', 'x', 'y') AS d;
SELECT id, IF(flag, 'on', 'off') AS f, IFNULL(n, -1) AS n2, IFNULL(s, '(none)') AS s2 FROM fc ORDER BY id;
SELECT IFNULL(NULL, NULL) AS a, IFNULL(0, 5) AS b, IFNULL('', 'x') AS c;
SELECT COALESCE(NULL, NULL, 3) AS a, COALESCE(NULL) AS b, COALESCE(NULL, 'x', 'y') AS c, COALESCE(NULL, 1, 2.50) AS d;
SELECT id, COALESCE(s, n, d, 'all null') AS c FROM fc ORDER BY id;
SELECT IFNULL(1, 2.50) AS a, IFNULL(NULL, 2.5) AS b, COALESCE(1.5, 2.125) AS c, COALESCE(NULL, 2, 3.0) AS d;
SELECT id, IFNULL(n, d) AS a, COALESCE(d, n) AS b FROM fc ORDER BY id;
SELECT NULLIF(1, 1) AS a, NULLIF(1, 2) AS b, NULLIF('a', 'A') AS c, NULLIF(NULL, 1) AS d;

-- arithmetic on integers
SELECT 2 + 3 * 4 AS a, (2 + 3) * 4 AS b, 2 - 3 - 4 AS c, 10 - -2 AS d, -(-5) AS e;
SELECT 7 / 2 AS a, 1 / 3 AS b, 2 / 3 AS c, 10 / 4 * 2 AS d, -7 / 2 AS e;
SELECT 7 DIV 2 AS a, -7 DIV 2 AS b, 7 DIV -2 AS c, 7.9 DIV 2 AS d;
SELECT 7 % 3 AS a, -7 % 3 AS b, 7 % -3 AS c, 7 MOD 3 AS d, MOD(-7, -3) AS e;
SELECT 7.5 % 2 AS a, -7.5 MOD 2 AS b, 10.25 DIV 0.5 AS c;

-- arithmetic mixing int, decimal and string operands
SELECT 1 + 2.5 AS a, 2 * 3.50 AS b, 1.10 + 2.205 AS c, 3 - 0.75 AS d, 1.5 * 1.5 AS e;
SELECT 1 + '2' AS a, '3' * '4' AS b, '10' / '4' AS c, '1.5' + 1 AS d, 3 * '1e2' AS e;
SELECT id, n + d AS s, n * 2 AS m, d / 2 AS q, -n AS neg FROM fc ORDER BY id;

-- comparison operators
SELECT 1 = 1.0 AS a, 1 <> 2 AS b, 1 != 1 AS c, 2 < 3 AS d, 3 <= 3 AS e, 4 > 5 AS f, 5 >= 5 AS g;
SELECT 'abc' < 'abd' AS a, 'a' = 'A' AS b, '2' > '10' AS c, 2 > '10' AS d, 1.0 = '1' AS e;
SELECT 1 = NULL AS a, NULL = NULL AS b, NULL <> 1 AS c, NULL < 1 AS d;

-- the NULL-safe equality operator
SELECT NULL <=> NULL AS a, 1 <=> NULL AS b, 1 <=> 1 AS c, NULL <=> 0 AS d;
SELECT id FROM fc WHERE n <=> NULL;
SELECT a.id AS x, b.id AS y FROM fc a JOIN fc b ON a.n <=> b.n AND a.id < b.id;

-- BETWEEN
SELECT 5 BETWEEN 1 AND 10 AS a, 5 NOT BETWEEN 6 AND 10 AS b, 5 BETWEEN 10 AND 1 AS c, 'b' BETWEEN 'a' AND 'c' AS d, 1.5 BETWEEN 1 AND 2 AS e;
SELECT NULL BETWEEN 1 AND 2 AS a, 1 BETWEEN NULL AND 2 AS b, 3 BETWEEN NULL AND 2 AS c;
SELECT id FROM fc WHERE d BETWEEN 0 AND 5;

-- IN lists, with NULLs
SELECT 3 IN (1, 2, 3) AS a, 4 IN (1, 2, 3) AS b, 4 IN (1, 2, NULL) AS c, 1 IN (1, NULL) AS d, 4 NOT IN (1, 2, NULL) AS e, NULL IN (1, 2) AS f;
SELECT 'a' IN ('A', 'b') AS a, 2.0 IN (1, 2) AS b, 1 IN ('1', '2') AS c;
SELECT id FROM fc WHERE s IN ('apple', 'cherry');
SELECT id FROM fc WHERE n NOT IN (10, -3);

-- LIKE with % and _, escapes, case-insensitivity, NULL
SELECT 'abc' LIKE 'a%' AS a, 'abc' LIKE 'a_c' AS b, 'abc' LIKE 'a_' AS c, 'ABC' LIKE 'abc' AS d, 'abc' NOT LIKE '%d' AS e;
SELECT 'a%c' LIKE 'a\%c' AS a, 'abc' LIKE 'a\%c' AS b, 'a_c' LIKE 'a\_c' AS c, 'a%c' LIKE 'a!%c' ESCAPE '!' AS d, 'abc' LIKE 'a!%c' ESCAPE '!' AS e;
SELECT NULL LIKE 'a%' AS a, 'a' LIKE NULL AS b, 123 LIKE '1%' AS c, '' LIKE '%' AS d, '' LIKE '_' AS e;
SELECT id, s FROM fc WHERE s LIKE '%an%';
SELECT id FROM fc WHERE s LIKE 'A____';

-- IS [NOT] NULL, IS TRUE / FALSE / UNKNOWN
SELECT NULL IS NULL AS a, 0 IS NULL AS b, '' IS NOT NULL AS c, NULL IS UNKNOWN AS d, 1 IS TRUE AS e, 0 IS FALSE AS f, NULL IS NOT TRUE AS g;
SELECT id FROM fc WHERE s IS NULL;
SELECT id FROM fc WHERE flag IS NOT TRUE;

-- logical operators and three-valued logic
SELECT NULL AND 0 AS a, NULL AND 1 AS b, NULL OR 1 AS c, NULL OR 0 AS d, NOT NULL AS e, NULL XOR 1 AS f, 1 XOR 1 AS g, 1 XOR 0 AS h;
SELECT 1 AND 2 AS a, 0 OR 0 AS b, NOT 0 AS c, NOT 5 AS d, NOT 1 + 1 AS e, 1 OR 0 AND 0 AS f;
SELECT id FROM fc WHERE NOT (n > 0);
SELECT id FROM fc WHERE n > 0 OR d > 5;

-- bit operators
SELECT 5 & 3 AS a, 5 | 3 AS b, 5 ^ 3 AS c, 1 << 4 AS d, 256 >> 4 AS e, ~0 AS f, ~5 AS g, BIT_COUNT(255) AS h;
SELECT 6 & NULL AS a, 12 | 0 AS b, 1 << 63 AS c, -1 & 255 AS d;
