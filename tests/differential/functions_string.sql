-- String functions on literals and on table columns, with NULLs and multibyte text.

-- setup
CREATE TABLE fs (id INT PRIMARY KEY, s VARCHAR(40), t VARCHAR(40), n INT);
INSERT INTO fs VALUES (1, 'Hello', 'World', 3), (2, 'héllo wörld', 'ÀÉÎ', 2), (3, NULL, 'x', NULL), (4, '  padded  ', NULL, 0), (5, 'a,b,c', 'b', -2), (6, '', '😀 smile', 1);

-- CONCAT and CONCAT_WS, NULL handling
SELECT CONCAT('a', 'b', 'c') AS a, CONCAT('a', NULL) AS b, CONCAT('x', 1, 2.50) AS c, CONCAT('') AS d;
SELECT CONCAT_WS(',', 'a', NULL, 'b') AS a, CONCAT_WS(NULL, 'a', 'b') AS b, CONCAT_WS(',', '', 'x') AS c, CONCAT_WS('-', 2024, 1, 5) AS d;
SELECT id, CONCAT(s, '|', t) AS c, CONCAT_WS('|', s, t) AS w FROM fs ORDER BY id;
SELECT CONCAT();

-- SUBSTRING / SUBSTR / MID in all forms, negative and out-of-range positions
SELECT SUBSTRING('Quadratically', 5) AS a, SUBSTRING('Quadratically', 5, 6) AS b, SUBSTRING('Sakila', -3) AS c, SUBSTRING('Sakila', -5, 3) AS d;
SELECT SUBSTRING('Sakila' FROM 4) AS a, SUBSTRING('Sakila' FROM -4 FOR 2) AS b, SUBSTR('Sakila', 2, 3) AS c, MID('Sakila', 3, 2) AS d;
SELECT SUBSTRING('abc', 0) AS a, SUBSTRING('abc', 10) AS b, SUBSTRING('abc', 2, -1) AS c, SUBSTRING('abc', -10) AS d, SUBSTRING('abc', 2, 100) AS e, SUBSTRING(NULL, 1) AS f;
SELECT id, SUBSTRING(s, 2, 3) AS a, SUBSTRING(t, -2) AS b, SUBSTRING(s, n) AS c FROM fs ORDER BY id;

-- LEFT, RIGHT
SELECT LEFT('abcdef', 3) AS a, RIGHT('abcdef', 2) AS b, LEFT('abc', 0) AS c, LEFT('abc', 10) AS d, RIGHT('abc', -1) AS e, LEFT(NULL, 1) AS f;
SELECT id, LEFT(s, 2) AS l, RIGHT(t, 3) AS r FROM fs ORDER BY id;

-- LENGTH (bytes) vs CHAR_LENGTH (characters) on multibyte text
SELECT LENGTH('héllo') AS a, CHAR_LENGTH('héllo') AS b, CHARACTER_LENGTH('ÀÉÎ') AS c, LENGTH('😀') AS d, CHAR_LENGTH('😀') AS e, LENGTH('') AS f, LENGTH(NULL) AS g;
SELECT LENGTH(12345) AS a, LENGTH(1.50) AS b, CHAR_LENGTH(-7) AS c;
SELECT id, LENGTH(s) AS lb, CHAR_LENGTH(s) AS lc, LENGTH(t) AS tb, CHAR_LENGTH(t) AS tc FROM fs ORDER BY id;

-- UPPER, LOWER (UCASE, LCASE) including accented letters
SELECT UPPER('Hello') AS a, LOWER('HeLLo') AS b, UPPER('héllo wörld') AS c, LOWER('ÀÉÎ') AS d, UCASE('x') AS e, LCASE('Y') AS f, UPPER(NULL) AS g;
SELECT id, UPPER(s) AS u, LOWER(t) AS l FROM fs ORDER BY id;

-- TRIM in all forms, LTRIM, RTRIM
SELECT CONCAT('[', TRIM('  x y  '), ']') AS a, CONCAT('[', LTRIM('  x  '), ']') AS b, CONCAT('[', RTRIM('  x  '), ']') AS c;
SELECT TRIM(LEADING 'x' FROM 'xxaxx') AS a, TRIM(TRAILING 'x' FROM 'xxaxx') AS b, TRIM(BOTH 'x' FROM 'xxaxx') AS c, TRIM('x' FROM 'xaxbx') AS d;
SELECT TRIM(TRAILING 'xy' FROM 'axyxyx') AS a, TRIM(LEADING 'ab' FROM 'ababcab') AS b, CONCAT('[', TRIM(LEADING FROM '  a  '), ']') AS c, TRIM(NULL) AS d, TRIM('' FROM 'abc') AS e;
SELECT id, CONCAT('[', TRIM(s), ']') AS t1, CONCAT('[', LTRIM(s), ']') AS t2, CONCAT('[', RTRIM(s), ']') AS t3 FROM fs ORDER BY id;

-- LPAD, RPAD (padding and truncation)
SELECT LPAD('hi', 5, '*') AS a, RPAD('hi', 5, '*') AS b, LPAD('hello', 3, '*') AS c, RPAD('hello', 2, '*') AS d, RPAD('hi', 7, 'ab') AS e, LPAD('7', 3, '0') AS f;
SELECT LPAD('é', 3, 'ü') AS a, RPAD(NULL, 3, 'x') AS b, LPAD('x', 3, NULL) AS c, LPAD('abc', 0, 'x') AS d;
SELECT id, LPAD(n, 4, '0') AS p, RPAD(t, 6, '.') AS r FROM fs ORDER BY id;

