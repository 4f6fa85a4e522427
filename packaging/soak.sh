#!/usr/bin/env bash
# Soak test (not part of CI): N minutes of MyApplication churn (create, update, delete through
# kubectl) against opbench-apiserver with faults on, while opbench-operator reconciles. Every
# SAMPLE seconds the RSS and open file descriptors of both processes go to a CSV; at the end it
# compares the last quarter with the first and says whether both stayed flat.
# Usage: packaging/soak.sh [minutes]      (default 30)
# Env:   OPBENCH_BUILD_DIR (default ./build), SOAK_OUT (CSV path, default ./soak-<date>.csv),
#        SOAK_SAMPLE (seconds between samples, default 5), SOAK_APPS (names churned, default 20),
#        SOAK_FAULTS (apiserver --fault specs, space separated; default below), SOAK_DELAY (seconds
#        between two kubectl calls, default 0.5).
# Exit: 0 flat, 1 grew, 2 could not run. "Flat": last-quarter mean <= first-quarter mean x 1.10
# plus 8 MiB (RSS) or plus 4 (fds); the first quarter excludes the first minute (warm-up).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-30}
build=${OPBENCH_BUILD_DIR:-build}
sample=${SOAK_SAMPLE:-5}
apps=${SOAK_APPS:-20}
out=${SOAK_OUT:-$PWD/soak-$(date -u +%Y%m%dT%H%M%SZ).csv}
faults=${SOAK_FAULTS:-"error:rate=0.02,code=500 throttle:rate=0.02,retry-after=1 drop-watch:every=20s latency:ms=5"}
server_bin=$build/app/opbench-apiserver
operator_bin=$build/app/opbench-operator
for b in "$server_bin" "$operator_bin"; do
  [ -x "$b" ] || { echo "soak: $b not built (cmake --build $build --target opbench-apiserver opbench-operator)" >&2; exit 2; }
done
command -v kubectl >/dev/null || { echo "soak: kubectl not on PATH" >&2; exit 2; }

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

fault_args=()
for f in $faults; do fault_args+=(--fault "$f"); done
"$server_bin" --write-kubeconfig "$work/kubeconfig" --audit-log "$work/audit.log" "${fault_args[@]}" \
  >"$work/server.out" 2>"$work/server.err" &
server=$!; pids+=("$server")
for _ in $(seq 100); do grep -q "listening on" "$work/server.out" 2>/dev/null && break; sleep 0.1; done
grep -q "listening on" "$work/server.out" || { echo "soak: the API server did not start" >&2; cat "$work/server.err" >&2; exit 2; }
export KUBECONFIG=$work/kubeconfig
"$operator_bin" --kubeconfig "$work/kubeconfig" --leader-elect --leader-election-namespace default \
  --health-probe-bind-address 0 --metrics-bind-address 0 >"$work/operator.out" 2>"$work/operator.err" &
operator=$!; pids+=("$operator")
echo "soak: ${minutes} min, faults: $faults; server pid $server, operator pid $operator; CSV $out"

app_yaml() { # name replicas image
  printf 'apiVersion: example.com/v1alpha1\nkind: MyApplication\nmetadata:\n  name: %s\n  namespace: default\nspec:\n  image: %s\n  replicas: %s\n' "$1" "$3" "$2"
}
churn() {
  local i=0
  while :; do
    i=$((i + 1))
    local n=$((RANDOM % apps)) r=$((RANDOM % 3 + 1))
    case $((RANDOM % 6)) in
      0) kubectl delete myapplications.example.com "soak-$n" --wait=false >/dev/null 2>&1 || true ;;
      1) app_yaml "soak-$n" "$r" "nginx:1.$((RANDOM % 5 + 20))" | kubectl apply --validate=false -f - >/dev/null 2>&1 || true ;;
      *) app_yaml "soak-$n" "$r" nginx:1.25 | kubectl apply --validate=false -f - >/dev/null 2>&1 || true ;;
    esac
    sleep "${SOAK_DELAY:-0.5}"
  done
}
churn &
pids+=("$!")

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
echo "seconds,server_rss_kb,server_fds,operator_rss_kb,operator_fds" >"$out"
start=$(date +%s)
end=$((start + minutes * 60))
while [ "$(date +%s)" -lt "$end" ]; do
  kill -0 "$server" 2>/dev/null || { echo "soak: the API server died" >&2; tail -20 "$work/server.err" >&2; exit 1; }
  kill -0 "$operator" 2>/dev/null || { echo "soak: the operator died" >&2; tail -20 "$work/operator.err" >&2; exit 1; }
  echo "$(( $(date +%s) - start )),$(rss_kb "$server"),$(fds "$server"),$(rss_kb "$operator"),$(fds "$operator")" >>"$out"
  sleep "$sample"
done
requests=$(wc -l <"$work/audit.log")
echo "soak: $requests API requests served; $(grep -c '"code":5' "$work/audit.log" || true) answered 5xx"

# First quarter (after a one-minute warm-up) against the last quarter, per column.
awk -F, -v warm=60 '
  NR == 1 { next }
  { t[NR] = $1; for (c = 2; c <= 5; ++c) v[c, NR] = $c; n = NR }
  END {
    last = t[n]; q = (last - warm) / 4
    names[2] = "server RSS KiB"; names[3] = "server fds"; names[4] = "operator RSS KiB"; names[5] = "operator fds"
    slack[2] = 8192; slack[3] = 4; slack[4] = 8192; slack[5] = 4
    flat = 1
    for (c = 2; c <= 5; ++c) {
      a = 0; na = 0; b = 0; nb = 0
      for (i = 2; i <= n; ++i) {
        if (t[i] >= warm && t[i] < warm + q) { a += v[c, i]; ++na }
        if (t[i] >= last - q) { b += v[c, i]; ++nb }
      }
      if (na == 0 || nb == 0) { print "soak: too few samples for " names[c]; flat = 0; continue }
      a /= na; b /= nb
      ok = (b <= a * 1.10 + slack[c])
      printf "soak: %-17s first quarter %10.0f  last quarter %10.0f  %s\n", names[c], a, b, ok ? "flat" : "GREW"
      if (!ok) flat = 0
    }
    exit flat ? 0 : 1
  }' "$out"
