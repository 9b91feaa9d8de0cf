#!/bin/bash
# Issue 3's restart bar: a 4 x 100,000-row sysbench database restarts in < 2 s from its
# checkpoint and journal.
#   - clean: after a clean shutdown (a checkpoint at the end of the log, nothing to replay);
#   - crash: 64 oltp_write_only writers, `kill -9` at a random moment 10-25 s into the run,
#     then the restart loads the last checkpoint and replays the journal after it.
# Each restart is timed from the process start until `select 1` answers, after a pause
# (PAUSE seconds, default 15) so that it does not reuse memory the previous server just freed.
#   bench/restart.sh [CLEAN_RUNS] [CRASHES] [QUIRE OPTIONS...]
# Run from the project root after `cargo build --release`. Port: QUIRE_PORT (13318).
set -eu
clean=${1:-3}; crashes=${2:-3}; shift $(( $# < 2 ? $# : 2 ))
port=${QUIRE_PORT:-13318}; pause=${PAUSE:-15}
. "$(dirname "$0")/lib.sh"
dir=$tmp/quire

# up: start Quire on $dir and wait for `select 1`; $took is the seconds it took.
up() {
  sleep "$pause"
  local t0; t0=$(date +%s.%N)
  target/release/quire --datadir="$dir" --port="$port" "$@" >>"$dir.log" 2>&1 &
  pid=$!; pids+=("$pid")
  for _ in $(seq 1000); do
    mariadb -h127.0.0.1 -P"$port" -uroot -e 'select 1' >/dev/null 2>&1 && break
    sleep 0.01
  done
  took=$(printf %.2f "$(echo "$(date +%s.%N) - $t0" | bc)")
}
down() { kill "$1" "$pid"; wait "$pid" 2>/dev/null || true; }
recovered() { grep -o 'replayed [0-9]* transactions' "$dir.log" | tail -1; }

start_quire "$port" "$dir" "$@"
pid=${pids[-1]}
"$shared/pair.sh" prepare "127.0.0.1:$port:sb:sb" >/dev/null
echo "Quire $(git rev-parse --short HEAD) $*; 4 x 100,000 rows; pause ${pause} s before each start"
down -TERM
for r in $(seq "$clean"); do
  up "$@"
  echo "clean restart $r: $took s, $(recovered)"
  down -TERM
done
for r in $(seq "$crashes"); do
  up "$@"
  sb_run "$port" oltp_write_only 64 30 >/dev/null &
  load=$!
  sleep $((10 + RANDOM % 16))
  down -KILL
  wait "$load" || true
  up "$@"
  echo "crash restart $r: $took s, $(recovered)"
  down -TERM
done
