#!/bin/bash
# CPU per query with a log switched on against all logs off, on one Quire: alternating
# sysbench runs; for each run the whole machine's busy time (/proc/stat) and Quire's own
# (/proc/PID/stat) divided by the queries run. sysbench's share (whole minus Quire) does the
# same work per query in both, so Quire's CPU over sysbench's is steady when the machine's
# speed drifts (the tps of "off" runs alone spreads ±10 % here), and
#   (1 + off ratio) / (1 + on ratio)
# is the throughput ratio the extra CPU predicts on 2 cores shared with sysbench. That
# charges the kernel's own threads (the page cache's writeback of the log files, the
# filesystem's journal) to sysbench; the second prediction ("all") counts everything but
# sysbench's own CPU (measured from sysbench itself) as the server's cost, so it includes
# them.
#   bench/log_cpu.sh WORKLOAD THREADS SECONDS REPS 'SET GLOBAL …'
# e.g. bench/log_cpu.sh oltp_point_select 64 8 5 'SET GLOBAL audit_log=ON'
set -eu
wl=$1; th=$2; secs=$3; reps=$4; on_sql=$5
port=${QUIRE_PORT:-13340}
. "$(dirname "$0")/lib.sh"
start_quire "$port" "$tmp/quire" >/dev/null
"$shared/pair.sh" prepare "127.0.0.1:$port:sb:sb" >/dev/null
pid=$(pgrep -f "target/release/quire.*$port" | head -1)
# LOG_DIR: where the log files go (default: the scratch directory, on the data disk).
logs=${LOG_DIR:-$tmp/logs}
mkdir -p "$logs"
m() { mariadb -h127.0.0.1 -P"$port" -usb -psb -e "$1"; }
m "SET GLOBAL slow_query_log_file='$logs/slow.log', general_log_file='$logs/general.log', audit_log_file='$logs/audit.log'"
OFF="SET GLOBAL slow_query_log=OFF, general_log=OFF, audit_log=OFF, long_query_time=10"
# Logs off, their files emptied (lib.sh's clear_logs).
logs_off() { m "$OFF"; clear_logs "$port" "$logs"; }
mine() { awk '{print $14+$15}' "/proc/$pid/stat"; }
switches() { awk '$1 == "ctxt" {print $2}' /proc/stat; }
total() { head -1 /proc/stat | awk '{t = 0; for (i = 2; i <= 9; i++) t += $i; print t}'; }
# one: prints "tps all_us quire_us sysbench_us switches busy" for one run (switches: the
# whole machine's context switches per query; busy: the share of the machine's CPU time
# that was busy, 1 when the CPUs are the bottleneck)
one() {
  local b1 q1 c1 t1 out
  b1=$(machine_busy); q1=$(mine); c1=$(switches); t1=$(total)
  out=$(sb_run_cpu "$port" "$wl" "$th" "$secs")
  awk -v b=$(( $(machine_busy) - b1 )) -v q=$(( $(mine) - q1 )) -v c=$(( $(switches) - c1 )) \
    -v t=$(( $(total) - t1 )) -v hz="$(getconf CLK_TCK)" '
    /transactions:/ {gsub(/[(]/, "", $3); tps = $3}
    /queries:/ && !n {n = $2}
    /sysbench_cpu_s:/ {s = $2}
    END {printf "%s %.3f %.3f %.3f %.3f %.3f\n", tps, b * 1e6 / hz / n, q * 1e6 / hz / n, s * 1e6 / n, c / n, b / t}' <<<"$out"
}
echo "Quire $(git rev-parse --short HEAD); $wl t=$th ${secs} s x $reps; on: $on_sql"
est=(); est_all=(); sbr=()
for r in $(seq "$reps"); do
  # Odd runs off then on, even runs on then off: a drift of the machine's speed over the
  # series does not land on one side (sysbench's own CPU per query is compared below).
  if (( r % 2 )); then
    m "$OFF"; read -r t0 a0 q0 s0 c0 u0 < <(one)
    m "$on_sql"; read -r t1 a1 q1 s1 c1 u1 < <(one)
  else
    m "$on_sql"; read -r t1 a1 q1 s1 c1 u1 < <(one)
    logs_off; read -r t0 a0 q0 s0 c0 u0 < <(one)
  fi
  logs_off
  read -r e e_all < <(awk -v a0="$a0" -v q0="$q0" -v a1="$a1" -v q1="$q1" -v s0="$s0" -v s1="$s1" \
    'BEGIN {r0 = q0 / (a0 - q0); r1 = q1 / (a1 - q1); printf "%.3f %.3f\n", (1 + r0) / (1 + r1), (a0 / s0) / (a1 / s1)}')
  echo "  run $r: off $t0 tps, Quire $q0 sysbench $s0 of $a0 us/query, $c0 switches/query, busy $u0 | on $t1 tps, Quire $q1 sysbench $s1 of $a1 us/query, $c1 switches/query, busy $u1 | predicted ratio $e, all $e_all"
  est+=("$e"); est_all+=("$e_all"); sbr+=("$(awk -v a="$s1" -v b="$s0" 'BEGIN {printf "%.3f", a / b}')")
done
echo "median predicted ratio on/off: $(med "${est[@]}"); all but sysbench: $(med "${est_all[@]}")"
# The predictions assume sysbench's work per query is the same with the logs on; this says
# whether it was (above 1: sysbench itself ran slower per query while the logs were on).
echo "median sysbench CPU per query on/off: $(med "${sbr[@]}")"
