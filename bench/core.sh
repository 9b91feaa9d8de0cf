#!/bin/bash
# Issue 2's performance bars: Quire against a private MariaDB 10.11 with
# innodb_flush_log_at_trx_commit=0 and the binary log off, sysbench on the same machine,
# alternating runs (../shared/bench/pair.sh), medians and ratios.
#   bench/core.sh [SECONDS] [REPS] [QUIRE OPTIONS...]
# Run from the project root after `cargo build --release`. Ports: QUIRE_PORT (13306),
# MARIADB_PORT (23306). Both servers are stopped and their directories removed at the end.
set -eu
secs=${1:-10}; reps=${2:-5}; shift $(( $# < 2 ? $# : 2 ))
qport=${QUIRE_PORT:-13306}; mport=${MARIADB_PORT:-23306}
. "$(dirname "$0")/lib.sh"
start_mariadb "$mport" --innodb-flush-log-at-trx-commit=0
start_quire "$qport" "$tmp/quire" "$@"

Q=127.0.0.1:$qport:sb:sb; M=127.0.0.1:$mport:sb:sb
"$shared/pair.sh" prepare "$Q" >/dev/null
"$shared/pair.sh" prepare "$M" >/dev/null
echo "A = Quire $(git rev-parse --short HEAD) $*, B = MariaDB $(mariadbd --version | awk '{print $3}'); ${secs} s x ${reps}"
for w in "oltp_point_select 64" "oltp_read_only 16" "oltp_read_write 16"; do
  # shellcheck disable=SC2086
  "$shared/pair.sh" run $w "$secs" "$reps" "$Q" "$M"
done
