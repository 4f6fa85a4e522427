# SPDX-License-Identifier: Apache-2.0
"""Reads one callgrind profile (bench/cost-guard.sh, bench/recording-figures.sh).

profile(path) -> dict with
  ir        instructions (the file's totals)
  allocs    allocations: calls into the allocator's entry points (malloc, calloc, realloc,
            operator new and new[], tcmalloc's tc_* and mimalloc's mi_* ones) from code outside
            them, so one `new` counts once whether it reaches malloc (glibc) or not (tcmalloc)
  recorder  the recording's own instructions: those of recorder code (RunRecorder, the
            opbench::recording namespace, and every function of engine/recording's
            runrecorder/recordingwriter/recordingformat sources, their file-local helpers
            included) plus the inclusive cost of the calls it makes to other code
  fns       the function names seen
  thread    the thread number (--separate-threads=yes), 1 otherwise
  trigger   what dumped it: the CostProbe's name ("reconcile", …) or "termination"
inclusive(path, pattern) -> the inclusive instructions of the calls into functions whose name
  matches `pattern` from functions that do not.
"""
import re

ALLOC = re.compile(r"^(malloc|calloc|realloc|operator new(\[\])?\(|(tc|mi)_(malloc|calloc|realloc|new)\w*)")
RECORDER_NAME = re.compile(r"opbench::(RunRecorder|recording::)")
RECORDER_FILE = re.compile(r"engine/recording/(runrecorder|recordingwriter|recordingformat)\.cpp$")
_NAMED = re.compile(r"(c?fn|fl|fi|fe|cfl|cfi)=\((\d+)\)(?: (.*))?")


def _walk(path):
    """Yields ("fn", name, file), ("cfn", name, file), ("calls", count, None), ("cost", ir, None)
    and ("header", line, None) from a callgrind file, with name compression undone."""
    fns, files = {}, {}
    fl = cfl = ""
    for line in open(path, errors="replace"):
        head = line[:1]
        if head in "0123456789+-*":
            parts = line.split()
            yield ("cost", int(parts[1]) if len(parts) > 1 else 0, None)
            continue
        m = _NAMED.match(line.rstrip("\n"))
        if m:
            kind, ident, text = m.groups()
            table = fns if kind in ("fn", "cfn") else files
            if text is not None:
                table[ident] = text
            value = table.get(ident, "")
            if kind == "fl":
                fl = cfl = value
            elif kind in ("cfl", "cfi"):
                cfl = value
            elif kind in ("fi", "fe"):
                pass  # an inlined file: the function stays the same
            elif kind == "fn":
                cfl = fl
                yield ("fn", re.sub(r"'\d+$", "", value), fl)
            else:
                yield ("cfn", re.sub(r"'\d+$", "", value), cfl)
                cfl = fl
        elif line.startswith("calls="):
            yield ("calls", int(line[6:].split()[0]), None)
        else:
            yield ("header", line, None)


def _is_recorder(name, file):
    return bool(RECORDER_NAME.search(name) or RECORDER_FILE.search(file or ""))


def profile(path):
    d = {"ir": 0, "allocs": 0, "recorder": 0, "fns": set(), "thread": 1, "trigger": None}
    fn_rec = callee_rec = in_call = fn_alloc = False
    callee = ""
    for kind, value, file in _walk(path):
        if kind == "cost":
            if fn_rec and not (in_call and callee_rec):
                d["recorder"] += value
            in_call = False
        elif kind == "fn":
            fn_rec = _is_recorder(value, file)
            fn_alloc = bool(ALLOC.match(value))
            d["fns"].add(value)
        elif kind == "cfn":
            callee, callee_rec = value, _is_recorder(value, file)
        elif kind == "calls":
            in_call = True
            if not fn_alloc and ALLOC.match(callee):
                d["allocs"] += value
        elif value.startswith("desc: Trigger: "):
            trigger = value.split(": ", 2)[2].strip()
            d["trigger"] = trigger.split()[-1] if trigger.startswith("Client Request") else "termination"
        elif value.startswith("thread: "):
            d["thread"] = int(value.split()[1])
        elif value.startswith(("totals:", "summary:")):
            d["ir"] = int(value.split()[1])
    return d


def inclusive(path, pattern):
    rx = re.compile(pattern)
    total, fn, callee, in_call = 0, "", "", False
    for kind, value, _ in _walk(path):
        if kind == "cost":
            if in_call and rx.search(callee) and not rx.search(fn):
                total += value
            in_call = False
        elif kind == "fn":
            fn = value
        elif kind == "cfn":
            callee = value
        elif kind == "calls":
            in_call = True
    return total
