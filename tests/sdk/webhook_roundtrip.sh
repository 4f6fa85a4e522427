#!/usr/bin/env bash
# `opbench-init create webhook` from outside, on a project opbench-init scaffolded and built
# (sdk_roundtrip.sh's plain scaffold: Widget, shop.demo.io/v1alpha1): refusals that change no
# file, then all three webhooks added; the project rebuilds against the installed SDK, its webhook
# test passes (the tests through the API server skip, saying why, on an SDK whose harness cannot
# serve webhooks), and the operator's CRD serves both versions.
# Usage: webhook_roundtrip.sh OPBENCH_INIT PROJECT_DIR BUILD_DIR   (OPBENCH_ROUNDTRIP_JOBS: build jobs)
set -euo pipefail
init=$1
project=$2
build=$3
tree() { (cd "$project" && find . -type f -not -path './.git/*' | sort | xargs sha1sum); }
refused() { # $1: what the error must say; the rest: the flags. The project must be left as it was.
  local says=$1; shift
  local before; before=$(tree)
  if (cd "$project" && "$init" create webhook "$@") 2>"$project.refused.txt"; then
    echo "create webhook $* was not refused"; exit 1
  fi
  grep -qF -- "$says" "$project.refused.txt" || { echo "create webhook $*: expected \"$says\", got:"; cat "$project.refused.txt"; exit 1; }
  [ "$(tree)" = "$before" ] || { echo "create webhook $* was refused but changed the project"; exit 1; }
  echo "refused as expected: $(cat "$project.refused.txt")"
}
kind=(--group shop --version v1alpha1 --kind Widget)

refused "requires at least one of --defaulting, --programmatic-validation and --conversion" "${kind[@]}"
refused "has no kind Gadget (no src/gadget.h declaring it): its kinds are Widget (shop.demo.io/v1alpha1, src/widget.h)" \
  --group shop --version v1alpha1 --kind Gadget --defaulting
refused "--conversion requires --spoke VERSION" "${kind[@]}" --conversion
refused "is not a project scaffolded by opbench-init" "${kind[@]}" --defaulting "$project/src"

(cd "$project" && "$init" create webhook "${kind[@]}" --defaulting --programmatic-validation --conversion --spoke v1beta1)
refused "src/widget_webhook.h already exists" "${kind[@]}" --defaulting

cmake --build "$build" --parallel "${OPBENCH_ROUNDTRIP_JOBS:-2}" >"$build.webhook.log" || { tail -60 "$build.webhook.log"; exit 1; }
(cd "$build" && ctest --no-tests=error --output-on-failure --timeout 120 -R tst_widget_webhook)
# The test's own verdict on the tests through the API server, for the log.
(cd "$build" && ./tst_widget_webhook 2>&1 | grep -E '^(SKIP|Totals)' | sed 's/^/  /') || true

crd=$("$build/widget-operator" --print-crd)
grep -q 'name: v1alpha1' <<<"$crd" && grep -q 'name: v1beta1' <<<"$crd" \
  || { echo "the operator's CRD does not serve v1alpha1 and v1beta1:"; echo "$crd"; exit 1; }
[ "$(grep -c 'storage: true' <<<"$crd")" -eq 1 ] || { echo "the CRD has not exactly one storage version"; exit 1; }
echo "webhook roundtrip: OK"
