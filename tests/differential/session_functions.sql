-- Session information functions: DATABASE, LAST_INSERT_ID, ROW_COUNT, UUID, VERSION, CONNECTION_ID, USER.

-- the current database
SELECT DATABASE() AS db, SCHEMA() AS sch, DATABASE() = SCHEMA() AS same;

-- LAST_INSERT_ID() on a fresh session
SELECT LAST_INSERT_ID() AS id;

-- setup
CREATE TABLE sa (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10), n INT NOT NULL DEFAULT 0);
SELECT ROW_COUNT() AS rc;

-- single-row insert: LAST_INSERT_ID and ROW_COUNT
INSERT INTO sa (v) VALUES ('a');
SELECT LAST_INSERT_ID() AS id, ROW_COUNT() AS rc;
SELECT ROW_COUNT() AS rc;

-- multi-row insert: LAST_INSERT_ID is the first generated id
INSERT INTO sa (v) VALUES ('b'), ('c'), ('d');
SELECT LAST_INSERT_ID() AS id, ROW_COUNT() AS rc;
SELECT id, v FROM sa ORDER BY id;

-- an explicit id does not change LAST_INSERT_ID; the next generated id continues after it
INSERT INTO sa (id, v) VALUES (100, 'e');
SELECT LAST_INSERT_ID() AS id;
INSERT INTO sa (v) VALUES ('f');
SELECT LAST_INSERT_ID() AS id;
SELECT MAX(id) AS m FROM sa;

-- LAST_INSERT_ID(expr) sets the value returned by the next LAST_INSERT_ID()
SELECT LAST_INSERT_ID(42) AS set_to;
SELECT LAST_INSERT_ID() AS id;
CREATE TABLE seq (id INT NOT NULL);
INSERT INTO seq VALUES (7);
UPDATE seq SET id = LAST_INSERT_ID(id + 1);
SELECT LAST_INSERT_ID() AS id, ROW_COUNT() AS rc;
UPDATE seq SET id = LAST_INSERT_ID(id + 1);
SELECT LAST_INSERT_ID() AS id;
SELECT id FROM seq;

-- INSERT ... SELECT with generated ids
CREATE TABLE sb2 (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(10));
INSERT INTO sb2 (v) SELECT v FROM sa WHERE id <= 3 ORDER BY id;
SELECT LAST_INSERT_ID() AS id, ROW_COUNT() AS rc;
SELECT id, v FROM sb2 ORDER BY id;

-- ROW_COUNT after UPDATE counts changed rows, not matched rows
UPDATE sa SET n = 5 WHERE id IN (1, 2);
SELECT ROW_COUNT() AS rc;
UPDATE sa SET n = 5 WHERE id IN (1, 2, 3);
SELECT ROW_COUNT() AS rc;
UPDATE sa SET n = 5 WHERE id IN (1, 2, 3);
SELECT ROW_COUNT() AS rc;
UPDATE sa SET v = 'zz' WHERE id = 999;
SELECT ROW_COUNT() AS rc;

-- ROW_COUNT after DELETE
DELETE FROM sa WHERE n = 5;
SELECT ROW_COUNT() AS rc;
DELETE FROM sa WHERE id = 999;
SELECT ROW_COUNT() AS rc;

-- ROW_COUNT after a SELECT is -1
SELECT COUNT(*) AS c FROM sa;
SELECT ROW_COUNT() AS rc;

-- ROW_COUNT for INSERT ... ON DUPLICATE KEY UPDATE (1 inserted, 2 updated, 0 unchanged) and REPLACE
INSERT INTO sa (id, v) VALUES (200, 'g') ON DUPLICATE KEY UPDATE n = n + 1;
SELECT ROW_COUNT() AS rc;
INSERT INTO sa (id, v) VALUES (200, 'g') ON DUPLICATE KEY UPDATE n = n + 1;
SELECT ROW_COUNT() AS rc;
INSERT INTO sa (id, v) VALUES (200, 'g') ON DUPLICATE KEY UPDATE n = n;
SELECT ROW_COUNT() AS rc;
REPLACE INTO sa (id, v) VALUES (200, 'h');
SELECT ROW_COUNT() AS rc;
REPLACE INTO sa (id, v) VALUES (201, 'i');
SELECT ROW_COUNT() AS rc;
SELECT id, v, n FROM sa ORDER BY id;

-- LAST_INSERT_ID after an insert that generated no id keeps the previous value
INSERT INTO sa (v) VALUES ('j');
SELECT LAST_INSERT_ID() AS id;
INSERT INTO seq VALUES (1);
SELECT LAST_INSERT_ID() AS id;

-- user variables
SET @x = 5, @s = 'abc';
SELECT @x + 1 AS a, CONCAT(@s, 'd') AS b, @undefined_var AS c;
SET @y = @x * 2;
SELECT @y AS b, @y IS NULL AS n;
SET @cnt = (SELECT COUNT(*) FROM sa);
SELECT @cnt AS cnt;

-- UUID only in fixed-result expressions
SELECT LENGTH(UUID()) AS len, UUID() <> UUID() AS differ, UUID() LIKE '________-____-____-____-____________' AS shape;

-- VERSION, CONNECTION_ID, USER, CURRENT_USER only in fixed-result expressions
SELECT VERSION() LIKE '%.%' AS a, LENGTH(VERSION()) > 3 AS b;
SELECT CONNECTION_ID() > 0 AS a, CONNECTION_ID() = CONNECTION_ID() AS b;
SELECT USER() LIKE 'sb@%' AS a, CURRENT_USER() LIKE 'sb@%' AS b, CURRENT_USER LIKE 'sb@%' AS c, SESSION_USER() LIKE 'sb@%' AS d, SYSTEM_USER() = USER() AS e;
