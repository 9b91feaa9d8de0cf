#!/bin/bash
# Issue 5's performance bar: Quire with performance_schema=ON (the default) against Quire
# with --performance-schema=OFF, on oltp_point_select at 64 threads and oltp_read_write at
# 16 threads: 4 tables x 100,000 rows, alternating runs, medians, ratios, and for each pair
# the throughput ratio its runs' CPU per transaction predicts (bench/lib.sh's sb_tps_cpu);
# with CPU_REPS=N, then N more alternating runs per workload that measure the servers' CPU
# per query the older way (the machine's busy time less the server's own as sysbench's).
# Each server gets one uncounted warm-up run per workload; every RESTART_EVERY pairs (3),
# both are restarted (see restart()), ON and OFF swapping ports, and warmed up again.
#   bench/perf_schema.sh [SECONDS] [REPS] [QUIRE OPTIONS...]
# Run from the project root after `cargo build --release`. Ports: QUIRE_PORT (13361; OFF
# uses +1). Everything is stopped and removed at the end.
set -eu
secs=${1:-8}; reps=${2:-5}; shift $(( $# < 2 ? $# : 2 ))
on=${QUIRE_PORT:-13361}; off=$((on + 1))
# WORKLOADS="oltp_point_select 64" to run one only.
IFS=';' read -r -a WORKLOADS <<<"${WORKLOADS:-oltp_point_select 64;oltp_read_write 16}"
. "$(dirname "$0")/lib.sh"
# Each server's data directory, options and pid: restart() starts it again on its data.
declare -A dir opts pid
dir[$on]=$tmp/on; opts[$on]="$*"
dir[$off]=$tmp/off; opts[$off]="--performance-schema=OFF $*"
for p in "$on" "$off"; do
  # shellcheck disable=SC2086
  start_quire "$p" "${dir[$p]}" ${opts[$p]}
  pid[$p]=${pids[-1]}
done
# restart PORT: a clean shutdown of the server on PORT, and the server started again on its
# data directory — a new process, laid out anew in memory. Two identical servers side by
# side differ by about a point in CPU per transaction for as long as they run (an A/A
# control, `bench/results/2026-11-29-perf-schema-aa-2.txt`: 1.006 at point select, 1.014
# at read/write over 21 pairs), so the pairs spread over several pairs of processes; and
# the machine ran about 4 % faster in the runs against one of the two ports, restarts or
# not (`…-aa-3.txt`), so at each restart the servers swap ports.
restart() {
  local p=$1
  kill "${pid[$p]}"
  wait "${pid[$p]}" 2>/dev/null || true
  # shellcheck disable=SC2086
  launch_quire "$p" "${dir[$p]}" ${opts[$p]}
  pid[$p]=${pids[-1]}
}
A=127.0.0.1:$on:sb:sb; B=127.0.0.1:$off:sb:sb
for s in "$A" "$B"; do "$shared/pair.sh" prepare "$s" >/dev/null; done
echo "Quire $(git rev-parse --short HEAD) $*; ${secs} s x ${reps}; A = performance_schema=ON, B = OFF"
tps() { sb_tps_cpu "$1" "$2" "$3" "$secs"; } # tps PORT WORKLOAD THREADS -> "TPS Q S"
for w in "${WORKLOADS[@]}"; do
  read -r wl th <<<"$w"
  sb_run "$on" "$wl" "$th" 5 >/dev/null
  sb_run "$off" "$wl" "$th" 5 >/dev/null
  # Alternating runs, the order alternating too (odd reps A first, even reps B first), so a
  # drift of the machine's speed does not land on one side; the ratio of the medians, the
  # median of the pairs' own ratios, and the median of the ratios the pairs' CPU per
  # transaction predicts (see sb_tps_cpu in bench/lib.sh).
  ta=(); tb=(); pr=(); pc=()
  for r in $(seq "$reps"); do
    # RESTART_EVERY pairs (default 3), both servers start again, each with the other's
    # options (A runs on the other port and data directory from then on), and warm up.
    if (( ${RESTART_EVERY:-3} > 0 && r > 1 && (r - 1) % ${RESTART_EVERY:-3} == 0 )); then
      x=${opts[$on]}; opts[$on]=${opts[$off]}; opts[$off]=$x
      x=$on; on=$off; off=$x
      for p in "$on" "$off"; do restart "$p"; sb_run "$p" "$wl" "$th" 5 >/dev/null; done
    fi
    if (( r % 2 )); then read -r x qx sx < <(tps "$on" "$wl" "$th"); read -r y qy sy < <(tps "$off" "$wl" "$th")
    else read -r y qy sy < <(tps "$off" "$wl" "$th"); read -r x qx sx < <(tps "$on" "$wl" "$th"); fi
    p=$(cpu_predicted "$qy" "$sy" "$qx" "$sx")
    echo "run $r: A $x | B $y tps | CPU us/transaction A $qx+$sx B $qy+$sy, predicted A/B $p"
    ta+=("$x"); tb+=("$y"); pr+=("$(awk -v a="$x" -v b="$y" 'BEGIN {printf "%.4f", a / b}')"); pc+=("$p")
  done
  awk -v a="$(med "${ta[@]}")" -v b="$(med "${tb[@]}")" \
    -v p="$(med "${pr[@]}")" -v c="$(med "${pc[@]}")" -v w="$wl" -v t="$th" -v n="$reps" \
    'BEGIN {printf "%s t=%s median tps A=%s B=%s ratio A/B=%.3f; median of the %d pair ratios %.3f; CPU-predicted %.3f\n", w, t, a, b, a / b, n, p, c}'
done
# CPU per query, steadier than tps on this machine (see bench/log_cpu.sh): for each run the
# whole machine's busy time and the server's own, per query; sysbench's share (the rest)
# does the same work in both, so (1 + off ratio) / (1 + on ratio) is the throughput ratio
# the servers' CPU predicts on 2 cores shared with sysbench.
mine() { awk '{print $14+$15}' "/proc/$1/stat"; }
one() { # PORT WORKLOAD THREADS -> "all_us quire_us" per query
  local qpid=${pid[$1]} b1 q1 out
  b1=$(machine_busy); q1=$(mine "$qpid")
  out=$(sb_run "$1" "$2" "$3" "$secs")
  awk -v b=$(( $(machine_busy) - b1 )) -v q=$(( $(mine "$qpid") - q1 )) -v hz="$(getconf CLK_TCK)" '
    /queries:/ && !n {n = $2}
    END {printf "%.3f %.3f\n", b * 1e6 / hz / n, q * 1e6 / hz / n}' <<<"$out"
}
for w in "${WORKLOADS[@]}"; do
  (( ${CPU_REPS:-0} > 0 )) || break
  read -r wl th <<<"$w"
  echo "== CPU per query, $wl t=$th"
  est=()
  for r in $(seq "$CPU_REPS"); do
    read -r a1 q1 < <(one "$on" "$wl" "$th")
    read -r a0 q0 < <(one "$off" "$wl" "$th")
    e=$(awk -v a0="$a0" -v q0="$q0" -v a1="$a1" -v q1="$q1" \
      'BEGIN {printf "%.3f", (1 + q0 / (a0 - q0)) / (1 + q1 / (a1 - q1))}')
    echo "  run $r: ON Quire $q1 of $a1 us/query | OFF Quire $q0 of $a0 us/query | predicted ratio $e"
    est+=("$e")
  done
  echo "median predicted ratio ON/OFF: $(med "${est[@]}")"
done
echo "== digest rows after the runs (ON)"
mariadb -h127.0.0.1 -P"$on" -usb -psb -e "SELECT COUNT(*) AS digests, SUM(COUNT_STAR) AS statements FROM performance_schema.events_statements_summary_by_digest"
