#!/bin/bash
# Issue 4's performance bars (query logs): what logging every query costs Quire, and
# MariaDB's own cost for the same switches, measured in one session. sysbench on the same
# machine, 4 tables x 100,000 rows, alternating runs (../shared/bench/pair.sh), medians:
#   - oltp_point_select at 64 threads and oltp_read_write at 16 threads: Quire with the slow
#     log at long_query_time=0, and Quire with the general log, each against Quire with all
#     logs off;
#   - the same pairs for a private MariaDB 10.11 (slow log every query / general log vs off).
#   bench/query_logs.sh [SECONDS] [REPS] [PARTS]
# PARTS: any of "quire mariadb" (default both). Run from the project root after
# `cargo build --release`. Ports: QUIRE_PORT (13330, +1, +2), MARIADB_PORT (23330). The log
# files are in a scratch directory, removed at the end with everything started.
set -eu
secs=${1:-10}; reps=${2:-3}; parts=${3:-quire mariadb}
qport=${QUIRE_PORT:-13330}; mport=${MARIADB_PORT:-23330}
. "$(dirname "$0")/lib.sh"

echo "Quire $(git rev-parse --short HEAD); MariaDB $(mariadbd --version | awk '{print $3}'); ${secs} s x ${reps}"
pairs() { # pairs LABEL A B
  echo "== $1"
  "$shared/pair.sh" run oltp_point_select 64 "$secs" "$reps" "$2" "$3"
  "$shared/pair.sh" run oltp_read_write 16 "$secs" "$reps" "$2" "$3"
}
if [[ " $parts " == *" quire "* ]]; then
  start_quire "$qport" "$tmp/off"
  start_quire $((qport + 1)) "$tmp/slow" --slow-query-log --long-query-time=0
  start_quire $((qport + 2)) "$tmp/gen" --general-log
  O=127.0.0.1:$qport:sb:sb; S=127.0.0.1:$((qport + 1)):sb:sb; G=127.0.0.1:$((qport + 2)):sb:sb
  for s in "$O" "$S" "$G"; do "$shared/pair.sh" prepare "$s" >/dev/null; done
  pairs "A = Quire slow log (long_query_time=0), B = Quire logs off" "$S" "$O"
  pairs "A = Quire general log, B = Quire logs off" "$G" "$O"
  for p in $((qport + 1)) $((qport + 2)); do
    mariadb -h127.0.0.1 -P"$p" -uroot -N -e "SHOW GLOBAL STATUS LIKE 'Quire_%_log_%'" |
      awk -v p="$p" '$2 != 0 {printf "port %s %s=%s\n", p, $1, $2}'
  done
  for p in "${pids[@]}"; do kill "$p"; wait "$p" 2>/dev/null || true; done
  pids=()
fi
if [[ " $parts " == *" mariadb "* ]]; then
  # One MariaDB, switched between runs: its logs are dynamic.
  start_mariadb "$mport"
  M=127.0.0.1:$mport:sb:sb
  "$shared/pair.sh" prepare "$M" >/dev/null
  setm() { mariadb -h127.0.0.1 -P"$mport" -usb -psb -e "$1"; }
  tps() { # tps WORKLOAD THREADS: one sysbench run against the MariaDB, its tps
    sysbench "$1" --mysql-host=127.0.0.1 --mysql-port="$mport" --mysql-user=sb \
      --mysql-password=sb --mysql-db=sbtest --tables=4 --table-size=100000 --threads="$2" \
      --time="$secs" run 2>&1 | awk '/transactions:/{gsub(/[(]/,"",$3); print $3}'
  }
  med() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END{print (NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
  for w in "oltp_point_select 64" "oltp_read_write 16"; do
    read -r wl th <<<"$w"
    for sw in slow general; do
      on=(); off=()
      for r in $(seq "$reps"); do
        if [ $sw = slow ]; then
          setm "SET GLOBAL long_query_time=0; SET GLOBAL slow_query_log=ON"
        else
          setm "SET GLOBAL general_log=ON"
        fi
        x=$(tps "$wl" "$th")
        setm "SET GLOBAL slow_query_log=OFF; SET GLOBAL general_log=OFF; SET GLOBAL long_query_time=10"
        y=$(tps "$wl" "$th")
        echo "MariaDB $wl t=$th $sw log run $r: on $x off $y"
        on+=("$x"); off+=("$y")
      done
      awk -v a="$(med "${on[@]}")" -v b="$(med "${off[@]}")" -v w="$wl" -v t="$th" -v s="$sw" \
        'BEGIN{printf "MariaDB %s t=%s %s log: median tps on=%s off=%s ratio=%.3f\n", w, t, s, a, b, a/b}'
    done
  done
fi
