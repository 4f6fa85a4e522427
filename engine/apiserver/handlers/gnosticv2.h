// SPDX-License-Identifier: Apache-2.0
#pragma once
// The protobuf form of a swagger 2.0 document: gnostic's openapi_v2.Document
// (github.com/google/gnostic-models, openapiv2/OpenAPIv2.proto), which is what kubectl asks
// /openapi/v2 for (Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf) and
// unmarshals with proto.Unmarshal.
//
// encodeGnosticV2Document() walks the JSON document (openapiv2.h builds it) and writes the
// messages kubectl reads: Document{swagger, info, paths, definitions}, PathItem and Operation
// (consumes, produces, parameters, responses), the four parameter kinds, and Schema with every
// field swagger 2.0 defines. Vendor extensions ("x-…" keys) become NamedAny{name, Any{yaml}},
// the YAML being the value's compact JSON (JSON is YAML: kubectl's yaml.v2 reads it). Keys the
// gnostic messages have no field for are dropped, as gnostic's own JSON→protobuf step does.

#include <QByteArray>
#include <QJsonObject>

namespace opbench::apiserver {

/// The gnostic openapi_v2.Document for the swagger 2.0 JSON document `swagger`.
QByteArray encodeGnosticV2Document(const QJsonObject &swagger);

} // namespace opbench::apiserver
