#!/usr/bin/env python3
"""PyMySQL against a MySQL-compatible server (run by tests/python_clients.rs).

Usage: test_pymysql.py --port N [--host 127.0.0.1]

No pytest: every check is a plain function with asserts; the script runs them all, prints
one line per check, and exits 1 if any failed (with the traceback). User root, empty
password. PyMySQL substitutes parameters on the client side, so everything here goes over
COM_QUERY (plus COM_INIT_DB, COM_PING, COM_QUIT).
"""

import argparse
import datetime
import decimal
import os
import sys
import traceback

import pymysql
import pymysql.cursors
from pymysql.constants import CLIENT, FIELD_TYPE

ARGS = None
DB = "pymysql_test"


def connect(**kw):
    params = dict(host=ARGS.host, port=ARGS.port, user="root", password="", charset="utf8mb4",
                  connect_timeout=10, read_timeout=120, write_timeout=120)
    params.update(kw)
    return pymysql.connect(**params)


def db_connect(**kw):
    return connect(database=DB, **kw)


def expect_error(exc_class, code, fn):
    try:
        fn()
    except exc_class as e:
        assert e.args[0] == code, f"expected error {code}, got {e.args!r}"
        return e
    except Exception as e:  # noqa: BLE001 - report the wrong class precisely
        raise AssertionError(f"expected {exc_class.__name__}({code}), got {type(e).__name__}{e.args!r}")
    raise AssertionError(f"expected {exc_class.__name__}({code}), but no error")


# --------------------------------------------------------------------------------------


def check_connect_and_server_info():
    conn = connect()
    assert conn.open
    assert conn.get_server_info(), "empty server version"
    assert conn.thread_id() > 0
    conn.ping(reconnect=False)
    with conn.cursor() as cur:
        cur.execute("SELECT 1 + 1")
        assert cur.fetchone() == (2,)
        cur.execute("SELECT VERSION()")
        (version,) = cur.fetchone()
        # The handshake may carry a prefix (MariaDB sends "5.5.5-<version>") or a suffix
        # (Quire appends "-maria-protocol" so that MariaDB's clients use their extensions).
        assert version in conn.get_server_info(), (version, conn.get_server_info())
    conn.close()
    assert not conn.open


def check_ddl_and_select_db():
    conn = connect(autocommit=True)
    with conn.cursor() as cur:
        cur.execute(f"DROP DATABASE IF EXISTS {DB}")
        cur.execute(f"CREATE DATABASE {DB}")
    conn.select_db(DB)  # COM_INIT_DB
    with conn.cursor() as cur:
        cur.execute("SELECT DATABASE()")
        assert cur.fetchone() == (DB,)
        cur.execute("CREATE TABLE people (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(40) NOT NULL,"
                    " email VARCHAR(60) UNIQUE, age INT)")
        cur.execute("SHOW TABLES")
        assert cur.fetchall() == (("people",),)
        cur.execute("ALTER TABLE people ADD INDEX k_age (age)")
        cur.execute("CREATE TABLE tmp (a INT)")
        cur.execute("DROP TABLE tmp")
    expect_error(pymysql.err.OperationalError, 1049, lambda: conn.select_db("no_such_db"))
    conn.close()


def check_dml_rowcount_lastrowid():
    conn = db_connect(autocommit=True)
    with conn.cursor() as cur:
        n = cur.execute("INSERT INTO people (name, email, age) VALUES ('Ann', 'ann@x', 31)")
        assert n == 1 and cur.rowcount == 1
        first = cur.lastrowid
        assert first >= 1
        cur.execute("INSERT INTO people (name, email, age) VALUES ('Bob', 'bob@x', 25), ('Cy', NULL, NULL)")
        assert cur.rowcount == 2
        assert cur.lastrowid == first + 1, "lastrowid of a multi-row insert is its first id"
        n = cur.execute("UPDATE people SET age = age + 1 WHERE age IS NOT NULL")
        assert n == 2
        n = cur.execute("UPDATE people SET age = age WHERE name = 'Ann'")
        assert n == 0, "unchanged rows are not affected rows"
        cur.execute("SELECT name, age FROM people ORDER BY id")
        assert cur.fetchall() == (("Ann", 32), ("Bob", 26), ("Cy", None))
        assert cur.rowcount == 3
        n = cur.execute("DELETE FROM people WHERE name = 'Cy'")
        assert n == 1
        cur.execute("SELECT COUNT(*) FROM people")
        assert cur.fetchone() == (2,)
    conn.close()


