// SPDX-License-Identifier: Apache-2.0
#pragma once
// opbench — the front door for operator authors (controller-runtime's alias.go): one include,
//   #include <opbench/opbench.h>          (installed SDK; in this tree: "engine/opbench.h")
// gives the names an operator needs. Link opbench::runtime (the library), plus opbench::sdk for
// runOperator() and opbench::workbench for runWorkbench(); tests add opbench::testing for
// OperatorFixture (engine/testing/operatorfixture.h, not included here).
//
// What to use, in the order you meet it:
//
//   Object, ObjectView           a Kubernetes object (immutable, shared) and typed views over it,
//                                with finalizers, isBeingDeleted(), generation() and status
//                                conditions on every view (engine/api/object.h, objectview.h)
//   KindInfo, Kind, gvkOf<T>()   a view that knows its kind: what typed calls, builders and
//                                definitions take (engine/api/kind.h)
//   ConfigMap, Deployment, Pod, Event, Lease, NamespaceView   built-in views
//   Condition                    status.conditions entries, meta.SetStatusCondition semantics
//                                (engine/api/condition.h)
//   GroupVersionKind/Resource    identities (engine/api/gvk.h)
//   LabelSelector, FieldSelector selectors (engine/api/labelselector.h, fieldselector.h)
//   crdMappings()                your kind's REST mapping read from its CRD (engine/api/crdmapping.h)
//   Status, Expected<T>          API errors with isNotFound()/isConflict()…, and value-or-Status
//                                results (engine/api/status.h, expected.h)
//   Reconciler, Request, Result, ReconcileOutcome, TerminalError, ignoreNotFound(),
//   requeueOnConflict()          the reconcile contract; client() and recorder() inside a
//                                reconciler built with ControllerBuilder::complete()
//                                (engine/controller/reconciler.h)
//   ReconcileContext             the first argument of every client call: tracing, stepping,
//                                cancellation (engine/controller/reconcilecontext.h)
//   Client, ObjectKey, InNamespace, MatchingLabels, MatchingFields, Limit
//                                typed reads from the cache (get<T>, list<T>), writes to the API
//                                server that write the reply back (create/update/updateStatus/
//                                patch/patchStatus/remove), createOrUpdate(ctx, T, mutate)
//                                (engine/controller/client.h, clientoptions.h)
//   setControllerReference, retryOnConflict, createOrPatch, Patch
//                                ownership and write helpers (engine/controller/clientutil.h, patch.h)
//   ControllerBuilder            ControllerBuilder(manager).forKind<T>().owns<C>().watches<K>(…)
//                                .complete(reconciler) (engine/controller/builder.h)
//   predicates::generationChanged() and friends   (engine/controller/predicates.h)
//   Recorder, EventRecorder      Kubernetes Events in one call: recorder().normal(obj, reason,
//                                message) (engine/controller/recorder.h, manager/eventrecorder.h)
//   Manager, ManagerOptions      the shared cache and client, leader election, metrics, probes,
//                                event recorders, controllers() (engine/manager/manager.h)
//   WebhookBuilder, CustomDefaulter<T>, CustomValidator<T>, ValidationResult
//                                admission webhooks: WebhookBuilder(manager).forKind<T>()
//                                .withDefaulter(d).withValidator(v).complete()
//                                (engine/webhook/webhookbuilder.h, customwebhook.h)
//   Hub, checkRoundTrip()        conversion webhooks: a hub view and spokes with convertTo/
//                                convertFrom, served at /convert (engine/webhook/conversion.h)
//   OperatorDefinition           CRDs + setup + samples (+ kinds and lease, defaulted): everything
//                                runOperator() and runWorkbench() need (engine/sdk/operatordefinition.h)
//   runOperator()                the headless main with the kubebuilder flags (engine/sdk/operatormain.h)
//   Logger                       logr-style structured logs (engine/base/logger.h)

#include "engine/api/builtin/builtin.h"
#include "engine/api/condition.h"
#include "engine/api/configmap.h"
#include "engine/api/crdmapping.h"
#include "engine/api/deployment.h"
#include "engine/api/event.h"
#include "engine/api/expected.h"
#include "engine/api/fieldselector.h"
#include "engine/api/gvk.h"
#include "engine/api/kind.h"
#include "engine/api/labelselector.h"
#include "engine/api/lease.h"
#include "engine/api/namespaceobject.h"
#include "engine/api/object.h"
#include "engine/api/objectview.h"
#include "engine/api/pod.h"
#include "engine/api/status.h"
#include "engine/api/typed/crdgen.h"
#include "engine/base/logger.h"
#include "engine/controller/builder.h"
#include "engine/controller/client.h"
#include "engine/controller/clientoptions.h"
#include "engine/controller/clientutil.h"
#include "engine/controller/patch.h"
#include "engine/controller/predicates.h"
#include "engine/controller/reconcilecontext.h"
#include "engine/controller/reconciler.h"
#include "engine/controller/recorder.h"
#include "engine/manager/eventrecorder.h"
#include "engine/manager/manager.h"
#include "engine/sdk/addkind.h"
#include "engine/sdk/operatordefinition.h"
#include "engine/sdk/operatormain.h"
#include "engine/webhook/conversion.h"
#include "engine/webhook/customwebhook.h"
#include "engine/webhook/webhookbuilder.h"
