-- Collations: the default utf8mb4_general_ci (case- and accent-insensitive, PAD SPACE), _bin, COLLATE.

-- setup: one table with the default collation, one with utf8mb4_bin
CREATE TABLE co (id INT PRIMARY KEY, name VARCHAR(20));
INSERT INTO co VALUES (1, 'apple'), (2, 'Apple'), (3, 'APPLE'), (4, 'banana'), (5, 'Banana'), (6, 'cherry'), (7, 'apple  '), (8, 'éclair'), (9, 'eclair'), (10, 'Zebra'), (11, 'zebra'), (12, NULL);
CREATE TABLE cb (id INT PRIMARY KEY, name VARCHAR(20) COLLATE utf8mb4_bin);
INSERT INTO cb SELECT id, name FROM co;
SELECT COLLATION(name) AS c1, CHARSET(name) AS cs FROM co WHERE id = 1;
SELECT COLLATION(name) AS c2 FROM cb WHERE id = 1;

-- comparisons of literals ignore case, accents and trailing spaces
SELECT 'a' = 'A' AS a, 'abc' = 'ABC' AS b, 'a' = 'a   ' AS c, 'e' = 'é' AS d, 'E' = 'è' AS e, 'a' < 'B' AS f, 'Z' > 'a' AS g, 'n' = 'ñ' AS h;
SELECT 'a' = ' a' AS a, 'ab' = 'a b' AS b, 'a' < 'b' AS c, '' = ' ' AS d;

-- WHERE on a column with the default collation
SELECT id FROM co WHERE name = 'apple';
SELECT id FROM co WHERE name = 'APPLE ';
SELECT id FROM co WHERE name = 'eclair';
SELECT id FROM co WHERE name IN ('BANANA', 'Cherry');
SELECT id FROM co WHERE name > 'b' AND name < 'C';
SELECT id FROM co WHERE name BETWEEN 'a' AND 'B';

-- WHERE on a utf8mb4_bin column is exact (but still ignores trailing spaces)
SELECT id FROM cb WHERE name = 'apple';
SELECT id FROM cb WHERE name = 'Apple';
SELECT id FROM cb WHERE name = 'eclair';
SELECT id FROM cb WHERE name IN ('BANANA', 'banana');
SELECT id FROM cb WHERE name > 'a';

-- ORDER BY on mixed-case text (ties broken by id)
SELECT id, name FROM co ORDER BY name, id;
SELECT id, name FROM co ORDER BY name DESC, id;
SELECT id, name FROM cb ORDER BY name, id;

-- GROUP BY and DISTINCT merge case and accent variants
SELECT COUNT(DISTINCT name) AS n FROM co;
SELECT COUNT(DISTINCT name) AS n FROM cb;
SELECT COUNT(*) AS n FROM (SELECT DISTINCT name FROM co) d;
SELECT LOWER(name) AS k, COUNT(*) AS c FROM co WHERE id <= 7 GROUP BY name;
SELECT UPPER(name) AS k, COUNT(*) AS c FROM co WHERE id IN (4, 5, 6, 10, 11) GROUP BY name;
SELECT name, COUNT(*) AS c FROM cb WHERE id <= 6 GROUP BY name;
SELECT COUNT(*) AS groups FROM (SELECT name FROM co GROUP BY name) g;

-- the COLLATE clause
SELECT 'a' = 'A' COLLATE utf8mb4_bin AS a, 'a' COLLATE utf8mb4_bin = 'a' AS b, 'e' = 'é' COLLATE utf8mb4_bin AS c, 'a' = 'A' COLLATE utf8mb4_general_ci AS d;
SELECT id FROM co WHERE name COLLATE utf8mb4_bin = 'Apple';
SELECT id FROM cb WHERE name = 'APPLE' COLLATE utf8mb4_general_ci;
SELECT id, name FROM co WHERE id <= 5 ORDER BY name COLLATE utf8mb4_bin, id;
SELECT COUNT(DISTINCT name COLLATE utf8mb4_bin) AS n FROM co;
SELECT COLLATION('a' COLLATE utf8mb4_bin) AS c;

-- utf8mb4_unicode_ci expands ß to ss; general_ci maps it to s
SELECT 'ß' = 'ss' COLLATE utf8mb4_unicode_ci AS a, 'ß' = 's' COLLATE utf8mb4_general_ci AS b, 'Straße' = 'STRASSE' COLLATE utf8mb4_unicode_ci AS c;

