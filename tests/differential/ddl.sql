-- DDL: CREATE TABLE (types, options, keys), IF NOT EXISTS, LIKE, CREATE ... SELECT,
-- RENAME TABLE, ALTER TABLE, DROP TABLE, TRUNCATE, temporary tables, DDL errors.

-- a table with many column types and options
CREATE TABLE typed (
  id INT NOT NULL AUTO_INCREMENT,
  tiny TINYINT,
  small SMALLINT UNSIGNED NOT NULL DEFAULT 7,
  med MEDIUMINT,
  big BIGINT,
  flag BOOLEAN NOT NULL DEFAULT FALSE,
  price DECIMAL(10,2) NOT NULL DEFAULT 0.00,
  ratio DOUBLE,
  approx FLOAT,
  code CHAR(3),
  name VARCHAR(40) NOT NULL,
  note TEXT,
  body MEDIUMTEXT,
  raw VARBINARY(16),
  fixed BINARY(4),
  bits BIT(8),
  d DATE,
  t TIME,
  dt DATETIME,
  ts TIMESTAMP NULL DEFAULT NULL,
  y YEAR,
  color ENUM('red','green','blue') DEFAULT 'green',
  tags SET('a','b','c'),
  blobby BLOB,
  PRIMARY KEY (id),
  UNIQUE KEY uq_code (code),
  KEY idx_name (name),
  KEY idx_d_dt (d, dt)
);
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'typed' ORDER BY ORDINAL_POSITION;
SELECT COLUMN_NAME, CHARACTER_MAXIMUM_LENGTH FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'typed' AND DATA_TYPE IN ('char', 'varchar', 'binary', 'varbinary');
SELECT COLUMN_NAME, NUMERIC_PRECISION, NUMERIC_SCALE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'typed' AND DATA_TYPE = 'decimal';
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'typed';

-- defaults and auto-increment on insert
INSERT INTO typed (name) VALUES ('first');
INSERT INTO typed (name, code, price, color, tags) VALUES ('second', 'abc', 12.5, 'blue', 'c,a');
INSERT INTO typed (id, name, d, dt, t, y) VALUES (10, 'third', '2024-02-29', '2024-02-29 13:45:00', '08:30:00', 2024);
INSERT INTO typed (name, bits, raw, fixed) VALUES ('fourth', b'1010', 'xy', 'ab');
SELECT id, tiny, small, flag, price, code, name, color, tags, d, dt, t, y FROM typed ORDER BY id;
SELECT id, bits + 0 AS b, HEX(raw) AS r, HEX(fixed) AS f, LENGTH(fixed) AS lf FROM typed WHERE name = 'fourth';
SELECT LAST_INSERT_ID();

-- NOT NULL without a default, omitted under strict mode
INSERT INTO typed (code) VALUES ('zzz');
-- duplicate unique value
INSERT INTO typed (name, code) VALUES ('dup', 'abc');
-- several NULLs are allowed in a UNIQUE column
INSERT INTO typed (name, code) VALUES ('n1', NULL), ('n2', NULL);
SELECT COUNT(*) FROM typed WHERE code IS NULL;

-- composite primary key and composite unique key
CREATE TABLE pairs (
  a INT NOT NULL,
  b INT NOT NULL,
  c VARCHAR(10),
  d INT,
  PRIMARY KEY (a, b),
  UNIQUE KEY uq_cd (c, d)
);
INSERT INTO pairs VALUES (1, 1, 'x', 1), (1, 2, 'x', 2), (2, 1, 'y', 1);
INSERT INTO pairs VALUES (1, 2, 'z', 9);
INSERT INTO pairs VALUES (3, 3, 'x', 1);
SELECT COLUMN_NAME, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'pairs';
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'pairs';

-- column-level PRIMARY KEY and UNIQUE
CREATE TABLE inline (id INT PRIMARY KEY, email VARCHAR(50) UNIQUE, nick VARCHAR(20));
INSERT INTO inline VALUES (1, 'a@x', 'a'), (2, 'b@x', 'b');
INSERT INTO inline VALUES (3, 'a@x', 'c');
SELECT COLUMN_NAME, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'inline';

-- CREATE TABLE errors
CREATE TABLE inline (id INT);
CREATE TABLE dupcol (a INT, b INT, a VARCHAR(3));
CREATE TABLE dupkey (a INT, b INT, KEY k1 (a), KEY k1 (b));
CREATE TABLE twopk (a INT PRIMARY KEY, b INT PRIMARY KEY);
CREATE TABLE autonokey (a INT AUTO_INCREMENT, b INT);

-- IF NOT EXISTS on an existing table is a note
CREATE TABLE IF NOT EXISTS inline (id INT);
CREATE TABLE IF NOT EXISTS fresh (id INT PRIMARY KEY, v VARCHAR(5));
SELECT COUNT(*) FROM fresh;

