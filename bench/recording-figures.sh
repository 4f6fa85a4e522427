#!/usr/bin/env bash
# Recording figures (issue 25, docs/recording.md "Figures") in counts that do not depend on the
# machine's speed or load, on one fixed workload: `opbench-bench reconcile --apps N` (default 300
# MyApplications to Running) with and without `--record`, and `opbench-operator --replay` of the
# recording it wrote. Prints a table:
#   - the recording's bytes: total, per reconcile (rs + call + re records / reconciles), per
#     informer event (ev records), per record kind (from the file);
#   - the recording's overhead in instructions (callgrind --separate-threads=yes, counted between
#     the benchmark's CostProbe brackets): the engine thread (informers, queue, reconciles, the
#     recorder's formatting) with and without --record, the recording writer thread, and the
#     operator's side as a whole (every thread but the API server's); the part of the engine
#     thread spent inside the recorder (inclusive cost of every call into RunRecorder and
#     opbench::recording); malloc/calloc/realloc calls;
#   - minor page faults of the workload with and without (native runs, median of 3; CostProbe);
#   - replay: instructions per replayed reconcile (callgrind of `opbench-operator --replay`; the
#     walk of Replayer::run() and the whole process, reading and parsing the file included) and
#     wall reconciles/s (median of 3 native replays) with the load average next to it.
# Wall figures (apps/s, replay reconciles/s) are printed for reference only: on a loaded machine
# they are noise; the counts are what to compare.
#   bench/recording-figures.sh [--apps N]      (needs a built tree and valgrind)
# Takes 3.5-5 minutes on 2 cores at N=300 (210-300 s at load average 5-10; the two callgrind runs
# of the benchmark dominate); the time is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${OPBENCH_BUILD_DIR:-build}
bench=$B/bench/opbench-bench
operator=$B/app/opbench-operator
apps=300
while [ $# -gt 0 ]; do
  case $1 in
    --apps) apps=$2; shift 2 ;;
    *) echo "usage: bench/recording-figures.sh [--apps N]" >&2; exit 2 ;;
  esac
done
command -v valgrind >/dev/null || { echo "recording-figures: valgrind is missing (packaging/setup.sh installs it)" >&2; exit 2; }
[ -x "$bench" ] || cmake --build "$B" --target opbench-bench
[ -x "$operator" ] || cmake --build "$B" --target opbench-operator
start=$SECONDS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export QT_LOGGING_RULES="*.debug=false"
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -sr); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "load before: $(load)" | tee "$tmp/load.before"

fail() { echo "recording-figures: $1 failed: see below" >&2; tail -20 "$2" >&2; exit 2; }

# Native runs, alternating: page faults (CostProbe appends them to $OPBENCH_COST_OUT) and the wall
# figures. The last recording is the one measured and replayed.
for i in 1 2 3; do
  OPBENCH_COST_OUT=$tmp/plain.faults "$bench" reconcile --apps "$apps" >"$tmp/plain.$i.json" 2>"$tmp/plain.err" \
    || fail "reconcile --apps $apps" "$tmp/plain.err"
  rm -f "$tmp/run.rec"
  OPBENCH_COST_OUT=$tmp/rec.faults "$bench" reconcile --apps "$apps" --record "$tmp/run.rec" >"$tmp/rec.$i.json" \
    2>"$tmp/rec.err" || fail "reconcile --apps $apps --record" "$tmp/rec.err"
done
echo "load after the native runs: $(load)"

# Callgrind of the same workload; one profile per thread, dumped by CostProbe at the workload's end.
cg() { # name command…
  local name=$1; shift
  valgrind --tool=callgrind --separate-threads=yes --instr-atstart=no --callgrind-out-file="$tmp/cg.$name.%p" \
    "$@" >"$tmp/$name.cg.json" 2>"$tmp/$name.cg.err" || fail "callgrind of $*" "$tmp/$name.cg.err"
}
cg plain "$bench" reconcile --apps "$apps"
cg rec "$bench" reconcile --apps "$apps" --record "$tmp/cg.rec"
echo "load after the callgrind runs: $(load)"

# Replay: callgrind once (whole process), then three native runs for the wall figure.
valgrind --tool=callgrind --callgrind-out-file="$tmp/replay.cg" "$operator" --replay "$tmp/run.rec" \
  >"$tmp/replay.cg.json" 2>"$tmp/replay.cg.err" || [ $? -eq 1 ] || fail "callgrind of --replay" "$tmp/replay.cg.err"
