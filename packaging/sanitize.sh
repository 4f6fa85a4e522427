#!/usr/bin/env bash
# Builds opbench with AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer on) into
# ./build-asan and runs the test suite there; any sanitizer report fails the run.
# Usage: packaging/sanitize.sh [ctest -R regex]   e.g. packaging/sanitize.sh 'tst_(reflector|informer)'
# With a regex only the matching test executables (and what they link) are built and run.
# Not part of the README's test command (a second full build: ~25 min cold on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/setup.sh
BUILD_DIR=${OPBENCH_ASAN_BUILD_DIR:-build-asan}
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
        -DOPBENCH_SANITIZE=address,undefined -DOPBENCH_BUILD_BENCH=OFF -DOPBENCH_WERROR=ON
fi
only=${1:-}
if [ -n "$only" ]; then
  targets=$(cmake --build "$BUILD_DIR" --target help | sed -n 's/^\([a-z_0-9]*\): phony$/\1/p' | grep -E "^($only)\$" || true)
  [ -n "$targets" ] || { echo "sanitize: no test target matches $only"; exit 2; }
  cmake --build "$BUILD_DIR" --parallel "$(nproc)" --target $targets
else
  cmake --build "$BUILD_DIR" --parallel "$(nproc)"
fi
# halt_on_error: the first report fails the test that made it; detect_leaks: LeakSanitizer.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/packaging/lsan.supp}
cd "$BUILD_DIR"
if [ -n "$only" ]; then
  ctest --output-on-failure --timeout 900 -j2 -R "^($only)\$"
else
  ctest --output-on-failure --timeout 900 -j2 -E tst_sdk_roundtrip
fi
