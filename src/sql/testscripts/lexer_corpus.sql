-- Round-trip corpus for src/sql/normalize.rs (test `corpus_round_trips`).
-- One statement per block; blocks are separated by blank lines. Lines starting with
-- "-- @" are markers (they are SQL comments, so the statement text stays valid):
--   -- @rejects-original   sqlparser cannot parse the original (param_text must still parse)
--   -- @param-unparsed     sqlparser cannot parse param_text either (unsupported syntax)
--   -- @ansi / -- @nbe     lex with ANSI_QUOTES / NO_BACKSLASH_ESCAPES
--   -- @hint               compare with the original minus its optimizer hint (hints are dropped)
--   -- @sqlparser-differs  sqlparser reads the original differently from MySQL (a version-gated
--                          comment, ANSI_QUOTES): only check that param_text parses
-- This first block is a comment only: it is skipped.

SELECT c FROM sbtest1 WHERE id=5012

SELECT c FROM sbtest1 WHERE id BETWEEN 5012 AND 5111

SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 5012 AND 5111

SELECT c FROM sbtest1 WHERE id BETWEEN 5012 AND 5111 ORDER BY c

SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 5012 AND 5111 ORDER BY c

UPDATE sbtest1 SET k=k+1 WHERE id=5012

UPDATE sbtest1 SET c='83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432330' WHERE id=5012

DELETE FROM sbtest1 WHERE id=5012

INSERT INTO sbtest1 (id, k, c, pad) VALUES (5012, 4993, '68487932199-96439406143-93774651418-41631865787-96406072701-20604855487-25459966574-28203206787-41238978918-19503783441', '22195207048-70116052123-74140395089-76317954521-98694025897')

INSERT INTO sbtest1(k, c, pad) VALUES(4993, '68487932199-96439406143', '22195207048-70116052123'),(5034, '13241531885-45658403807', '28733802923-10548894641'),(4997, '51185622598-89397522786', '00592560354-80393980597')

BEGIN

COMMIT

CREATE TABLE sbtest1(
  id INTEGER NOT NULL AUTO_INCREMENT,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) /*! ENGINE = innodb */

CREATE INDEX k_1 ON sbtest1(k)

CREATE TABLE `t1` (id serial,intcol1 INT(32) ,charcol1 VARCHAR(128))

INSERT INTO t1 VALUES (NULL,1804289383,'mxvtvmC9127qJNm06sGB8R92q2j7vTiiITRDGXM9ZLzkdekbWtmXKwZ2qG1llkRw5m9DHOFilEREk3q7oce8O3BEJC0woJsm6uzFAEynLH2xCsw1KQ1lT4zg9rdxBLb97R')

INSERT INTO t1 VALUES (uuid(),1804289383,'mxvtvmC9127qJNm06sGB8R92q2j7vTiiITRDGXM9ZLzkdekbWtmXKwZ2qG1llkRw5m9DHOFilEREk3q7oce8O3BEJC0woJsm6uzFAEynLH2xCsw1KQ1lT4zg9rdxBLb97R')

SELECT intcol1,charcol1 FROM t1 WHERE id =  '1'

SELECT intcol1,charcol1 FROM t1

UPDATE t1 SET charcol1 = 'bxDVxx7hOIJPoxnvgl2CgdsY5YShtJpqLg2iF4SD6a5avCEqO8jE6KwtcHZOPjhuMdbGVGbvFVb7z4aVcM7C79LXPBfw7U6xcLpl2MmyYHg9vCtm0mN0fDsNTTtjKqbbg8' WHERE id = '31'

SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = 1 AND c_w_id = w_id AND c_d_id = 5 AND c_id = 1234

SELECT d_next_o_id, d_tax FROM district WHERE d_id = 5 AND d_w_id = 1 FOR UPDATE

UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_id = 5 AND d_w_id = 1

INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES(3001, 5, 1, 1234, '2024-01-01 10:00:00', 10, 1)

INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (3001,5,1)

SELECT i_price, i_name, i_data FROM item WHERE i_id = 4242

SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03 FROM stock WHERE s_i_id = 4242 AND s_w_id = 1 FOR UPDATE

UPDATE stock SET s_quantity = 45, s_ytd = s_ytd + 5, s_order_cnt = s_order_cnt + 1 WHERE s_i_id = 4242 AND s_w_id = 1

INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (3001, 5, 1, 1, 4242, 1, 5, 243.15, 'dist-info-abcdefghijklm')

UPDATE warehouse SET w_ytd = w_ytd + 1234.56 WHERE w_id = 1

SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = 1

