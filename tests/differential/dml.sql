-- DML: INSERT, INSERT ... SELECT, INSERT IGNORE, REPLACE, ON DUPLICATE KEY UPDATE,
-- UPDATE and DELETE (single- and multi-table), affected-row counts, AUTO_INCREMENT, errors.

-- setup
CREATE TABLE acct (
  id INT PRIMARY KEY,
  owner VARCHAR(10) NOT NULL,
  balance DECIMAL(8,2) NOT NULL DEFAULT 0.00,
  tier INT DEFAULT 1,
  note VARCHAR(10)
);

-- INSERT with a column list, multi-row VALUES, DEFAULT
INSERT INTO acct (id, owner, balance) VALUES (1, 'ann', 100.00);
INSERT INTO acct (id, owner) VALUES (2, 'ben'), (3, 'cat');
INSERT INTO acct (owner, id, balance, tier) VALUES ('dan', 4, 55.50, DEFAULT);
INSERT INTO acct VALUES (5, 'eve', DEFAULT, 3, 'vip');
INSERT INTO acct (id, owner, balance, tier, note) VALUES (6, 'fay', 10.00, NULL, DEFAULT), (7, 'gus', 20.00, 2, 'x');
INSERT INTO acct SET id = 8, owner = 'hal', balance = 5.25;
INSERT INTO acct (id, owner, tier) VALUES (9, 'ivy', DEFAULT(tier) + 4);
SELECT id, owner, balance, tier, note FROM acct;

-- INSERT errors
INSERT INTO acct (id, owner) VALUES (1, 'dup');
INSERT INTO acct (id, owner) VALUES (10, 'ok'), (2, 'dup');
SELECT COUNT(*) AS n FROM acct;
INSERT INTO acct (id, owner) VALUES (11, NULL);
INSERT INTO acct (id) VALUES (12);
INSERT INTO acct (id, owner) VALUES (13);
INSERT INTO acct (id, owner) VALUES (13, 'a', 1.00);
INSERT INTO acct VALUES (13, 'x');
INSERT INTO acct (id, nosuch) VALUES (14, 1);
INSERT INTO acct (id, owner) VALUES (15, 'much too long for ten');
INSERT INTO acct (id, owner, balance) VALUES (16, 'big', 1000000.00);
INSERT INTO acct (id, owner, balance) VALUES (17, 'bad', 'abc');
UPDATE acct SET owner = NULL WHERE id = 1;
UPDATE acct SET id = 2 WHERE id = 1;
UPDATE acct SET nosuch = 1;
SELECT COUNT(*) AS n, SUM(balance) AS total FROM acct;

-- INSERT IGNORE turns errors into warnings
INSERT IGNORE INTO acct (id, owner) VALUES (1, 'dup'), (20, 'new');
INSERT IGNORE INTO acct (id, owner) VALUES (21, NULL);
INSERT IGNORE INTO acct (id, owner) VALUES (1, 'a'), (2, 'b');
SELECT id, owner, balance FROM acct WHERE id >= 20;

-- UPDATE with expressions; affected rows count only rows that changed
UPDATE acct SET balance = balance + 10 WHERE id <= 3;
UPDATE acct SET tier = 1 WHERE tier = 1;
UPDATE acct SET tier = tier + 1 WHERE tier IS NULL;
UPDATE acct SET note = CONCAT(owner, '!') WHERE note IS NULL AND balance > 50;
UPDATE acct SET balance = balance * 2, note = 'doubled' WHERE owner IN ('gus', 'hal');
UPDATE acct SET balance = 0 WHERE id = 999;
SELECT id, owner, balance, tier, note FROM acct;

-- assignments in an UPDATE see the values already assigned to the left
UPDATE acct SET tier = tier + 10, balance = tier WHERE id = 5;
SELECT id, tier, balance FROM acct WHERE id = 5;

