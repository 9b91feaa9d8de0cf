-- DATE, DATETIME, TIMESTAMP, TIME and YEAR columns (the session time_zone is '+00:00').

-- setup
CREATE TABLE tt (id INT PRIMARY KEY, d DATE, dt DATETIME, ts TIMESTAMP NULL, t TIME, y YEAR);

-- inserts from strings in several accepted formats
INSERT INTO tt VALUES (1, '2024-01-15', '2024-01-15 10:20:30', '2024-01-15 10:20:30', '10:20:30', '2024');
INSERT INTO tt VALUES (2, '2024-1-5', '2024-01-05T08:09:10', '2024/01/05 08:09:10', '8:9:10', '1999');
INSERT INTO tt VALUES (3, '24-02-29', '99-12-31 23:59:59', '2000-01-01 00:00:00', '-12:00:00', '70');
INSERT INTO tt VALUES (4, '20240301', '20240301235959', '2038-01-19 03:14:07', '123456', '0');
INSERT INTO tt VALUES (5, NULL, NULL, NULL, NULL, NULL);
SELECT id, d, dt, ts, t, y FROM tt ORDER BY id;

-- inserts from numbers
INSERT INTO tt VALUES (6, 20240115, 20240115102030, 20240115102030, 102030, 2024);
INSERT INTO tt (id, y) VALUES (7, 24), (8, 69), (9, 0), (10, 1901), (11, 2155);
INSERT INTO tt (id, t) VALUES (12, 5), (13, 130), (14, -10203);
SELECT id, d, dt, ts, t, y FROM tt WHERE id >= 6 ORDER BY id;

-- a datetime string stored into a DATE column loses its time part
INSERT INTO tt (id, d) VALUES (15, '2024-06-30 12:34:56');
SELECT d FROM tt WHERE id = 15;
INSERT INTO tt (id, d) VALUES (16, '2024-06-30 00:00:00');
SELECT d FROM tt WHERE id = 16;

-- invalid dates are errors in strict mode (NO_ZERO_DATE, NO_ZERO_IN_DATE)
INSERT INTO tt (id, d) VALUES (20, '2024-02-30');
INSERT INTO tt (id, d) VALUES (20, '2023-02-29');
INSERT INTO tt (id, d) VALUES (20, '2024-13-01');
INSERT INTO tt (id, d) VALUES (20, '0000-00-00');
INSERT INTO tt (id, d) VALUES (20, '2024-00-15');
INSERT INTO tt (id, d) VALUES (20, '2024-05-00');
INSERT INTO tt (id, d) VALUES (20, 'not a date');
INSERT INTO tt (id, dt) VALUES (20, '2024-01-15 24:00:00');
INSERT INTO tt (id, t) VALUES (20, '10:61:00');
INSERT INTO tt (id, y) VALUES (20, 1900);
INSERT INTO tt (id, y) VALUES (20, 2156);
INSERT INTO tt (id, ts) VALUES (20, '2038-01-19 03:14:08');
INSERT INTO tt (id, ts) VALUES (20, '1969-12-31 23:59:59');
SELECT COUNT(*) AS n FROM tt WHERE id = 20;

-- INSERT IGNORE turns an out-of-range YEAR into 0000 with a warning
INSERT IGNORE INTO tt (id, y) VALUES (21, 1850);
SELECT id, y FROM tt WHERE id = 21;
DELETE FROM tt WHERE id = 21;

-- UPDATE to an invalid date is an error too
UPDATE tt SET d = '2024-04-31' WHERE id = 1;
SELECT d FROM tt WHERE id = 1;

-- fractional seconds at the column's precision
CREATE TABLE tf (id INT PRIMARY KEY, dt0 DATETIME(0), dt3 DATETIME(3), dt6 DATETIME(6), ts2 TIMESTAMP(2) NULL, t1 TIME(1), t6 TIME(6));
INSERT INTO tf VALUES (1, '2024-01-15 10:20:30', '2024-01-15 10:20:30.123', '2024-01-15 10:20:30.123456', '2024-01-15 10:20:30.12', '10:20:30.5', '10:20:30.000001');
INSERT INTO tf VALUES (2, '2024-01-15 10:20:30', '2024-01-15 10:20:30.1', '2024-01-15 10:20:30.5', '2024-01-15 10:20:30.9', '-10:20:30.5', '838:59:59.000000');
INSERT INTO tf VALUES (3, '2024-01-15 10:20:31', '2024-01-15 10:20:30', '2024-01-15 10:20:30', '2024-01-15 10:20:30', '00:00:00', '-838:59:59');
SELECT id, dt0, dt3, dt6, ts2, t1, t6 FROM tf ORDER BY id;
SELECT id, MICROSECOND(dt3) AS m3, MICROSECOND(dt6) AS m6, MICROSECOND(t1) AS mt FROM tf ORDER BY id;
SELECT id FROM tf ORDER BY dt6, id;
SELECT id FROM tf WHERE dt3 = '2024-01-15 10:20:30.1';
SELECT id FROM tf WHERE dt6 > '2024-01-15 10:20:30.4';
SELECT a.id AS x, b.id AS y FROM tf a JOIN tf b ON a.dt0 = b.dt0 AND a.id < b.id;
SELECT id, CONCAT(dt3) AS c3, LENGTH(dt6) AS l6, CONCAT(t1, '|') AS ct, CAST(dt3 AS CHAR) AS k, UPPER(ts2) AS u, CONCAT(dt0) AS c0 FROM tf ORDER BY id;

