#!/bin/sh
# opbench-gen against a stand-in operator binary whose --print-crd prints two CRDs: one file per
# CRD, --check passes on fresh files and fails naming a stale one, a failing binary is an error.
# Usage: check_opbench_gen.sh <opbench-gen> <crd.yaml> <crd.yaml>
set -eu
GEN=$1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
{ cat "$2"; echo '---'; cat "$3"; } > "$WORK/stream.yaml"
printf '#!/bin/sh\n[ "$1" = --print-crd ] && cat "%s"\n' "$WORK/stream.yaml" > "$WORK/operator"
printf '#!/bin/sh\nexit 3\n' > "$WORK/broken"
chmod +x "$WORK/operator" "$WORK/broken"

"$GEN" crd "$WORK/operator" --output-dir "$WORK/crd"
test "$(ls "$WORK/crd" | wc -l)" -eq 2 || { echo "expected 2 files, got: $(ls "$WORK/crd")"; exit 1; }
"$GEN" crd "$WORK/operator" --output-dir "$WORK/crd" --check
"$GEN" crd - --output-dir "$WORK/crd" --check < "$WORK/stream.yaml"

first=$(ls "$WORK/crd" | head -n 1)
echo '# edited by hand' >> "$WORK/crd/$first"
if "$GEN" crd "$WORK/operator" --output-dir "$WORK/crd" --check 2> "$WORK/err"; then
  echo "--check passed although $first was edited"; exit 1
fi
grep -q "$first is out of date" "$WORK/err" || { cat "$WORK/err"; exit 1; }

if "$GEN" crd "$WORK/broken" --output-dir "$WORK/crd" 2> "$WORK/err"; then
  echo "a failing operator binary was not an error"; exit 1
fi
grep -q "exited with code 3" "$WORK/err" || { cat "$WORK/err"; exit 1; }
echo "opbench-gen: ok"