-- CREATE TABLE ... LIKE copies columns and indexes but not rows
CREATE TABLE pairs_copy LIKE pairs;
SELECT COUNT(*) FROM pairs_copy;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'pairs_copy';
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'pairs_copy';
INSERT INTO pairs_copy SELECT * FROM pairs;
SELECT * FROM pairs_copy;
CREATE TABLE pairs_copy LIKE pairs;
CREATE TABLE nolike LIKE no_such_table;

-- CREATE TABLE ... AS SELECT and CREATE TABLE ... SELECT
CREATE TABLE src (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, grp VARCHAR(10), qty INT NOT NULL, amount DECIMAL(8,2));
INSERT INTO src (grp, qty, amount) VALUES ('a', 1, 1.50), ('a', 2, 2.25), ('b', 3, NULL), (NULL, 4, 4.00), ('b', 5, 0.75);
CREATE TABLE ctas1 AS SELECT id, grp, qty FROM src WHERE qty > 1;
SELECT * FROM ctas1;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'ctas1';
CREATE TABLE ctas2 SELECT grp, COUNT(*) AS n FROM src GROUP BY grp;
SELECT * FROM ctas2;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'ctas2';
CREATE TABLE ctas3 (PRIMARY KEY (id)) SELECT id, amount FROM src;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'ctas3';
CREATE TABLE ctas4 (extra INT, note VARCHAR(10) DEFAULT 'n/a') SELECT id, grp FROM src WHERE id <= 2;
SELECT * FROM ctas4;
SELECT COLUMN_NAME, ORDINAL_POSITION FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'ctas4';
CREATE TABLE ctas5 AS SELECT 'lit' AS tag, 5 AS num, id AS src_id FROM src WHERE id = 1;
SELECT * FROM ctas5;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE, CHARACTER_MAXIMUM_LENGTH FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'ctas5';
CREATE TABLE ctas6 AS SELECT * FROM src WHERE 1 = 0;
SELECT COUNT(*) FROM ctas6;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'ctas6';
CREATE TABLE ctas1 AS SELECT id FROM src;
CREATE TABLE ctas7 AS SELECT id, id FROM src;

-- RENAME TABLE: one, several, swap
CREATE TABLE ra (id INT PRIMARY KEY, v VARCHAR(10));
CREATE TABLE rb (id INT PRIMARY KEY, v VARCHAR(10));
INSERT INTO ra VALUES (1, 'from a');
INSERT INTO rb VALUES (2, 'from b');
RENAME TABLE ra TO rc;
SELECT * FROM rc;
SELECT * FROM ra;
RENAME TABLE rc TO ra, ctas6 TO ctas_empty;
SELECT * FROM ra;
SELECT COUNT(*) FROM ctas_empty;
RENAME TABLE ra TO tmp_swap, rb TO ra, tmp_swap TO rb;
SELECT * FROM ra;
SELECT * FROM rb;
RENAME TABLE ra TO rb;
RENAME TABLE no_such_table TO whatever;
ALTER TABLE rb RENAME TO rd;
ALTER TABLE rd RENAME rb;
SELECT * FROM rb;
SHOW TABLES LIKE 'r%';

-- ALTER TABLE: add, drop, modify, change, rename columns
CREATE TABLE alt (id INT NOT NULL, name VARCHAR(10), qty INT);
INSERT INTO alt VALUES (1, 'one', 10), (2, 'two', NULL), (3, 'three', 30);
ALTER TABLE alt ADD COLUMN price DECIMAL(6,2) NOT NULL DEFAULT 1.00;
SELECT * FROM alt;
ALTER TABLE alt ADD COLUMN pos INT FIRST;
ALTER TABLE alt ADD COLUMN mid VARCHAR(5) DEFAULT 'm' AFTER name;
SELECT COLUMN_NAME, ORDINAL_POSITION FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'alt';
SELECT * FROM alt;
ALTER TABLE alt DROP COLUMN pos;
ALTER TABLE alt DROP mid;
SELECT * FROM alt;
UPDATE alt SET qty = 20 WHERE qty IS NULL;
ALTER TABLE alt MODIFY COLUMN qty BIGINT NOT NULL DEFAULT 0;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'alt';
INSERT INTO alt (id, name) VALUES (4, 'four');
INSERT INTO alt (id, name, qty) VALUES (5, 'five', NULL);
DELETE FROM alt WHERE id = 4;
ALTER TABLE alt MODIFY COLUMN qty BIGINT;
UPDATE alt SET qty = NULL WHERE id = 2;
SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'alt';
ALTER TABLE alt CHANGE COLUMN name label VARCHAR(10);
ALTER TABLE alt CHANGE qty quantity BIGINT;
ALTER TABLE alt RENAME COLUMN label TO title;
SELECT id, title, quantity FROM alt;
SELECT name FROM alt;
ALTER TABLE alt ADD COLUMN title INT;
ALTER TABLE alt DROP COLUMN nope;
ALTER TABLE alt CHANGE nope other INT;
ALTER TABLE alt ADD COLUMN a1 INT, ADD COLUMN a2 INT, DROP COLUMN price;
SELECT COLUMN_NAME, ORDINAL_POSITION FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'alt';
ALTER TABLE no_such_table ADD COLUMN x INT;
CREATE TABLE one_col (only_col INT);
ALTER TABLE one_col DROP COLUMN only_col;

