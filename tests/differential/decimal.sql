-- Exact DECIMAL arithmetic, storage rounding and range checks.

-- setup: several precisions and scales
CREATE TABLE dm (id INT PRIMARY KEY, a DECIMAL(5,2), b DECIMAL(10,4), c DECIMAL(3,0), f DECIMAL(4,4), g DECIMAL);
INSERT INTO dm VALUES (1, 1.50, 2.2050, 7, 0.1234, 10), (2, -3.25, 100.0001, -12, -0.5000, 0), (3, 999.99, 0.0000, 999, 0.9999, -1), (4, NULL, NULL, NULL, NULL, NULL), (5, 1.5, -7.1250, 0, 0.0001, 123456);
SELECT id, a, b, c, f, g FROM dm ORDER BY id;

-- inserts that round to the column scale give a note
INSERT INTO dm (id, a) VALUES (6, 1.005);
INSERT INTO dm (id, a) VALUES (7, '2.499');
INSERT INTO dm (id, b, g) VALUES (8, 1.23456, 2.5);
INSERT INTO dm (id, c) VALUES (9, -4.5);
SELECT id, a, b, c, g FROM dm WHERE id >= 6 ORDER BY id;

-- out-of-range inserts are errors in strict mode
INSERT INTO dm (id, a) VALUES (10, 1000.00);
INSERT INTO dm (id, a) VALUES (10, -1000);
INSERT INTO dm (id, a) VALUES (10, 999.995);
INSERT INTO dm (id, c) VALUES (10, 1000);
INSERT INTO dm (id, f) VALUES (10, 1);
INSERT INTO dm (id, a) VALUES (10, 'abc');
SELECT COUNT(*) AS n FROM dm WHERE id = 10;

-- INSERT IGNORE clips to the column range with a warning
INSERT IGNORE INTO dm (id, a, c) VALUES (10, 12345.678, -5000);
SELECT id, a, c FROM dm WHERE id = 10;

-- UPDATE that overflows the column is an error
UPDATE dm SET a = a * 2 WHERE id = 3;
UPDATE dm SET a = a * 2 WHERE id = 1;
SELECT a FROM dm WHERE id IN (1, 3) ORDER BY id;

-- exact sums and averages (AVG adds 4 digits of scale)
SELECT SUM(a) AS s, AVG(a) AS av, MIN(a) AS mn, MAX(a) AS mx, COUNT(a) AS n FROM dm;
SELECT SUM(b) AS s, AVG(b) AS av, SUM(c) AS sc, AVG(c) AS ac, SUM(f) AS sf FROM dm;
SELECT SUM(a) AS s FROM dm WHERE id > 100;
SELECT c > 0 AS pos, SUM(b) AS s, AVG(a) AS av FROM dm GROUP BY c > 0;

-- 0.1 + 0.2 is exact for decimals
SELECT 0.1 + 0.2 AS a, 0.1 + 0.2 = 0.3 AS b, 1.10 - 1.1 AS c, 0.3 - 0.1 - 0.2 AS d;

-- multiplication adds scales, division adds div_precision_increment (4)
SELECT 1.10 * 2.205 AS a, 1.5 * 1.5 * 1.5 AS b, 0.01 * 0.01 AS c, 123.45 * 0 AS d, -2.5 * 4 AS e;
SELECT 1.00 / 3 AS a, 1 / 7 AS b, 10 / 3.0 AS c, 2.50 / 0.5 AS d, 1 / 3.000 AS e, -1 / 8 AS f;
SELECT id, a * b AS m, a / 4 AS q, b / a AS r, a + b AS s, c * 1.5 AS cm FROM dm WHERE id <= 3 ORDER BY id;
SELECT @@div_precision_increment AS dpi;
SET div_precision_increment = 8;
SELECT 1 / 7 AS a, 1.00 / 3 AS b;
SET div_precision_increment = 4;

-- division by zero gives NULL and a warning in a SELECT
SELECT 1.5 / 0 AS a;
SELECT MOD(2.5, 0) AS a;

-- comparisons of decimals with ints, decimals and strings
SELECT 1.50 = 1.5 AS a, 1.5 = '1.5' AS b, 1.50 = '1.50' AS c, 2.0 = 2 AS d, 0.1 < 0.10001 AS e, -0.0 = 0 AS f;
SELECT id FROM dm WHERE a = 1.5;
SELECT id FROM dm WHERE a = '1.50';
SELECT id FROM dm WHERE b > 2;
SELECT id FROM dm WHERE a IN (1.5, 999.99);
SELECT id FROM dm WHERE c BETWEEN -12 AND 7;

-- 1.5 and 1.50 are the same value for DISTINCT and GROUP BY
SELECT DISTINCT a FROM dm WHERE a = 1.5;
SELECT a, COUNT(*) AS n FROM dm WHERE a IS NOT NULL GROUP BY a;

-- ordering decimals
SELECT id, b FROM dm WHERE b IS NOT NULL ORDER BY b, id;
SELECT id, a FROM dm ORDER BY a DESC, id;

-- DECIMAL(65,30): the widest type
CREATE TABLE dwide (id INT PRIMARY KEY, e DECIMAL(65,30));
INSERT INTO dwide VALUES (1, 99999999999999999999999999999999999.999999999999999999999999999999), (2, -99999999999999999999999999999999999.999999999999999999999999999999), (3, 0.000000000000000000000000000001), (4, 12345678901234567890.123456789012345678901234567890);
SELECT id, e FROM dwide ORDER BY id;
INSERT INTO dwide VALUES (5, 100000000000000000000000000000000000);
SELECT SUM(e) AS s FROM dwide WHERE id IN (1, 2);
SELECT e + 1 AS a, e * 2 AS b FROM dwide WHERE id = 4;
SELECT e * 1000 AS a FROM dwide WHERE id = 3;

-- ROUND and TRUNCATE on decimal columns
SELECT id, ROUND(b, 2) AS r2, ROUND(b) AS r0, TRUNCATE(b, 1) AS t1, ROUND(a, -1) AS rm FROM dm WHERE id <= 5 ORDER BY id;
SELECT ROUND(2.675, 2) AS a, ROUND(-2.675, 2) AS b, TRUNCATE(2.675, 2) AS c, ROUND(0.005, 2) AS d, ROUND(99.995, 2) AS e;

-- negative zero is printed and stored as zero
SELECT -0.00 AS a, -0 AS b, ROUND(-0.004, 2) AS c, TRUNCATE(-0.009, 2) AS d, -0.00 * 5 AS e, 0 - 0.00 AS f;
CREATE TABLE dz (id INT PRIMARY KEY, v DECIMAL(5,2));
INSERT INTO dz VALUES (1, -0.00), (2, '-0'), (3, -0.001), (4, 0);
SELECT id, v FROM dz ORDER BY id;
SELECT COUNT(DISTINCT v) AS n FROM dz;

-- casting decimals to integers rounds
SELECT CAST(2.5 AS SIGNED) AS a, CAST(-2.5 AS SIGNED) AS b, CAST(2.49 AS SIGNED) AS c, id, CAST(b AS SIGNED) AS cb FROM dm WHERE id IN (1, 2, 5) ORDER BY id;
