#!/bin/bash
# Issue 4's performance bars (query and audit logs): what logging every statement costs
# Quire, and MariaDB's own cost for the same switches, measured in one session. One server
# of each, 4 tables x 100,000 rows, sysbench on the same machine; the logs are switched
# with SET GLOBAL between runs (they are dynamic in both), runs alternate on/off, medians:
#   - oltp_point_select at 64 threads and oltp_read_write at 16 threads, Quire with
#     (a) the slow log at long_query_time=0, (b) the general log, (c) the audit log
#     (ASYNCHRONOUS), (d) all three, each against all logs off;
#   - mariadb-slap -q 'select 1' --concurrency=64: seconds with the slow log logging
#     everything against off;
#   - the same for a private MariaDB 10.11 (slow log, general log; MariaDB's audit plugin is
#     not part of the bars).
# Before each workload, one run with the logs off warms the server up (not counted); the
# pairs then alternate which side runs first, and the switches take turns pair by pair.
# Each pair also gives the throughput ratio that its runs' CPU per transaction predicts
# (see sb_tps_cpu in bench/lib.sh): the summaries show its median as "CPU-predicted".
#   bench/query_logs.sh [SECONDS] [REPS] [PARTS]
# CONTROL=1 adds a control switch to Quire's rounds ("on" switches nothing on; its runs are
# cleaned up like the others): its ratio is what the method reads when nothing changes.
# PARTS: any of "quire mariadb" (default both). Run from the project root after
# `cargo build --release`. Ports: QUIRE_PORT (13330), MARIADB_PORT (23330). The log files
# are in a scratch directory, removed at the end with everything started.
set -eu
secs=${1:-10}; reps=${2:-3}; parts=${3:-quire mariadb}
qport=${QUIRE_PORT:-13330}; mport=${MARIADB_PORT:-23330}
slap_queries=${SLAP_QUERIES:-200000}
. "$(dirname "$0")/lib.sh"

echo "Quire $(git rev-parse --short HEAD); MariaDB $(mariadbd --version | awk '{print $3}'); ${secs} s x ${reps}"

