#!/usr/bin/env bash
# One command, one table: opbench's informer side by side with the official clients against the
# same embedded API server, plus the queue, reconcile and server figures — each row with its goal.
#   bench/compare.sh [N]            (default N=10000 Deployments; not run by the test command)
# Needs a built tree (packaging/build.sh). The JavaScript row installs @kubernetes/client-node 1.x
# from npm into build/bench-node once (skipped, and said so, when npm cannot).
# Time and peak RSS are whole processes (/usr/bin/time). Run it on a quiet machine: the first
# lines print the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
B=${OPBENCH_BUILD_DIR:-build}
bench=$B/bench/opbench-bench
tmp=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB; load before: $(cut -d' ' -f1-3 /proc/loadavg)"

"$B/app/opbench-apiserver" --no-crds --write-kubeconfig "$tmp/kc" >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do [ -s "$tmp/kc" ] && break; sleep 0.1; done
"$bench" populate --kubeconfig "$tmp/kc" --count "$N" >"$tmp/populate.json"
wire=$(kubectl --kubeconfig "$tmp/kc" get --raw /apis/apps/v1/deployments | wc -c)

timed() { # label command… → "seconds peak_kb" (median of 3 runs by seconds)
  local label=$1; shift
  for i in 1 2 3; do /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >"$tmp/$label.$i.out" 2>/dev/null || true; cat "$tmp/t"; done \
    | sort -n | sed -n 2p
}
read -r o_s o_kb < <(timed opbench "$bench" sync --kubeconfig "$tmp/kc" --resource deployments.apps)
bpo=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("bytes_per_object",0))' "$tmp/opbench.2.out" 2>/dev/null || echo "?")
read -r w_s w_kb < <(timed watchlist "$bench" sync --kubeconfig "$tmp/kc" --resource deployments.apps --watch-list)
read -r k_s k_kb < <(timed kubectl kubectl --kubeconfig "$tmp/kc" get deployments -A -o json)
cat >"$tmp/list.py" <<PY
from kubernetes import client, config
config.load_kube_config("$tmp/kc")
print(len(client.AppsV1Api().list_deployment_for_all_namespaces().items))
PY
read -r p_s p_kb < <(timed python /usr/bin/python3 "$tmp/list.py")
js_row="| JavaScript client 1.x informer (makeInformer) | skipped: npm could not install @kubernetes/client-node | | |"
nodedir=$PWD/$B/bench-node
if command -v node >/dev/null && { [ -d "$nodedir/node_modules/@kubernetes/client-node" ] || npm install --silent --prefix "$nodedir" @kubernetes/client-node@1 >/dev/null 2>&1; }; then
  cat >"$nodedir/informer.mjs" <<'JS'
import * as k8s from '@kubernetes/client-node';
const kc = new k8s.KubeConfig();
kc.loadFromFile(process.argv[2]);
const api = kc.makeApiClient(k8s.AppsV1Api);
const informer = k8s.makeInformer(kc, '/apis/apps/v1/deployments', () => api.listDeploymentForAllNamespaces());
await informer.start();
console.log(informer.list().length);
await informer.stop();
process.exit(0);
JS
  read -r j_s j_kb < <(timed js node "$nodedir/informer.mjs" "$tmp/kc")
  js_row="| JavaScript client 1.x informer (makeInformer) | $j_s s | $((j_kb / 1024)) MB | $(cat "$tmp/js.2.out" 2>/dev/null) objects |"
fi
# The server's list time on the same server and objects kubectl listed: a raw keep-alive socket
# (bench/rawget.h) so the figure is the server's, not a client library's.
l=$("$bench" apiserver --kubeconfig "$tmp/kc" --writes 1 --skip-watch --list-namespace default --list-count "$N")
kill "$server" 2>/dev/null || true

q=$("$bench" queue)
r=$("$bench" reconcile --apps 5000)
a=$("$bench" apiserver)
get() { python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d.get(sys.argv[2], "?"))' "$1" "$2"; }
holds() { python3 -c 'import sys; print("yes" if float(sys.argv[1]) '"$2"' float(sys.argv[2]) else "no")' "$1" "$3" 2>/dev/null || echo "?"; }

qc=$(get "$q" cycles_per_second); ra=$(get "$r" apps_per_second); aw=$(get "$a" writes_per_second); al=$(get "$l" list_10k_deployments_ms)
cat <<TABLE

| what (N=$N Deployments, ${wire} bytes on the wire = $((wire / N)) B/object) | time | peak RSS | other |
|---|---|---|---|
| opbench informer sync (\`opbench-bench sync\`) | $o_s s | $((o_kb / 1024)) MB | $bpo cached B/object (goal ≤ wire: $(holds "$bpo" '<=' "$((wire / N))")) |
| opbench informer sync, streaming list (\`--watch-list\`) | $w_s s | $((w_kb / 1024)) MB | 10× less memory than kubectl: $(holds "$k_kb" '>=' "$((10 * w_kb))") |
| kubectl get -A -o json | $k_s s | $((k_kb / 1024)) MB | opbench 10× faster: $(holds "$k_s" '>=' "$(python3 -c "print(10*$o_s)")"); 10× less memory: $(holds "$k_kb" '>=' "$((10 * o_kb))") |
| Python client list_deployment_for_all_namespaces | $p_s s | $((p_kb / 1024)) MB | |
$js_row

| figure | value | goal | holds |
|---|---|---|---|
| queue add/get/done cycles/s (\`opbench-bench queue\`) | $qc | ≥ 5,000,000 | $(holds "$qc" '>=' 5000000) |
| reconcile apps/s, 5,000 apps (\`opbench-bench reconcile --apps 5000\`) | $ra | ≥ 800 | $(holds "$ra" '>=' 800) |
| server ConfigMap writes/s (\`opbench-bench apiserver\`) | $aw | ≥ 5,000 | $(holds "$aw" '>=' 5000) |
| server list of the N Deployments, ms (\`opbench-bench apiserver --list-namespace default\`) | $al | < 150 | $(holds "$al" '<' 150) |
TABLE
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
