#!/bin/bash
# Two Quire builds side by side (say the last commit's and a change's): alternating sysbench
# runs, one of each per rep (the order alternates). For each run, tps and the CPU that Quire
# (/proc/PID/stat) and sysbench (its own `times`) used per transaction; then the throughput
# ratio B/A that the CPU predicts on a machine whose CPUs server and sysbench share,
#   (1 + Qa/Sa) / (1 + Qb/Sb),
# which stays steady while the machine's speed drifts (tps ratios of single pairs here
# spread ±20 %). Both servers get the same options; ports 13431 and 13432.
#   bench/ab.sh BIN_A BIN_B REPS WORKLOAD THREADS SECONDS [QUIRE OPTIONS...]
# e.g. bench/ab.sh /tmp/quire-before target/release/quire 6 oltp_point_select 64 8
set -u
A=$1; B=$2; reps=$3; wl=$4; th=$5; secs=$6; shift 6
. "$(dirname "$0")/lib.sh"
declare -A port pid
port[A]=13431; port[B]=13432
for s in A B; do
  bin=${!s}
  "$bin" --datadir="$tmp/$s" --port="${port[$s]}" "$@" >"$tmp/$s.log" 2>&1 &
  pids+=($!); pid[$s]=$!
  for _ in $(seq 50); do mariadb -h127.0.0.1 -P"${port[$s]}" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
  mariadb -h127.0.0.1 -P"${port[$s]}" -uroot -e "CREATE USER sb@'%' IDENTIFIED BY 'sb';
    GRANT ALL ON *.* TO sb@'%'; CREATE DATABASE sbtest;"
  "$shared/pair.sh" prepare "127.0.0.1:${port[$s]}:sb:sb" >/dev/null
  sb_run "${port[$s]}" "$wl" "$th" 5 >/dev/null   # warm-up
done
one() {  # SERVER -> "tps quire_us sysbench_us" per transaction
  local s=$1 q1 out
  q1=$(awk '{print $14+$15}' "/proc/${pid[$s]}/stat")
  out=$(sb_run_cpu "${port[$s]}" "$wl" "$th" "$secs")
  awk -v q=$(( $(awk '{print $14+$15}' "/proc/${pid[$s]}/stat") - q1 )) -v hz="$(getconf CLK_TCK)" '
    /transactions:/ {gsub(/[(]/, "", $3); tps = $3; n = $2}
    /sysbench_cpu_s:/ {s = $2}
    END {printf "%s %.3f %.3f\n", tps, q * 1e6 / hz / n, s * 1e6 / n}' <<<"$out"
}
preds=(); ratios=()
for r in $(seq "$reps"); do
  if (( r % 2 )); then order="A B"; else order="B A"; fi
  for s in $order; do read -r t q sb < <(one "$s"); declare "T$s=$t" "Q$s=$q" "S$s=$sb"; done
  p=$(cpu_predicted "$QA" "$SA" "$QB" "$SB")
  x=$(awk -v a="$TA" -v b="$TB" 'BEGIN{printf "%.3f", b/a}')
  echo "rep $r: A $TA tps Q $QA S $SA | B $TB tps Q $QB S $SB | tps B/A $x predicted $p"
  preds+=("$p"); ratios+=("$x")
done
echo "median B/A: tps $(med "${ratios[@]}") predicted $(med "${preds[@]}")"
