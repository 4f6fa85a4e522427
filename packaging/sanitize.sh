#!/usr/bin/env bash
# Builds opbench with AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer on) into
# ./build-asan and runs tests there; any sanitizer report fails the run.
# Usage: packaging/sanitize.sh                       every test (the whole suite)
#        packaging/sanitize.sh --labels 'unit|integration'   the tests with those ctest labels
#        packaging/sanitize.sh 'tst_(reflector|informer)'    the tests with those names
# Only the selected test executables (and what they link or start) are built.
# Not part of the README's test command: it is a second build of the tree (.ci/run runs the
# unit and integration labels under it after the test command; see docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
packaging/setup.sh
BUILD_DIR=${OPBENCH_ASAN_BUILD_DIR:-build-asan}
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" \
        -DOPBENCH_SANITIZE=address,undefined -DOPBENCH_BUILD_BENCH=OFF -DOPBENCH_WERROR=ON
fi
labels= names=
case "${1:-}" in
  --labels) labels=${2:?--labels needs a ctest label regex, e.g. unit\|integration} ;;
  '') ;;
  *) names=$1 ;;
esac
# Test names are target names (cmake/OpbenchTest.cmake); ctest -N lists them from the configure.
# Tests that are scripts (tst_boundaries, the compat suites) have no target of their own.
targets_known() { cmake --build "$BUILD_DIR" --target help | sed -n 's/^\([A-Za-z_0-9-]*\): phony$/\1/p'; }
select_tests() {
  if [ -n "$labels" ]; then
    (cd "$BUILD_DIR" && ctest -N -L "$labels") | sed -n 's/^ *Test *#[0-9]*: *\([A-Za-z0-9_]*\)$/\1/p' \
      | grep -Fx -f <(targets_known) || true
  elif [ -n "$names" ]; then
    targets_known | grep -E "^($names)\$" || true
  fi
}
if [ -n "$labels$names" ]; then
  targets=$(select_tests | tr '\n' ' ')
  [ -n "${targets// /}" ] || { echo "sanitize: no test matches ${labels:-$names}"; exit 2; }
  echo "sanitize: building $(wc -w <<<"$targets") test executables under ASan+UBSan"
  cmake --build "$BUILD_DIR" --parallel "$(nproc)" --target $targets
else
  cmake --build "$BUILD_DIR" --parallel "$(nproc)"
fi
# halt_on_error: the first report fails the test that made it; detect_leaks: LeakSanitizer.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/packaging/lsan.supp}
cd "$BUILD_DIR"
if [ -n "$labels" ]; then
  ctest --no-tests=error --output-on-failure --timeout 900 -j2 -L "$labels"
elif [ -n "$names" ]; then
  ctest --no-tests=error --output-on-failure --timeout 900 -j2 -R "^($names)\$"
else
  ctest --no-tests=error --output-on-failure --timeout 900 -j2
fi
