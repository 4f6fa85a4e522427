// SPDX-License-Identifier: Apache-2.0
#pragma once
// Decoding of Kubernetes protobuf request bodies (`Content-Type:
// application/vnd.kubernetes.protobuf`, what kubectl >= 1.33 sends from `kubectl create
// configmap|secret|namespace|deployment` and `kubectl run`) into the JSON the rest of the
// server works with.
//
// Wire format: the 4 bytes `k8s\0`, then a runtime.Unknown {1: typeMeta {1: apiVersion,
// 2: kind}, 2: raw, 3: contentEncoding, 4: contentType}; `raw` is the object's own message.
// The object is converted with the tables of protobufschema.h:
//   - zero scalars of non-pointer fields are dropped (Go writes every non-pointer field on the
//     wire; in JSON they are `omitempty`), pointer fields keep their zero (`replicas: 0`);
//   - present sub-messages become objects (`resources: {}`), repeated fields arrays, maps
//     objects, bytes base64, Time RFC 3339 (zero: absent), IntOrString a number or a string;
//   - field numbers a table does not list are skipped (nothing else is lost: the reader
//     checks every length).
// Errors: a body without the magic, truncated or with a field of the wrong wire type → 400
// BadRequest naming the field; a kind without a table or a content encoding → 415
// UnsupportedMediaType naming what is unsupported.

#include "engine/api/expected.h"
#include "engine/apiserver/schema/protobufschema.h"

#include <QJsonObject>

namespace opbench::apiserver {

/// The media type of Kubernetes protobuf bodies.
inline constexpr const char kProtobufMediaType[] = "application/vnd.kubernetes.protobuf";

/// Decodes a whole request body (magic + envelope + object) into a JSON object carrying
/// apiVersion and kind from the envelope.
Expected<QJsonObject> decodeProtobufBody(const QByteArray &body);

/// Decodes one message (no magic, no envelope) with `message`'s table; `path` prefixes field
/// names in error messages ("spec.template").
Expected<QJsonObject> decodeProtobufMessage(
    QByteArrayView bytes, const ProtobufMessage &message, const QString &path = QString());

} // namespace opbench::apiserver
