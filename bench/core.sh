#!/bin/bash
# Issue 2's performance bars: Quire against a private MariaDB 10.11 with
# innodb_flush_log_at_trx_commit=0 and the binary log off, sysbench on the same machine,
# alternating runs (../shared/bench/pair.sh), medians and ratios.
#   bench/core.sh [SECONDS] [REPS] [QUIRE OPTIONS...]
# Run from the project root after `cargo build --release`. Ports: QUIRE_PORT (13306),
# MARIADB_PORT (23306). Both servers are stopped and their directories removed at the end.
set -eu
secs=${1:-10}; reps=${2:-5}; shift $(( $# < 2 ? $# : 2 ))
qport=${QUIRE_PORT:-13306}; mport=${MARIADB_PORT:-23306}
shared=$(realpath "$(dirname "$0")/../../shared/bench")
tmp=$(mktemp -d /tmp/quire-bench.XXXXXX)
qpid=
cleanup() {
  [ -n "$qpid" ] && kill "$qpid" 2>/dev/null && wait "$qpid" 2>/dev/null
  "$shared/mariadb.sh" stop "$tmp/mdb" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

"$shared/mariadb.sh" start "$tmp/mdb" "$mport" --innodb-flush-log-at-trx-commit=0
target/release/quire --datadir="$tmp/quire" --port="$qport" "$@" >"$tmp/quire.log" 2>&1 &
qpid=$!
for _ in $(seq 50); do mariadb -h127.0.0.1 -P"$qport" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
mariadb -h127.0.0.1 -P"$qport" -uroot -e "CREATE USER sb@'%' IDENTIFIED BY 'sb'; CREATE DATABASE sbtest;"

Q=127.0.0.1:$qport:sb:sb; M=127.0.0.1:$mport:sb:sb
"$shared/pair.sh" prepare "$Q" >/dev/null
"$shared/pair.sh" prepare "$M" >/dev/null
echo "A = Quire $(git rev-parse --short HEAD) $*, B = MariaDB $(mariadbd --version | awk '{print $3}'); ${secs} s x ${reps}"
for w in "oltp_point_select 64" "oltp_read_only 16" "oltp_read_write 16"; do
  # shellcheck disable=SC2086
  "$shared/pair.sh" run $w "$secs" "$reps" "$Q" "$M"
done
