// SPDX-License-Identifier: Apache-2.0
#pragma once
// Metadata-only responses (meta.k8s.io/v1 PartialObjectMetadata), what client-go's metadata
// client and controller-runtime's metadata-only informers ask for with
//   Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1   (list)
//   Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1       (get, watch)
// Each object becomes {"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1",
// "metadata":{...}}; a list is a PartialObjectMetadataList with the list's metadata; watch events
// carry PartialObjectMetadata objects.

#include "engine/api/object.h"

#include <QByteArray>
#include <QJsonObject>

namespace opbench::apiserver {

/// True when the Accept header asks for PartialObjectMetadata (or its List) before a Table.
bool acceptsPartialMetadata(const QByteArray &accept);

/// The PartialObjectMetadata form of `object`.
QJsonObject partialObjectMetadata(const Object &object);

/// Appends the PartialObjectMetadataList head (`listMeta` as its metadata) up to "items":[.
QByteArray partialMetadataListHead(const QJsonObject &listMeta);

} // namespace opbench::apiserver
