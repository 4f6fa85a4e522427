#!/usr/bin/python3
# check_sizes.py <repository root>  (ctest: tst_sizes)
# Keeps files and functions small enough to read (issue 21). Scans the .cpp/.h files under
# engine/, ui/ and app/ (not tests/, not bench/) and fails naming
#   - each file over MAX_FILE_LINES lines, and
#   - each function over MAX_FUNCTION_LINES lines, counted from the line of its body's opening
#     brace to the line of its closing brace. Functions are found by matching braces at
#     namespace and class scope after blanking comments, literals and preprocessor lines;
#     lambdas and local classes count within their enclosing function. Brace initializers
#     at namespace or class scope (tables, default member values) are data, not functions.
# Files listed in cmake/size-allowlist.txt (one path per line, '#' starts the reason) are
# exempt from both checks: generated or data tables, and splits still pending. An entry whose
# file no longer exists or no longer breaks a limit fails too, so the list only shrinks.
import os
import re
import sys

MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
FOLDERS = ("engine", "ui", "app")
ALLOWLIST = os.path.join("cmake", "size-allowlist.txt")


def blank(text):
    """Comments, string/char literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c == "#":
            # a preprocessor line, with its backslash continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        if c == "\n":
            out.append(c)
            at_line_start = True
            i += 1
            continue
        if c in " \t":
            out.append(c)
            i += 1
            continue
        at_line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^()\\ ]{0,16})\(', text[i:i + 24])
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, i + raw.end())
            end = n if end < 0 else end + len(close)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c == "'" and i > 0 and text[i - 1].isalnum():
            # a digit separator (1'000) or the quote after a u8/u/U/L prefix
            m = re.search(r"[\w']+$", text[:i])
            if m and m.group(0)[0].isdigit():
                out.append(" ")
                i += 1
                continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def top_level(header, chars):
    """True when one of chars occurs in header outside (), [] and <>-free nesting."""
    depth = 0
    for k, c in enumerate(header):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif depth == 0 and c in chars:
            if c == "=":
                before, after = header[:k].rstrip(), header[k + 1:k + 2]
                if after == "=" or before.endswith(("=", "!", "<", ">", "operator")):
                    continue
            return True
    return False


def function_name(header):
    depth, first = 0, -1
    for k, c in enumerate(header):
        if c == "(":
            if depth == 0 and first < 0:
                first = k
            depth += 1
        elif c == ")":
            depth -= 1
    head = header[:first] if first >= 0 else header
    m = re.search(r"(operator\s*\S+|[\w:~]+)\s*$", head)
    return m.group(1) if m else "?"


def has_ctor_initializers(header):
    """A ')' at top level followed by a single ':' (a constructor's initializer list)."""
    depth, closed = 0, False
    k = 0
    while k < len(header):
        c = header[k]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            closed = closed or depth == 0
        elif depth == 0 and closed and c == ":":
            if header[k:k + 2] == "::":
                k += 2
                continue
            return True
        k += 1
    return False


def functions(text):
    """(name, first line, line count) of each function body at namespace or class scope."""
    code = blank(text)
    found = []
    header = []
    i, n = 0, len(code)
    line = 1
    scopes = []  # "ns" or "class" for each open scope brace

    def skip_block(start, line):
        """Index after the brace matching code[start] == '{', and the line there."""
        depth = 0
        k = start
        while k < n:
            c = code[k]
            if c == "\n":
                line += 1
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return k + 1, line
            k += 1
        return n, line

    while i < n:
        c = code[i]
        if c == "\n":
            line += 1
            header.append(c)
            i += 1
            continue
        if c == ";":
            header = []
            i += 1
            continue
        if c == "}":
            if scopes:
                scopes.pop()
            header = []
            i += 1
            continue
        if c != "{":
            header.append(c)
            i += 1
            continue
        h = "".join(header)
        flat = " ".join(h.split())
        after_paren = flat[flat.rfind(")") + 1:] if ")" in flat else flat
        prev = flat[-1:] if flat else ""
        if re.search(r"\bnamespace\b", flat) or re.match(r"^extern\s*$", flat):
            scopes.append("ns")
            header = []
            i += 1
            continue
        if re.search(r"\b(class|struct|union|enum)\b", after_paren) and not top_level(after_paren, "="):
            scopes.append("class")
            header = []
            i += 1
            continue
        lambda_init = re.search(r"=\s*\[[^\]]*\]\s*(\(|\{|$|mutable|->)", flat)
        is_function = "(" in flat and (lambda_init or not top_level(flat, "="))
        if is_function and has_ctor_initializers(flat) and (prev.isalnum() or prev in "_>"):
            is_function = False  # a member's brace initializer inside a constructor's list
        start_line = line
        end, line = skip_block(i, line)
        if is_function:
            name = lambda_init and re.search(r"([\w:]+)\s*=\s*\[", flat)
            found.append((name.group(1) if name else function_name(flat), start_line, line - start_line + 1))
            header = []
        else:
            header.append("{}")  # a brace initializer: the declaration goes on until ';'
        i = end
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
    allowed = {}
    problems = []
    with open(os.path.join(root, ALLOWLIST), encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            entry = raw.split("#", 1)[0].strip()
            if entry:
                if "#" not in raw:
                    problems.append(f"{ALLOWLIST}:{number}: {entry} has no reason (add '# why')")
                allowed[entry] = False
    for folder in FOLDERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, folder)):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                found = []
                lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
                if lines > MAX_FILE_LINES:
                    found.append(f"{rel}: {lines} lines (limit {MAX_FILE_LINES}): split it along its concepts")
                for fn, start, count in functions(text):
                    if count > MAX_FUNCTION_LINES:
                        found.append(f"{rel}:{start}: function {fn} is {count} lines (limit {MAX_FUNCTION_LINES})")
                if rel in allowed:
                    allowed[rel] = bool(found)
                else:
                    problems.extend(found)
    for rel, needed in allowed.items():
        if not needed:
            problems.append(f"{ALLOWLIST}: {rel} is within the limits (or gone): remove it from the list")
    for p in problems:
        print(p)
    if problems:
        print(f"tst_sizes: {len(problems)} problem(s); see cmake/check_sizes.py for the rules")
        return 1
    print(f"tst_sizes: files <= {MAX_FILE_LINES} lines, functions <= {MAX_FUNCTION_LINES} lines "
          f"({len(allowed)} allow-listed file(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