SELECT count(c_id) FROM customer WHERE c_w_id = 1 AND c_d_id = 5 AND c_last = 'BARBARBAR'

SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = 5 AND c_last = 'BARBARBAR' ORDER BY c_first

SELECT c_first, c_middle, c_last, c_street_1, c_city, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer WHERE c_w_id = 1 AND c_d_id = 5 AND c_id = 1234 FOR UPDATE

UPDATE customer SET c_balance = -10.00, c_ytd_payment = c_ytd_payment + 10.00, c_data = 'new data' WHERE c_w_id = 1 AND c_d_id = 5 AND c_id = 1234

INSERT INTO history(h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES(5, 1, 1234, 5, 1, '2024-01-01 10:00:00', 10.00, 'wh    dist')

SELECT o_id, o_carrier_id, o_entry_d FROM orders WHERE o_w_id = 1 AND o_d_id = 5 AND o_c_id = 1234 ORDER BY o_id DESC LIMIT 1

SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 5 AND ol_o_id = 3001

SELECT COALESCE(MIN(no_o_id),0) FROM new_orders WHERE no_d_id = 5 AND no_w_id = 1

DELETE FROM new_orders WHERE no_o_id = 2101 AND no_d_id = 5 AND no_w_id = 1

UPDATE orders SET o_carrier_id = 7 WHERE o_id = 2101 AND o_d_id = 5 AND o_w_id = 1

UPDATE order_line SET ol_delivery_d = NOW() WHERE ol_o_id = 2101 AND ol_d_id = 5 AND ol_w_id = 1

SELECT SUM(ol_amount) FROM order_line WHERE ol_o_id = 2101 AND ol_d_id = 5 AND ol_w_id = 1

UPDATE customer SET c_balance = c_balance + 123.45, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_id = 1234 AND c_d_id = 5 AND c_w_id = 1

SELECT COUNT(DISTINCT (s_i_id)) FROM order_line, stock WHERE ol_w_id = 1 AND ol_d_id = 5 AND ol_o_id < 3001 AND ol_o_id >= 2981 AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < 15

select user0_.id as id1_0_, user0_.email as email2_0_ from users user0_ where user0_.email=? limit ?

SELECT `auth_user`.`id`, `auth_user`.`password`, `auth_user`.`last_login` FROM `auth_user` WHERE `auth_user`.`username` = 'admin' LIMIT 21

SELECT `posts`.* FROM `posts` WHERE `posts`.`author_id` = 12 ORDER BY `posts`.`created_at` DESC LIMIT 20 OFFSET 40

SELECT users.id AS users_id, users.name AS users_name FROM users WHERE users.name = 'ed' LIMIT 1 OFFSET 0

INSERT INTO `django_session` (`session_key`, `session_data`, `expire_date`) VALUES ('abc', 'e30:1r2Xk', '2024-01-01 00:00:00.000000')

UPDATE `auth_user` SET `last_login` = '2024-05-01 10:00:00.123456' WHERE `auth_user`.`id` = 1

SELECT COUNT(*) AS `__count` FROM `app_item` WHERE (`app_item`.`active` AND `app_item`.`price` >= 10.5)

SELECT 1 AS `a` FROM `app_item` WHERE `app_item`.`slug` = 'x' LIMIT 1

SELECT 1 AS one FROM `users` WHERE `users`.`email` = BINARY 'a@b.c' LIMIT 1

SELECT `users`.* FROM `users` WHERE `users`.`id` IN (1, 2, 3, 5, 8, 13)

SELECT t0.id, t0.title FROM article t0 WHERE t0.status = 'published' AND t0.published_at <= '2024-06-01 00:00:00' ORDER BY t0.published_at DESC LIMIT 10

SELECT `order`.`id`, `order`.`total` FROM `order` WHERE `order`.`customer_id` = 77 AND `order`.`total` > 0 ORDER BY `order`.`id` ASC

SET autocommit=1

SET NAMES utf8mb4

SET character_set_results = NULL

SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED

SELECT @@session.transaction_read_only

SELECT @@max_allowed_packet,@@system_time_zone,@@time_zone,@@auto_increment_increment

/* mysql-connector-java-8.0.33 (Revision: 7d6b0800528b6b25c68b52dc10d6c1c8429c100c) */SELECT @@session.auto_increment_increment AS auto_increment_increment, @@character_set_client AS character_set_client, @@net_write_timeout AS net_write_timeout

select @@version_comment limit 1

SELECT DATABASE()

SHOW DATABASES

SHOW TABLES

SELECT CONCAT('a', name, 'b') FROM t

SELECT DATE_FORMAT(created, '%Y-%m-%d') FROM t

SELECT IFNULL(a, 0), COALESCE(b, 'x'), NULLIF(c, 0) FROM t

SELECT ROUND(price * 1.08, 2) FROM t

SELECT SUBSTRING(name, 1, 3), LEFT(name, 2), UPPER(name) FROM t

SELECT CAST(a AS DECIMAL(10,2)), CONVERT(b, CHAR(10)), CAST('2024-01-01' AS DATE) FROM t

-- @rejects-original
-- @param-unparsed
SELECT CAST(a AS CHAR(20) CHARACTER SET utf8mb4), CAST(b AS SIGNED), CAST(c AS UNSIGNED) FROM t

SELECT CHAR(77, 121, 83, 81, 76)

SELECT NOW() - INTERVAL 1 DAY

-- @rejects-original
-- @param-unparsed
SELECT DATE_ADD(d, INTERVAL 3 MONTH), DATE_SUB(d, INTERVAL '1:30' HOUR_MINUTE) FROM t

SELECT JSON_EXTRACT(doc, '$.a'), doc->'$.b', doc->>'$.c' FROM t

SELECT GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') FROM t GROUP BY g

SELECT CASE WHEN a > 10 THEN 'big' WHEN a > 5 THEN 'mid' ELSE 'small' END FROM t

SELECT IF(a = 1, 'yes', 'no') FROM t

SELECT a FROM t WHERE name LIKE 'abc%' ESCAPE '!'

SELECT a FROM t WHERE name NOT LIKE '%x\_y%'

SELECT a FROM t WHERE name REGEXP '^a.*z$'

SELECT MATCH(title, body) AGAINST('database' IN NATURAL LANGUAGE MODE) FROM articles

SELECT COUNT(DISTINCT a) FROM t

SELECT MAX(a), MIN(b), AVG(c), STDDEV(d) FROM t

SELECT UNIX_TIMESTAMP(), FROM_UNIXTIME(1700000000)

SELECT TIMESTAMPDIFF(SECOND, a, b) FROM t

SELECT LPAD(a, 10, '0') FROM t

SELECT FIELD(status, 'new', 'open', 'closed') FROM t

SELECT FIND_IN_SET('b', 'a,b,c')

SELECT HEX(x'4142'), 0x41, b'0101', 0b11

SELECT _utf8mb4'café', _binary 'abc', _latin1 x'41'

SELECT 'It''s', 'a\'b', "dq", 'tab\there', 'pct\%'

SELECT N'national', n'lower'

SELECT 'multi' 'part' 'string'

SELECT * FROM t WHERE a = 'x' COLLATE utf8mb4_bin

SELECT * FROM t WHERE a = _utf8mb4'x' COLLATE utf8mb4_unicode_ci

SELECT * FROM t1 WHERE a IN (SELECT b FROM t2 WHERE c = 5)

SELECT * FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.a = t1.a AND t2.b > 3)

