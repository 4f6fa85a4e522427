#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang (ASan + UBSan + coverage) into
# ./build-fuzz and runs each one for a given time over its seed corpus, then prints a table:
# target / execs / coverage / crashes. New inputs go to build-fuzz/fuzz-out/<target>/corpus
# (never into the repository); crash, timeout and leak inputs to build-fuzz/fuzz-out/<target>/artifacts.
# After a crash the target is restarted until its time is used up.
#
# Usage: packaging/fuzz.sh [seconds-per-target (default 60)] [target-regex (default: all)]
#   e.g. packaging/fuzz.sh 600 'patch|schema'
# Environment: OPBENCH_FUZZ_CXX (default clang++-16), OPBENCH_FUZZ_BUILD_DIR
# (default build-fuzz), OPBENCH_FUZZ_JOBS (build parallelism, default nproc),
# OPBENCH_FUZZ_ARGS (extra libFuzzer flags).
# Memory blow-ups fail a run too, not only crashes: -rss_limit_mb (whole process, ASan's shadow
# and a quarantine cut to 64 MB included) and -malloc_limit_mb (one allocation) are low enough
# that issue 27's 400-byte YAML alias bomb (423 MB without sanitizers) is an artifact named
# oom-*. Override with OPBENCH_FUZZ_RSS_MB / OPBENCH_FUZZ_MALLOC_MB.
# A crash input is replayed with: build-fuzz/tests/fuzz/fuzz_<target> <file>; once fixed, copy it
# to tests/fuzz/regressions/<target>/ so tst_fuzz_corpus replays it in every test run (which also
# fails an input whose peak RSS grows by more than 256 MB).
# Not part of the README's test command (a clang build of the engine libraries: ~15 min cold).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
only=${2:-.*}
BUILD_DIR=${OPBENCH_FUZZ_BUILD_DIR:-build-fuzz}
# clang 16: clang 14 (Debian's default clang) cannot capture structured bindings in lambdas
# (C++20 P1091; engine/base/metrics.cpp does), so the engine does not compile with it.
CXX_BIN=${OPBENCH_FUZZ_CXX:-$(command -v clang++-16 || true)}
[ -n "$CXX_BIN" ] || { echo "fuzz: clang++-16 not found (apt-get install clang-16 libclang-rt-16-dev)"; exit 2; }
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_CXX_COMPILER="$CXX_BIN" \
        -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
        -DOPBENCH_FUZZ=ON -DOPBENCH_BUILD_GUI=OFF -DOPBENCH_BUILD_BENCH=OFF
fi
all=$(ls tests/fuzz/fuzz_*.cpp | sed 's/.*fuzz_\(.*\)\.cpp/\1/')
targets=$(echo "$all" | grep -E "^($only)\$" || true)
[ -n "$targets" ] || { echo "fuzz: no target matches $only (targets: $(echo $all))"; exit 2; }
cmake --build "$BUILD_DIR" --parallel "${OPBENCH_FUZZ_JOBS:-$(nproc)}" --target $(printf 'fuzz_%s ' $targets)

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1:quarantine_size_mb=64}
rss_mb=${OPBENCH_FUZZ_RSS_MB:-768}
malloc_mb=${OPBENCH_FUZZ_MALLOC_MB:-128}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
out="$BUILD_DIR/fuzz-out"
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
for t in $targets; do
  mkdir -p "$out/$t/corpus" "$out/$t/artifacts"
  log="$out/$t/fuzz.log"
  : > "$log"
  dict=()
  [ -f "tests/fuzz/dict/$t.dict" ] && dict=(-dict="tests/fuzz/dict/$t.dict")
  execs=0
  end=$(( $(date +%s) + secs ))
  before=$(ls "$out/$t/artifacts" | wc -l)
  echo "fuzz: $t for ${secs}s (log: $log)"
  while :; do
    left=$(( end - $(date +%s) ))
    [ "$left" -gt 0 ] || break
    # -timeout: a single input running longer than 10 s is a hang (an artifact named timeout-*);
    # past the RSS or single-allocation limit it is a memory blow-up (oom-*).
    "$BUILD_DIR/tests/fuzz/fuzz_$t" -max_total_time="$left" -timeout=10 -rss_limit_mb="$rss_mb" \
        -malloc_limit_mb="$malloc_mb" -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$out/$t/artifacts/" "${dict[@]}" ${OPBENCH_FUZZ_ARGS:-} \
        "$out/$t/corpus" "tests/fuzz/corpus/$t" >>"$log" 2>&1 || true
    n=$(grep -a 'stat::number_of_executed_units' "$log" | tail -1 | awk '{print $2}')
    execs=$(( execs + ${n:-0} ))
    # count every run once: mark the stats line as consumed
    sed -i 's/stat::number_of_executed_units/stat::counted_units/' "$log"
  done
  cov=$(grep -ao 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  crashes=$(( $(ls "$out/$t/artifacts" | wc -l) - before ))
  printf '%-14s %12s %9s %8s\n' "$t" "$execs" "${cov:-?}" "$crashes" >>"$summary"
done
echo
printf '%-14s %12s %9s %8s\n' target execs coverage crashes
cat "$summary"
echo "(coverage: libFuzzer's covered edges at the end of the last run; crashes: new files in $out/<target>/artifacts)"
