#!/usr/bin/env bash
# The house habits of CONTRIBUTING.md, checked (meant for CI; installs nothing):
#   1. format: every tracked .cpp/.h is as clang-format-14 formats it (.clang-format);
#   2. subjects: every commit subject after the reformat commit ("Format the whole tree with
#      clang-format 14") is at most 72 characters; in a shallow clone without that commit, every
#      commit the clone has;
#   3. tidy: with clang-tidy-14 (or clang-tidy) installed and build/compile_commands.json present
#      (packaging/build.sh writes it), clang-tidy runs on the .cpp files changed since the reformat
#      commit (committed or not); a finding of .clang-tidy's checks on a line changed since then
#      (in any .cpp or .h) fails; older findings in changed files are counted, not failed (the
#      tree predates the rule). Otherwise it says it skipped.
# Usage: packaging/check-style.sh
# Env:   OPBENCH_BUILD_DIR (default build); OPBENCH_STYLE_BASE: the commit the tidy check diffs
#        against (default the reformat commit; e.g. origin/main to check one branch's changes).
# Exit 0 when every check passes or was skipped; 1 naming each check that failed and why.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${OPBENCH_BUILD_DIR:-build}
reformat_subject="Format the whole tree with clang-format 14"
failed=()

# 1. Formatting.
if ! command -v clang-format-14 >/dev/null; then
  echo "format: FAILED: clang-format-14 not found (Debian 12: apt-get install clang-format-14)"
  failed+=(format)