-- comparisons as binary strings are exact
SELECT CAST('a' AS BINARY) = 'A' AS a, CAST('abc' AS BINARY) = 'abc' AS b, CAST('a ' AS BINARY) = 'a' AS c;
SELECT id FROM co WHERE CAST(name AS BINARY) = 'apple';
SELECT id FROM co WHERE CONVERT(name USING utf8mb4) COLLATE utf8mb4_bin = 'APPLE';

-- comparing a _ci column with a _bin column of the same character set uses the _bin collation
SELECT co.id AS a, cb.id AS b FROM co JOIN cb ON co.name = cb.name;

-- mixing two different non-binary column collations is an error unless COLLATE decides
CREATE TABLE cx (id INT PRIMARY KEY, name VARCHAR(20) COLLATE utf8mb4_unicode_ci);
INSERT INTO cx VALUES (1, 'APPLE'), (2, 'Straße');
SELECT co.id AS a FROM co JOIN cx ON co.name = cx.name;
SELECT co.id AS a, cx.id AS b FROM co JOIN cx ON co.name = cx.name COLLATE utf8mb4_general_ci;
SELECT id FROM cx WHERE name = 'strasse';
SELECT co.id AS a, cb.id AS b FROM co JOIN cb ON co.name = cb.name COLLATE utf8mb4_general_ci WHERE co.id = 1;
SELECT 'a' COLLATE latin1_swedish_ci AS a;
SELECT 'a' COLLATE no_such_collation AS a;

-- LIKE follows the collation: case- and accent-insensitive by default, exact with _bin
SELECT 'Apple' LIKE 'a%' AS a, 'APPLE' LIKE '%pl%' AS b, 'éclair' LIKE 'e%' AS c, 'abc' LIKE 'ABC' AS d, 'abc' LIKE 'ABC' COLLATE utf8mb4_bin AS e;
SELECT id FROM co WHERE name LIKE 'a%';
SELECT id FROM co WHERE name LIKE '%E%';
SELECT id FROM cb WHERE name LIKE 'a%';
SELECT id FROM cb WHERE name LIKE '%E%';
SELECT id FROM co WHERE name LIKE 'apple';

-- functions that compare strings follow the collation too
SELECT STRCMP('apple', 'APPLE') AS a, STRCMP('apple' COLLATE utf8mb4_bin, 'APPLE') AS b, FIELD('B', 'a', 'b') AS c, FIND_IN_SET('B', 'a,b') AS d, LOCATE('P', 'apple') AS e, INSTR('APPLE', 'p') AS f;
SELECT REPLACE('Apple', 'a', 'x') AS a, LOCATE('P' COLLATE utf8mb4_bin, 'apple') AS b;
SELECT MAX(name) AS mx, MIN(name) AS mn FROM cb WHERE id IN (1, 2, 4, 5);

-- a UNIQUE key rejects case, accent and trailing-space variants
CREATE TABLE cu (id INT PRIMARY KEY, email VARCHAR(40), UNIQUE KEY uk_email (email));
INSERT INTO cu VALUES (1, 'user@example.com');
INSERT INTO cu VALUES (2, 'USER@example.com');
INSERT INTO cu VALUES (2, 'user@example.com   ');
INSERT INTO cu VALUES (2, 'üser@example.com');
INSERT INTO cu VALUES (2, 'user2@example.com');
SELECT id, email FROM cu ORDER BY id;
SELECT id FROM cu WHERE email = 'User@Example.COM';

-- with a _bin column the case variants are distinct
CREATE TABLE cub (id INT PRIMARY KEY, code VARCHAR(10) COLLATE utf8mb4_bin, UNIQUE KEY uk_code (code));
INSERT INTO cub VALUES (1, 'abc'), (2, 'ABC'), (3, 'Abc');
INSERT INTO cub VALUES (4, 'abc');
INSERT INTO cub VALUES (4, 'abc ');
SELECT id, code FROM cub ORDER BY code;

-- a primary key on a text column collides the same way
CREATE TABLE cpk (name VARCHAR(10) PRIMARY KEY, v INT);
INSERT INTO cpk VALUES ('Key', 1);
INSERT INTO cpk VALUES ('KEY', 2);
INSERT INTO cpk VALUES ('kéy', 2);
INSERT INTO cpk VALUES ('KEY', 2) ON DUPLICATE KEY UPDATE v = v + 10;
SELECT name, v FROM cpk;

