#!/usr/bin/env bash
# The SDK from outside, as a user meets it (ctest: tst_sdk_roundtrip, label sdk):
#   1. cmake --install the SDK into a prefix of its own;
#   2. opbench-init scaffolds a fresh project; scaffolding into it again is refused; a bad --owns
#      is refused naming the flag, the value and the kinds it can own;
#   3. the scaffold configures against the installed package only, builds, and passes its test;
#      so does a scaffold with --owns apps/v1/Deployment --owns v1/Service --finalizer --conditions,
#      and both stay as short as Go;
#   4. opbench-init create webhook adds defaulting, validating and conversion webhooks to the
#      plain scaffold (refusals first, each leaving it unchanged); it rebuilds and passes their
#      test (webhook_roundtrip.sh);
#   5. examples/guestbook (an external project) the same way;
#   6. the Guestbook workbench starts offscreen and its cache, queue and reconcile panels fill.
# Every step must run: a step that cannot (the workbench not built, a project with no test) fails
# the round trip, and the last line checks that all of them ran.
# Usage: sdk_roundtrip.sh SOURCE_DIR BUILD_DIR   (OPBENCH_ROUNDTRIP_JOBS: build jobs per project, default 2)
set -euo pipefail
src=$1
build=$2
work=$build/sdk-roundtrip
prefix=$work/prefix
rm -rf "$work/scaffold" "$work/scaffold-build" "$work/scaffold-full" "$work/scaffold-full-build" "$work/guestbook-build" "$work/memcached-build" "$work/wrong-version" "$prefix"
mkdir -p "$work"
export CCACHE_BASEDIR=$work CCACHE_NOHASHDIR=true
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# An SDK built with sanitizers (packaging/sanitize.sh) needs its users built with the same ones.
sanitize=$(sed -n 's/^OPBENCH_SANITIZE:STRING=//p' "$build/CMakeCache.txt")
if [ -n "$sanitize" ]; then
  launcher+=("-DCMAKE_CXX_FLAGS=-fsanitize=$sanitize -fno-omit-frame-pointer" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=$sanitize")
fi
steps_run=0
step() { steps_run=$((steps_run + 1)); printf '\n== %s\n' "$*"; }

step "install the SDK into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
test -f "$prefix/lib/cmake/opbench/opbenchConfig.cmake"
test -f "$prefix/include/opbench/opbench.h" && test -f "$prefix/include/opbench/testing.h"
if find "$prefix/include" -name '*_p.h' | grep -q .; then
  echo "internal headers were installed:"; find "$prefix/include" -name '*_p.h'; exit 1
fi

step "a project asking for another SDK version is refused, naming both"
mkdir -p "$work/wrong-version"
cat >"$work/wrong-version/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.25)
project(wrong LANGUAGES CXX)
find_package(opbench 0.9 REQUIRED)
CM
if cmake -S "$work/wrong-version" -B "$work/wrong-version/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/wrong.log" 2>&1; then
  echo "find_package(opbench 0.9) accepted a 0.3 SDK"; exit 1
fi
grep -q '"0.9"' "$work/wrong.log" && grep -q 'version: 0.3' "$work/wrong.log" || { cat "$work/wrong.log"; exit 1; }

step "opbench-init scaffolds a project"
"$prefix/bin/opbench-init" --domain demo.io --group shop --version v1alpha1 --kind Widget "$work/scaffold"
if "$prefix/bin/opbench-init" --domain demo.io --group shop --version v1alpha1 --kind Widget "$work/scaffold" 2>"$work/refused.txt"; then
  echo "scaffolding into a non-empty folder was not refused"; exit 1
fi
grep -q "refusing to scaffold" "$work/refused.txt"
"$prefix/bin/opbench-init" --domain demo.io --group shop --version v1 --kind Gadget \
  --owns apps/v1/Deployment --owns v1/Service --finalizer --conditions "$work/scaffold-full"
if "$prefix/bin/opbench-init" --domain demo.io --group shop --version v1 --kind Gadget --owns apps/v1/DaemonSet \
     "$work/scaffold-bad" 2>"$work/refused-owns.txt"; then
  echo "--owns apps/v1/DaemonSet (no typed view) was accepted"; exit 1
fi
grep -q -- '--owns "apps/v1/DaemonSet"' "$work/refused-owns.txt" && grep -q 'apps/v1/Deployment' "$work/refused-owns.txt" \
  && [ ! -e "$work/scaffold-bad" ] || { cat "$work/refused-owns.txt"; exit 1; }

build_project() { # $1 source, $2 build dir
  cmake -S "$1" -B "$2" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_PREFIX_PATH="$prefix" >"$2.configure.log" || { cat "$2.configure.log"; return 1; }
  cmake --build "$2" --parallel "${OPBENCH_ROUNDTRIP_JOBS:-2}" >"$2.build.log" || { tail -60 "$2.build.log"; return 1; }
  # --no-tests=error: a project whose test was not registered fails (ctest 3.25 exits 0 on none).
  (cd "$2" && ctest --no-tests=error --output-on-failure --timeout 120)
}

step "the scaffold builds against the installed SDK and passes its test"
build_project "$work/scaffold" "$work/scaffold-build"
if grep -R --include=CMakeCache.txt -q "$src/engine" "$work/scaffold-build"; then
  echo "the scaffold's build refers to opbench's source tree"; exit 1
fi

step "the scaffold with --owns Deployment, Service, --finalizer, --conditions builds and passes its test"
build_project "$work/scaffold-full" "$work/scaffold-full-build"

step "the scaffolds' reconciler + types stay as short as Go"
# Counted as issue 22 counts them (count_lines.py); the types and the controller, not main.cpp,
# operator.* or the workbench. Issue 22's budget for the plain scaffold is 80; the full one does
# what the Operator SDK tutorial's Go does (Deployment, finalizer, conditions: 250 lines) plus a
# Service, in at most 120.
count_reconciler() { /usr/bin/python3 "$src/tests/sdk/count_lines.py" "$1/src" --except main.cpp operator.h operator.cpp workbench_main.cpp; }
plain=$(count_reconciler "$work/scaffold")
full=$(count_reconciler "$work/scaffold-full")
echo "scaffold: $plain lines (budget 80); --owns Deployment, Service, --finalizer, --conditions: $full lines (budget 120)"
[ "$plain" -le 80 ] && [ "$full" -le 120 ] || { echo "the scaffold's reconciler + types grew past their budget"; exit 1; }

step "opbench-init create webhook adds the three webhooks to the scaffold, which rebuilds and passes their test"
# In place, after the scaffold's own test and line count: the build is incremental.
"$src/tests/sdk/webhook_roundtrip.sh" "$prefix/bin/opbench-init" "$work/scaffold" "$work/scaffold-build"

step "examples/guestbook builds against the installed SDK and passes its test"
build_project "$src/examples/guestbook" "$work/guestbook-build"

step "the guestbook's checked-in CRD is the one its C++ types generate"
"$prefix/bin/opbench-gen" crd "$work/guestbook-build/guestbook-operator" --output-dir "$src/examples/guestbook/config/crd" --check

step "examples/guestbook stays as short as Go (<= 140 hand-written lines)"
# Counted as issue 22 counts them: no blank, comment, #include or #pragma lines; src/ only.
lines=$(/usr/bin/python3 "$src/tests/sdk/count_lines.py" "$src/examples/guestbook/src")
echo "examples/guestbook/src: $lines lines"
[ "$lines" -le 140 ] || { echo "examples/guestbook grew to $lines hand-written lines (budget 140)"; exit 1; }

step "examples/memcached (the Operator SDK tutorial) builds and passes, in fewer lines than Go"
build_project "$src/examples/memcached" "$work/memcached-build"
# The Go tutorial's controller + types count 250 such lines (229 + 21, imports left out).
lines=$(/usr/bin/python3 "$src/tests/sdk/count_lines.py" "$src/examples/memcached/src")
echo "examples/memcached/src: $lines lines (Go: 250)"
[ "$lines" -le 250 ] || { echo "examples/memcached grew to $lines hand-written lines (Go: 250)"; exit 1; }

step "the workbench runs the Guestbook operator (offscreen)"
# This test is registered only when the GUI is built, so the installed SDK has the workbench
# library and examples/guestbook must have built its workbench: not finding it is a failure.
if [ ! -x "$work/guestbook-build/guestbook-workbench" ]; then
  echo "guestbook-workbench was not built (is opbench::workbench missing from the installed SDK?)"; exit 1
fi
# The panels fill once the informers have synced and the operator reconciled: a condition, not a
# time. The report is taken after a delay, so ask again with a longer one until it holds (a loaded
# machine gets up to 6 + 20 + 60 s; a quiet one passes on the first try).
panels_filled=false
for wait_s in 6 20 60; do
  # --create-from-form: the window's own create form (built from the Guestbook CRD's schema,
  # prefilled from the sample) makes a Guestbook; the report says whether it was reconciled.
  report=$(cd "$work" && QT_QPA_PLATFORM=offscreen "$work/guestbook-build/guestbook-workbench" --create-from-form from-form --report-after "$wait_s" 2>"$work/workbench.log" | tail -1)
  echo "after $wait_s s: $report"
  if /usr/bin/python3 - "$report" <<'PY'
import json, sys
try:
    r = json.loads(sys.argv[1])
except ValueError:
    print("workbench panels: no report"); sys.exit(1)
problems = []
if r.get("operator") != "guestbook": problems.append("operator %r" % r.get("operator"))
if r.get("synced") != r.get("informers") or r.get("informers") != 3: problems.append("informers %s/%s synced" % (r.get("synced"), r.get("informers")))
cache = r.get("cache", {})
if cache.get("Guestbook", 0) < 1: problems.append("no Guestbook in the cache panel")
if cache.get("ConfigMap", 0) < 2: problems.append("the ConfigMap and the registry are not in the cache panel")
if cache.get("Service", 0) < 1: problems.append("no Service in the cache panel")
if r.get("reconciles", 0) < 1: problems.append("no reconcile in the reconciles panel")
if r.get("queueSamples", 0) < 1: problems.append("the queue panel got no sample")
if r.get("ownerTrees", 0) < 1: problems.append("no owner tree in the children panel")
form = r.get("formCreated", {})
if form.get("key") != "default/from-form" or form.get("reconciles", 0) < 1: problems.append("the create form's Guestbook was not reconciled (%r)" % form)
if problems:
    print("workbench panels: " + "; ".join(problems)); sys.exit(1)
print("workbench panels filled")
PY
  then
    panels_filled=true
    break
  fi
done
$panels_filled || { echo "the workbench's panels did not fill"; tail -40 "$work/workbench.log"; exit 1; }

# Every step above ran (set -e stops at the first failure; this catches a step skipped).
expected_steps=12
[ "$steps_run" -eq "$expected_steps" ] || { echo "sdk roundtrip: $steps_run of $expected_steps steps ran"; exit 1; }
echo "sdk roundtrip: OK ($steps_run steps)"
