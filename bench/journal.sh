#!/bin/bash
# Issue 3's performance bars (the journal), oltp_write_only on 4 tables x 100,000 rows,
# sysbench on the same machine, alternating runs (../shared/bench/pair.sh), medians, ratios:
#   - Quire fully durable (defaults) against Quire with innodb_flush_log_at_trx_commit=0,
#     sync_binlog=0, at 64 threads;
#   - Quire fully durable against a private MariaDB 10.11 with --log-bin, sync_binlog=1,
#     innodb_flush_log_at_trx_commit=1, at 64 threads and at 1 thread;
#   - 5,000 serial autocommit single-row UPDATEs through the mariadb client, both durable;
#   - commits per fsync (Binlog_commits / Binlog_group_commits) at 1, 16 and 64 threads.
#   bench/journal.sh [SECONDS] [REPS] [QUIRE OPTIONS...]
# The 1-thread run and the UPDATEs wait for one fsync after another: they follow the disk's
# latency, which on this VM changes several-fold from one minute to the next, so they take
# LAT_REPS (default 3 x REPS) alternating runs, for medians that both servers share.
# Run from the project root after `cargo build --release`. Ports: QUIRE_PORT (13316; the
# non-durable Quire uses +1), MARIADB_PORT (23316). Everything is stopped and removed at the end.
set -eu
secs=${1:-10}; reps=${2:-5}; shift $(( $# < 2 ? $# : 2 ))
lat_reps=${LAT_REPS:-$((3 * reps))}
qport=${QUIRE_PORT:-13316}; nport=$((qport + 1)); mport=${MARIADB_PORT:-23316}
. "$(dirname "$0")/lib.sh"
start_mariadb "$mport" --log-bin=binlog --server-id=1 --sync-binlog=1 \
  --innodb-flush-log-at-trx-commit=1
start_quire "$qport" "$tmp/quire" "$@"
start_quire "$nport" "$tmp/quire0" --innodb-flush-log-at-trx-commit=0 --sync-binlog=0 "$@"

Q=127.0.0.1:$qport:sb:sb; N=127.0.0.1:$nport:sb:sb; M=127.0.0.1:$mport:sb:sb
for s in "$Q" "$N" "$M"; do "$shared/pair.sh" prepare "$s" >/dev/null; done
echo "Quire $(git rev-parse --short HEAD) $*; MariaDB $(mariadbd --version | awk '{print $3}'); ${secs} s x ${reps}"
echo "== A = Quire durable, B = Quire flush=0 sync_binlog=0"
"$shared/pair.sh" run oltp_write_only 64 "$secs" "$reps" "$Q" "$N"
echo "== A = Quire durable, B = MariaDB --log-bin sync_binlog=1 flush=1"
"$shared/pair.sh" run oltp_write_only 64 "$secs" "$reps" "$Q" "$M"
"$shared/pair.sh" run oltp_write_only 1 "$secs" "$lat_reps" "$Q" "$M"

echo "== 5,000 serial autocommit UPDATEs (mariadb client), seconds"
python3 -c "
for i in range(5000): print(f'UPDATE sbtest1 SET k=k+1 WHERE id={i % 1000 + 1};')" >"$tmp/upd.sql"
qt=(); mt=()
for r in $(seq "$lat_reps"); do
  line="run $r:"
  for port in "$qport" "$mport"; do
    t0=$(date +%s.%N)
    mariadb -h127.0.0.1 -P"$port" -usb -psb sbtest <"$tmp/upd.sql"
    t=$(echo "$(date +%s.%N) - $t0" | bc)
    line="$line $t"
    if [ "$port" = "$qport" ]; then qt+=("$t"); else mt+=("$t"); fi
  done
  echo "$line (Quire MariaDB)"
done
awk -v q="$(med "${qt[@]}")" -v m="$(med "${mt[@]}")" \
  'BEGIN{printf "median seconds Quire=%s MariaDB=%s ratio Quire/MariaDB=%.3f\n", q, m, q/m}'

echo "== commits per fsync (Quire durable)"
counters() {
  mariadb -h127.0.0.1 -P"$qport" -uroot -N -e "SHOW GLOBAL STATUS LIKE 'Binlog_%commits'" |
    awk '{print $2}' | paste -sd' '
}
for t in 1 16 64; do
  read -r c0 g0 <<<"$(counters)"
  tps=$(sb_run "$qport" oltp_write_only "$t" "$secs" |
    awk '/transactions:/ {gsub(/[(]/, "", $3); print $3}')
  read -r c1 g1 <<<"$(counters)"
  echo "threads $t: $tps tps, $(echo "scale=1; ($c1 - $c0) / ($g1 - $g0)" | bc) commits per fsync"
done