for i in 1 2 3; do
  load >"$tmp/replay.$i.load"
  "$operator" --replay "$tmp/run.rec" >"$tmp/replay.$i.json" 2>"$tmp/replay.err" || [ $? -eq 1 ] \
    || fail "--replay" "$tmp/replay.err"
done
load >"$tmp/load.after"

python3 - "$tmp" "$apps" "$((SECONDS - start))" <<'PY'
import glob, json, os, re, statistics, sys
tmp, apps, seconds = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
from cgprofile import inclusive, profile  # noqa: E402

WRITER = re.compile(r"opbench::recording::RecordingWriter::(run|writeOne)\(")  # the writer thread only

def threads(name):
    """The workload's per-thread figures of one run, grouped: engine (thread 1), writer (the
    recording writer), server (the API server's thread), other. CostProbe's dump writes the
    calling thread (the engine thread) only; the others are written at exit, and since the probe
    stopped the instrumentation at the workload's end, they hold exactly the workload too."""
    by_thread = {}
    for path in glob.glob(os.path.join(tmp, f"cg.{name}.*")):
        d = profile(path)
        if d["trigger"] in ("reconcile", "reconcile_recorded") or d["thread"] not in by_thread:
            by_thread[d["thread"]] = d
    if by_thread.get(1, {}).get("trigger") not in ("reconcile", "reconcile_recorded"):
        sys.exit(f"recording-figures: no callgrind profile of the {name} run's workload (CostProbe missing?)")
    groups = {k: {"ir": 0, "allocs": 0, "recorder": 0} for k in ("engine", "writer", "server", "other")}
    for t, d in by_thread.items():
        fns = " ".join(d["fns"])
        if t == 1:
            g = "engine"
        elif WRITER.search(fns):
            g = "writer"
        elif "opbench::apiserver::" in fns:
            g = "server"
        else:
            g = "other"
        for k in ("ir", "allocs", "recorder"):
            groups[g][k] += d[k]
    return groups

def jload(path):
    with open(path) as f:
        return json.loads(f.read().strip().splitlines()[-1])

def faults(path):
    return statistics.median(json.loads(l)["minor_faults"] for l in open(path))

def med(name, key):
    return statistics.median(jload(os.path.join(tmp, f"{name}.{i}.json"))[key] for i in (1, 2, 3))

def n(v):
    return f"{v:,.0f}"

def pct(a, b):
    return f"{100.0 * (a - b) / b:+.1f} %" if b else "?"

# The recording: bytes per record kind.
kinds = {}
for line in open(os.path.join(tmp, "run.rec"), "rb"):
    m = re.match(rb'\{"seq":\d+,"t":"(\w+)"', line)
    k = m.group(1).decode() if m else "?"
    c = kinds.setdefault(k, [0, 0])
    c[0] += 1
    c[1] += len(line)
total = sum(c[1] for c in kinds.values())
records = sum(c[0] for c in kinds.values())
rec_json = jload(os.path.join(tmp, "rec.3.json"))
reconciles = kinds.get("rs", [0, 0])[0]
events = kinds.get("ev", [0, 0])[0]
per_reconcile = sum(kinds.get(k, [0, 0])[1] for k in ("rs", "call", "re"))

plain, rec = threads("plain"), threads("rec")
pj, rj = jload(os.path.join(tmp, "plain.cg.json")), jload(os.path.join(tmp, "rec.cg.json"))
op_plain = plain["engine"]["ir"] + plain["writer"]["ir"] + plain["other"]["ir"]
op_rec = rec["engine"]["ir"] + rec["writer"]["ir"] + rec["other"]["ir"]
replay = jload(os.path.join(tmp, "replay.cg.json"))
replay_cg = os.path.join(tmp, "replay.cg")
replay_total = profile(replay_cg)["ir"]
replay_walk = inclusive(replay_cg, r"^opbench::Replayer::run\(\)")
replay_read = inclusive(replay_cg, r"^opbench::Recording::read\(")
replayed = replay["replayed"] or 1
rps = [jload(os.path.join(tmp, f"replay.{i}.json"))["reconcilesPerSecond"] for i in (1, 2, 3)]
rps_load = [open(os.path.join(tmp, f"replay.{i}.load")).read().strip() for i in (1, 2, 3)]

print(f"\nrecording-figures: measured in {seconds} s; workload `opbench-bench reconcile --apps {apps}`"
      f" (8 workers); load before {open(os.path.join(tmp, 'load.before')).read().split(': ')[1].strip()},"
      f" after {open(os.path.join(tmp, 'load.after')).read().strip()}\n")