def check_parameters():
    conn = db_connect(autocommit=True)
    with conn.cursor() as cur:
        tricky = ["it's", 'say "hi"', "back\\slash", "'; DROP TABLE people; --", "tab\tnew\nline", "\x00nul"]
        for s in tricky:
            cur.execute("SELECT %s", (s,))
            assert cur.fetchone() == (s,), repr(s)
        cur.execute("SELECT %(a)s + %(b)s, %(a)s", {"a": 40, "b": 2})
        assert cur.fetchone() == (42, 40)
        cur.execute("SELECT name FROM people WHERE age > %s AND name LIKE %s ORDER BY id", (20, "%n%"))
        assert cur.fetchall() == (("Ann",),)
        cur.execute("SELECT COUNT(*) FROM people WHERE id IN %s", ((1, 2, 3),))
        assert cur.fetchone()[0] >= 1
        cur.execute("SELECT %s IS NULL, %s", (None, True))
        assert cur.fetchone() == (1, 1)
        cur.execute("SELECT COUNT(*) FROM people")
        assert cur.fetchone() == (2,), "the injection attempt must have been a string"
    conn.close()


def check_executemany():
    conn = db_connect(autocommit=True)
    with conn.cursor() as cur:
        cur.execute("CREATE TABLE many (id INT PRIMARY KEY, v VARCHAR(20))")
        rows = [(i, f"value {i}") for i in range(1, 1001)]
        n = cur.executemany("INSERT INTO many (id, v) VALUES (%s, %s)", rows)
        assert n == 1000, n
        cur.execute("SELECT COUNT(*), SUM(id), MAX(v) FROM many")
        assert cur.fetchone() == (1000, 500500, "value 999")
        n = cur.executemany("UPDATE many SET v = %s WHERE id = %s", [("x", 1), ("y", 2), ("z", 3)])
        assert n == 3, n
        expect_error(pymysql.err.IntegrityError, 1062,
                     lambda: cur.executemany("INSERT INTO many VALUES (%s, %s)", [(5000, "a"), (1, "dup")]))
        cur.execute("SELECT COUNT(*) FROM many")
        assert cur.fetchone() == (1000,), "a failed multi-row insert inserts nothing"
    conn.close()


def check_transactions():
    a = db_connect()  # PyMySQL default: autocommit off
    b = db_connect(autocommit=True)
    ca, cb = a.cursor(), b.cursor()
    ca.execute("CREATE TABLE acct (id INT PRIMARY KEY, bal INT)")  # DDL commits
    ca.execute("INSERT INTO acct VALUES (1, 100), (2, 0)")
    cb.execute("SELECT COUNT(*) FROM acct")
    assert cb.fetchone() == (0,), "uncommitted rows are invisible"
    a.commit()
    cb.execute("SELECT COUNT(*) FROM acct")
    assert cb.fetchone() == (2,)
    ca.execute("UPDATE acct SET bal = bal - 10 WHERE id = 1")
    ca.execute("UPDATE acct SET bal = bal + 10 WHERE id = 2")
    a.rollback()
    cb.execute("SELECT bal FROM acct ORDER BY id")
    assert cb.fetchall() == ((100,), (0,))
    ca.execute("SELECT bal FROM acct ORDER BY id")
    assert ca.fetchall() == ((100,), (0,)), "rollback undid the session's own changes"
    a.commit()
    # autocommit on: each statement is durable at once.
    a.autocommit(True)
    assert a.get_autocommit()
    ca.execute("UPDATE acct SET bal = 1 WHERE id = 2")
    cb.execute("SELECT bal FROM acct WHERE id = 2")
    assert cb.fetchone() == (1,)
    # begin() starts a transaction even with autocommit on.
    a.begin()
    ca.execute("UPDATE acct SET bal = 2 WHERE id = 2")
    cb.execute("SELECT bal FROM acct WHERE id = 2")
    assert cb.fetchone() == (1,)
    a.commit()
    cb.execute("SELECT bal FROM acct WHERE id = 2")
    assert cb.fetchone() == (2,)
    # Closing a connection with an open transaction rolls it back.
    a.autocommit(False)
    ca.execute("UPDATE acct SET bal = 999 WHERE id = 1")
    a.close()
    cb.execute("SELECT bal FROM acct WHERE id = 1")
    assert cb.fetchone() == (100,)
    b.close()


def check_errors():
    conn = db_connect(autocommit=True)
    cur = conn.cursor()
    expect_error(pymysql.err.IntegrityError, 1062,
                 lambda: cur.execute("INSERT INTO people (id, name) VALUES (1, 'dup')"))
    expect_error(pymysql.err.ProgrammingError, 1064, lambda: cur.execute("SELEC 1"))
    expect_error(pymysql.err.ProgrammingError, 1146, lambda: cur.execute("SELECT * FROM no_such_table"))
    expect_error(pymysql.err.OperationalError, 1054, lambda: cur.execute("SELECT no_such_col FROM people"))
    expect_error(pymysql.err.IntegrityError, 1048,
                 lambda: cur.execute("INSERT INTO people (name) VALUES (NULL)"))
    expect_error(pymysql.err.DataError, 1406,
                 lambda: cur.execute("INSERT INTO people (name) VALUES (%s)", ("x" * 41,)))
    # The connection is still usable after errors.
    cur.execute("SELECT 'ok'")
    assert cur.fetchone() == ("ok",)
    conn.close()
    e = expect_error(pymysql.err.OperationalError, 1045, lambda: connect(password="wrong password"))
    assert "Access denied" in e.args[1], e.args
    expect_error(pymysql.err.OperationalError, 1049, lambda: connect(database="no_such_db"))