-- UPDATE / DELETE with ORDER BY ... LIMIT
UPDATE acct SET note = 'top2' ORDER BY balance DESC, id LIMIT 2;
SELECT id, note FROM acct WHERE note = 'top2';
UPDATE acct SET tier = 0 WHERE tier > 1 ORDER BY id DESC LIMIT 1;
DELETE FROM acct WHERE id >= 20 ORDER BY id LIMIT 1;
DELETE FROM acct ORDER BY balance, id LIMIT 2;
SELECT id, owner, balance, tier, note FROM acct;

-- UPDATE of a unique key done in an order that avoids collisions
CREATE TABLE seq (id INT PRIMARY KEY, n INT NOT NULL, UNIQUE KEY (n));
INSERT INTO seq VALUES (1, 1), (2, 2), (3, 3), (4, 4);
UPDATE seq SET n = n + 1 ORDER BY n DESC;
SELECT id, n FROM seq;
UPDATE seq SET n = 3 WHERE id = 1;
SELECT id, n FROM seq;

-- REPLACE: 1 affected row for a new key, 2 for a replaced row
CREATE TABLE kv (k VARCHAR(10) PRIMARY KEY, v INT, hits INT NOT NULL DEFAULT 0);
REPLACE INTO kv (k, v) VALUES ('a', 1);
REPLACE INTO kv (k, v) VALUES ('a', 2);
REPLACE INTO kv (k, v) VALUES ('b', 1), ('c', 1), ('b', 5);
REPLACE INTO kv SET k = 'd', v = 9, hits = 4;
SELECT k, v, hits FROM kv;

-- REPLACE that collides with two rows through two unique keys
CREATE TABLE uu (id INT PRIMARY KEY, code VARCHAR(5) NOT NULL, val INT, UNIQUE KEY (code));
INSERT INTO uu VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30);
REPLACE INTO uu VALUES (1, 'b', 99);
SELECT id, code, val FROM uu;

-- INSERT ... ON DUPLICATE KEY UPDATE: 1 per insert, 2 per update, 0 when nothing changes
INSERT INTO kv (k, v) VALUES ('e', 1) ON DUPLICATE KEY UPDATE hits = hits + 1;
INSERT INTO kv (k, v) VALUES ('e', 1) ON DUPLICATE KEY UPDATE hits = hits + 1;
INSERT INTO kv (k, v) VALUES ('e', 1) ON DUPLICATE KEY UPDATE v = 1;
INSERT INTO kv (k, v) VALUES ('a', 7), ('f', 3), ('e', 2) ON DUPLICATE KEY UPDATE hits = hits + 10, v = v + 100;
INSERT INTO kv (k, v) VALUES ('a', 0) ON DUPLICATE KEY UPDATE v = v * 2, hits = v;
SELECT k, v, hits FROM kv;
INSERT INTO uu VALUES (4, 'c', 1) ON DUPLICATE KEY UPDATE val = val + 1;
INSERT INTO uu VALUES (9, 'z', 1) ON DUPLICATE KEY UPDATE val = val + 1;
INSERT INTO uu VALUES (9, 'c', 1) ON DUPLICATE KEY UPDATE val = val + 5;
SELECT id, code, val FROM uu;
INSERT INTO uu VALUES (3, 'q', 1) ON DUPLICATE KEY UPDATE code = 'z';

-- INSERT ... SELECT, including joins and aggregates
CREATE TABLE summary (owner VARCHAR(10) PRIMARY KEY, total DECIMAL(10,2), cnt INT);
INSERT INTO summary SELECT owner, balance, 1 FROM acct WHERE balance > 50;
INSERT INTO summary (owner, total, cnt) SELECT 'all', SUM(balance), COUNT(*) FROM acct;
INSERT INTO summary (owner, total, cnt) SELECT CONCAT('t', tier), SUM(balance), COUNT(*) FROM acct WHERE tier IS NOT NULL GROUP BY tier;
INSERT INTO summary (owner, total, cnt) SELECT CONCAT('k:', kv.k), kv.v, uu.val FROM kv JOIN uu ON uu.id = kv.v;
INSERT INTO summary (owner, total, cnt) SELECT owner, balance, 1 FROM acct WHERE id = 999;
INSERT INTO summary SELECT owner, balance, 1 FROM acct;
INSERT IGNORE INTO summary SELECT owner, balance, 2 FROM acct;
INSERT INTO summary (owner, total) SELECT owner FROM acct;
SELECT owner, total, cnt FROM summary;
INSERT INTO summary (owner, total, cnt) SELECT 'dup', 1, 1 FROM acct WHERE id < 4
  ON DUPLICATE KEY UPDATE cnt = cnt + 1;