# pair NAME PORT ON_SQL OFF_SQL WORKLOAD THREADS R: one alternating pair of runs with the
# logs switched on and off (odd R on first, even R off first: a drift in the server's speed
# does not favour either side); prints it and keeps it under NAME + WORKLOAD. Each run is
# followed by clean_logs, so both sides' runs come after the same steps (a run after a
# `sync` and one right after another run are not alike here).
declare -A ON_TPS OFF_TPS PRED
pair() {
  local name=$1 port=$2 on_sql=$3 off_sql=$4 wl=$5 th=$6 r=$7 x y qx sx qy sy k="$1|$5|$6" p side
  for side in $( (( r % 2 )) && echo "on off" || echo "off on"); do
    if [ "$side" = on ]; then
      mariadb -h127.0.0.1 -P"$port" -usb -psb -e "$on_sql"
      read -r x qx sx < <(tps_cpu "$port" "$wl" "$th")
      mariadb -h127.0.0.1 -P"$port" -usb -psb -e "$off_sql"
    else
      read -r y qy sy < <(tps_cpu "$port" "$wl" "$th")
    fi
    clean_logs "$port"
  done
  p=$(cpu_predicted "$qy" "$sy" "$qx" "$sx")
  echo "  $name $wl t=$th run $r: on $x off $y"
  echo "  $name $wl t=$th run $r CPU us/transaction: on $qx+$sx off $qy+$sy, predicted $p"
  ON_TPS[$k]+=" $x"; OFF_TPS[$k]+=" $y"; PRED[$k]+=" $p"
}
# summary NAME WORKLOAD THREADS: the medians' ratio on/off of NAME's pairs, and the median
# of the pairs' own ratios (steadier when the machine's speed drifts between pairs), and the
# median of the pairs' CPU-predicted ratios.
summary() {
  local k="$1|$2|$3" on off i ratios=()
  local -a pred
  read -r -a on <<<"${ON_TPS[$k]}"; read -r -a off <<<"${OFF_TPS[$k]}"; read -r -a pred <<<"${PRED[$k]}"
  for i in "${!on[@]}"; do
    ratios+=("$(awk -v a="${on[i]}" -v b="${off[i]}" 'BEGIN {printf "%.4f", a / b}')")
  done
  awk -v a="$(med "${on[@]}")" -v b="$(med "${off[@]}")" -v p="$(med "${ratios[@]}")" \
    -v n="${#on[@]}" -v w="$2" -v t="$3" -v s="$1" -v c="$(med "${pred[@]}")" \
    'BEGIN{printf "%s, %s t=%s: median tps on=%s off=%s ratio on/off=%.3f; median of the %d pair ratios %.3f; CPU-predicted %.3f\n", s, w, t, a, b, a/b, n, p, c}'
}
# measure WORKLOAD THREADS PORT OFF_SQL NAME ON_SQL [NAME ON_SQL ...]: REPS rounds in each
# of which every switch gets one pair, so each switch's pairs spread over the whole
# measurement (a slow minute of the machine lands on all of them alike); then the summaries.
measure() {
  local wl=$1 th=$2 port=$3 off_sql=$4 i r
  shift 4
  local -a sw=("$@")
  for r in $(seq "$reps"); do
    for ((i = 0; i < ${#sw[@]}; i += 2)); do
      pair "${sw[i]}" "$port" "${sw[i+1]}" "$off_sql" "$wl" "$th" "$r"
    done
  done
  for ((i = 0; i < ${#sw[@]}; i += 2)); do summary "${sw[i]}" "$wl" "$th"; done
}
tps() { sb_tps "$1" "$2" "$3" "$secs"; } # tps PORT WORKLOAD THREADS
tps_cpu() { sb_tps_cpu "$1" "$2" "$3" "$secs"; } # tps_cpu PORT WORKLOAD THREADS
# slap NAME PORT ON_SQL OFF_SQL: mariadb-slap select 1 at concurrency 64, seconds on / off.
slap() {
  local name=$1 port=$2 on_sql=$3 off_sql=$4 on=() off=() x y
  one() {
    mariadb-slap --no-defaults -h127.0.0.1 -P"$port" -usb -psb -q 'select 1' \
      --concurrency=64 --number-of-queries="$slap_queries" --iterations=1 2>&1 |
      awk '/Average number of seconds/{print $(NF-1)}'
  }
  for r in $(seq "$reps"); do
    mariadb -h127.0.0.1 -P"$port" -usb -psb -e "$on_sql"
    x=$(one)
    mariadb -h127.0.0.1 -P"$port" -usb -psb -e "$off_sql"
    clean_logs "$port"
    y=$(one)
    echo "  $name slap run $r: on $x s off $y s"
    on+=("$x"); off+=("$y")
  done
  awk -v a="$(med "${on[@]}")" -v b="$(med "${off[@]}")" -v s="$name" -v n="$slap_queries" \
    'BEGIN{printf "%s, mariadb-slap select 1 x %s at 64: median seconds on=%s off=%s ratio on/off=%.3f\n", s, n, a, b, a/b}'
}

# The log files go to $tmp/logs, emptied after each run with logs on (lib.sh's clear_logs).
mkdir -p "$tmp/logs"
FILES="SET GLOBAL slow_query_log_file='$tmp/logs/slow.log'; SET GLOBAL general_log_file='$tmp/logs/general.log'"
clean_logs() { clear_logs "$1" "$tmp/logs" "FLUSH SLOW LOGS; FLUSH GENERAL LOGS; $FLUSH_AUDIT"; }
FLUSH_AUDIT="DO 0"
SLOW_ON="SET GLOBAL long_query_time=0; SET GLOBAL slow_query_log=ON"
GEN_ON="SET GLOBAL general_log=ON"
OFF="SET GLOBAL slow_query_log=OFF; SET GLOBAL general_log=OFF; SET GLOBAL long_query_time=10"
if [[ " $parts " == *" quire "* ]]; then
  start_quire "$qport" "$tmp/quire"
  "$shared/pair.sh" prepare "127.0.0.1:$qport:sb:sb" >/dev/null
  mariadb -h127.0.0.1 -P"$qport" -usb -psb -e "$FILES; SET GLOBAL audit_log_file='$tmp/logs/audit.log'"
  FLUSH_AUDIT="FLUSH LOGS"
  AUDIT_ON="SET GLOBAL audit_log=ON"
  QOFF="$OFF; SET GLOBAL audit_log=OFF"
  echo "== Quire: each log on against all off"
  control=()
  if [ "${CONTROL:-0}" = 1 ]; then control=("Quire control (nothing on)" "$QOFF"); fi
  for w in "oltp_point_select 64" "oltp_read_write 16"; do
    read -r wl th <<<"$w"
    echo "  warm-up, logs off: $(tps "$qport" "$wl" "$th") tps (not counted)"
    clean_logs "$qport"
    measure "$wl" "$th" "$qport" "$QOFF" \
      "Quire slow log (long_query_time=0)" "$SLOW_ON" "Quire general log" "$GEN_ON" \
      "Quire audit log (ASYNCHRONOUS)" "$AUDIT_ON" "Quire all three logs" "$SLOW_ON; $GEN_ON; $AUDIT_ON" \
      "${control[@]}"
  done
  slap "Quire slow log (long_query_time=0)" "$qport" "$SLOW_ON" "$QOFF"
  mariadb -h127.0.0.1 -P"$qport" -uroot -N -e "SHOW GLOBAL STATUS LIKE 'Quire_%_log_%'" |
    awk '$2 != 0 {printf "%s=%s\n", $1, $2}'
  for p in "${pids[@]}"; do kill "$p"; wait "$p" 2>/dev/null || true; done
  pids=()
fi
if [[ " $parts " == *" mariadb "* ]]; then
  start_mariadb "$mport"
  "$shared/pair.sh" prepare "127.0.0.1:$mport:sb:sb" >/dev/null
  mariadb -h127.0.0.1 -P"$mport" -usb -psb -e "$FILES"
  FLUSH_AUDIT="DO 0"
  echo "== MariaDB: each log on against all off"
  for w in "oltp_point_select 64" "oltp_read_write 16"; do
    read -r wl th <<<"$w"
    echo "  warm-up, logs off: $(tps "$mport" "$wl" "$th") tps (not counted)"
    clean_logs "$mport"
    measure "$wl" "$th" "$mport" "$OFF" \
      "MariaDB slow log (long_query_time=0)" "$SLOW_ON" "MariaDB general log" "$GEN_ON"
  done
  slap "MariaDB slow log (long_query_time=0)" "$mport" "$SLOW_ON" "$OFF"
fi
