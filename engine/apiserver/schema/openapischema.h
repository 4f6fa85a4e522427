// SPDX-License-Identifier: Apache-2.0
#pragma once
// The OpenAPI schemas of the built-in kinds the server serves, generated from ONE compact field
// table (openapifields.cpp): each definition lists its fields as (name, type, description),
// with a small type language:
//
//   string integer int64 number boolean time quantity intstr object map map:quantity
//   []T          array of T
//   @core.PodSpec  a reference (prefixes core. meta. apps. coord. events. rbac. apiext.)
//   enum:A|B|C   a string enum
//   a leading '!' on the field name marks it required.
//
// List fields the strategic merge table (strategicmerge.h) merges carry
// x-kubernetes-patch-strategy (and x-kubernetes-patch-merge-key), found by walking each kind's
// field paths through that table.
//
// openapi.h turns these into /openapi/v3 documents (components.schemas, refs as allOf) and puts
// CRD schemas beside them; openapiv2.h turns them into the swagger 2.0 /openapi/v2 document.

#include "engine/api/gvk.h"

#include <QHash>
#include <QJsonObject>
#include <QString>

namespace opbench::apiserver {

/// Every built-in definition as an OpenAPI v3 schema, by definition name
/// ("io.k8s.api.apps.v1.Deployment"); refs point at "#/components/schemas/<name>". Kinds carry
/// "x-kubernetes-group-version-kind".
const QHash<QString, QJsonObject> &builtinSchemas();

/// The definition name of a served built-in kind; empty when the table has none.
QString builtinDefinitionFor(const GroupVersionKind &gvk);

/// The definition name of ObjectMeta (what CRD schemas' metadata refers to).
QString objectMetaDefinition();

} // namespace opbench::apiserver