-- ALTER TABLE: indexes and constraints
ALTER TABLE alt ADD INDEX idx_title (title);
ALTER TABLE alt ADD UNIQUE KEY uq_quantity (quantity);
ALTER TABLE alt ADD CONSTRAINT PRIMARY KEY (id);
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'alt';
SELECT COLUMN_NAME, COLUMN_KEY FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'alt';
ALTER TABLE alt ADD PRIMARY KEY (title);
ALTER TABLE alt ADD INDEX idx_title (quantity);
INSERT INTO alt (id, title, quantity) VALUES (1, 'dup', 99);
INSERT INTO alt (id, title, quantity) VALUES (9, 'dup', 10);
INSERT INTO alt (id, title, quantity) VALUES (4, 'fou', 40);
ALTER TABLE alt ADD CONSTRAINT uq_title UNIQUE (title);
ALTER TABLE alt ADD INDEX idx_a (a1, a2);
ALTER TABLE alt RENAME INDEX idx_a TO idx_a12;
ALTER TABLE alt DROP INDEX idx_title;
DROP INDEX uq_quantity ON alt;
CREATE INDEX idx_q ON alt (quantity);
CREATE UNIQUE INDEX uq_a2 ON alt (a2);
SELECT INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'alt';
ALTER TABLE alt DROP INDEX idx_title;
DROP INDEX no_such_index ON alt;
ALTER TABLE alt DROP PRIMARY KEY;
ALTER TABLE alt DROP PRIMARY KEY;
INSERT INTO alt (id, title, quantity) VALUES (1, 'dup', 99);
SELECT id, title, quantity FROM alt;
-- adding a unique key over duplicate values fails
ALTER TABLE alt ADD UNIQUE KEY uq_id (id);

-- DROP TABLE and DROP TABLE IF EXISTS
DROP TABLE ctas5;
DROP TABLE ctas5;
DROP TABLE IF EXISTS ctas5;
DROP TABLE IF EXISTS ctas4, ctas5;
SELECT * FROM ctas4;
DROP TABLE ctas3, ctas2;
SHOW TABLES LIKE 'ctas%';

-- TRUNCATE TABLE resets AUTO_INCREMENT; DELETE does not
CREATE TABLE counter (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5));
INSERT INTO counter (v) VALUES ('a'), ('b'), ('c');
DELETE FROM counter;
INSERT INTO counter (v) VALUES ('d');
SELECT * FROM counter;
TRUNCATE TABLE counter;
SELECT COUNT(*) FROM counter;
INSERT INTO counter (v) VALUES ('e'), ('f');
SELECT * FROM counter;
TRUNCATE counter;
INSERT INTO counter (id, v) VALUES (50, 'g');
INSERT INTO counter (v) VALUES ('h');
SELECT * FROM counter;
ALTER TABLE counter AUTO_INCREMENT = 100;
INSERT INTO counter (v) VALUES ('i');
SELECT * FROM counter;
TRUNCATE TABLE no_such_table;

-- temporary tables: shadowing a base table of the same name
CREATE TABLE shadow (id INT PRIMARY KEY, v VARCHAR(10));
INSERT INTO shadow VALUES (1, 'base');
CREATE TEMPORARY TABLE shadow (id INT, v VARCHAR(10), extra INT);
INSERT INTO shadow VALUES (2, 'temp', 7), (3, 'temp', 8);
SELECT * FROM shadow;
CREATE TEMPORARY TABLE shadow (id INT);
DROP TABLE shadow;
SELECT * FROM shadow;
CREATE TEMPORARY TABLE shadow (id INT);
INSERT INTO shadow VALUES (5);
DROP TEMPORARY TABLE shadow;
SELECT * FROM shadow;
DROP TEMPORARY TABLE shadow;
DROP TEMPORARY TABLE IF EXISTS shadow;
CREATE TEMPORARY TABLE tmp_like LIKE shadow;
INSERT INTO tmp_like VALUES (1, 'dup ok');
INSERT INTO tmp_like VALUES (1, 'dup');
SELECT * FROM tmp_like;
CREATE TEMPORARY TABLE tmp_sel AS SELECT id, v FROM shadow;
SELECT * FROM tmp_sel;
DROP TEMPORARY TABLE tmp_like, tmp_sel;
SELECT * FROM tmp_sel;