-- utf8mb4_unicode_ci is UCA 4.0.0: expansions (ß = ss, ﬁ = fi, Œ = oe), Æ a letter of its own, punctuation < digits < letters
SELECT 'ß' = 'ss' COLLATE utf8mb4_unicode_ci AS a, '_' < 'a' COLLATE utf8mb4_unicode_ci AS b, '_' < 'a' COLLATE utf8mb4_general_ci AS c, 'e' = 'é' COLLATE utf8mb4_unicode_ci AS d, 'a' = 'a ' COLLATE utf8mb4_unicode_ci AS e;
CREATE TABLE cuni (id INT PRIMARY KEY, s VARCHAR(20) COLLATE utf8mb4_unicode_ci, KEY k_s (s));
INSERT INTO cuni VALUES (1, 'b'), (2, 'A'), (3, '_x'), (4, '9'), (5, '#'), (6, 'ß'), (7, 'ss'), (8, 'st'), (9, 'sz'), (10, 'æ'), (11, 'ae'), (12, 'Æ'), (13, 'a b'), (14, 'ab'), (15, '-'), (16, 'Œ'), (17, 'oe'), (18, 'é'), (19, 'e'), (20, ' '), (21, '(x)'), (22, '10'), (23, 'straße'), (24, 'STRASSE'), (25, 'ﬁ'), (26, 'fi'), (27, 'a\t'), (28, 'a'), (29, ''), (30, 'Z');
SELECT id, s FROM cuni ORDER BY s, id;
SELECT id FROM cuni ORDER BY s DESC, id;
SELECT MIN(id) AS first, COUNT(*) AS n FROM cuni GROUP BY s ORDER BY first;
SELECT COUNT(DISTINCT s) AS n FROM cuni;
SELECT COUNT(*) AS n FROM (SELECT DISTINCT s FROM cuni) d;
SELECT id FROM cuni WHERE s = 'SS' ORDER BY id;
SELECT id FROM cuni WHERE s = 'STRASSE' ORDER BY id;
SELECT id FROM cuni WHERE s IN ('FI', 'OE', 'AE') ORDER BY id;
SELECT id FROM cuni WHERE s > 'r' AND s < 't' ORDER BY id;
SELECT id FROM cuni WHERE s BETWEEN '0' AND '9z' ORDER BY id;
SELECT id FROM cuni WHERE s < '0' ORDER BY id;
SELECT id FROM cuni WHERE s >= 'a' AND s < 'b' ORDER BY id;
SELECT a.id AS a, b.id AS b FROM cuni a JOIN cuni b ON a.s = b.s AND a.id < b.id ORDER BY a.id, b.id;

-- LIKE under unicode_ci matches character by character: ß is one character, not two
SELECT 'ß' LIKE 'ss' COLLATE utf8mb4_unicode_ci AS a, 'ß' LIKE 's_' COLLATE utf8mb4_unicode_ci AS b, 'ss' LIKE 'ß' COLLATE utf8mb4_unicode_ci AS c, 'ß' LIKE '_' COLLATE utf8mb4_unicode_ci AS d, 'Ä' LIKE 'a' COLLATE utf8mb4_unicode_ci AS e, 'ﬁ' LIKE 'fi' COLLATE utf8mb4_unicode_ci AS f;
SELECT id FROM cuni WHERE s LIKE 's%' ORDER BY id;
SELECT id FROM cuni WHERE s LIKE 's_' ORDER BY id;
SELECT id FROM cuni WHERE s LIKE '_' ORDER BY id;
SELECT id FROM cuni WHERE s LIKE '%SSE' ORDER BY id;
SELECT id FROM cuni WHERE s LIKE 'a%' ORDER BY id;

-- string functions search with the collation, without PAD SPACE
SELECT LOCATE('ss', 'Straße' COLLATE utf8mb4_unicode_ci) AS a, LOCATE('SE', 'Straße' COLLATE utf8mb4_unicode_ci) AS b, INSTR('Straße' COLLATE utf8mb4_unicode_ci, 'E') AS c, FIELD('ss' COLLATE utf8mb4_unicode_ci, 'x', 'ß') AS d, STRCMP('ß' COLLATE utf8mb4_unicode_ci, 'st') AS e;

-- a UNIQUE key on a unicode_ci column rejects expansion variants
CREATE TABLE cuu (id INT PRIMARY KEY, s VARCHAR(20) COLLATE utf8mb4_unicode_ci, UNIQUE KEY uk_s (s));
INSERT INTO cuu VALUES (1, 'Straße');
INSERT INTO cuu VALUES (2, 'strasse');
INSERT INTO cuu VALUES (2, 'STRASSE  ');
INSERT INTO cuu VALUES (2, 'Æon');
INSERT INTO cuu VALUES (3, 'aeon');
INSERT INTO cuu VALUES (4, 'ﬁne');
INSERT INTO cuu VALUES (5, 'FINE');
INSERT INTO cuu VALUES (5, 'Strasze');
SELECT id, s FROM cuu ORDER BY s, id;
SELECT id FROM cuu WHERE s = 'STRASSE';
