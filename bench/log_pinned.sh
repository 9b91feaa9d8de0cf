#!/bin/bash
# Logging's cost with Quire and sysbench on CPUs of their own: Quire pinned to QCPUS (default
# CPU 0), sysbench to SCPUS (CPU 1), so the client does not share the server's CPUs and tps
# follows Quire's own CPU per query. Alternating runs (odd reps off first), all logs off
# against ON (default: slow at long_query_time=0, general and audit); per pair the tps ratio
# and Quire's CPU per query off/on, then their medians.
#   WL=oltp_read_write TH=16 SECS=6 REPS=10 bench/log_pinned.sh
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
port=${QUIRE_PORT:-13380}; WL=${WL:-oltp_point_select}; TH=${TH:-64}; SECS=${SECS:-6}; REPS=${REPS:-8}
QCPUS=${QCPUS:-0}; SCPUS=${SCPUS:-1}
QUIRE_WRAP="taskset -c $QCPUS" start_quire "$port" "$tmp/q" >/dev/null
qpid=${pids[-1]}
export SB_WRAP="taskset -c $SCPUS"
"$shared/pair.sh" prepare "127.0.0.1:$port:sb:sb" >/dev/null
m() { mariadb -h127.0.0.1 -P$port -usb -psb -e "$1"; }
mkdir -p $tmp/logs
m "SET GLOBAL slow_query_log_file='$tmp/logs/s', general_log_file='$tmp/logs/g', audit_log_file='$tmp/logs/a'"
OFF="SET GLOBAL slow_query_log=OFF, general_log=OFF, audit_log=OFF, long_query_time=10"
ON=${ON:-"SET GLOBAL slow_query_log=ON, general_log=ON, audit_log=ON, long_query_time=0"}
mine() { awk '{print $14+$15}' /proc/$qpid/stat; }
run() {
  local q1=$(mine) out
  out=$(sb_run "$port" "$WL" "$TH" "$SECS")
  local q2=$(mine)
  m "$OFF"; clear_logs "$port" "$tmp/logs"
  awk -v q=$((q2-q1)) -v hz=$(getconf CLK_TCK) '/transactions:/{gsub(/[(]/,"",$3); t=$3} /queries:/ && !n {n=$2} END{printf "%s %.3f\n", t, q*1e6/hz/n}' <<<"$out"
}
sb_run "$port" "$WL" "$TH" 5 >/dev/null   # warm-up
tr=(); cr=()
echo "Quire $(git rev-parse --short HEAD); $WL t=$TH ${SECS} s x $REPS; Quire on CPUs $QCPUS, sysbench on $SCPUS; on: $ON"
for r in $(seq $REPS); do
  if (( r % 2 )); then m "$OFF"; read -r t0 c0 < <(run); m "$ON"; read -r t1 c1 < <(run)
  else m "$ON"; read -r t1 c1 < <(run); m "$OFF"; read -r t0 c0 < <(run); fi
  x=$(awk -v a=$t1 -v b=$t0 'BEGIN{printf "%.3f", a/b}'); y=$(awk -v a=$c0 -v b=$c1 'BEGIN{printf "%.3f", a/b}')
  echo "rep $r: off $t0 tps $c0 us/q | on $t1 tps $c1 us/q | tps on/off $x, Quire CPU/query off/on $y"
  tr+=($x); cr+=($y)
done
echo "median tps on/off $(med "${tr[@]}"); median Quire CPU per query off/on $(med "${cr[@]}")"