SELECT t1.a, t2.b FROM t1 INNER JOIN t2 ON t1.id = t2.t1_id LEFT JOIN t3 ON t3.id = t2.t3_id WHERE t1.x = 'y'

SELECT * FROM (SELECT a, COUNT(*) AS n FROM t GROUP BY a) AS d WHERE d.n > 5

SELECT a, (SELECT MAX(b) FROM t2 WHERE t2.a = t1.a) FROM t1

WITH cte AS (SELECT a FROM t WHERE b = 1) SELECT * FROM cte WHERE a > 2

WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 10) SELECT n FROM seq

(SELECT a FROM t1 WHERE b = 1) UNION (SELECT a FROM t2 WHERE b = 2) ORDER BY 1 LIMIT 10

SELECT a FROM t1 UNION ALL SELECT a FROM t2 WHERE c = 'z'

SELECT a, ROW_NUMBER() OVER (PARTITION BY b ORDER BY c DESC) AS rn FROM t

SELECT a, SUM(b) OVER (ORDER BY c ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t

SELECT a FROM t1 NATURAL JOIN t2

SELECT * FROM t1 STRAIGHT_JOIN t2 ON t1.a = t2.a

SELECT * FROM t1 CROSS JOIN t2 WHERE t1.a = 1

SELECT * FROM t FORCE INDEX (k_1) WHERE k = 5

SELECT * FROM t USE INDEX (PRIMARY) WHERE id = 5

DELETE t1 FROM t1 JOIN t2 ON t1.a = t2.a WHERE t2.b = 3

UPDATE t1 JOIN t2 ON t1.a = t2.a SET t1.b = t2.b + 1 WHERE t2.c = 'x'

SELECT * FROM t LIMIT 10

SELECT * FROM t LIMIT 5, 10

SELECT * FROM t LIMIT 10 OFFSET 20

SELECT * FROM t ORDER BY a DESC, 2 ASC LIMIT 1

SELECT a, b, COUNT(*) FROM t GROUP BY 1, 2 ORDER BY 3 DESC

SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1 ORDER BY 2

SELECT a FROM t GROUP BY a WITH ROLLUP

SELECT a FROM t ORDER BY a + 1, FIELD(b, 3, 1, 2)

SELECT * FROM t WHERE id IN (1,2,3,4,5,6,7,8,9,10)

SELECT * FROM t WHERE name IN ('a', 'b', 'c')

SELECT * FROM t WHERE (a, b) IN ((1, 2), (3, 4))

SELECT * FROM t WHERE id NOT IN (1, 2)

SELECT -1, - 2, +3, 1 - -4, a-5 FROM t

UPDATE t SET balance = balance - 10.5 WHERE id = -7

SELECT * FROM t WHERE x > -1e3 AND y < 2.5E-3

SELECT 18446744073709551615, 18446744073709551616, 9223372036854775807, 9223372036854775808

SELECT 1.50, .5, 3., 1e3, 007

INSERT INTO t VALUES ('O''Reilly', 'back\\slash', 'new\nline', 'quote\"d', '')

SELECT 1 /* inline */ + 1

SELECT 1+
/*
multi-line
*/
1

SELECT a -- trailing comment
FROM t WHERE b = 4

SELECT a # hash comment
FROM t WHERE b = 5

/* leading */ SELECT a FROM t WHERE b = 6

-- @hint
SELECT /*+ MAX_EXECUTION_TIME(1000) */ a FROM t WHERE b = 2

-- @hint
SELECT /*+ BKA(t1) NO_BKA(t2) */ t1.a FROM t1, t2 WHERE t1.a = t2.a

SELECT /*!40001 SQL_NO_CACHE */ a FROM t WHERE b = 7

SELECT /*!50000 a, */ b FROM t WHERE c = 8

-- @sqlparser-differs
SELECT a /*!90000 , b */ FROM t WHERE c = 9

SELECT a /*M!100000 , b */ FROM t WHERE c = 10

SELECT a FROM t WHERE b = 1 /* ; */ AND c = ';'

/*!40101 SET NAMES utf8mb4 */

/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */

-- @hint
INSERT /*+ SET_VAR(foreign_key_checks=OFF) */ INTO t VALUES (1)

SELECT a FROM t WHERE b = 1 FOR UPDATE

SELECT a FROM t WHERE b = 1 FOR UPDATE NOWAIT

SELECT a FROM t WHERE b = 1 FOR SHARE SKIP LOCKED

-- @rejects-original
SELECT a FROM t WHERE b = 1 LOCK IN SHARE MODE

-- @rejects-original
SELECT k FROM sbtest1 WHERE id = 9 lock in share mode

INSERT IGNORE INTO t (a) VALUES (1)

INSERT INTO t (a, b) VALUES (1, 2) ON DUPLICATE KEY UPDATE b = VALUES(b) + 1

INSERT INTO t SET a = 1, b = 'x'

INSERT INTO t (a) SELECT b FROM t2 WHERE c = 3

REPLACE INTO t (a, b) VALUES (1, 'x')

INSERT INTO t VALUES (DEFAULT, NULL, TRUE, FALSE)

INSERT INTO t (d) VALUES (DATE '2024-01-31'), (TIMESTAMP '2024-01-31 10:00:00')

UPDATE t SET a = a + 1, b = 'y' WHERE id = 3 ORDER BY id LIMIT 1

DELETE FROM t WHERE created < NOW() - INTERVAL 30 DAY LIMIT 1000

DELETE FROM t WHERE id IN (SELECT id FROM t2 WHERE flag = 1)

UPDATE t SET a = NULL WHERE b IS NULL AND c IS NOT NULL

UPDATE t SET a = CASE id WHEN 1 THEN 'x' WHEN 2 THEN 'y' END WHERE id IN (1, 2)

SELECT * FROM t WHERE a = ? AND b = ?

INSERT INTO t VALUES (?, ?, 5)

SELECT 1 AS 'one', a 'alias' FROM t

SELECT a FROM t WHERE d >= DATE '2024-01-01' AND t < TIME '12:00:00'

SELECT @a := 5

SET @a = 1, @b := 'x'

-- @rejects-original
SET @a := 1

SET @@session.sql_mode = 'STRICT_TRANS_TABLES'

SET GLOBAL max_connections = 1000

SET SESSION sql_mode = ''

SELECT a FROM t WHERE b = 'x' AND c = "y"

SELECT `weird``name`, `select` FROM `my db`.`my table` WHERE `where` = 1

SELECT t.key, status.value FROM t JOIN status ON status.id = t.id WHERE t.1 = 2

SELECT name, status, type, date, value FROM t WHERE comment = 'x'

SELECT EXTRACT(YEAR FROM '2024-05-01'), TRIM(LEADING 'x' FROM 'xxabc')

SELECT SUBSTRING('abcdef' FROM 2 FOR 3)

SELECT CONVERT('abc' USING utf8mb4)

SELECT STR_TO_DATE('01,5,2013', '%d,%m,%Y')

SELECT * FROM t WHERE created BETWEEN '2024-01-01' AND '2024-01-31 23:59:59'

SELECT COUNT(*) FROM t WHERE a <=> NULL OR b != 3 OR c <> 4

-- @rejects-original
-- @param-unparsed
SELECT a & 1, a | 2, a ^ 3, ~a, a << 2, a >> 1, 7 DIV 2, 7 MOD 2, 7 % 2 FROM t

SELECT a FROM t WHERE NOT (b = 1) AND c IS TRUE

SELECT 1 FROM DUAL WHERE 1 = 1

SELECT * FROM t WHERE a = 1 AND (b = 2 OR c = 3) AND d IN (4, 5) LIMIT 6

SELECT ta.a, tb.b FROM t AS ta LEFT OUTER JOIN t2 AS tb USING (id) WHERE ta.x = 'q' ORDER BY ta.a

SELECT SQL_CALC_FOUND_ROWS * FROM t WHERE a = 1 LIMIT 10

SELECT HIGH_PRIORITY a FROM t WHERE b = 1

SELECT * FROM t WHERE a LIKE CONCAT('%', 'x', '%')

SELECT JSON_OBJECT('k', 1, 'v', 'x'), JSON_ARRAY(1, 2, 3)

SELECT * FROM t WHERE JSON_CONTAINS(tags, '"red"')

SELECT ST_AsText(ST_GeomFromText('POINT(1 1)'))

SELECT * FROM t WHERE MATCH (a) AGAINST ('+mysql -oracle' IN BOOLEAN MODE)

SELECT a FROM t WHERE b = 0x1F AND c = X'0A0B'

SELECT 'a' 'b' AS ab, 'c'

SELECT CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_TIME, NOW(6)

SELECT a FROM t WHERE ts > CURRENT_TIMESTAMP - INTERVAL 5 MINUTE

SELECT a FROM t1 WHERE a > ALL (SELECT b FROM t2 WHERE c = 1)

SELECT a FROM t1 WHERE a = ANY (SELECT b FROM t2)

CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(64) NOT NULL DEFAULT '', price DECIMAL(10,2) DEFAULT 0.00, created DATETIME DEFAULT CURRENT_TIMESTAMP) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4