-- REPLACE (case-sensitive)
SELECT REPLACE('www.mysql.com', 'w', 'Ww') AS a, REPLACE('aAa', 'a', 'b') AS b, REPLACE('abc', 'x', 'y') AS c, REPLACE('abcabc', 'bc', '') AS d, REPLACE('abc', NULL, 'y') AS e;
SELECT id, REPLACE(s, 'l', 'L') AS r FROM fs ORDER BY id;

-- LOCATE, INSTR, POSITION
SELECT LOCATE('bar', 'foobarbar') AS a, LOCATE('bar', 'foobarbar', 5) AS b, LOCATE('xbar', 'foobar') AS c, LOCATE('BAR', 'foobar') AS d, LOCATE('', 'abc') AS e, LOCATE('b', NULL) AS f;
SELECT INSTR('foobarbar', 'bar') AS a, INSTR('abc', 'd') AS b, POSITION('bar' IN 'foobarbar') AS c, POSITION('ö' IN 'héllo wörld') AS d, LOCATE('l', 'héllo', 4) AS e;
SELECT id, LOCATE('l', s) AS a, INSTR(s, 'o') AS b, POSITION(t IN s) AS c FROM fs ORDER BY id;

-- REVERSE, REPEAT, SPACE
SELECT REVERSE('abc') AS a, REVERSE('héllo') AS b, REVERSE('') AS c, REVERSE(NULL) AS d, REVERSE(123) AS e;
SELECT REPEAT('ab', 3) AS a, REPEAT('ab', 0) AS b, REPEAT('ab', -1) AS c, REPEAT(NULL, 2) AS d, CONCAT('[', SPACE(3), ']') AS e, CONCAT('[', SPACE(0), ']') AS f;
SELECT id, REPEAT(t, n) AS r, REVERSE(s) AS v FROM fs ORDER BY id;

-- STRCMP
SELECT STRCMP('text', 'text2') AS a, STRCMP('text2', 'text') AS b, STRCMP('text', 'text') AS c, STRCMP('a', 'A') AS d, STRCMP(NULL, 'a') AS e, STRCMP('', 'a') AS f;

-- FIELD, ELT, FIND_IN_SET
SELECT FIELD('b', 'a', 'b', 'c') AS a, FIELD('z', 'a', 'b') AS b, FIELD(NULL, 'a', NULL) AS c, FIELD('B', 'a', 'b') AS d, FIELD(2, 1, 2, 3) AS e;
SELECT ELT(2, 'a', 'b', 'c') AS a, ELT(4, 'a', 'b') AS b, ELT(0, 'a') AS c, ELT(NULL, 'a') AS d, ELT(1, NULL, 'b') AS e;
SELECT FIND_IN_SET('b', 'a,b,c') AS a, FIND_IN_SET('d', 'a,b,c') AS b, FIND_IN_SET('B', 'a,b,c') AS c, FIND_IN_SET(NULL, 'a') AS d, FIND_IN_SET('a', '') AS e;
SELECT id, FIND_IN_SET(t, s) AS f, ELT(n, 'one', 'two', 'three') AS e FROM fs ORDER BY id;

-- HEX, UNHEX, ASCII, CHAR
SELECT HEX('abc') AS a, HEX(255) AS b, HEX('é') AS c, HEX('') AS d, HEX(NULL) AS e, LOWER(HEX(0)) AS f;
SELECT UNHEX('4D7953514C') AS a, UNHEX('616263') AS b, UNHEX('') AS c, HEX(UNHEX('00FF')) AS d;
SELECT ASCII('A') AS a, ASCII('abc') AS b, ASCII('') AS c, ASCII(NULL) AS d, ASCII('1') AS e;
SELECT CHAR(77, 121, 83, 81, 76) AS a, CHAR(65) AS b, CHAR(72, NULL, 105) AS c, HEX(CHAR(1, 0)) AS d, CHAR(104, 105 USING utf8mb4) AS e;
SELECT id, HEX(s) AS h, ASCII(t) AS a FROM fs ORDER BY id;

-- FORMAT
SELECT FORMAT(1234567.891, 2) AS a, FORMAT(1234.5, 0) AS b, FORMAT(-1234.567, 1) AS c, FORMAT(0.5, 0) AS d, FORMAT(12, 3) AS e, FORMAT(NULL, 2) AS f, FORMAT(999.999, 2) AS g;

-- QUOTE
SELECT QUOTE('it''s') AS a, QUOTE('plain') AS b, QUOTE('') AS c, QUOTE('back\\slash') AS d, QUOTE(12) AS e;
SELECT id, QUOTE(s) AS q FROM fs WHERE s IS NOT NULL ORDER BY id;

-- string functions in WHERE and GROUP BY
SELECT id FROM fs WHERE CHAR_LENGTH(s) > 5;
SELECT UPPER(LEFT(t, 1)) AS initial, COUNT(*) AS c FROM fs GROUP BY UPPER(LEFT(t, 1));
