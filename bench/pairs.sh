#!/bin/bash
# Pools the pairs of one or more query-log series (bench/query_logs.sh output: lines
# "NAME WORKLOAD t=N run R: on X off Y") and prints, per switch and workload, the number of
# pairs, the median of their on/off ratios and a 95 % confidence interval for that median
# (distribution-free: the order statistics n/2 -/+ 0.98 sqrt(n) of the sorted ratios, from
# the sign test). One series of 5-7 pairs gives an interval about ±0.05 wide here; the
# bars are 0.03 from 1.
#   bench/pairs.sh FILE...
set -eu
awk '
  / run [0-9]+: on [0-9.]+ off [0-9.]+$/ && !/slap/ {
    key = $0; sub(/ run [0-9]+:.*/, "", key); sub(/^ +/, "", key)
    on = $(NF - 2); off = $NF
    if (off > 0) { n[key]++; r[key, n[key]] = on / off }
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
