// SPDX-License-Identifier: Apache-2.0
#pragma once
// opbench — the front door for operator authors (controller-runtime's alias.go): one include,
//   #include <opbench/opbench.h>          (installed SDK; in this tree: "engine/opbench.h")
// gives the names an operator needs. Link opbench::runtime (the library), plus opbench::sdk for
// runOperator() and opbench::workbench for runWorkbench().
//
// What to use, in the order you meet it:
//
//   Object, ObjectView           a Kubernetes object (immutable, shared) and typed views over it
//                                (engine/api/object.h, objectview.h). Subclass ObjectView for your
//                                kind, as engine/operator/myapplication.h does.
//   GroupVersionKind/Resource    identities (engine/api/gvk.h)
//   crdMappings()                your kind's REST mapping read from its CRD: kind, plural, short
//                                names, scope, subresources (engine/api/crdmapping.h)
//   Status, Expected<T>          API errors with isNotFound()/isConflict()…, and value-or-Status
//                                results (engine/api/status.h, expected.h)
//   Reconciler, Request, Result, ReconcileOutcome, TerminalError
//                                the reconcile contract: level-based, idempotent; return Result{}
//                                (done), Result{requeueAfter} or an error (backoff); a TerminalError
//                                is not retried (engine/controller/reconciler.h)
//   ReconcileContext             the first argument of every client call: tracing, stepping,
//                                cancellation (engine/controller/reconcilecontext.h)
//   Client                       reads from the cache (get/list), writes to the API server
//                                (create/update/patch/remove, status()) (engine/controller/client.h)
//   createOrUpdate, setControllerReference, addFinalizer/removeFinalizer, retryOnConflict
//                                the idempotent-write and ownership helpers
//                                (engine/controller/clientutil.h)
//   ControllerBuilder            forKind(For) · owns(Owns) · watches · withEventFilter · named ·
//                                withOptions · build(reconciler, parent) (engine/controller/builder.h)
//   predicates::generationChanged() and friends   (engine/controller/predicates.h)
//   Manager, ManagerOptions      the shared cache and client, leader election, metrics, probes,
//                                event recorders; add(controller) (engine/manager/manager.h)
//   EventRecorder                Kubernetes Events for your objects (engine/manager/eventrecorder.h)
//   OperatorDefinition           CRDs + kinds + setup + samples + lease: everything runOperator()
//                                and runWorkbench() need (engine/sdk/operatordefinition.h)
//   runOperator()                the headless main with the kubebuilder flags (engine/sdk/operatormain.h)
//   Logger                       logr-style structured logs (engine/base/logger.h)

#include "engine/api/crdmapping.h"
#include "engine/api/expected.h"
#include "engine/api/gvk.h"
#include "engine/api/object.h"
#include "engine/api/objectview.h"
#include "engine/api/status.h"
#include "engine/base/logger.h"
#include "engine/controller/builder.h"
#include "engine/controller/client.h"
#include "engine/controller/clientutil.h"
#include "engine/controller/predicates.h"
#include "engine/controller/reconcilecontext.h"
#include "engine/controller/reconciler.h"
#include "engine/manager/eventrecorder.h"
#include "engine/manager/manager.h"
#include "engine/sdk/operatordefinition.h"