-- comparisons between temporal columns and with strings
SELECT id FROM tt WHERE d = '2024-01-15';
SELECT id FROM tt WHERE d BETWEEN '2024-01-01' AND '2024-02-29';
SELECT id FROM tt WHERE dt > '2024-01-05 08:09:09' AND dt < '2024-02-01';
SELECT id FROM tt WHERE dt = d;
SELECT id FROM tt WHERE DATE(dt) = d;
SELECT id FROM tt WHERE t > '10:00:00';
SELECT id FROM tt WHERE t < 0;
SELECT id FROM tt WHERE y = 2024;
SELECT id FROM tt WHERE y < 2000;
SELECT id FROM tt WHERE ts = dt;

-- ordering temporal columns (NULLs first when ascending)
SELECT id, d FROM tt WHERE id <= 6 ORDER BY d, id;
SELECT id, t FROM tt WHERE t IS NOT NULL ORDER BY t DESC, id;
SELECT id, y FROM tt WHERE y IS NOT NULL ORDER BY y, id;

-- arithmetic on temporal columns
SELECT id, d + INTERVAL 1 DAY AS d1, dt - INTERVAL 30 MINUTE AS dt1, DATEDIFF(dt, d) AS dd, TIMEDIFF(t, '01:00:00') AS td FROM tt WHERE id <= 4 ORDER BY id;
SELECT id, d + 0 AS dn, dt + 0 AS dtn, t + 0 AS tn, y + 0 AS yn FROM tt WHERE id IN (1, 3) ORDER BY id;
SELECT id, dt3 + 0 AS n3, t1 + 0 AS tn FROM tf WHERE id = 1;
SELECT MIN(d) AS mn, MAX(d) AS mx, MIN(dt) AS mndt, MAX(t) AS mxt, MAX(y) AS mxy, COUNT(ts) AS nts FROM tt;

-- TIMESTAMP values are stored in UTC and shown in the session time zone; DATETIME values are not converted
SET time_zone = '+05:30';
SELECT id, dt, ts FROM tt WHERE id IN (1, 3, 4) ORDER BY id;
INSERT INTO tt (id, dt, ts) VALUES (30, '2024-07-01 09:00:00', '2024-07-01 09:00:00');
SELECT id, dt, ts, ts = dt AS same FROM tt WHERE id = 30;
SELECT id FROM tt WHERE ts = '2024-01-15 15:50:30';
SET time_zone = '+00:00';
SELECT id, dt, ts, ts = dt AS same FROM tt WHERE id IN (1, 30) ORDER BY id;
SELECT id FROM tt WHERE ts = '2024-07-01 03:30:00';
SET time_zone = '-10:00';
SELECT id, ts FROM tt WHERE id IN (1, 30) ORDER BY id;
SELECT id, ts FROM tt WHERE ts < '2000-01-01' ORDER BY id;
-- the TIMESTAMP range depends on the session time zone
INSERT INTO tt (id, ts) VALUES (31, '1969-12-31 15:00:00');
SELECT id, ts FROM tt WHERE id = 31;
SET time_zone = '+00:00';
SELECT id, ts FROM tt WHERE id = 31;

-- TIMESTAMP(6) with fractions through a time zone change
CREATE TABLE tz6 (id INT PRIMARY KEY, ts TIMESTAMP(6) NULL, dt DATETIME(6));
INSERT INTO tz6 VALUES (1, '2024-03-10 23:30:00.250000', '2024-03-10 23:30:00.250000');
SET time_zone = '+01:00';
SELECT id, ts, dt FROM tz6;
SET time_zone = '+00:00';

-- automatic initialization and update of TIMESTAMP / DATETIME columns
CREATE TABLE tauto (id INT PRIMARY KEY, v INT, created TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, changed DATETIME DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, fixed DATETIME DEFAULT '2000-01-01 00:00:00');
INSERT INTO tauto (id, v) VALUES (1, 1);
SELECT id, created > '2020-01-01' AS c, changed > '2020-01-01' AS ch, fixed FROM tauto;
UPDATE tauto SET changed = '2001-01-01 00:00:00' WHERE id = 1;
SELECT changed FROM tauto WHERE id = 1;
UPDATE tauto SET v = 2 WHERE id = 1;
SELECT changed > '2020-01-01' AS ch FROM tauto WHERE id = 1;