SELECT owner, total, cnt FROM summary WHERE owner = 'dup';

-- multi-table UPDATE
CREATE TABLE price (sku INT PRIMARY KEY, amount DECIMAL(6,2), currency VARCHAR(3));
CREATE TABLE adj (sku INT PRIMARY KEY, delta DECIMAL(6,2), flag INT DEFAULT 0);
INSERT INTO price VALUES (1, 10.00, 'EUR'), (2, 20.00, 'EUR'), (3, 30.00, 'USD'), (4, 40.00, 'USD');
INSERT INTO adj VALUES (1, 1.50, 0), (3, -5.00, 0), (5, 9.99, 0);
UPDATE price p JOIN adj a ON a.sku = p.sku SET p.amount = p.amount + a.delta;
SELECT sku, amount, currency FROM price;
UPDATE price, adj SET price.amount = price.amount * 2 WHERE price.sku = adj.sku AND adj.delta > 0;
SELECT sku, amount FROM price;
UPDATE price p JOIN adj a ON a.sku = p.sku SET p.currency = 'GBP', a.flag = 1;
SELECT sku, amount, currency FROM price;
SELECT sku, delta, flag FROM adj;
UPDATE price p LEFT JOIN adj a ON a.sku = p.sku SET p.amount = 0 WHERE a.sku IS NULL;
SELECT sku, amount FROM price;
UPDATE price p JOIN adj a ON a.sku = p.sku SET p.amount = p.amount WHERE p.sku = 1;

-- multi-table DELETE
CREATE TABLE parent (id INT PRIMARY KEY, name VARCHAR(10));
CREATE TABLE child (id INT PRIMARY KEY, parent_id INT, tag VARCHAR(10));
INSERT INTO parent VALUES (1, 'p1'), (2, 'p2'), (3, 'p3'), (4, 'p4');
INSERT INTO child VALUES (10, 1, 'a'), (11, 1, 'b'), (12, 2, 'a'), (13, 3, 'c'), (14, 9, 'z'), (15, 4, 'a');
DELETE c FROM child c JOIN parent p ON p.id = c.parent_id WHERE p.name = 'p1';
SELECT id, parent_id, tag FROM child;
DELETE FROM c USING child AS c LEFT JOIN parent AS p ON p.id = c.parent_id WHERE p.id IS NULL;
SELECT id, parent_id, tag FROM child;
DELETE p, c FROM parent p JOIN child c ON c.parent_id = p.id WHERE c.tag = 'a';
SELECT id, name FROM parent;
SELECT id, parent_id, tag FROM child;
DELETE parent FROM parent, child WHERE parent.id = child.parent_id AND child.tag = 'none';
DELETE child FROM child JOIN parent ON parent.id = child.parent_id;
SELECT COUNT(*) AS n FROM child;
DELETE FROM parent;
SELECT COUNT(*) AS n FROM parent;

