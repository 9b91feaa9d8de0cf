-- Transactions on one connection: BEGIN / START TRANSACTION / COMMIT / ROLLBACK, autocommit,
-- isolation levels, locking reads, savepoints, errors inside a transaction, implicit
-- commits by DDL, read-only transactions, user variables.

-- setup: accounts
CREATE TABLE acct (
  id INT PRIMARY KEY,
  owner VARCHAR(20) NOT NULL,
  balance DECIMAL(10,2) NOT NULL
);
INSERT INTO acct VALUES (1, 'ann', 100.00), (2, 'bob', 50.00), (3, 'cid', 0.00);
SELECT @@autocommit;

-- BEGIN ... COMMIT makes changes permanent
BEGIN;
UPDATE acct SET balance = balance - 30 WHERE id = 1;
UPDATE acct SET balance = balance + 30 WHERE id = 2;
SELECT * FROM acct;
COMMIT;
SELECT * FROM acct;

-- START TRANSACTION ... ROLLBACK undoes them
START TRANSACTION;
INSERT INTO acct VALUES (4, 'dee', 10.00);
UPDATE acct SET balance = 0 WHERE id = 1;
DELETE FROM acct WHERE id = 3;
SELECT * FROM acct;
ROLLBACK;
SELECT * FROM acct;

-- BEGIN WORK / COMMIT WORK / ROLLBACK WORK
BEGIN WORK;
UPDATE acct SET owner = 'Ann' WHERE id = 1;
COMMIT WORK;
BEGIN WORK;
UPDATE acct SET owner = 'BOB' WHERE id = 2;
ROLLBACK WORK;
SELECT id, owner FROM acct;

-- COMMIT / ROLLBACK with nothing to do
COMMIT;
ROLLBACK;

-- autocommit = 0: changes wait for COMMIT or ROLLBACK
SET autocommit = 0;
SELECT @@autocommit;
INSERT INTO acct VALUES (5, 'eve', 5.00);
SELECT COUNT(*) FROM acct;
ROLLBACK;
SELECT COUNT(*) FROM acct;
INSERT INTO acct VALUES (5, 'eve', 5.00);
COMMIT;
UPDATE acct SET balance = 999 WHERE id = 5;
ROLLBACK;
SELECT balance FROM acct WHERE id = 5;
-- turning autocommit back on commits the open transaction
DELETE FROM acct WHERE id = 5;
SET autocommit = 1;
ROLLBACK;
SELECT COUNT(*) FROM acct WHERE id = 5;
SELECT @@autocommit;

-- isolation levels and access modes can be set between transactions
SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED;
BEGIN;
SELECT balance FROM acct WHERE id = 1;
COMMIT;
SET SESSION TRANSACTION ISOLATION LEVEL READ UNCOMMITTED;
SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE;
SELECT COUNT(*) FROM acct;
SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ;
SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
START TRANSACTION;
SELECT owner FROM acct WHERE id = 2;
COMMIT;
-- but not inside a transaction
BEGIN;
SET TRANSACTION ISOLATION LEVEL SERIALIZABLE;
SET TRANSACTION READ ONLY;
COMMIT;

-- read-only transactions
START TRANSACTION READ ONLY;
SELECT COUNT(*) FROM acct;
INSERT INTO acct VALUES (6, 'fay', 1.00);
UPDATE acct SET balance = 0;
COMMIT;
START TRANSACTION READ WRITE;
INSERT INTO acct VALUES (6, 'fay', 1.00);
COMMIT;
SET SESSION TRANSACTION READ ONLY;
DELETE FROM acct WHERE id = 6;
SET SESSION TRANSACTION READ WRITE;
DELETE FROM acct WHERE id = 6;
START TRANSACTION WITH CONSISTENT SNAPSHOT;
SELECT COUNT(*) FROM acct;
COMMIT;

-- locking reads (one connection: only their results)
BEGIN;
SELECT * FROM acct WHERE id = 1 FOR UPDATE;
SELECT * FROM acct WHERE balance > 10 FOR UPDATE;
SELECT owner FROM acct WHERE id = 2 LOCK IN SHARE MODE;
SELECT * FROM acct WHERE id = 3 FOR UPDATE NOWAIT;
SELECT id FROM acct WHERE id IN (1, 2, 3) ORDER BY id FOR UPDATE SKIP LOCKED;
SELECT * FROM acct WHERE id = 99 FOR UPDATE;
SELECT COUNT(*) FROM acct FOR UPDATE;
UPDATE acct SET balance = balance + 1 WHERE id = 3;
COMMIT;
SELECT balance FROM acct WHERE id = 3;
SELECT owner FROM acct WHERE id = 1 FOR UPDATE;

