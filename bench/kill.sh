#!/bin/bash
# Issue 5: how long KILL QUERY takes to stop a long SELECT — a cross join of two
# 10,000-row tables (10^8 row pairs, seconds of work) — measured from just before the
# `mariadb -e 'KILL QUERY n'` client starts to the moment the killed client has exited
# with error 1317 (both clients' start-up included). Median of REPS.
#   bench/kill.sh [REPS]
# Run from the project root after `cargo build --release`. Port: QUIRE_PORT (13371).
set -eu
reps=${1:-9}
port=${QUIRE_PORT:-13371}
. "$(dirname "$0")/lib.sh"
start_quire "$port" "$tmp/quire" >/dev/null
m() { mariadb -h127.0.0.1 -P"$port" -uroot "$@"; }
m -e "CREATE DATABASE k; CREATE TABLE k.a (id INT PRIMARY KEY, v INT);
  CREATE TABLE k.b (id INT PRIMARY KEY, v INT)"
python3 -c "
for t in 'ab':
    for s in range(0, 10000, 1000):
        print(f'INSERT INTO k.{t} VALUES ' + ','.join(f'({i},{i})' for i in range(s, s + 1000)) + ';')
" | m
echo "Quire $(git rev-parse --short HEAD); KILL QUERY of SELECT COUNT(*) FROM k.a, k.b WHERE a.v + b.v = -1"
ms=()
for r in $(seq "$reps"); do
  (m -N -e "SELECT COUNT(*) FROM k.a, k.b WHERE a.v + b.v = -1" >"$tmp/out.$r" 2>&1 || true
    date +%s.%N >"$tmp/end.$r") &
  bg=$!
  id=
  for _ in $(seq 100); do
    id=$(m -N -e "SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT COUNT(*) FROM k.a,%'")
    [ -n "$id" ] && break
    sleep 0.05
  done
  sleep 0.5 # well into the join
  t0=$(date +%s.%N)
  m -e "KILL QUERY $id"
  wait "$bg"
  t=$(echo "($(cat "$tmp/end.$r") - $t0) * 1000" | bc)
  echo "run $r: $t ms: $(tr '\n' ' ' <"$tmp/out.$r")"
  ms+=("$t")
done
printf '%s\n' "${ms[@]}" | sort -g |
  awk '{v[NR]=$1} END{printf "median ms from KILL QUERY to the error: %.1f\n", (NR%2)? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
