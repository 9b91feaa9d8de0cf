#!/bin/bash
# Pools the pairs of one or more series and prints, per switch and workload, the number of
# pairs, the median of their on/off ratios and a 95 % confidence interval for that median
# (distribution-free: the order statistics n/2 -/+ 0.98 sqrt(n) of the sorted ratios, from
# the sign test); apart ("CPU-predicted"), the same for the ratios the pairs' CPU per
# transaction predicts, where the series has them. One series of 5-7 pairs gives an interval
# about ±0.05 wide here; the bars are 0.01-0.03 from 1. Then the geometric mean of the same
# ratios (the mean of their logarithms) with a 95 % interval from its standard error
# (1.96 SE): the median of tps ratios lands where the machine's speed phases put it (their
# spread is skewed), where the mean uses every pair. Last ("sysbench CPU"), the geometric
# mean of sysbench's own CPU per transaction on/off: the CPU prediction takes it for the
# machine's speed of the moment, so where a switch itself makes sysbench slower (1 above
# its interval), the prediction does not count that part of the switch's cost. The series:
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
  # sysbench'\''s CPU per transaction on/off in a line "... CPU us/transaction[:] A|on Q+S
  # B|off Q+S, ...", or "" without one.
  function sysbench_ratio(line,   nf, f, i, s1, s2, x) {
    if (!sub(/.*CPU us\/transaction:? /, "", line)) return ""
    nf = split(line, f, / /)
    for (i = 1; i < nf; i++) {
      if (f[i] == "A" || f[i] == "on") { split(f[i + 1], x, "+"); s1 = x[2] + 0 }
      if (f[i] == "B" || f[i] == "off") { split(f[i + 1], x, "+"); s2 = x[2] + 0 }
    }
    return (s1 > 0 && s2 > 0) ? s1 / s2 : ""
  }
  # bench/perf_schema.sh: "run R: A X | B Y tps[ | CPU ... predicted A/B P]" lines, then
  # the workload'\''s summary line "WORKLOAD t=N median tps ...".
  /^run [0-9]+: A [0-9.]+ \| B [0-9.]+ tps/ {
    np++; pa[np] = $4 / $7
    pp[np] = ($0 ~ /predicted A\/B/) ? $NF : ""
    ps[np] = sysbench_ratio($0)
  }
  /^[a-z_]+ t=[0-9]+ median tps A=/ {
    key = "performance_schema ON/OFF " $1 " " $2
    for (i = 1; i <= np; i++) {
      n[key]++; r[key, n[key]] = pa[i]
      if (pp[i] != "") { k2 = key " CPU-predicted"; n[k2]++; r[k2, n[k2]] = pp[i] }
      if (ps[i] != "") { k2 = key " sysbench CPU"; n[k2]++; r[k2, n[k2]] = ps[i] }
    }
    np = 0
  }
  / run [0-9]+ CPU us\/transaction: .*predicted [0-9.]+$/ {
    key = $0; sub(/ run [0-9]+ CPU.*/, "", key); sub(/^ +/, "", key)
    k2 = key " CPU-predicted"; n[k2]++; r[k2, n[k2]] = $NF
    x = sysbench_ratio($0)
    if (x != "") { k2 = key " sysbench CPU"; n[k2]++; r[k2, n[k2]] = x }
  }
  END {
    for (k in n) {
      m = n[k]
      for (i = 1; i <= m; i++) v[i] = r[k, i]
      for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j-1] > v[j]; j--) { t = v[j]; v[j] = v[j-1]; v[j-1] = t }
      med = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
      lo = int(m / 2 - 0.98 * sqrt(m)); hi = m + 1 - lo
      if (lo < 1) { lo = 1; hi = m }
      sl = 0; ss = 0
      for (i = 1; i <= m; i++) { x = log(v[i]); sl += x; ss += x * x }
      mu = sl / m; se = (m > 1) ? sqrt((ss - m * mu * mu) / (m - 1) / m) : 0
      printf "%s: %d pairs, median ratio on/off %.3f, 95%% interval %.3f-%.3f; geometric mean %.4f, 95%% interval %.4f-%.4f\n", k, m, med, v[lo], v[hi], exp(mu), exp(mu - 1.96 * se), exp(mu + 1.96 * se)
    }
  }' "$@" | sort
