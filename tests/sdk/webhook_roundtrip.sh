#!/usr/bin/env bash
# `opbench-init create webhook` from outside, on a project opbench-init scaffolded and built
# (sdk_roundtrip.sh's plain scaffold: Widget, shop.demo.io/v1alpha1): refusals that change no
# file, then all three webhooks added; the project rebuilds against the installed SDK, its webhook
# test passes with nothing skipped (the tests through the API server run on the SDK's harness,
# which registers the webhooks), the operator's CRD serves both versions, and opbench-apiserver
# (installed next to OPBENCH_INIT) accepts the cluster manifests.
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
# Every test ran: the generated test has no skip path, and a skip would hide one that cannot fail.
totals=$(cd "$build" && ./tst_widget_webhook 2>&1 | grep '^Totals:') || { echo "tst_widget_webhook printed no totals"; exit 1; }
echo "  $totals"
grep -q ' 0 failed, 0 skipped,' <<<"$totals" || { echo "tst_widget_webhook failed or skipped tests"; exit 1; }

crd=$("$build/widget-operator" --print-crd)
grep -q 'name: v1alpha1' <<<"$crd" && grep -q 'name: v1beta1' <<<"$crd" \
  || { echo "the operator's CRD does not serve v1alpha1 and v1beta1:"; echo "$crd"; exit 1; }
[ "$(grep -c 'storage: true' <<<"$crd")" -eq 1 ] || { echo "the CRD has not exactly one storage version"; exit 1; }
# The cluster manifests pass the API server's validation (opbench-apiserver applies kube-apiserver's
# rules to webhook configurations and CRDs); the conversion patch applies to the generated CRD.
command -v kubectl >/dev/null || { echo "kubectl is not on PATH: the manifests cannot be checked"; exit 1; }
exec 3< <("$(dirname "$init")/opbench-apiserver" --listen 127.0.0.1:0 --write-kubeconfig "$project.kubeconfig" \
  2>"$project.apiserver.log")
apiserver=$!
trap 'kill $apiserver 2>/dev/null || true' EXIT
read -r -t 60 listening <&3 || { echo "opbench-apiserver did not start"; cat "$project.apiserver.log"; exit 1; }
echo "$listening"
k() { kubectl --kubeconfig "$project.kubeconfig" "$@"; }
k create namespace widget-system
k apply -f "$project/config/webhook/manifests.yaml" -f "$project/config/webhook/service.yaml"
k apply -f - <<<"$crd"
k patch crd widgets.shop.demo.io --type merge --patch-file "$project/config/crd/patches/webhook_in_widgets.yaml"
[ "$(k get crd widgets.shop.demo.io -o jsonpath='{.spec.conversion.strategy}')" = Webhook ]
for c in mutatingwebhookconfiguration/widget-mutating-webhook-configuration \
         validatingwebhookconfiguration/widget-validating-webhook-configuration crd/widgets.shop.demo.io; do
  [ "$(k get "$c" -o jsonpath='{.metadata.annotations.cert-manager\.io/inject-ca-from}')" = widget-system/widget-serving-cert ] \
    || { echo "$c has no cert-manager.io/inject-ca-from annotation"; exit 1; }
done
echo "webhook roundtrip: OK"
