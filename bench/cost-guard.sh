#!/usr/bin/env bash
# CI cost guard (issue 26): four small fixed workloads counted in figures that do not depend on
# the machine's speed or load, compared with the budgets checked in as bench/budgets.json:
#   list       5 lists of 1,000 Deployments over loopback (`opbench-bench cost --workload list`)
#   queue      100,000 add/get/done cycles (`opbench-bench cost --workload queue`)
#   reconcile  100 MyApplications to Running (`opbench-bench reconcile --apps 100`)
#   reconcile_recorded  the same with `--record` (engine/recording: RunRecorder and its writer)
# Figures per workload: <w>_instructions and <w>_allocations (malloc/calloc/realloc calls) from
# one run under callgrind, <w>_minor_faults from one native run (getrusage; see costprobe.h).
# recorder_instructions: the recording's own cost in reconcile_recorded: the instructions of
# RunRecorder and opbench::recording code (its writer thread included) and of the calls they make
# to other code (formatting objects, writing the file). The difference of the two reconcile
# totals is printed (info), not checked: it moves by a few percent from run to run (scheduling),
# the recorder's own count much less.
# Each workload is bracketed in the code (CostProbe), so set-up and start-up are not counted.
# A figure more than 10 % over its budget fails the run, naming it (page faults: and more than
# 64 over, so that a budget of a few faults does not flap); one more than 10 % under
# says to lower the budget (`--update` writes the measured figures; commit them with the change
# that made the code cheaper).
#   bench/cost-guard.sh [--update | --print]      (needs a built tree and valgrind)
# Takes 40-100 s on 2 cores (97 s at load average 9, 55 s of it without reconcile_recorded;
# the callgrind runs dominate); the time is printed.
# CI: run it after the test command (.ci/run), where the build it needs already exists.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${OPBENCH_BUILD_DIR:-build}
bench=$B/bench/opbench-bench
budgets=bench/budgets.json
tolerance=${OPBENCH_COST_TOLERANCE_PERCENT:-10}
mode=check
case "${1:-}" in
  --update) mode=update ;;
  --print) mode=print ;;
  "") ;;
  *) echo "usage: bench/cost-guard.sh [--update | --print]" >&2; exit 2 ;;
esac
command -v valgrind >/dev/null || { echo "cost-guard: valgrind is missing (packaging/setup.sh installs it)" >&2; exit 2; }
[ -x "$bench" ] || cmake --build "$B" --target opbench-bench
start=$SECONDS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OPBENCH_COST_OUT=$tmp/native.jsonl QT_LOGGING_RULES="*.debug=false"

run() { # name command… : one native run, one callgrind run
  local name=$1; shift
  if ! "$@" >"$tmp/$name.native.out" 2>"$tmp/$name.native.err"; then
    echo "cost-guard: $name failed natively: $*" >&2; cat "$tmp/$name.native.err" >&2; exit 2
  fi
  if ! valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$tmp/cg.$name.%p" \
      "$@" >"$tmp/$name.cg.out" 2>"$tmp/$name.cg.err"; then
    echo "cost-guard: $name failed under callgrind: $*" >&2; tail -20 "$tmp/$name.cg.err" >&2; exit 2
  fi
}
run list "$bench" cost --workload list
run queue "$bench" cost --workload queue
run reconcile "$bench" reconcile --apps 100
run reconcile_recorded "$bench" reconcile --apps 100 --record "$tmp/run.rec"

python3 - "$tmp" "$budgets" "$mode" "$tolerance" "$((SECONDS - start))" <<'PY'
import glob, json, os, sys
tmp, budgets_path, mode, tolerance, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5]
figures = {}
for line in open(os.path.join(tmp, "native.jsonl")):
    d = json.loads(line)
    figures[d["workload"] + "_minor_faults"] = d["minor_faults"]
    figures[d["workload"] + "_peak_rss_growth_kb"] = d["peak_rss_growth_kb"]
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
from cgprofile import profile  # noqa: E402 (bench/cgprofile.py)
for path in glob.glob(os.path.join(tmp, "cg.*")):
    d = profile(path)
    if d["trigger"] in (None, "termination"):
        continue
    figures[d["trigger"] + "_instructions"] = d["ir"]
    figures[d["trigger"] + "_allocations"] = d["allocs"]
    if d["trigger"] == "reconcile_recorded":
        figures["recorder_instructions"] = d["recorder"]
checked = sorted(k for k in figures if not k.endswith("_peak_rss_growth_kb"))
for w in ("list", "queue", "reconcile", "reconcile_recorded"):
    for kind in ("instructions", "allocations", "minor_faults"):
        if f"{w}_{kind}" not in figures:
            print(f"cost-guard: FAIL no {w}_{kind} figure was measured (see the workload's output)")
            sys.exit(1)
if not figures.get("recorder_instructions"):
    print("cost-guard: FAIL no recorder_instructions figure was measured (see reconcile_recorded's output)")
    sys.exit(1)
print(f"cost-guard: measured in {seconds} s")
plain, recorded = figures["reconcile_instructions"], figures["reconcile_recorded_instructions"]
info = [f"recording overhead: recorder_instructions {100.0 * figures['recorder_instructions'] / plain:.1f} % of"
        f" reconcile_instructions; reconcile_recorded - reconcile {100.0 * (recorded - plain) / plain:+.1f} %"]
if mode == "print":
    print(json.dumps(figures, indent=1, sort_keys=True))
    sys.exit(0)
if mode == "update":
    json.dump({k: figures[k] for k in checked}, open(budgets_path, "w"), indent=1, sort_keys=True)
    open(budgets_path, "a").write("\n")
    print(f"cost-guard: wrote {budgets_path}")
    sys.exit(0)
budgets = json.load(open(budgets_path))
failed = []
for k in checked:
    v, b = figures[k], budgets.get(k)
    if b is None:
        print(f"cost-guard: {k} = {v} (no budget yet: add it with --update)")
        continue
    pct = 100.0 * (v - b) / b if b else 0.0
    line = f"{k} = {v} (budget {b}, {pct:+.1f} %)"
    # page faults also get 64 pages of slack, so that a budget of 0 or a few is not a coin toss
    limit = max(b * (1 + tolerance / 100), b + 64 if k.endswith("_minor_faults") else 0)
    if v > limit:
        failed.append(k)
        print(f"cost-guard: FAIL {line}: more than {tolerance:g} % over budget")
    elif v < b * (1 - tolerance / 100):
        print(f"cost-guard: ok   {line}: cheaper, lower the budget (bench/cost-guard.sh --update)")
    else:
        print(f"cost-guard: ok   {line}")
for k in sorted(figures):
    if k.endswith("_peak_rss_growth_kb"):
        print(f"cost-guard: info {k} = {figures[k]}")
for line in info:
    print(f"cost-guard: info {line}")
if failed:
    print("cost-guard: FAILED: " + ", ".join(failed))
    sys.exit(1)
print("cost-guard: all figures within budget")
PY
