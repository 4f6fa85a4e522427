#!/usr/bin/env bash
# The SDK from outside, as a user meets it (ctest: tst_sdk_roundtrip, label sdk):
#   1. cmake --install the SDK into a prefix of its own;
#   2. opbench-init scaffolds a fresh project; scaffolding into it again is refused;
#   3. the scaffold configures against the installed package only, builds, and passes its test;
#   4. examples/guestbook (an external project) the same way;
#   5. the Guestbook workbench starts offscreen and its cache, queue and reconcile panels fill.
# Usage: sdk_roundtrip.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
work=$build/sdk-roundtrip
prefix=$work/prefix
rm -rf "$work/scaffold" "$work/scaffold-build" "$work/guestbook-build" "$work/wrong-version" "$prefix"
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
step() { printf '\n== %s\n' "$*"; }

step "install the SDK into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
test -f "$prefix/lib/cmake/opbench/opbenchConfig.cmake"
test -f "$prefix/include/opbench/opbench/opbench.h"
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
  echo "find_package(opbench 0.9) accepted a 0.2 SDK"; exit 1
fi
grep -q '"0.9"' "$work/wrong.log" && grep -q 'version: 0.2' "$work/wrong.log" || { cat "$work/wrong.log"; exit 1; }

step "opbench-init scaffolds a project"
"$prefix/bin/opbench-init" --domain demo.io --group shop --version v1alpha1 --kind Widget "$work/scaffold"
if "$prefix/bin/opbench-init" --domain demo.io --group shop --version v1alpha1 --kind Widget "$work/scaffold" 2>"$work/refused.txt"; then
  echo "scaffolding into a non-empty folder was not refused"; exit 1
fi
grep -q "refusing to scaffold" "$work/refused.txt"

build_project() { # $1 source, $2 build dir
  cmake -S "$1" -B "$2" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_PREFIX_PATH="$prefix" >"$2.configure.log" || { cat "$2.configure.log"; return 1; }
  cmake --build "$2" --parallel 2 >"$2.build.log" || { tail -60 "$2.build.log"; return 1; }
  (cd "$2" && ctest --output-on-failure --timeout 120)
}

step "the scaffold builds against the installed SDK and passes its test"
build_project "$work/scaffold" "$work/scaffold-build"
if grep -R --include=CMakeCache.txt -q "$src/engine" "$work/scaffold-build"; then
  echo "the scaffold's build refers to opbench's source tree"; exit 1
fi

step "examples/guestbook builds against the installed SDK and passes its test"
build_project "$src/examples/guestbook" "$work/guestbook-build"

if [ -x "$work/guestbook-build/guestbook-workbench" ]; then
  step "the workbench runs the Guestbook operator (offscreen)"
  report=$(cd "$work" && QT_QPA_PLATFORM=offscreen "$work/guestbook-build/guestbook-workbench" --report-after 6 2>"$work/workbench.log" | tail -1)
  echo "$report"
  /usr/bin/python3 - "$report" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
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
if problems:
    print("workbench panels: " + "; ".join(problems)); sys.exit(1)
print("workbench panels filled")
PY
fi
echo "sdk roundtrip: OK"