-- AUTO_INCREMENT and LAST_INSERT_ID()
CREATE TABLE ai (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10) NOT NULL, UNIQUE KEY (name));
INSERT INTO ai (name) VALUES ('a');
SELECT LAST_INSERT_ID() AS lid;
INSERT INTO ai (name) VALUES ('b'), ('c'), ('d');
SELECT LAST_INSERT_ID() AS lid;
SELECT id, name FROM ai;
INSERT INTO ai (id, name) VALUES (10, 'j');
SELECT LAST_INSERT_ID() AS lid;
INSERT INTO ai (name) VALUES ('k');
SELECT LAST_INSERT_ID() AS lid;
INSERT INTO ai (id, name) VALUES (NULL, 'l');
INSERT INTO ai (id, name) VALUES (0, 'm');
SELECT LAST_INSERT_ID() AS lid;
SELECT id, name FROM ai;
INSERT INTO ai (id, name) VALUES (5, 'e');
INSERT INTO ai (name) VALUES ('n');
SELECT id, name FROM ai;
DELETE FROM ai WHERE id >= 13;
INSERT INTO ai (name) VALUES ('o');
SELECT id, name FROM ai WHERE name = 'o';
UPDATE ai SET id = LAST_INSERT_ID(id + 100) WHERE name = 'a';
SELECT LAST_INSERT_ID() AS lid;
SELECT LAST_INSERT_ID(42) AS set_lid;
SELECT LAST_INSERT_ID() AS lid;
SELECT id, name FROM ai;

-- AUTO_INCREMENT with INSERT ... SELECT
CREATE TABLE ai2 (id INT AUTO_INCREMENT PRIMARY KEY, src INT, name VARCHAR(10));
INSERT INTO ai2 (src, name) SELECT id, name FROM ai WHERE id < 10 ORDER BY id;
SELECT LAST_INSERT_ID() AS lid;
SELECT id, src, name FROM ai2;

-- DEFAULT values and NOT NULL columns
CREATE TABLE defs (
  id INT PRIMARY KEY,
  a INT NOT NULL,
  b INT NOT NULL DEFAULT 7,
  c VARCHAR(5) DEFAULT 'x',
  d DECIMAL(4,1)
);
INSERT INTO defs (id, a) VALUES (1, 1);
INSERT INTO defs (id, a, b, c, d) VALUES (2, 2, DEFAULT, DEFAULT, DEFAULT);
INSERT INTO defs (id, b) VALUES (3, 3);
INSERT INTO defs (id, a, b) VALUES (3, 3, NULL);
INSERT INTO defs VALUES (3, 3, 3, NULL, 1.5);
UPDATE defs SET b = DEFAULT, c = DEFAULT WHERE id = 3;
UPDATE defs SET a = NULL WHERE id = 1;
SELECT id, a, b, c, d FROM defs;

-- transactions make DML visible or undo it
START TRANSACTION;
INSERT INTO defs (id, a) VALUES (4, 4);
UPDATE defs SET a = a + 100;
SELECT id, a FROM defs;
ROLLBACK;
SELECT id, a FROM defs;
START TRANSACTION;
DELETE FROM defs WHERE id = 1;
COMMIT;
SELECT id, a FROM defs;

-- division by zero in a written value: an error in strict mode, a warning with IGNORE
-- (UPDATE IGNORE's duplicate keys are kept out: MySQL warns 1062 per skipped row,
-- MariaDB 10.11 does not)
CREATE TABLE ui (id INT PRIMARY KEY, u INT UNIQUE, v INT);
INSERT INTO ui VALUES (1, 1, 0), (2, 2, 0), (3, 3, 0);
UPDATE ui SET u = 2 WHERE id = 1;
UPDATE ui a JOIN ui b ON b.id = a.id SET a.v = 1 / 0;
UPDATE IGNORE ui a JOIN ui b ON b.id = a.id SET a.v = 1 / 0 WHERE a.id = 3;
SELECT id, u, v FROM ui ORDER BY id;
INSERT INTO ui VALUES (4, 4, 1 DIV 0);
INSERT INTO ui (id, u, v) VALUES (4, 4, 0) ON DUPLICATE KEY UPDATE v = 1 / 0;
INSERT INTO ui (id, u, v) VALUES (3, 9, 0) ON DUPLICATE KEY UPDATE v = 1 / 0;
SELECT id, u, v FROM ui ORDER BY id;
