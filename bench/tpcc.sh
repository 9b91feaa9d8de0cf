#!/bin/bash
# TPC-C (bench/tpcc: a Go client written from the spec, tpcc-mysql style, no think time):
# Quire against a private MariaDB 10.11, both durable with the binary log on (Quire's
# defaults; MariaDB --log-bin, sync_binlog=1, innodb_flush_log_at_trx_commit=1). WAREHOUSES
# are loaded into each, then alternating runs Quire, MariaDB, Quire, …, the consistency
# check (TPC-C 3.3.2.1-4) on both, medians of NOTPM and the ratio Quire/MariaDB.
#   bench/tpcc.sh [QUIRE OPTIONS...]
# Environment: WAREHOUSES (10), RUNS (3), DURATION (10m), WARMUP (1m), CONNS (32), MODE
# (prepared or text), LOAD_CONNS (4), FKS=1 to add the foreign keys after the load,
# MARIADB_OPTS (extra mariadbd options, e.g. --thread-handling=pool-of-threads).
# Run from the project root after `cargo build --release`; needs Go (go on PATH or
# /usr/local/go/bin/go). Ports: QUIRE_PORT (13336), MARIADB_PORT (23336). The report goes to
# stdout and bench/results/DATE-tpcc.txt. Everything is stopped and removed at the end.
set -eu
wh=${WAREHOUSES:-10}; runs=${RUNS:-3}; dur=${DURATION:-10m}; warm=${WARMUP:-1m}
conns=${CONNS:-32}; mode=${MODE:-prepared}; lconns=${LOAD_CONNS:-4}
qport=${QUIRE_PORT:-13336}; mport=${MARIADB_PORT:-23336}
. "$(dirname "$0")/lib.sh"
out=bench/results/$(date +%F)-tpcc.txt; n=2
while [ -e "$out" ]; do out=bench/results/$(date +%F)-tpcc-$n.txt; n=$((n + 1)); done
exec > >(tee "$out") 2>&1

go=$(command -v go || echo /usr/local/go/bin/go)
(cd "$(dirname "$0")/tpcc" && "$go" build -o "$tmp/tpcc" .)
# shellcheck disable=SC2086 # MARIADB_OPTS is a list of options
start_mariadb "$mport" --log-bin="$tmp/mdb/binlog" --server-id=1 --sync-binlog=1 \
  --innodb-flush-log-at-trx-commit=1 ${MARIADB_OPTS:-}
start_quire "$qport" "$tmp/quire" "$@"
tpcc() { # tpcc PORT COMMAND [FLAGS...]
  local port=$1 cmd=$2; shift 2
  "$tmp/tpcc" "$cmd" -port "$port" -user sb -password sb -warehouses "$wh" "$@"
}
fks=(); fkdesc=
if [[ ${FKS:-} == 1 ]]; then fks=(-fks); fkdesc="foreign keys, "; fi

echo "Quire $(git rev-parse --short HEAD 2>/dev/null || echo '?') $*; MariaDB $(mariadbd --version | awk '{print $3}') ${MARIADB_OPTS:-}"
echo "TPC-C $wh warehouses, $conns connections, mode $mode, ${fkdesc}warmup $warm + $dur x $runs"
for s in "Quire $qport" "MariaDB $mport"; do
  read -r name port <<<"$s"
  echo "== load $name: $(tpcc "$port" load -load-conns "$lconns" "${fks[@]}" | grep -E 'load time|foreign keys' | paste -sd' ')"
done

qn=(); mn=()
for r in $(seq "$runs"); do
  for s in "Quire $qport" "MariaDB $mport"; do
    read -r name port <<<"$s"
    echo "== run $r $name"
    tpcc "$port" run -conns "$conns" -mode "$mode" -duration "$dur" -warmup "$warm" >"$tmp/run.txt" 2>&1 || true
    # the summary (per-transaction table, errors, RESULT), not the 10-second lines
    sed -n '/^measured/,$p' "$tmp/run.txt"
    grep -q '^RESULT' "$tmp/run.txt" || { echo "run failed:"; tail -5 "$tmp/run.txt"; }
    notpm=$(awk -F'[ =]' '/^RESULT/ {print $3}' "$tmp/run.txt"); notpm=${notpm:-0}
    if [[ $name == Quire ]]; then qn+=("$notpm"); else mn+=("$notpm"); fi
  done
done

for s in "Quire $qport" "MariaDB $mport"; do
  read -r name port <<<"$s"
  echo "== check $name"
  tpcc "$port" check || true
done
echo "NOTPM Quire: ${qn[*]}; MariaDB: ${mn[*]}"
awk -v q="$(med "${qn[@]}")" -v m="$(med "${mn[@]}")" \
  'BEGIN{printf "median NOTPM Quire=%s MariaDB=%s ratio Quire/MariaDB=%.3f\n", q, m, (m > 0 ? q/m : 0)}'
