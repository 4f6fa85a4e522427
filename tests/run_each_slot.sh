#!/bin/sh
# Runs every slot of the given Qt Test executables alone (a fresh process per slot, data rows
# included), so a slot that only passes after an earlier one set the stage fails here.
# Usage: tests/run_each_slot.sh BUILD_DIR tst_name [tst_name …]   (names as ctest knows them)
# Example: tests/run_each_slot.sh build tst_operator tst_managerhttp tst_sessioncontrol
# The environment is ctest's (cmake/OpbenchTest.cmake): offscreen, the build's HOME and runtime dir.
set -eu
build=$(cd "${1:?usage: run_each_slot.sh BUILD_DIR tst_name [tst_name …]}" && pwd)
shift
[ $# -gt 0 ] || { echo "run_each_slot.sh: name at least one test"; exit 2; }
export QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$build/test-runtime" KUBECONFIG= HOME="$build/test-home"
export OPBENCH_TEST_CRDS="$(cd "$(dirname "$0")/.." && pwd)/resources/crds/myapplications.example.com.yaml"
failed=0 ran=0
for name in "$@"; do
  exe=$(find "$build/tests" -type f -perm -u+x -name "$name" | head -1)
  [ -n "$exe" ] || { echo "run_each_slot.sh: no executable $name under $build/tests (build it first)"; exit 2; }
  slots=$("$exe" -functions | sed -n 's/^\([A-Za-z_0-9]*\)()$/\1/p')
  [ -n "$slots" ] || { echo "run_each_slot.sh: $name lists no slots"; exit 2; }
  for slot in $slots; do
    case $slot in initTestCase|cleanupTestCase|init|cleanup) continue ;; esac
    ran=$((ran + 1))
    if "$exe" "$slot" >"$build/run_each_slot.log" 2>&1; then
      echo "ok   $name $slot"
    else
      echo "FAIL $name $slot"; sed 's/^/     /' "$build/run_each_slot.log" | grep -E 'FAIL!|Loc:|Actual|Expected' | head -8
      failed=$((failed + 1))
    fi
  done
done
echo "$ran slots run alone, $failed failed"
[ "$failed" -eq 0 ]
