#!/bin/bash
# Where the three logs' cost goes: one Quire, rounds of three runs in rotating order — all
# logs off; the slow (long_query_time=0), general and audit logs on with their files on disk
# (a scratch directory, as bench/query_logs.sh); the same three logs with every file set to
# /dev/null (formatted and handed over as ever, nothing reaches a file). It prints
# each round's two pairs (each mode against the round's "off" run) in bench/query_logs.sh's
# lines; at the end bench/pairs.sh's summary of them: tps, sysbench's own CPU per
# transaction and the CPU-predicted ratios, median and geometric mean with 95 % intervals
# (bench/results/2026-11-29-log-sinks.md).
#   bench/log_sinks.sh [ROUNDS] [SECONDS] [WORKLOAD THREADS]
# Run from the project root after `cargo build --release`. Port: QUIRE_PORT (13340).
set -eu
rounds=${1:-40}; secs=${2:-5}; wl=${3:-oltp_point_select}; th=${4:-64}
port=${QUIRE_PORT:-13340}
. "$(dirname "$0")/lib.sh"

start_quire "$port" "$tmp/quire"
"$shared/pair.sh" prepare "127.0.0.1:$port:sb:sb" >/dev/null
mkdir -p "$tmp/logs"
sql() { mariadb -h127.0.0.1 -P"$port" -usb -psb -e "$1"; }
files() {
  sql "SET GLOBAL slow_query_log_file='$1/slow.log'; SET GLOBAL general_log_file='$1/general.log';
    SET GLOBAL audit_log_file='$1/audit.log'"
}
null() {
  sql "SET GLOBAL slow_query_log_file='/dev/null'; SET GLOBAL general_log_file='/dev/null';
    SET GLOBAL audit_log_file='/dev/null'"
}
ON="SET GLOBAL long_query_time=0; SET GLOBAL slow_query_log=ON; SET GLOBAL general_log=ON; SET GLOBAL audit_log=ON"
OFF="SET GLOBAL slow_query_log=OFF; SET GLOBAL general_log=OFF; SET GLOBAL audit_log=OFF; SET GLOBAL long_query_time=10"
echo "Quire $(git rev-parse --short HEAD); $wl at $th threads, ${secs} s x $rounds rounds"
sb_run "$port" "$wl" "$th" 5 >/dev/null # warm-up, not counted
modes=(off disk null)
declare -A res
for r in $(seq "$rounds"); do
  for i in 0 1 2; do
    m=${modes[$(((i + r) % 3))]}
    case $m in
      disk) files "$tmp/logs"; sql "$ON" ;;
      null) null; sql "$ON" ;;
    esac
    res[$m]=$(sb_tps_cpu "$port" "$wl" "$th" "$secs")
    sql "$OFF"
    clear_logs "$port" "$tmp/logs" "FLUSH SLOW LOGS; FLUSH GENERAL LOGS; FLUSH LOGS"
  done
  # Each mode against the round's "off", in bench/query_logs.sh's lines (for bench/pairs.sh).
  for m in disk null; do
    name="all three logs, files $([ "$m" = disk ] && echo on disk || echo in /dev/null)"
    pair_lines "$name" "$wl" "$th" "$r" "${res[$m]}" "${res[off]}"
  done | tee -a "$tmp/pairs"
done
"$(dirname "$0")/pairs.sh" "$tmp/pairs"
