#!/bin/bash
# Where the three logs' cost goes: one Quire, rounds of three runs in rotating order — all
# logs off; the slow (long_query_time=0), general and audit logs on with their files on disk
# (a scratch directory, as bench/query_logs.sh); the same three logs with every file set to
# /dev/null (formatted and handed over as ever, nothing reaches a file). Each run prints
# "MODE TPS Q S" (bench/lib.sh sb_tps_cpu); at the end, each mode against the round's "off"
# run: geometric means of the tps ratios, of sysbench's own CPU per transaction, and of the
# CPU-predicted ratios, with 95 % intervals (bench/results/2026-11-29-log-sinks.md).
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
out="$tmp/runs"
for r in $(seq "$rounds"); do
  for i in 0 1 2; do
    m=${modes[$(((i + r) % 3))]}
    case $m in
      disk) files "$tmp/logs"; sql "$ON" ;;
      null) null; sql "$ON" ;;
    esac
    echo "$m $(sb_tps_cpu "$port" "$wl" "$th" "$secs")" | tee -a "$out"
    sql "$OFF"
    clear_logs "$port" "$tmp/logs" "FLUSH SLOW LOGS; FLUSH GENERAL LOGS; FLUSH LOGS"
  done
done
# Rounds are three consecutive lines; each mode against its round's "off".
awk '{ r = int((NR - 1) / 3); t[r, $1] = $2; q[r, $1] = $3; s[r, $1] = $4; n = r + 1 }
  function show(name, k,   j, mu, sd) {
    mu = sum[k] / n; sd = sqrt((sq[k] - n * mu * mu) / (n - 1))
    printf "  %s %.4f (%.4f-%.4f)", name, exp(mu), exp(mu - 1.96 * sd / sqrt(n)), exp(mu + 1.96 * sd / sqrt(n))
  }
  END {
    split("disk null", ms, " ")
    for (i = 1; i <= 2; i++) {
      m = ms[i]; delete sum; delete sq
      for (r = 0; r < n; r++) {
        x[1] = log(t[r, m] / t[r, "off"]); x[2] = log(s[r, m] / s[r, "off"])
        x[3] = log((1 + q[r, "off"] / s[r, "off"]) / (1 + q[r, m] / s[r, m]))
        for (k = 1; k <= 3; k++) { sum[k] += x[k]; sq[k] += x[k] ^ 2 }
      }
      printf "all three logs, files %s, against off, %d rounds:", (m == "disk" ? "on disk" : "/dev/null"), n
      show("tps", 1); show("sysbench CPU", 2); show("CPU-predicted", 3); printf "\n"
    }
  }' "$out"