def check_type_round_trip():
    conn = db_connect(autocommit=True)
    cur = conn.cursor()
    cur.execute("""CREATE TABLE types (
        id INT PRIMARY KEY, i INT, bi BIGINT, bu BIGINT UNSIGNED, ti TINYINT,
        d DECIMAL(20,6), f FLOAT, db DOUBLE,
        dt DATETIME(6), da DATE, tm TIME(3), ts TIMESTAMP(6) NULL,
        s VARCHAR(100), t TEXT, b VARBINARY(64), bl BLOB, yr YEAR)""")
    values = (
        1, -2147483648, -9223372036854775808, 18446744073709551615, 127,
        decimal.Decimal("12345678901234.123456"), 1.5, 2.718281828459045,
        datetime.datetime(2024, 2, 29, 23, 59, 58, 123456), datetime.date(1999, 12, 31),
        # (PyMySQL 1.0 formats negative timedeltas wrongly, so a positive TIME.)
        datetime.timedelta(hours=100, minutes=2, seconds=3, milliseconds=456),
        datetime.datetime(2038, 1, 19, 3, 14, 7, 999999),
        "héllo wörld ✓ 😀 日本", "x" * 5000, bytes(range(64)), b"\x00\xff" * 1000, 2155,
    )
    cur.execute("SET time_zone = '+00:00'")
    cur.execute("INSERT INTO types VALUES (" + ", ".join(["%s"] * len(values)) + ")", values)
    cur.execute("INSERT INTO types (id) VALUES (2)")
    cur.execute("SELECT * FROM types ORDER BY id")
    got = cur.fetchall()
    assert got[0] == values, "\n".join(f"{w!r} != {g!r}" for w, g in zip(values, got[0]) if w != g)
    assert got[1] == (2,) + (None,) * (len(values) - 1)
    # Python-side types.
    row = got[0]
    assert isinstance(row[5], decimal.Decimal) and isinstance(row[6], float)
    assert isinstance(row[8], datetime.datetime) and row[8].microsecond == 123456
    assert isinstance(row[9], datetime.date) and isinstance(row[10], datetime.timedelta)
    assert isinstance(row[14], bytes) and isinstance(row[12], str)
    # Emoji need utf8mb4 end to end.
    cur.execute("SELECT CHAR_LENGTH(s), LENGTH(s) FROM types WHERE id = 1")
    assert cur.fetchone() == (len(values[12]), len(values[12].encode())), "stored as utf8mb4"
    assert len(values[12]) != len(values[12].encode())
    cur.execute("SELECT %s", ("🦀",))
    assert cur.fetchone() == ("🦀",)
    conn.close()


def check_cursor_description():
    conn = db_connect(autocommit=True)
    cur = conn.cursor()
    cur.execute("SELECT i, bi, d, db, dt, da, tm, s, t, b FROM types WHERE id = 1")
    names = [c[0] for c in cur.description]
    assert names == ["i", "bi", "d", "db", "dt", "da", "tm", "s", "t", "b"], names
    codes = [c[1] for c in cur.description]
    expected = [FIELD_TYPE.LONG, FIELD_TYPE.LONGLONG, FIELD_TYPE.NEWDECIMAL, FIELD_TYPE.DOUBLE,
                FIELD_TYPE.DATETIME, FIELD_TYPE.DATE, FIELD_TYPE.TIME, FIELD_TYPE.VAR_STRING,
                FIELD_TYPE.BLOB, FIELD_TYPE.VAR_STRING]
    assert codes == expected, (codes, expected)
    # null_ok (7th field) follows NOT NULL; the id column is NOT NULL.
    cur.execute("SELECT id, i FROM types LIMIT 1")
    assert cur.description[0][6] is False and cur.description[1][6] is True, cur.description
    cur.execute("SELECT 1 AS one, 'x' AS ex, NULL AS nothing, 1.5 AS dec_lit")
    assert [c[0] for c in cur.description] == ["one", "ex", "nothing", "dec_lit"]
    assert cur.description[0][1] in (FIELD_TYPE.LONG, FIELD_TYPE.LONGLONG)
    assert cur.description[3][1] == FIELD_TYPE.NEWDECIMAL
    # A statement without a result set has no description.
    cur.execute("DO 1")
    assert cur.description is None
    conn.close()