ALTER TABLE t ADD COLUMN c INT DEFAULT 0

DROP TABLE IF EXISTS t

TRUNCATE TABLE t

CREATE DATABASE IF NOT EXISTS db

USE db

SHOW VARIABLES LIKE 'max%'

SHOW STATUS LIKE 'Com_select'

SHOW CREATE TABLE t

SHOW INDEX FROM t

EXPLAIN SELECT * FROM t WHERE a = 1

START TRANSACTION

ROLLBACK

SAVEPOINT sp1

ROLLBACK TO SAVEPOINT sp1

RELEASE SAVEPOINT sp1

LOCK TABLES t READ

UNLOCK TABLES

FLUSH TABLES

KILL 42

DESC t

-- @param-unparsed
-- @rejects-original
CREATE FUNCTION `func`(a INT, b INT) RETURNS int(11) RETURN a+b

-- @ansi
-- @sqlparser-differs
SELECT "col" FROM "tab" WHERE "col" = 'v'

-- @nbe
SELECT a FROM t WHERE b = 'C:\path' AND c = 5

-- @nbe
INSERT INTO t VALUES ('back\slash', 'x')

SELECT a FROM t WHERE b = 'x';

SELECT a FROM t WHERE c = 'with ? mark' AND d = ?

SELECT a FROM t WHERE b = 1e3 AND c = 1.5e-3 AND d = 1.5E+10

SELECT (1 + 2) * 3, ((4))

SELECT a, b FROM t ORDER BY b IS NULL, b

INSERT INTO t (a) VALUES (-1), (-2.5), (+3)

SELECT * FROM t WHERE a = 'ünïcödé' AND b = '日本語'

SELECT 'a\0b', 'a\Zb', 'a\bb'