print("| figure | without --record | with --record | difference |")
print("|---|---|---|---|")
print(f"| reconciles (callgrind runs) | {pj['reconciles']} | {rj['reconciles']} | |")
print(f"| engine thread instructions | {n(plain['engine']['ir'])} | {n(rec['engine']['ir'])} |"
      f" {pct(rec['engine']['ir'], plain['engine']['ir'])} |")
print(f"| … per reconcile | {n(plain['engine']['ir'] / max(pj['reconciles'], 1))} |"
      f" {n(rec['engine']['ir'] / max(rj['reconciles'], 1))} | |")
print(f"| … of which recorder code (RunRecorder, opbench::recording, and what they call) |"
      f" {n(plain['engine']['recorder'])} | {n(rec['engine']['recorder'])} |"
      f" {100.0 * rec['engine']['recorder'] / plain['engine']['ir']:.1f} % of plain |")
print(f"| recording writer thread instructions | {n(plain['writer']['ir'])} | {n(rec['writer']['ir'])} | |")
own = rec['engine']['recorder'] + rec['writer']['ir']
print(f"| the recording's own instructions (recorder code + writer thread) | 0 | {n(own)} |"
      f" {100.0 * own / op_plain:.1f} % of plain operator side |")
print(f"| operator side (all threads but the API server's) | {n(op_plain)} | {n(op_rec)} | {pct(op_rec, op_plain)} |")
all_plain = op_plain + plain["server"]["ir"]
all_rec = op_rec + rec["server"]["ir"]
print(f"| whole process (all threads; what 2 cores share) | {n(all_plain)} | {n(all_rec)} |"
      f" {pct(all_rec, all_plain)} |")
print(f"| API server thread (for reference) | {n(plain['server']['ir'])} | {n(rec['server']['ir'])} |"
      f" {pct(rec['server']['ir'], plain['server']['ir'])} |")
print(f"| engine thread allocations (malloc/calloc/realloc) | {n(plain['engine']['allocs'])} |"
      f" {n(rec['engine']['allocs'])} | {pct(rec['engine']['allocs'], plain['engine']['allocs'])} |")
fp, fr = faults(os.path.join(tmp, "plain.faults")), faults(os.path.join(tmp, "rec.faults"))
print(f"| minor page faults (whole process, median of 3) | {n(fp)} | {n(fr)} | {pct(fr, fp)} |")
print(f"| wall: apps/s (median of 3; load-dependent) | {med('plain', 'apps_per_second'):.0f} |"
      f" {med('rec', 'apps_per_second'):.0f} | |")
print(f"| wall: operator thread CPU s (median of 3) | {med('plain', 'operator_thread_cpu_seconds'):.3f} |"
      f" {med('rec', 'operator_thread_cpu_seconds'):.3f} | |")
print()
print("| recording | value |")
print("|---|---|")
print(f"| file | {n(total)} B, {records} records, {reconciles} reconciles, {events} informer events |")
print(f"| bytes per reconcile (rs + call + re) | {n(per_reconcile / max(reconciles, 1))} |")
print(f"| bytes per informer event (ev) | {n(kinds.get('ev', [0, 1])[1] / max(events, 1))} |")
print(f"| whole file per reconcile / per app | {n(total / max(reconciles, 1))} / {n(total / apps)} |")
print("| per kind: records × mean bytes (share) | " + ", ".join(
    f"{k} {c[0]} × {c[1] / c[0]:.0f} ({100.0 * c[1] / total:.1f} %)"
    for k, c in sorted(kinds.items(), key=lambda kv: -kv[1][1])) + " |")
print(f"| bench counters (rec.3) | record_bytes {rec_json.get('record_bytes')},"
      f" record_reconciles {rec_json.get('record_reconciles')}, record_events {rec_json.get('record_events')} |")
print()
print("| replay (`opbench-operator --replay`) | value |")
print("|---|---|")
print(f"| replayed / diverged / skipped | {replay['replayed']} / {replay['diverged']} / {replay['skipped']} |")
print(f"| instructions per replayed reconcile, the walk (Replayer::run) | {n(replay_walk / replayed)} |")
print(f"| … reading and parsing the file (Recording::read), per reconcile | {n(replay_read / replayed)} |")
print(f"| … whole process (start-up included), per reconcile | {n(replay_total / replayed)} |")
print("| wall reconciles/s (3 runs; load average before each) | " + ", ".join(
    f"{r:.0f} (load {l})" for r, l in zip(rps, rps_load)) + " |")
PY
