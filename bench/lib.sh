# Sourced by the bench scripts: $shared (../shared/bench), $tmp (a scratch directory), and
# start_quire / start_mariadb; at exit every server started is stopped and $tmp removed.
shared=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../../shared/bench")
tmp=$(mktemp -d /tmp/quire-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
  "$shared/mariadb.sh" stop "$tmp/mdb" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# start_quire PORT DIR [OPTIONS...]: Quire from target/release with user sb/sb (all
# privileges) and an empty database sbtest; its pid is the last of $pids. QUIRE_WRAP: a
# command to run it under (say `taskset -c 0`).
start_quire() {
  local port=$1 dir=$2; shift 2
  launch_quire "$port" "$dir" "$@"
  mariadb -h127.0.0.1 -P"$port" -uroot -e "CREATE USER sb@'%' IDENTIFIED BY 'sb';
    GRANT ALL ON *.* TO sb@'%'; CREATE DATABASE sbtest;"
}

# launch_quire PORT DIR [OPTIONS...]: Quire from target/release on its data directory DIR
# (new or not; its output appended to DIR.log), once it answers (at most 30 s: a restart
# recovers first); its pid is the last of $pids. QUIRE_WRAP as for start_quire.
launch_quire() {
  local port=$1 dir=$2; shift 2
  ${QUIRE_WRAP:-} target/release/quire --datadir="$dir" --port="$port" "$@" >>"$dir.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 150); do mariadb -h127.0.0.1 -P"$port" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
}

# start_mariadb PORT [MARIADBD OPTIONS...]: the private MariaDB in $tmp/mdb (user sb/sb,
# database sbtest; see ../shared/bench/mariadb.sh).
start_mariadb() {
  local port=$1; shift
  "$shared/mariadb.sh" start "$tmp/mdb" "$port" "$@" >/dev/null
}

# clear_logs PORT DIR [FLUSH]: deletes the log files in DIR, has the server on PORT reopen
# them (FLUSH, default `FLUSH LOGS`; user sb) and `sync`s, so that the removal is finished
# (the journal commit that frees the files' blocks, and their discard on a file system
# mounted with `discard`) before the next run, which would otherwise pay for it in its first
# commits. After a run with the logs on: the next run does not write back its pages either.
clear_logs() {
  rm -f "$2"/*
  mariadb -h127.0.0.1 -P"$1" -usb -psb -e "${3:-FLUSH LOGS}"
  sync
}

# sb_run PORT WORKLOAD THREADS SECONDS: one sysbench run on the 4 x 100,000-row tables of
# database sbtest as user sb; its report on stdout. SB_WRAP: a command to run it under.
sb_run() {
  ${SB_WRAP:-} sysbench "$2" --mysql-host=127.0.0.1 --mysql-port="$1" --mysql-user=sb \
    --mysql-password=sb --mysql-db=sbtest --tables=4 --table-size=100000 --threads="$3" \
    --time="$4" run 2>&1
}

# sb_tps PORT WORKLOAD THREADS SECONDS: one sysbench run (as sb_run), its transactions per
# second.
sb_tps() {
  sb_run "$@" | awk '/transactions:/{gsub(/[(]/,"",$3); print $3}'
}

# med NUMBER...: the median.
med() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END{print (NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# sb_run_cpu PORT WORKLOAD THREADS SECONDS: as sb_run, then a line "sysbench_cpu_s: S",
# the CPU seconds sysbench itself used (its threads, user and system).
sb_run_cpu() {
  local f="$tmp/times.$RANDOM"
  # `times` in the subshell that ran sysbench (not in a pipeline: that is a fresh process).
  (sb_run "$@"; times >"$f")
  awk 'NR == 2 {
    s = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); s += p[1] * 60 + p[2] }
    print "sysbench_cpu_s: " s }' "$f"
  rm -f "$f"
}

# sb_tps_cpu PORT WORKLOAD THREADS SECONDS: one sysbench run (as sb_run), "TPS Q S": Q is
# the machine's busy time (all CPUs, /proc/stat) less sysbench's own, per transaction in us
# (the server, and what the kernel does for it outside it: writeback, interrupts), S is
# sysbench's own. sysbench does the same work per transaction in every run, so S measures
# the machine's speed of the moment, and for two runs a and b, (1 + Q_a / S_a) / (1 + Q_b /
# S_b) is the throughput ratio b/a that their CPU predicts on CPUs shared with sysbench
# (steady where the tps of single runs here drift by +-20 %; see bench/ab.sh).
sb_tps_cpu() {
  local b1 out
  b1=$(machine_busy)
  out=$(sb_run_cpu "$@")
  awk -v b=$(( $(machine_busy) - b1 )) -v hz="$(getconf CLK_TCK)" '
    /transactions:/ {gsub(/[(]/, "", $3); tps = $3; n = $2}
    /sysbench_cpu_s:/ {s = $2}
    END {printf "%s %.3f %.3f\n", tps, (b / hz - s) * 1e6 / n, s * 1e6 / n}' <<<"$out"
}
# cpu_predicted Q_A S_A Q_B S_B: the throughput ratio B/A that two runs' CPU per
# transaction predicts (sb_tps_cpu's Q and S), (1 + Q_A / S_A) / (1 + Q_B / S_B).
cpu_predicted() {
  awk -v qa="$1" -v sa="$2" -v qb="$3" -v sb="$4" 'BEGIN {printf "%.4f", (1 + qa / sa) / (1 + qb / sb)}'
}
# pair_lines NAME WORKLOAD THREADS R ON OFF: one pair in bench/query_logs.sh's two lines
# (what bench/pairs.sh reads), ON and OFF being sb_tps_cpu's "TPS Q S" of its two runs.
pair_lines() {
  local x qx sx y qy sy
  read -r x qx sx <<<"$5"
  read -r y qy sy <<<"$6"
  echo "  $1 $2 t=$3 run $4: on $x off $y"
  echo "  $1 $2 t=$3 run $4 CPU us/transaction: on $qx+$sx off $qy+$sy, predicted $(cpu_predicted "$qy" "$sy" "$qx" "$sx")"
}
# machine_busy: the clock ticks all CPUs have been busy since boot (user, nice, system, irq,
# softirq).
machine_busy() { head -1 /proc/stat | awk '{print $2+$3+$4+$7+$8}'; }
