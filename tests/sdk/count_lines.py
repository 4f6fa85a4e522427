#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Counts hand-written C++ lines under a folder as issue 22 counts them: blank lines, comments
(// and /* */), #include and #pragma lines are left out. Prints the total.
Usage: count_lines.py FOLDER [--except FILE_NAME...]  (files left out by name)"""
import pathlib
import re
import sys


def count(text: str) -> int:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    n = 0
    for line in text.splitlines():
        t = line.strip()
        if not t or t.startswith("//") or t.startswith("#include") or t.startswith("#pragma"):
            continue
        n += 1
    return n


root = pathlib.Path(sys.argv[1])
left_out = set(sys.argv[3:]) if sys.argv[2:3] == ["--except"] else set()
print(sum(count(p.read_text()) for p in sorted(root.rglob("*"))
          if p.suffix in (".h", ".cpp") and p.name not in left_out))