def check_dict_and_streaming_cursors():
    conn = db_connect(autocommit=True, cursorclass=pymysql.cursors.DictCursor)
    with conn.cursor() as cur:
        cur.execute("SELECT id, v FROM many WHERE id <= 2 ORDER BY id")
        assert cur.fetchall() == [{"id": 1, "v": "x"}, {"id": 2, "v": "y"}]
    conn.close()
    # Unbuffered: rows are read as they are fetched.
    conn = db_connect(autocommit=True, cursorclass=pymysql.cursors.SSCursor)
    with conn.cursor() as cur:
        cur.execute("SELECT a.id * 1000 + b.id FROM many a JOIN many b ON b.id <= 20 ORDER BY 1")
        n, total = 0, 0
        for (v,) in cur:
            n += 1
            total += v
        assert n == 20000, n
    with conn.cursor() as cur:
        cur.execute("SELECT 'usable after streaming'")
        assert cur.fetchone() == ("usable after streaming",)
    conn.close()


def check_large_blob():
    conn = db_connect(autocommit=True)
    cur = conn.cursor()
    cur.execute("SELECT @@max_allowed_packet")
    (map_bytes,) = cur.fetchone()
    size = 20 * 1024 * 1024
    assert map_bytes >= size * 1.1, f"max_allowed_packet={map_bytes} is too small for a 20 MiB blob"
    cur.execute("CREATE TABLE blobs (id INT PRIMARY KEY, data LONGBLOB)")
    data = os.urandom(size)
    cur.execute("INSERT INTO blobs VALUES (1, %s)", (data,))  # a > 16 MiB query: split packets
    # Aliases matter: an unaliased column is named after its expression text, which would
    # contain random bytes here (not valid UTF-8 for the driver to decode).
    cur.execute("SELECT LENGTH(data) AS n, MD5(data) = MD5(%s) AS same FROM blobs WHERE id = 1", (data,))
    assert cur.fetchone() == (size, 1)
    cur.execute("SELECT data FROM blobs WHERE id = 1")  # a > 16 MiB row: split packets
    (back,) = cur.fetchone()
    assert back == data, "blob came back different"
    cur.execute("SELECT 'small after large'")
    assert cur.fetchone() == ("small after large",)
    conn.close()


def check_multiple_result_sets():
    conn = db_connect(autocommit=True, client_flag=CLIENT.MULTI_STATEMENTS)
    cur = conn.cursor()
    cur.execute("SELECT 1; SELECT 2")
    assert cur.fetchall() == ((1,),)
    assert cur.nextset()
    assert cur.fetchall() == ((2,),)
    assert not cur.nextset()
    cur.execute("SELECT 'a' AS x; UPDATE many SET v = 'q' WHERE id = 3; SELECT v FROM many WHERE id = 3")
    assert cur.fetchall() == (("a",),)
    assert cur.nextset()
    assert cur.rowcount == 1 and cur.description is None
    assert cur.nextset()
    assert cur.fetchall() == (("q",),)
    assert not cur.nextset()
    # An error in a later statement surfaces when that result is reached.
    cur.execute("SELECT 3; SELECT * FROM no_such_table; SELECT 4")
    assert cur.fetchall() == ((3,),)
    expect_error(pymysql.err.ProgrammingError, 1146, cur.nextset)
    cur.execute("SELECT 'fine'")
    assert cur.fetchone() == ("fine",)
    conn.close()


def check_cleanup():
    conn = connect(autocommit=True)
    with conn.cursor() as cur:
        cur.execute(f"DROP DATABASE {DB}")
        cur.execute(f"SHOW DATABASES LIKE '{DB}'")
        assert cur.fetchall() == ()
    conn.close()


CHECKS = [
    check_connect_and_server_info,
    check_ddl_and_select_db,
    check_dml_rowcount_lastrowid,
    check_parameters,
    check_executemany,
    check_transactions,
    check_errors,
    check_type_round_trip,
    check_cursor_description,
    check_dict_and_streaming_cursors,
    check_large_blob,
    check_multiple_result_sets,
    check_cleanup,
]


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    ARGS = p.parse_args()
    print(f"PyMySQL {pymysql.__version__}, Python {sys.version.split()[0]}")
    failed = []
    for check in CHECKS:
        try:
            check()
            print(f"ok     {check.__name__}")
        except Exception:  # noqa: BLE001 - report every failure, then exit non-zero
            failed.append(check.__name__)
            print(f"FAILED {check.__name__}")
            traceback.print_exc(file=sys.stdout)
        sys.stdout.flush()
    if failed:
        print(f"{len(failed)} of {len(CHECKS)} checks failed: {', '.join(failed)}")
        sys.exit(1)
    print(f"all {len(CHECKS)} checks passed")


if __name__ == "__main__":
    main()
