#!/bin/bash
# Issue 5's performance bar: Quire with performance_schema=ON (the default) against Quire
# with --performance-schema=OFF, on oltp_point_select at 64 threads and oltp_read_write at
# 16 threads: 4 tables x 100,000 rows, alternating runs, medians, ratios; then the servers'
# CPU per query in alternating runs (CPU_REPS of them, default REPS), and the ratio it
# predicts.
# Each server gets one uncounted warm-up run per workload.
#   bench/perf_schema.sh [SECONDS] [REPS] [QUIRE OPTIONS...]
# Run from the project root after `cargo build --release`. Ports: QUIRE_PORT (13361; OFF
# uses +1). Everything is stopped and removed at the end.
set -eu
secs=${1:-8}; reps=${2:-5}; shift $(( $# < 2 ? $# : 2 ))
on=${QUIRE_PORT:-13361}; off=$((on + 1))
# WORKLOADS="oltp_point_select 64" to run one only.
IFS=';' read -r -a WORKLOADS <<<"${WORKLOADS:-oltp_point_select 64;oltp_read_write 16}"
. "$(dirname "$0")/lib.sh"
start_quire "$on" "$tmp/on" "$@"
start_quire "$off" "$tmp/off" --performance-schema=OFF "$@"
A=127.0.0.1:$on:sb:sb; B=127.0.0.1:$off:sb:sb
for s in "$A" "$B"; do "$shared/pair.sh" prepare "$s" >/dev/null; done
echo "Quire $(git rev-parse --short HEAD) $*; ${secs} s x ${reps}; A = performance_schema=ON, B = OFF"
tps() { sb_tps "$1" "$2" "$3" "$secs"; } # tps PORT WORKLOAD THREADS
for w in "${WORKLOADS[@]}"; do
  read -r wl th <<<"$w"
  sb_run "$on" "$wl" "$th" 5 >/dev/null
  sb_run "$off" "$wl" "$th" 5 >/dev/null
  # Alternating runs, the order alternating too (odd reps A first, even reps B first), so a
  # drift of the machine's speed does not land on one side; the ratio of the medians and
  # the median of the pairs' own ratios.
  ta=(); tb=(); pr=()
  for r in $(seq "$reps"); do
    if (( r % 2 )); then x=$(tps "$on" "$wl" "$th"); y=$(tps "$off" "$wl" "$th")
    else y=$(tps "$off" "$wl" "$th"); x=$(tps "$on" "$wl" "$th"); fi
    echo "run $r: A $x | B $y tps"
    ta+=("$x"); tb+=("$y"); pr+=("$(awk -v a="$x" -v b="$y" 'BEGIN {printf "%.4f", a / b}')")
  done
  awk -v a="$(med "${ta[@]}")" -v b="$(med "${tb[@]}")" \
    -v p="$(med "${pr[@]}")" -v w="$wl" -v t="$th" -v n="$reps" \
    'BEGIN {printf "%s t=%s median tps A=%s B=%s ratio A/B=%.3f; median of the %d pair ratios %.3f\n", w, t, a, b, a / b, n, p}'
done
# CPU per query, steadier than tps on this machine (see bench/log_cpu.sh): for each run the
# whole machine's busy time and the server's own, per query; sysbench's share (the rest)
# does the same work in both, so (1 + off ratio) / (1 + on ratio) is the throughput ratio
# the servers' CPU predicts on 2 cores shared with sysbench.
busy() { head -1 /proc/stat | awk '{print $2+$3+$4+$7+$8}'; }
pid_of() { pgrep -f "target/release/quire.*--port=$1" | head -1; }
mine() { awk '{print $14+$15}' "/proc/$1/stat"; }
one() { # PORT WORKLOAD THREADS -> "all_us quire_us" per query
  local pid b1 q1 out
  pid=$(pid_of "$1"); b1=$(busy); q1=$(mine "$pid")
  out=$(sb_run "$1" "$2" "$3" "$secs")
  awk -v b=$(( $(busy) - b1 )) -v q=$(( $(mine "$pid") - q1 )) -v hz="$(getconf CLK_TCK)" '
    /queries:/ && !n {n = $2}
    END {printf "%.3f %.3f\n", b * 1e6 / hz / n, q * 1e6 / hz / n}' <<<"$out"
}
for w in "${WORKLOADS[@]}"; do
  read -r wl th <<<"$w"
  echo "== CPU per query, $wl t=$th"
  est=()
  for r in $(seq "${CPU_REPS:-$reps}"); do
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