else
  # One clang-format per batch of files; it names each file that differs (-Wclang-format-violations).
  fmt_out=$(git ls-files -z -- '*.cpp' '*.h' | xargs -0 -r clang-format-14 --dry-run -Werror 2>&1 >/dev/null)
  fmt_rc=$?
  mapfile -t unformatted < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$fmt_out" | sort -u)
  if [ $fmt_rc -ne 0 ] && [ ${#unformatted[@]} -eq 0 ]; then
    echo "format: FAILED: clang-format-14 exited with $fmt_rc without naming a file:"
    head -20 <<<"$fmt_out"
    failed+=(format)
  elif [ ${#unformatted[@]} -gt 0 ]; then
    echo "format: FAILED: ${#unformatted[@]} file(s) differ from clang-format-14 (fix: clang-format-14 -i FILE):"
    printf '  %s\n' "${unformatted[@]}"
    failed+=(format)
  else
    echo "format: ok ($(git ls-files -- '*.cpp' '*.h' | wc -l) files)"
  fi
fi

# 2. Commit subjects. The reformat commit is found by its subject (the newest one with it).
reformat=$(git log --format='%H %s' | awk -v s="$reformat_subject" 'substr($0, 42) == s { print $1; exit }')
if [ -n "$reformat" ]; then
  range="$reformat..HEAD"
  what="after ${reformat:0:7} ($reformat_subject)"
else
  range=HEAD
  what="in this clone's history (the reformat commit is not in it: shallow clone?)"
fi
long=$(git log --format='%h %s' "$range" | while IFS= read -r line; do
  subject=${line#* }
  # Characters, not bytes (a subject may hold "→" or "…").
  n=$(LC_ALL=C.UTF-8 bash -c 'printf %s "${#1}"' _ "$subject")
  [ "$n" -gt 72 ] && printf '  %s (%d characters)\n' "$line" "$n"
done)
count=$(git rev-list --count "$range")
if [ -n "$long" ]; then
  echo "subjects: FAILED: commit subjects over 72 characters $what (put the detail in the body):"
  echo "$long"
  failed+=(subjects)
else
  echo "subjects: ok ($count commit(s) $what)"
fi

# 3. clang-tidy on the .cpp files changed since the reformat commit (or OPBENCH_STYLE_BASE).
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
db=$build/compile_commands.json
if [ -z "$tidy" ]; then
  echo "tidy: skipped: neither clang-tidy-14 nor clang-tidy is installed"
elif [ ! -f "$db" ]; then
  echo "tidy: skipped: no $db (run packaging/build.sh first)"
else
  base=${OPBENCH_STYLE_BASE:-$reformat}
  if [ -n "$base" ] && ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
    echo "tidy: FAILED: OPBENCH_STYLE_BASE=$base is not a commit here; checking since the reformat commit"
    bad_base=1
    base=$reformat
  fi
  if [ -n "$base" ]; then
    mapfile -t changed < <(git diff --name-only --diff-filter=d "$base" -- '*.cpp' '*.h')
  else
    mapfile -t changed < <(git log --format= --name-only HEAD -- '*.cpp' '*.h' | sort -u)
  fi
  todo=() unparsed=() notindb=() findings=() older=0
  outdir=$(mktemp -d)
  trap 'rm -rf "$outdir"' EXIT
  # "file:line" for every line added or changed since the base (committed or not).
  git diff -U0 --diff-filter=d "${base:-HEAD}" -- '*.cpp' '*.h' | awk '
    /^\+\+\+ b\// { file = substr($0, 7) }
    /^@@/ { split($3, a, ","); start = substr(a[1], 2); n = (a[2] == "") ? 1 : a[2]
            for (i = 0; i < n; i++) print file ":" (start + i) }' >"$outdir/changed-lines"
  for f in "${changed[@]}"; do
    [ -f "$f" ] && [ "${f%.cpp}" != "$f" ] || continue
    if grep -q "\"file\": \"$PWD/$f\"" "$db"; then todo+=("$f"); else notindb+=("$f"); fi
  done
  # One clang-tidy per file, as many at once as there are cores; outputs are read afterwards.
  if [ ${#todo[@]} -gt 0 ]; then
    printf '%s\0' "${todo[@]}" | xargs -0 -r -P "$(nproc)" -I{} sh -c \
      'out="$4/$(printf %s "$3" | tr / _).out"; "$1" -p "$2" --quiet --extra-arg=-Wno-unknown-warning-option "$3" >"$out" 2>/dev/null || true' \
      _ "$tidy" "$build" {} "$outdir"
  fi
  for f in "${todo[@]}"; do
    out=$(cat "$outdir/$(printf %s "$f" | tr / _).out" 2>/dev/null)
    # Findings of the agreed checks; the compiler's own diagnostics are not findings.
    hits=$(grep -E '(warning|error): .* \[[a-z]+-[a-z0-9.-]+(,[a-z0-9.-]+)*\]$' <<<"$out" | grep -v '\[clang-diagnostic-')
    while IFS= read -r hit; do
      [ -n "$hit" ] || continue
      file=${hit%%:*}
      file=${file#"$PWD/"}
      line=${hit#*:}
      line=${line%%:*}
      if grep -qxF -- "$file:$line" "$outdir/changed-lines"; then
        findings+=("$file:${hit#*:}")
      elif printf '%s\n' "${changed[@]}" | grep -qxF -- "$file"; then
        older=$((older + 1))
      fi
    done <<<"$hits"
    # clang 14 cannot parse everything g++ 12 compiles (e.g. structured bindings captured by a
    # lambda): such a file is reported, not failed.
    if grep -q '\[clang-diagnostic-error\]$' <<<"$out"; then
      unparsed+=("$f: $(grep -m1 '\[clang-diagnostic-error\]$' <<<"$out" | sed "s|^$PWD/||")")
    fi
  done
  checked=${#todo[@]}
  if [ ${#notindb[@]} -gt 0 ]; then
    echo "tidy: not in $db (not built here), not checked: ${notindb[*]}"
  fi
  if [ ${#unparsed[@]} -gt 0 ]; then
    echo "tidy: clang-tidy's clang could not parse these, their findings may be incomplete:"
    printf '  %s\n' "${unparsed[@]}"
  fi
  if [ "$older" -gt 0 ]; then
    echo "tidy: $older older finding(s) in the changed files, not on changed lines (not failed)"
  fi
  if [ ${#findings[@]} -gt 0 ]; then
    echo "tidy: FAILED: findings on lines changed ${base:+since ${base:0:12}} (.clang-tidy; $tidy -p $build FILE):"
    printf '%s\n' "${findings[@]}" | sort -u | sed 's/^/  /'
    failed+=(tidy)
  elif [ -n "${bad_base:-}" ]; then
    failed+=(tidy)
  else
    echo "tidy: ok ($checked changed .cpp file(s) checked with $(basename "$tidy"))"
  fi
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "check-style: FAILED: ${failed[*]}"
  exit 1
fi
echo "check-style: ok"
