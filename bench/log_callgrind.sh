#!/bin/bash
# Instructions per statement that logging costs, counted by callgrind (exact and steady,
# where throughput on this machine drifts by ±20 %): one Quire under valgrind, sysbench
# runs a fixed number of events with all logs off, then with the slow (long_query_time=0),
# general and audit logs on; each run's instructions are dumped apart.
#   bench/log_callgrind.sh [BINARY] [WORKLOAD THREADS EVENTS]
# e.g. bench/log_callgrind.sh target/release/quire oltp_point_select 4 20000
#      bench/log_callgrind.sh /tmp/quire-before oltp_read_write 4 1000
# LOGS_ON: the SQL that turns logging on instead (e.g. LOGS_ON='SET GLOBAL audit_log=ON' for
# the audit log alone).
# Prints the instructions per statement off and on and their difference; the dumps stay in
# $OUT (default /tmp/quire-callgrind) for callgrind_annotate. Needs valgrind (apt-get install
# valgrind). The writer threads' share is overstated: under valgrind the threads run one at
# a time and the writers take small batches.
set -eu
bin=${1:-target/release/quire}; wl=${2:-oltp_point_select}; th=${3:-4}; events=${4:-20000}
port=${QUIRE_PORT:-13360}
out=${OUT:-/tmp/quire-callgrind}
. "$(dirname "$0")/lib.sh"
mkdir -p "$out"
tag="$(basename "$bin")-$wl"
rm -f "$out/$tag".*
valgrind --tool=callgrind --callgrind-out-file="$out/$tag.%p" --dump-instr=no \
  "$bin" --datadir="$tmp/q" --port="$port" >"$tmp/valgrind.log" 2>&1 &
vg=$!
pids+=("$vg")
for _ in $(seq 120); do mariadb -h127.0.0.1 -P"$port" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.5; done
m() { mariadb -h127.0.0.1 -P"$port" -uroot -e "$1"; }
m "CREATE USER sb@'%' IDENTIFIED BY 'sb'; GRANT ALL ON *.* TO sb@'%'; CREATE DATABASE sbtest;
   SET GLOBAL slow_query_log_file='$tmp/slow.log', general_log_file='$tmp/general.log',
   audit_log_file='$tmp/audit.log'"
sb() {
  sysbench "$wl" --mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=sb --mysql-password=sb \
    --mysql-db=sbtest --tables=2 --table-size=10000 --threads="$th" "$@"
}
sb prepare >/dev/null
sb --events=$((events / 4)) --time=0 run >/dev/null   # warm-up, not counted
declare -A per
for mode in off on; do
  if [ "$mode" = on ]; then
    m "${LOGS_ON:-SET GLOBAL slow_query_log=ON, general_log=ON, audit_log=ON, long_query_time=0}"
  fi
  callgrind_control -z "$vg" >/dev/null 2>&1
  queries=$(sb --events="$events" --time=0 run | awk '/queries:/ && !n {n = $2} END {print n}')
  callgrind_control -d "$mode" "$vg" >/dev/null 2>&1
  dump=$(ls -t "$out/$tag".*.[0-9] | head -1)
  per[$mode]=$(awk -v q="$queries" '/^totals:/ {printf "%.0f", $2 / q}' "$dump")
  echo "$mode: $queries statements, ${per[$mode]} instructions each ($dump)"
done
kill "$vg"; wait "$vg" 2>/dev/null || true
echo "logging: $(( ${per[on]} - ${per[off]} )) instructions per statement ($wl, $th threads)"
