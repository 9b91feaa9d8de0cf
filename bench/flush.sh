#!/bin/bash
# The flush-policy benchmark: oltp_write_only (4 tables x 100,000 rows) against one Quire per
# setting, runs round-robin (one run of each setting per round), medians per setting:
#   - innodb_flush_method fsync (default), fdatasync, O_DSYNC, O_DIRECT, fully durable;
#   - innodb_flush_log_at_trx_commit=2 and =0 (with sync_binlog=0), method fsync;
#   - MariaDB 10.11 with --log-bin, sync_binlog=1, innodb_flush_log_at_trx_commit=1 and
#     --innodb-flush-method=fsync / O_DIRECT, for scale.
#   bench/flush.sh [SECONDS] [REPS] [THREADS...]     (defaults: 10 3 1 64)
# Run from the project root after `cargo build --release`. Ports from FLUSH_PORT (13330) up.
set -eu
secs=${1:-10}; reps=${2:-3}; shift $(( $# < 2 ? $# : 2 ))
threads=("$@"); [ ${#threads[@]} -gt 0 ] || threads=(1 64)
port=${FLUSH_PORT:-13330}
. "$(dirname "$0")/lib.sh"

names=(); targets=()
quire() {
  local name=$1; shift
  start_quire "$port" "$tmp/$name" "$@"
  names+=("$name"); targets+=("127.0.0.1:$port:sb:sb"); port=$((port + 1))
}
quire fsync
quire fdatasync --innodb-flush-method=fdatasync
quire O_DSYNC --innodb-flush-method=O_DSYNC
quire O_DIRECT --innodb-flush-method=O_DIRECT
quire trx_commit=2 --innodb-flush-log-at-trx-commit=2 --sync-binlog=0
quire trx_commit=0 --innodb-flush-log-at-trx-commit=0 --sync-binlog=0
durable=(--log-bin=binlog --server-id=1 --sync-binlog=1 --innodb-flush-log-at-trx-commit=1)
start_mariadb "$port" "${durable[@]}" --innodb-flush-method=fsync
names+=(MariaDB-fsync); targets+=("127.0.0.1:$port:sb:sb")
# A second private MariaDB: lib.sh stops the first; stop this one here.
mdb2=$tmp/mdb2; port=$((port + 1))
"$shared/mariadb.sh" start "$mdb2" "$port" "${durable[@]}" --innodb-flush-method=O_DIRECT >/dev/null
trap '"$shared/mariadb.sh" stop "$mdb2" >/dev/null 2>&1 || true; cleanup' EXIT
names+=(MariaDB-O_DIRECT); targets+=("127.0.0.1:$port:sb:sb")

for t in "${targets[@]}"; do "$shared/pair.sh" prepare "$t" >/dev/null; done
echo "Quire $(git rev-parse --short HEAD); MariaDB $(mariadbd --version | awk '{print $3}'); oltp_write_only ${secs} s x ${reps}, round-robin"
tps() { # tps TARGET THREADS (every target is 127.0.0.1:PORT:sb:sb)
  IFS=: read -r _ p _ <<<"$1"
  sb_run "$p" oltp_write_only "$2" "$secs" | awk '/transactions:/ {gsub(/[(]/, "", $3); print $3}'
}
for t in "${threads[@]}"; do
  declare -A runs=()
  for r in $(seq "$reps"); do
    line="threads $t run $r:"
    for i in "${!targets[@]}"; do
      x=$(tps "${targets[$i]}" "$t"); runs[$i]="${runs[$i]:-} $x"; line="$line ${names[$i]}=$x"
    done
    echo "$line"
  done
  base=$(med ${runs[0]})
  for i in "${!targets[@]}"; do
    m=$(med ${runs[$i]})
    printf 'threads %-3s %-17s median %9.1f tps  %.2fx fsync\n' "$t" "${names[$i]}" "$m" \
      "$(echo "$m / $base" | bc -l)"
  done
  unset runs
done