-- savepoints
BEGIN;
INSERT INTO acct VALUES (10, 'sp1', 1.00);
SAVEPOINT s1;
INSERT INTO acct VALUES (11, 'sp2', 2.00);
SAVEPOINT s2;
INSERT INTO acct VALUES (12, 'sp3', 3.00);
SELECT id FROM acct WHERE id >= 10;
ROLLBACK TO SAVEPOINT s2;
SELECT id FROM acct WHERE id >= 10;
INSERT INTO acct VALUES (13, 'sp4', 4.00);
ROLLBACK TO s1;
SELECT id FROM acct WHERE id >= 10;
ROLLBACK TO SAVEPOINT s2;
SAVEPOINT s3;
UPDATE acct SET balance = 0 WHERE id = 10;
RELEASE SAVEPOINT s3;
ROLLBACK TO SAVEPOINT s3;
ROLLBACK WORK TO SAVEPOINT s1;
SELECT balance FROM acct WHERE id = 10;
COMMIT;
SELECT id, owner FROM acct WHERE id >= 10;
-- a savepoint name reused moves the savepoint
BEGIN;
SAVEPOINT a;
DELETE FROM acct WHERE id = 10;
SAVEPOINT a;
DELETE FROM acct WHERE id = 1;
ROLLBACK TO SAVEPOINT a;
COMMIT;
SELECT id FROM acct;
-- savepoints end with the transaction
ROLLBACK TO SAVEPOINT a;
RELEASE SAVEPOINT a;

-- an error inside a transaction does not abort it
BEGIN;
INSERT INTO acct VALUES (20, 'ok1', 1.00);
INSERT INTO acct VALUES (20, 'dup', 1.00);
INSERT INTO acct VALUES (21, 'ok2', 2.00), (1, 'dup', 0.00);
INSERT INTO acct VALUES (22, 'ok3', 3.00);
UPDATE acct SET nope = 1;
SELECT id FROM acct WHERE id >= 20;
COMMIT;
SELECT id, owner FROM acct WHERE id >= 20;
BEGIN;
UPDATE acct SET balance = balance + 5 WHERE id = 20;
INSERT INTO acct VALUES (23, NULL, 1.00);
ROLLBACK;
SELECT balance FROM acct WHERE id = 20;

-- DDL commits the open transaction
BEGIN;
INSERT INTO acct VALUES (30, 'ddl', 0.00);
CREATE TABLE audit (id INT PRIMARY KEY, what VARCHAR(20));
ROLLBACK;
SELECT id FROM acct WHERE id = 30;
BEGIN;
INSERT INTO audit VALUES (1, 'before alter');
ALTER TABLE audit ADD COLUMN extra INT;
ROLLBACK;
SELECT * FROM audit;
BEGIN;
INSERT INTO audit VALUES (2, 'before truncate', NULL);
TRUNCATE TABLE audit;
ROLLBACK;
SELECT COUNT(*) FROM audit;
CREATE TABLE scratch (a INT);
SET autocommit = 0;
INSERT INTO audit VALUES (3, 'before drop', NULL);
DROP TABLE scratch;
ROLLBACK;
SET autocommit = 1;
SELECT * FROM audit;
-- a new BEGIN commits the open transaction
BEGIN;
INSERT INTO audit VALUES (4, 'first txn', NULL);
BEGIN;
INSERT INTO audit VALUES (5, 'second txn', NULL);
ROLLBACK;
SELECT id FROM audit;
-- COMMIT AND CHAIN starts a new transaction at once
BEGIN;
INSERT INTO audit VALUES (6, 'chained', NULL);
COMMIT AND CHAIN;
INSERT INTO audit VALUES (7, 'rolled back', NULL);
ROLLBACK;
SELECT id FROM audit;

-- auto-increment values are not given back by ROLLBACK
CREATE TABLE seq (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, v VARCHAR(5));
INSERT INTO seq (v) VALUES ('a');
BEGIN;
INSERT INTO seq (v) VALUES ('b');
SELECT LAST_INSERT_ID();
ROLLBACK;
INSERT INTO seq (v) VALUES ('c');
SELECT LAST_INSERT_ID();
SELECT * FROM seq;

-- ROW_COUNT() after changes
BEGIN;
UPDATE acct SET balance = balance + 1 WHERE id >= 20;
SELECT ROW_COUNT();
DELETE FROM acct WHERE id = 22;
SELECT ROW_COUNT();
COMMIT;

-- user variables
SET @a = 1;
SELECT @a;
SET @a = @a + 1, @b = 'two';
SELECT @a, @b, @a * 10 AS times_ten, CONCAT(@b, '!') AS shout;
SET @c := 3;
SELECT @c + @a;
SELECT @never_set;
SELECT @never_set IS NULL AS is_null;
SET @owner = (SELECT owner FROM acct WHERE id = 2);
SELECT @owner;
SELECT * FROM acct WHERE id = @a;
SELECT balance INTO @bal FROM acct WHERE id = 1;
SELECT @bal;
SELECT id, owner INTO @id, @who FROM acct WHERE id = 3;
SELECT @id, @who;
SELECT owner INTO @who FROM acct WHERE id = 999;
SELECT @who;
SELECT owner INTO @who FROM acct;
SET @x = NULL;
SELECT @x;
UPDATE acct SET balance = balance + @a WHERE id = @id;
SELECT balance FROM acct WHERE id = 3;
SET @@session.autocommit = 0;
SET @step = 100;
INSERT INTO acct VALUES (40, 'var', 0.00);
ROLLBACK;
SELECT @step;
SET autocommit = 1;
SELECT COUNT(*) FROM acct WHERE id = 40;
