#!/bin/bash
# Large transactions must not stall the rest (issue 3): the p99 latency of 1-row autocommit
# transactions (16 sessions, examples/commit_latency.rs) that overlap the COMMIT of a
# ~110 MB transaction (600,000 rows of sysbench's shape inserted by INSERT ... SELECT), against
# the p99 of the same workload alone. Quire fully durable (defaults), and a private MariaDB
# 10.11 (--log-bin, sync_binlog=1, innodb_flush_log_at_trx_commit=1) for comparison.
#   bench/bigtxn.sh [REPS] [QUIRE OPTIONS...]
# Run from the project root after `cargo build --release --examples`. Ports: QUIRE_PORT
# (13326), MARIADB_PORT (23326). Everything is stopped and removed at the end.
set -eu
reps=${1:-3}; shift $(( $# < 1 ? $# : 1 ))
qport=${QUIRE_PORT:-13326}; mport=${MARIADB_PORT:-23326}
. "$(dirname "$0")/lib.sh"
start_mariadb "$mport" --log-bin=binlog --server-id=1 --sync-binlog=1 \
  --innodb-flush-log-at-trx-commit=1 --max-binlog-size=1G
start_quire "$qport" "$tmp/quire" "$@"
for port in "$qport" "$mport"; do
  "$shared/pair.sh" prepare "127.0.0.1:$port:sb:sb" >/dev/null
  mariadb -h127.0.0.1 -P"$port" -uroot sbtest -e "CREATE TABLE big LIKE sbtest1;
    CREATE TABLE big_src LIKE sbtest1; INSERT INTO big_src SELECT * FROM sbtest1;"
done

lat=target/release/examples/commit_latency
echo "Quire $(git rev-parse --short HEAD) $*; MariaDB $(mariadbd --version | awk '{print $3}'); reps $reps"
# One server at a time; a pause after each large transaction lets what follows it (a
# checkpoint in Quire, page flushing and purge in MariaDB) finish before the next run.
for name in Quire MariaDB; do
  port=$qport; [[ $name == MariaDB ]] && port=$mport
  for r in $(seq "$reps"); do
    echo "run $r $name alone: $("$lat" "127.0.0.1:$port" sb sb 16 10)"
    echo "run $r $name with the large transaction: $("$lat" "127.0.0.1:$port" sb sb 16 10 6)"
    sleep 10
  done
done
