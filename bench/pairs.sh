#!/bin/bash
# Pools the pairs of one or more series and prints, per switch and workload, the number of
# pairs, the median of their on/off ratios and a 95 % confidence interval for that median
# (distribution-free: the order statistics n/2 -/+ 0.98 sqrt(n) of the sorted ratios, from
# the sign test); apart ("CPU-predicted"), the same for the ratios the pairs' CPU per
# transaction predicts, where the series has them. One series of 5-7 pairs gives an interval
# about ±0.05 wide here; the bars are 0.01-0.03 from 1. The series:
#   - bench/query_logs.sh: lines "NAME WORKLOAD t=N run R: on X off Y", and "NAME WORKLOAD
#     t=N run R CPU us/transaction: ... predicted P";
#   - bench/perf_schema.sh: lines "run R: A X | B Y tps[ | CPU ... predicted A/B P]",
#     pooled under the workload of the summary line after them ("WORKLOAD t=N median ...").
#   bench/pairs.sh FILE...
set -eu
awk '
  / run [0-9]+: on [0-9.]+ off [0-9.]+$/ && !/slap/ {
    key = $0; sub(/ run [0-9]+:.*/, "", key); sub(/^ +/, "", key)
    on = $(NF - 2); off = $NF
    if (off > 0) { n[key]++; r[key, n[key]] = on / off }
  }
  # bench/perf_schema.sh: "run R: A X | B Y tps[ | CPU ... predicted A/B P]" lines, then
  # the workload'\''s summary line "WORKLOAD t=N median tps ...".
  /^run [0-9]+: A [0-9.]+ \| B [0-9.]+ tps/ {
    np++; pa[np] = $4 / $7
    pp[np] = ($0 ~ /predicted A\/B/) ? $NF : ""
  }
  /^[a-z_]+ t=[0-9]+ median tps A=/ {
    key = "performance_schema ON/OFF " $1 " " $2
    for (i = 1; i <= np; i++) {
      n[key]++; r[key, n[key]] = pa[i]
      if (pp[i] != "") { k2 = key " CPU-predicted"; n[k2]++; r[k2, n[k2]] = pp[i] }
    }
    np = 0
  }
  / run [0-9]+ CPU us\/transaction: .*predicted [0-9.]+$/ {
    key = $0; sub(/ run [0-9]+ CPU.*/, "", key); sub(/^ +/, "", key); key = key " CPU-predicted"
    n[key]++; r[key, n[key]] = $NF
  }
  END {
    for (k in n) {
      m = n[k]
      for (i = 1; i <= m; i++) v[i] = r[k, i]
      for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
      med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
      lo = int(m / 2 - 0.98 * sqrt(m)); hi = m + 1 - lo
      if (lo < 1) { lo = 1; hi = m }
      printf "%s: %d pairs, median ratio on/off %.3f, 95%% interval %.3f-%.3f\n", k, m, med, v[lo], v[hi]
    }
  }' "$@" | sort
