#!/bin/bash
# Whether moving a log's bytes through memory slows everything else on this machine, with
# no Quire code involved (bench/results/2026-11-29-memory-traffic.md: three sets of 12
# rounds disagreed): one Quire with all logs off under oltp_point_select at 64 threads,
# and beside some of its runs a small C program (built here with cc) that does one of:
#   write    appends RATE MB/s to a file in the scratch directory (on disk) in 150-KB writes,
#            with the log writers' let-go (sync_file_range of each 4-MB chunk, DONTNEED of
#            the one before);
#   nolg     the same without the let-go (no writeback during a run);
#   rewrite  writes the same 4-MB region of one file over and over (no new page-cache
#            pages), starting its writeback each time round;
#   shm      appends as "write" to a file in /dev/shm (tmpfs: no disk, no writeback);
#   memcpy   copies RATE MB/s into a private 4-MB ring (no system calls, no file);
#   wake     wakes up as often as "write" and does nothing.
# MODE@KB sets the let-go chunk, the rewritten region or the ring to KB (default 4096; the
# writes are 150 KB, or KB if less).
# Rounds run "none" (nothing beside) and each mode once, in rotating order; each round
# prints the program's output and each mode against the round's "none" in
# bench/query_logs.sh's lines (the CPU prediction counts the program's CPU as the server's);
# at the end bench/pairs.sh's summary: tps, sysbench's own CPU per transaction and the
# CPU-predicted ratios, median and geometric mean with 95 % intervals.
#   bench/mem_traffic.sh [ROUNDS] [SECONDS] [RATE_MB] [MODES...]
# e.g. bench/mem_traffic.sh 12 5 38 write nolg rewrite memcpy shm
# Run from the project root after `cargo build --release`. Port: QUIRE_PORT (13345).
set -eu
rounds=${1:-12}; secs=${2:-5}; rate=${3:-38}; shift $(($# < 3 ? $# : 3))
modes=(none "${@:-write}")
port=${QUIRE_PORT:-13345}
. "$(dirname "$0")/lib.sh"
shm=$(mktemp -d /dev/shm/quire-traffic.XXXXXX)
trap 'rm -rf "$shm"; cleanup' EXIT

cat >"$tmp/traffic.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv) {
  if (argc != 5) return 2;
  char mode[64];
  snprintf(mode, sizeof mode, "%s", argv[4]);
  char *at_kb = strchr(mode, '@');
  long lg = 4 << 20;
  if (at_kb) {
    *at_kb = 0;
    lg = atol(at_kb + 1) << 10;
  }
  double rate = atof(argv[2]) * 1e6, secs = atof(argv[3]);
  const long chunk = lg < 150 << 10 ? lg : 150 << 10;
  int append = !strcmp(mode, "write") || !strcmp(mode, "nolg");
  int rewrite = !strcmp(mode, "rewrite"), letgo = !strcmp(mode, "write");
  int copy = !strcmp(mode, "memcpy");
  char *buf = malloc(chunk), *ring = copy ? calloc(1, lg) : NULL, path[4096];
  for (long i = 0; i < chunk; i++) buf[i] = 'a' + i % 26;
  snprintf(path, sizeof path, "%s/traffic.log", argv[1]);
  int fd = -1;
  if (append || rewrite) {
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | (append ? O_APPEND : 0), 0644);
    if (fd < 0) return 1;
  }
  double period = chunk / rate, t0 = now();
  long n = 0, size = 0, done = 0;
  while (now() - t0 < secs) {
    long at = size % lg / chunk * chunk;
    if (append && write(fd, buf, chunk) != chunk) return 1;
    if (rewrite) {
      if (pwrite(fd, buf, chunk, at) != chunk) return 1;
      if (at + 2 * chunk > lg) sync_file_range(fd, 0, lg, SYNC_FILE_RANGE_WRITE);
    }
    if (copy) memcpy(ring + (at + chunk > lg ? 0 : at), buf, chunk);
    size += chunk;
    n++;
    for (; letgo && size >= done + lg; done += lg) {
      sync_file_range(fd, done, lg, SYNC_FILE_RANGE_WRITE);
      if (done >= lg) posix_fadvise(fd, done - lg, lg, POSIX_FADV_DONTNEED);
    }
    double w = t0 + n * period - now();
    if (w > 0) {
      struct timespec ts = {(time_t)w, (long)((w - (time_t)w) * 1e9)};
      nanosleep(&ts, 0);
    }
  }
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  if (fd >= 0) unlink(path);
  printf("%.0f MB, own CPU %.3f s\n", size / 1e6,
         r.ru_utime.tv_sec + r.ru_stime.tv_sec + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6);
  return 0;
}
EOF
cc -O2 -o "$tmp/traffic" "$tmp/traffic.c"

start_quire "$port" "$tmp/quire"
"$shared/pair.sh" prepare "127.0.0.1:$port:sb:sb" >/dev/null
mkdir -p "$tmp/files"
echo "Quire $(git rev-parse --short HEAD), all logs off; oltp_point_select at 64 threads, ${secs} s x $rounds rounds; beside it ${rate} MB/s: ${modes[*]:1}"
sb_run "$port" oltp_point_select 64 5 >/dev/null # warm-up, not counted
k=${#modes[@]}
declare -A res
for r in $(seq "$rounds"); do
  for i in $(seq 0 $((k - 1))); do
    m=${modes[$(((i + r) % k))]}
    bp=
    case $m in
      none) ;;
      shm) "$tmp/traffic" "$shm" "$rate" $((secs + 1)) write >"$tmp/traffic.out" & bp=$! ;;
      *) "$tmp/traffic" "$tmp/files" "$rate" $((secs + 1)) "$m" >"$tmp/traffic.out" & bp=$! ;;
    esac
    sleep 0.3
    res[$m]=$(sb_tps_cpu "$port" oltp_point_select 64 "$secs")
    if [ -n "$bp" ]; then
      wait "$bp"
      echo "  $m beside run $r: $(cat "$tmp/traffic.out")"
    fi
    rm -f "$tmp/files"/* "$shm"/*
    sync
  done
  # Each mode against the round's "none", in bench/query_logs.sh's lines (for bench/pairs.sh).
  for m in "${modes[@]:1}"; do
    pair_lines "$rate MB/s $m" oltp_point_select 64 "$r" "${res[$m]}" "${res[none]}"
  done | tee -a "$tmp/pairs"
done
"$(dirname "$0")/pairs.sh" "$tmp/pairs"
