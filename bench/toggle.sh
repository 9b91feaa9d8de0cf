#!/bin/bash
# A switch's cost measured against the machine's drift: one server, one long sysbench run
# reporting every second, and the switch flipped on and off every PHASE seconds during it
# (SET GLOBAL / UPDATE performance_schema.setup_consumers, which are dynamic). Each phase
# keeps only the reports that lie wholly inside it (sysbench starts its clock up to a second
# after ours), so PHASE >= 3. Pairs are (on phase, the off phases either side of it); the
# ratio of each pair is on / mean(off before, off after), which cancels a drift that is
# linear over three phases. Prints the median ratio of the pairs and their spread.
#
# Why: on this 2-vCPU VM the machine's speed drifts by ±15 % within minutes (the same
# configuration's CPU per query moved 30 → 40 µs between runs a minute apart, with the
# machine never idle), so runs of 8–10 s, even alternating, resolve a few percent at best.
# Phases of a few seconds compare the two sides within the same minute many times over.
#
#   bench/toggle.sh SECONDS PHASE [CONFIGS]
# CONFIGS: a ';'-separated list of slow general audit all3 pfs (default: all of them);
# WORKLOADS as in perf_schema.sh (default "oltp_point_select 64;oltp_read_write 16").
# QUIRE_OPTIONS: extra server options. Run from the project root after
# `cargo build --release`. Port: QUIRE_PORT (13351).
set -eu
secs=${1:-120}; phase=${2:-4}
IFS=';' read -r -a CONFIGS <<<"${3:-slow;general;audit;all3;pfs}"
IFS=';' read -r -a WORKLOADS <<<"${WORKLOADS:-oltp_point_select 64;oltp_read_write 16}"
port=${QUIRE_PORT:-13351}
(( phase >= 3 )) || { echo "PHASE must be at least 3 s" >&2; exit 1; }
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2086
start_quire "$port" "$tmp/q" ${QUIRE_OPTIONS:-}
"$shared/pair.sh" prepare "127.0.0.1:$port:sb:sb" >/dev/null
sql() { mariadb -h127.0.0.1 -P"$port" -usb -psb -e "$1"; }
sql "SET GLOBAL slow_query_log_file='$tmp/slow.log'; SET GLOBAL general_log_file='$tmp/general.log';
  SET GLOBAL audit_log_file='$tmp/audit.log'; SET GLOBAL long_query_time=0"
PFS_OFF="UPDATE performance_schema.setup_consumers SET ENABLED='NO'"
PFS_ON="UPDATE performance_schema.setup_consumers SET ENABLED='YES'"
on_sql() {
  case $1 in
    slow) echo "SET GLOBAL slow_query_log=1" ;;
    general) echo "SET GLOBAL general_log=1" ;;
    audit) echo "SET GLOBAL audit_log=ON" ;;
    all3) echo "SET GLOBAL slow_query_log=1; SET GLOBAL general_log=1; SET GLOBAL audit_log=ON" ;;
    pfs) echo "$PFS_ON" ;;
    none) echo "SET GLOBAL slow_query_log=0" ;; # the method against itself: expect 1
    *) echo "unknown config $1" >&2; exit 1 ;;
  esac
}
off_sql() {
  case $1 in
    pfs) echo "$PFS_OFF" ;;
    *) echo "SET GLOBAL slow_query_log=0; SET GLOBAL general_log=0; SET GLOBAL audit_log=OFF" ;;
  esac
}
echo "Quire $(git rev-parse --short HEAD) ${QUIRE_OPTIONS:-}; ${secs} s runs, ${phase} s phases"
for w in "${WORKLOADS[@]}"; do
  read -r wl th <<<"$w"
  sb_run "$port" "$wl" "$th" 5 >/dev/null
  for c in "${CONFIGS[@]}"; do
    on=$(on_sql "$c"); off=$(off_sql "$c")
    sql "$(off_sql slow)"
    [ "$c" = pfs ] || sql "$PFS_ON"
    sql "$off"
    out=$tmp/sb.out
    t0=$(date +%s.%N)
    sysbench "$wl" --mysql-host=127.0.0.1 --mysql-port="$port" --mysql-user=sb \
      --mysql-password=sb --mysql-db=sbtest --tables=4 --table-size=100000 --threads="$th" \
      --time="$secs" --report-interval=1 run >"$out" 2>&1 &
    sb=$!
    # Phase k covers [k * phase, (k + 1) * phase) after t0: on for even k, off for odd k.
    k=0
    while (( (k + 1) * phase <= secs )); do
      if (( k % 2 == 0 )); then sql "$on"; else sql "$off"; fi
      k=$((k + 1))
      sleep "$(awk -v t0="$t0" -v t="$(date +%s.%N)" -v e=$((k * phase)) 'BEGIN {d = t0 + e - t; print (d > 0) ? d : 0}')"
    done
    wait "$sb"
    sql "$off"
    for f in slow general audit; do : >"$tmp/$f.log"; done
    # Report N covers sysbench's seconds (N-1, N], which start 0-1 s after t0: wholly in
    # phase k when k * phase + 1 <= N <= (k + 1) * phase - 1.
    awk -v phase="$phase" -v name="$c $wl t=$th" '
      /^\[ *[0-9]+s \]/ {
        n = $2; sub(/s$/, "", n); n += 0
        for (i = 1; i <= NF; i++) if ($i == "tps:") tps = $(i + 1)
        k = int((n - 1) / phase)
        if (n >= k * phase + 1 && n <= (k + 1) * phase - 1) { sum[k] += tps; cnt[k]++ }
        if (k > last) last = k
      }
      function med(a, m,   i, j, t) {
        for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
        return (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
      }
      END {
        for (k = 0; k <= last; k++) if (cnt[k]) mean[k] = sum[k] / cnt[k]
        m = 0
        for (k = 2; k + 1 <= last; k += 2)
          if (mean[k] && mean[k-1] && mean[k+1]) { r[++m] = mean[k] / ((mean[k-1] + mean[k+1]) / 2) }
        if (m == 0) { print name ": no complete pairs"; exit }
        for (i = 1; i <= m; i++) s[i] = r[i]
        md = med(s, m)
        lo = s[int(m / 4) + 1]; hi = s[m - int(m / 4)]
        printf "%s: %d pairs, median ratio on/off %.3f (middle half %.3f-%.3f)\n", name, m, md, lo, hi
        if (ENVIRON["PHASES"] != "") {
          printf "  phase means:"; for (k = 0; k <= last; k++) printf " %s%.0f", (k % 2) ? "off " : "on ", mean[k]; print ""
        }
      }' "$out"
  done
done
