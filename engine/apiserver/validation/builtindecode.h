// SPDX-License-Identifier: Apache-2.0
#pragma once
// Decoding a built-in object against its Go field types, as kube-apiserver's JSON decoder does
// before anything else: a value of the wrong JSON type in a field the schema table
// (openapischema.h) knows is refused with Go's message, e.g. for a Deployment with
// `spec.replicas: "3"`:
//
//   json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32
//
// (create and update wrap it as `Deployment in version "v1" cannot be handled as a Deployment:
// …`, 400 BadRequest). null is accepted everywhere (Go leaves the zero value). Fields the table
// does not describe, free-form objects, IntOrString, Quantity and times are not checked, and
// unknown fields are left to fieldValidation (fieldvalidation.h).

#include "engine/api/expected.h"
#include "engine/apiserver/registry/registry.h"

#include <QJsonObject>

namespace opbench::apiserver {

/// 400 BadRequest with Go's unmarshal message for the first mistyped field of `object` (served
/// form) when `type` is a built-in kind with a schema; ok otherwise.
Expected<void> checkBuiltinFieldTypes(const ResourceType &type, const QJsonObject &object);

} // namespace opbench::apiserver
